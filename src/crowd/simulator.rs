//! The crowd: owns agents, obstacles, the grids and the planner, and checks what it is given; a
//! step is "plan routes, build the grid, steer every agent from a read-only snapshot, move,
//! project out of overlaps, put back the agents a crush would still press into each other"
//! (see [`Crowd::step`], whose phases each have a module, the model in `docs/crowd.md`, and
//! [`OVERLAP_GUARD`]).

use glam::{Vec2, Vec3};

use crate::simd::Simd;

use super::agent::{forward2, Agent, AgentDefaults, AgentState, RouteMode};
use super::escape::Escape;
use super::goals::{CrowdEvent, Program};
use super::grid::{AgentGrid, ObstacleGrid};
use super::kernels::Kernels;
use super::obstacle::{Obstacle, Shape};
use super::planner::{Approach, Planner, MAX_FIELDS, MAX_FIELDS_PER_STEP};
use super::sieve::Ring;
use super::slots::{Slots, SLOT_MASK};
use super::steering::{Body, Decision, Moved};
use super::step::{note_recheck, Final, Gathered, Guard, Standoffs, Sweep};
use super::CrowdError;

pub use super::slots::MAX_CAPACITY;
pub use super::step::{
    BACK_OFF_TIME, CONVERGED, DETOUR_TIME, GAUSS_SEIDEL_SWEEPS, MAX_SUB_STEP, MAX_SUB_STEPS,
    OVERLAP_GUARD, PATIENCE, STANDOFF_TIME,
};

/// Obstacle changes between two updates of the planner that it makes locally; past this many
/// it is rebuilt (as it is when the obstacles outgrow its grid).
pub(super) const TRACKED_CHANGES: usize = 64;

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
    pub(super) defaults: AgentDefaults,
    pub(super) agents: Slots<Agent>,
    pub(super) obstacles: Slots<(Obstacle, Shape)>,
    pub(super) obstacles_dirty: bool,
    /// Whether obstacles changed since the planner was last brought up to date. It is only
    /// while some agent plans its route: until then the changes are just noted.
    pub(super) planner_stale: bool,
    /// The obstacles added or removed since the planner was brought up to date, for its
    /// local update (`None`: more than [`TRACKED_CHANGES`], or a first build: the planner
    /// is rebuilt).
    pub(super) changed: Option<Vec<Shape>>,
    /// The obstacles added or removed since the last sub-step, and the agents steered afresh
    /// in it that walked on (as circles), at most [`TRACKED_CHANGES`] (more: `recheck_all`).
    /// An agent arrived short of its target within two radii of one is steered afresh (see
    /// [`Body::recheck`]).
    pub(super) recheck: Vec<Shape>,
    pub(super) recheck_all: bool,
    /// Some agent was steered afresh this sub-step.
    pub(super) rechecking: bool,
    /// Live agents in [`RouteMode::Planned`].
    pub(super) planned: usize,
    /// The search of a way out of a pocket for agents walking straight (see *Detours* in
    /// [`RouteMode::Direct`]).
    pub(super) escape: Escape,
    pub(super) shapes: Vec<Option<Shape>>,
    /// Each obstacle's bounding circle, for the steer's first tests (see [`Ring`]).
    pub(super) rings: Vec<Ring>,
    pub(super) obstacle_ids: Vec<u32>,
    pub(super) obstacle_grid: ObstacleGrid,
    pub(super) grid: AgentGrid,
    /// Per live agent in slot order: what the step gathers before the grid exists.
    pub(super) gathered: Vec<Gathered>,
    /// Their positions (the look-ahead grid's input).
    pub(super) gathered_pos: Vec<Vec2>,
    /// Per storage slot: the index of its body in projection order (`u32::MAX`: no body);
    /// built only for the threaded write-back.
    pub(super) rank: Vec<u32>,
    /// Per gathered agent: the index of its body in steer order (the one-thread body build).
    pub(super) inverse: Vec<u32>,
    /// The bodies in steer order (cells of the look-ahead grid), as they were before moving.
    pub(super) sorted: Vec<Body>,
    /// Per body in steer order: its position after moving (the fine grid's input).
    pub(super) stepped: Vec<Vec2>,
    pub(super) decisions: Vec<Decision>,
    /// The bodies in projection order (cells of the fine grid), moved.
    pub(super) bodies: Vec<Moved>,
    /// Positions of the bodies in the current order (the neighbour loops' hot data, SoA).
    pub(super) pos: Vec<Vec2>,
    /// Per body in projection order: the first pass's correction, whether it touched another
    /// body, whether its position is clear of every obstacle (its last `push_out` found
    /// nothing to push out of), and how far it may have moved from where it steered.
    pub(super) overlaps: Vec<(Vec2, bool, bool, f32)>,
    pub(super) active: Vec<u32>,
    pub(super) in_active: Vec<bool>,
    /// Per body in projection order: where it ends the step (see [`Final`]).
    pub(super) finals: Vec<Final>,
    /// Scratch of the overlap guard (see [`Crowd::guard`]).
    pub(super) guard: Guard,
    pub(super) planner: Planner,
    /// Standoffs under way (see [`Crowd::yield_to`] and [`Crowd::break_standoffs`]).
    pub(super) standoffs: Standoffs,
    /// Scratch of [`Crowd::sweep`].
    pub(super) sweep: Sweep,
    /// The goal queues of the agents that have one (see [`Crowd::set_goals`]), and per storage
    /// slot the index of its program there (`u32::MAX`: none).
    pub(super) programs: Vec<Program>,
    pub(super) program_of: Vec<u32>,
    /// What happened in the last [`Crowd::step`] (see [`Crowd::events`]).
    pub(super) events: Vec<CrowdEvent>,
    /// Sub-steps taken.
    pub(super) sub_steps: u64,
    /// The lane builds the step may use (AVX-512 where the CPU has it, unless turned off).
    pub(super) kernels: Kernels,
}

pub(super) fn check_finite(xs: &[f32]) -> Result<(), CrowdError> {
    if xs.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(CrowdError::NonFinite)
    }
}

pub(super) fn check(cond: bool) -> Result<(), CrowdError> {
    if cond {
        Ok(())
    } else {
        Err(CrowdError::InvalidArgument)
    }
}

pub(super) fn check_defaults(d: &AgentDefaults) -> Result<(), CrowdError> {
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

pub(super) fn check_steering(
    turn: f32,
    range: f32,
    half: f32,
    repel: f32,
) -> Result<(), CrowdError> {
    check_finite(&[turn, range, half, repel])?;
    check(turn > 0.0 && range >= 0.0 && (0.0..=core::f32::consts::PI).contains(&half))?;
    check(repel >= 0.0)
}

pub(super) fn check_target(target: Vec3, arrival_radius: f32) -> Result<(), CrowdError> {
    check_finite(&[target.x, target.y, target.z, arrival_radius])?;
    check(arrival_radius >= 0.0)
}

/// Gives `a` a checked target (see [`Crowd::set_target`]): a repeat of the one it has
/// changes nothing.
pub(super) fn retarget(a: &mut Agent, target: Vec3, arrival_radius: f32) {
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

pub(super) fn check_body(speed: f32, radius: f32) -> Result<(), CrowdError> {
    check_finite(&[speed, radius])?;
    check(speed >= 0.0 && radius > 0.0)
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
            guard: Guard::with_capacity(capacity),
            planner: Planner::default(),
            standoffs: Standoffs::default(),
            sweep: Sweep::default(),
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
        self.guard.grow(capacity);
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
        note_recheck(&mut self.recheck, &mut self.recheck_all, Some(shape));
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
    /// searches walk straight at their targets meanwhile. The planning grid is built at once
    /// at the first step with a planned agent (as at a level's load); when it must be built
    /// again while the crowd runs (an obstacle moved off it, or more than 64 obstacles
    /// changed in a step, or a change too wide for a local update), the rebuild runs within the
    /// same budget: a sub-step builds the rows of about `fields_per_step` × 65 536 ÷
    /// [`GRID_FIELDS`](super::planner::GRID_FIELDS) (12) cells, computing no field (a build
    /// costs about 12 fields of its size), and planned agents walk straight at their targets
    /// until it is done (a grid of up to 21 845 cells in one sub-step at the default budget,
    /// the largest in three; obstacles changed meanwhile are applied when it ends).
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

    /// Builds the route planner's grid now, over the obstacles as they are, as a navigation
    /// mesh is baked at a level's load: the first step with a planned agent then routes at
    /// once instead of first building the whole grid (a few milliseconds on the finest grid),
    /// and a rebuild under way is finished. Obstacles changed afterwards are applied by the
    /// steps as usual. Nothing else changes: a crowd baked just before its first step (no
    /// obstacle changed in between) moves with the same bits as one that is not. Does nothing
    /// when the grid is up to date (or there are no obstacles).
    ///
    /// ```
    /// use wayfarer::crowd::{Crowd, Obstacle, RouteMode};
    /// use wayfarer::Vec3;
    ///
    /// let mut crowd = Crowd::new(4).unwrap();
    /// crowd.add_obstacle(Obstacle::Circle { center: Vec3::ZERO, radius: 1.0 }).unwrap();
    /// let id = crowd.add_agent(Vec3::new(0.0, 0.0, -5.0), 0.0, 1.3, 0.3).unwrap();
    /// crowd.set_route_mode(id, RouteMode::Planned).unwrap();
    /// crowd.set_target(id, Vec3::new(0.0, 0.0, 5.0), 0.3).unwrap();
    /// crowd.bake_routes(); // at load
    /// assert!(crowd.planner().cells() > 0);
    /// crowd.step(0.1, 1).unwrap(); // routes, builds nothing
    /// ```
    pub fn bake_routes(&mut self) {
        self.apply_obstacle_changes(true);
        self.planner.finish_build(&self.shapes);
    }

    /// Applies the obstacles added and removed since the last call: the obstacle index is
    /// rebuilt, and with `planner`, the planner brought up to date (see
    /// [`Self::update_planner`]). The step and [`Self::bake_routes`] start with it, so a bake
    /// does what the next step would have done.
    pub(super) fn apply_obstacle_changes(&mut self, planner: bool) {
        if self.obstacles_dirty {
            self.rebuild_obstacles();
        }
        if planner && self.planner_stale {
            self.update_planner();
        }
    }

    pub(super) fn rebuild_obstacles(&mut self) {
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
    pub(super) fn update_planner(&mut self) {
        let changed = self.changed.take();
        self.planner.refresh(&self.shapes, changed.as_deref());
        for a in self.agents.items.iter_mut().flatten() {
            a.plan.2 = 0;
        }
        self.planner_stale = false;
    }
}
