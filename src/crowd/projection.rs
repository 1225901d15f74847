//! The projection's rules, pure functions of a read-only snapshot like the steer's: agents
//! pushed out of each other ([`separation`]: each overlapping pair split by priority and by
//! who left a goal the other is bound for, averaged with relaxation
//! [`PROJECTION_RELAXATION`]) and out of obstacles ([`push_out`]), a fast
//! agent's path stopped where it first touches an obstacle ([`tunnel_stop`]), and the obstacle
//! distance queries the step's phases share.

use glam::Vec2;

use super::grid::{AgentGrid, ObstacleGrid};
use super::kernels::Kernels;
use super::obstacle::Shape;
use super::scan::LANES;
use super::steering::{Moved, PROJECTION_RELAXATION, PUSH_SKIN};

/// Overlap correction of `bodies[k]` against every agent it collides with (read-only). Each
/// pair's overlap is split 50/50 between equals and 90/10 otherwise: the walker takes 90 %
/// against an arrived agent, the lower priority against the higher, and of equal priorities
/// the agent bound for a goal against one that left that goal of its queue (keys in the
/// records, [`goal_key`](super::steering::goal_key)). Those leaving a goal push their way out
/// through those pressing in to it: at a door, a crowd both ways otherwise presses into a
/// knot neither side can step back from.
#[inline]
pub(crate) fn separation(
    bodies: &[Moved],
    pos: &[Vec2],
    grid: &AgentGrid,
    max_radius: f32,
    k: usize,
    kernels: Kernels,
    mut overlapping: impl FnMut(usize),
) -> (Vec2, bool) {
    let b = &bodies[k];
    let mut corr = Vec2::ZERO;
    let mut count = 0.0f32;
    let reach = b.radius + max_radius;
    let mut pair = |j: usize| {
        let x = b.pos - pos[j];
        let d2 = x.length_squared();
        if d2 >= reach * reach || j == k {
            return;
        }
        let o = &bodies[j];
        if b.mask & o.layer == 0 && o.mask & b.layer == 0 {
            return;
        }
        let r = b.radius + o.radius;
        if d2 >= r * r {
            return;
        }
        let dd = d2.sqrt();
        let n = if dd > 1e-6 {
            x / dd
        } else {
            // Coincident: a fixed direction from the slot order.
            let a = (b.slot.wrapping_mul(2_654_435_761) >> 8) as f32 * 3.7e-7;
            let n = Vec2::new(a.cos(), a.sin());
            if b.slot < o.slot {
                n
            } else {
                -n
            }
        };
        let share = if b.arrived != o.arrived {
            if b.arrived {
                0.9
            } else {
                0.1
            }
        } else if b.priority < o.priority {
            0.9
        } else if b.priority > o.priority {
            0.1
        } else if b.passed_key != 0 && b.passed_key == o.target_key {
            // `b` left the goal `o` is bound for.
            0.1
        } else if o.passed_key != 0 && o.passed_key == b.target_key {
            0.9
        } else {
            0.5
        };
        corr += n * ((r - dd) * share);
        count += 1.0;
        overlapping(j);
    };
    // The query's runs are scanned LANES positions at a time on the contiguous positions
    // (branch-free), in order; only those within reach reach `pair`, which tests them again
    // exactly (the scan keeps d² = reach² too).
    let mut near = [0u32; LANES];
    grid.query_runs(b.pos, reach, |run| {
        let mut j = run.start;
        while j < run.end {
            let end = run.end.min(j + LANES);
            let n = kernels.within(
                &pos[j..end],
                j as u32,
                b.pos,
                reach * reach,
                k as u32,
                &mut near,
            );
            for &i in &near[..n] {
                pair(i as usize);
            }
            j = end;
        }
    });
    // Averaged (Jacobi with relaxation): a crowded agent does not overshoot.
    let corr = if count > 1.0 {
        corr * (PROJECTION_RELAXATION / count).min(1.0)
    } else {
        corr
    };
    (corr, count > 0.0)
}

/// Pushes `p` (radius `r`) out of every obstacle near it (up to three rounds, each pushing out
/// of everything it overlaps at once). Returns the new position and whether it is clear: the
/// last round found no overlap, so `push_out` of the result returns it unchanged.
#[inline]
pub(crate) fn push_out(
    p: Vec2,
    r: f32,
    shapes: &[Option<Shape>],
    grid: &ObstacleGrid,
) -> (Vec2, bool) {
    let mut p = p;
    for _ in 0..3 {
        let mut moved = false;
        let q = p;
        let mut acc = Vec2::ZERO;
        grid.query_near(q, r, |oi| {
            if let Some(s) = &shapes[oi] {
                let reach = r + s.bounding_radius();
                if (q + acc).distance_squared(s.center) >= reach * reach {
                    return;
                }
                // (The distance alone first: most obstacles near a disc do not touch it, and
                // their normals are not needed.)
                if s.distance(q + acc) < r {
                    let c = s.contact(q + acc);
                    acc += c.normal * (r * (1.0 + PUSH_SKIN) - c.distance);
                    moved = true;
                }
            }
        });
        if !moved {
            return (p, true);
        }
        p = q + acc;
    }
    (p, false)
}

/// Where a disc of radius `r` whose centre moved from `from` to `to` stops when that path
/// crosses an obstacle it started outside of (a fast agent would come out on the far side of a
/// thin wall: it tunnelled): the first point of the path where the disc touches any obstacle.
/// `None` when the path crosses none.
pub(crate) fn tunnel_stop(
    from: Vec2,
    to: Vec2,
    r: f32,
    shapes: &[Option<Shape>],
    grid: &ObstacleGrid,
) -> Option<Vec2> {
    let d = to - from;
    let len = d.length();
    if len.is_nan() || len <= 0.0 {
        return None;
    }
    let (mid, half) = (from + 0.5 * d, 0.5 * len + r);
    let mut crossed = false;
    grid.query_near(mid, half, |oi| {
        if let Some(s) = &shapes[oi] {
            crossed |= s.segment_distance(from, to) <= 0.0 && s.distance(from) > 0.0;
        }
    });
    if !crossed {
        return None;
    }
    let dir = d / len;
    let mut first = len;
    grid.query_near(mid, half, |oi| {
        if let Some((s, _)) = shapes[oi].as_ref().and_then(|s| s.ray(from, dir, r, len)) {
            first = first.min(s);
        }
    });
    Some(from + dir * first)
}

/// Whether a disc of radius `r` at `p` overlaps no obstacle.
pub(crate) fn clear_of_obstacles(
    p: Vec2,
    r: f32,
    shapes: &[Option<Shape>],
    grid: &ObstacleGrid,
) -> bool {
    let mut clear = true;
    grid.query_near(p, r, |oi| {
        if let Some(s) = &shapes[oi] {
            clear &= s.distance(p) >= r;
        }
    });
    clear
}

/// How many obstacles come within `within` of `p` (their signed distance, as
/// [`obstacle_distance`] measures it).
pub(crate) fn obstacles_within(
    p: Vec2,
    within: f32,
    shapes: &[Option<Shape>],
    grid: &ObstacleGrid,
) -> usize {
    count_within(p, within, shapes, grid, |_| true)
}

/// How many obstacles that `keep` accepts come within `within` of `p` (as
/// [`obstacles_within`]).
pub(crate) fn count_within(
    p: Vec2,
    within: f32,
    shapes: &[Option<Shape>],
    grid: &ObstacleGrid,
    keep: impl Fn(&Shape) -> bool,
) -> usize {
    let mut n = 0;
    grid.query_near(p, within, |oi| {
        if let Some(s) = &shapes[oi] {
            n += usize::from(s.distance(p) <= within && keep(s));
        }
    });
    n
}

/// The distance from `p` to the nearest obstacle surface, capped at `cap` (negative inside
/// an obstacle).
pub(crate) fn obstacle_distance(
    p: Vec2,
    cap: f32,
    shapes: &[Option<Shape>],
    grid: &ObstacleGrid,
) -> f32 {
    let mut d = cap;
    grid.query_near(p, cap, |oi| {
        if let Some(s) = &shapes[oi] {
            d = d.min(s.distance(p));
        }
    });
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crowd::steering::goal_key;

    /// Two agents of equal priority overlapping by 0.1 m along x; `b` bound for `to_b`, having
    /// left `left_b`, and `o` bound for `to_o`, having left `left_o`: `b`'s correction.
    fn split(to_b: Vec2, left_b: Vec2, to_o: Vec2, left_o: Vec2) -> Vec2 {
        let body = |x: f32, slot: u32, to: Vec2, left: Vec2| Moved {
            pos: Vec2::new(x, 0.0),
            radius: 0.3,
            priority: 0.0,
            layer: 1,
            mask: 1,
            slot,
            target_key: goal_key(to),
            passed_key: goal_key(left),
            ..Moved::default()
        };
        let bodies = [body(0.0, 0, to_b, left_b), body(0.5, 1, to_o, left_o)];
        let pos = [bodies[0].pos, bodies[1].pos];
        let mut grid = AgentGrid::with_capacity(2);
        grid.build(&pos, 1.0);
        let (corr, hit) = separation(&bodies, &pos, &grid, 0.3, 0, Kernels::portable(), |_| {});
        assert!(hit);
        corr
    }

    #[test]
    fn an_agent_leaving_a_goal_takes_a_tenth_of_a_push_from_one_bound_for_it() {
        let (room, exit, home) = (Vec2::new(0.0, 8.0), Vec2::new(45.0, 2.0), Vec2::NAN);
        let near = |c: Vec2, want: f32| assert!((c.x + want).abs() < 1e-6, "{c} against {want}");
        // Equals: half each of the 0.1 m overlap.
        near(split(exit, home, room, home), 0.05);
        // `b` left the room the other is bound for: a tenth; bound for it itself: nine.
        near(split(exit, room, room, home), 0.01);
        near(split(room, home, exit, room), 0.09);
        // A goal left that the other is not bound for changes nothing.
        near(split(exit, Vec2::new(3.0, 3.0), room, home), 0.05);
    }

    #[test]
    fn goal_keys_are_zero_only_for_no_goal() {
        assert_eq!(goal_key(Vec2::NAN), 0);
        assert_ne!(goal_key(Vec2::ZERO), 0);
        assert_ne!(goal_key(Vec2::new(0.0, 8.0)), goal_key(Vec2::new(8.0, 0.0)));
    }
}
