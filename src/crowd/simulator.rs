//! The crowd: owns agents, obstacles, the grids and the planner; a step is "plan routes, build
//! the grid, steer every agent from a read-only snapshot, move, project out of overlaps, put
//! back the agents a crush would still press into each other" (see [`Crowd::step`]'s steps in
//! the README and [`OVERLAP_GUARD`]).

use glam::{Vec2, Vec3};

use super::agent::{Agent, AgentDefaults, AgentState, Hit, HitKind, RouteMode};
use super::grid::{AgentGrid, ObstacleGrid};
use super::obstacle::{Obstacle, Shape};
use super::planner::{Planner, REPLAN_STEPS};
use super::scan::Scan;
use super::steering::{
    clear_of_obstacles, finish_turns, obstacle_distance, obstacle_margin, push_out, separation,
    steer, Body, Decision, World,
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
/// Most serial sweeps over the touching agents per sub-step.
pub const GAUSS_SEIDEL_SWEEPS: usize = 24;
/// The guard after the projection: two agents that overlapped by at most this fraction of the
/// smaller radius before a step end it overlapping by at most as much.
pub const OVERLAP_GUARD: f32 = 0.02;
/// Fewest agents per thread worth a thread of their own.
#[cfg(not(fuzzing))]
const MIN_AGENTS_PER_THREAD: usize = 256;
/// Fuzz builds (`cargo fuzz` sets `cfg(fuzzing)`) split even tiny crowds across threads, so
/// the thread-differential fuzz target exercises the multi-threaded step with small inputs.
#[cfg(fuzzing)]
const MIN_AGENTS_PER_THREAD: usize = 2;

/// An agent's id: stable while it lives, invalid once removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AgentId(pub u32);

/// An obstacle's id: stable while it exists, invalid once removed.
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

    fn insert(&mut self, value: T) -> Result<u32, CrowdError> {
        if self.live >= self.capacity {
            return Err(CrowdError::CapacityExceeded);
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

/// A crowd of agents among static obstacles.
#[derive(Clone, Debug)]
pub struct Crowd {
    defaults: AgentDefaults,
    agents: Slots<Agent>,
    obstacles: Slots<(Obstacle, Shape)>,
    obstacles_dirty: bool,
    shapes: Vec<Option<Shape>>,
    obstacle_ids: Vec<u32>,
    obstacle_grid: ObstacleGrid,
    grid: AgentGrid,
    bodies: Vec<Body>,
    sorted: Vec<Body>,
    /// Positions of the bodies in cell order (the neighbour loops' hot data, SoA).
    pos: Vec<Vec2>,
    decisions: Vec<Decision>,
    corrections: Vec<(Vec2, bool)>,
    overlaps: Vec<(Vec2, bool, bool, f32)>,
    /// Per body in projection order: its position is clear of every obstacle (its last
    /// `push_out` found nothing to push out of).
    clear: Vec<bool>,
    active: Vec<u32>,
    in_active: Vec<bool>,
    /// Per body in projection order: its position before the step, and whether the guard
    /// put it back there.
    old: Vec<Vec2>,
    reverted: Vec<bool>,
    /// The guard's agents to check next and one agent's offending neighbours.
    next: Vec<u32>,
    found: Vec<u32>,
    planner: Planner,
    /// The lane builds the step may use (AVX-512 where the CPU has it, unless turned off).
    scan: Scan,
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

fn check_body(speed: f32, radius: f32) -> Result<(), CrowdError> {
    check_finite(&[speed, radius])?;
    check(speed >= 0.0 && radius > 0.0)
}

/// Runs `f(k)` for every k into `out[k]`, on up to `threads` scoped threads (same bits for any
/// thread count: each output depends only on k and the read-only world).
fn par_fill<T: Send, F: Fn(usize) -> T + Sync>(threads: usize, out: &mut [T], f: F) {
    let threads = threads.min(out.len() / MIN_AGENTS_PER_THREAD).max(1);
    if threads == 1 {
        for (k, o) in out.iter_mut().enumerate() {
            *o = f(k);
        }
        return;
    }
    let chunk = out.len().div_ceil(threads);
    std::thread::scope(|s| {
        let f = &f;
        let mut parts = out.chunks_mut(chunk).enumerate();
        let first = parts.next();
        for (c, part) in parts {
            s.spawn(move || {
                for (i, o) in part.iter_mut().enumerate() {
                    *o = f(c * chunk + i);
                }
            });
        }
        if let Some((_, part)) = first {
            for (i, o) in part.iter_mut().enumerate() {
                *o = f(i);
            }
        }
    });
}

impl Crowd {
    /// An empty crowd for up to `capacity` agents (and as many obstacles); allocates its
    /// per-step buffers now.
    pub fn new(capacity: usize) -> Result<Self, CrowdError> {
        if capacity > MAX_CAPACITY {
            return Err(CrowdError::CapacityExceeded);
        }
        Ok(Self {
            defaults: AgentDefaults::default(),
            agents: Slots::new(capacity),
            obstacles: Slots::new(capacity.max(1024)),
            obstacles_dirty: true,
            shapes: Vec::new(),
            obstacle_ids: Vec::new(),
            obstacle_grid: ObstacleGrid::default(),
            grid: AgentGrid::with_capacity(capacity),
            bodies: Vec::with_capacity(capacity),
            sorted: Vec::with_capacity(capacity),
            pos: Vec::with_capacity(capacity),
            decisions: Vec::with_capacity(capacity),
            corrections: Vec::with_capacity(capacity),
            overlaps: Vec::with_capacity(capacity),
            clear: Vec::with_capacity(capacity),
            active: Vec::with_capacity(capacity),
            in_active: Vec::with_capacity(capacity),
            old: Vec::with_capacity(capacity),
            reverted: Vec::with_capacity(capacity),
            next: Vec::with_capacity(2 * capacity),
            found: Vec::with_capacity(64),
            planner: Planner::default(),
            scan: Scan::detect(),
        })
    }

    /// Whether the step uses its AVX-512 lane kernels (candidate scan and cull, batched
    /// turns) where the CPU has them: on by default. They give exactly the bits of the
    /// portable code; turning them off is for comparisons and tests.
    pub fn set_simd(&mut self, enabled: bool) {
        self.scan = if enabled {
            Scan::detect()
        } else {
            Scan::portable()
        };
    }

    /// Whether the step runs its AVX-512 lane kernels (enabled and supported by this CPU).
    pub fn simd(&self) -> bool {
        self.scan.avx512()
    }

    /// Most agents this crowd holds.
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
        self.agents.insert(a).map(AgentId)
    }

    /// Removes an agent; its id becomes invalid.
    pub fn remove_agent(&mut self, id: AgentId) -> Result<(), CrowdError> {
        self.agents.remove(id.0).map(|_| ())
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

    /// Sends an agent to `target`; it arrives within `arrival_radius` (≥ 0) of it.
    pub fn set_target(
        &mut self,
        id: AgentId,
        target: Vec3,
        arrival_radius: f32,
    ) -> Result<(), CrowdError> {
        check_finite(&[target.x, target.y, target.z, arrival_radius])?;
        check(arrival_radius >= 0.0)?;
        let a = self.agents.get_mut(id.0)?;
        a.target = target;
        a.arrival_radius = arrival_radius;
        a.next_waypoint = 0;
        a.settled_at = 0.0;
        a.plan.2 = 0;
        if a.state == AgentState::Arrived {
            a.state = AgentState::Moving;
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

    /// How the agent finds its way.
    pub fn set_route_mode(&mut self, id: AgentId, mode: RouteMode) -> Result<(), CrowdError> {
        let a = self.agents.get_mut(id.0)?;
        a.route_mode = mode;
        a.next_waypoint = 0;
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
        if a.state == AgentState::Invalid {
            a.state = AgentState::Moving;
        }
        a.settled_at = 0.0;
        Ok(())
    }

    /// Adds a static obstacle.
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
        self.obstacles_dirty = true;
        Ok(ObstacleId(id))
    }

    /// Removes a static obstacle.
    pub fn remove_obstacle(&mut self, id: ObstacleId) -> Result<(), CrowdError> {
        self.obstacles.remove(id.0)?;
        self.obstacles_dirty = true;
        Ok(())
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

    /// The route planner (its cache statistics, the grid it plans on).
    pub fn planner(&self) -> &Planner {
        &self.planner
    }

    fn rebuild_obstacles(&mut self) {
        self.shapes.clear();
        self.obstacle_ids.clear();
        let mut boxes = Vec::with_capacity(self.obstacles.items.len());
        for (s, o) in self.obstacles.items.iter().enumerate() {
            let shape = o.as_ref().map(|(_, sh)| *sh);
            self.shapes.push(shape);
            self.obstacle_ids.push(self.obstacles.id_of(s));
            boxes.push(shape.map(|sh| (sh.center - sh.extent(), sh.center + sh.extent())));
        }
        self.obstacle_grid.build(&boxes);
        self.planner.rebuild(&self.shapes, &self.obstacle_grid);
        for a in self.agents.items.iter_mut().flatten() {
            a.plan.2 = 0;
        }
        self.obstacles_dirty = false;
    }

    /// Advances every agent by `dt` seconds on up to `threads` threads (0 or 1: this thread).
    /// `dt` must be finite and > 0; a `dt` above [`MAX_SUB_STEP`] is split into equal
    /// sub-steps, and one above `MAX_SUB_STEP × MAX_SUB_STEPS` is refused. The result is the
    /// same, bit for bit, for any `threads`.
    pub fn step(&mut self, dt: f32, threads: usize) -> Result<(), CrowdError> {
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
        let sub = dt / n;
        for _ in 0..n as u32 {
            self.sub_step(sub, threads.max(1));
        }
        Ok(())
    }

    fn route(&mut self, slot: usize) -> (Vec2, bool) {
        let Some(a) = self.agents.items[slot].as_mut() else {
            return (Vec2::ZERO, true);
        };
        let pos = Vec2::new(a.position.x, a.position.z);
        let target = Vec2::new(a.target.x, a.target.z);
        match a.route_mode {
            RouteMode::Direct => (target, true),
            RouteMode::Waypoints => {
                let reach = (2.0 * a.radius).max(a.arrival_radius);
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
                let (point, last, age) = a.plan;
                if age > 0 && !last && point.distance(pos) > 2.0 * a.radius {
                    a.plan.2 -= 1;
                    return (point, last);
                }
                // A disc on a line of sight may not go deeper into an obstacle than the agent
                // already is (to within a thousandth of its radius).
                let (shapes, og) = (&self.shapes, &self.obstacle_grid);
                let r = a.radius;
                let depth = obstacle_distance(pos, r, shapes, og).min(r) - 1e-3 * r;
                let fits = |p: Vec2| obstacle_distance(p, r, shapes, og) >= depth;
                let (point, last) = self.planner.next_point(pos, target, r, fits);
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

    fn sub_step(&mut self, dt: f32, threads: usize) {
        self.planner.begin_step();
        self.bodies.clear();
        let mut max_radius = 0.0f32;
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
            let (steer_to, final_leg) = self.route(slot);
            let a = self.agents.items[slot].as_ref().expect("live slot");
            max_radius = max_radius.max(a.radius);
            max_look = max_look.max(a.fov_range + a.radius);
            if a.fov_half_angle.to_bits() != fov_cos.0.to_bits() {
                fov_cos = (a.fov_half_angle, super::angle::sin_cos(a.fov_half_angle).1);
            }
            self.bodies.push(Body {
                pos: Vec2::new(a.position.x, a.position.z),
                vel: a.velocity,
                radius: a.radius,
                speed: a.speed,
                yaw: a.yaw,
                max_turn_rate: a.max_turn_rate,
                fov_range: a.fov_range,
                cos_half_fov: fov_cos.1,
                repel_force: a.repel_force,
                steer_to,
                target: Vec2::new(a.target.x, a.target.z),
                final_leg,
                arrival_radius: a.arrival_radius,
                priority: a.priority,
                layer: a.layer,
                mask: a.mask,
                arrived: a.state == AgentState::Arrived,
                blocked: a.state == AgentState::Blocked,
                settled_at: a.settled_at,
                slot: slot as u32,
                ..Body::default()
            });
        }
        if self.bodies.is_empty() {
            return;
        }

        // Obstacle halo lists covering every look-ahead (listed again only when it grows).
        self.obstacle_grid.ensure_halo(max_look);

        // Steer: grid over the look-ahead, agents in cell order.
        let cell = AgentGrid::cell_for(max_look + max_radius, 2.0 * max_radius);
        self.grid.build(self.bodies.iter().map(|b| b.pos), cell);
        self.sorted.clear();
        self.sorted
            .extend(self.grid.order().iter().map(|&i| self.bodies[i as usize]));
        self.pos.clear();
        self.pos.extend(self.sorted.iter().map(|b| b.pos));
        self.decisions.clear();
        self.decisions
            .resize(self.sorted.len(), Decision::default());
        {
            let world = World {
                bodies: &self.sorted,
                pos: &self.pos,
                grid: &self.grid,
                shapes: &self.shapes,
                obstacles: &self.obstacle_grid,
                max_radius,
                dt,
                scan: self.scan,
            };
            par_fill(threads, &mut self.decisions, |k| steer(&world, k));
        }
        finish_turns(&self.sorted, &mut self.decisions, dt, self.scan);
        let mut fastest = 0.0f32;
        for (i, (b, d)) in self.sorted.iter_mut().zip(&self.decisions).enumerate() {
            fastest = fastest.max(d.vel.length());
            b.clearance = d.clearance;
            b.obstacle_gap = d.obstacle_gap;
            b.decision = i as u32;
            b.yaw = d.yaw;
            b.vel = d.vel;
            b.pos += d.vel * dt;
            b.arrived = d.arrived;
            b.settled_at = d.settled_at;
        }

        // Project: a fine grid over the bodies, Jacobi iterations, then obstacles.
        let cell = AgentGrid::cell_for(2.5 * max_radius, 5.0 * max_radius);
        self.grid.build(self.sorted.iter().map(|b| b.pos), cell);
        self.bodies.clear();
        self.bodies
            .extend(self.grid.order().iter().map(|&i| self.sorted[i as usize]));
        self.pos.clear();
        self.pos.extend(self.bodies.iter().map(|b| b.pos));
        self.corrections.clear();
        self.corrections
            .resize(self.bodies.len(), (Vec2::ZERO, true));
        self.overlaps.clear();
        self.overlaps
            .resize(self.bodies.len(), (Vec2::ZERO, false, true, 0.0));
        self.clear.clear();
        self.clear.resize(self.bodies.len(), true);
        // One parallel Jacobi pass over every agent finds and halves the overlaps; then
        // serial Gauss-Seidel sweeps in a fixed order over the agents still touching (the
        // list grows with every agent found overlapping one of them) until nothing moves
        // more than CONVERGED × the largest radius. Same bits for any thread count.
        let still = (CONVERGED * max_radius) * (CONVERGED * max_radius);
        // Two agents at least this far apart before moving cannot overlap after it: their
        // overlap search finds nothing and is skipped (same bits).
        let apart = 2.0 * fastest * dt * (1.0 + 1e-4) + 1e-4 * max_radius;
        {
            let (bodies, pos, grid) = (&self.bodies, &self.pos, &self.grid);
            let (shapes, og) = (&self.shapes, &self.obstacle_grid);
            par_fill(threads, &mut self.overlaps, |k| {
                let b = &bodies[k];
                let (c, touching) = if b.clearance > apart {
                    (Vec2::ZERO, false)
                } else {
                    separation(bodies, pos, grid, 1.5 * max_radius, k, |_| {})
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
        self.in_active.resize(self.bodies.len(), false);
        for (k, (b, &(c, touching, clear, moved))) in
            self.bodies.iter_mut().zip(&self.overlaps).enumerate()
        {
            b.pos += c;
            b.moved = moved;
            self.pos[k] = b.pos;
            self.clear[k] = clear;
            if touching || c != Vec2::ZERO {
                self.active.push(k as u32);
                self.in_active[k] = true;
            }
        }
        for _ in 0..GAUSS_SEIDEL_SWEEPS {
            let mut largest = 0.0f32;
            let mut i = 0;
            while i < self.active.len() {
                let k = self.active[i] as usize;
                i += 1;
                let b = self.bodies[k];
                let (active, in_active) = (&mut self.active, &mut self.in_active);
                let (c, _) = separation(
                    &self.bodies,
                    &self.pos,
                    &self.grid,
                    1.5 * max_radius,
                    k,
                    |j| {
                        if !in_active[j] {
                            in_active[j] = true;
                            active.push(j as u32);
                        }
                    },
                );
                // As in the first pass: push_out is skipped (same bits) while the body cannot
                // have reached an obstacle since its steer measured the gap.
                let p = b.pos + c;
                let moved = b.moved + c.length() * (1.0 + 1e-4);
                let (p, clear) = if b.obstacle_gap > b.radius + moved + obstacle_margin(p) {
                    (p, true)
                } else {
                    push_out(p, b.radius, &self.shapes, &self.obstacle_grid)
                };
                self.bodies[k].moved = b.moved + (p - b.pos).length() * (1.0 + 1e-4);
                self.clear[k] = clear;
                largest = largest.max(p.distance_squared(b.pos));
                self.bodies[k].pos = p;
                self.pos[k] = p;
            }
            if largest <= still {
                break;
            }
        }
        {
            // A body whose last push-out found nothing is already clear: push_out would
            // return its position unchanged, so it is skipped (same bits).
            let (bodies, clear) = (&self.bodies, &self.clear);
            let (shapes, og) = (&self.shapes, &self.obstacle_grid);
            par_fill(threads, &mut self.corrections, |k| {
                if clear[k] {
                    (bodies[k].pos, true)
                } else {
                    push_out(bodies[k].pos, bodies[k].radius, shapes, og)
                }
            });
        }

        // Final positions in body order: a body squeezed between obstacles closer than its
        // diameter (three rounds of push-out did not free it) stays where it was, if that was
        // clear, rather than end the step inside an obstacle.
        self.old.clear();
        self.next.clear();
        // How far any final or old position lies from where the grid binned its body.
        let mut slack = 0.0f32;
        for (k, (b, &(p, clear))) in self.bodies.iter().zip(&self.corrections).enumerate() {
            let a = self.agents.items[b.slot as usize]
                .as_ref()
                .expect("live slot");
            let old = Vec2::new(a.position.x, a.position.z);
            self.old.push(old);
            let p = if !p.is_finite()
                || clear
                || clear_of_obstacles(p, b.radius, &self.shapes, &self.obstacle_grid)
                || !clear_of_obstacles(old, b.radius, &self.shapes, &self.obstacle_grid)
            {
                p
            } else {
                old
            };
            // The guard checks every body that the projection moved or found touching:
            // two bodies that are neither did not overlap after steering and did not move
            // since.
            if self.in_active[k] || p != b.pos {
                self.next.push(k as u32);
            }
            self.pos[k] = p;
            let binned = self.sorted[self.grid.order()[k] as usize].pos;
            slack = slack.max(p.distance(binned)).max(old.distance(binned));
        }
        self.guard(max_radius, slack);

        // Write back by slot.
        for (k, b) in self.bodies.iter().enumerate() {
            let hit = &self.decisions[b.decision as usize].hit;
            let hit_id = match hit.kind {
                HitKind::None => 0,
                HitKind::Agent => self.agents.id_of(hit.index as usize),
                HitKind::Obstacle => self.obstacle_ids[hit.index as usize],
            };
            let Some(a) = self.agents.items[b.slot as usize].as_mut() else {
                continue;
            };
            let old = self.old[k];
            let p = self.pos[k];
            if !p.is_finite() {
                a.state = AgentState::Invalid;
                continue;
            }
            a.position.x = p.x;
            a.position.z = p.y;
            a.yaw = b.yaw;
            a.velocity = if self.reverted[k] { Vec2::ZERO } else { b.vel };
            a.settled_at = b.settled_at;
            let d = &self.decisions[b.decision as usize];
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
        }
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
    /// for any thread count. `self.next` holds the agents to check first, `self.pos` the
    /// final positions.
    ///
    /// `slack` bounds the distance of every final and old position from where the grid
    /// binned its body; past what the grid's cells cover, the grid is rebuilt over the final
    /// positions.
    fn guard(&mut self, max_radius: f32, slack: f32) {
        self.reverted.clear();
        self.reverted.resize(self.bodies.len(), false);
        if self.next.is_empty() {
            return;
        }
        let fits = AgentGrid::cell_for(2.0 * max_radius + slack, 5.0 * max_radius);
        // (`slack` is never NaN: `f32::max` drops the NaN distances of non-finite positions.)
        let remap = fits > 5.0 * max_radius;
        let mut reach = max_radius + slack;
        if remap {
            let far = self
                .pos
                .iter()
                .zip(&self.old)
                .map(|(p, o)| p.distance(*o))
                .filter(|d| d.is_finite())
                .fold(0.0f32, f32::max);
            let cell = AgentGrid::cell_for(2.0 * max_radius + far, 5.0 * max_radius);
            self.grid.build(self.pos.iter().copied(), cell);
            reach = max_radius + far;
        }
        let mut i = 0;
        while i < self.next.len() {
            let k = self.next[i] as usize;
            i += 1;
            let b = &self.bodies[k];
            let (pk, ok) = (self.pos[k], self.old[k]);
            let found = &mut self.found;
            found.clear();
            let (bodies, pos, old) = (&self.bodies, &self.pos, &self.old);
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
                let d2 = pk.distance_squared(pos[j]);
                // (NaN positions are left alone.)
                if d2.is_nan() || d2 >= r * r {
                    return;
                }
                let now = r - d2.sqrt();
                let before = r - ok.distance(old[j]);
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
                if self.reverted[m]
                    || !clear_of_obstacles(
                        self.old[m],
                        self.bodies[m].radius,
                        &self.shapes,
                        &self.obstacle_grid,
                    )
                {
                    continue;
                }
                self.reverted[m] = true;
                self.pos[m] = self.old[m];
                self.next.push(m as u32);
            }
        }
    }
}
