//! C ABI for [`crate::crowd::goals`]: per-agent goal queues (what an agent walks to in turn,
//! how long it waits at each, what it does at the last), and the events of the last step
//! (goals reached, agents despawned), on the crowd handle of [`super::crowd`].

use super::boundary::{
    finite, floats_in, guard, handle_mut, handle_ref, one_out, opt_points_out, opt_slice_out,
    point_in, points_in, WfStatus,
};
use super::crowd::WfCrowd;
use crate::crowd::{AgentId, Goal, OnArrival};

/// Gives agent `id` a queue of `count` goals: it walks to the first now; on reaching each
/// (within its arrival radius, not stopped short against others) it waits that goal's wait,
/// then takes the next; at the last it does what `on_arrival` says (`WF_ON_ARRIVAL_*`).
/// `targets` holds `count` points (xyz); `arrival_radii` and `waits` hold `count` floats each,
/// or are NULL (every radius the agent's arrival radius; no waits). Replaces any queue the
/// agent had; `count` 0 drops it (the agent keeps its target and stops there). Checked before
/// anything changes: unknown id `WF_STATUS_OUT_OF_RANGE`, NaN/Inf `WF_STATUS_NON_FINITE`,
/// a negative radius or wait or an unknown `on_arrival` `WF_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; arrays NULL or of the lengths given.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_set_goals(
    crowd: *mut WfCrowd,
    id: u32,
    targets: *const f32,
    arrival_radii: *const f32,
    waits: *const f32,
    count: usize,
    on_arrival: u32,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = handle_mut(crowd)?;
            let on = OnArrival::from_code(on_arrival).ok_or(WfStatus::InvalidArgument)?;
            let targets = points_in(targets, count)?;
            let radii = if arrival_radii.is_null() {
                None
            } else {
                Some(floats_in(arrival_radii, count)?)
            };
            let waits = if waits.is_null() {
                None
            } else {
                Some(floats_in(waits, count)?)
            };
            let own = c.crowd.agent(AgentId(id))?.arrival_radius;
            let mut goals = Vec::with_capacity(count);
            for (i, &t) in targets.iter().enumerate() {
                let r = radii.map_or(own, |r| r[i]);
                let w = waits.map_or(0.0, |w| w[i]);
                goals.push(Goal::new(t, finite(r)?).waiting(finite(w)?));
            }
            c.crowd.set_goals(AgentId(id), &goals, on)?;
        }
        Ok(())
    })
}

/// Adds a goal at `target` (xyz), reached within `arrival_radius`, waited at for `wait`
/// seconds, to the end of agent `id`'s queue (an agent without one gets a queue whose first
/// goal is its target).
///
/// # Safety
/// `crowd` must be NULL or a live crowd; `target` NULL or 3 floats.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_push_goal(
    crowd: *mut WfCrowd,
    id: u32,
    target: *const f32,
    arrival_radius: f32,
    wait: f32,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = handle_mut(crowd)?;
            let t = point_in(target)?;
            let g = Goal::new(t, finite(arrival_radius)?).waiting(finite(wait)?);
            c.crowd.push_goal(AgentId(id), g)?;
        }
        Ok(())
    })
}

/// Sets what agent `id` does at the last goal of its queue (`WF_ON_ARRIVAL_*`; other values:
/// `WF_STATUS_INVALID_ARGUMENT`).
///
/// # Safety
/// `crowd` must be NULL or a live crowd.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_set_on_arrival(
    crowd: *mut WfCrowd,
    id: u32,
    on_arrival: u32,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        let c = unsafe { handle_mut(crowd)? };
        let on = OnArrival::from_code(on_arrival).ok_or(WfStatus::InvalidArgument)?;
        c.crowd.set_on_arrival(AgentId(id), on)?;
        Ok(())
    })
}

/// Writes how many goals agent `id` has left after the one it walks to now (0 without a queue).
///
/// # Safety
/// `crowd` must be NULL or a live crowd; `out_count` valid.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_goals_left(
    crowd: *const WfCrowd,
    id: u32,
    out_count: *mut usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe {
            let c = handle_ref(crowd)?;
            let out = one_out(out_count)?;
            *out = c.crowd.goals_left(AgentId(id))?;
        }
        Ok(())
    })
}

/// Reads what happened during the last `wf_crowd_step` (a refused step reports nothing): for
/// each event, its kind
/// (`WF_EVENT_*`), the agent's id, how many goals the agent had reached before this one, and
/// where it stood (xyz). `out_count` (required) gets the number of events; every other output
/// is optional (NULL: not wanted) and must hold that many (capacities in events), else
/// `WF_STATUS_BUFFER_TOO_SMALL` with only `out_count` written. Call with every array NULL to
/// ask the count.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; arrays NULL or of the capacities given, not
/// overlapping; `out_count` valid.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_read_events(
    crowd: *const WfCrowd,
    out_kinds: *mut u32,
    out_kinds_capacity: usize,
    out_agents: *mut u32,
    out_agents_capacity: usize,
    out_goals: *mut u32,
    out_goals_capacity: usize,
    out_positions: *mut f32,
    out_positions_capacity: usize,
    out_count: *mut usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = handle_ref(crowd)?;
            let count = one_out(out_count)?;
            let events = c.crowd.events();
            let n = events.len();
            let fits = |p: *mut u32, cap: usize| p.is_null() || cap >= n;
            if !(fits(out_kinds, out_kinds_capacity)
                && fits(out_agents, out_agents_capacity)
                && fits(out_goals, out_goals_capacity)
                && (out_positions.is_null() || out_positions_capacity >= n))
            {
                *count = n;
                return Err(WfStatus::BufferTooSmall);
            }
            let mut kinds = opt_slice_out(out_kinds, out_kinds_capacity, n)?;
            let mut agents = opt_slice_out(out_agents, out_agents_capacity, n)?;
            let mut goals = opt_slice_out(out_goals, out_goals_capacity, n)?;
            let mut points = opt_points_out(out_positions, out_positions_capacity, n)?;
            for (i, e) in events.iter().enumerate() {
                if let Some(k) = kinds.as_deref_mut() {
                    k[i] = e.kind as u32;
                }
                if let Some(k) = agents.as_deref_mut() {
                    k[i] = e.agent.0;
                }
                if let Some(k) = goals.as_deref_mut() {
                    k[i] = e.goal;
                }
                if let Some(k) = points.as_deref_mut() {
                    k[i] = e.position;
                }
            }
            *count = n;
        }
        Ok(())
    })
}
