//! One walking character: where it is, how it moves, what it looks out for and where it goes.

use super::planner::Approach;
use glam::{Vec2, Vec3};

/// What an agent did in the last step (`WF_AGENT_*` in the C ABI).
///
/// ```
/// use wayfarer::crowd::{AgentState, Crowd};
/// use wayfarer::Vec3;
///
/// let mut crowd = Crowd::new(4).unwrap();
/// let id = crowd.add_agent(Vec3::ZERO, 0.0, 1.5, 0.3).unwrap();
/// crowd.set_target(id, Vec3::new(0.0, 0.0, 3.0), 0.2).unwrap();
/// for _ in 0..40 {
///     crowd.step(0.1, 1).unwrap();
/// }
/// assert_eq!(crowd.agent(id).unwrap().state(), AgentState::Arrived);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u32)]
pub enum AgentState {
    /// Walking toward its target.
    #[default]
    Moving = 0,
    /// Inside its arrival radius; for a target inside an obstacle or closer to one than its
    /// radius less the arrival radius (so it cannot come that near), within the arrival radius
    /// of the nearest point it can reach, or pressed against that obstacle and blocked there
    /// (the nearer places taken); for a target in a crack between obstacles too narrow for
    /// it (touching two of them that each lie within its radius and arrival radius of the
    /// target), wedged as deep as it gets and blocked there; or settled against agents already
    /// arrived at the same target. Arrived short of the target, it is steered afresh when an
    /// obstacle within two radii of it is added, removed or moved (or an agent it settled
    /// against walks on), and walks on if it can now get nearer.
    Arrived = 1,
    /// Wants to move but made less than a tenth of its intended progress this step.
    Blocked = 2,
    /// Its position or yaw was set to NaN/Inf: it is skipped by the step until given a finite
    /// position again.
    Invalid = 3,
}

/// How an agent finds its way to its target (`WF_ROUTE_*` in the C ABI).
///
/// ```
/// use wayfarer::crowd::{Crowd, RouteMode};
/// use wayfarer::Vec3;
///
/// let mut crowd = Crowd::new(4).unwrap();
/// let id = crowd.add_agent(Vec3::ZERO, 0.0, 1.3, 0.3).unwrap();
/// crowd.set_route_mode(id, RouteMode::Planned).unwrap(); // route round obstacles
/// assert_eq!(crowd.agent(id).unwrap().route_mode, RouteMode::Planned);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u32)]
pub enum RouteMode {
    /// Straight at the target, avoiding what it meets.
    ///
    /// # Detours
    ///
    /// Steering alone does not get a disc out of a pocket that opens away from its target (two
    /// obstacles less than a body apart, a box in the mouth of a bay): whichever way it slides,
    /// it walks back in. An agent held near obstacles (hitting one, or stalled beside one)
    /// within one radius of where it was first held for [`DETOUR_TIME`] seconds searches the few
    /// metres round it for the way its target lies (an A* over cells of half its radius, see
    /// `escape`); when walking straight is not that way, it takes a detour along it until it
    /// is, then walks straight on. (Before, 22 of the 3 500 agents of the speed benchmark's
    /// scene at 500, 1 000 and 2 000 agents stood in pockets after 300 s.) An agent held there
    /// by another agent (pressed to a wall by a queue, or behind one in the pocket) waits
    /// twice as long, 4 s, before it searches: a queue at a door moves on within that. The
    /// search needs no route planner.
    ///
    /// [`DETOUR_TIME`]: crate::crowd::DETOUR_TIME
    #[default]
    Direct = 0,
    /// Through the caller's corner waypoints in order, then to the target.
    Waypoints = 1,
    /// Along a route the crowd plans around static obstacles (see [`crate::crowd::Planner`]).
    /// An agent wedged in a crack the planning grid has no open cell in (touching two
    /// obstacles, blocked hitting one) for [`DETOUR_TIME`] seconds takes the detour search out
    /// of it (see *Detours* in [`RouteMode::Direct`]), then plans again.
    ///
    /// [`DETOUR_TIME`]: crate::crowd::DETOUR_TIME
    Planned = 2,
}

impl RouteMode {
    /// The mode for a C ABI code, or `None`.
    pub fn from_code(code: u32) -> Option<Self> {
        match code {
            0 => Some(Self::Direct),
            1 => Some(Self::Waypoints),
            2 => Some(Self::Planned),
            _ => None,
        }
    }
}

/// What the agent's look-ahead hit (`WF_HIT_*` in the C ABI).
///
/// ```
/// use wayfarer::crowd::{Crowd, HitKind, Obstacle};
/// use wayfarer::Vec3;
///
/// let mut crowd = Crowd::new(4).unwrap();
/// let id = crowd.add_agent(Vec3::ZERO, 0.0, 1.3, 0.3).unwrap();
/// crowd.set_target(id, Vec3::new(0.0, 0.0, 10.0), 0.3).unwrap();
/// crowd.add_obstacle(Obstacle::Circle { center: Vec3::new(0.0, 0.0, 2.5), radius: 0.5 }).unwrap();
/// crowd.step(0.1, 1).unwrap();
/// assert_eq!(crowd.agent(id).unwrap().hit().kind, HitKind::Obstacle); // the pillar ahead
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u32)]
pub enum HitKind {
    /// Nothing in its field of view is on a collision course.
    #[default]
    None = 0,
    /// A static obstacle.
    Obstacle = 1,
    /// Another agent.
    Agent = 2,
}

/// The most urgent thing an agent steered away from in the last step.
///
/// ```
/// use wayfarer::crowd::{Crowd, Obstacle};
/// use wayfarer::Vec3;
///
/// let mut crowd = Crowd::new(4).unwrap();
/// let id = crowd.add_agent(Vec3::ZERO, 0.0, 1.3, 0.3).unwrap();
/// crowd.set_target(id, Vec3::new(0.0, 0.0, 10.0), 0.3).unwrap();
/// crowd.add_obstacle(Obstacle::Circle { center: Vec3::new(0.0, 0.0, 2.5), radius: 0.5 }).unwrap();
/// crowd.step(0.1, 1).unwrap();
/// let hit = crowd.agent(id).unwrap().hit();
/// assert!(hit.normal.z < 0.0); // the pillar's surface faces back toward the agent
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Hit {
    /// What was hit.
    pub kind: HitKind,
    /// The obstacle or agent id (0 when `kind` is `None`).
    pub id: u32,
    /// Where the look-ahead touches it (on the XZ plane, y of the agent).
    pub point: Vec3,
    /// Unit surface normal at that point, pointing back toward the agent.
    pub normal: Vec3,
}

/// Parameters given to every new agent; change them with
/// [`Crowd::set_agent_defaults`](crate::crowd::Crowd::set_agent_defaults).
///
/// ```
/// use wayfarer::crowd::{AgentDefaults, Crowd};
/// use wayfarer::Vec3;
///
/// let mut crowd = Crowd::new(8).unwrap();
/// crowd.set_agent_defaults(AgentDefaults { fov_range: 6.0, repel_force: 2.0, ..Default::default() }).unwrap();
/// let id = crowd.add_agent(Vec3::ZERO, 0.0, 1.3, 0.3).unwrap();
/// assert_eq!(crowd.agent(id).unwrap().fov_range, 6.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentDefaults {
    /// Fastest turn, rad/s.
    pub max_turn_rate: f32,
    /// How far ahead the agent looks, metres (from its edge).
    pub fov_range: f32,
    /// Half the opening angle of its field-of-view cone, radians (π = sees all around).
    pub fov_half_angle: f32,
    /// How hard a hit pushes the walking direction along the hit normal (the seed's
    /// `repelForce`; 1 = as strong as the pull toward the target).
    pub repel_force: f32,
    /// Arrived once this close to the target, metres.
    pub arrival_radius: f32,
    /// Who yields: of two agents about to meet, the lower priority gives way.
    pub priority: f32,
    /// Layer bits of the agent (who sees it).
    pub layer: u32,
    /// Mask of layers the agent avoids.
    pub mask: u32,
    /// How it finds its way.
    pub route_mode: RouteMode,
}

/// Fastest turn of a new agent: one turn per second.
pub const DEFAULT_MAX_TURN_RATE: f32 = core::f32::consts::TAU;
/// Look-ahead of a new agent, metres.
pub const DEFAULT_FOV_RANGE: f32 = 4.0;
/// Half opening of a new agent's field of view: 100° (humans see ~200° wide).
pub const DEFAULT_FOV_HALF_ANGLE: f32 = 100.0 * core::f32::consts::PI / 180.0;
/// Repel force of a new agent.
pub const DEFAULT_REPEL_FORCE: f32 = 1.5;
/// Arrival radius of a new agent, metres.
pub const DEFAULT_ARRIVAL_RADIUS: f32 = 0.25;

impl Default for AgentDefaults {
    fn default() -> Self {
        Self {
            max_turn_rate: DEFAULT_MAX_TURN_RATE,
            fov_range: DEFAULT_FOV_RANGE,
            fov_half_angle: DEFAULT_FOV_HALF_ANGLE,
            repel_force: DEFAULT_REPEL_FORCE,
            arrival_radius: DEFAULT_ARRIVAL_RADIUS,
            priority: 0.0,
            layer: 1,
            mask: u32::MAX,
            route_mode: RouteMode::Direct,
        }
    }
}

/// One agent. Its position is on the XZ plane (y is carried through untouched); its yaw is
/// Unity's: 0 faces +Z, positive turns clockwise seen from above, forward = (sin yaw, 0, cos yaw).
///
/// ```
/// use wayfarer::crowd::Crowd;
/// use wayfarer::Vec3;
///
/// let mut crowd = Crowd::new(4).unwrap();
/// let id = crowd.add_agent(Vec3::ZERO, 0.0, 1.0, 0.3).unwrap();
/// crowd.set_target(id, Vec3::new(0.0, 0.0, 10.0), 0.3).unwrap();
/// crowd.step(0.1, 1).unwrap();
/// let agent = crowd.agent(id).unwrap();
/// assert!(agent.position.z > 0.0); // yaw 0 faces +Z: it walked forward
/// assert!((agent.forward() - Vec3::Z).length() < 1e-6);
/// ```
///
/// Laid out in cache lines (four, 256 bytes): what the step reads of every agent in the
/// first, what it writes back in the second, then the route (read only in the route modes that
/// need it) and the counts written only while the agent is held (a standoff, pinned).
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct Agent {
    /// Position; the step moves x and z.
    pub position: Vec3,
    /// Facing, radians.
    pub yaw: f32,
    /// Walking speed, m/s.
    pub speed: f32,
    /// Body radius, metres.
    pub radius: f32,
    /// Fastest turn, rad/s.
    pub max_turn_rate: f32,
    /// Look-ahead distance from its edge, metres.
    pub fov_range: f32,
    /// Half opening of the field of view, radians.
    pub fov_half_angle: f32,
    /// Strength of the push along a hit normal.
    pub repel_force: f32,
    /// Where it is going.
    pub target: Vec3,
    /// Arrived once this close to the target.
    pub arrival_radius: f32,
    /// Lower priority yields.
    pub priority: f32,
    /// Its layer bits.
    pub layer: u32,
    /// Layers it avoids.
    pub mask: u32,
    pub(crate) state: AgentState,
    /// How it finds its way.
    pub route_mode: RouteMode,
    /// Smoothed velocity on the XZ plane (see [`Agent::velocity`]).
    pub(crate) velocity: Vec2,
    /// Distance to the target at which it settled (arrived against others); 0 if not settled.
    pub(crate) settled_at: f32,
    /// `forward2(yaw)`, kept with the yaw (the step reuses the last turn's instead of
    /// computing the sine and cosine again). The yaw changes only through the crowd.
    pub(crate) heading: Vec2,
    pub(crate) hit: Hit,
    /// Which way it slid along the obstacle it hit (its `hit`): +1 along `right_of(normal)`,
    /// −1 against it, 0 not sliding (see `steering`, *Keep sliding*).
    pub(crate) slide: i8,
    /// Walking straight ([`RouteMode::Direct`]) but, held in a pocket, taking a detour out of it
    /// (see *Detours* there); or planning its route, wedged in a crack, taking that detour out.
    pub(crate) detour: bool,
    /// Planning its route, how it took its last stretch toward its target by the planner's own
    /// search (`Planner::approach`) when its route point was last refreshed: it keeps to that
    /// search a few cells farther out than it starts it (see `APPROACH_HOLD`), and walking
    /// straight, straight a ring farther (see [`Approach`]).
    pub(crate) approaching: Approach,
    /// Planned route point, whether it is the target, and sub-steps until it is refreshed.
    pub(crate) plan: (Vec2, bool, u32),
    pub(crate) next_waypoint: usize,
    /// Corner waypoints (route mode `Waypoints`), walked in order before the target.
    pub waypoints: Vec<Vec3>,
    /// Seconds it has been blocked against the same agent, sub-step after sub-step, up to
    /// sub-step `standoff_step` (see `Crowd::break_standoffs`). Written only while blocked
    /// against an agent, so the write-back of a crowd walking freely never touches this line.
    pub(crate) standoff: f32,
    pub(crate) standoff_step: u64,
    /// Seconds it has been held near obstacles walking straight, within a radius of
    /// `pinned_at` (where it first stalled so), sub-step after sub-step, up to sub-step
    /// `pinned_step` (see *Detours* in [`RouteMode::Direct`]). Written only while so held.
    pub(crate) pinned: f32,
    pub(crate) pinned_at: Vec2,
    pub(crate) pinned_step: u64,
}

const _: () = assert!(core::mem::size_of::<Agent>() == 256);

impl Agent {
    /// A new agent standing at `position` facing `yaw`, its target where it stands.
    pub fn new(position: Vec3, yaw: f32, speed: f32, radius: f32, d: &AgentDefaults) -> Self {
        Self {
            position,
            yaw,
            speed,
            radius,
            max_turn_rate: d.max_turn_rate,
            fov_range: d.fov_range,
            fov_half_angle: d.fov_half_angle,
            repel_force: d.repel_force,
            target: position,
            arrival_radius: d.arrival_radius,
            priority: d.priority,
            layer: d.layer,
            mask: d.mask,
            route_mode: d.route_mode,
            waypoints: Vec::new(),
            next_waypoint: 0,
            state: AgentState::Arrived,
            hit: Hit::default(),
            slide: 0,
            detour: false,
            approaching: Approach::Off,
            velocity: Vec2::ZERO,
            settled_at: 0.0,
            plan: (Vec2::ZERO, true, 0),
            heading: forward2(yaw),
            standoff: 0.0,
            standoff_step: 0,
            pinned: 0.0,
            pinned_at: Vec2::ZERO,
            pinned_step: 0,
        }
    }

    /// `forward2(yaw)` (kept with the yaw).
    #[inline]
    pub(crate) fn heading2(&self) -> Vec2 {
        debug_assert_eq!(
            self.heading,
            forward2(self.yaw),
            "heading kept with the yaw"
        );
        self.heading
    }

    /// What it did in the last step.
    pub fn state(&self) -> AgentState {
        self.state
    }

    /// The most urgent hit of the last step.
    pub fn hit(&self) -> Hit {
        self.hit
    }

    /// Its velocity (x, 0, z), m/s, smoothed: each step's velocity averaged half and half
    /// with the value before (an exponential average, half-life one step; zero when the step
    /// put it back). Neighbours predict its motion from it: from the last step's velocity
    /// alone, two agents passing close each saw the other on a collision course one step and
    /// clear the next, swerved and swerved back, and zig-zagged at their full turn rate.
    pub fn velocity(&self) -> Vec3 {
        Vec3::new(self.velocity.x, 0.0, self.velocity.y)
    }

    /// Unit forward vector for its yaw.
    pub fn forward(&self) -> Vec3 {
        let f = forward2(self.yaw);
        Vec3::new(f.x, 0.0, f.y)
    }
}

/// Unit forward on the XZ plane (x, z) for a yaw.
#[inline]
pub(crate) fn forward2(yaw: f32) -> Vec2 {
    let (s, c) = super::angle::sin_cos(yaw);
    Vec2::new(s, c)
}

/// The yaw of a direction on the XZ plane (x, z).
#[inline]
pub(crate) fn yaw_of(d: Vec2) -> f32 {
    super::angle::atan2(d.x, d.y)
}

/// The right-hand perpendicular of a direction (x, z): forward +Z has right +X.
#[inline]
pub(crate) fn right_of(d: Vec2) -> Vec2 {
    Vec2::new(d.y, -d.x)
}
