//! Finish: each body's final position (pushed out of obstacles, stopped where its path first
//! meets one, or left where it was when squeezed between obstacles), then the overlap guard
//! over the bodies the projection moved or found touching (see `Crowd::guard`).

use glam::Vec2;

use crate::crowd::grid::ObstacleGrid;
use crate::crowd::obstacle::Shape;
use crate::crowd::par::{par_update, MIN_LIGHT_PER_THREAD};
use crate::crowd::projection::{clear_of_obstacles, push_out, tunnel_stop};
use crate::crowd::steering::{obstacle_margin, Moved};
use crate::crowd::Crowd;

/// Where a body ends the step, in projection order.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Final {
    /// Final position (the guard may put it back to `old`); until `finish`, where the fine
    /// grid binned the body.
    pub(super) pos: Vec2,
    /// Position before the step.
    pub(super) old: Vec2,
    /// How far `pos` or `old` lies from where the fine grid binned the body (NaN when a
    /// position is not finite; the guard's fold skips it).
    pub(super) slack: f32,
    /// The guard checks it: the projection moved it or found it touching.
    pub(super) check: bool,
    /// The guard put it back (its velocity becomes zero).
    pub(super) reverted: bool,
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

impl Crowd {
    /// Final positions, then the overlap guard.
    #[inline(never)]
    pub(super) fn finish(&mut self, threads: usize, max_radius: f32) {
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
        self.guard.next.clear();
        // How far any final or old position lies from where the grid binned its body (the
        // largest in any order: `f32::max` skips NaN).
        let mut slack = 0.0f32;
        for (k, f) in self.finals.iter().enumerate() {
            if f.check {
                self.guard.next.push(k as u32);
            }
            slack = slack.max(f.slack);
        }
        self.guard(max_radius, slack);
    }
}
