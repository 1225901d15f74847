//! C ABI for [`crate::timeline`]: paths (`WfPath`) and schedule sets (`WfScheduleSet`).
//!
//! Enum values passed in are `uint32_t` and validated ([`WfWrap`], [`WfEase`]); states come
//! out as `uint32_t` values of [`WfNpc`].

use super::boundary::{
    finite, floats_in, guard, handle_free, handle_mut, handle_new, handle_ref, one_out,
    opt_points_out, opt_slice_out, points_in, points_out, slice_in, slice_out, FfiResult, WfStatus,
};
use crate::timeline::{Ease, Key, Path, SampleArrays, ScheduleSet, TimelineError, Times, Wrap};

/// A path: a curve with its arc-length table (opaque; free with `wf_path_free`).
pub struct WfPath(Path);

/// Many NPCs with schedules on shared paths (opaque; free with `wf_schedule_set_free`).
pub struct WfScheduleSet(ScheduleSet);

/// Wrap mode of a schedule outside its key times (passed as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WfWrap {
    /// Stand at the first key before it and at the last key after it.
    Clamp = 0,
    /// Repeat with period `t_last − t_first` (jumps back to the first key).
    Loop = 1,
    /// Forwards then backwards, period `2 (t_last − t_first)`.
    PingPong = 2,
}

/// Easing flags of one leg (passed as `uint32_t`): which end starts/stops at zero speed.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WfEase {
    /// Constant speed.
    None = 0,
    /// Starts at speed 0.
    In = 1,
    /// Stops at speed 0.
    Out = 2,
    /// Starts and stops at speed 0.
    InOut = 3,
}

/// NPC state written by the evaluate functions (as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WfNpc {
    /// Before the first key (clamp): standing at the first key.
    Before = 0,
    /// Moving between keys.
    Moving = 1,
    /// Holding (consecutive keys with equal distances).
    Holding = 2,
    /// After the last key (clamp): standing at the last key.
    After = 3,
}

impl From<TimelineError> for WfStatus {
    fn from(e: TimelineError) -> Self {
        match e {
            TimelineError::Curve(c) => c.into(),
            TimelineError::BadCount => WfStatus::InvalidCount,
            TimelineError::NonFinite => WfStatus::NonFinite,
            TimelineError::InvalidKey => WfStatus::InvalidArgument,
            TimelineError::DistanceOutOfRange => WfStatus::DistanceOutOfRange,
            TimelineError::InvalidKeyTime => WfStatus::InvalidKeyTime,
            TimelineError::OutOfRange => WfStatus::OutOfRange,
        }
    }
}

/// `count` finite doubles.
///
/// # Safety
/// As [`slice_in`].
unsafe fn doubles_in<'a>(ptr: *const f64, count: usize) -> FfiResult<&'a [f64]> {
    // SAFETY: forwarded contract.
    let v = unsafe { slice_in(ptr, count)? };
    if !v.iter().all(|x| x.is_finite()) {
        return Err(WfStatus::NonFinite);
    }
    Ok(v)
}

fn finite_time(t: f64) -> FfiResult<f64> {
    if t.is_finite() {
        Ok(t)
    } else {
        Err(WfStatus::NonFinite)
    }
}

fn wrap_in(v: u32) -> FfiResult<Wrap> {
    Wrap::from_u32(v).ok_or(WfStatus::InvalidArgument)
}

/// Boxes `path` into `*out_path` (already checked).
fn path_out(out: &mut *mut WfPath, path: Path) -> FfiResult {
    *out = handle_new(WfPath(path));
    Ok(())
}

/// A path along the polyline through `point_count` (≥ 2) points; consecutive duplicates are
/// skipped, all-equal points give a path of length 0. Writes the new handle to `*out_path`.
///
/// # Safety
/// Pointers must be NULL or valid for the counts given.
#[no_mangle]
pub unsafe extern "C" fn wf_path_new_polyline(
    points: *const f32,
    point_count: usize,
    out_path: *mut *mut WfPath,
) -> WfStatus {
    guard(|| {
        // SAFETY: pointers are checked by the boundary helpers; validity is the caller's.
        unsafe {
            let out = one_out(out_path)?;
            let path = Path::polyline(points_in(points, point_count)?)?;
            path_out(out, path)
        }
    })
}

/// A path along the Hermite spline through `point_count` (≥ 2) points with one tangent
/// (velocity) per point (`tangent_count == point_count`).
///
/// # Safety
/// Pointers must be NULL or valid for the counts given.
#[no_mangle]
pub unsafe extern "C" fn wf_path_new_hermite(
    points: *const f32,
    point_count: usize,
    tangents: *const f32,
    tangent_count: usize,
    out_path: *mut *mut WfPath,
) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let out = one_out(out_path)?;
            let pts = points_in(points, point_count)?;
            let tan = points_in(tangents, tangent_count)?;
            path_out(out, Path::hermite(pts, tan)?)
        }
    })
}

/// A path along the Catmull-Rom spline through `point_count` (≥ 2) points; `alpha` and
/// `tension` in [0, 1].
///
/// # Safety
/// Pointers must be NULL or valid for the counts given.
#[no_mangle]
pub unsafe extern "C" fn wf_path_new_catmull_rom(
    points: *const f32,
    point_count: usize,
    alpha: f32,
    tension: f32,
    out_path: *mut *mut WfPath,
) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let out = one_out(out_path)?;
            let pts = points_in(points, point_count)?;
            let path = Path::catmull_rom(pts, finite(alpha)?, finite(tension)?)?;
            path_out(out, path)
        }
    })
}

/// A path along a chain of `piece_count` Bézier pieces of the given degrees (1..=64) sharing
/// end points: `control_count == 1 + sum(degrees)`.
///
/// # Safety
/// Pointers must be NULL or valid for the counts given.
#[no_mangle]
pub unsafe extern "C" fn wf_path_new_bezier_chain(
    control_points: *const f32,
    control_count: usize,
    degrees: *const u32,
    piece_count: usize,
    out_path: *mut *mut WfPath,
) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let out = one_out(out_path)?;
            let pts = points_in(control_points, control_count)?;
            let degs = slice_in(degrees, piece_count)?;
            path_out(out, Path::bezier_chain(pts, degs)?)
        }
    })
}

/// Frees a path (NULL is a no-op).
///
/// # Safety
/// `path` must be NULL or a live handle from `wf_path_new_*`, freed once.
#[no_mangle]
pub unsafe extern "C" fn wf_path_free(path: *mut WfPath) {
    // SAFETY: forwarded contract.
    unsafe { handle_free(path) }
}

/// The path's total arc length.
///
/// # Safety
/// `path` must be NULL or live; `out_length` NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn wf_path_length(path: *const WfPath, out_length: *mut f32) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let p = handle_ref(path)?;
            *one_out(out_length)? = p.0.length();
        }
        Ok(())
    })
}

/// Position and unit forward at each of `count` arc-length distances (clamped to
/// `[0, length]`: a path is defined only there). The forward is finite everywhere (zero-speed points use the local chord, then +Z).
/// `out_forwards` may be NULL. Formerly `wf_path_sample`.
///
/// # Safety
/// Pointers must be NULL or valid for the counts given; outputs must not overlap inputs.
#[no_mangle]
pub unsafe extern "C" fn wf_path_at_distances(
    path: *const WfPath,
    distances: *const f32,
    count: usize,
    out_positions: *mut f32,
    out_positions_capacity: usize,
    out_forwards: *mut f32,
    out_forwards_capacity: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let p = &handle_ref(path)?.0;
            let ds = floats_in(distances, count)?;
            let pos = points_out(out_positions, out_positions_capacity, count)?;
            let fwd = opt_points_out(out_forwards, out_forwards_capacity, count)?;
            p.at_distances(ds, pos, fwd);
        }
        Ok(())
    })
}

/// The global nearest point of the path to each of `count` query points: its distance along
/// the path (`out_distances`, capacity in elements) and the point itself (`out_points`,
/// capacity in points, may be NULL). The distance found exceeds the true minimum by at most
/// 1e-7 × the path's size.
///
/// # Safety
/// Pointers must be NULL or valid for the counts given; outputs must not overlap inputs.
#[no_mangle]
pub unsafe extern "C" fn wf_path_nearest(
    path: *const WfPath,
    query_points: *const f32,
    count: usize,
    out_distances: *mut f32,
    out_distances_capacity: usize,
    out_points: *mut f32,
    out_points_capacity: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let p = &handle_ref(path)?.0;
            let qs = points_in(query_points, count)?;
            let dist = slice_out(out_distances, out_distances_capacity, count)?;
            let mut pts = opt_points_out(out_points, out_points_capacity, count)?;
            for (i, &q) in qs.iter().enumerate() {
                let n = p.nearest(q);
                dist[i] = n.distance;
                if let Some(pts) = pts.as_deref_mut() {
                    pts[i] = n.point;
                }
            }
        }
        Ok(())
    })
}

/// A new, empty schedule set written to `*out_set`.
///
/// # Safety
/// `out_set` must be NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn wf_schedule_set_new(out_set: *mut *mut WfScheduleSet) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let out = one_out(out_set)?;
            *out = handle_new(WfScheduleSet(ScheduleSet::new()));
        }
        Ok(())
    })
}

/// Frees a schedule set (NULL is a no-op).
///
/// # Safety
/// `set` must be NULL or a live handle from `wf_schedule_set_new`, freed once.
#[no_mangle]
pub unsafe extern "C" fn wf_schedule_set_free(set: *mut WfScheduleSet) {
    // SAFETY: forwarded contract.
    unsafe { handle_free(set) }
}

/// Copies `path` into the set; `*out_path_index` receives its index (required, as every
/// `new`/`add` out-pointer: NULL is `WF_STATUS_NULL_POINTER` and nothing is added).
///
/// # Safety
/// Handles must be NULL or live; `set` not used by another thread during the call.
#[no_mangle]
pub unsafe extern "C" fn wf_schedule_set_add_path(
    set: *mut WfScheduleSet,
    path: *const WfPath,
    out_path_index: *mut u32,
) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let s = handle_mut(set)?;
            let p = handle_ref(path)?;
            let out = one_out(out_path_index)?;
            if s.0.path_count() >= u32::MAX as usize {
                return Err(WfStatus::InvalidCount);
            }
            *out = s.0.add_path(p.0.clone());
        }
        Ok(())
    })
}

/// Adds an NPC on path `path_index`: be at `distances[i]` at `times[i]`, `key_count ≥ 2`;
/// equal consecutive distances are a hold. Times increase by at least 1e-9 s per leg
/// (else `WF_STATUS_INVALID_KEY_TIME`). Distances are in
/// `[0, path length]`; one at most `4 * FLT_EPSILON * length` past an end is taken as that end,
/// farther is `WF_STATUS_DISTANCE_OUT_OF_RANGE`. A leg faster than 1e15 units/s is
/// `WF_STATUS_INVALID_ARGUMENT`. `leg_ease`: NULL/0 or `key_count − 1` `WfEase` flags.
/// `wrap`: a `WfWrap`. `*out_npc` receives the NPC's index (required: NULL is
/// `WF_STATUS_NULL_POINTER` and nothing is added).
///
/// # Safety
/// Pointers must be NULL or valid for the counts given; `set` used by no other thread.
#[no_mangle]
pub unsafe extern "C" fn wf_schedule_set_add_npc(
    set: *mut WfScheduleSet,
    path_index: u32,
    times: *const f64,
    distances: *const f32,
    key_count: usize,
    leg_ease: *const u32,
    leg_ease_count: usize,
    wrap: u32,
    out_npc: *mut u32,
) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let s = handle_mut(set)?;
            let ts = doubles_in(times, key_count)?;
            let ds = floats_in(distances, key_count)?;
            let flags = slice_in(leg_ease, leg_ease_count)?;
            let wrap = wrap_in(wrap)?;
            let out = one_out(out_npc)?;
            if !flags.is_empty() && flags.len() + 1 != key_count {
                return Err(WfStatus::InvalidCount);
            }
            let ease = flags
                .iter()
                .map(|&f| Ease::from_u32(f).ok_or(WfStatus::InvalidArgument))
                .collect::<FfiResult<Vec<Ease>>>()?;
            let keys: Vec<Key> = ts
                .iter()
                .zip(ds)
                .map(|(&time, &d)| Key {
                    time,
                    distance: d as f64,
                })
                .collect();
            *out = s.0.add_npc(path_index, &keys, &ease, wrap)?;
        }
        Ok(())
    })
}

/// Adds an NPC walking the whole of path `path_index` from `t_start` to `t_end` (at least
/// 1e-9 s later, else `WF_STATUS_INVALID_KEY_TIME`) at constant speed along its arc length
/// (the seed's case). `*out_npc` receives its index (required).
///
/// # Safety
/// Handles must be NULL or live; `set` used by no other thread.
#[no_mangle]
pub unsafe extern "C" fn wf_schedule_set_add_npc_simple(
    set: *mut WfScheduleSet,
    path_index: u32,
    t_start: f64,
    t_end: f64,
    wrap: u32,
    out_npc: *mut u32,
) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let s = handle_mut(set)?;
            let (t0, t1) = (finite_time(t_start)?, finite_time(t_end)?);
            let wrap = wrap_in(wrap)?;
            let out = one_out(out_npc)?;
            *out = s.0.add_npc_simple(path_index, t0, t1, wrap)?;
        }
        Ok(())
    })
}

/// Number of NPCs in the set.
///
/// # Safety
/// `set` must be NULL or live; `out_count` NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn wf_schedule_set_npc_count(
    set: *const WfScheduleSet,
    out_count: *mut usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let s = handle_ref(set)?;
            *one_out(out_count)? = s.0.npc_count();
        }
        Ok(())
    })
}

/// Checks the four optional outputs for `n` NPCs.
///
/// # Safety
/// As [`points_out`] / [`slice_out`] for each non-NULL pointer.
#[allow(clippy::too_many_arguments)]
unsafe fn outputs<'a>(
    n: usize,
    positions: *mut f32,
    positions_capacity: usize,
    forwards: *mut f32,
    forwards_capacity: usize,
    velocities: *mut f32,
    velocities_capacity: usize,
    states: *mut u32,
    states_capacity: usize,
) -> FfiResult<SampleArrays<'a, u32>> {
    // SAFETY: forwarded contract.
    unsafe {
        Ok(SampleArrays {
            positions: opt_points_out(positions, positions_capacity, n)?,
            forwards: opt_points_out(forwards, forwards_capacity, n)?,
            velocities: opt_points_out(velocities, velocities_capacity, n)?,
            states: opt_slice_out(states, states_capacity, n)?,
        })
    }
}

/// Evaluates every NPC at world time `time`: positions, unit forwards (facing the direction of
/// travel), velocities (m/s) and states (`WfNpc`). Every output may be NULL; capacities are
/// in NPCs. A pure function of `time`: the same time gives bit-identical outputs.
///
/// # Safety
/// Pointers must be NULL or valid for the capacities given; outputs must not overlap.
#[no_mangle]
pub unsafe extern "C" fn wf_schedule_set_evaluate(
    set: *const WfScheduleSet,
    time: f64,
    out_positions: *mut f32,
    out_positions_capacity: usize,
    out_forwards: *mut f32,
    out_forwards_capacity: usize,
    out_velocities: *mut f32,
    out_velocities_capacity: usize,
    out_states: *mut u32,
    out_states_capacity: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let s = &handle_ref(set)?.0;
            let t = finite_time(time)?;
            let mut out = outputs(
                s.npc_count(),
                out_positions,
                out_positions_capacity,
                out_forwards,
                out_forwards_capacity,
                out_velocities,
                out_velocities_capacity,
                out_states,
                out_states_capacity,
            )?;
            s.evaluate_into(Times::One(t), None, &mut out);
        }
        Ok(())
    })
}

/// [`wf_schedule_set_evaluate`] with one time per NPC (`time_count == npc_count`).
///
/// # Safety
/// As [`wf_schedule_set_evaluate`]; `times` valid for `time_count` doubles.
#[no_mangle]
pub unsafe extern "C" fn wf_schedule_set_evaluate_times(
    set: *const WfScheduleSet,
    times: *const f64,
    time_count: usize,
    out_positions: *mut f32,
    out_positions_capacity: usize,
    out_forwards: *mut f32,
    out_forwards_capacity: usize,
    out_velocities: *mut f32,
    out_velocities_capacity: usize,
    out_states: *mut u32,
    out_states_capacity: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let s = &handle_ref(set)?.0;
            let ts = doubles_in(times, time_count)?;
            if ts.len() != s.npc_count() {
                return Err(WfStatus::InvalidCount);
            }
            let mut out = outputs(
                s.npc_count(),
                out_positions,
                out_positions_capacity,
                out_forwards,
                out_forwards_capacity,
                out_velocities,
                out_velocities_capacity,
                out_states,
                out_states_capacity,
            )?;
            s.evaluate_into(Times::PerNpc(ts), None, &mut out);
        }
        Ok(())
    })
}

/// [`wf_schedule_set_evaluate`] for frame-to-frame coherent times: `hints` is a caller-owned
/// array of `hint_count ≥ 2 × npc_count` `uint32_t` (start with zeros; any value is safe),
/// read and updated. Outputs are bit-identical to the stateless call. Keep one hint array per
/// caller thread: the set itself is only read.
///
/// # Safety
/// As [`wf_schedule_set_evaluate`]; `hints` valid for `hint_count` reads and writes.
#[no_mangle]
pub unsafe extern "C" fn wf_schedule_set_evaluate_hinted(
    set: *const WfScheduleSet,
    time: f64,
    hints: *mut u32,
    hint_count: usize,
    out_positions: *mut f32,
    out_positions_capacity: usize,
    out_forwards: *mut f32,
    out_forwards_capacity: usize,
    out_velocities: *mut f32,
    out_velocities_capacity: usize,
    out_states: *mut u32,
    out_states_capacity: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let s = &handle_ref(set)?.0;
            let t = finite_time(time)?;
            let n = s.npc_count();
            let h = slice_out(hints, hint_count, 2 * n)?;
            let mut out = outputs(
                n,
                out_positions,
                out_positions_capacity,
                out_forwards,
                out_forwards_capacity,
                out_velocities,
                out_velocities_capacity,
                out_states,
                out_states_capacity,
            )?;
            s.evaluate_into(Times::One(t), Some(h), &mut out);
        }
        Ok(())
    })
}

/// [`wf_schedule_set_evaluate_times`] with hints (see [`wf_schedule_set_evaluate_hinted`]).
///
/// # Safety
/// As [`wf_schedule_set_evaluate_hinted`]; `times` valid for `time_count` doubles.
#[no_mangle]
pub unsafe extern "C" fn wf_schedule_set_evaluate_times_hinted(
    set: *const WfScheduleSet,
    times: *const f64,
    time_count: usize,
    hints: *mut u32,
    hint_count: usize,
    out_positions: *mut f32,
    out_positions_capacity: usize,
    out_forwards: *mut f32,
    out_forwards_capacity: usize,
    out_velocities: *mut f32,
    out_velocities_capacity: usize,
    out_states: *mut u32,
    out_states_capacity: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let s = &handle_ref(set)?.0;
            let ts = doubles_in(times, time_count)?;
            let n = s.npc_count();
            if ts.len() != n {
                return Err(WfStatus::InvalidCount);
            }
            let h = slice_out(hints, hint_count, 2 * n)?;
            let mut out = outputs(
                n,
                out_positions,
                out_positions_capacity,
                out_forwards,
                out_forwards_capacity,
                out_velocities,
                out_velocities_capacity,
                out_states,
                out_states_capacity,
            )?;
            s.evaluate_into(Times::PerNpc(ts), Some(h), &mut out);
        }
        Ok(())
    })
}

/// Key crossings of every NPC between `time_from` and `time_to` (either order; time may run
/// backwards): occurrences at world times `w` with `min < w ≤ max`, NPC by NPC, each in the
/// order they happen along the direction of travel; direction `+1` when the NPC passes the key
/// walking its schedule forwards, `−1` backwards (rewinding time, or a ping-pong's way back).
/// A loop boundary reports the last key then the first key. Writes up to `capacity` events
/// (`out_npcs`, `out_keys`, `out_directions`, each may be NULL) and `*out_count`. If
/// `capacity` is too small: `WF_STATUS_BUFFER_TOO_SMALL` and `*out_count` = the number needed
/// (the only output written then). The count is closed-form per NPC (its cost does not grow
/// with the span of time); events are walked only to be written, so the work is bounded by
/// `capacity`: with all three arrays NULL the call only counts.
///
/// # Safety
/// Pointers must be NULL or valid for `capacity` elements; `out_count` valid for one write.
#[no_mangle]
pub unsafe extern "C" fn wf_schedule_set_crossings(
    set: *const WfScheduleSet,
    time_from: f64,
    time_to: f64,
    out_npcs: *mut u32,
    out_keys: *mut u32,
    out_directions: *mut i32,
    capacity: usize,
    out_count: *mut usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: as above.
        unsafe {
            let s = &handle_ref(set)?.0;
            let (a, b) = (finite_time(time_from)?, finite_time(time_to)?);
            let count_out = one_out(out_count)?;
            let n = s.crossing_count(a, b);
            if n > capacity {
                *count_out = n;
                return Err(WfStatus::BufferTooSmall);
            }
            if out_npcs.is_null() && out_keys.is_null() && out_directions.is_null() {
                // Count only: the closed-form count, without walking the events.
                *count_out = n;
                return Ok(());
            }
            let mut npcs = opt_slice_out(out_npcs, capacity, n)?;
            let mut keys = opt_slice_out(out_keys, capacity, n)?;
            let mut dirs = opt_slice_out(out_directions, capacity, n)?;
            let mut i = 0usize;
            s.for_each_crossing(a, b, |npc, c| {
                if i >= n {
                    return false;
                }
                if let Some(o) = npcs.as_deref_mut() {
                    o[i] = npc;
                }
                if let Some(o) = keys.as_deref_mut() {
                    o[i] = c.key;
                }
                if let Some(o) = dirs.as_deref_mut() {
                    o[i] = c.direction;
                }
                i += 1;
                true
            });
            *count_out = i;
        }
        Ok(())
    })
}
