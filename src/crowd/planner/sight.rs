//! Lines of sight over the clearance grid, and straight slides of an agent's disc.

use super::grid::BLOCK;
use super::Planner;
use glam::DVec2;
use glam::Vec2;

/// Farthest a straight slide is tested, in cells: the first hop and the cells near the agent
/// lie within 10 cells of it when it stands on the grid.
pub(super) const SLIDE_CELLS: f32 = 12.0;

impl Planner {
    /// Whether a disc can slide from `pos` to `to` in a straight line: `fits` at every `step`
    /// metres of the part of the way over the grid grown by a cell (the obstacles, and their
    /// `PLANNER_MARGIN`, lie inside the grid: beyond it every point fits). Only asked of
    /// points a few cells apart (a cell near the agent's, the first cells of its descent, from
    /// the border in for an agent off the grid); a part longer than `SLIDE_CELLS` cells is
    /// answered no, untested. (Sampling the whole way, an agent 1e20 m off the grid took
    /// 1e20 / step samples: fuzz/crowd_ffi and crowd_threads.)
    pub(super) fn slides(
        &self,
        pos: Vec2,
        to: Vec2,
        step: f32,
        fits: &impl Fn(Vec2) -> bool,
    ) -> bool {
        let Some((a, b)) = self.clip(pos, to) else {
            return true;
        };
        let len = a.distance(b);
        if len.is_nan() || len > SLIDE_CELLS * self.cell {
            return false;
        }
        let m = (len / step).ceil().max(1.0) as usize;
        (1..=m).all(|i| fits(a.lerp(b, i as f32 / m as f32)))
    }

    /// True when a disc can slide from `a` to `b`: within 1.5 cells of `a`, where the cell
    /// clearances are too coarse (an agent touching an obstacle stands in a cell whose
    /// clearance is below its radius), `fits` tests the exact disc every `step` metres; farther
    /// on, the clearance grid every half cell.
    pub(super) fn clear_line(
        &self,
        a: Vec2,
        b: Vec2,
        need: f32,
        step: f32,
        fits: &impl Fn(Vec2) -> bool,
    ) -> bool {
        let skip = 1.5 * self.cell;
        let total = a.distance(b);
        let near = skip.min(total);
        if near > 0.0 {
            let dir = (b - a) / total;
            let m = (near / step).ceil().max(1.0) as usize;
            if !(1..=m).all(|i| fits(a + dir * (near * i as f32 / m as f32))) {
                return false;
            }
        }
        // Outside the grid every sample is clear: only the part of the line over the grid is
        // sampled (a line 2e15 long would otherwise take 1e16 samples). A line inside the grid
        // is sampled exactly as before.
        let Some((a2, b2)) = self.clip(a, b) else {
            return true;
        };
        let before = a.distance(a2);
        let len = a2.distance(b2);
        let n = (len / (0.5 * self.cell)).ceil().max(1.0) as usize;
        // Sample i at a2.lerp(b2, i / n) passes when it lies off the grid or its cell's
        // centre clearance is at least `need`. In a block whose least clearance is at least
        // `need`, every sample passes, so those the line is sure to take in the block are
        // skipped: the same answer as taking every sample.
        let blocks = self.nx.div_ceil(BLOCK);
        let mut i = 0;
        while i <= n {
            let f = i as f32 / n as f32;
            if before + f * len < skip {
                i += 1;
                continue;
            }
            let Some((x, z)) = self.column_row(a2.lerp(b2, f)) else {
                i += 1;
                continue;
            };
            if self.clearance[x + z * self.nx] < need {
                return false;
            }
            let (kx, kz) = (x / BLOCK, z / BLOCK);
            i = if self.block_min[kx + kz * blocks] >= need {
                self.last_sample_in_block(a2, b2, n, f, (kx, kz)).max(i) + 1
            } else {
                i + 1
            };
        }
        true
    }

    /// The last sample index `j` (of the `n + 1` at `a.lerp(b, j / n)`) such that every sample
    /// from the one at `f` to `j` certainly lies in block (`kx`, `kz`): the part of the line
    /// that runs at least `margin` inside the block, where `margin` bounds how far f32
    /// rounding can move a sample and its cell lookup (a few ulps of the coordinates, of the
    /// sample's parameter times the length, and of the cell). Below the index at `f` when the
    /// sample at `f` is not that deep inside.
    pub(super) fn last_sample_in_block(
        &self,
        a: Vec2,
        b: Vec2,
        n: usize,
        f: f32,
        (kx, kz): (usize, usize),
    ) -> usize {
        let (a, b, origin) = (a.as_dvec2(), b.as_dvec2(), self.origin.as_dvec2());
        let d = b - a;
        let reach = a.abs().max(b.abs()).max(origin.abs()).max_element();
        let margin = 4e-6 * reach + 2e-7 * d.length() + 0.01 * self.cell as f64;
        let side = (BLOCK as f64) * self.cell as f64;
        let lo = origin + DVec2::new(kx as f64, kz as f64) * side + margin;
        let hi = origin + DVec2::new(kx as f64 + 1.0, kz as f64 + 1.0) * side - margin;
        // Slabs: the parameters where the line is inside both.
        let (mut t0, mut t1) = (f64::NEG_INFINITY, f64::INFINITY);
        for (p, d, lo, hi) in [(a.x, d.x, lo.x, hi.x), (a.y, d.y, lo.y, hi.y)] {
            if d == 0.0 {
                if p < lo || p > hi {
                    return 0;
                }
            } else {
                let (s, t) = ((lo - p) / d, (hi - p) / d);
                t0 = t0.max(s.min(t));
                t1 = t1.min(s.max(t));
            }
        }
        if !(t0 <= f as f64 && f as f64 <= t1) {
            return 0;
        }
        // (Every sample up to here has its parameter at most t1, to within the margin.)
        (t1.min(1.0) * n as f64).floor() as usize
    }

    /// The part of the segment `a → b` over the grid grown by one cell (Liang–Barsky in f64);
    /// `(a, b)` itself when it lies inside, `None` when it misses the grid.
    pub(super) fn clip(&self, a: Vec2, b: Vec2) -> Option<(Vec2, Vec2)> {
        let cell = self.cell as f64;
        let lo = self.origin.as_dvec2() - cell;
        let hi =
            self.origin.as_dvec2() + DVec2::new(self.nx as f64 + 1.0, self.nz as f64 + 1.0) * cell;
        let (p, d) = (a.as_dvec2(), (b.as_dvec2() - a.as_dvec2()));
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for k in 0..2 {
            if d[k] == 0.0 {
                if p[k] < lo[k] || p[k] > hi[k] {
                    return None;
                }
                continue;
            }
            let (u, v) = ((lo[k] - p[k]) / d[k], (hi[k] - p[k]) / d[k]);
            t0 = t0.max(u.min(v));
            t1 = t1.min(u.max(v));
        }
        if t0 > t1 {
            return None;
        }
        let at = |t: f64| (p + d * t).as_vec2();
        Some((
            if t0 > 0.0 { at(t0) } else { a },
            if t1 < 1.0 { at(t1) } else { b },
        ))
    }
}
