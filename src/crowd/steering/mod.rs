//! The per-agent rules of one step, each a pure function of a read-only snapshot so agents can
//! be computed in any order, on any number of threads, with the same bits.
//!
//! **Steer** (the seed's rule, made to scale and to resolve): the agent wants to walk along g
//! (unit, toward its route point) at its preferred speed v. For every agent or obstacle in its
//! field of view (inside `fov_range` of its edge and within `fov_half_angle` of its forward or of
//! its route direction — so what blocks the way stays seen while turning — or touching it) it casts
//! a ray — for agents, the relative motion x(t) = (p_j − p_i) − (v g − v_j) t against the disc of
//! radius r_i + r_j; for obstacles, the ray p_i + g s against the obstacle grown by r_i, up to
//! `fov_range` (no farther than the route point on the final leg, where the agent stops, and at a
//! turn right ahead, a route point within [`TURN_NEAR`] radii) — and takes the hit time t and the
//! hit normal n. The walking direction becomes
//!
//! d = g + Σ repel_force · u(t) · w · (n + b),  u(t) = (1 − t / T)²,  T = fov_range / speed,
//!
//! where w is the priority share (1 for equals, 1.5 when the other has the right of way, 0.5
//! when this one has it by priority, and no push at all when it has it as the one ahead of
//! equals on the last stretch to the same target; see *Right of way*) and b is a
//! deterministic side bias: for agents, 0.35 × the right-hand perpendicular of the relative
//! motion (head-on pairs both step right and pass; a perfectly symmetric circle turns into a
//! roundabout instead of deadlocking); for obstacles, the tangent of the surface toward the
//! obstacle's nearer edge (ties: right; on a planned or waypoint leg, the way the route goes
//! when it clearly goes one way), so agents slide around walls instead of stopping at them.
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
//! **Give way** (planned agents, decided with the route in `Crowd::route`): two agents that touch,
//! each standing right in the other's way to its route point and its most urgent hit, one of them
//! making no headway (a head-on block, which in a passage one agent wide neither the side bias nor
//! pushing resolves), are parted by one of them giving way for 4 s: the lower priority (of equals,
//! the later slot; an agent that does not plan its route cannot, so the other does) routes round
//! the spot where the other stood, or, with no way round, backs off from it. A planned agent
//! blocked against the same agent for `PATIENCE` (4 s), that one on a way at least 60° off its own
//! (a knot of crossing flows), gives way so too.
//!
//! **Project**: after moving, overlapping agents are pushed apart (Jacobi iterations; each pair
//! split 50/50 between equals, 90/10 when one is lower by priority, or of equal priorities is
//! bound for the goal the other has left), then every agent is pushed out of every obstacle it
//! entered.
//!
//! **Right of way** (`outranks`, the steer's share w): the higher priority; of equal priorities
//! contending for one goal, who came to it first: an agent that already left that goal of its queue
//! (see [`goals`](super::goals)) over those on the last stretch to it, and of two on the last
//! stretch to it, the one with less of its way left (to its route point, then straight on to the
//! goal). The last stretch: the goal in sight (the final leg), or, for a planned agent, the few
//! cells round the goal where the planner searches the way in (see `Planner::approach`): in a field
//! of pillars that hide the goal, the ring round it contends too, and only so near is the way left
//! a measure of who is ahead (at a door far from the goal it is not). Between equals the right of
//! way is whole: its holder does not steer for the other at all; the other steers for both (w =
//! 1.5), and the holder still brakes for a walker right in its way. (A priority keeps both
//! steering, 0.5 and 1.5: each stays the other's hit, so that of two blocked head on in a passage
//! one agent wide the lower one gives way, see *Give way*.) One rule for every shared goal: a crowd
//! pressing into one point lets its front in instead of pressing symmetrically round the empty
//! point, and lets out those leaving it for goals beyond. Measured with `examples/shared_goal`
//! (agents of radius 0.3 m at 1.3 m/s, arrival radius 0.25 m, leaving at their last goal): 100
//! agents on a 20 m ring sent to its centre all leave there in 100 s (186 s without the rule; 113 s
//! when the holder still took half a push); 100 agents in ten files passing one point to goals
//! 15–27 m beyond it all arrive in 255 s (338 s with half a push), where without the rule 17 had
//! after 300 s and the rest stood blocked round the point. SteerSuite `bottleneck-squeeze` (1 000
//! agents through a 4.2 m corridor to one point, where they leave): the point let in 1.27 agents a
//! second, against 1.05 when the holder took half a push and the crowd milled round the point.

use glam::Vec2;

use super::agent::{right_of, Agent, HitKind};
use super::grid::{AgentGrid, ObstacleGrid};
use super::kernels::Kernels;
use super::obstacle::Shape;
use super::sieve::Ring;
use super::turn::{turn, turn_lanes, TurnIn, LANES as TURN_LANES};

mod agents;
mod obstacles;

use agents::{near_miss, Met};
use obstacles::Clear;

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
    /// It is on the last stretch to its target: on the final leg, or taking it by the
    /// planner's approach (its target not in sight, its goal's block a few cells away). Only
    /// there does it contend for its target (see `outranks`).
    pub last_stretch: bool,
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
    /// A key of its target's ground point ([`goal_key`]).
    pub target_key: u32,
    /// A key of the goal of its queue it last left (0: none; see [`separation`]).
    ///
    /// [`separation`]: super::projection::separation
    pub passed_key: u32,
}

const _: () = assert!(core::mem::size_of::<Moved>() == 64);

/// A 32-bit key of a goal's ground point, for the projection's record (0: none, for NaN): the
/// bits of x and of z, rotated, mixed. Two distinct goals sharing a key only split a push as
/// if one agent had left the other's goal.
#[inline]
pub(crate) fn goal_key(p: Vec2) -> u32 {
    if p.is_nan() {
        return 0;
    }
    (p.x.to_bits() ^ p.y.to_bits().rotate_left(16)).max(1)
}

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

/// What a steer aims at, shared by its passes: the distance to the target, the route point's
/// distance and direction `g`, the preferred speed, the look-ahead horizon (seconds) and
/// reach (metres), and the preferred velocity.
#[derive(Clone, Copy)]
struct Aim {
    goal_dist: f32,
    dist: f32,
    g: Vec2,
    v_pref: f32,
    horizon: f32,
    look: f32,
    v_i: Vec2,
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
    let aim = Aim {
        goal_dist,
        dist,
        g,
        v_pref,
        horizon,
        look,
        v_i,
    };
    let Met {
        settle_by,
        settle_near,
        held_by,
        close,
        n_close,
        nearest2,
        nearest_culled,
    } = agents::meet(w, k, &aim, &mut dir, &mut min_t, &mut d);
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

    let Clear {
        at_best,
        obstacle_gap,
        gap_nan,
    } = obstacles::meet(w, k, &aim, &mut dir, &mut min_t, &mut d);
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
