//! The overlap guard: agents that a dense crush would leave overlapping by more than
//! [`OVERLAP_GUARD`] × the smaller radius, having overlapped by at most that before the step,
//! are put back where they were (see `Crowd::guard`).

use crate::crowd::grid::AgentGrid;
use crate::crowd::projection::clear_of_obstacles;
use crate::crowd::Crowd;

/// The guard after the projection: two agents that overlapped by at most this fraction of the
/// smaller radius before a step end it overlapping by at most as much.
pub const OVERLAP_GUARD: f32 = 0.02;

/// The guard's scratch: the agents to check next and one agent's offending neighbours.
#[derive(Clone, Debug)]
pub(crate) struct Guard {
    pub(super) next: Vec<u32>,
    found: Vec<u32>,
}

impl Guard {
    /// Room for a crowd of `capacity` agents.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self {
            next: Vec::with_capacity(2 * capacity),
            found: Vec::with_capacity(64),
        }
    }

    /// Room for `capacity` agents (after the crowd grew).
    pub(crate) fn grow(&mut self, capacity: usize) {
        self.next
            .reserve((2 * capacity).saturating_sub(self.next.len()));
    }
}

impl Crowd {
    /// The overlap guard, after the projection (which a dense crush can leave unconverged):
    /// two agents that would end the step overlapping by more than `g` = [`OVERLAP_GUARD`] ×
    /// the smaller radius, having overlapped by at most `g` before it, are put back where they
    /// were (velocity zero). Their old places may now overlap others that moved, so the
    /// check repeats from the agents put back until none is found; each agent is put back at
    /// most once, and the positions before the step are the fixed point. Hence agents that
    /// start apart never overlap by more than `g`. Pairs placed deeper (spawned or moved
    /// into each other) are left to the projection, which separates them over a few steps;
    /// freezing them would freeze a crowd spawned packed. Serial, in body order: same bits
    /// for any thread count. `self.guard.next` holds the agents to check first, `self.finals` the
    /// final and old positions.
    ///
    /// `slack` bounds the distance of every final and old position from where the grid
    /// binned its body; past what the grid's cells cover, the grid is rebuilt over the final
    /// positions.
    pub(super) fn guard(&mut self, max_radius: f32, slack: f32) {
        if self.guard.next.is_empty() {
            return;
        }
        let fits = AgentGrid::cell_for(2.0 * max_radius + slack, 5.0 * max_radius);
        // (`slack` is never NaN: `f32::max` drops the NaN distances of non-finite positions.)
        let remap = fits > 5.0 * max_radius;
        let mut reach = max_radius + slack;
        if remap {
            let far = self
                .finals
                .iter()
                .map(|f| f.pos.distance(f.old))
                .filter(|d| d.is_finite())
                .fold(0.0f32, f32::max);
            let cell = AgentGrid::cell_for(2.0 * max_radius + far, 5.0 * max_radius);
            self.pos.clear();
            self.pos.extend(self.finals.iter().map(|f| f.pos));
            self.grid.build(&self.pos, cell);
            reach = max_radius + far;
        }
        let mut i = 0;
        while i < self.guard.next.len() {
            let k = self.guard.next[i] as usize;
            i += 1;
            let b = &self.bodies[k];
            let (pk, ok) = (self.finals[k].pos, self.finals[k].old);
            let found = &mut self.guard.found;
            found.clear();
            let (bodies, finals) = (&self.bodies, &self.finals);
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
                let d2 = pk.distance_squared(finals[j].pos);
                // (NaN positions are left alone.)
                if d2.is_nan() || d2 >= r * r {
                    return;
                }
                let now = r - d2.sqrt();
                let before = r - ok.distance(finals[j].old);
                let guard = OVERLAP_GUARD * b.radius.min(o.radius);
                if now > guard && before <= guard {
                    found.push(j as u32);
                }
            });
            if self.guard.found.is_empty() {
                continue;
            }
            self.guard.found.push(k as u32);
            for f in 0..self.guard.found.len() {
                let m = self.guard.found[f] as usize;
                let fm = &mut self.finals[m];
                if fm.reverted
                    || !clear_of_obstacles(
                        fm.old,
                        self.bodies[m].radius,
                        &self.shapes,
                        &self.obstacle_grid,
                    )
                {
                    continue;
                }
                fm.reverted = true;
                fm.pos = fm.old;
                self.guard.next.push(m as u32);
            }
        }
    }
}
