//! Crowd avoidance: one native step moves a whole crowd of agents toward their targets around
//! static obstacles and each other.
//!
//! The model is the seed's obstacle avoidance (a field of view finds what is near, a ray
//! toward each gives a hit normal, the walking direction is pushed along normal × repel force,
//! the agent turns toward it at a capped rate and walks forward), made deterministic, batched
//! and resolving: see [`steering`] for the rules, [`Crowd`] for the simulator, [`Planner`] for
//! routes around obstacles, [`scenario`] for built-in test scenes.
//!
//! Ground plane XZ, Y up (y is carried through untouched); yaw 0 faces +Z, positive turns
//! clockwise seen from above (Unity's Y rotation).

pub mod agent;
mod angle;
mod buckets;
mod cull;
mod escape;
pub mod goals;
pub mod grid;
mod kernels;
pub mod obstacle;
mod par;
mod paths;
pub mod planner;
mod projection;
mod scan;
pub mod scenario;
mod sieve;
pub mod simulator;
mod slots;
pub mod steering;
mod step;
mod turn;

pub use crate::simd::Simd;
pub use agent::{Agent, AgentDefaults, AgentState, Hit, HitKind, RouteMode};
pub use goals::{CrowdEvent, EventKind, Goal, OnArrival};
pub use obstacle::Obstacle;
pub use planner::Planner;
pub use simulator::{
    AgentId, Crowd, ObstacleId, DETOUR_TIME, MAX_CAPACITY, MAX_SUB_STEP, MAX_SUB_STEPS,
};

/// Why a crowd call was refused (nothing was changed, except where documented).
///
/// ```
/// use wayfarer::crowd::{Crowd, CrowdError};
///
/// let mut crowd = Crowd::new(4).unwrap();
/// assert_eq!(crowd.step(-0.1, 1).unwrap_err(), CrowdError::InvalidArgument);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrowdError {
    /// A number is NaN or infinite.
    NonFinite,
    /// A number is outside its documented range (negative radius, dt ≤ 0, …).
    InvalidArgument,
    /// The crowd already holds [`MAX_CAPACITY`] agents (or obstacles): it grows up to that
    /// limit, no further.
    CapacityExceeded,
    /// The id names no live agent or obstacle.
    UnknownId,
}

impl core::fmt::Display for CrowdError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            CrowdError::NonFinite => "a number is NaN or infinite",
            CrowdError::InvalidArgument => "an argument is outside its range",
            CrowdError::CapacityExceeded => {
                "the crowd holds its limit of MAX_CAPACITY (4 194 304) agents or obstacles"
            }
            CrowdError::UnknownId => "no such agent or obstacle",
        })
    }
}

impl std::error::Error for CrowdError {}
