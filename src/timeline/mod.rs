//! Timed pathing: where every NPC is at world time `t` (Majora's Mask style schedules).
//!
//! An NPC's position is a *pure function of world time*: a [`Schedule`] maps time to a
//! distance along a [`Path`] (keys "be at distance dᵢ at time tᵢ", holds, easing, a wrap
//! mode), and the path's arc-length table maps distance to a point. Nothing is integrated
//! frame to frame, so time may run backwards, jump, be slowed or sped up, and a scene loaded
//! at noon puts everyone where they belong.
//!
//! - [`Path`]: a curve of any kind with its arc-length table: position and forward at a
//!   distance, and the exact global nearest point (snapping an NPC back onto its path).
//! - [`Schedule`]: keys, holds, per-leg easing, [`Wrap`] modes, [`NpcState`], crossings of
//!   keys between two times ([`Crossing`]).
//! - [`ScheduleSet`]: many NPCs on shared paths, evaluated in one call into flat arrays.

mod lanes;
mod nearest;
mod path;
mod schedule;
mod set;
#[cfg(target_arch = "x86_64")]
mod transpose;

pub use nearest::Nearest;
pub use path::{Path, MAX_PIECES};
pub use schedule::{Crossing, Ease, Key, NpcState, Schedule, ScheduleSample, Wrap, MAX_LEG_SPEED};
pub use set::{NpcSample, SampleArrays, ScheduleSet, Simd, Times};

use crate::curve::CurveError;

/// Why a path or schedule could not be built or queried.
///
/// ```
/// use wayfarer::timeline::{Schedule, TimelineError, Wrap};
///
/// // A schedule must end after it starts.
/// assert_eq!(Schedule::simple(10.0, 10.0, Wrap::Clamp, 5.0).unwrap_err(), TimelineError::InvalidKey);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimelineError {
    /// The curve could not be built (too few points, NaN, mismatched lengths, …).
    Curve(CurveError),
    /// Fewer than two keys, or a count that does not match (easing flags per leg).
    BadCount,
    /// A time or distance is NaN or infinite.
    NonFinite,
    /// Key times are not strictly increasing, or a distance lies outside `[0, length]`.
    InvalidKey,
    /// An index names no path or NPC.
    OutOfRange,
}

impl From<CurveError> for TimelineError {
    fn from(e: CurveError) -> Self {
        TimelineError::Curve(e)
    }
}

impl core::fmt::Display for TimelineError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            TimelineError::Curve(e) => write!(f, "curve: {e}"),
            TimelineError::BadCount => f.write_str("too few keys or a count mismatch"),
            TimelineError::NonFinite => f.write_str("a time or distance is NaN or infinite"),
            TimelineError::InvalidKey => {
                f.write_str("key times not strictly increasing or distance outside the path")
            }
            TimelineError::OutOfRange => f.write_str("index out of range"),
        }
    }
}

impl std::error::Error for TimelineError {}
