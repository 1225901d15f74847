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
pub use schedule::{
    distance_tolerance, Crossing, Ease, Key, NpcState, Schedule, ScheduleSample, Wrap,
    MAX_LEG_SPEED, MIN_LEG_SECONDS,
};
pub use set::{NpcSample, SampleArrays, ScheduleSet, Simd, Times};

use crate::curve::CurveError;

/// Why a path or schedule could not be built or queried.
///
/// ```
/// use wayfarer::timeline::{Schedule, TimelineError, Wrap};
///
/// // A schedule must end after it starts.
/// assert_eq!(Schedule::simple(10.0, 10.0, Wrap::Clamp, 5.0).unwrap_err(), TimelineError::InvalidKeyTime);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimelineError {
    /// The curve could not be built (too few points, NaN, mismatched lengths, …).
    Curve(CurveError),
    /// Fewer than two keys, or a count that does not match (easing flags per leg).
    BadCount,
    /// A time or distance is NaN or infinite.
    NonFinite,
    /// A leg is faster than [`MAX_LEG_SPEED`].
    InvalidKey,
    /// A key distance lies outside `[0, length]` by more than [`distance_tolerance`] (within
    /// it the distance is taken as the nearer end).
    DistanceOutOfRange,
    /// Key times do not increase by at least [`MIN_LEG_SECONDS`] per leg, or span more than
    /// `f64::MAX / 2` seconds.
    InvalidKeyTime,
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
            TimelineError::InvalidKey => f.write_str("a leg is faster than MAX_LEG_SPEED"),
            TimelineError::DistanceOutOfRange => f.write_str(
                "a key distance is outside [0, path length] (4 * f32::EPSILON * length past it is the end)",
            ),
            TimelineError::InvalidKeyTime => {
                f.write_str("key times must increase by at least MIN_LEG_SECONDS (1e-9 s) per leg")
            }
            TimelineError::OutOfRange => f.write_str("index out of range"),
        }
    }
}

impl std::error::Error for TimelineError {}
