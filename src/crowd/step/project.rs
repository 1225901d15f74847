//! Project: the moved bodies are binned in a fine grid (built straight into its cell order),
//! then pushed out of each other (one Jacobi pass, then Gauss-Seidel sweeps over those still
//! touching, until nothing moves more than [`CONVERGED`] × the largest radius) and out of
//! obstacles.

use glam::Vec2;

use crate::crowd::grid::AgentGrid;
use crate::crowd::par::{par_fill, par_update2, prefetch, MIN_LIGHT_PER_THREAD, SCATTER_AHEAD};
use crate::crowd::projection::{push_out, separation};
use crate::crowd::steering::{goal_key, obstacle_margin, Moved};
use crate::crowd::Crowd;

use super::finish::Final;

/// Projection stops once no agent moves more than this fraction of the largest radius.
pub const CONVERGED: f32 = 2e-3;
/// Most serial sweeps over the touching agents per sub-step.
pub const GAUSS_SEIDEL_SWEEPS: usize = 24;

impl Crowd {
    /// Moves the bodies and projects them out of each other and out of obstacles.
    #[inline(never)]
    pub(super) fn project(&mut self, dt: f32, threads: usize, max_radius: f32, fastest: f32) {
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
                    target_key: goal_key(o.target),
                    passed_key: goal_key(o.passed),
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
}
