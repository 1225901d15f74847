//! C ABI for [`crate::crowd`]: a crowd handle, agents and obstacles added and removed by id,
//! one batched step, flat-array reads of positions, yaws, states and hits.
//!
//! Ids are `uint32_t` (slot + generation): a removed agent's or obstacle's id is refused with
//! `WF_STATUS_OUT_OF_RANGE`. A crowd grows past the capacity given to `wf_crowd_new` as agents
//! and obstacles are added; only past 4 194 304 (2^22) of either is adding refused, with
//! `WF_STATUS_INVALID_COUNT`.

use glam::Vec3;

use super::boundary::{
    finite, floats_in, guard, handle_free, handle_mut, handle_new, handle_ref, in_domain, one_out,
    opt_points_out, opt_slice_out, point_in, points_in, points_out, slice_in, write_opt, FfiResult,
    WfStatus,
};
use crate::crowd::{
    AgentId, Crowd, CrowdError, EventKind, Obstacle, ObstacleId, OnArrival, RouteMode,
};
use crate::simd::Simd;

/// A crowd of agents among static obstacles (opaque; made by `wf_crowd_new`, freed by
/// `wf_crowd_free`). Not thread-safe: use one crowd from one thread at a time.
pub struct WfCrowd {
    pub(super) crowd: Crowd,
}

const _: () = assert!(
    crate::crowd::MAX_CAPACITY == 1 << 22
        && WfEvent::GoalReached as u32 == EventKind::GoalReached as u32
        && WfEvent::Despawned as u32 == EventKind::Despawned as u32
        && WfOnArrival::Stop as u32 == OnArrival::Stop as u32
        && WfOnArrival::Despawn as u32 == OnArrival::Despawn as u32
        && WfOnArrival::Loop as u32 == OnArrival::Loop as u32
);

/// Every id names a live agent (else `WF_STATUS_OUT_OF_RANGE`): checked before a read writes
/// anything or a batch changes any agent.
fn check_live(crowd: &Crowd, ids: &[u32]) -> FfiResult {
    for &id in ids {
        crowd.agent(AgentId(id))?;
    }
    Ok(())
}

/// Agent states written by `wf_crowd_read_agents` (as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WfAgent {
    /// Walking toward its target.
    Moving = 0,
    /// Inside its arrival radius (for a target inside an obstacle or too close to one to come
    /// that near: within it of the nearest point it can reach, or pressed against that
    /// obstacle and blocked; in a crack between obstacles too narrow for it, wedged as deep as
    /// it gets and blocked), or settled against others arrived at the same target. Arrived
    /// short of the target, it walks on when an obstacle within two radii of it is added,
    /// removed or moved and it can now get nearer.
    Arrived = 1,
    /// Wants to move but made less than a tenth of its intended progress in the last step.
    Blocked = 2,
    /// Given a NaN/Inf position: skipped by the step until given a finite one.
    Invalid = 3,
}

/// Route modes for `wf_crowd_set_route_mode` (as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WfRoute {
    /// Straight at the target, avoiding what it meets; held in a pocket of obstacles for 2 s
    /// (4 s when another agent holds it there), it searches the few metres round it for a way
    /// out and takes it (a detour).
    Direct = 0,
    /// Through the corners given by `wf_crowd_set_waypoints`, then to the target.
    Waypoints = 1,
    /// Along a route the crowd plans around its static obstacles; wedged in a crack between
    /// obstacles (touching two) for 2 s, it takes the same search's way out, then plans again.
    Planned = 2,
}

/// What an agent does at the last goal of its queue (`wf_crowd_set_goals`,
/// `wf_crowd_set_on_arrival`; as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WfOnArrival {
    /// Stops at its last goal and settles there.
    Stop = 0,
    /// Leaves the crowd at its last goal: removed, its id freed, a `WF_EVENT_DESPAWNED` event
    /// reported by the step.
    Despawn = 1,
    /// Starts its goal queue again from the first goal (a patrol).
    Loop = 2,
}

/// Event kinds written by `wf_crowd_read_events` (as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WfEvent {
    /// An agent reached a goal of its queue.
    GoalReached = 0,
    /// An agent reached its last goal and left the crowd; its id is no longer valid.
    Despawned = 1,
}

/// Hit kinds written by `wf_crowd_read_hits` (as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WfHit {
    /// Nothing on a collision course in the field of view.
    None = 0,
    /// A static obstacle (the hit id is an obstacle id).
    Obstacle = 1,
    /// Another agent (the hit id is an agent id).
    Agent = 2,
}

/// Instruction-set levels of the step's lane kernels, for `wf_crowd_set_simd` and
/// `wf_crowd_simd` (as `uint32_t`; any other value is `WF_STATUS_INVALID_ARGUMENT`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WfSimd {
    /// Baseline code only (SSE2 on x86-64; the only level elsewhere).
    Portable = 0,
    /// Up to AVX2 (x86-64).
    Avx2 = 1,
    /// Up to AVX-512 F and VL (x86-64): the default, no cap.
    Avx512 = 2,
}

impl WfSimd {
    /// The cap named by a C `uint32_t`, or `WF_STATUS_INVALID_ARGUMENT`.
    pub fn from_u32(value: u32) -> FfiResult<Simd> {
        match value {
            v if v == WfSimd::Portable as u32 => Ok(Simd::Portable),
            v if v == WfSimd::Avx2 as u32 => Ok(Simd::Avx2),
            v if v == WfSimd::Avx512 as u32 => Ok(Simd::Avx512),
            _ => Err(WfStatus::InvalidArgument),
        }
    }
}

impl From<Simd> for WfSimd {
    fn from(level: Simd) -> Self {
        match level {
            Simd::Portable => WfSimd::Portable,
            Simd::Avx2 => WfSimd::Avx2,
            Simd::Avx512 => WfSimd::Avx512,
        }
    }
}

impl From<CrowdError> for WfStatus {
    fn from(e: CrowdError) -> Self {
        match e {
            CrowdError::NonFinite => WfStatus::NonFinite,
            CrowdError::InvalidArgument => WfStatus::InvalidArgument,
            CrowdError::CapacityExceeded => WfStatus::InvalidCount,
            CrowdError::UnknownId => WfStatus::OutOfRange,
        }
    }
}

/// Creates an empty crowd with room for `agent_capacity` agents (≤ 4 194 304; and as many
/// obstacles, at least 1024) and writes it to `*out_crowd`. Per-step buffers are allocated
/// here, so stepping allocates nothing. Adding more agents or obstacles grows the crowd
/// (doubling, up to 4 194 304 of each); the step after a growth may allocate once.
///
/// # Safety
/// `out_crowd` must be NULL or valid for one pointer write.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_new(
    agent_capacity: usize,
    out_crowd: *mut *mut WfCrowd,
) -> WfStatus {
    guard(|| {
        if out_crowd.is_null() {
            return Err(WfStatus::NullPointer);
        }
        let crowd = Crowd::new(agent_capacity).map_err(|_| WfStatus::InvalidCount)?;
        // SAFETY: checked non-null; validity is the caller's contract.
        unsafe { write_opt(out_crowd, handle_new(WfCrowd { crowd }))? };
        Ok(())
    })
}

/// Frees a crowd (NULL is a no-op).
///
/// # Safety
/// `crowd` must be NULL or a live crowd from `wf_crowd_new`, freed once.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_free(crowd: *mut WfCrowd) {
    // SAFETY: forwarded contract.
    unsafe { handle_free(crowd) }
}

/// Sets the parameters given to agents added from now on: fastest turn (rad/s, > 0),
/// field-of-view range (m, ≥ 0) and half angle (0..=π), repel force (≥ 0), arrival radius
/// (m, ≥ 0). Defaults: 2π rad/s, 4 m, 100°, 1.5, 0.25 m.
///
/// # Safety
/// `crowd` must be NULL or a live crowd.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_set_defaults(
    crowd: *mut WfCrowd,
    max_turn_rate: f32,
    fov_range: f32,
    fov_half_angle: f32,
    repel_force: f32,
    arrival_radius: f32,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        let c = unsafe { handle_mut(crowd)? };
        let mut d = c.crowd.agent_defaults();
        d.max_turn_rate = finite(max_turn_rate)?;
        d.fov_range = finite(fov_range)?;
        d.fov_half_angle = finite(fov_half_angle)?;
        d.repel_force = finite(repel_force)?;
        d.arrival_radius = finite(arrival_radius)?;
        c.crowd.set_agent_defaults(d)?;
        Ok(())
    })
}

/// Caps the memory of planned routes (`WF_ROUTE_PLANNED`): the crowd caches at most
/// `max_fields` distance fields (one per goal block and agent size), each one `float` per
/// planning cell, so at most `max_fields × cells × 4`
/// bytes, the planning grid having about 65 536 cells at most (256 KiB per field); a field
/// made stale by an obstacle change also holds a repair list under an eighth of its size. The
/// default and the most accepted is 512 (128 MiB; 144 MiB with every field stale). Lowering
/// it below the fields now cached frees the least recently used ones at once. A full cache
/// makes room for a new field only by dropping one unused for two route updates (20
/// sub-steps), never one that agents are following: with more distinct goals in use than
/// the cap, the goals asked for first keep their fields, and the other agents search ways of
/// their own within the route budget's search share (see `wf_crowd_set_route_budget`), and
/// walk straight at their targets beyond it, until a field falls out of use. 0 or more than
/// 512:
/// `WF_STATUS_INVALID_ARGUMENT`, and nothing changes.
///
/// # Safety
/// `crowd` must be NULL or a live crowd.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_set_route_cache(
    crowd: *mut WfCrowd,
    max_fields: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        let c = unsafe { handle_mut(crowd)? };
        c.crowd.set_route_cache(max_fields)?;
        Ok(())
    })
}

/// Writes the cap on cached distance fields set by `wf_crowd_set_route_cache` (512 unless
/// lowered).
///
/// # Safety
/// `crowd` must be NULL or a live crowd; `out_max_fields` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_route_cache(
    crowd: *const WfCrowd,
    out_max_fields: *mut usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe {
            let c = handle_ref(crowd)?;
            if out_max_fields.is_null() {
                return Err(WfStatus::NullPointer);
            }
            write_opt(out_max_fields, c.crowd.route_cache())?;
        }
        Ok(())
    })
}

/// Bounds the route planning done per sub-step (route mode `WF_ROUTE_PLANNED`): at most
/// `fields_per_step` distance fields are computed, or stale ones repaired, in each (4 unless
/// set). A field costs up to about 1 ms on the finest planning grid (65 536 cells), so the
/// budget bounds the planner's share of a frame, as Unity's `pathfindingIterationsPerFrame`
/// does for its NavMesh: lower keeps frames short when many agents plan to goals of their own,
/// higher gets routes sooner. An agent waiting for a field may search a way of its own (A*
/// from its goal to where it stands); a sub-step's searches take at most
/// `fields_per_step × cells / 16` cells, in turns when they run out, and agents beyond them
/// walk straight at their targets meanwhile. 0 or more than 64:
/// `WF_STATUS_INVALID_ARGUMENT`, and nothing changes.
///
/// # Safety
/// `crowd` must be NULL or a live crowd.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_set_route_budget(
    crowd: *mut WfCrowd,
    fields_per_step: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        let c = unsafe { handle_mut(crowd)? };
        c.crowd.set_route_budget(fields_per_step)?;
        Ok(())
    })
}

/// Builds the route planner's grid now, over the obstacles as they are (as a navigation mesh is
/// baked at a level's load): the first step with a planned agent then routes at once instead
/// of first building the whole grid (a few milliseconds on the finest grid), and a rebuild
/// under way is finished. Obstacles changed later are applied by the steps as usual. A crowd
/// baked just before its first step moves with the same bits as one that is not. Nothing to
/// do (the grid up to date, or no obstacles): `WF_STATUS_OK`.
///
/// # Safety
/// `crowd` must be NULL or a live crowd.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_bake_routes(crowd: *mut WfCrowd) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        let c = unsafe { handle_mut(crowd)? };
        c.crowd.bake_routes();
        Ok(())
    })
}

/// Writes the budget of distance fields per sub-step set by `wf_crowd_set_route_budget` (4
/// unless set).
///
/// # Safety
/// `crowd` must be NULL or a live crowd; `out_fields_per_step` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_route_budget(
    crowd: *const WfCrowd,
    out_fields_per_step: *mut usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe {
            let c = handle_ref(crowd)?;
            if out_fields_per_step.is_null() {
                return Err(WfStatus::NullPointer);
            }
            write_opt(out_fields_per_step, c.crowd.route_budget())?;
        }
        Ok(())
    })
}

/// Caps the instruction sets the step's lane kernels (candidate scan, neighbour cull, batched
/// turns) may use: `WF_SIMD_PORTABLE`, `WF_SIMD_AVX2` or `WF_SIMD_AVX512` (the default: no
/// cap). The crowd runs the best level this CPU has up to `cap` (`wf_crowd_simd` reports it;
/// off x86-64 always the portable code). Every level gives exactly the same bits: capping is
/// for comparisons, and for CPUs that lower their clock under AVX-512 (cap at `WF_SIMD_AVX2`
/// there if the rest of the frame suffers). Any other value: `WF_STATUS_INVALID_ARGUMENT`,
/// and nothing changes.
///
/// # Safety
/// `crowd` must be NULL or a live crowd.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_set_simd(crowd: *mut WfCrowd, cap: u32) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        let c = unsafe { handle_mut(crowd)? };
        let cap = WfSimd::from_u32(cap)?;
        c.crowd.set_simd(cap);
        Ok(())
    })
}

/// Writes the level (`WF_SIMD_*`) the step's lane kernels run at: the cap set by
/// `wf_crowd_set_simd` (`WF_SIMD_AVX512` unless lowered), lowered to what this CPU supports,
/// so never above the cap. Every level gives the same bits.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; `out_level` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_simd(crowd: *const WfCrowd, out_level: *mut u32) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe {
            let c = handle_ref(crowd)?;
            if out_level.is_null() {
                return Err(WfStatus::NullPointer);
            }
            write_opt(out_level, WfSimd::from(c.crowd.simd()) as u32)?;
        }
        Ok(())
    })
}

/// Adds an agent at `position` (3 floats) facing `yaw` (radians, 0 = +Z, clockwise from
/// above) with walking `speed` (m/s, ≥ 0) and body `radius` (m, > 0); writes its id. Its
/// target is where it stands until `wf_crowd_set_target`. A full crowd grows; one holding
/// 4 194 304 agents: `WF_STATUS_INVALID_COUNT`.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; `position` NULL or 3 floats; `out_id` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_add_agent(
    crowd: *mut WfCrowd,
    position: *const f32,
    yaw: f32,
    speed: f32,
    radius: f32,
    out_id: *mut u32,
) -> WfStatus {
    guard(|| {
        // SAFETY: each pointer is checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = handle_mut(crowd)?;
            let p = point_in(position)?;
            let out = one_out(out_id)?;
            let id = c
                .crowd
                .add_agent(p, finite(yaw)?, finite(speed)?, finite(radius)?)?;
            *out = id.0;
        }
        Ok(())
    })
}

/// Removes an agent; its id becomes invalid.
///
/// # Safety
/// `crowd` must be NULL or a live crowd.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_remove_agent(crowd: *mut WfCrowd, id: u32) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        let c = unsafe { handle_mut(crowd)? };
        c.crowd.remove_agent(AgentId(id))?;
        Ok(())
    })
}

/// Sends agent `id` to `target` (3 floats); it arrives within `arrival_radius` (m, ≥ 0) of it
/// (of the nearest point it can reach, when `target` lies inside an obstacle or too close to
/// one). A new target or radius starts the agent afresh (waypoints from the first, a fresh
/// plan, walking on if it had arrived); the target and radius it already has change nothing,
/// so it may be sent every frame. Many agents: `wf_crowd_set_targets`.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; `target` NULL or 3 floats.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_set_target(
    crowd: *mut WfCrowd,
    id: u32,
    target: *const f32,
    arrival_radius: f32,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = handle_mut(crowd)?;
            let t = point_in(target)?;
            c.crowd
                .set_target(AgentId(id), t, finite(arrival_radius)?)?;
        }
        Ok(())
    })
}

/// Sends `count` agents to their targets in one call: agent `ids[i]` goes to point `i` of
/// `targets` (`target_count` = `count` points) with arrival radius `arrival_radii[i]`
/// (`radius_count` = `count`), or, when `arrival_radii` is `(NULL, 0)`, with the arrival
/// radius it has. All or nothing: another length is `WF_STATUS_INVALID_COUNT`, an unknown id
/// `WF_STATUS_OUT_OF_RANGE`, a NaN/Inf target or radius `WF_STATUS_NON_FINITE`, a negative
/// radius `WF_STATUS_INVALID_ARGUMENT`, and then no agent changes. As `wf_crowd_set_target`
/// for each in order: a target and radius an agent already has change nothing, so sending
/// every agent's target every frame is cheap and keeps settled agents settled.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; arrays NULL or of the lengths given.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_set_targets(
    crowd: *mut WfCrowd,
    ids: *const u32,
    count: usize,
    targets: *const f32,
    target_count: usize,
    arrival_radii: *const f32,
    radius_count: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = handle_mut(crowd)?;
            let ids = slice_in(ids as *const AgentId, count)?;
            if target_count != count || (radius_count != 0 && radius_count != count) {
                return Err(WfStatus::InvalidCount);
            }
            let targets = points_in(targets, target_count)?;
            let radii = floats_in(arrival_radii, radius_count)?;
            c.crowd.set_targets(ids, targets, radii)?;
        }
        Ok(())
    })
}

/// How agent `id` looks ahead and reacts: fastest turn (rad/s, > 0), field-of-view range (m
/// from its edge, ≥ 0) and half angle (radians, 0..=π), repel force (≥ 0).
///
/// # Safety
/// `crowd` must be NULL or a live crowd.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_set_steering(
    crowd: *mut WfCrowd,
    id: u32,
    max_turn_rate: f32,
    fov_range: f32,
    fov_half_angle: f32,
    repel_force: f32,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        let c = unsafe { handle_mut(crowd)? };
        c.crowd.set_steering(
            AgentId(id),
            finite(max_turn_rate)?,
            finite(fov_range)?,
            finite(fov_half_angle)?,
            finite(repel_force)?,
        )?;
        Ok(())
    })
}

/// Who yields (of two agents about to meet, the lower `priority` gives way) and who avoids
/// whom (agent a avoids b when `a.mask & b.layer` is non-zero).
///
/// # Safety
/// `crowd` must be NULL or a live crowd.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_set_priority(
    crowd: *mut WfCrowd,
    id: u32,
    priority: f32,
    layer: u32,
    mask: u32,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        let c = unsafe { handle_mut(crowd)? };
        c.crowd
            .set_priority(AgentId(id), finite(priority)?, layer, mask)?;
        Ok(())
    })
}

/// Walking speed (m/s, ≥ 0) and body radius (m, > 0) of agent `id`.
///
/// # Safety
/// `crowd` must be NULL or a live crowd.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_set_speed(
    crowd: *mut WfCrowd,
    id: u32,
    speed: f32,
    radius: f32,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        let c = unsafe { handle_mut(crowd)? };
        c.crowd
            .set_speed(AgentId(id), finite(speed)?, finite(radius)?)?;
        Ok(())
    })
}

/// Corner waypoints (xyz, `corner_count` points; `(NULL, 0)` clears them) that agent `id`
/// walks in order before its target when its route mode is `WF_ROUTE_WAYPOINTS`.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; `corners` NULL or `corner_count` points.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_set_waypoints(
    crowd: *mut WfCrowd,
    id: u32,
    corners: *const f32,
    corner_count: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = handle_mut(crowd)?;
            let pts = points_in(corners, corner_count)?;
            c.crowd.set_waypoints(AgentId(id), pts)?;
        }
        Ok(())
    })
}

/// How agent `id` finds its way: `WF_ROUTE_DIRECT`, `WF_ROUTE_WAYPOINTS` or
/// `WF_ROUTE_PLANNED` (other values: `WF_STATUS_INVALID_ARGUMENT`).
///
/// # Safety
/// `crowd` must be NULL or a live crowd.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_set_route_mode(
    crowd: *mut WfCrowd,
    id: u32,
    mode: u32,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        let c = unsafe { handle_mut(crowd)? };
        let mode = RouteMode::from_code(mode).ok_or(WfStatus::InvalidArgument)?;
        c.crowd.set_route_mode(AgentId(id), mode)?;
        Ok(())
    })
}

/// Teleports `count` agents: `positions` holds `position_count` (= `count`) points; `yaws`
/// holds `yaw_count` (= `count`) yaws, or is `(NULL, 0)` to keep each agent's yaw. Every id
/// is checked first (any unknown: `WF_STATUS_OUT_OF_RANGE`, nothing changed). A NaN/Inf
/// position or yaw (or one beyond ±1e15) does not stop the others: that agent is flagged
/// `WF_AGENT_INVALID` (the step skips it until it gets a finite position), the others are
/// moved, and the call returns `WF_STATUS_NON_FINITE`.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; arrays NULL or of the lengths given.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_set_positions(
    crowd: *mut WfCrowd,
    ids: *const u32,
    count: usize,
    positions: *const f32,
    position_count: usize,
    yaws: *const f32,
    yaw_count: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = handle_mut(crowd)?;
            let ids = slice_in(ids, count)?;
            if position_count != count || (yaw_count != 0 && yaw_count != count) {
                return Err(WfStatus::InvalidCount);
            }
            super::boundary::float_len(position_count)?;
            let pos = slice_in(positions as *const Vec3, position_count)?;
            let yaws = slice_in(yaws, yaw_count)?;
            check_live(&c.crowd, ids)?;
            let mut bad = false;
            for (i, &id) in ids.iter().enumerate() {
                let id = AgentId(id);
                let yaw = yaws
                    .get(i)
                    .copied()
                    .unwrap_or_else(|| c.crowd.agent(id).map_or(0.0, |a| a.yaw));
                // Beyond the boundary's ±1e15 domain counts as non-finite, like everywhere.
                let (p, yaw) = if pos[i].to_array().iter().all(|&x| in_domain(x)) && in_domain(yaw)
                {
                    (pos[i], yaw)
                } else {
                    (Vec3::NAN, f32::NAN)
                };
                if c.crowd.set_position(id, p, yaw).is_err() {
                    bad = true;
                }
            }
            if bad {
                return Err(WfStatus::NonFinite);
            }
        }
        Ok(())
    })
}

/// Adds an obstacle and writes its id.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; `out_id` NULL or valid.
unsafe fn add_obstacle(
    crowd: *mut WfCrowd,
    ob: FfiResult<Obstacle>,
    out_id: *mut u32,
) -> FfiResult {
    // SAFETY: forwarded contract.
    unsafe {
        let c = handle_mut(crowd)?;
        let ob = ob?;
        let out = one_out(out_id)?;
        let id = c.crowd.add_obstacle(ob)?;
        *out = id.0;
    }
    Ok(())
}

/// Adds a vertical cylinder obstacle (`center` 3 floats, any `radius` > 0, subnormal ones
/// included); writes its id.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; `center` NULL or 3 floats; `out_id` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_add_circle(
    crowd: *mut WfCrowd,
    center: *const f32,
    radius: f32,
    out_id: *mut u32,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe {
            let ob = point_in(center).and_then(|center| {
                Ok(Obstacle::Circle {
                    center,
                    radius: finite(radius)?,
                })
            });
            add_obstacle(crowd, ob, out_id)
        }
    })
}

/// Adds an axis-aligned box obstacle from `min` to `max` (3 floats each; x and z used,
/// `min <= max`; `min == max` is a point obstacle); writes its id.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; `min`, `max` NULL or 3 floats; `out_id` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_add_box(
    crowd: *mut WfCrowd,
    min: *const f32,
    max: *const f32,
    out_id: *mut u32,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe {
            let ob = point_in(min).and_then(|min| {
                Ok(Obstacle::Box {
                    min,
                    max: point_in(max)?,
                })
            });
            add_obstacle(crowd, ob, out_id)
        }
    })
}

/// Adds a box obstacle of half extents `half_x`, `half_z` (≥ 0) around `center`, turned by
/// `yaw` (its local +Z is (sin yaw, 0, cos yaw)); writes its id.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; `center` NULL or 3 floats; `out_id` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_add_oriented_box(
    crowd: *mut WfCrowd,
    center: *const f32,
    half_x: f32,
    half_z: f32,
    yaw: f32,
    out_id: *mut u32,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe {
            let ob = point_in(center).and_then(|center| {
                Ok(Obstacle::OrientedBox {
                    center,
                    half_x: finite(half_x)?,
                    half_z: finite(half_z)?,
                    yaw: finite(yaw)?,
                })
            });
            add_obstacle(crowd, ob, out_id)
        }
    })
}

/// Adds a wall segment from `a` to `b` (3 floats each) and writes its id. The XZ length must
/// be at least about 3e-23 (its square must not underflow f32); a shorter wall, or `a == b`
/// on XZ, is `WF_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; `a`, `b` NULL or 3 floats; `out_id` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_add_wall(
    crowd: *mut WfCrowd,
    a: *const f32,
    b: *const f32,
    out_id: *mut u32,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe {
            let ob = point_in(a).and_then(|a| Ok(Obstacle::Wall { a, b: point_in(b)? }));
            add_obstacle(crowd, ob, out_id)
        }
    })
}

/// Removes an obstacle; its id becomes invalid.
///
/// # Safety
/// `crowd` must be NULL or a live crowd.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_remove_obstacle(crowd: *mut WfCrowd, id: u32) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        let c = unsafe { handle_mut(crowd)? };
        c.crowd.remove_obstacle(ObstacleId(id))?;
        Ok(())
    })
}

/// Advances every agent by `dt` seconds on `threads` threads (0 or 1: the calling thread;
/// results are bit-identical for any count). `dt` must be finite (`WF_STATUS_NON_FINITE`) and
/// positive (`WF_STATUS_INVALID_ARGUMENT`); a `dt` over 0.1 s is split into equal sub-steps of
/// at most 0.1 s, and one over 6.4 s is refused (`WF_STATUS_INVALID_ARGUMENT`).
///
/// # Safety
/// `crowd` must be NULL or a live crowd.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_step(crowd: *mut WfCrowd, dt: f32, threads: u32) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        let c = unsafe { handle_mut(crowd)? };
        c.crowd.step(dt, threads as usize)?;
        Ok(())
    })
}

/// Writes the number of live agents.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; `out_count` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_agent_count(
    crowd: *const WfCrowd,
    out_count: *mut usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe {
            let c = handle_ref(crowd)?;
            if out_count.is_null() {
                return Err(WfStatus::NullPointer);
            }
            write_opt(out_count, c.crowd.agent_count())?;
        }
        Ok(())
    })
}

/// For each of `count` agent ids: position (xyz), yaw and state (`WF_AGENT_*`). Each output
/// is optional (NULL: not wanted); capacities are in agents. Any unknown id:
/// `WF_STATUS_OUT_OF_RANGE` and nothing written.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; arrays NULL or of the lengths given, not overlapping.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_read_agents(
    crowd: *const WfCrowd,
    ids: *const u32,
    count: usize,
    out_positions: *mut f32,
    out_positions_capacity: usize,
    out_yaws: *mut f32,
    out_yaws_capacity: usize,
    out_states: *mut u32,
    out_states_capacity: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = handle_ref(crowd)?;
            let ids = slice_in(ids, count)?;
            check_live(&c.crowd, ids)?;
            let mut pos = opt_points_out(out_positions, out_positions_capacity, count)?;
            let mut yaws = opt_slice_out(out_yaws, out_yaws_capacity, count)?;
            let mut states = opt_slice_out(out_states, out_states_capacity, count)?;
            for (i, &id) in ids.iter().enumerate() {
                let a = c.crowd.agent(AgentId(id))?;
                if let Some(p) = pos.as_deref_mut().map(|p| &mut p[i]) {
                    *p = a.position;
                }
                if let Some(y) = yaws.as_deref_mut().map(|y| &mut y[i]) {
                    *y = a.yaw;
                }
                if let Some(s) = states.as_deref_mut().map(|s| &mut s[i]) {
                    *s = a.state() as u32;
                }
            }
        }
        Ok(())
    })
}

/// For each of `count` agent ids, its velocity (xyz, y = 0, m/s) in `out_velocities`
/// (capacity in agents): each step's velocity averaged half and half with the one before,
/// so it follows the walk without the step-to-step jitter of a difference of positions
/// (zero while it stands, and after a step that put it back). For animation (a walk blend
/// driven by its length) and for predicting where an agent goes. Any unknown id:
/// `WF_STATUS_OUT_OF_RANGE` and nothing written.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; arrays NULL or of the lengths given, not overlapping.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_read_velocities(
    crowd: *const WfCrowd,
    ids: *const u32,
    count: usize,
    out_velocities: *mut f32,
    out_velocities_capacity: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = handle_ref(crowd)?;
            let ids = slice_in(ids, count)?;
            check_live(&c.crowd, ids)?;
            let out = points_out(out_velocities, out_velocities_capacity, count)?;
            for (o, &id) in out.iter_mut().zip(ids) {
                *o = c.crowd.agent(AgentId(id))?.velocity();
            }
        }
        Ok(())
    })
}

/// For each of `count` agent ids, the most urgent thing it steered away from in the last
/// step: kind (`WF_HIT_*`), the obstacle or agent id (0 for none), the hit point (xyz) and
/// the unit normal there (xyz). Outputs optional; capacities in agents.
///
/// # Safety
/// `crowd` must be NULL or a live crowd; arrays NULL or of the lengths given, not overlapping.
#[no_mangle]
pub unsafe extern "C" fn wf_crowd_read_hits(
    crowd: *const WfCrowd,
    ids: *const u32,
    count: usize,
    out_kinds: *mut u32,
    out_kinds_capacity: usize,
    out_hit_ids: *mut u32,
    out_hit_ids_capacity: usize,
    out_points: *mut f32,
    out_points_capacity: usize,
    out_normals: *mut f32,
    out_normals_capacity: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = handle_ref(crowd)?;
            let ids = slice_in(ids, count)?;
            check_live(&c.crowd, ids)?;
            let mut kinds = opt_slice_out(out_kinds, out_kinds_capacity, count)?;
            let mut hit_ids = opt_slice_out(out_hit_ids, out_hit_ids_capacity, count)?;
            let mut points = opt_points_out(out_points, out_points_capacity, count)?;
            let mut normals = opt_points_out(out_normals, out_normals_capacity, count)?;
            for (i, &id) in ids.iter().enumerate() {
                let h = c.crowd.agent(AgentId(id))?.hit();
                if let Some(k) = kinds.as_deref_mut() {
                    k[i] = h.kind as u32;
                }
                if let Some(k) = hit_ids.as_deref_mut() {
                    k[i] = h.id;
                }
                if let Some(k) = points.as_deref_mut() {
                    k[i] = h.point;
                }
                if let Some(k) = normals.as_deref_mut() {
                    k[i] = h.normal;
                }
            }
        }
        Ok(())
    })
}
