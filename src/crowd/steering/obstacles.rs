//! The steer's obstacle pass: every obstacle the walk line can reach (sieved through its
//! bounding circle) pushes the walking direction along its hit normal and the tangent the
//! agent slides along ([`slide_way`]); a target no disc of the agent's radius comes within its
//! arrival radius of is met as near as the agent gets (`at_best`), a target in a crack
//! wedged as deep as it gets ([`in_crack`]).

use glam::Vec2;

use crate::crowd::agent::{right_of, HitKind};
use crate::crowd::grid::ObstacleGrid;
use crate::crowd::obstacle::Shape;
use crate::crowd::projection::{clear_of_obstacles, count_within};
use crate::crowd::sieve::{sieve, sieve_index, Looker as SieveLooker};

use super::{
    urgency, Aim, Body, Decision, HitOut, World, AT_BEST_SLACK, SLIDE_FOLLOW, SLIDE_HOLD, TURN_NEAR,
};

/// What the obstacle pass found besides the pushes and the hit it writes: whether the agent
/// is as near its target as it gets, and the gap to the nearest obstacle (`gap_nan`: a
/// distance was NaN).
pub(super) struct Clear {
    pub(super) at_best: bool,
    pub(super) obstacle_gap: f32,
    pub(super) gap_nan: bool,
}

/// The obstacle pass of `bodies[k]` aiming as `aim` says: adds each obstacle's push to `dir`,
/// and writes the most urgent hit (time `min_t`) and the way it slides to `d`.
#[inline(always)]
pub(super) fn meet(
    w: &World,
    k: usize,
    aim: &Aim,
    dir: &mut Vec2,
    min_t: &mut f32,
    d: &mut Decision,
) -> Clear {
    let b = &w.bodies[k];
    let fwd = b.fwd;
    let Aim {
        goal_dist,
        dist,
        g,
        v_pref,
        horizon,
        look,
        ..
    } = *aim;
    let reach_s = ray_reach(b, dist);
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
        let (tan0, tan) = slide_way(w, b, oi, shape, g, (s, n), (best, target_normal));
        *dir += (n + tan) * (b.repel_force * urgency(t, horizon));
        if t < *min_t {
            *min_t = t;
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
    Clear {
        at_best,
        obstacle_gap,
        gap_nan,
    }
}

/// The tangent agent `b` slides along obstacle `oi` (`shape`) that its walk line along `g`
/// hits at `s` with normal `n`, the nearest a disc of its radius gets to its target being
/// `best` from it where the surface normal is `target_normal`: the right-hand tangent of `n`
/// and the one taken (it or its opposite).
#[inline(always)]
fn slide_way(
    w: &World,
    b: &Body,
    oi: usize,
    shape: &Shape,
    g: Vec2,
    (s, n): (f32, Vec2),
    (best, target_normal): (f32, Vec2),
) -> (Vec2, Vec2) {
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
    } else if around && b.last_obstacle == oi as u32 && tan0.dot(b.last_slide).abs() > SLIDE_HOLD {
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
    (tan0, tan)
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
    let near_target = |s: &Shape| s.distance(b.target) < beside;
    count_within(b.pos, touch, shapes, grid, near_target) >= 2
}

/// How far the walk line of agent `b`, its route point `dist` away, looks for obstacles.
///
/// On the final leg the agent brakes to a stop at its target, so an obstacle its walk line
/// meets only beyond the target is never reached: the ray stops there. (Looking the full
/// range, a box just past a goal pushed back and sideways as hard as the goal pulled, and
/// an agent hemmed in by a second box turned on the spot short of its goal for good:
/// SteerSuite `forest`, seed 4.) Likewise at a turn right ahead (a route point within
/// `TURN_NEAR` radii): what the walk line meets beyond it lies past the turn. (Looking the
/// full range, an agent beside the mouth of a passage barely wider than itself, aiming
/// along the wall at the mouth's middle, saw the mouth's far corner and was pushed back
/// into the near one, for good.)
///
/// On the final leg the ray stops short of the target by the arrival radius: the agent
/// arrives once its centre is that near, so an obstacle beside the target that the disc
/// would touch only closer in is never in its way. (Looking up to the target, an agent whose
/// target lay closer to a box than its radius was held off the box short of its arrival
/// circle, blocked, for good.) It still looks a sliver ahead, so that an obstacle the agent
/// touches is hit (see `at_best` in [`meet`]).
#[inline(always)]
fn ray_reach(b: &Body, dist: f32) -> f32 {
    if b.final_leg {
        b.fov_range
            .min((dist - b.arrival_radius).max(AT_BEST_SLACK * b.radius))
    } else if dist < TURN_NEAR * b.radius {
        b.fov_range.min(dist)
    } else {
        b.fov_range
    }
}
