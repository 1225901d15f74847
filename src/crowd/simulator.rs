//! The crowd: owns agents, obstacles, the grids and the planner; a step is "plan routes, build
//! the grid, steer every agent from a read-only snapshot, move, project out of overlaps, put
//! back the agents a crush would still press into each other" (see [`Crowd::step`], the model
//! in `docs/crowd.md`, and [`OVERLAP_GUARD`]).

use core::sync::atomic::{AtomicU32, Ordering};

use glam::{Vec2, Vec3};

use crate::simd::Simd;

use super::agent::{forward2, right_of, Agent, AgentDefaults, AgentState, Hit, HitKind, RouteMode};
use super::escape::{Escape, WayOut};
use super::goals::{CrowdEvent, EventKind, Goal, Next, OnArrival, Program};
use super::grid::{AgentGrid, ObstacleGrid};
use super::kernels::Kernels;
use super::obstacle::{Obstacle, Shape};
use super::planner::{Approach, Planner, MAX_FIELDS, MAX_FIELDS_PER_STEP, REPLAN_STEPS};
use super::sieve::Ring;
use super::steering::{
    clear_of_obstacles, finish_turns, obstacle_distance, obstacle_margin, obstacles_within,
    push_out, separation, steer, tunnel_stop, Body, Decision, Moved, World, TURN_NEAR,
};
use super::CrowdError;

/// Bits of an id that name the storage slot; the rest count reuses of the slot, so an id of a
/// removed agent stays invalid until the slot has been reused 1023 times.
const SLOT_BITS: u32 = 22;
const SLOT_MASK: u32 = (1 << SLOT_BITS) - 1;
const GENERATIONS: u32 = 1 << (32 - SLOT_BITS);

/// Most agents (and most obstacles) a crowd can hold.
pub const MAX_CAPACITY: usize = 1 << SLOT_BITS;
/// Longest sub-step, seconds: a longer `dt` is split into equal sub-steps no longer than this.
pub const MAX_SUB_STEP: f32 = 0.1;
/// Most sub-steps of one call: `dt` above `MAX_SUB_STEP × MAX_SUB_STEPS` (6.4 s) is refused.
pub const MAX_SUB_STEPS: u32 = 64;
/// Projection stops once no agent moves more than this fraction of the largest radius.
pub const CONVERGED: f32 = 2e-3;
/// Most rounds of the sweep that stops agents faster than their radius per sub-step before
/// they can pass through another (see `Crowd::sweep`).
const SWEEP_ROUNDS: usize = 4;
/// Most serial sweeps over the touching agents per sub-step.
pub const GAUSS_SEIDEL_SWEEPS: usize = 24;
/// The guard after the projection: two agents that overlapped by at most this fraction of the
/// smaller radius before a step end it overlapping by at most as much.
pub const OVERLAP_GUARD: f32 = 0.02;
/// Obstacle changes between two updates of the planner that it makes locally; past this many
/// it is rebuilt (as it is when the obstacles outgrow its grid).
const TRACKED_CHANGES: usize = 64;
/// Fewest agents per thread worth a thread of their own.
#[cfg(not(fuzzing))]
const MIN_AGENTS_PER_THREAD: usize = 256;
/// Fuzz builds (`cargo fuzz` sets `cfg(fuzzing)`) split even tiny crowds across threads, so
/// the thread-differential fuzz target exercises the multi-threaded step with small inputs.
#[cfg(fuzzing)]
const MIN_AGENTS_PER_THREAD: usize = 2;
/// Fewest agents per thread worth a thread of their own in the lighter phases (building the
/// bodies, the first projection pass, the final positions, the write-back: ~100-200
/// instructions per agent against the steer's ~2 000). Measured on 2 shared cores: spawning
/// for them cost more than it saved at 10 000 agents and paid off at 100 000.
#[cfg(not(fuzzing))]
const MIN_LIGHT_PER_THREAD: usize = 16_384;
/// (See `MIN_AGENTS_PER_THREAD` under `cfg(fuzzing)`.)
#[cfg(fuzzing)]
const MIN_LIGHT_PER_THREAD: usize = 2;
/// Agents steered before the turns they left pending are finished, with where they step to
/// (a multiple of the turn's lanes; their records are then still in cache).
const STEER_BLOCK: usize = 128;
/// Bodies ahead whose scattered records are prefetched.
const SCATTER_AHEAD: usize = 16;
/// Sub-steps an agent gives way for after a head-on block (see `Crowd::yield_to`): long
/// enough for the other to get through a short passage.
const YIELD_STEPS: u64 = 40;
/// Seconds two agents walking straight at their targets stay blocked against each other,
/// head on, before one of them backs off (see `Crowd::break_standoffs`).
pub const STANDOFF_TIME: f32 = 2.0;
/// How far ahead of an agent, toward its target, the other of a standoff stands at least
/// (cosine of the angle: within about 70°; two agents pressed against opposite walls of a
/// passage too narrow to pass each other stand some 55° off each other's way).
const STANDOFF_AHEAD: f32 = 0.35;
/// Seconds the one giving way backs off for: long enough to clear a short passage (about 5 m
/// at a walking pace), and then it walks at its target again.
pub const BACK_OFF_TIME: f32 = 4.0;
/// Seconds an agent planning its route stays blocked against the same agent, one on a way at
/// least 60° off its own, before it routes round where that one stands (see
/// `Crowd::break_standoffs`).
pub const PATIENCE: f32 = 4.0;
/// Cosine of the least angle between the ways of two agents for [`PATIENCE`] to apply (those
/// queueing one behind the other, as at a door, wait their turn).
const PATIENCE_CROSSING: f32 = 0.5;
/// Seconds an agent walking straight at its target stays held near obstacles, sub-step after
/// sub-step, before it searches for a way out (see *Detours* in [`RouteMode::Direct`]).
pub const DETOUR_TIME: f32 = 2.0;
/// Agents walking straight that stall with the steer's bound on the nearest obstacle within
/// this many radii of their centres (or touching one), or that hit one, count as held near
/// obstacles (see *Detours* in [`RouteMode::Direct`]).
const PINNED_GAP: f32 = 3.0;
/// The rate at which an agent held near obstacles counts its time while what holds it is
/// another agent (its most urgent hit), not an obstacle: it searches after
/// [`DETOUR_TIME`] ÷ this (4 s), so that agents pressed to a wall beside a door by the queue,
/// which moves on within that, walk with it instead of making for the door on their own.
const HELD_BY_AGENT_RATE: f32 = 0.5;

/// How long an agent in `mode` stays blocked against the same agent before its standoff is
/// ended (see `Crowd::break_standoffs`): [`STANDOFF_TIME`] walking straight, [`PATIENCE`]
/// planning; never on waypoints.
fn standoff_limit(mode: RouteMode) -> f32 {
    match mode {
        RouteMode::Direct => STANDOFF_TIME,
        RouteMode::Planned => PATIENCE,
        RouteMode::Waypoints => f32::INFINITY,
    }
}

/// An agent's id: stable while it lives, invalid once removed. (`repr(transparent)`: a slice
/// of ids has the layout of a `u32` array, as the C ABI passes them.)
///
/// ```
/// use wayfarer::crowd::Crowd;
/// use wayfarer::Vec3;
///
/// let mut crowd = Crowd::new(4).unwrap();
/// let id = crowd.add_agent(Vec3::ZERO, 0.0, 1.3, 0.3).unwrap();
/// crowd.remove_agent(id).unwrap();
/// assert!(crowd.agent(id).is_err()); // a removed id stays invalid
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct AgentId(pub u32);

/// An obstacle's id: stable while it exists, invalid once removed.
///
/// ```
/// use wayfarer::crowd::{Crowd, Obstacle};
/// use wayfarer::Vec3;
///
/// let mut crowd = Crowd::new(4).unwrap();
/// let id = crowd.add_obstacle(Obstacle::Circle { center: Vec3::ZERO, radius: 1.0 }).unwrap();
/// assert!(crowd.obstacle(id).is_ok());
/// crowd.remove_obstacle(id).unwrap();
/// assert!(crowd.obstacle(id).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObstacleId(pub u32);

/// Slot storage with generations: O(1) add/remove, stable ids.
#[derive(Clone, Debug)]
struct Slots<T> {
    items: Vec<Option<T>>,
    generations: Vec<u32>,
    free: Vec<u32>,
    live: usize,
    capacity: usize,
}

impl<T> Slots<T> {
    fn new(capacity: usize) -> Self {
        Self {
            items: Vec::with_capacity(capacity),
            generations: Vec::with_capacity(capacity),
            free: Vec::new(),
            live: 0,
            capacity,
        }
    }

    /// Stores `value`; a full store doubles its capacity first (up to [`MAX_CAPACITY`]).
    fn insert(&mut self, value: T) -> Result<u32, CrowdError> {
        if self.live >= self.capacity {
            if self.capacity >= MAX_CAPACITY {
                return Err(CrowdError::CapacityExceeded);
            }
            self.capacity = (2 * self.capacity).clamp(16, MAX_CAPACITY);
            self.items.reserve(self.capacity - self.items.len());
            self.generations
                .reserve(self.capacity - self.generations.len());
        }
        let slot = if let Some(s) = self.free.pop() {
            self.items[s as usize] = Some(value);
            s
        } else {
            self.items.push(Some(value));
            self.generations.push(1);
            (self.items.len() - 1) as u32
        };
        self.live += 1;
        Ok(self.generations[slot as usize] << SLOT_BITS | slot)
    }

    fn slot(&self, id: u32) -> Result<usize, CrowdError> {
        let slot = (id & SLOT_MASK) as usize;
        match self.items.get(slot) {
            Some(Some(_)) if self.generations[slot] == id >> SLOT_BITS => Ok(slot),
            _ => Err(CrowdError::UnknownId),
        }
    }

    fn get(&self, id: u32) -> Result<&T, CrowdError> {
        let s = self.slot(id)?;
        Ok(self.items[s].as_ref().expect("live slot"))
    }

    fn get_mut(&mut self, id: u32) -> Result<&mut T, CrowdError> {
        let s = self.slot(id)?;
        Ok(self.items[s].as_mut().expect("live slot"))
    }

    fn remove(&mut self, id: u32) -> Result<T, CrowdError> {
        let s = self.slot(id)?;
        let v = self.items[s].take().expect("live slot");
        let g = self.generations[s] + 1;
        self.generations[s] = if g >= GENERATIONS { 1 } else { g };
        self.free.push(s as u32);
        self.live -= 1;
        Ok(v)
    }

    fn id_of(&self, slot: usize) -> u32 {
        self.generations[slot] << SLOT_BITS | slot as u32
    }
}

/// One live agent as the step gathers it in slot order (routes are planned in slot order:
/// the planner's caches make the order matter): what its `Body` needs besides the agent, so
/// that the body is built once, straight into steer order, instead of being built in slot
/// order and copied (128 bytes) into cell order.
#[derive(Clone, Copy, Debug)]
struct Gathered {
    steer_to: Vec2,
    slot: u32,
    cos_half_fov: f32,
    final_leg: bool,
    /// [`Body::recheck`].
    recheck: bool,
    /// [`Body::passed`].
    passed: Vec2,
}

/// Where a body ends the step, in projection order.
#[derive(Clone, Copy, Debug, Default)]
struct Final {
    /// Final position (the guard may put it back to `old`); until `finish`, where the fine
    /// grid binned the body.
    pos: Vec2,
    /// Position before the step.
    old: Vec2,
    /// How far `pos` or `old` lies from where the fine grid binned the body (NaN when a
    /// position is not finite; the guard's fold skips it).
    slack: f32,
    /// The guard checks it: the projection moved it or found it touching.
    check: bool,
    /// The guard put it back (its velocity becomes zero).
    reverted: bool,
}

/// A crowd of agents among static obstacles.
///
/// ```
/// use wayfarer::crowd::Crowd;
/// use wayfarer::Vec3;
///
/// let mut crowd = Crowd::new(100).unwrap();
/// for i in 0..10 {
///     let id = crowd.add_agent(Vec3::new(i as f32, 0.0, 0.0), 0.0, 1.3, 0.3).unwrap();
///     crowd.set_target(id, Vec3::new(9.0 - i as f32, 0.0, 8.0), 0.3).unwrap();
/// }
/// crowd.step(0.1, 2).unwrap(); // up to two threads, the same result as one
/// assert_eq!(crowd.agent_count(), 10);
/// ```
#[derive(Clone, Debug)]
pub struct Crowd {
    defaults: AgentDefaults,
    agents: Slots<Agent>,
    obstacles: Slots<(Obstacle, Shape)>,
    obstacles_dirty: bool,
    /// Whether obstacles changed since the planner was last brought up to date. It is only
    /// while some agent plans its route: until then the changes are just noted.
    planner_stale: bool,
    /// The obstacles added or removed since the planner was brought up to date, for its
    /// local update (`None`: more than [`TRACKED_CHANGES`], or a first build: the planner
    /// is rebuilt).
    changed: Option<Vec<Shape>>,
    /// The obstacles added or removed since the last sub-step, and the agents steered afresh
    /// in it that walked on (as circles), at most [`TRACKED_CHANGES`] (more: `recheck_all`).
    /// An agent arrived short of its target within two radii of one is steered afresh (see
    /// [`Body::recheck`]).
    recheck: Vec<Shape>,
    recheck_all: bool,
    /// Some agent was steered afresh this sub-step.
    rechecking: bool,
    /// Live agents in [`RouteMode::Planned`].
    planned: usize,
    /// The search of a way out of a pocket for agents walking straight (see *Detours* in
    /// [`RouteMode::Direct`]).
    escape: Escape,
    shapes: Vec<Option<Shape>>,
    /// Each obstacle's bounding circle, for the steer's first tests (see [`Ring`]).
    rings: Vec<Ring>,
    obstacle_ids: Vec<u32>,
    obstacle_grid: ObstacleGrid,
    grid: AgentGrid,
    /// Per live agent in slot order: what the step gathers before the grid exists.
    gathered: Vec<Gathered>,
    /// Their positions (the look-ahead grid's input).
    gathered_pos: Vec<Vec2>,
    /// Per storage slot: the index of its body in projection order (`u32::MAX`: no body);
    /// built only for the threaded write-back.
    rank: Vec<u32>,
    /// Per gathered agent: the index of its body in steer order (the one-thread body build).
    inverse: Vec<u32>,
    /// The bodies in steer order (cells of the look-ahead grid), as they were before moving.
    sorted: Vec<Body>,
    /// Per body in steer order: its position after moving (the fine grid's input).
    stepped: Vec<Vec2>,
    decisions: Vec<Decision>,
    /// The bodies in projection order (cells of the fine grid), moved.
    bodies: Vec<Moved>,
    /// Positions of the bodies in the current order (the neighbour loops' hot data, SoA).
    pos: Vec<Vec2>,
    /// Per body in projection order: the first pass's correction, whether it touched another
    /// body, whether its position is clear of every obstacle (its last `push_out` found
    /// nothing to push out of), and how far it may have moved from where it steered.
    overlaps: Vec<(Vec2, bool, bool, f32)>,
    active: Vec<u32>,
    in_active: Vec<bool>,
    /// Per body in projection order: where it ends the step (see [`Final`]).
    finals: Vec<Final>,
    /// The guard's agents to check next and one agent's offending neighbours.
    next: Vec<u32>,
    found: Vec<u32>,
    planner: Planner,
    /// Agents giving way in a head-on block (see [`Crowd::yield_to`]): the agent's id, where
    /// the other agent stood and its radius, and the sub-step the yield ends at.
    yields: Vec<(u32, Vec2, f32, u64)>,
    /// Agents walking straight at their targets backing off to end a standoff (see
    /// [`Crowd::break_standoffs`]): the agent's id, where the other stood, the seconds left.
    backing: Vec<(u32, Vec2, f32)>,
    /// Scratch of `break_standoffs`: the slots of the pairs it ends, and where the other stood.
    backing_off: Vec<(usize, usize, Vec2)>,
    /// Scratch of [`Crowd::sweep`]: the bodies (steer order) that move farther than their
    /// radius this sub-step, and the stops of one round (body, fraction of its move kept).
    fast: Vec<u32>,
    stops: Vec<(u32, f32)>,
    /// The goal queues of the agents that have one (see [`Crowd::set_goals`]), and per storage
    /// slot the index of its program there (`u32::MAX`: none).
    programs: Vec<Program>,
    program_of: Vec<u32>,
    /// What happened in the last [`Crowd::step`] (see [`Crowd::events`]).
    events: Vec<CrowdEvent>,
    /// Sub-steps taken.
    sub_steps: u64,
    /// The lane builds the step may use (AVX-512 where the CPU has it, unless turned off).
    kernels: Kernels,
}

fn check_finite(xs: &[f32]) -> Result<(), CrowdError> {
    if xs.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(CrowdError::NonFinite)
    }
}

fn check(cond: bool) -> Result<(), CrowdError> {
    if cond {
        Ok(())
    } else {
        Err(CrowdError::InvalidArgument)
    }
}

fn check_defaults(d: &AgentDefaults) -> Result<(), CrowdError> {
    check_finite(&[
        d.max_turn_rate,
        d.fov_range,
        d.fov_half_angle,
        d.repel_force,
        d.arrival_radius,
        d.priority,
    ])?;
    check_steering(
        d.max_turn_rate,
        d.fov_range,
        d.fov_half_angle,
        d.repel_force,
    )?;
    check(d.arrival_radius >= 0.0)
}

fn check_steering(turn: f32, range: f32, half: f32, repel: f32) -> Result<(), CrowdError> {
    check_finite(&[turn, range, half, repel])?;
    check(turn > 0.0 && range >= 0.0 && (0.0..=core::f32::consts::PI).contains(&half))?;
    check(repel >= 0.0)
}

fn check_target(target: Vec3, arrival_radius: f32) -> Result<(), CrowdError> {
    check_finite(&[target.x, target.y, target.z, arrival_radius])?;
    check(arrival_radius >= 0.0)
}

/// Gives `a` a checked target (see [`Crowd::set_target`]): a repeat of the one it has
/// changes nothing.
fn retarget(a: &mut Agent, target: Vec3, arrival_radius: f32) {
    let same = |x: f32, y: f32| x.to_bits() == y.to_bits();
    if same(a.target.x, target.x)
        && same(a.target.y, target.y)
        && same(a.target.z, target.z)
        && same(a.arrival_radius, arrival_radius)
    {
        return;
    }
    a.target = target;
    a.arrival_radius = arrival_radius;
    a.next_waypoint = 0;
    a.settled_at = 0.0;
    a.plan.2 = 0;
    a.approaching = Approach::Off;
    if a.state == AgentState::Arrived {
        a.state = AgentState::Moving;
    }
}

/// Counts agent `a` (walking straight, at `p`, of `radius`) held near obstacles in sub-step
/// `now`, by `held` seconds (see *Detours* in [`RouteMode::Direct`]): on from the sub-step
/// before while it stays within a radius of where it was first held (else, if blocked, counted
/// from now); held for [`DETOUR_TIME`], it searches for a way out at its next route
/// (`Crowd::route`), and is counted afresh (if walking straight is the way, as in a queue, it
/// asks again `DETOUR_TIME` later). Out of line: it runs for few agents, and reads and writes
/// the record's last line.
#[cold]
#[inline(never)]
fn pin(a: &mut Agent, p: Vec2, radius: f32, now: u64, held: f32) {
    let on = a.pinned_step + 1 == now && p.distance_squared(a.pinned_at) <= radius * radius;
    if !on && a.state != AgentState::Blocked {
        return;
    }
    if !on {
        a.pinned_at = p;
        a.pinned = 0.0;
    }
    a.pinned += held;
    a.pinned_step = now;
    if a.pinned >= DETOUR_TIME {
        a.pinned_step = 0;
        a.detour = true;
        a.plan.2 = 0;
    }
}

/// The point agent `a`, at `pos` on a detour, makes for: out of the pocket by a search round it
/// (see *Detours* in [`RouteMode::Direct`]), again every [`REPLAN_STEPS`] sub-steps or on
/// reaching the point it made for. `None` once straight on at its target is the way: the
/// detour ends.
fn detour_point(
    a: &mut Agent,
    pos: Vec2,
    escape: &mut Escape,
    shapes: &[Option<Shape>],
    og: &ObstacleGrid,
) -> Option<Vec2> {
    let (point, _, age) = a.plan;
    if age > 0 && point.distance(pos) > TURN_NEAR * a.radius {
        a.plan.2 -= 1;
        return Some(point);
    }
    let target = Vec2::new(a.target.x, a.target.z);
    match escape.way_out(pos, target, a.radius, shapes, og) {
        WayOut::Via(point) => {
            a.plan = (point, false, REPLAN_STEPS);
            Some(point)
        }
        WayOut::Straight => {
            a.detour = false;
            None
        }
    }
}

/// Counts agent `a` (planning its route, blocked hitting an obstacle, at `p`, of `radius`) held
/// as [`pin`] does, but takes the detour only when, held for [`DETOUR_TIME`], it is wedged
/// (touching two obstacles or more, to within a hundredth of its radius): in a crack between
/// two boxes barely wider than itself, where the planning grid has no open cell, the planner
/// sent it on into the crack for good (one agent of the planned benchmark with 2 800). Held
/// otherwise (pressing on an obstacle in a crowd), nothing changes: the count starts again.
#[cold]
#[inline(never)]
fn pin_wedged(
    a: &mut Agent,
    p: Vec2,
    radius: f32,
    now: u64,
    held: f32,
    shapes: &[Option<Shape>],
    og: &ObstacleGrid,
) {
    let age = a.plan.2;
    pin(a, p, radius, now, held);
    if a.detour && obstacles_within(p, 1.01 * radius, shapes, og) < 2 {
        a.detour = false;
        a.plan.2 = age;
    }
}

/// Whether `b` stands in `a`'s way to `to`: within the angle whose cosine is `cos` (> 0) of
/// the direction from `a` to `to` (false when either direction is undefined).
fn in_way(a: &Agent, to: Vec2, b: &Agent, cos: f32) -> bool {
    let p = Vec2::new(a.position.x, a.position.z);
    let to = (to - p).try_normalize();
    let off = (Vec2::new(b.position.x, b.position.z) - p).try_normalize();
    matches!((to, off), (Some(t), Some(o)) if t.dot(o) > cos)
}

fn check_body(speed: f32, radius: f32) -> Result<(), CrowdError> {
    check_finite(&[speed, radius])?;
    check(speed >= 0.0 && radius > 0.0)
}

/// Whether [`par_update`] and its kin run `len` items of a light phase on one thread.
fn one_thread((threads, per_thread): (usize, usize), len: usize) -> bool {
    threads.min(len / per_thread).max(1) == 1
}

/// Asks the CPU to fetch the cache line holding `p` for reading (a hint: it reads nothing
/// and cannot fault, whatever `p` is; a no-op off x86-64).
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of the x86_64 baseline; a prefetch accesses no memory.
    unsafe {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// [`prefetch`] of the first `lines` cache lines from `p`, for writing (PREFETCHW).
#[inline(always)]
fn prefetch_write<T>(p: *const T, lines: usize) {
    #[cfg(target_arch = "x86_64")]
    for line in 0..lines {
        // SAFETY: as in `prefetch`.
        unsafe {
            use core::arch::x86_64::{_mm_prefetch, _MM_HINT_ET0};
            _mm_prefetch::<_MM_HINT_ET0>(p.cast::<i8>().wrapping_add(64 * line));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, lines);
}

/// The step's record of agent `a` (gathered as `g`, at `pos`).
#[inline]
fn body_of(a: &Agent, g: &Gathered, pos: Vec2) -> Body {
    // The obstacle it slid along last step, and the way it slid.
    let (last_obstacle, last_slide) = if a.hit.kind == HitKind::Obstacle {
        let tangent = right_of(Vec2::new(a.hit.normal.x, a.hit.normal.z));
        (a.hit.id & SLOT_MASK, tangent * f32::from(a.slide))
    } else {
        (u32::MAX, Vec2::ZERO)
    };
    Body {
        pos,
        vel: a.velocity,
        radius: a.radius,
        speed: a.speed,
        yaw: a.yaw,
        fwd: a.heading2(),
        max_turn_rate: a.max_turn_rate,
        fov_range: a.fov_range,
        cos_half_fov: g.cos_half_fov,
        repel_force: a.repel_force,
        steer_to: g.steer_to,
        target: Vec2::new(a.target.x, a.target.z),
        final_leg: g.final_leg,
        arrival_radius: a.arrival_radius,
        priority: a.priority,
        layer: a.layer,
        mask: a.mask,
        arrived: a.state == AgentState::Arrived,
        blocked: a.state == AgentState::Blocked,
        recheck: g.recheck,
        settled_at: a.settled_at,
        slot: g.slot,
        last_hit: if a.hit.kind == HitKind::Agent {
            a.hit.id & SLOT_MASK
        } else {
            u32::MAX
        },
        last_obstacle,
        last_slide,
        direct: a.route_mode == RouteMode::Direct && !a.detour,
        passed: g.passed,
    }
}

/// Body `b`'s final position `p` (and whether it is clear) from `old`, stopped where its
/// disc first touches an obstacle when its path crosses one (see [`tunnel_stop`]) and it came
/// within reach of an obstacle this step (the test `Crowd::project` makes). Out of line: few
/// bodies move more than their radius in a step.
#[inline(never)]
fn stop_tunnel(
    b: &Moved,
    old: Vec2,
    p: Vec2,
    clear: bool,
    shapes: &[Option<Shape>],
    og: &ObstacleGrid,
) -> (Vec2, bool) {
    let near = b.obstacle_gap <= b.radius + b.moved + obstacle_margin(p);
    if !near || !p.is_finite() {
        return (p, clear);
    }
    match tunnel_stop(old, p, b.radius, shapes, og) {
        Some(q) => push_out(q, b.radius, shapes, og),
        None => (p, clear),
    }
}

/// Runs `f(start, a_chunk, b_chunk)` over equal chunks of `a` and `b` (equal lengths; the
/// chunks start at index `start`), on up to `threads` scoped threads of at least
/// `per_thread` items each (same bits for any thread count: each call may read only the
/// read-only world besides its own chunks).
fn par_chunks2<A: Send, B: Send, F: Fn(usize, &mut [A], &mut [B]) + Sync>(
    (threads, per_thread): (usize, usize),
    a: &mut [A],
    b: &mut [B],
    f: F,
) {
    debug_assert_eq!(a.len(), b.len());
    let threads = threads.min(a.len() / per_thread).max(1);
    if threads == 1 {
        f(0, a, b);
        return;
    }
    let chunk = a.len().div_ceil(threads);
    std::thread::scope(|s| {
        let f = &f;
        let mut parts = a.chunks_mut(chunk).zip(b.chunks_mut(chunk)).enumerate();
        let first = parts.next();
        for (c, (xs, ys)) in parts {
            s.spawn(move || f(c * chunk, xs, ys));
        }
        if let Some((_, (xs, ys))) = first {
            f(0, xs, ys);
        }
    });
}

/// Runs `f(k, &mut a[k], &mut b[k])` for every k (`a` and `b` have equal lengths), on up to
/// `threads` scoped threads of at least `per_thread` items each ([`par_chunks2`]).
///
/// `f` is called from one place, the per-chunk loop, so it is inlined there (called from the
/// serial path and from each thread, it was not: a call per item).
fn par_update2<A: Send, B: Send, F: Fn(usize, &mut A, &mut B) + Sync>(
    threads: (usize, usize),
    a: &mut [A],
    b: &mut [B],
    f: F,
) {
    par_chunks2(threads, a, b, |start, xs, ys| {
        for (i, (x, y)) in xs.iter_mut().zip(ys).enumerate() {
            f(start + i, x, y);
        }
    });
}

/// [`par_update2`] over one slice: `f(k, &mut out[k])` for every k.
fn par_update<T: Send, F: Fn(usize, &mut T) + Sync>(
    (threads, per_thread): (usize, usize),
    out: &mut [T],
    f: F,
) {
    let run = |start: usize, part: &mut [T]| {
        for (i, o) in part.iter_mut().enumerate() {
            f(start + i, o);
        }
    };
    let threads = threads.min(out.len() / per_thread).max(1);
    if threads == 1 {
        run(0, out);
        return;
    }
    let chunk = out.len().div_ceil(threads);
    std::thread::scope(|s| {
        let run = &run;
        let mut parts = out.chunks_mut(chunk).enumerate();
        let first = parts.next();
        for (c, part) in parts {
            s.spawn(move || run(c * chunk, part));
        }
        if let Some((_, part)) = first {
            run(0, part);
        }
    });
}

/// Runs `f(k)` for every k into `out[k]` ([`par_update`]; same bits for any thread count:
/// each output depends only on k and the read-only world).
fn par_fill<T: Send, F: Fn(usize) -> T + Sync>(threads: (usize, usize), out: &mut [T], f: F) {
    par_update(threads, out, |k, o| *o = f(k));
}

impl Crowd {
    /// An empty crowd with room for `capacity` agents (and as many obstacles, at least 1 024);
    /// allocates its per-step buffers now. Adding more grows it (doubling, up to
    /// [`MAX_CAPACITY`] agents and as many obstacles); the step after a growth may allocate,
    /// the ones after it do not.
    pub fn new(capacity: usize) -> Result<Self, CrowdError> {
        if capacity > MAX_CAPACITY {
            return Err(CrowdError::CapacityExceeded);
        }
        Ok(Self {
            defaults: AgentDefaults::default(),
            agents: Slots::new(capacity),
            obstacles: Slots::new(capacity.max(1024)),
            obstacles_dirty: true,
            planner_stale: true,
            changed: None,
            // (Room for every entry: the step never allocates for them.)
            recheck: Vec::with_capacity(TRACKED_CHANGES),
            recheck_all: false,
            rechecking: false,
            planned: 0,
            escape: Escape::default(),
            shapes: Vec::new(),
            rings: Vec::new(),
            obstacle_ids: Vec::new(),
            obstacle_grid: ObstacleGrid::default(),
            grid: AgentGrid::with_capacity(capacity),
            gathered: Vec::with_capacity(capacity),
            gathered_pos: Vec::with_capacity(capacity),
            rank: Vec::with_capacity(capacity),
            inverse: Vec::with_capacity(capacity),
            sorted: Vec::with_capacity(capacity),
            stepped: Vec::with_capacity(capacity),
            decisions: Vec::with_capacity(capacity),
            bodies: Vec::with_capacity(capacity),
            pos: Vec::with_capacity(capacity),
            overlaps: Vec::with_capacity(capacity),
            active: Vec::with_capacity(capacity),
            in_active: Vec::with_capacity(capacity),
            finals: Vec::with_capacity(capacity),
            next: Vec::with_capacity(2 * capacity),
            found: Vec::with_capacity(64),
            planner: Planner::default(),
            yields: Vec::with_capacity(64),
            backing: Vec::with_capacity(64),
            backing_off: Vec::with_capacity(64),
            fast: Vec::new(),
            stops: Vec::new(),
            programs: Vec::new(),
            program_of: Vec::new(),
            events: Vec::with_capacity(64),
            sub_steps: 0,
            kernels: Kernels::detect(Simd::Avx512),
        })
    }

    /// Caps the lane builds the step may use (the candidate scan and cull and the batched
    /// turns; see [`Simd`]): it takes the best this CPU has up to `cap`. Every build gives
    /// exactly the bits of the portable code; capping is for comparisons, tests and CPUs that
    /// clock down under AVX-512. The default is no cap.
    pub fn set_simd(&mut self, cap: Simd) {
        self.kernels = Kernels::detect(cap);
    }

    /// The lane builds the step runs: the cap set by [`Crowd::set_simd`], lowered to what this
    /// CPU supports.
    pub fn simd(&self) -> Simd {
        self.kernels.level()
    }

    /// Agents this crowd holds before it grows.
    pub fn capacity(&self) -> usize {
        self.agents.capacity
    }

    /// Parameters given to agents added from now on.
    pub fn agent_defaults(&self) -> AgentDefaults {
        self.defaults
    }

    /// Sets the parameters given to agents added from now on (validated like the setters).
    pub fn set_agent_defaults(&mut self, defaults: AgentDefaults) -> Result<(), CrowdError> {
        check_defaults(&defaults)?;
        self.defaults = defaults;
        Ok(())
    }

    /// Adds an agent standing at `position` facing `yaw` with walking `speed` (≥ 0) and body
    /// `radius` (> 0); its target is where it stands until [`Self::set_target`].
    pub fn add_agent(
        &mut self,
        position: Vec3,
        yaw: f32,
        speed: f32,
        radius: f32,
    ) -> Result<AgentId, CrowdError> {
        check_finite(&[position.x, position.y, position.z, yaw])?;
        check_body(speed, radius)?;
        let a = Agent::new(position, yaw, speed, radius, &self.defaults);
        let planned = a.route_mode == RouteMode::Planned;
        let before = self.agents.capacity;
        let id = self.agents.insert(a).map(AgentId)?;
        if self.agents.capacity != before {
            self.grow(self.agents.capacity);
        }
        self.planned += usize::from(planned);
        Ok(id)
    }

    /// Reserves the per-step buffers for `capacity` agents (after the agents' store grew), so
    /// that the steps after the next allocate nothing.
    #[cold]
    fn grow(&mut self, capacity: usize) {
        fn room<T>(v: &mut Vec<T>, n: usize) {
            v.reserve(n.saturating_sub(v.len()));
        }
        room(&mut self.gathered, capacity);
        room(&mut self.gathered_pos, capacity);
        room(&mut self.rank, capacity);
        room(&mut self.inverse, capacity);
        room(&mut self.sorted, capacity);
        room(&mut self.stepped, capacity);
        room(&mut self.decisions, capacity);
        room(&mut self.bodies, capacity);
        room(&mut self.pos, capacity);
        room(&mut self.overlaps, capacity);
        room(&mut self.active, capacity);
        room(&mut self.in_active, capacity);
        room(&mut self.finals, capacity);
        room(&mut self.next, 2 * capacity);
        self.grid = AgentGrid::with_capacity(capacity);
    }

    /// Removes an agent; its id becomes invalid (and its goal queue goes with it).
    pub fn remove_agent(&mut self, id: AgentId) -> Result<(), CrowdError> {
        let a = self.agents.remove(id.0)?;
        self.planned -= usize::from(a.route_mode == RouteMode::Planned);
        self.drop_program((id.0 & SLOT_MASK) as usize);
        Ok(())
    }

    /// Live agents.
    pub fn agent_count(&self) -> usize {
        self.agents.live
    }

    /// The agent named by `id`.
    pub fn agent(&self, id: AgentId) -> Result<&Agent, CrowdError> {
        self.agents.get(id.0)
    }

    /// Every live agent with its id, in slot order.
    pub fn agents(&self) -> impl Iterator<Item = (AgentId, &Agent)> + '_ {
        self.agents
            .items
            .iter()
            .enumerate()
            .filter_map(|(s, a)| a.as_ref().map(|a| (AgentId(self.agents.id_of(s)), a)))
    }

    /// Sends an agent to `target`; it arrives within `arrival_radius` (≥ 0) of it (of the
    /// nearest point it can reach, when `target` lies inside an obstacle or too close to one:
    /// see [`AgentState::Arrived`]).
    ///
    /// A new target (or arrival radius) starts the agent afresh: it walks its waypoints from
    /// the first, plans anew and, if it had arrived, walks on. The target and radius it
    /// already has (the same bits) change nothing, so a game may send every agent's target
    /// every frame: an agent that settled against others at a shared target stays settled.
    /// (Restarting on a repeat, a crowd re-sent its one target every frame never settled:
    /// each resend made every settled agent walk on, and with none of them arrived there was
    /// nothing left to settle against.)
    pub fn set_target(
        &mut self,
        id: AgentId,
        target: Vec3,
        arrival_radius: f32,
    ) -> Result<(), CrowdError> {
        check_target(target, arrival_radius)?;
        let a = self.agents.get_mut(id.0)?;
        retarget(a, target, arrival_radius);
        self.retarget_program(id, target, arrival_radius);
        Ok(())
    }

    /// [`set_target`](Self::set_target) for many agents in one call: agent `ids[i]` goes to
    /// `targets[i]` with arrival radius `arrival_radii[i]`, or, when `arrival_radii` is empty,
    /// with the arrival radius it has. All or nothing: the lengths (`targets` as long as
    /// `ids`, `arrival_radii` as long or empty: [`CrowdError::InvalidArgument`]), every id
    /// ([`CrowdError::UnknownId`]), target ([`CrowdError::NonFinite`]) and radius (NaN/Inf:
    /// `NonFinite`, negative: `InvalidArgument`) are checked before any agent changes. The
    /// result equals calling `set_target` for each in order (an id given twice: its last
    /// entry holds).
    pub fn set_targets(
        &mut self,
        ids: &[AgentId],
        targets: &[Vec3],
        arrival_radii: &[f32],
    ) -> Result<(), CrowdError> {
        check(targets.len() == ids.len())?;
        check(arrival_radii.is_empty() || arrival_radii.len() == ids.len())?;
        for (i, (&id, &t)) in ids.iter().zip(targets).enumerate() {
            let a = self.agents.get(id.0)?;
            check_target(t, arrival_radii.get(i).copied().unwrap_or(a.arrival_radius))?;
        }
        for (i, (&id, &t)) in ids.iter().zip(targets).enumerate() {
            let a = self.agents.get_mut(id.0)?;
            let radius = arrival_radii.get(i).copied().unwrap_or(a.arrival_radius);
            retarget(a, t, radius);
            self.retarget_program(id, t, radius);
        }
        Ok(())
    }

    /// How an agent looks ahead and reacts: fastest turn (rad/s, > 0), field-of-view range
    /// (m, ≥ 0) and half angle (0..=π), repel force (≥ 0).
    pub fn set_steering(
        &mut self,
        id: AgentId,
        max_turn_rate: f32,
        fov_range: f32,
        fov_half_angle: f32,
        repel_force: f32,
    ) -> Result<(), CrowdError> {
        check_steering(max_turn_rate, fov_range, fov_half_angle, repel_force)?;
        let a = self.agents.get_mut(id.0)?;
        a.max_turn_rate = max_turn_rate;
        a.fov_range = fov_range;
        a.fov_half_angle = fov_half_angle;
        a.repel_force = repel_force;
        Ok(())
    }

    /// Who yields (lower `priority` gives way) and who avoids whom (`mask & other.layer`).
    pub fn set_priority(
        &mut self,
        id: AgentId,
        priority: f32,
        layer: u32,
        mask: u32,
    ) -> Result<(), CrowdError> {
        check_finite(&[priority])?;
        let a = self.agents.get_mut(id.0)?;
        a.priority = priority;
        a.layer = layer;
        a.mask = mask;
        Ok(())
    }

    /// Walking speed (≥ 0) and body radius (> 0).
    pub fn set_speed(&mut self, id: AgentId, speed: f32, radius: f32) -> Result<(), CrowdError> {
        check_body(speed, radius)?;
        let a = self.agents.get_mut(id.0)?;
        a.speed = speed;
        a.radius = radius;
        Ok(())
    }

    /// Corner waypoints walked in order before the target (used in route mode `Waypoints`).
    pub fn set_waypoints(&mut self, id: AgentId, corners: &[Vec3]) -> Result<(), CrowdError> {
        if !corners.iter().all(|c| c.is_finite()) {
            return Err(CrowdError::NonFinite);
        }
        let a = self.agents.get_mut(id.0)?;
        a.waypoints.clear();
        a.waypoints.extend_from_slice(corners);
        a.next_waypoint = 0;
        Ok(())
    }

    /// How the agent finds its way (it starts its waypoints again, and plans afresh).
    pub fn set_route_mode(&mut self, id: AgentId, mode: RouteMode) -> Result<(), CrowdError> {
        let a = self.agents.get_mut(id.0)?;
        let was = a.route_mode == RouteMode::Planned;
        a.route_mode = mode;
        a.next_waypoint = 0;
        a.plan.2 = 0;
        a.detour = false;
        self.planned = self.planned - usize::from(was) + usize::from(mode == RouteMode::Planned);
        Ok(())
    }

    /// Teleports an agent. A non-finite position or yaw marks the agent
    /// [`AgentState::Invalid`] (skipped by the step until it gets a finite one) and returns
    /// [`CrowdError::NonFinite`].
    pub fn set_position(
        &mut self,
        id: AgentId,
        position: Vec3,
        yaw: f32,
    ) -> Result<(), CrowdError> {
        let a = self.agents.get_mut(id.0)?;
        if !position.is_finite() || !yaw.is_finite() {
            a.state = AgentState::Invalid;
            a.velocity = Vec2::ZERO;
            return Err(CrowdError::NonFinite);
        }
        a.position = position;
        a.yaw = yaw;
        a.heading = forward2(yaw);
        // Put elsewhere, it is no longer wedged where it was.
        a.detour = false;
        if a.state == AgentState::Invalid {
            a.state = AgentState::Moving;
        }
        a.settled_at = 0.0;
        Ok(())
    }

    /// Gives an agent a queue of goals: it walks to `goals[0]` now, and on reaching each goal
    /// (see [`goals`](super::goals): within its arrival radius, not stopped short against
    /// others) waits that goal's `wait`, then takes the next; at the last it does what
    /// `on_arrival` says. Replaces any queue it had (a caller that walks goals one at a time,
    /// setting a queue of one goal after another as each is reached, gets the same right of
    /// way as a queue: the goal it had reached counts as left). An empty `goals` drops the queue (the
    /// agent keeps its target and stops there). Checked before anything changes: targets,
    /// radii and waits finite ([`CrowdError::NonFinite`]), radii and waits ≥ 0
    /// ([`CrowdError::InvalidArgument`]).
    pub fn set_goals(
        &mut self,
        id: AgentId,
        goals: &[Goal],
        on_arrival: OnArrival,
    ) -> Result<(), CrowdError> {
        let slot = self.agents.slot(id.0)?;
        for g in goals {
            check_target(g.target, g.arrival_radius)?;
            check_finite(&[g.wait])?;
            check(g.wait >= 0.0)?;
        }
        let Some((&first, rest)) = goals.split_first() else {
            self.drop_program(slot);
            return Ok(());
        };
        let a = self.agents.items[slot].as_mut().expect("live slot");
        retarget(a, first.target, first.arrival_radius);
        // The goal it last left stays: the one it had reached, if a new queue sends it on
        // from there, else the one it left before.
        let passed = match self.program_of.get(slot) {
            Some(&k) if k != u32::MAX => {
                let old = &self.programs[k as usize];
                match old.waiting {
                    Some(_) => Vec2::new(old.current.target.x, old.current.target.z),
                    None => old.passed,
                }
            }
            _ => Vec2::NAN,
        };
        let program = Program {
            agent: id.0,
            current: first,
            queue: rest.iter().copied().collect(),
            on_arrival,
            reached: 0,
            waiting: None,
            passed,
        };
        match self.program_of.get(slot) {
            Some(&k) if k != u32::MAX => self.programs[k as usize] = program,
            _ => {
                if self.program_of.len() <= slot {
                    self.program_of.resize(self.agents.items.len(), u32::MAX);
                }
                self.program_of[slot] = self.programs.len() as u32;
                self.programs.push(program);
            }
        }
        Ok(())
    }

    /// Adds a goal to the end of an agent's queue (an agent without one gets a queue whose
    /// first goal is its target, stopping at the last). An agent already at its last goal
    /// takes the new one once it has waited out the one it stands at.
    pub fn push_goal(&mut self, id: AgentId, goal: Goal) -> Result<(), CrowdError> {
        check_target(goal.target, goal.arrival_radius)?;
        check_finite(&[goal.wait])?;
        check(goal.wait >= 0.0)?;
        let k = self.program_index(id)?;
        self.programs[k].queue.push_back(goal);
        Ok(())
    }

    /// Sets what an agent does at the last goal of its queue (an agent without one gets a queue
    /// whose one goal is its target).
    pub fn set_on_arrival(&mut self, id: AgentId, on_arrival: OnArrival) -> Result<(), CrowdError> {
        let k = self.program_index(id)?;
        self.programs[k].on_arrival = on_arrival;
        Ok(())
    }

    /// Goals still ahead of an agent after the one it walks to now (0 without a queue).
    pub fn goals_left(&self, id: AgentId) -> Result<usize, CrowdError> {
        let slot = self.agents.slot(id.0)?;
        Ok(match self.program_of.get(slot) {
            Some(&k) if k != u32::MAX => self.programs[k as usize].queue.len(),
            _ => 0,
        })
    }

    /// What happened during the last [`Crowd::step`]: goals reached and agents despawned, in
    /// the order they happened (sub-step by sub-step, agents in the order their queues were
    /// set). Kept until the next call to `step`; a refused call reports none.
    pub fn events(&self) -> &[CrowdEvent] {
        &self.events
    }

    /// The index of the agent's program, made (its target as its one goal, stopping there)
    /// if it has none.
    fn program_index(&mut self, id: AgentId) -> Result<usize, CrowdError> {
        let slot = self.agents.slot(id.0)?;
        if let Some(&k) = self.program_of.get(slot) {
            if k != u32::MAX {
                return Ok(k as usize);
            }
        }
        let a = self.agents.items[slot].as_ref().expect("live slot");
        let first = Goal::new(a.target, a.arrival_radius);
        self.set_goals(id, &[first], OnArrival::Stop)?;
        Ok(self.program_of[slot] as usize)
    }

    /// Keeps an agent's current goal in step with a target set directly (its queue stays).
    fn retarget_program(&mut self, id: AgentId, target: Vec3, arrival_radius: f32) {
        let slot = (id.0 & SLOT_MASK) as usize;
        if let Some(&k) = self.program_of.get(slot) {
            if k != u32::MAX {
                let p = &mut self.programs[k as usize];
                if p.current.target != target || p.current.arrival_radius != arrival_radius {
                    p.current.target = target;
                    p.current.arrival_radius = arrival_radius;
                    p.waiting = None;
                }
            }
        }
    }

    /// Drops the program of the agent in `slot`, if any.
    fn drop_program(&mut self, slot: usize) {
        let Some(&k) = self.program_of.get(slot) else {
            return;
        };
        if k == u32::MAX {
            return;
        }
        self.program_of[slot] = u32::MAX;
        self.programs.swap_remove(k as usize);
        if let Some(moved) = self.programs.get(k as usize) {
            self.program_of[(moved.agent & SLOT_MASK) as usize] = k;
        }
    }

    /// Moves every agent with a goal queue on after a sub-step of `dt` seconds: a goal
    /// reached is reported, waited at, and followed by the next; an agent leaving at its last
    /// goal is removed (its disc noted as a change, so that agents stopped short against it
    /// are steered afresh).
    fn run_programs(&mut self, dt: f32) {
        let mut k = 0;
        while k < self.programs.len() {
            let p = &mut self.programs[k];
            let id = p.agent;
            let slot = (id & SLOT_MASK) as usize;
            let a = self.agents.items[slot]
                .as_ref()
                .expect("a program's agent lives");
            // Reached: arrived at the goal itself (or as near as it can get), not stopped
            // short against others.
            let reached = a.state == AgentState::Arrived && a.settled_at == 0.0;
            let position = a.position;
            let events = &mut self.events;
            let next = p.advance(reached, dt, |goal| {
                events.push(CrowdEvent {
                    kind: EventKind::GoalReached,
                    agent: AgentId(id),
                    goal,
                    position,
                })
            });
            match next {
                Next::Stay => k += 1,
                Next::Go(g) => {
                    let a = self.agents.items[slot].as_mut().expect("live");
                    retarget(a, g.target, g.arrival_radius);
                    k += 1;
                }
                Next::Leave => {
                    let goal = p.reached.saturating_sub(1);
                    let radius = a.radius;
                    self.events.push(CrowdEvent {
                        kind: EventKind::Despawned,
                        agent: AgentId(id),
                        goal,
                        position,
                    });
                    self.remove_agent(AgentId(id)).expect("live");
                    let disc = Obstacle::Circle {
                        center: position,
                        radius,
                    }
                    .shape();
                    match disc {
                        Some(disc) if self.recheck.len() < TRACKED_CHANGES => {
                            self.recheck.push(disc)
                        }
                        _ => self.recheck_all = true,
                    }
                    // (The last program moved into `k`: look at it next.)
                }
            }
        }
    }

    /// Adds a static obstacle. The next step rebuilds the steer's obstacle index and, if some
    /// agent plans its route, updates the route planner where the obstacle reaches (see
    /// [`planner`](super::planner): a local update while the obstacles stay on its grid;
    /// without planned agents the planner waits until one appears). To move an obstacle,
    /// remove it and add it where it now is.
    pub fn add_obstacle(&mut self, obstacle: Obstacle) -> Result<ObstacleId, CrowdError> {
        let shape = obstacle.shape().ok_or_else(|| {
            let finite = match obstacle {
                Obstacle::Circle { center, radius } => center.is_finite() && radius.is_finite(),
                Obstacle::Box { min, max } => min.is_finite() && max.is_finite(),
                Obstacle::OrientedBox {
                    center,
                    half_x,
                    half_z,
                    yaw,
                } => {
                    center.is_finite()
                        && half_x.is_finite()
                        && half_z.is_finite()
                        && yaw.is_finite()
                }
                Obstacle::Wall { a, b } => a.is_finite() && b.is_finite(),
            };
            if finite {
                CrowdError::InvalidArgument
            } else {
                CrowdError::NonFinite
            }
        })?;
        let id = self.obstacles.insert((obstacle, shape))?;
        self.obstacle_changed(shape);
        Ok(ObstacleId(id))
    }

    /// Removes a static obstacle (the next step updates the obstacle index and the planner, as
    /// for [`Self::add_obstacle`]).
    pub fn remove_obstacle(&mut self, id: ObstacleId) -> Result<(), CrowdError> {
        let (_, shape) = self.obstacles.remove(id.0)?;
        self.obstacle_changed(shape);
        Ok(())
    }

    /// Notes an obstacle added or removed: the next step rebuilds the obstacle index, and the
    /// first step with an agent that plans its route updates the planner where `shape`
    /// reaches.
    fn obstacle_changed(&mut self, shape: Shape) {
        if !self.planner_stale {
            self.changed = Some(Vec::new());
        }
        self.obstacles_dirty = true;
        self.planner_stale = true;
        if self.recheck.len() < TRACKED_CHANGES {
            self.recheck.push(shape);
        } else {
            self.recheck_all = true;
        }
        if let Some(list) = &mut self.changed {
            if list.len() < TRACKED_CHANGES {
                list.push(shape);
            } else {
                self.changed = None;
            }
        }
    }

    /// The obstacle named by `id`.
    pub fn obstacle(&self, id: ObstacleId) -> Result<&Obstacle, CrowdError> {
        self.obstacles.get(id.0).map(|(o, _)| o)
    }

    /// Every obstacle with its id.
    pub fn obstacles(&self) -> impl Iterator<Item = (ObstacleId, &Obstacle)> + '_ {
        self.obstacles
            .items
            .iter()
            .enumerate()
            .filter_map(|(s, o)| {
                o.as_ref()
                    .map(|(o, _)| (ObstacleId(self.obstacles.id_of(s)), o))
            })
    }

    /// The route planner (its cache statistics, the grid it plans on). A step brings it up to
    /// date with the obstacles only while some agent plans its route ([`RouteMode::Planned`]):
    /// a crowd whose agents walk straight or along waypoints never pays for it.
    pub fn planner(&self) -> &Planner {
        &self.planner
    }

    /// Caps the memory of planned routes ([`RouteMode::Planned`]): the planner caches at most
    /// `max_fields` distance fields (one per goal block and radius class). Each field holds one `f32` per planning cell, so the cache holds at
    /// most `max_fields × cells × 4` bytes, where cells is the planning grid's
    /// ([`Planner::cells`]: about 65 536 at most, 256 KiB per field; 128 MiB at the default
    /// [`MAX_FIELDS`] = 512). Lowering the cap below the fields now cached drops the least
    /// recently used ones at once and frees their memory ([`Planner::field_bytes`] reports
    /// what is held).
    ///
    /// A full cache makes room for a new field only by dropping the least recently used, and
    /// only when that one has gone unused for
    /// [`FIELD_HOT_STEPS`](super::planner::FIELD_HOT_STEPS) sub-steps (two route updates): a
    /// field agents are following is never dropped for another goal's. The trade-off: with
    /// more distinct goals in use than the cap, the goals asked for first keep their fields,
    /// and the other agents search ways of their own (A* from the goal to where each stands, in
    /// turns, within the search share of the route budget: see [`Self::set_route_budget`])
    /// and, beyond that share, walk straight at their targets, until a field falls out of use.
    /// Each sub-step computes at most [`FIELDS_PER_STEP`](super::planner::FIELDS_PER_STEP) new
    /// fields either way. Results stay deterministic and the same for any thread count.
    ///
    /// `max_fields` must be in `1..=MAX_FIELDS`: 0 and values above [`MAX_FIELDS`] are refused
    /// with [`CrowdError::InvalidArgument`] (not clamped), and nothing changes.
    pub fn set_route_cache(&mut self, max_fields: usize) -> Result<(), CrowdError> {
        check((1..=MAX_FIELDS).contains(&max_fields))?;
        self.planner.set_max_fields(max_fields);
        Ok(())
    }

    /// The planner's cap on cached distance fields (see [`Self::set_route_cache`]):
    /// [`MAX_FIELDS`] unless lowered.
    pub fn route_cache(&self) -> usize {
        self.planner.max_fields()
    }

    /// Bounds the route planning done per sub-step: at most `fields_per_step` distance fields
    /// are computed, or stale ones repaired, in each
    /// ([`FIELDS_PER_STEP`](super::planner::FIELDS_PER_STEP) = 4 unless set). A
    /// field costs up to ~1 ms on the finest planning grid here (65 536 cells), so the budget
    /// bounds the planner's share of a frame, as Unity's `pathfindingIterationsPerFrame` does
    /// for its NavMesh: a lower budget keeps frames short when many agents plan to goals of
    /// their own, and they wait longer for their routes; a higher one gets routes sooner.
    /// While an agent waits for a field it may search a way of its own: A* from its goal's
    /// cells to its own over the same moves, a descent of the field it waits for. The searches
    /// of a sub-step take at most `fields_per_step` × cells / 16 cells (a sixteenth of a
    /// field's cells per unit of budget); when they run out, the waiting agents take turns
    /// (each may search once every few sub-steps, as many as asked per search given, so the
    /// first agents in slot order do not take them all), and those out of turn or out of
    /// searches walk straight at their targets meanwhile.
    /// Results stay deterministic and the same for any thread count.
    ///
    /// `fields_per_step` must be in `1..=MAX_FIELDS_PER_STEP` (64): 0 and values above are
    /// refused with [`CrowdError::InvalidArgument`] (not clamped), and nothing changes.
    pub fn set_route_budget(&mut self, fields_per_step: usize) -> Result<(), CrowdError> {
        check((1..=MAX_FIELDS_PER_STEP as usize).contains(&fields_per_step))?;
        self.planner.set_fields_per_step(fields_per_step as u32);
        Ok(())
    }

    /// The planner's budget of new fields per sub-step (see [`Self::set_route_budget`]):
    /// [`FIELDS_PER_STEP`](super::planner::FIELDS_PER_STEP) unless set.
    pub fn route_budget(&self) -> usize {
        self.planner.fields_per_step() as usize
    }

    fn rebuild_obstacles(&mut self) {
        self.shapes.clear();
        self.rings.clear();
        self.obstacle_ids.clear();
        let mut boxes = Vec::with_capacity(self.obstacles.items.len());
        for (s, o) in self.obstacles.items.iter().enumerate() {
            let shape = o.as_ref().map(|(_, sh)| *sh);
            self.shapes.push(shape);
            self.rings
                .push(shape.map_or_else(Ring::default, |sh| Ring::of(&sh)));
            self.obstacle_ids.push(self.obstacles.id_of(s));
            boxes.push(shape.map(|sh| (sh.center - sh.extent(), sh.center + sh.extent())));
        }
        self.obstacle_grid.build(&boxes);
        self.obstacles_dirty = false;
    }

    /// Brings the planner up to date with the obstacles (a local update, or a rebuild), and
    /// has every agent plan again.
    fn update_planner(&mut self) {
        match self.changed.take() {
            Some(changed) => {
                self.planner.update(&self.shapes, &changed);
            }
            None => self.planner.rebuild(&self.shapes),
        }
        for a in self.agents.items.iter_mut().flatten() {
            a.plan.2 = 0;
        }
        self.planner_stale = false;
    }

    /// Advances every agent by `dt` seconds on up to `threads` threads (0 or 1: this thread).
    /// `dt` must be finite and > 0; a `dt` above [`MAX_SUB_STEP`] is split into equal
    /// sub-steps, and one above `MAX_SUB_STEP × MAX_SUB_STEPS` is refused. The result is the
    /// same, bit for bit, for any `threads`.
    pub fn step(&mut self, dt: f32, threads: usize) -> Result<(), CrowdError> {
        // (A refused step happened too: it reports no events.)
        self.events.clear();
        if !dt.is_finite() {
            return Err(CrowdError::NonFinite);
        }
        if dt <= 0.0 {
            return Err(CrowdError::InvalidArgument);
        }
        let n = (dt / MAX_SUB_STEP).ceil().max(1.0);
        if n > MAX_SUB_STEPS as f32 {
            return Err(CrowdError::InvalidArgument);
        }
        if self.obstacles_dirty {
            self.rebuild_obstacles();
        }
        if self.planner_stale && self.planned > 0 {
            self.update_planner();
        }
        let sub = dt / n;
        for _ in 0..n as u32 {
            self.sub_step(sub, threads.max(1));
            if !self.programs.is_empty() {
                self.run_programs(sub);
            }
        }
        Ok(())
    }

    /// Whether the planned agent in `slot` is to give way to another, and where that one
    /// stands and its radius: the two touch, each stands right in the other's way to its route
    /// point (within 45°) and is the other's most urgent hit, and one of them made no headway
    /// last step (a head-on block, which in a passage one agent wide neither the side bias
    /// nor pushing resolves). Of the two, the lower priority gives way; of equals, the later
    /// slot; an agent that does not plan its route cannot, so the other does.
    fn yield_to(&self, slot: usize) -> Option<(Vec2, f32)> {
        let a = self.agents.items[slot].as_ref()?;
        if a.route_mode != RouteMode::Planned || a.hit.kind != HitKind::Agent {
            return None;
        }
        let other = self.agents.get(a.hit.id).ok()?;
        let other_slot = (a.hit.id & SLOT_MASK) as usize;
        let at = Vec2::new(other.position.x, other.position.z);
        let gap = at.distance(Vec2::new(a.position.x, a.position.z)) - a.radius - other.radius;
        let stuck = a.state == AgentState::Blocked || other.state == AgentState::Blocked;
        // Each stands right in the other's way to its route point (agents jostling into their
        // places near their targets, or pressed together at a door, face any way and touch
        // at any side).
        let opposite = in_way(a, a.plan.0, other, 0.7) && in_way(other, other.plan.0, a, 0.7);
        if other.hit.kind != HitKind::Agent
            || other.hit.id != self.agents.id_of(slot)
            || !stuck
            || gap > 0.05 * a.radius.min(other.radius)
            || !opposite
        {
            return None;
        }
        let yields = other.route_mode != RouteMode::Planned
            || a.priority < other.priority
            || (a.priority == other.priority && slot > other_slot);
        yields.then_some((at, other.radius))
    }

    fn route(&mut self, slot: usize) -> (Vec2, bool) {
        // A new head-on block: give way for YIELD_STEPS sub-steps, routed round where the
        // other agent stood (or backing off when there is no way round), starting now.
        let me = self.agents.id_of(slot);
        let mut avoid = self.yields.iter().find(|y| y.0 == me).map(|y| (y.1, y.2));
        let mut fresh = false;
        if avoid.is_none() {
            if let Some((at, r)) = self.yield_to(slot) {
                self.yields.push((me, at, r, self.sub_steps + YIELD_STEPS));
                avoid = Some((at, r));
                fresh = true;
            }
        }
        let Some(a) = self.agents.items[slot].as_mut() else {
            return (Vec2::ZERO, true);
        };
        let pos = Vec2::new(a.position.x, a.position.z);
        let target = Vec2::new(a.target.x, a.target.z);
        match a.route_mode {
            RouteMode::Direct if !a.detour || a.state == AgentState::Arrived => {
                a.detour = false;
                (target, true)
            }
            RouteMode::Direct => {
                let (shapes, og) = (&self.shapes, &self.obstacle_grid);
                match detour_point(a, pos, &mut self.escape, shapes, og) {
                    Some(point) => (point, false),
                    None => (target, true),
                }
            }
            RouteMode::Waypoints => {
                let reach = (TURN_NEAR * a.radius).max(a.arrival_radius);
                while let Some(w) = a.waypoints.get(a.next_waypoint) {
                    let w = Vec2::new(w.x, w.z);
                    if w.distance(pos) > reach {
                        return (w, false);
                    }
                    a.next_waypoint += 1;
                }
                (target, true)
            }
            RouteMode::Planned => {
                if a.state == AgentState::Arrived {
                    return (target, true);
                }
                if a.detour {
                    // Wedged in a crack the planning grid has no open cell in, and held there
                    // (see `pin_wedged`): out as an agent walking straight gets out of a pocket;
                    // the planner again once straight on is the way.
                    let (shapes, og) = (&self.shapes, &self.obstacle_grid);
                    if let Some(point) = detour_point(a, pos, &mut self.escape, shapes, og) {
                        return (point, false);
                    }
                    a.plan.2 = 0;
                }
                let (point, last, age) = a.plan;
                if !fresh && age > 0 && !last && point.distance(pos) > TURN_NEAR * a.radius {
                    a.plan.2 -= 1;
                    return (point, last);
                }
                // A disc on a line of sight may not go deeper into an obstacle than the agent
                // already is (to within a thousandth of its radius).
                let (shapes, og) = (&self.shapes, &self.obstacle_grid);
                let r = a.radius;
                // (Measured on first use: an agent waiting for a field tests no line.)
                let depth = std::cell::OnceCell::new();
                let fits = |p: Vec2| {
                    let depth = *depth
                        .get_or_init(|| obstacle_distance(pos, r, shapes, og).min(r) - 1e-3 * r);
                    obstacle_distance(p, r, shapes, og) >= depth
                };
                // Touching two obstacles or more (to within a hundredth of its radius).
                let wedged = obstacles_within(pos, 1.01 * r, shapes, og) >= 2;
                let mut approaching = a.approaching;
                let (point, last) = self.planner.next_point(
                    pos,
                    target,
                    r,
                    slot as u32,
                    avoid,
                    wedged,
                    &mut approaching,
                    fits,
                );
                a.approaching = approaching;
                // A straight fallback (no field yet) is retried next sub-step.
                let age = if last || point != target {
                    REPLAN_STEPS
                } else {
                    0
                };
                a.plan = (point, last, age);
                (point, last)
            }
        }
    }

    /// Ends the standoffs of agents walking straight at their targets: two of them blocked
    /// against each other, head on, for [`STANDOFF_TIME`] (each the other's hit, each standing
    /// ahead of the other on its way to its target, within about 70°), as in a passage one
    /// agent wide, where neither the side bias nor pushing gets either through and neither
    /// plans a way round (planned agents give way at once, see [`Crowd::yield_to`]). Of the
    /// two, the lower priority (of equals, the later slot) backs off, straight away from where
    /// the other stands, for [`BACK_OFF_TIME`]; the other follows it out, and then they pass.
    ///
    /// Agents planning their routes give way at once in a head-on block; this ends the rest of
    /// their knots: one blocked against the same agent for [`PATIENCE`], that agent on a way
    /// at least 60° off its own (crossing flows wedged among obstacles, where no two stand
    /// head on), routes round where that agent stands for as long as a head-on give-way.
    /// (Before, 83 of the 1 200 planned agents of the speed benchmark's scene stood in such a
    /// knot for good, and 50 of 1 000 once agents held their swerves, see `steering`.) Those
    /// queueing behind one another (as at a door) wait their turn.
    ///
    /// Serial, in slot order, after the write-back: the same for any thread count.
    fn break_standoffs(&mut self) {
        let now = self.sub_steps;
        // Blocked against the same agent, up to this sub-step, for its mode's limit.
        let stood = |a: &Agent| {
            a.standoff_step == now
                && a.hit.kind == HitKind::Agent
                && a.standoff >= standoff_limit(a.route_mode)
        };
        self.backing_off.clear();
        for (slot, item) in self.agents.items.iter().enumerate() {
            let Some(a) = item.as_ref().filter(|a| stood(a)) else {
                continue;
            };
            let Ok(other) = self.agents.get(a.hit.id) else {
                continue;
            };
            let other_slot = (a.hit.id & SLOT_MASK) as usize;
            let at = Vec2::new(other.position.x, other.position.z);
            let ends = if a.route_mode == RouteMode::Planned {
                // Out of patience, unless queueing behind the other.
                let way = |a: &Agent| {
                    let p = Vec2::new(a.position.x, a.position.z);
                    (a.plan.0 - p).normalize_or_zero()
                };
                way(a).dot(way(other)) < PATIENCE_CROSSING
            } else {
                // Walking straight: a pair, each the other's hit, head on (on the way to its
                // target, or on a detour to its route point); the lower gives way, and of one
                // on a detour and one not, the one not (the other knows the way out of where
                // it was wedged: pressing after it, the second held it there).
                let way = |a: &Agent| {
                    if a.detour {
                        a.plan.0
                    } else {
                        Vec2::new(a.target.x, a.target.z)
                    }
                };
                let yields = if a.detour != other.detour {
                    other.detour
                } else {
                    a.priority < other.priority
                        || (a.priority == other.priority && slot > other_slot)
                };
                other.route_mode == RouteMode::Direct
                    && stood(other)
                    && other.hit.id == self.agents.id_of(slot)
                    && yields
                    && in_way(a, way(a), other, STANDOFF_AHEAD)
                    && in_way(other, way(other), a, STANDOFF_AHEAD)
            };
            if ends {
                self.backing_off.push((slot, other_slot, at));
            }
        }
        for i in 0..self.backing_off.len() {
            let (slot, other_slot, at) = self.backing_off[i];
            let id = self.agents.id_of(slot);
            let other_radius = self.agents.items[other_slot].as_ref().map(|o| o.radius);
            if let (Some(a), Some(r)) = (self.agents.items[slot].as_mut(), other_radius) {
                if a.route_mode == RouteMode::Planned {
                    // Gives way as in a head-on block (see `Crowd::yield_to`), for YIELD_STEPS.
                    a.standoff = 0.0;
                    if !self.yields.iter().any(|y| y.0 == id) {
                        self.yields.push((id, at, r, now + YIELD_STEPS));
                    }
                    continue;
                }
            }
            for s in [slot, other_slot] {
                if let Some(a) = self.agents.items[s].as_mut() {
                    a.standoff = 0.0;
                }
            }
            if !self.backing.iter().any(|b| b.0 == id) {
                self.backing.push((id, at, BACK_OFF_TIME));
            }
        }
    }

    /// One sub-step: gather, steer, project, guard, write back. The phases stay separate
    /// functions (`inline(never)`: each runs once per sub-step) so that profiles attribute
    /// their costs.
    #[inline(never)]
    fn sub_step(&mut self, dt: f32, threads: usize) {
        let Some((min_radius, max_radius, max_look)) = self.gather() else {
            return;
        };
        let fastest = self.steer_all(dt, threads, max_radius, max_look);
        // (Only a body moving farther than its radius can pass through another.)
        if fastest * dt > min_radius {
            self.sweep(dt, max_radius, fastest);
        }
        self.project(dt, threads, max_radius, fastest);
        self.finish(threads, max_radius);
        if !self.backing.is_empty() {
            for b in &mut self.backing {
                b.2 -= dt;
            }
            self.backing.retain(|b| b.2 > 0.0);
        }
        if self.write_back(dt, threads) {
            self.break_standoffs();
        }
        if self.rechecking {
            self.recheck_around_released();
        }
    }

    /// Notes where each agent steered afresh this sub-step (see [`Body::recheck`]) that walked
    /// on stands, as a change of the next sub-step: the agents settled against it are then
    /// steered afresh too, and so on outward, so that a crowd settled round an obstacle that
    /// went closes in on its target.
    fn recheck_around_released(&mut self) {
        self.rechecking = false;
        for g in &self.gathered {
            if !g.recheck {
                continue;
            }
            let Some(a) = &self.agents.items[g.slot as usize] else {
                continue;
            };
            if a.state == AgentState::Arrived || a.state == AgentState::Invalid {
                continue;
            }
            // (Its disc, as a circle obstacle's shape: a live agent's is always valid.)
            let disc = Obstacle::Circle {
                center: a.position,
                radius: a.radius,
            }
            .shape();
            match disc {
                Some(disc) if self.recheck.len() < TRACKED_CHANGES => self.recheck.push(disc),
                _ => self.recheck_all = true,
            }
        }
    }

    /// Gathers the live agents in slot order (routes, positions); returns the smallest and
    /// largest radius and the largest look-ahead, or `None` when no agent is live.
    #[inline(never)]
    fn gather(&mut self) -> Option<(f32, f32, f32)> {
        self.planner.begin_step();
        self.sub_steps += 1;
        let now = self.sub_steps;
        self.yields.retain(|y| y.3 > now);
        // An obstacle removed and added again as it was (a dynamic one that did not move)
        // changed nothing.
        let mut i = 0;
        while i < self.recheck.len() {
            let same = (i + 1..self.recheck.len()).find(|&j| self.recheck[j] == self.recheck[i]);
            if let Some(j) = same {
                self.recheck.swap_remove(j);
                self.recheck.swap_remove(i);
            } else {
                i += 1;
            }
        }
        // Gather, in slot order: routes, positions, the largest radius and look-ahead.
        self.gathered.clear();
        self.gathered_pos.clear();
        let mut max_radius = 0.0f32;
        let mut min_radius = f32::INFINITY;
        let mut max_look = 0.0f32;
        // cos of the last half field of view seen (agents mostly share one): same bits as
        // computing it for each.
        let mut fov_cos = (f32::NAN, 0.0f32);
        for slot in 0..self.agents.items.len() {
            let valid =
                matches!(&self.agents.items[slot], Some(a) if a.state != AgentState::Invalid);
            if !valid {
                continue;
            }
            // (An agent walking straight at its target needs no more: kept out of `route`,
            // which then stays a call of its own.)
            let (steer_to, final_leg) = match &self.agents.items[slot] {
                Some(a)
                    if a.route_mode == RouteMode::Direct
                        && !a.detour
                        && self.backing.is_empty() =>
                {
                    (Vec2::new(a.target.x, a.target.z), true)
                }
                Some(a)
                    if a.route_mode == RouteMode::Direct
                        && !(a.detour && self.backing.is_empty()) =>
                {
                    let me = self.agents.id_of(slot);
                    match self.backing.iter().find(|b| b.0 == me) {
                        // Giving way in a standoff: straight away from where the other stood.
                        Some(&(_, from, _)) => {
                            let p = Vec2::new(a.position.x, a.position.z);
                            let away = (p - from).try_normalize().unwrap_or(-a.heading);
                            (p + away * a.fov_range.max(4.0 * a.radius), false)
                        }
                        None if a.detour => self.route(slot),
                        None => (Vec2::new(a.target.x, a.target.z), true),
                    }
                }
                _ => self.route(slot),
            };
            let a = self.agents.items[slot].as_ref().expect("live slot");
            max_radius = max_radius.max(a.radius);
            if a.radius < min_radius {
                min_radius = a.radius;
            }
            max_look = max_look.max(a.fov_range + a.radius);
            if a.fov_half_angle.to_bits() != fov_cos.0.to_bits() {
                fov_cos = (a.fov_half_angle, super::angle::sin_cos(a.fov_half_angle).1);
            }
            let pos = Vec2::new(a.position.x, a.position.z);
            // Arrived short of its target (settled, or as near as it gets), within two radii
            // of an obstacle that changed (or of an agent that walked on).
            let recheck = a.state == AgentState::Arrived
                && a.settled_at > 0.0
                && (self.recheck_all
                    || self
                        .recheck
                        .iter()
                        .any(|s| s.contact(pos).distance <= 2.0 * a.radius));
            self.rechecking |= recheck;
            self.gathered_pos.push(pos);
            // The goal of its queue it last left (NaN: none).
            let passed = match self.program_of.get(slot) {
                Some(&k) if k != u32::MAX => self.programs[k as usize].passed,
                _ => Vec2::NAN,
            };
            self.gathered.push(Gathered {
                steer_to,
                slot: slot as u32,
                cos_half_fov: fov_cos.1,
                final_leg,
                recheck,
                passed,
            });
        }
        self.recheck.clear();
        self.recheck_all = false;
        (!self.gathered.is_empty()).then_some((min_radius, max_radius, max_look))
    }

    /// Steers every body (built straight into the look-ahead grid's cell order); returns the
    /// fastest speed.
    #[inline(never)]
    fn steer_all(&mut self, dt: f32, threads: usize, max_radius: f32, max_look: f32) -> f32 {
        let n = self.gathered.len();
        let light = (threads, MIN_LIGHT_PER_THREAD);
        // Obstacle halo lists covering every look-ahead (listed again only when it grows).
        self.obstacle_grid.ensure_halo(max_look);

        // Steer: grid over the look-ahead, each body built once, straight into cell order.
        // (`resize` only fills what the buffers grow by; every element is overwritten.)
        let cell = AgentGrid::cell_for(max_look + max_radius, 2.0 * max_radius);
        self.grid.build(&self.gathered_pos, cell);
        self.sorted.resize(n, Body::default());
        self.pos.resize(n, Vec2::ZERO);
        {
            let (agents, gathered) = (&self.agents.items, &self.gathered);
            let (gathered_pos, order) = (&self.gathered_pos, self.grid.order());
            let body = |i: usize| {
                let g = &gathered[i];
                let a = agents[g.slot as usize].as_ref().expect("live slot");
                body_of(a, g, gathered_pos[i])
            };
            if one_thread(light, n) {
                // In slot order (the agents read in sequence), each body written to its
                // place in cell order: at 100 k agents a quarter faster than reading the
                // agents in cell order.
                self.inverse.resize(n, 0);
                for (s, &i) in order.iter().enumerate() {
                    self.inverse[i as usize] = s as u32;
                }
                for (i, &s) in self.inverse.iter().enumerate() {
                    // The record written SCATTER_AHEAD bodies from now (its two lines).
                    if let Some(&ahead) = self.inverse.get(i + SCATTER_AHEAD) {
                        prefetch_write(self.sorted.as_ptr().wrapping_add(ahead as usize), 2);
                    }
                    let b = body(i);
                    self.pos[s as usize] = b.pos;
                    self.sorted[s as usize] = b;
                }
            } else {
                par_update2(light, &mut self.sorted, &mut self.pos, |s, b, p| {
                    *b = body(order[s] as usize);
                    *p = b.pos;
                });
            }
        }
        self.decisions.resize(n, Decision::default());
        self.stepped.resize(n, Vec2::ZERO);
        {
            let world = World {
                bodies: &self.sorted,
                pos: &self.pos,
                grid: &self.grid,
                shapes: &self.shapes,
                rings: &self.rings,
                obstacles: &self.obstacle_grid,
                max_radius,
                dt,
                kernels: self.kernels,
                agents: &self.agents.items,
            };
            // Blocks of STEER_BLOCK agents: each block's steers, then the turns they left
            // pending and where each body steps to, while its records are still in cache.
            let kernels = self.kernels;
            // The largest speed, as the bits of a non-negative f32 (ordered as integers).
            let fastest = AtomicU32::new(0);
            par_chunks2(
                (threads, MIN_AGENTS_PER_THREAD),
                &mut self.decisions,
                &mut self.stepped,
                |start, decisions, stepped| {
                    let blocks = decisions
                        .chunks_mut(STEER_BLOCK)
                        .zip(stepped.chunks_mut(STEER_BLOCK));
                    for (i, (ds, ss)) in blocks.enumerate() {
                        let first = start + i * STEER_BLOCK;
                        for (k, d) in (first..).zip(ds.iter_mut()) {
                            *d = steer(&world, k);
                        }
                        let bodies = &world.bodies[first..first + ds.len()];
                        finish_turns(bodies, ds, dt, kernels);
                        for ((s, b), d) in ss.iter_mut().zip(bodies).zip(ds.iter()) {
                            *s = b.pos + d.vel * dt;
                        }
                        // (`f32::max` skips NaN: the block's largest speed is ≥ 0, not NaN.)
                        let top = ds.iter().fold(0.0f32, |m, d| m.max(d.vel.length()));
                        fastest.fetch_max(top.to_bits(), Ordering::Relaxed);
                    }
                },
            );
            f32::from_bits(fastest.into_inner())
        }
    }

    /// Stops each body that would move farther than its radius this sub-step where its centre
    /// first comes within half the radius sum of another agent's, both taken to move in
    /// straight lines over the sub-step, so that fast agents cannot pass through one another
    /// between two sub-steps (two discs that are apart before and after a step can have
    /// crossed in between only when one moved farther than its radius).
    ///
    /// For bodies a (fast) and b with positions before the step pₐ, p_b, moves dₐ, d_b and
    /// radii rₐ, r_b, that is the least t ∈ [0, 1] with |x + t·v| = r = (rₐ + r_b) / 2, where
    /// x = pₐ − p_b and v = dₐ − d_b: with A = v·v, B = x·v, C = x·x − r²,
    /// t = C / (−B + √(B² − A·C)) (none when C ≤ 0: that deep already, the projection's;
    /// B ≥ 0: parting; or B² < A·C: passing wider). Half the sum, not the whole: a glancing
    /// contact is left to the projection, which slides the two past each other as at walking
    /// speed (stopping at first contact cost every such contact the rest of its step, and
    /// crossing flows jammed). Pairs tested are those the overlap projection separates (either
    /// avoids the other). A fast body keeps the fraction t of its move (its velocity too),
    /// least over its pairs; the slower of a pair walks on, at most its radius, and the
    /// projection parts the two the way they came. Rounds (Jacobi: every stop from the same
    /// paths, then applied) repeat with the shortened paths, up to [`SWEEP_ROUNDS`]. Two fast
    /// bodies meeting compute the same t (x and v change sign). Out of line and serial: only
    /// a crowd with an agent faster than its radius per sub-step comes here.
    #[cold]
    #[inline(never)]
    fn sweep(&mut self, dt: f32, max_radius: f32, fastest: f32) {
        self.fast.clear();
        for (s, (b, &p)) in self.sorted.iter().zip(&self.stepped).enumerate() {
            if p.distance_squared(b.pos) > b.radius * b.radius {
                self.fast.push(s as u32);
            }
        }
        if self.fast.is_empty() {
            return;
        }
        // Two bodies that can touch during the step start at most both moves and both radii
        // apart. (The steer grid is done with: this grid is over the positions before the
        // step, in steer order; `project` builds its own.)
        let reach = 2.0 * fastest * dt * (1.0 + 1e-4) + 2.0 * max_radius;
        let cell = AgentGrid::cell_for(reach, 2.0 * max_radius);
        self.grid.build(&self.pos, cell);
        for _ in 0..SWEEP_ROUNDS {
            self.stops.clear();
            let (bodies, stepped, grid) = (&self.sorted, &self.stepped, &self.grid);
            let order = grid.order();
            for &s in &self.fast {
                let a = &bodies[s as usize];
                let da = stepped[s as usize] - a.pos;
                let mut least = 1.0f32;
                grid.query(a.pos, reach, |k| {
                    let j = order[k] as usize;
                    let b = &bodies[j];
                    if j == s as usize || (a.mask & b.layer == 0 && b.mask & a.layer == 0) {
                        return;
                    }
                    let x = a.pos - b.pos;
                    let v = da - (stepped[j] - b.pos);
                    let r = 0.5 * (a.radius + b.radius);
                    let (qa, qb, qc) = (v.dot(v), x.dot(v), x.dot(x) - r * r);
                    let disc = qb * qb - qa * qc;
                    if qc <= 0.0 || qb >= 0.0 || disc < 0.0 {
                        return;
                    }
                    least = least.min(qc / (disc.sqrt() - qb));
                });
                // (A stop by less than a thousandth of the move is left to the projection:
                // a path shortened to touching meets its pair again at t ≈ 1.)
                if least < 1.0 - 1e-3 {
                    self.stops.push((s, least.max(0.0)));
                }
            }
            if self.stops.is_empty() {
                break;
            }
            for &(s, t) in &self.stops {
                let s = s as usize;
                let from = self.sorted[s].pos;
                self.stepped[s] = from + (self.stepped[s] - from) * t;
                self.decisions[s].vel *= t;
            }
        }
    }

    /// Moves the bodies and projects them out of each other and out of obstacles.
    #[inline(never)]
    fn project(&mut self, dt: f32, threads: usize, max_radius: f32, fastest: f32) {
        let n = self.gathered.len();
        let light = (threads, MIN_LIGHT_PER_THREAD);

        // Project: a fine grid over the moved bodies, which are built straight into its cell
        // order from the steer-order bodies and their decisions (`sorted` keeps the positions
        // before the step). Then Jacobi iterations, then obstacles.
        let cell = AgentGrid::cell_for(2.5 * max_radius, 5.0 * max_radius);
        self.grid.build(&self.stepped, cell);
        self.bodies.resize(n, Moved::default());
        self.finals.resize(n, Final::default());
        {
            let (sorted, decisions) = (&self.sorted, &self.decisions);
            let (stepped, order) = (&self.stepped, self.grid.order());
            par_update2(light, &mut self.bodies, &mut self.finals, |k, b, f| {
                // The records read SCATTER_AHEAD bodies from now (gathered in this grid's
                // order from the steer grid's).
                if let Some(&ahead) = order.get(k + SCATTER_AHEAD) {
                    prefetch(decisions.as_ptr().wrapping_add(ahead as usize));
                    prefetch(sorted.as_ptr().wrapping_add(ahead as usize));
                }
                let s = order[k] as usize;
                let (d, o) = (&decisions[s], &sorted[s]);
                *b = Moved {
                    pos: stepped[s],
                    vel: d.vel,
                    radius: o.radius,
                    priority: o.priority,
                    layer: o.layer,
                    mask: o.mask,
                    slot: o.slot,
                    arrived: d.arrived,
                    clearance: d.clearance,
                    obstacle_gap: d.obstacle_gap,
                    decision: s as u32,
                    moved: 0.0,
                };
                // Until `finish`, `pos` is where the grid binned the body.
                *f = Final {
                    pos: b.pos,
                    old: sorted[s].pos,
                    ..Final::default()
                };
            });
        }
        self.pos.clear();
        self.pos.extend(self.finals.iter().map(|f| f.pos));
        self.overlaps.resize(n, (Vec2::ZERO, false, true, 0.0));
        // One Jacobi pass over every agent (parallel in large crowds) finds and halves the
        // overlaps; then serial Gauss-Seidel sweeps in a fixed order over the agents still
        // touching (the list grows with every agent found overlapping one of them) until
        // nothing moves more than CONVERGED × the largest radius. Same bits for any thread
        // count.
        let still = (CONVERGED * max_radius) * (CONVERGED * max_radius);
        // Two agents at least this far apart before moving cannot overlap after it: their
        // overlap search finds nothing and is skipped (same bits).
        let apart = 2.0 * fastest * dt * (1.0 + 1e-4) + 1e-4 * max_radius;
        {
            let (bodies, pos, grid) = (&self.bodies, &self.pos, &self.grid);
            let kernels = self.kernels;
            let (shapes, og) = (&self.shapes, &self.obstacle_grid);
            par_fill(light, &mut self.overlaps, |k| {
                let b = &bodies[k];
                let (c, touching) = if b.clearance > apart {
                    (Vec2::ZERO, false)
                } else {
                    separation(bodies, pos, grid, 1.5 * max_radius, k, kernels, |_| {})
                };
                let p = b.pos + c;
                // The agent is at most |vel|·dt + |c| from where its steer measured the
                // obstacle gap (plus rounding): when that is still short of the gap, no obstacle
                // can reach it, and push_out would return p unchanged and clear (same bits).
                let step = b.vel.length() * dt;
                let moved = (step + c.length()) * (1.0 + 1e-4);
                if b.obstacle_gap > b.radius + moved + obstacle_margin(p) {
                    (c, touching, true, moved)
                } else {
                    let (p, clear) = push_out(p, b.radius, shapes, og);
                    let moved = (step + (p - b.pos).length()) * (1.0 + 1e-4);
                    (p - b.pos, touching, clear, moved)
                }
            });
        }
        self.active.clear();
        self.in_active.clear();
        for (k, (b, &(c, touching, _, moved))) in
            self.bodies.iter_mut().zip(&self.overlaps).enumerate()
        {
            b.pos += c;
            b.moved = moved;
            self.pos[k] = b.pos;
            let active = touching || c != Vec2::ZERO;
            self.in_active.push(active);
            if active {
                self.active.push(k as u32);
            }
        }
        for _ in 0..GAUSS_SEIDEL_SWEEPS {
            let mut largest = 0.0f32;
            let mut i = 0;
            while i < self.active.len() {
                let k = self.active[i] as usize;
                i += 1;
                let b = &self.bodies[k];
                let (pos, moved, gap, radius) = (b.pos, b.moved, b.obstacle_gap, b.radius);
                let (active, in_active) = (&mut self.active, &mut self.in_active);
                let (c, _) = separation(
                    &self.bodies,
                    &self.pos,
                    &self.grid,
                    1.5 * max_radius,
                    k,
                    self.kernels,
                    |j| {
                        if !in_active[j] {
                            in_active[j] = true;
                            active.push(j as u32);
                        }
                    },
                );
                // As in the first pass: push_out is skipped (same bits) while the body cannot
                // have reached an obstacle since its steer measured the gap.
                let p = pos + c;
                let m = moved + c.length() * (1.0 + 1e-4);
                let (p, clear) = if gap > radius + m + obstacle_margin(p) {
                    (p, true)
                } else {
                    push_out(p, radius, &self.shapes, &self.obstacle_grid)
                };
                self.bodies[k].moved = moved + (p - pos).length() * (1.0 + 1e-4);
                self.overlaps[k].2 = clear;
                largest = largest.max(p.distance_squared(pos));
                self.bodies[k].pos = p;
                self.pos[k] = p;
            }
            if largest <= still {
                break;
            }
        }
    }

    /// Final positions, then the overlap guard.
    #[inline(never)]
    fn finish(&mut self, threads: usize, max_radius: f32) {
        // Final positions: a body squeezed between obstacles closer than its diameter (three
        // rounds of push-out did not free it) stays where it was, if that was clear, rather
        // than end the step inside an obstacle. A body whose last push-out found nothing is
        // already clear: push_out would return its position unchanged, so it is skipped
        // (same bits).
        {
            let (bodies, overlaps, in_active) = (&self.bodies, &self.overlaps, &self.in_active);
            let (shapes, og) = (&self.shapes, &self.obstacle_grid);
            par_update((threads, MIN_LIGHT_PER_THREAD), &mut self.finals, |k, f| {
                let b = &bodies[k];
                let (p, clear) = if overlaps[k].2 {
                    (b.pos, true)
                } else {
                    push_out(b.pos, b.radius, shapes, og)
                };
                let (old, binned) = (f.old, f.pos);
                // A path through an obstacle (a fast agent at a thin wall) stops where the disc
                // first touches. (A path from outside an obstacle through it to a clear end, a
                // radius from it, is longer than the radius: shorter ones of a clear body are
                // not tested.)
                let (p, clear) = if !clear || p.distance_squared(old) > b.radius * b.radius {
                    stop_tunnel(b, old, p, clear, shapes, og)
                } else {
                    (p, clear)
                };
                let p = if !p.is_finite()
                    || clear
                    || clear_of_obstacles(p, b.radius, shapes, og)
                    || !clear_of_obstacles(old, b.radius, shapes, og)
                {
                    p
                } else {
                    old
                };
                f.pos = p;
                f.slack = p.distance(binned).max(old.distance(binned));
                // The guard checks every body that the projection moved or found touching:
                // two bodies that are neither did not overlap after steering and did not
                // move since.
                f.check = in_active[k] || p != b.pos;
            });
        }
        self.next.clear();
        // How far any final or old position lies from where the grid binned its body (the
        // largest in any order: `f32::max` skips NaN).
        let mut slack = 0.0f32;
        for (k, f) in self.finals.iter().enumerate() {
            if f.check {
                self.next.push(k as u32);
            }
            slack = slack.max(f.slack);
        }
        self.guard(max_radius, slack);
    }

    /// Writes the bodies back to their agents: on one thread in body order, each to its slot;
    /// on several in slot order, each slot finding its body by rank.
    /// Returns whether an agent walking straight at its target has been blocked against the same
    /// agent for [`STANDOFF_TIME`], or one planning its route for [`PATIENCE`].
    #[inline(never)]
    fn write_back(&mut self, dt: f32, threads: usize) -> bool {
        let light = (threads, MIN_LIGHT_PER_THREAD);
        let single = one_thread(light, self.agents.items.len());
        if !single {
            self.rank.clear();
            self.rank.resize(self.agents.items.len(), u32::MAX);
            for (k, b) in self.bodies.iter().enumerate() {
                self.rank[b.slot as usize] = k as u32;
            }
        }
        let Slots {
            items, generations, ..
        } = &mut self.agents;
        let (bodies, decisions, finals) = (&self.bodies, &self.decisions, &self.finals);
        let (rank, obstacle_ids, overlaps) = (&self.rank, &self.obstacle_ids, &self.overlaps);
        let (shapes, og) = (&self.shapes, &self.obstacle_grid);
        // Whether an agent has been blocked against the same agent for its mode's
        // `standoff_limit` (then `break_standoffs` looks for standoffs to end).
        let standoff_seen = &core::sync::atomic::AtomicBool::new(false);
        let now = self.sub_steps;
        let write = |a: &mut Agent, k: usize| {
            let b = &bodies[k];
            let d = &decisions[b.decision as usize];
            let hit_id = match d.hit.kind {
                HitKind::None => 0,
                HitKind::Agent => generations[d.hit.index as usize] << SLOT_BITS | d.hit.index,
                HitKind::Obstacle => obstacle_ids[d.hit.index as usize],
            };
            let Final { pos: p, old, .. } = finals[k];
            if !p.is_finite() {
                a.state = AgentState::Invalid;
                return;
            }
            let (was_agent, was_id) = (a.hit.kind == HitKind::Agent, a.hit.id);
            a.position.x = p.x;
            a.position.z = p.y;
            a.yaw = d.yaw;
            a.heading = d.heading;
            // This step's velocity averaged with the value before (see `Agent::velocity`).
            a.velocity = if finals[k].reverted {
                Vec2::ZERO
            } else {
                (d.vel + a.velocity) * 0.5
            };
            a.settled_at = d.settled_at;
            let progress = (p - old).dot(d.pref_dir);
            a.state = if b.arrived {
                AgentState::Arrived
            } else if d.pref_speed > 1e-6 && progress < 0.1 * d.pref_speed * dt {
                AgentState::Blocked
            } else {
                AgentState::Moving
            };
            let y = a.position.y;
            a.hit = Hit {
                kind: d.hit.kind,
                id: hit_id,
                point: Vec3::new(d.hit.point.x, y, d.hit.point.y),
                normal: Vec3::new(d.hit.normal.x, 0.0, d.hit.normal.y),
            };
            a.slide = if d.hit.kind == HitKind::Obstacle {
                d.slide
            } else {
                0
            };
            // Blocked against the same agent as the sub-step before: the standoff goes on
            // (from a sub-step not blocked so, it starts again).
            if a.state == AgentState::Blocked
                && d.hit.kind == HitKind::Agent
                && was_agent
                && was_id == hit_id
            {
                let on = a.standoff_step + 1 == now;
                a.standoff = if on { a.standoff + dt } else { dt };
                a.standoff_step = now;
                if a.standoff >= standoff_limit(a.route_mode) {
                    standoff_seen.store(true, Ordering::Relaxed);
                }
            }
            // Walking straight, held near obstacles (hitting one, or blocked touching one or
            // within PINNED_GAP radii of one, by the steer's bound): counted (see `pin`), at
            // HELD_BY_AGENT_RATE while its hit is an agent.
            let hitting = d.hit.kind == HitKind::Obstacle;
            if (hitting || a.state == AgentState::Blocked)
                && a.route_mode == RouteMode::Direct
                && !a.detour
                && !b.arrived
                && (hitting || !overlaps[k].2 || d.obstacle_gap < PINNED_GAP * b.radius)
            {
                let by_agent = d.hit.kind == HitKind::Agent;
                let held = if by_agent {
                    HELD_BY_AGENT_RATE * dt
                } else {
                    dt
                };
                pin(a, p, b.radius, now, held);
            } else if hitting
                && a.route_mode == RouteMode::Planned
                && !a.detour
                && !b.arrived
                && a.state == AgentState::Blocked
            {
                pin_wedged(a, p, b.radius, now, dt, shapes, og);
            }
        };
        if single {
            // In body order (the step's arrays read in sequence), each written to its slot.
            for (k, b) in bodies.iter().enumerate() {
                // The agent written SCATTER_AHEAD bodies from now (its first two lines, which
                // the write touches) and the decision it reads.
                if let Some(ahead) = bodies.get(k + SCATTER_AHEAD) {
                    prefetch_write(items.as_ptr().wrapping_add(ahead.slot as usize), 2);
                    prefetch(decisions.as_ptr().wrapping_add(ahead.decision as usize));
                }
                if let Some(a) = items[b.slot as usize].as_mut() {
                    write(a, k);
                }
            }
        } else {
            par_update(light, items, |slot, item| {
                let k = rank[slot] as usize;
                if let (Some(a), true) = (item.as_mut(), k < bodies.len()) {
                    write(a, k);
                }
            });
        }
        standoff_seen.load(Ordering::Relaxed)
    }

    /// The overlap guard, after the projection (which a dense crush can leave unconverged):
    /// two agents that would end the step overlapping by more than `g` = [`OVERLAP_GUARD`] ×
    /// the smaller radius, having overlapped by at most `g` before it, are put back where they
    /// were (velocity zero). Their old places may now overlap others that moved, so the
    /// check repeats from the agents put back until none is found; each agent is put back at
    /// most once, and the positions before the step are the fixed point. Hence agents that
    /// start apart never overlap by more than `g`. Pairs placed deeper (spawned or moved
    /// into each other) are left to the projection, which separates them over a few steps;
    /// freezing them would freeze a crowd spawned packed. Serial, in body order: same bits
    /// for any thread count. `self.next` holds the agents to check first, `self.finals` the
    /// final and old positions.
    ///
    /// `slack` bounds the distance of every final and old position from where the grid
    /// binned its body; past what the grid's cells cover, the grid is rebuilt over the final
    /// positions.
    fn guard(&mut self, max_radius: f32, slack: f32) {
        if self.next.is_empty() {
            return;
        }
        let fits = AgentGrid::cell_for(2.0 * max_radius + slack, 5.0 * max_radius);
        // (`slack` is never NaN: `f32::max` drops the NaN distances of non-finite positions.)
        let remap = fits > 5.0 * max_radius;
        let mut reach = max_radius + slack;
        if remap {
            let far = self
                .finals
                .iter()
                .map(|f| f.pos.distance(f.old))
                .filter(|d| d.is_finite())
                .fold(0.0f32, f32::max);
            let cell = AgentGrid::cell_for(2.0 * max_radius + far, 5.0 * max_radius);
            self.pos.clear();
            self.pos.extend(self.finals.iter().map(|f| f.pos));
            self.grid.build(&self.pos, cell);
            reach = max_radius + far;
        }
        let mut i = 0;
        while i < self.next.len() {
            let k = self.next[i] as usize;
            i += 1;
            let b = &self.bodies[k];
            let (pk, ok) = (self.finals[k].pos, self.finals[k].old);
            let found = &mut self.found;
            found.clear();
            let (bodies, finals) = (&self.bodies, &self.finals);
            let order = self.grid.order();
            self.grid.query(pk, b.radius + reach, |j| {
                let j = if remap { order[j] as usize } else { j };
                if j == k {
                    return;
                }
                let o = &bodies[j];
                if b.mask & o.layer == 0 && o.mask & b.layer == 0 {
                    return;
                }
                let r = b.radius + o.radius;
                let d2 = pk.distance_squared(finals[j].pos);
                // (NaN positions are left alone.)
                if d2.is_nan() || d2 >= r * r {
                    return;
                }
                let now = r - d2.sqrt();
                let before = r - ok.distance(finals[j].old);
                let guard = OVERLAP_GUARD * b.radius.min(o.radius);
                if now > guard && before <= guard {
                    found.push(j as u32);
                }
            });
            if self.found.is_empty() {
                continue;
            }
            self.found.push(k as u32);
            for f in 0..self.found.len() {
                let m = self.found[f] as usize;
                let fm = &mut self.finals[m];
                if fm.reverted
                    || !clear_of_obstacles(
                        fm.old,
                        self.bodies[m].radius,
                        &self.shapes,
                        &self.obstacle_grid,
                    )
                {
                    continue;
                }
                fm.reverted = true;
                fm.pos = fm.old;
                self.next.push(m as u32);
            }
        }
    }
}
