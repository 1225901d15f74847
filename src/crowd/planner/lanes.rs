//! Lanes: where two streams meet head on, a planned agent's route point is moved across the way
//! into its right-hand lane.
//!
//! Every agent of one goal descends the same field, so the route points of a stream lie on one
//! shortest line round the corners, and the stream coming the other way takes the same line:
//! they meet head on where people would pass in two lanes.
//!
//! Each sub-step the step counts the *flow* ([`Planner::add_flow`]): per planning cell, the
//! walkers by the way they walk, in eight compass bins 45° apart (so that two walkers crossing
//! one cell head on do not cancel out), each weighted by its speed as a share of its own
//! (at most 1: a jam, jostling where it stands, is hardly a stream). Across the way at the
//! agent and at its route point (out to [`LANE_REACH`] each side, as far as the way is open to
//! it), the flow along the agent's field and against it are
//!
//! with = Σ n_b · max(0, u_b·g),   against = Σ n_b · max(0, −u_b·g)
//!
//! (n_b a cell's walkers in bin b, u_b the bin's direction, g the way down the agent's field
//! at that cell). Walkers of the agent's own stream go down its field wherever they come from
//! (a crowd converging on a door from both sides is one stream); walkers crossing it at a
//! right angle count as neither. The route point moves to the right by w · s, with
//!
//! w = min(1, 2 · against / (against + with)) · min(1, against)
//!
//! (all the way where half the flow or more is against it, and only as far as a whole walker's
//! worth walks against it) and s the shift to three quarters of the room across the way from
//! the left, at most a quarter of the way left to the goal (the lane narrows to nothing at the
//! way's end, so a crowd still closes in on its goal). A stream alone in its way has w = 0 and
//! keeps the whole way (in a crush at a door only the agents shoved back read as a flow
//! against, and move points a little); two streams part in two lanes. A way too narrow for two
//! to pass side by side is one lane and keeps its points.

use super::Planner;
use crate::crowd::agent::right_of;
use glam::Vec2;

/// How far to each side of its aim an agent looks for room and for walkers, metres.
pub(super) const LANE_REACH: f32 = 3.0;

/// The unit directions of the flow's bins, 45° apart from +x counter-clockwise (toward +z).
pub(super) const BINS: [Vec2; 8] = {
    const D: f32 = core::f32::consts::FRAC_1_SQRT_2;
    [
        Vec2::new(1.0, 0.0),
        Vec2::new(D, D),
        Vec2::new(0.0, 1.0),
        Vec2::new(-D, D),
        Vec2::new(-1.0, 0.0),
        Vec2::new(-D, -D),
        Vec2::new(0.0, -1.0),
        Vec2::new(D, -D),
    ]
};

/// The bin of [`BINS`] nearest the direction `h` (by comparisons: the same bits everywhere).
pub(super) fn bin(h: Vec2) -> usize {
    // tan 22.5°: the edges between an axis's bin and a diagonal's.
    const T: f32 = 0.414_213_57;
    let (ax, ay) = (h.x.abs(), h.y.abs());
    match (h.x >= 0.0, h.y >= 0.0) {
        (true, _) if ay <= T * ax => 0,
        (false, _) if ay <= T * ax => 4,
        (_, true) if ax <= T * ay => 2,
        (_, false) if ax <= T * ay => 6,
        (true, true) => 1,
        (false, true) => 3,
        (false, false) => 5,
        (true, false) => 7,
    }
}

/// The flow: per planning cell this sub-step, the walkers in each bin of [`BINS`] (each
/// weighted by its speed as a share of its own), and the cells written.
#[derive(Clone, Debug, Default)]
pub(super) struct Flows {
    sum: Vec<[f32; 8]>,
    touched: Vec<u32>,
}

impl Planner {
    /// Forgets the last sub-step's flow (only the cells it wrote: nothing allocates once the
    /// grid's size is reached).
    pub(crate) fn clear_flows(&mut self) {
        let n = self.nx * self.nz;
        if self.flows.sum.len() != n {
            self.flows.sum.clear();
            self.flows.sum.resize(n, [0.0; 8]);
            self.flows.touched.clear();
            self.flows.touched.reserve(n);
        }
        for &c in &self.flows.touched {
            self.flows.sum[c as usize] = [0.0; 8];
        }
        self.flows.touched.clear();
    }

    /// Adds a walker at `pos` walking at `v`, a share of its speed, to the flow: as much of a
    /// walker as that share (at most 1) in the bin of its way (off the grid, or standing:
    /// nothing).
    pub(crate) fn add_flow(&mut self, pos: Vec2, v: Vec2) {
        let share = v.length().min(1.0);
        let Some((x, z)) = self.column_row(pos).filter(|_| share > 0.0) else {
            return;
        };
        let c = x + z * self.nx;
        // (Listed once: a walker's share is above 0, so its cell is empty only until then.)
        let bins = &mut self.flows.sum[c];
        if *bins == [0.0; 8] {
            self.flows.touched.push(c as u32);
        }
        bins[bin(v)] += share;
    }

    /// The room across the way at `at` to the `side` (a unit vector), metres: how far the
    /// centre clearance stays at least `need`, out to [`LANE_REACH`], in half cells.
    fn room(&self, at: Vec2, side: Vec2, need: f32) -> f32 {
        let h = 0.5 * self.cell;
        let mut d = 0.0;
        while d + h <= LANE_REACH {
            match self.column_row(at + side * (d + h)) {
                Some((x, z)) if self.clearance[x + z * self.nx] < need => break,
                _ => d += h,
            }
        }
        d
    }

    /// The way down the field `dist` at cell `c`, a unit vector (`None` where the cell is not
    /// reached, or flat): minus the gradient, by central differences where both neighbours are
    /// reached, else one-sided.
    fn downhill(&self, dist: &[f32], c: usize) -> Option<Vec2> {
        let here = dist[c];
        if !here.is_finite() {
            return None;
        }
        let at = |dx: i64, dz: i64| self.neighbour(c, dx, dz).map_or(f32::INFINITY, |n| dist[n]);
        let slope = |lo: f32, hi: f32| match (lo.is_finite(), hi.is_finite()) {
            (true, true) => 0.5 * (hi - lo),
            (false, true) => hi - here,
            (true, false) => here - lo,
            (false, false) => 0.0,
        };
        let g = Vec2::new(slope(at(-1, 0), at(1, 0)), slope(at(0, -1), at(0, 1)));
        (-g).try_normalize()
    }

    /// The flow down the field `dist` and up it (`with` and `against` of the module's formula)
    /// over the cells from `at − side·left` to `at + side·right`, a cell apart.
    fn streams(&self, dist: &[f32], at: Vec2, side: Vec2, (left, right): (f32, f32)) -> (f32, f32) {
        let (mut with, mut against) = (0.0, 0.0);
        if self.flows.sum.is_empty() {
            return (with, against);
        }
        let mut d = -left;
        while d <= right {
            if let Some((x, z)) = self.column_row(at + side * d) {
                let c = x + z * self.nx;
                let bins = &self.flows.sum[c];
                // (The way down only where some walker is: most cells across a way are empty.)
                let down = (*bins != [0.0; 8])
                    .then(|| self.downhill(dist, c))
                    .flatten();
                if let Some(down) = down {
                    for (n, u) in bins.iter().zip(BINS) {
                        let c = u.dot(down);
                        with += n * c.max(0.0);
                        against += n * (-c).max(0.0);
                    }
                }
            }
            d += self.cell;
        }
        (with, against)
    }

    /// `aim` moved across the line from `pos` into the right-hand lane as the module describes,
    /// for an agent going down the field `dist`: to the shift, or half of it, whichever the
    /// agent sees first; else `aim`.
    pub(super) fn keep_right(
        &self,
        pos: Vec2,
        aim: Vec2,
        dist: &[f32],
        need: f32,
        step: f32,
        fits: &impl Fn(Vec2) -> bool,
    ) -> Vec2 {
        let Some(dir) = (aim - pos).try_normalize() else {
            return aim;
        };
        let side = right_of(dir);
        let (right, left_room) = (self.room(aim, side, need), self.room(aim, -side, need));
        if right + left_room < 2.0 * need {
            return aim;
        }
        let here = (self.room(pos, -side, need), self.room(pos, side, need));
        let (w0, a0) = self.streams(dist, pos, side, here);
        let (w1, a1) = self.streams(dist, aim, side, (left_room, right));
        let (with, against) = (w0 + w1, a0 + a1);
        if against <= 0.0 {
            return aim;
        }
        // (Times the walkers against it, up to one: the jostling of a jam, walkers a tenth as
        // fast as they would walk, is not a stream.)
        let weight = (2.0 * against / (against + with)).min(1.0) * against.min(1.0);
        // (The way left from the aim, metres: the lane narrows to nothing at its end.)
        let quarter = 0.25 * (dist[self.clamped_cell(aim)] * self.cell).max(0.0);
        let shift = weight * (0.75 * right - 0.25 * left_room).clamp(-quarter, quarter);
        for s in [shift, 0.5 * shift] {
            let p = aim + side * s;
            if s != 0.0 && self.clear_line(pos, p, need, step, fits) {
                return p;
            }
        }
        aim
    }
}
