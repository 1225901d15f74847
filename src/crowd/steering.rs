//! The per-agent rules of one step, each a pure function of a read-only snapshot so agents can
//! be computed in any order, on any number of threads, with the same bits.
//!
//! **Steer** (the seed's rule, made to scale and to resolve): the agent wants to walk along
//! g (unit, toward its route point) at its preferred speed v. For every agent or obstacle in
//! its field of view (inside `fov_range` of its edge and within `fov_half_angle` of its
//! forward or of its route direction — so what blocks the way stays seen while turning — or
//! touching it) it casts a ray — for agents, the relative motion
//! x(t) = (p_j − p_i) − (v g − v_j) t against the disc of radius r_i + r_j; for obstacles, the
//! ray p_i + g s against the obstacle grown by r_i, up to `fov_range` (no farther than the
//! route point on the final leg, where the agent stops, and at a turn right ahead, a route
//! point within [`TURN_NEAR`] radii) — and takes the hit time t and the hit normal n. The
//! walking direction becomes
//!
//! d = g + Σ repel_force · u(t) · w · (n + b),  u(t) = (1 − t / T)²,  T = fov_range / speed,
//!
//! where w is the priority share (1 for equals, 1.5 when the other has the right of way, 0.5
//! when this one has it: the higher priority, or, of equal priorities bound for the same
//! target, the one nearer it; see *Right of way*) and b is a deterministic side bias: for
//! agents, 0.35 × the right-hand perpendicular of the relative motion (head-on pairs both step right and pass; a perfectly
//! symmetric circle turns into a roundabout instead of deadlocking); for obstacles, the
//! tangent of the surface toward the obstacle's nearer edge (ties: right; on a planned or
//! waypoint leg, the way the route goes when it clearly goes one way), so agents slide around
//! walls instead of stopping at them.
//!
//! **Keep sliding**: an agent walking straight (route `Direct`) at a target that a disc can
//! reach beside the obstacle keeps sliding the way it slid along that obstacle last step while
//! that way still runs along the surface (|tangent · last way| > [`SLIDE_HOLD`]); otherwise it
//! slides the way that goes on toward its target when that clearly goes one way, and toward
//! the nearer edge only when it walks at the surface head on. (Toward the nearer edge by the
//! centre, an agent that reached a corner of a long box was sent back along the face it came
//! from — at a corner that tangent leads away from the centre — and turned to and fro there
//! for good: 152 of 336 lone agents walking at a target behind a box. Following the target's
//! way alone, an agent sliding along a wall with its target straight behind the wall's middle
//! turned back halfway, where the target's way swung past the middle.)
//!
//! **Hold a swerve**: with no agent on a collision course and nobody within its walk-ahead
//! reach, an agent whose last step's hit was a walker that is still coming closer and now
//! passes within two radius sums keeps part of its heading — all of it at a miss of one radius
//! sum, none at two — instead of turning straight back to its route point, until that walker
//! has passed (so two agents meeting head on swerve once, instead of swerving and turning back
//! every other step).
//!
//! **Turn and walk**: yaw turns toward d by at most `max_turn_rate · dt`; the agent walks along
//! its new forward at v · max(0, cos(angle left to turn)) (it slows while turning round),
//! inside the last `speed × 0.5 s` before its target at a speed that brakes toward it, and
//! never faster than half the free gap to a walker right ahead per step (but at least
//! `CREEP` × v, or 40 % of that when already pressed against someone: a jam keeps sliding,
//! a crush does not compress).
//!
//! **Arrive and settle**: within `arrival_radius` of its target an agent is arrived and stops;
//! an agent touching two arrived agents with the same target that are closer to it (or one,
//! right at the target, or one it was blocked against) settles too,
//! so a crowd sharing one destination forms a still blob instead of pushing forever. Short of
//! its final leg (walking to a route point or waypoint) it settles only against arrived agents
//! that also stand nearer that point: those in its way. A target
//! no disc of the agent's radius comes within `arrival_radius` of (inside an obstacle, or
//! closer to one than the radius less the arrival radius) is met as near as it can be: the
//! agent arrives within `arrival_radius` of the nearest point it can reach, `radius −
//! clearance` from the target for the obstacle in the way (its walk line's hits that near the
//! target are not avoided, and it slides along a side beside the target toward it); pressed
//! against that obstacle and blocked (the nearer places taken by others), it arrives where it
//! stands, and those behind it settle against it. A target in a crack between obstacles that
//! each leave it room but together do not (touching two that lie within its radius and arrival
//! radius of the target, walking into one, blocked) is met wedged as deep as it gets: the
//! agent arrives there. An agent arrived short of its target stays put (until pushed a radius
//! away) except when an obstacle within two radii of it changed since the last step, or an
//! agent it may have settled against walked on: then it is steered afresh, and stays arrived
//! if it still settles (one arrived neighbour in the way is enough) or is still pressed
//! against the obstacle in its way; else it walks on, and those settled against it are steered
//! afresh in the next step.
//!
//! **Give way** (planned agents, decided with the route in `Crowd::route`): two agents that
//! touch, each standing right in the other's way to its route point and its most urgent
//! hit, one of them making no headway (a head-on block, which in a passage one agent wide
//! neither the side bias nor pushing resolves), are parted by one of them giving way for 4 s: the lower priority (of equals, the
//! later slot; an agent that does not plan its route cannot, so the other does) routes round
//! the spot where the other stood, or, with no way round, backs off from it. A planned agent
//! blocked against the same agent for `PATIENCE` (4 s), that one on a way at least 60° off its
//! own (a knot of crossing flows), gives way so too.
//!
//! **Project**: after moving, overlapping agents are pushed apart (Jacobi iterations; each pair
//! split by priority: 50/50 for equals, 90/10 when one is lower), then every agent is pushed
//! out of every obstacle it entered.
//!
//! **Right of way** (`outranks`, the steer's share w): the higher priority; of equal
//! priorities contending for one goal, who came to it first: an agent that already left that
//! goal of its queue (see [`goals`](super::goals)) over those on the final leg to it, and of
//! two on the final leg to it, the one nearer it (only there is nearer as the crow flies
//! nearer along the way). One rule for every shared goal: a crowd pressing into one point lets
//! its front in instead of pressing symmetrically round the empty point, and lets out those
//! leaving it for goals beyond. Measured with `examples/shared_goal` (agents of radius 0.3 m
//! at 1.3 m/s, arrival radius 0.25 m, leaving at their last goal): 100 agents on a 20 m ring
//! sent to its centre all leave there in 113 s (186 s without the rule); 100 agents in ten
//! files passing one point to goals 15–27 m beyond it all arrive in 338 s (200: 720 s), where
//! without the rule 17 had after 300 s and the rest stood blocked round the point.

use glam::Vec2;

use super::agent::{right_of, Agent, AgentState, HitKind};
use super::cull::LANES as CULL_LANES;
#[cfg(target_arch = "x86_64")]
use super::cull::{survivors_avx2, Looker};
use super::grid::{AgentGrid, ObstacleGrid, MAX_QUERY_RUNS};
use super::kernels::Kernels;
use super::obstacle::Shape;
use super::projection::{clear_of_obstacles, count_within};
use super::scan::LANES;
use super::sieve::{sieve, sieve_index, Looker as SieveLooker, Ring};
use super::turn::{turn, turn_lanes, TurnIn, LANES as TURN_LANES};

/// Side bias added to an agent hit normal, as a fraction of the normal.
pub const SIDE_BIAS: f32 = 0.35;
/// Agents pushed out of an obstacle end this fraction of their radius clear of it.
pub const PUSH_SKIN: f32 = 1e-4;
/// Weight of an arrived agent in another's avoidance: walkers push through people standing at
/// their goals (the projection moves the standing ones aside).
pub const ARRIVED_SHARE: f32 = 0.25;
/// Fraction of the preferred speed an agent keeps when someone is right ahead.
pub const CREEP: f32 = 0.25;
/// Several overlaps of one agent are averaged and scaled by this (successive over-relaxation).
pub const PROJECTION_RELAXATION: f32 = 1.5;
/// On a planned or waypoint leg, or walking straight at a target a disc can reach beside it,
/// |tangent · route direction| above which an obstacle is slid along the route's way rather
/// than toward its nearer edge.
pub const SLIDE_FOLLOW: f32 = 0.3;
/// Walking straight at a target a disc can reach beside an obstacle, |tangent · the way it
/// slid along that obstacle last step| above which it keeps sliding that way (see *Keep
/// sliding*).
pub const SLIDE_HOLD: f32 = 0.5;
/// Candidate neighbours buffered per steer query before they are visited.
const CANDIDATES: usize = 64;
/// Rows of cells a steer query usually spans (its square is about two cells wide: see
/// [`AgentGrid::cell_for`]).
const QUERY_ROWS: usize = 3;
/// Close neighbours remembered for the walk-ahead limit.
const CLOSE: usize = 16;
/// Braking time near the target: inside `speed × BRAKE_TIME` the speed falls linearly.
pub const BRAKE_TIME: f32 = 0.5;
/// Extra gap (fraction of the radius) at which an agent counts as touching an arrived one.
pub const SETTLE_GAP: f32 = 0.2;
/// Slack, as a fraction of the radius, by which a target counts as out of the arrival radius'
/// reach beside an obstacle (above [`PUSH_SKIN`], which a disc pushed out of an obstacle
/// keeps from it, and rounding): see the module docs, *Arrive and settle*.
pub const AT_BEST_SLACK: f32 = 1e-3;
/// A route point closer than this many radii is a turn right ahead: a waypoint that near
/// counts as passed, a planned route point that near is planned again every sub-step, and
/// the steer's obstacle ray stops at it (what lies beyond is past the turn).
pub const TURN_NEAR: f32 = 2.0;
/// Below this fraction of the pull to its route point, the direction left to an agent pushed by
/// two or more arrived agents of its own target ahead of it (held off by them: their pushes
/// all but cancel the pull) is not steered by; it creeps straight on to them instead, and
/// settles when it touches them (see `steer`).
pub const HELD_FRACTION: f32 = 0.2;

/// Everything the steer knows about one agent, stored in the steer grid's cell order.
/// `repr(C)` with what a neighbour reads first: the cull's fields (position, velocity,
/// radius, layer, the arrival flag's word) fill the first 32 bytes, read as one vector per
/// candidate, and the rest of what a neighbour reads shares the first cache line. Two
/// cache lines in all (the steer's outputs stay in its [`Decision`]; what the projection needs
/// goes on in a one-line [`Moved`]).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub(crate) struct Body {
    pub pos: Vec2,
    pub vel: Vec2,
    pub radius: f32,
    pub layer: u32,
    pub arrived: bool,
    /// It was blocked (made little progress) in the last step.
    pub blocked: bool,
    /// The route point is the final target (arrival applies).
    pub final_leg: bool,
    /// Arrived short of its target (settled, or as near as it gets) beside an obstacle added
    /// or removed since the last step (or beside an agent so steered that walked on, see
    /// `Crowd::recheck_around_released`): it is steered afresh instead of staying put, and stays
    /// arrived only if it still settles or still cannot get nearer (counted as blocked for
    /// both). So an agent that arrived pressed against a box round its target walks on when
    /// the box is removed, and stays still while it is put back where it was. (A byte of the
    /// first 32, which the cull reads as one vector: none of them may be padding.)
    pub recheck: bool,
    pub priority: f32,
    pub mask: u32,
    /// Final target.
    pub target: Vec2,
    /// Storage slot.
    pub slot: u32,
    pub speed: f32,
    pub yaw: f32,
    /// `forward2(yaw)`.
    pub fwd: Vec2,
    pub max_turn_rate: f32,
    pub fov_range: f32,
    pub cos_half_fov: f32,
    pub repel_force: f32,
    /// Current route point.
    pub steer_to: Vec2,
    pub arrival_radius: f32,
    pub settled_at: f32,
    /// Storage slot of the agent it steered away from last step (`u32::MAX`: none).
    pub last_hit: u32,
    /// Storage slot of the obstacle it steered away from last step (`u32::MAX`: none).
    pub last_obstacle: u32,
    /// The way it slid along that obstacle last step (a unit tangent; zero: none).
    pub last_slide: Vec2,
    /// It walks straight at its target (route [`RouteMode::Direct`](super::RouteMode)).
    pub direct: bool,
    /// The goal of its queue it last left (NaN: none; see [`outranks`]).
    pub passed: Vec2,
}

/// What the projection, the overlap guard and the write-back know about one agent after its
/// steer, stored in the projection grid's cell order: one cache line (the rest of the agent
/// stays in its [`Body`] and [`Decision`]).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub(crate) struct Moved {
    pub pos: Vec2,
    pub vel: Vec2,
    pub radius: f32,
    pub priority: f32,
    pub layer: u32,
    pub mask: u32,
    /// Storage slot.
    pub slot: u32,
    pub arrived: bool,
    /// From the steer: a lower bound on the gap to every other agent before moving (0:
    /// unknown) and [`Decision::obstacle_gap`]; the index of its decision.
    pub clearance: f32,
    pub obstacle_gap: f32,
    pub decision: u32,
    /// An upper bound on its distance from where it steered, less rounding (the obstacle gap
    /// test's other side).
    pub moved: f32,
}

/// One side of a right-of-way contest: priority, position, target and the goal it last left
/// (NaN: none).
#[derive(Clone, Copy)]
pub(crate) struct Claim {
    pub priority: f32,
    pub pos: Vec2,
    pub target: Vec2,
    pub passed: Vec2,
}

/// Whether `a` has the right of way over `b` (1; −1: `b` has it, 0: neither): the higher
/// priority; of equal priorities contending for one goal, who came to it first — the one that
/// already left it (its queue's last goal passed is the other's target), else, both bound for
/// it, the one nearer it. A crowd pressing into one goal point lets its front in instead of
/// pressing symmetrically round the empty point, and those leaving it are let out.
#[inline]
pub(crate) fn outranks(a: Claim, b: Claim) -> i8 {
    if a.priority != b.priority {
        return if a.priority > b.priority { 1 } else { -1 };
    }
    if a.target == b.target {
        let (d, e) = (
            a.pos.distance_squared(a.target),
            b.pos.distance_squared(a.target),
        );
        return (d < e) as i8 - (d > e) as i8;
    }
    (a.passed == b.target) as i8 - (b.passed == a.target) as i8
}

const _: () = assert!(core::mem::size_of::<Moved>() == 64);

/// The hit a steer decision reports (2D; the simulator adds y and turns `index` into an id).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct HitOut {
    pub kind: HitKind,
    /// The agent's storage slot or the obstacle's index.
    pub index: u32,
    pub point: Vec2,
    pub normal: Vec2,
}

/// What the steer phase decides for one agent.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Decision {
    pub yaw: f32,
    /// `forward2(yaw)`.
    pub heading: Vec2,
    pub vel: Vec2,
    pub arrived: bool,
    pub settled_at: f32,
    pub pref_dir: Vec2,
    pub pref_speed: f32,
    pub hit: HitOut,
    /// A lower bound on the gap between this agent's disc and every other agent's before
    /// moving: the nearest candidate of the steer query (or the query's reach), 0 when the
    /// agent did not look (arrived). The projection skips its overlap search when no two
    /// agents can have closed that gap in one step.
    pub clearance: f32,
    /// A lower bound on the distance from the agent's centre before moving to every obstacle
    /// surface, less a rounding margin (see [`obstacle_margin`]); 0 when the agent did not look
    /// (arrived or settled). The projection skips the obstacle push-out of an agent that cannot
    /// have reached one.
    pub obstacle_gap: f32,
    /// The turn and walk are still to be made by [`finish_turns`] (`yaw` and `vel` are not
    /// final yet) from the fields below.
    pub pending: bool,
    /// The wanted walking direction (unit).
    pub want: Vec2,
    /// The speed factor for a push that pointed backward (1: none).
    pub block: f32,
    /// The close moving neighbours (offset, sum of radii) for the walk-ahead limit.
    pub close: [(Vec2, f32); KEPT],
    /// How many of `close` are set.
    pub n_close: u8,
    /// With an obstacle hit: +1 when it slides along `right_of(hit.normal)`, −1 against it.
    pub slide: i8,
}

/// Close neighbours a pending decision keeps; an agent with more finishes its turn in
/// [`steer`] itself. Three keep a [`Decision`] within 128 bytes, which the compiler copies
/// inline (at 132 bytes every copy became a `memmove` call: 3.5 % of the portable step).
const KEPT: usize = 3;
const _: () = assert!(core::mem::size_of::<Decision>() <= 128);

/// The rounding margin the obstacle gap test leaves for a position `p`: a ten-thousandth of
/// its largest coordinate (f32 arithmetic on such coordinates errs by well under a
/// millionth), plus 0.1 mm.
#[inline]
pub(crate) fn obstacle_margin(p: Vec2) -> f32 {
    1e-4 * p.abs().max_element() + 1e-4
}

/// The read-only world of a steer phase.
pub(crate) struct World<'a> {
    pub bodies: &'a [Body],
    /// `bodies[k].pos` for every k (scanned first: contiguous).
    pub pos: &'a [Vec2],
    pub grid: &'a AgentGrid,
    pub shapes: &'a [Option<Shape>],
    /// `Ring::of` each shape (default for removed ones, which no list holds).
    pub rings: &'a [Ring],
    pub obstacles: &'a ObstacleGrid,
    pub max_radius: f32,
    pub dt: f32,
    /// The lane builds for this CPU.
    pub kernels: Kernels,
    /// The agents by storage slot, as they were before the step (what the steer reads of a
    /// neighbour is also in its body; see [`near_miss`]).
    pub agents: &'a [Option<Agent>],
}

use super::angle::pick32;

/// u(t) = (1 − t/T)², 1 at contact, 0 at the horizon.
#[inline]
fn urgency(t: f32, horizon: f32) -> f32 {
    let x = (1.0 - t / horizon).clamp(0.0, 1.0);
    x * x
}

/// The steer decision of `bodies[k]`.
pub(crate) fn steer(w: &World, k: usize) -> Decision {
    let b = &w.bodies[k];
    let goal_dist = b.pos.distance(b.target);
    let mut d = Decision {
        yaw: b.yaw,
        heading: b.fwd,
        vel: Vec2::ZERO,
        arrived: b.arrived,
        settled_at: b.settled_at,
        ..Decision::default()
    };
    if b.arrived {
        // Hysteresis: stay arrived until pushed a radius beyond where it stopped.
        let keep = b.arrival_radius.max(b.settled_at) + b.radius;
        if goal_dist <= keep && !b.recheck {
            return d;
        }
        d.arrived = false;
        d.settled_at = 0.0;
    } else if b.final_leg && goal_dist <= b.arrival_radius {
        d.arrived = true;
        return d;
    }

    let fwd = b.fwd;
    let to = b.steer_to - b.pos;
    let dist = to.length();
    let g = if dist > 1e-6 { to / dist } else { fwd };
    let mut v_pref = b.speed;
    if b.final_leg {
        v_pref = v_pref.min(dist / BRAKE_TIME);
    }
    d.pref_dir = g;
    d.pref_speed = v_pref;
    let horizon = b.fov_range / b.speed.max(0.05);
    let look = b.fov_range + b.radius;
    let v_i = g * v_pref;
    let mut dir = g;
    let mut min_t = f32::INFINITY;
    // Arrived neighbours (same goal, closer to it) this agent touches; whether one of them
    // touches the goal's own arrival circle.
    let mut settle_by = 0u32;
    let mut settle_near = false;
    // Arrived agents of its own target ahead of it that push it (see HELD_FRACTION).
    let mut held_by = 0u32;
    let near = 2.0 * b.speed * w.dt + 0.5 * b.radius;
    let mut close = [(Vec2::ZERO, 0.0f32); CLOSE];
    let mut n_close = 0;
    let same_goal2 = b.arrival_radius.max(b.radius) * b.arrival_radius.max(b.radius);

    let look_max2 = (look + w.max_radius) * (look + w.max_radius);
    let settle_gap = SETTLE_GAP * b.radius;
    #[cfg(target_arch = "x86_64")]
    let me = Looker {
        pos: b.pos,
        mask: b.mask,
        look,
        radius: b.radius,
        settle_gap,
        near,
        fwd,
        g,
        cos_half_fov: b.cos_half_fov,
        v: v_i,
        horizon,
    };
    #[cfg(target_arch = "x86_64")]
    let cull = w.kernels.avx2();
    // The nearest candidate among those the cull dropped.
    let mut nearest_culled = f32::INFINITY;
    let mut nearest2 = f32::INFINITY;
    let mut visit = |j: usize| {
        let x = w.pos[j] - b.pos;
        let d2 = x.length_squared();
        nearest2 = nearest2.min(d2);
        let o = &w.bodies[j];
        if b.mask & o.layer == 0 {
            return;
        }
        let reach = look + o.radius;
        if d2 > reach * reach {
            return;
        }
        let r = b.radius + o.radius;
        let dd = d2.sqrt();
        // An arrived agent it touches, nearer its target: of the same target, or (on the final
        // leg) any, right at the target. Short of the final leg, only one of the same target
        // that stands nearer its route point too, in its way. (Settling on the final leg
        // alone, a planned crowd sent to a point inside a box, whose route points lay beside
        // the box, pushed for good at those arrived there. Counting there any arrived agent
        // right at the target as on the final leg, SteerSuite `random`'s last arrival came
        // 313.0 s instead of 279.7 s, with 7 856 agent–agent collisions instead of 4 945.)
        // `ahead`: an arrived agent of its own target nearer that target (and, short of the
        // final leg, nearer its route point): one to settle against, or held off by (see
        // HELD_FRACTION).
        let ahead = |o: &Body| {
            o.arrived
                && o.pos.distance_squared(b.target) < goal_dist * goal_dist
                && o.target.distance_squared(b.target) <= same_goal2
                && (b.final_leg || o.pos.distance_squared(b.steer_to) < dist * dist)
        };
        let near_goal = goal_dist <= b.arrival_radius + 2.0 * r;
        if o.arrived
            && dd <= r + settle_gap
            && (ahead(o)
                || (b.final_leg
                    && near_goal
                    && o.pos.distance_squared(b.target) < goal_dist * goal_dist))
        {
            settle_by += 1;
            settle_near |= near_goal;
        }
        // Close moving neighbours limit how far the agent may walk this step (arrived ones
        // are pushed aside instead).
        if !o.arrived && dd < r + near && n_close < CLOSE {
            close[n_close] = (x, r);
            n_close += 1;
        }
        if dd > r && fwd.dot(x).max(g.dot(x)) < dd * b.cos_half_fov {
            return;
        }
        let v = v_i - o.vel;
        let (t, n) = if dd < r {
            let n = if dd > 1e-6 { -x / dd } else { right_of(fwd) };
            (0.0, n)
        } else {
            let a = v.length_squared();
            let bq = x.dot(v);
            if bq <= 0.0 || a < 1e-12 {
                return;
            }
            let c = d2 - r * r;
            let disc = bq * bq - a * c;
            if disc <= 0.0 {
                return;
            }
            let t = c / (bq + disc.sqrt());
            if t > horizon {
                return;
            }
            let n = ((v * t - x) / r).try_normalize().unwrap_or(-x / dd);
            (t, n)
        };
        let share = if o.arrived {
            ARRIVED_SHARE
        } else {
            // (Contending for a target only on the final leg to it: nearer as the crow flies
            // is nearer only there.)
            let claim = |x: &Body| Claim {
                priority: x.priority,
                pos: x.pos,
                target: if x.final_leg { x.target } else { Vec2::NAN },
                passed: x.passed,
            };
            match outranks(claim(o), claim(b)) {
                1 => 1.5,
                -1 => 0.5,
                _ => 1.0,
            }
        };
        let side = v.try_normalize().map_or(Vec2::ZERO, right_of);
        dir += (n + side * SIDE_BIAS) * (b.repel_force * urgency(t, horizon) * share);
        // Counted where it pushes, past every early exit, so the count does not depend on
        // the cull (which drops only what those exits drop). (Tested again here rather than
        // kept from above: the closure is hot and tight on registers.)
        if o.arrived && ahead(o) {
            held_by += 1;
        }
        if t < min_t {
            min_t = t;
            d.hit = HitOut {
                kind: HitKind::Agent,
                index: o.slot,
                point: o.pos + (b.pos - o.pos) * (o.radius / r) + (v_i * t) * (o.radius / r),
                normal: n,
            };
        }
    };
    // Candidates within reach (tested LANES at a time by the scan, so the many rejections
    // and the short runs' ends cost no mispredictions) are collected, in query order, until
    // the buffer could not take another LANES, then visited in that order. One call site, so
    // `visit` inlines.
    // One spare entry, so the loop below may read the start of the run after the last.
    let mut runs = [(0u32, 0u32); MAX_QUERY_RUNS + 1];
    let mut n_runs = 0;
    w.grid.query_runs(b.pos, look + w.max_radius, |run| {
        runs[n_runs] = (run.start as u32, run.end as u32);
        n_runs += 1;
    });
    // At least QUERY_ROWS runs are walked (those missing are empty), so the usual query, a
    // run of at most LANES agents in each of its three rows, takes one scan per run in a loop
    // of fixed length (its exit, and the step from run to run, are then predicted).
    let n_iter = n_runs.max(QUERY_ROWS);
    let mut cand = [0u32; CANDIDATES];
    let mut r = 0;
    let mut j = runs[0].0 as usize;
    loop {
        let mut n_cand = 0usize;
        while r < n_iter && n_cand + LANES <= CANDIDATES {
            let e = runs[r].1 as usize;
            let end = e.min(j + LANES);
            let out: &mut [u32; LANES] = (&mut cand[n_cand..n_cand + LANES])
                .try_into()
                .expect("LANES entries");
            n_cand += w
                .kernels
                .within(&w.pos[j..end], j as u32, b.pos, look_max2, k as u32, out);
            j = end;
            if j >= e {
                r += 1;
                j = runs[r].0 as usize;
            }
        }
        // Only the candidates that can change the decision are visited (see `cull`), in
        // query order.
        for chunk in cand[..n_cand].chunks(CULL_LANES) {
            let mut keep = (1u32 << chunk.len()) - 1;
            #[cfg(target_arch = "x86_64")]
            if cull {
                // SAFETY: `Kernels::detect` found AVX2 (at either level).
                let (k, near) = unsafe { survivors_avx2(&me, w.bodies, chunk) };
                keep = k;
                nearest_culled = nearest_culled.min(near);
            }
            while keep != 0 {
                let i = keep.trailing_zeros() as usize;
                keep &= keep - 1;
                visit(chunk[i] as usize);
            }
        }
        if r >= n_runs {
            break;
        }
    }
    // Holding a swerve: no agent is on a collision course, but the walker it steered away from
    // last step, still coming closer, now passes within two radius sums (the swerve is what
    // clears it): with nobody else close, it keeps its heading instead of turning straight back
    // to its route point — all of it for a miss by one radius sum or less, none at two — and
    // reports that walker as its hit (so it holds on next step). (Turning straight back, two
    // agents meeting head on each saw the other clear once it had swerved, both turned back
    // at their full rate, met again, and swerved again: ±36° a step for 1.5 s.)
    if b.last_hit != u32::MAX && min_t == f32::INFINITY && n_close == 0 && fwd.dot(g) > 0.0 {
        if let Some((share, hit)) = near_miss(w, b, look, g, v_i, horizon) {
            dir = g.lerp(fwd, share);
            d.hit = hit;
        }
    }
    // Every agent not visited is beyond look + max_radius, a gap of at least fov_range.
    let nearest2 = nearest2.min(nearest_culled);
    d.clearance = (nearest2.sqrt() - b.radius - w.max_radius)
        .min(b.fov_range)
        .max(0.0);

    // Settling needs two such neighbours (or one right at the goal, or one it has been
    // blocked against for a step): a stream arriving in single file then wraps round the first
    // arrivals into a blob instead of stopping nose to tail in a line that grows back along
    // its own way (and, through a door, plugs it).
    if settle_by >= 2 || (settle_by == 1 && (settle_near || b.blocked || b.recheck)) {
        d.arrived = true;
        d.settled_at = goal_dist;
        d.hit = HitOut::default();
        return d;
    }

    // On the final leg the agent brakes to a stop at its target, so an obstacle its walk line
    // meets only beyond the target is never reached: the ray stops there. (Looking the full
    // range, a box just past a goal pushed back and sideways as hard as the goal pulled, and
    // an agent hemmed in by a second box turned on the spot short of its goal for good:
    // SteerSuite `forest`, seed 4.) Likewise at a turn right ahead (a route point within
    // `TURN_NEAR` radii): what the walk line meets beyond it lies past the turn. (Looking the
    // full range, an agent beside the mouth of a passage barely wider than itself, aiming
    // along the wall at the mouth's middle, saw the mouth's far corner and was pushed back
    // into the near one, for good.)
    //
    // On the final leg the ray stops short of the target by the arrival radius: the agent
    // arrives once its centre is that near, so an obstacle beside the target that the disc
    // would touch only closer in is never in its way. (Looking up to the target, an agent whose
    // target lay closer to a box than its radius was held off the box short of its arrival
    // circle, blocked, for good.) It still looks a sliver ahead, so that an obstacle the agent
    // touches is hit (see `at_best` below).
    let reach_s = if b.final_leg {
        b.fov_range
            .min((dist - b.arrival_radius).max(AT_BEST_SLACK * b.radius))
    } else if dist < TURN_NEAR * b.radius {
        b.fov_range.min(dist)
    } else {
        b.fov_range
    };
    // Whether the agent is as near its target as it gets: the target lies inside an obstacle,
    // or closer to one than the radius less the arrival radius, so that no disc of the agent's
    // radius comes within the arrival radius of it, and the agent is within the arrival radius
    // of the nearest point it can reach (it has arrived there).
    let mut at_best = false;
    // On its final leg: whether it walks into an obstacle whose surface lies within its radius
    // and arrival radius of the target (see the crack rule below the obstacles).
    let mut pressed = false;
    // Every obstacle not listed lies farther than `look` (the query covers that square).
    let mut obstacle_gap = look;
    let mut gap_nan = false;
    // Each listed obstacle is sieved through its bounding circle (the bound on its distance;
    // whether the walk line can reach it: the ray below can only hit inside the circle grown
    // by the radius, up to `reach_s`); only those it can reach go on.
    let sieve_me = SieveLooker {
        pos: b.pos,
        radius: b.radius,
        look,
        g,
        reach: reach_s * (1.0 + 1e-5) + 1e-5,
    };
    let mut reach = |oi: usize| {
        // Listed obstacles exist (the lists skip removed ones).
        let Some(shape) = &w.shapes[oi] else {
            return;
        };
        let c = shape.contact(b.pos);
        let gap = c.distance - b.radius;
        if gap > b.fov_range {
            return;
        }
        if gap > 0.0 {
            let to_c = c.point - b.pos;
            if fwd.dot(to_c).max(g.dot(to_c)) < to_c.length() * b.cos_half_fov {
                return;
            }
        }
        let Some((s, n)) = shape.ray(b.pos, g, b.radius, reach_s) else {
            return;
        };
        if s == 0.0 && g.dot(n) >= 0.0 {
            return; // touching but walking away
        }
        // On the final leg: the nearest a disc of its radius gets to a target `depth` inside
        // this shape's surface (< 0: outside) is `best` from it.
        // (Only for a target within the radius and the arrival radius of the shape's bounding
        // circle: farther, `best` is below −arrival radius, and neither rule below applies.)
        let ring = &w.rings[oi];
        let near_target = (ring.bound + b.radius + b.arrival_radius) * (1.0 + 1e-5) + 1e-5;
        let (best, target_normal) = if b.final_leg
            && (b.target - ring.center).length_squared() < near_target * near_target
        {
            let ct = shape.contact(b.target);
            (b.radius - ct.distance, ct.normal)
        } else {
            (f32::NEG_INFINITY, Vec2::ZERO)
        };
        pressed |= best > -b.arrival_radius && s <= AT_BEST_SLACK * b.radius;
        if best > b.arrival_radius - AT_BEST_SLACK * b.radius && s >= dist - best - b.arrival_radius
        {
            // It cannot come within its arrival radius of the target for this shape (to within
            // the skin the projection leaves and rounding); within the arrival radius of the
            // nearest it can get will do: a hit that near the target is where the agent
            // arrives (now, when it is that near already), not something to avoid.
            at_best |= goal_dist <= best + b.arrival_radius;
            return;
        }
        if best > b.arrival_radius - AT_BEST_SLACK * b.radius
            && s <= AT_BEST_SLACK * b.radius
            && (b.blocked || b.recheck)
        {
            // Pressed against the shape that keeps it from such a target, and blocked last
            // step: the nearer places are taken (a crowd sent to a point inside a box rings
            // the box), so it arrives here, and those behind it settle against it.
            at_best = true;
            return;
        }
        let t = s / v_pref.max(0.05);
        // Slide along the surface toward the target when the target lies within the radius
        // and the arrival radius of this shape, off the side hit (the agent arrives beside
        // it); walking straight at a target no disc of its radius comes within the arrival
        // radius of (inside the shape, or that near it), hitting another side: the shorter way
        // round the shape to the point of its surface nearest the target (`Shape::way_round`),
        // where the agent gets as near as it gets, if it fits there (`nearest_open`: that side
        // of a box may lie inside a second obstacle overlapping it, whose notch with the first
        // the way round then led into, for good; a planned route's last stretch, searched by
        // the planner, already ends on that side); walking straight at a target a disc can
        // reach beside it, on the way it slid along it last step (see *Keep sliding*); the way
        // the route goes when it clearly goes one way; else, walking into it, toward its
        // nearer edge (stable while sliding: the agent moves toward that edge); dead centre
        // goes right.
        // (Sliding toward the nearer edge, an agent meeting at a slant a box its target stood
        // beside was held off short of its arrival circle, for good; sliding toward a target
        // off another side, it stopped where the target lay straight behind the side it hit.
        // Sliding toward the nearer edge, an agent sent to a point inside a box, hitting a
        // side away from it, went round the long way and pressed on the box wherever it was
        // blocked; or, with an agent arrived at the nearer corner in its way, turned to and
        // fro there for good: the speed benchmark's scene walking straight, 2 800 agents.)
        let tan0 = right_of(n);
        let hit_at = b.pos + g * s;
        let off = tan0.dot(hit_at - shape.center);
        let follow = tan0.dot(g);
        // Walking straight at a target that a disc can reach beside this shape.
        let around = b.direct && best <= b.arrival_radius - AT_BEST_SLACK * b.radius;
        let tan = if best > -b.arrival_radius && target_normal.dot(n) > 0.5 {
            if tan0.dot(b.target - hit_at) >= 0.0 {
                tan0
            } else {
                -tan0
            }
        } else if b.direct
            && best > b.arrival_radius - AT_BEST_SLACK * b.radius
            && nearest_open(shape, b, w.shapes, w.obstacles)
        {
            if tan0.dot(shape.way_round(hit_at, b.target)) >= 0.0 {
                tan0
            } else {
                -tan0
            }
        } else if around
            && b.last_obstacle == oi as u32
            && tan0.dot(b.last_slide).abs() > SLIDE_HOLD
        {
            if tan0.dot(b.last_slide) > 0.0 {
                tan0
            } else {
                -tan0
            }
        } else if (!b.final_leg || around) && follow.abs() > SLIDE_FOLLOW {
            // On a planned or waypoint leg the route knows the way round: follow it. Walking
            // straight at a target it can reach: the way that goes on toward it.
            if follow > 0.0 {
                tan0
            } else {
                -tan0
            }
        } else if off > 1e-3 * b.radius {
            tan0
        } else if off < -1e-3 * b.radius {
            -tan0
        } else if tan0.dot(right_of(g)) >= 0.0 {
            tan0
        } else {
            -tan0
        };
        dir += (n + tan) * (b.repel_force * urgency(t, horizon));
        if t < min_t {
            min_t = t;
            d.hit = HitOut {
                kind: HitKind::Obstacle,
                index: oi as u32,
                point: b.pos + g * s - n * b.radius,
                normal: n,
            };
            d.slide = if tan == tan0 { 1 } else { -1 };
        }
    };
    match w.obstacles.near_list(b.pos, look) {
        Some(list) => sieve(
            &sieve_me,
            w.rings,
            list,
            &mut obstacle_gap,
            &mut gap_nan,
            reach,
        ),
        None => w.obstacles.query(b.pos, look, |oi| {
            let (gap, nan) = (&mut obstacle_gap, &mut gap_nan);
            sieve_index(&sieve_me, w.rings, oi, gap, nan, &mut reach);
        }),
    }

    // A target in a crack: on its final leg, touching two obstacles or more that each lie
    // within its radius and arrival radius of the target, walking into one of them, blocked
    // last step, its centre within a diameter and the arrival radius of the target. Each
    // obstacle alone leaves room to come within the arrival radius (the rules above test one
    // at a time; the one it walks into slides it along into the other); together they do
    // not, so it arrives here, wedged as deep as it gets. (Before, an agent sent to a point in
    // the crack between two boxes of the planned benchmark's scene, seed 10 of 1 200 agents,
    // stood 0.307 m from it, blocked, for good, walking straight or planning, from any side.)
    at_best |= pressed
        && (b.blocked || b.recheck)
        && goal_dist <= 2.0 * b.radius + b.arrival_radius
        && in_crack(b, w.shapes, w.obstacles);
    if at_best {
        d.arrived = true;
        d.settled_at = goal_dist;
        d.hit = HitOut::default();
        return d;
    }

    // Never walk away from the route point: a push that points backward keeps only its
    // sideways part (walk around), and the agent slows by how much of the push was backward.
    let raw = dir.length();
    let along = dir.dot(g);
    let mut block = 1.0;
    // What is left to walk along: the whole direction, or (pushed backward) its sideways part.
    let mut left = raw;
    if along < 0.0 {
        let lat = dir - g * along;
        left = lat.length();
        block = (left / raw.max(1e-6)).clamp(CREEP, 1.0);
        dir = if left > 1e-3 { lat } else { right_of(g) };
    }
    if held_by >= 2 && left < HELD_FRACTION {
        // Held off by arrived agents of its target ahead of it, whose pushes all but cancel
        // the pull to the route point: what is left is too small to steer by (its direction
        // swings with every neighbour that enters or leaves the cone, and the agent turned on
        // the spot at full rate, for good, at a hole in a settled blob). It creeps straight
        // on until it touches them, and settles there.
        dir = g;
        block = CREEP;
    }
    d.obstacle_gap = if gap_nan {
        f32::NEG_INFINITY
    } else {
        obstacle_gap - obstacle_margin(b.pos)
    };
    let want = dir.try_normalize().unwrap_or(fwd);
    d.pref_dir = g;
    let turn_in = TurnIn {
        want,
        yaw: b.yaw,
        max_turn: b.max_turn_rate * w.dt,
    };
    d.want = want;
    d.block = block;
    // Batched only where the lanes run: one by one, the turn is cheapest made right here.
    if n_close <= KEPT && w.kernels.avx2() {
        // The turn's trigonometry is left to `finish_turns`, batched over agents.
        d.pending = true;
        d.yaw = turn_in.yaw;
        // All KEPT entries (those past `n_close` are never read): a fixed-size copy, not a
        // `memcpy` call of a variable length.
        d.close.copy_from_slice(&close[..KEPT]);
        d.n_close = n_close as u8;
        return d;
    }
    let (yaw, heading) = turn(turn_in);
    walk(b, &mut d, yaw, heading, &close[..n_close], w.dt);
    d
}

/// The hold of agent `b` (see `steer`, *Holding a swerve*) for the walker it steered away
/// from last step, which `b` sees (its mask, its reach, its field of view) and did not find on
/// a collision course walking along `g` at `v_i`: the share of its heading to hold — 1 for a
/// miss by one radius sum or less, 0 at two — and the near miss as a hit, or `None`. The walker
/// is read from its agent record (its body, somewhere in the steer's order, holds the same
/// position, velocity, radius, layer and state).
#[inline(never)]
fn near_miss(
    w: &World,
    b: &Body,
    look: f32,
    g: Vec2,
    v_i: Vec2,
    horizon: f32,
) -> Option<(f32, HitOut)> {
    let o = w.agents.get(b.last_hit as usize)?.as_ref()?;
    if matches!(o.state, AgentState::Arrived | AgentState::Invalid) || b.mask & o.layer == 0 {
        return None;
    }
    let x = Vec2::new(o.position.x, o.position.z) - b.pos;
    let d2 = x.length_squared();
    let reach = look + o.radius;
    let r = b.radius + o.radius;
    let dd = d2.sqrt();
    if d2 > reach * reach || dd < r || (dd > r && b.fwd.dot(x).max(g.dot(x)) < dd * b.cos_half_fov)
    {
        return None;
    }
    // Coming closer, and passing clear of the disc of both radii (else the steer pushed).
    let v = v_i - o.velocity;
    let (a, bq) = (v.length_squared(), x.dot(v));
    if bq <= 0.0 || a < 1e-12 || bq * bq - a * (d2 - r * r) > 0.0 {
        return None;
    }
    let ts = bq / a;
    let miss = (d2 - bq * ts).max(0.0).sqrt();
    if miss >= 2.0 * r || ts >= horizon {
        return None;
    }
    let n = (v * ts - x).try_normalize().unwrap_or(-x / dd);
    let hit = HitOut {
        kind: HitKind::Agent,
        index: b.last_hit,
        point: b.pos + v_i * ts - n * (miss - o.radius),
        normal: n,
    };
    Some((((2.0 * r - miss) / r).min(1.0), hit))
}

/// The end of a steer decision (its `want`, `block` and `pref_speed` set) once its turn is
/// made: the new yaw, and the velocity along the new heading.
#[inline]
fn walk(b: &Body, d: &mut Decision, yaw: f32, heading: Vec2, close: &[(Vec2, f32)], dt: f32) {
    d.yaw = yaw;
    d.heading = heading;
    let v_pref = d.pref_speed;
    let align = heading.dot(d.want).max(0.0);
    let mut speed = v_pref * align * d.block;
    // Do not walk into someone ahead: keep half the gap for them to move.
    let mut gap = f32::INFINITY;
    // Branch-free: a neighbour not in the way contributes +∞.
    for &(x, r) in close {
        let ahead = heading.dot(x);
        let lat2 = x.length_squared() - ahead * ahead;
        let in_way = (ahead > 0.0) & (lat2 < r * r);
        let at = ahead - (r * r - lat2).max(0.0).sqrt();
        gap = gap.min(pick32(in_way, at, f32::INFINITY));
    }
    // A quarter of the speed always remains, so a jam keeps sliding instead of freezing.
    // Pressed against someone ahead (a crush), it creeps at 40 % of that.
    let creep = if gap > 0.0 { CREEP } else { 0.4 * CREEP };
    speed = speed.min(((0.5 * gap).max(0.0) / dt).max(creep * v_pref));
    if b.final_leg {
        speed = speed.min(b.pos.distance(b.target) / dt);
    }
    d.vel = heading * speed;
    d.pending = false;
}

/// Makes the turns and walks [`steer`] left pending, [`TURN_LANES`] decisions at a time
/// (`decisions[k]` is `bodies[k]`'s). Same bits as finishing each in `steer`. Only the lane
/// builds (AVX2, AVX-512) leave turns pending.
pub(crate) fn finish_turns(bodies: &[Body], decisions: &mut [Decision], dt: f32, kernels: Kernels) {
    if !kernels.avx2() {
        return;
    }
    let mut at = [0usize; TURN_LANES];
    let mut input = [TurnIn::default(); TURN_LANES];
    let mut n = 0;
    for k in 0..decisions.len() {
        let d = &decisions[k];
        if !d.pending {
            continue;
        }
        at[n] = k;
        input[n] = TurnIn {
            want: d.want,
            yaw: d.yaw,
            max_turn: bodies[k].max_turn_rate * dt,
        };
        n += 1;
        if n == TURN_LANES {
            finish_batch(bodies, decisions, &at, &input, dt, kernels);
            n = 0;
        }
    }
    finish_batch(bodies, decisions, &at[..n], &input[..n], dt, kernels);
}

/// One batch of [`finish_turns`]: the turns of `input` (pending decisions `at`), then their
/// walks.
fn finish_batch(
    bodies: &[Body],
    decisions: &mut [Decision],
    at: &[usize],
    input: &[TurnIn],
    dt: f32,
    kernels: Kernels,
) {
    let mut out = [(0.0f32, Vec2::ZERO); TURN_LANES];
    turn_lanes(input, kernels, &mut out);
    for (&k, &(yaw, heading)) in at.iter().zip(&out) {
        let d = &mut decisions[k];
        let close = d.close;
        walk(
            &bodies[k],
            d,
            yaw,
            heading,
            &close[..d.n_close as usize],
            dt,
        );
    }
}

/// Whether the agent of body `b` fits beside `shape` where it comes nearest its target (the
/// disc at the surface point nearest the target, out along the normal there): no other
/// obstacle overlaps it (to within [`AT_BEST_SLACK`] radii). Out of line: only an agent on its
/// final leg, walking into a shape it cannot come within its arrival radius of the target
/// beside, asks.
#[cold]
#[inline(never)]
fn nearest_open(shape: &Shape, b: &Body, shapes: &[Option<Shape>], grid: &ObstacleGrid) -> bool {
    let ct = shape.contact(b.target);
    let at = ct.point + ct.normal * b.radius;
    clear_of_obstacles(at, b.radius * (1.0 - AT_BEST_SLACK), shapes, grid)
}

/// Whether the agent of body `b` touches two obstacles or more (to within [`AT_BEST_SLACK`]
/// radii) whose surfaces lie within its radius and arrival radius of its target. Out of line:
/// only an agent on its final leg, blocked walking into such an obstacle, asks.
#[cold]
#[inline(never)]
fn in_crack(b: &Body, shapes: &[Option<Shape>], grid: &ObstacleGrid) -> bool {
    let (touch, beside) = (
        b.radius * (1.0 + AT_BEST_SLACK),
        b.radius + b.arrival_radius,
    );
    let near_target = |s: &Shape| s.contact(b.target).distance < beside;
    count_within(b.pos, touch, shapes, grid, near_target) >= 2
}
