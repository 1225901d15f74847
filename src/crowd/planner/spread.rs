//! Dijkstra's algorithm over the open moves of the grid: computing a distance field, and
//! repairing one where obstacles changed.

use super::NEIGHBOURS;
use super::{level, Planner};
use crate::crowd::buckets::Filing;

/// Lays out the start of a field in `dist`: `cells` values, ∞ but at the seeds, each seed
/// handed to `queue(value, cell)`.
pub(super) fn seed(
    dist: &mut Vec<f32>,
    cells: usize,
    seeds: &[(u32, f32)],
    mut queue: impl FnMut(f32, u32),
) {
    dist.clear();
    dist.resize(cells, f32::INFINITY);
    for &(c, d) in seeds {
        dist[c as usize] = d;
        queue(d, c);
    }
}

/// The moves open to one clearance, read from the planner's move clearances (see
/// [`Planner::set_reach`]): bit k of [`Self::at`]`(c)` is set when a field of clearance `pass`
/// spreads from cell c over `NEIGHBOURS[k]` (see `Planner::can_move`; off-grid moves are
/// closed). Nothing is stored per clearance: any radius costs the same.
#[derive(Clone, Copy)]
pub(super) struct OpenMoves<'a> {
    planner: &'a Planner,
    reach_level: &'a [u64],
    point_level: &'a [u8],
    rep_clear: &'a [f32],
    nx: usize,
    nz: usize,
    pass: f32,
    /// `level(pass)`.
    at_level: u8,
}

impl<'a> OpenMoves<'a> {
    /// The moves open to `pass` on `planner`'s grid.
    pub(super) fn new(planner: &'a Planner, pass: f32) -> Self {
        Self {
            planner,
            reach_level: &planner.reach_level,
            point_level: &planner.point_level,
            rep_clear: &planner.rep_clear,
            nx: planner.nx,
            nz: planner.nz,
            pass,
            at_level: level(pass),
        }
    }

    /// The moves open from cell `c`, a bit per move of [`NEIGHBOURS`]. From a cell open to
    /// `pass` (its point's clearance ρ(c) ≥ pass), move k is open when reach(c, k) ≥ pass,
    /// told by the levels ([`level`]) where they differ from the level of `pass` (a byte
    /// compare a move, eight at once), by the exact values where they tie. From a closed cell
    /// (only ever a seed: no open move enters one) a move is open when the neighbour is on the
    /// grid and open, as `can_move` says.
    #[inline(always)]
    pub(super) fn at(&self, c: usize) -> u8 {
        let point = self.point_level[c];
        let open = if point == self.at_level {
            self.rep_clear[c] >= self.pass
        } else {
            point > self.at_level
        };
        if open {
            let (above, tied) = level_bits(self.reach_level[c], self.at_level);
            if tied == 0 {
                return above;
            }
            return above | reach_bits(&self.planner.move_reach(c), self.pass) & tied;
        }
        let (x, z) = ((c % self.nx) as i64, (c / self.nx) as i64);
        let mut bits = 0;
        for (k, &(dx, dz, _)) in NEIGHBOURS.iter().enumerate() {
            let (x, z) = (x + dx, z + dz);
            if x >= 0 && z >= 0 && x < self.nx as i64 && z < self.nz as i64 {
                let n = (x + z * self.nx as i64) as usize;
                bits |= u8::from(self.rep_clear[n] >= self.pass) << k;
            }
        }
        bits
    }
}

/// The bytes of `levels` above `at` and those equal to it, a bit per byte (byte k of the
/// little-endian `levels` is bit k). On x86-64 two SSE2 byte compares.
#[inline(always)]
fn level_bits(levels: u64, at: u8) -> (u8, u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline; register operations only.
        unsafe {
            let v = _mm_cvtsi64_si128(levels as i64);
            let p = _mm_set1_epi8(at as i8);
            let tied = _mm_movemask_epi8(_mm_cmpeq_epi8(v, p)) as u32 & 0xff;
            let least = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, p), v)) as u32 & 0xff;
            ((least & !tied) as u8, tied as u8)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let bytes = levels.to_le_bytes();
        (0..8).fold((0, 0), |(above, tied), k| {
            (
                above | u8::from(bytes[k] > at) << k,
                tied | u8::from(bytes[k] == at) << k,
            )
        })
    }
}

/// Bit k set where `reach[k] ≥ pass` (false for NaN). On x86-64 two SSE compares and masks;
/// elsewhere one at a time, the same bits.
#[inline(always)]
fn reach_bits(reach: &[f32; 8], pass: f32) -> u8 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline; the two unaligned loads read the eight
        // f32 of `reach`.
        unsafe {
            let p = _mm_set1_ps(pass);
            let lo = _mm_cmpge_ps(_mm_loadu_ps(reach.as_ptr()), p);
            let hi = _mm_cmpge_ps(_mm_loadu_ps(reach.as_ptr().add(4)), p);
            (_mm_movemask_ps(lo) | _mm_movemask_ps(hi) << 4) as u8
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    reach_bits_scalar(reach, pass)
}

/// [`reach_bits`] one move at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(super) fn reach_bits_scalar(reach: &[f32; 8], pass: f32) -> u8 {
    (0..8).fold(0, |m, k| m | u8::from(reach[k] >= pass) << k)
}

/// Which of cell `c`'s eight moves (bits in [`NEIGHBOURS`] order) reach a neighbour whose
/// distance `dc` plus the move's length lowers, for a cell whose neighbours and the cell after
/// the upper right one all lie on the grid (`nx < c`, `c + nx + 3 ≤ dist.len()`); closed moves
/// are the caller's to mask. [`lowered_scalar`], one neighbour at a time.
///
/// On x86-64 each row of three neighbours is one SSE2 load and compare (the lane after them is
/// ignored), the same f32 sums and comparisons as one by one; the three rows' masks, 9 bits,
/// pick the moves' bits from a table.
#[inline]
pub(super) fn lowered_inside(dist: &[f32], c: usize, nx: usize, dc: f32) -> u32 {
    debug_assert!(c > nx && c + nx + 3 <= dist.len());
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::*;
        let s2 = core::f32::consts::SQRT_2;
        // SAFETY: SSE2 is part of the x86_64 baseline. Each load reads four f32 from the row
        // below (from c − nx − 1), the cell's row (from c − 1) and the row above (from
        // c + nx − 1); the highest index read is c + nx + 2 < dist.len() and the lowest
        // c − nx − 1 ≥ 0 (the caller's bounds). Unaligned loads.
        unsafe {
            let p = dist.as_ptr();
            let d = _mm_set1_ps(dc);
            // Lanes: dx = −1, 0, +1, (ignored).
            let rows = _mm_add_ps(d, _mm_setr_ps(s2, 1.0, s2, 0.0));
            let mid = _mm_add_ps(d, _mm_setr_ps(1.0, 0.0, 1.0, 0.0));
            let below = _mm_movemask_ps(_mm_cmplt_ps(rows, _mm_loadu_ps(p.add(c - nx - 1))));
            let same = _mm_movemask_ps(_mm_cmplt_ps(mid, _mm_loadu_ps(p.add(c - 1))));
            let above = _mm_movemask_ps(_mm_cmplt_ps(rows, _mm_loadu_ps(p.add(c + nx - 1))));
            let key = (below & 7) | (same & 5) << 3 | (above & 7) << 6;
            u32::from(ROW_MASKS_TO_MOVES[key as usize])
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    lowered_scalar(dist, c, nx, dc)
}

/// [`lowered_inside`] one neighbour at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(super) fn lowered_scalar(dist: &[f32], c: usize, nx: usize, dc: f32) -> u32 {
    NEIGHBOURS
        .iter()
        .enumerate()
        .fold(0, |m, (k, &(dx, dz, w))| {
            let n = (c as i64 + dx + dz * nx as i64) as usize;
            m | u32::from(dc + w < dist[n]) << k
        })
}

/// The moves (bits in [`NEIGHBOURS`] order) of three rows' masks: bits 0–2 the row below
/// (dx = −1, 0, +1), 3–5 the cell's row, 6–8 the row above.
#[cfg(target_arch = "x86_64")]
pub(super) const ROW_MASKS_TO_MOVES: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut key = 0;
    while key < 512 {
        let mut moves = 0u8;
        let mut k = 0;
        while k < 8 {
            let (dx, dz, _) = NEIGHBOURS[k];
            let bit = (dz + 1) * 3 + (dx + 1);
            if key >> bit & 1 != 0 {
                moves |= 1 << k;
            }
            k += 1;
        }
        table[key] = moves;
        key += 1;
    }
    table
};

impl Planner {
    /// Brings `dist`, the field of goal block `goal` for clearance `pass` computed (from
    /// `old_seeds`) before the cells `flipped` changed (each cell whose point or a move it
    /// stores changed between open and closed for `pass`), up to date: the same bits as
    /// [`Self::compute`]. Returns the seeds it starts from now.
    ///
    /// A field is the least fixed point of d(c) = min(seed value of c, min over open moves
    /// n → c of d(n) + w) (f32 sums, each above its summand: the fixed point is the least
    /// path cost, unique, whatever order it is reached in). A cell keeps its value while the
    /// value still comes along a path that avoids every change: the changed cells (and the
    /// seeds, when they changed) are cleared, then, in order of value, every cell that had
    /// its value from a cleared neighbour and from no kept one (nor is a seed of that value).
    /// A kept value is then a path cost (every changed move has an end in a changed cell, so
    /// the kept moves are unchanged). The cleared cells are seeded from their kept neighbours
    /// (and their seed value), and Dijkstra's algorithm runs from them, lowering kept values
    /// where a change opened a shorter way; what it reaches is the fixed point.
    pub(super) fn repair(
        &mut self,
        dist: &mut [f32],
        goal: usize,
        pass: f32,
        flipped: &[u32],
        old_seeds: Vec<(u32, f32)>,
    ) -> Vec<(u32, f32)> {
        let seeds = self.seeds(goal, pass);
        // Clear: the changed cells, the seeds if they changed (a cleared cell is NaN until
        // the seeding below, its value before kept in `cleared`).
        let mut cleared: Vec<(u32, f32)> = Vec::new();
        let clear = |c: u32, dist: &mut [f32], cleared: &mut Vec<(u32, f32)>| {
            let d = &mut dist[c as usize];
            if !d.is_nan() {
                cleared.push((c, *d));
                *d = f32::NAN;
            }
        };
        for &c in flipped {
            clear(c, dist, &mut cleared);
        }
        if seeds != old_seeds {
            for &(c, _) in old_seeds.iter().chain(&seeds) {
                clear(c, dist, &mut cleared);
            }
        }
        // Then each cell whose value may have come through a cleared one and has no other
        // way: no kept neighbour it is that neighbour's value plus the move from, over a move
        // still open, and no seed of that value. Taken in order of value, so every neighbour
        // it could come from (lower) is decided first.
        let seed_top = seeds.iter().fold(0.0f32, |m, &(_, d)| m.max(d));
        let is_seed = |c: usize, d: f32| d <= seed_top && seeds.contains(&(c as u32, d));
        self.queue.clear();
        let mut k = 0;
        loop {
            // Candidates: the neighbours of the cells cleared since the last look.
            while k < cleared.len() {
                let (c, was) = cleared[k];
                k += 1;
                if was == f32::INFINITY {
                    continue;
                }
                for (dx, dz, w) in NEIGHBOURS {
                    let Some(n) = self.neighbour(c as usize, dx, dz) else {
                        continue;
                    };
                    if dist[n] == was + w {
                        self.queue.push(dist[n], n as u32);
                    }
                }
            }
            let Some((_, c)) = self.queue.pop() else {
                break;
            };
            let c = c as usize;
            let d = dist[c];
            if d.is_nan() {
                continue;
            }
            let held = is_seed(c, d)
                || NEIGHBOURS.iter().any(|&(dx, dz, w)| {
                    self.neighbour(c, -dx, -dz)
                        .is_some_and(|n| dist[n] + w == d && self.can_move(n, c, dx, dz, pass))
                });
            if !held {
                clear(c as u32, dist, &mut cleared);
            }
        }
        // Seed the cleared cells from their kept neighbours and their seed values.
        self.queue.clear();
        for &(c, _) in &cleared {
            dist[c as usize] = f32::INFINITY;
        }
        for &(c, d) in &seeds {
            if dist[c as usize] == f32::INFINITY {
                dist[c as usize] = d;
            }
        }
        for &(c, _) in &cleared {
            let c = c as usize;
            let mut best = dist[c];
            for (dx, dz, w) in NEIGHBOURS {
                let Some(n) = self.neighbour(c, dx, dz) else {
                    continue;
                };
                if dist[n] < f32::INFINITY && self.can_move(n, c, -dx, -dz, pass) {
                    best = best.min(dist[n] + w);
                }
            }
            if best < f32::INFINITY {
                dist[c] = best;
                self.queue.push(best, c as u32);
            }
        }
        self.spread(dist, pass, None);
        seeds
    }

    /// Computes into `dist` the field of goal block `goal` for clearance `pass`, every value;
    /// returns its seeds. (The cache begins its fields and runs each as far as it is read:
    /// [`Self::settle`]; this checks repairs in debug builds, and the tests.)
    #[cfg(any(test, debug_assertions))]
    pub(super) fn compute(
        &mut self,
        dist: &mut Vec<f32>,
        goal: usize,
        pass: f32,
    ) -> Vec<(u32, f32)> {
        let seeds = self.seeds(goal, pass);
        self.queue.clear();
        seed(dist, self.nx * self.nz, &seeds, |d, c| {
            self.queue.push(d, c)
        });
        self.spread(dist, pass, None);
        seeds
    }

    /// The moves open to `pass` from cell `c`, a bit per move of `NEIGHBOURS`.
    #[cfg(test)]
    pub(super) fn open_moves(&self, c: usize, pass: f32) -> u8 {
        OpenMoves::new(self, pass).at(c)
    }

    /// Dijkstra's algorithm from the cells in the queue, over the moves open to `pass`, to the
    /// end or, given a cell `until`, until that cell's value is final: it stops before the
    /// first bucket above the cell's value (or at the end, when no value reaches the cell).
    /// Returns the value below which every value in `dist` is final ([`Buckets::floor`]), ∞
    /// when the queue ran empty; the rest of the search is left in the queue.
    ///
    /// The queue hands the cells over a bucket at a time ([`Buckets::sweep_bucket`]: no
    /// bookkeeping per cell), and each cell files what it lowers straight into the next bucket
    /// or the one after ([`Filing`]: the bucket's length kept aside, no choice among four).
    /// Each cell taken tests its eight neighbours without a branch (open, and lowered by the
    /// move) and then writes the lowered ones; the order they are queued in cannot change the
    /// fixed point the search ends at. (Writing all eight without a branch, each counted where
    /// lowered, was 5–10 % slower.)
    ///
    /// [`Buckets::floor`]: crate::crowd::buckets::Buckets::floor
    /// [`Buckets::sweep_bucket`]: crate::crowd::buckets::Buckets::sweep_bucket
    pub(super) fn spread(&mut self, dist: &mut [f32], pass: f32, until: Option<usize>) -> f32 {
        let nx = self.nx as isize;
        let step = NEIGHBOURS.map(|(dx, dz, _)| dx as isize + dz as isize * nx);
        let mut queue = std::mem::take(&mut self.queue);
        let open = OpenMoves::new(self, pass);
        let visit = |dc: f32, c: u32, filing: &mut Filing, dist: &mut [f32]| {
            let c = c as usize;
            if dc > dist[c] {
                return;
            }
            filing.reserve8();
            let mut lower = if c > nx as usize && c + (nx as usize) + 3 <= dist.len() {
                lowered_inside(dist, c, nx as usize, dc)
            } else {
                // (A closed move's other end may be off the grid: read as 0, never lowered.)
                let at = |k: usize| dist.get(c.wrapping_add_signed(step[k])).copied();
                (0..8).fold(0, |m, k| {
                    m | u32::from(dc + NEIGHBOURS[k].2 < at(k).unwrap_or(0.0)) << k
                })
            } & u32::from(open.at(c));
            while lower != 0 {
                let k = lower.trailing_zeros() as usize;
                lower &= lower - 1;
                let n = c.wrapping_add_signed(step[k]);
                let nd = dc + NEIGHBOURS[k].2;
                dist[n] = nd;
                filing.slot(nd).file((nd, n as u32), true);
            }
        };
        let mut more = true;
        while more && !until.is_some_and(|c| dist[c] < queue.floor()) {
            more = queue.sweep_bucket(|dc, c, filing| visit(dc, c, filing, dist));
        }
        self.queue = queue;
        if more {
            self.queue.floor()
        } else {
            f32::INFINITY
        }
    }
}
