//! Sweep: stops fast bodies (farther than their radius in a sub-step) before they can pass
//! through one another between two sub-steps (see `Crowd::sweep` for the model).

use crate::crowd::grid::AgentGrid;
use crate::crowd::Crowd;

/// Most rounds of the sweep that stops agents faster than their radius per sub-step before
/// they can pass through another (see `Crowd::sweep`).
const SWEEP_ROUNDS: usize = 4;

/// The sweep's scratch: the bodies (steer order) that move farther than their radius this
/// sub-step, and the stops of one round (body, fraction of its move kept).
#[derive(Clone, Debug, Default)]
pub(crate) struct Sweep {
    fast: Vec<u32>,
    stops: Vec<(u32, f32)>,
}

impl Crowd {
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
    pub(super) fn sweep(&mut self, dt: f32, max_radius: f32, fastest: f32) {
        self.sweep.fast.clear();
        for (s, (b, &p)) in self.sorted.iter().zip(&self.stepped).enumerate() {
            if p.distance_squared(b.pos) > b.radius * b.radius {
                self.sweep.fast.push(s as u32);
            }
        }
        if self.sweep.fast.is_empty() {
            return;
        }
        // Two bodies that can touch during the step start at most both moves and both radii
        // apart. (The steer grid is done with: this grid is over the positions before the
        // step, in steer order; `project` builds its own.)
        let reach = 2.0 * fastest * dt * (1.0 + 1e-4) + 2.0 * max_radius;
        let cell = AgentGrid::cell_for(reach, 2.0 * max_radius);
        self.grid.build(&self.pos, cell);
        for _ in 0..SWEEP_ROUNDS {
            self.sweep.stops.clear();
            let (bodies, stepped, grid) = (&self.sorted, &self.stepped, &self.grid);
            let order = grid.order();
            for &s in &self.sweep.fast {
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
                    self.sweep.stops.push((s, least.max(0.0)));
                }
            }
            if self.sweep.stops.is_empty() {
                break;
            }
            for &(s, t) in &self.sweep.stops {
                let s = s as usize;
                let from = self.sorted[s].pos;
                self.stepped[s] = from + (self.stepped[s] - from) * t;
                self.decisions[s].vel *= t;
            }
        }
    }
}
