//! Timed pathing: where every NPC is at world time `t` (schedules, Majora's Mask style).
