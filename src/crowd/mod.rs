//! Crowd avoidance: a batched obstacle-avoidance step for many agents.
