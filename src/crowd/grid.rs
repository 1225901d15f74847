//! Uniform grids for neighbour search.
//!
//! [`AgentGrid`]: agents are counting-sorted by cell, so the step stores agent data in cell
//! order and a query walks one contiguous run per row of cells. The cells are numbered
//! row-major over the agents' bounding box (cell (x, z) → bucket (z − z₀) mod H · W +
//! (x − x₀) mod W): while the box fits the table (W·H ≤ size, a fixed power of two ≥ 2 ×
//! capacity) the numbering is exact; far-flung crowds wrap round a W × H torus (W, H ≥ 4, so
//! the cells of one query never share a bucket), which costs only extra candidates.
//!
//! [`ObstacleGrid`]: a dense grid over the obstacles' bounding box, each obstacle listed in
//! every cell its box overlaps; a query reports an obstacle once, in the first cell where the
//! query rectangle and the obstacle's rectangle meet. Rebuilt only when obstacles change.

use glam::Vec2;

/// Most cells a query may span on one axis before the grid is coarsened.
const MAX_QUERY_SPAN: i32 = 4;
/// Most runs [`AgentGrid::query_runs`] hands over: two per row of cells.
pub(crate) const MAX_QUERY_RUNS: usize = 2 * MAX_QUERY_SPAN as usize;

/// floor(x) as i32 without a libm call (saturating like `as`).
#[inline]
fn floor_i32(x: f32) -> i32 {
    let i = x as i32;
    // Branch-free; saturating: below i32::MIN, `x as i32` is already i32::MIN.
    i.saturating_sub(((i as f32) > x) as i32)
}

#[inline]
fn cell_of(p: Vec2, inv: f32) -> (i32, i32) {
    (floor_i32(p.x * inv), floor_i32(p.y * inv))
}

/// `cell_of` of every position, into `out` (resized to match); returns the cells' bounding
/// box (lo, hi), inclusive (lo > hi: no positions).
///
/// On x86-64 two positions at a time in SSE2 lanes: truncate, then subtract 1 where the
/// truncation lies above the value — exactly `floor_i32`, whose saturating cast the compiler
/// does not vectorize — except that a lane out of i32 range or NaN (the truncation gives
/// `i32::MIN`) sends its pair the scalar way. The box of the SSE2 lanes is kept on the scaled
/// values (`floor_i32` is monotone, so flooring their extremes gives the extreme cells).
fn cells_of(positions: &[Vec2], inv: f32, out: &mut Vec<[i32; 2]>) -> ([i32; 2], [i32; 2]) {
    let (mut lo, mut hi) = ([i32::MAX; 2], [i32::MIN; 2]);
    let mut include = |c: [i32; 2]| {
        lo = [lo[0].min(c[0]), lo[1].min(c[1])];
        hi = [hi[0].max(c[0]), hi[1].max(c[1])];
    };
    // Every element is overwritten: `resize` only fills what the buffer grows by.
    out.resize(positions.len(), [0, 0]);
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::*;
        let mut pairs = positions.chunks_exact(2);
        let mut outs = out.chunks_exact_mut(2);
        // Lanes x0 z0 x1 z1 of the smallest and largest scaled values taken the SSE2 way.
        let (mut least, mut most) = ([f32::INFINITY; 4], [f32::NEG_INFINITY; 4]);
        // SAFETY: SSE2 is part of the x86_64 baseline; the loads and stores are unaligned, of
        // four f32 arrays.
        let (mut vleast, mut vmost) =
            unsafe { (_mm_loadu_ps(least.as_ptr()), _mm_loadu_ps(most.as_ptr())) };
        for (p, o) in (&mut pairs).zip(&mut outs) {
            // SAFETY: SSE2 is part of the x86_64 baseline; `o` is two `[i32; 2]`, 16
            // contiguous bytes, and the store is unaligned.
            unsafe {
                let x = _mm_mul_ps(_mm_set_ps(p[1].y, p[1].x, p[0].y, p[0].x), _mm_set1_ps(inv));
                let t = _mm_cvttps_epi32(x);
                // -1 in the lanes whose truncation lies above x (negative non-integers).
                let up = _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(t), x));
                let bad = _mm_cmpeq_epi32(t, _mm_set1_epi32(i32::MIN));
                if _mm_movemask_ps(_mm_castsi128_ps(bad)) == 0 {
                    _mm_storeu_si128(o.as_mut_ptr().cast(), _mm_add_epi32(t, up));
                    vleast = _mm_min_ps(vleast, x);
                    vmost = _mm_max_ps(vmost, x);
                    continue;
                }
            }
            o[0] = cell_of(p[0], inv).into();
            o[1] = cell_of(p[1], inv).into();
            include(o[0]);
            include(o[1]);
        }
        for (p, o) in pairs.remainder().iter().zip(outs.into_remainder()) {
            *o = cell_of(*p, inv).into();
            include(*o);
        }
        // SAFETY: as above.
        unsafe {
            _mm_storeu_ps(least.as_mut_ptr(), vleast);
            _mm_storeu_ps(most.as_mut_ptr(), vmost);
        }
        // (The SSE2 lanes are finite: while none was taken, least > most.)
        let (least, most) = (
            [least[0].min(least[2]), least[1].min(least[3])],
            [most[0].max(most[2]), most[1].max(most[3])],
        );
        if least[0] <= most[0] {
            include(least.map(floor_i32));
            include(most.map(floor_i32));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (p, o) in positions.iter().zip(out.iter_mut()) {
        *o = cell_of(*p, inv).into();
        include(*o);
    }
    (lo, hi)
}

/// Remainders by a fixed divisor n ≥ 1 without a division (Lemire, Kaser and Kurz, "Faster
/// remainder by direct computation", 2019): with M = ⌊(2⁶⁴ − 1) / n⌋ + 1, d mod n is the
/// high 64 bits of (M·d mod 2⁶⁴)·n, exactly, for every 32-bit d. A torus axis takes this
/// instead of a 64-bit `%` (about 40 cycles) in every grid build and query.
#[derive(Clone, Copy, Debug)]
struct Divisor {
    n: u32,
    m: u64,
}

impl Default for Divisor {
    fn default() -> Self {
        Self::new(1)
    }
}

impl Divisor {
    fn new(n: u32) -> Self {
        debug_assert!(n >= 1);
        Self {
            n,
            m: (u64::MAX / n as u64).wrapping_add(1),
        }
    }

    /// d mod n.
    #[inline]
    fn rem(self, d: u32) -> u32 {
        let low = self.m.wrapping_mul(d as u64);
        ((low as u128 * self.n as u128) >> 64) as u32
    }

    /// (c − origin) mod n, for any i32 c ≥ origin (the difference fits in a u32).
    #[inline]
    fn wrap(self, c: i32, origin: i32) -> u32 {
        self.rem(c.wrapping_sub(origin) as u32)
    }
}

/// Agents sorted by cell.
///
/// ```
/// use wayfarer::crowd::grid::AgentGrid;
/// use glam::Vec2;
///
/// let positions = [Vec2::new(0.0, 0.0), Vec2::new(0.5, 0.0), Vec2::new(9.0, 9.0)];
/// let mut grid = AgentGrid::with_capacity(positions.len());
/// grid.build(&positions, 1.0);
/// let mut near = Vec::new();
/// grid.query(Vec2::ZERO, 1.0, |i| near.push(i)); // candidates in the cells within reach
/// assert!(near.contains(&0) && near.contains(&1) && !near.contains(&2));
/// ```
#[derive(Clone, Debug, Default)]
pub struct AgentGrid {
    cell: f32,
    inv: f32,
    /// Table size (buckets available).
    size: usize,
    /// Bounding box of the agents' cells, inclusive.
    lo: (i32, i32),
    hi: (i32, i32),
    /// Torus width and height (W·H ≤ size), and their remainders.
    w: u32,
    h: u32,
    w_div: Divisor,
    h_div: Divisor,
    /// `start[b]..start[b + 1]` are the sorted indices in bucket b (one spare entry: see
    /// [`Self::build`]).
    start: Vec<u32>,
    /// The cell of each input item of the last build.
    cells: Vec<[i32; 2]>,
    keys: Vec<u32>,
    /// Sorted position k holds input item `order[k]`.
    order: Vec<u32>,
}

impl AgentGrid {
    /// A grid for up to `capacity` agents (allocates its table once).
    pub fn with_capacity(capacity: usize) -> Self {
        let size = (2 * capacity).max(64).next_power_of_two();
        Self {
            cell: 1.0,
            inv: 1.0,
            size,
            lo: (0, 0),
            hi: (-1, -1),
            w: 4,
            h: 4,
            w_div: Divisor::new(4),
            h_div: Divisor::new(4),
            start: vec![0; size + 2],
            cells: Vec::with_capacity(capacity),
            keys: Vec::with_capacity(capacity),
            order: Vec::with_capacity(capacity),
        }
    }

    /// Cell edge, metres.
    pub fn cell_size(&self) -> f32 {
        self.cell
    }

    /// Counting-sorts `positions` into cells of edge `cell`; afterwards [`Self::order`] maps
    /// sorted index → input index. Allocates nothing once `positions.len()` ≤ capacity.
    ///
    /// Each pass is a plain loop over a slice: the cells and their bounding box (`cells_of`,
    /// two positions at a time), the buckets (branch-free while the box fits the table), the
    /// counts and the scatter.
    pub fn build(&mut self, positions: &[Vec2], cell: f32) {
        self.cell = cell;
        self.inv = 1.0 / cell;
        let inv = self.inv;
        // Each position's cell, computed once (the bucket pass below reuses it).
        let ([x0, z0], [x1, z1]) = cells_of(positions, inv, &mut self.cells);
        let (mut lo, mut hi) = ((x0, z0), (x1, z1));
        if hi.0 < lo.0 {
            lo = (0, 0);
            hi = (-1, -1);
        }
        self.lo = lo;
        self.hi = hi;
        let span = |a: i32, b: i32| (b as i64 - a as i64 + 1).max(1) as usize;
        let (span_x, span_z) = (span(lo.0, hi.0), span(lo.1, hi.1));
        let w = span_x.clamp(4, self.size / 4);
        let h = span_z.clamp(4, self.size / w);
        self.w = w as u32;
        self.h = h as u32;
        self.w_div = Divisor::new(self.w);
        self.h_div = Divisor::new(self.h);
        let buckets = w * h;
        self.keys.clear();
        if span_x <= w && span_z <= h {
            // The box fits the table: no cell wraps round, so the bucket is the plain
            // row-major offset (what `wrap` gives, without its modulo).
            let (x0, z0, w) = (lo.0, lo.1, self.w);
            self.keys.extend(
                self.cells
                    .iter()
                    .map(|&[cx, cz]| cz.wrapping_sub(z0) as u32 * w + cx.wrapping_sub(x0) as u32),
            );
        } else {
            let (lo, w, wd, hd) = (self.lo, self.w, self.w_div, self.h_div);
            self.keys.extend(
                self.cells
                    .iter()
                    .map(|&[cx, cz]| hd.wrap(cz, lo.1) * w + wd.wrap(cx, lo.0)),
            );
        }
        // Counts go to start[b + 2]; their running sum makes start[b + 1] the first sorted
        // index of bucket b, the scatter's cursor, which it leaves at the first index of
        // bucket b + 1: start[b]..start[b + 1] is then bucket b, with no shift back.
        self.start[..buckets + 2].fill(0);
        for &b in &self.keys {
            self.start[b as usize + 2] += 1;
        }
        let mut sum = 0;
        for s in &mut self.start[2..buckets + 2] {
            sum += *s;
            *s = sum;
        }
        // Every entry is written below (the scatter is a permutation): `resize` only fills
        // what the buffer grows by.
        self.order.resize(self.keys.len(), 0);
        // Stable: equal buckets keep input order (determinism).
        for (i, &b) in self.keys.iter().enumerate() {
            let slot = &mut self.start[b as usize + 1];
            self.order[*slot as usize] = i as u32;
            *slot += 1;
        }
    }

    /// Sorted index → input index of the last build.
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// Calls `f(sorted_index)` for every agent in a cell overlapping the square of half side
    /// `radius` around `p` (a superset of the agents within `radius`), each once, in a fixed
    /// order. The cell must be at least [`Self::cell_for`]`(radius, …)`.
    #[inline]
    pub fn query(&self, p: Vec2, radius: f32, mut f: impl FnMut(usize)) {
        self.query_runs(p, radius, |run| run.for_each(&mut f));
    }

    /// Like [`Self::query`], but hands over the sorted indices as contiguous runs (one or two
    /// per row of cells), in the same order.
    #[inline]
    pub fn query_runs(&self, p: Vec2, radius: f32, mut f: impl FnMut(core::ops::Range<usize>)) {
        let (x0, z0) = cell_of(p - Vec2::splat(radius), self.inv);
        let (x1, z1) = cell_of(p + Vec2::splat(radius), self.inv);
        // With a cell from `cell_for` the span is at most MAX_QUERY_SPAN cells a side. It can
        // only be wider where f32 spacing exceeds the cell (|p| near the ±1e15 input limit):
        // there the query is clamped to MAX_QUERY_SPAN cells a side, a defined result for
        // coordinates whose precision is already coarser than an agent (found by
        // fuzz/crowd_threads; this was a debug assertion that fired on that legal input).
        let x1 = x1.min(x0.saturating_add(MAX_QUERY_SPAN - 1)).min(self.hi.0);
        let z1 = z1.min(z0.saturating_add(MAX_QUERY_SPAN - 1)).min(self.hi.1);
        let (x0, z0) = (x0.max(self.lo.0), z0.max(self.lo.1));
        if x1 < x0 || z1 < z0 {
            return;
        }
        let n = (x1 - x0 + 1) as u32;
        let xs = self.w_div.wrap(x0, self.lo.0);
        // The row's buckets xs..xs+n, split in two where they wrap round.
        let first = n.min(self.w - xs) as usize;
        let rest = n as usize - first;
        for cz in z0..=z1 {
            let row = (self.h_div.wrap(cz, self.lo.1) * self.w) as usize;
            let b = row + xs as usize;
            f(self.start[b] as usize..self.start[b + first] as usize);
            if rest > 0 {
                f(self.start[row] as usize..self.start[row + rest] as usize);
            }
        }
    }

    /// The cell edge to use so a query of `max_query_radius` spans at most four cells a side.
    pub fn cell_for(max_query_radius: f32, min_cell: f32) -> f32 {
        min_cell.max(2.0 * max_query_radius / (MAX_QUERY_SPAN - 2) as f32)
    }
}

/// Static obstacles listed per cell of a dense grid.
///
/// ```
/// use wayfarer::crowd::grid::ObstacleGrid;
/// use glam::Vec2;
///
/// let boxes = [Some((Vec2::new(-1.0, -1.0), Vec2::new(1.0, 1.0))), None, Some((Vec2::splat(50.0), Vec2::splat(51.0)))];
/// let mut grid = ObstacleGrid::default();
/// grid.build(&boxes);
/// let mut near = Vec::new();
/// grid.query(Vec2::ZERO, 2.0, |i| near.push(i));
/// assert!(near.contains(&0) && !near.contains(&2));
/// ```
#[derive(Clone, Debug, Default)]
pub struct ObstacleGrid {
    origin: Vec2,
    cell: f32,
    inv: f32,
    nx: i32,
    nz: i32,
    start: Vec<u32>,
    items: Vec<u32>,
    /// Cell rectangle (x0, z0, x1, z1) of each listed obstacle.
    rects: Vec<[i32; 4]>,
    /// The bounding boxes of the last build (to list them again with a larger halo).
    boxes: Vec<Option<(Vec2, Vec2)>>,
    /// Halo lists (see [`Self::ensure_halo`]): `near_items[near_start[c]..near_start[c + 1]]`
    /// are the obstacles whose box grown by `halo` overlaps cell c. `halo == 0`: none built.
    halo: f32,
    near_start: Vec<u32>,
    near_items: Vec<u32>,
}

/// Smallest cell the obstacle grid prefers (unless there are many obstacles), metres.
const OBSTACLE_CELL_MIN: f32 = 4.0;

/// Most cells the obstacle grid uses.
const MAX_OBSTACLE_CELLS: f32 = 65_536.0;

/// Widest halo (in cells) worth listing; a wider look-ahead uses the cell-by-cell query.
const MAX_HALO_CELLS: f32 = 3.0;

impl ObstacleGrid {
    /// Lists obstacle `i` (bounding box `boxes[i]` = (min, max)) in every cell it overlaps;
    /// `None` entries (removed obstacles) are skipped.
    pub fn build(&mut self, boxes: &[Option<(Vec2, Vec2)>]) {
        let mut lo = Vec2::splat(f32::INFINITY);
        let mut hi = Vec2::splat(f32::NEG_INFINITY);
        let mut count = 0usize;
        let mut size_sum = 0.0f32;
        for (a, b) in boxes.iter().flatten() {
            lo = lo.min(*a);
            hi = hi.max(*b);
            count += 1;
            size_sum += (*b - *a).max_element();
        }
        self.start.clear();
        self.items.clear();
        self.rects.clear();
        self.rects.resize(boxes.len(), [0, 0, -1, -1]);
        self.boxes.clear();
        self.boxes.extend_from_slice(boxes);
        self.halo = 0.0;
        self.near_start.clear();
        self.near_items.clear();
        if count == 0 {
            self.nx = 0;
            self.nz = 0;
            self.start.push(0);
            return;
        }
        let span = (hi - lo).max(Vec2::splat(1e-3));
        let mean = size_sum / count as f32;
        let by_count = (span.x * span.y / (4.0 * count as f32).min(MAX_OBSTACLE_CELLS)).sqrt();
        let by_cap = (span.x * span.y / MAX_OBSTACLE_CELLS).sqrt();
        // Cells no smaller than ~ the default look-ahead: a steer query then spans 2-3 cells a
        // side instead of 6-7 mostly empty ones. The per-axis bound keeps
        // nx·nz ≤ 3·MAX_OBSTACLE_CELLS for thin spans too (a wall 2e15 long would otherwise
        // get 1e8 cells).
        let by_axis = span.max_element() / MAX_OBSTACLE_CELLS;
        let cell = by_count
            .min(mean.max(OBSTACLE_CELL_MIN))
            .max(by_cap)
            .max(by_axis)
            .max(0.25);
        self.origin = lo;
        self.cell = cell;
        self.inv = 1.0 / cell;
        self.nx = ((span.x * self.inv).floor() as i32 + 1).max(1);
        self.nz = ((span.y * self.inv).floor() as i32 + 1).max(1);
        let cells = (self.nx * self.nz) as usize;
        let mut counts = vec![0u32; cells + 1];
        for (i, bx) in boxes.iter().enumerate() {
            if let Some((a, b)) = bx {
                let r = self.rect(*a, *b);
                self.rects[i] = r;
                for cz in r[1]..=r[3] {
                    for cx in r[0]..=r[2] {
                        counts[(cz * self.nx + cx) as usize + 1] += 1;
                    }
                }
            }
        }
        for c in 0..cells {
            counts[c + 1] += counts[c];
        }
        self.items.resize(counts[cells] as usize, 0);
        self.start = counts.clone();
        for (i, bx) in boxes.iter().enumerate() {
            if bx.is_some() {
                let r = self.rects[i];
                for cz in r[1]..=r[3] {
                    for cx in r[0]..=r[2] {
                        let c = (cz * self.nx + cx) as usize;
                        self.items[counts[c] as usize] = i as u32;
                        counts[c] += 1;
                    }
                }
            }
        }
    }

    #[inline]
    fn clamp_cell(&self, p: Vec2) -> (i32, i32) {
        let (x, z) = cell_of(p - self.origin, self.inv);
        (x.clamp(0, self.nx - 1), z.clamp(0, self.nz - 1))
    }

    #[inline]
    fn rect(&self, a: Vec2, b: Vec2) -> [i32; 4] {
        let (x0, z0) = self.clamp_cell(a);
        let (x1, z1) = self.clamp_cell(b);
        [x0, z0, x1, z1]
    }

    /// Lists, per cell, every obstacle whose bounding box grown by at least `halo` overlaps it,
    /// so that [`Self::query_near`] with a radius up to `halo` reads a single list. Does
    /// nothing when the lists already cover `halo`; lists with 25 % to spare when they do not
    /// (so a slowly growing look-ahead does not re-list every step). A halo wider than three
    /// cells is not listed (`query_near` then falls back to [`Self::query`]).
    pub fn ensure_halo(&mut self, halo: f32) {
        if self.nx == 0 || halo <= self.halo || halo > MAX_HALO_CELLS * self.cell {
            return;
        }
        let halo = (1.25 * halo).min(MAX_HALO_CELLS * self.cell);
        let cells = (self.nx * self.nz) as usize;
        let grown = |bx: &Option<(Vec2, Vec2)>| {
            bx.map(|(a, b)| (a - Vec2::splat(halo), b + Vec2::splat(halo)))
        };
        self.near_start.clear();
        self.near_start.resize(cells + 1, 0);
        for (a, b) in self.boxes.iter().filter_map(grown) {
            let r = self.rect(a, b);
            for cz in r[1]..=r[3] {
                for cx in r[0]..=r[2] {
                    self.near_start[(cz * self.nx + cx) as usize + 1] += 1;
                }
            }
        }
        for c in 0..cells {
            self.near_start[c + 1] += self.near_start[c];
        }
        self.near_items.clear();
        self.near_items.resize(self.near_start[cells] as usize, 0);
        for (i, bx) in self.boxes.iter().enumerate() {
            if let Some((a, b)) = grown(bx) {
                let r = self.rect(a, b);
                for cz in r[1]..=r[3] {
                    for cx in r[0]..=r[2] {
                        let c = (cz * self.nx + cx) as usize;
                        self.near_items[self.near_start[c] as usize] = i as u32;
                        self.near_start[c] += 1;
                    }
                }
            }
        }
        // The fill advanced every start to the next cell's: shift back.
        for c in (1..=cells).rev() {
            self.near_start[c] = self.near_start[c - 1];
        }
        self.near_start[0] = 0;
        self.halo = halo;
    }

    /// Calls `f(obstacle_index)` once for each obstacle that may lie within the square of half
    /// side `radius` around `p` (a superset, like [`Self::query`], in a fixed order): with
    /// `radius` ≤ the listed halo, one list — the halo list of the cell holding `p`'s
    /// projection onto the grid (projection onto a rectangle brings points no farther apart,
    /// so nothing within `radius` of `p` is missed); otherwise [`Self::query`].
    #[inline]
    pub fn query_near(&self, p: Vec2, radius: f32, mut f: impl FnMut(usize)) {
        if self.nx == 0 {
            return;
        }
        match self.near_list(p, radius) {
            Some(list) => list.iter().for_each(|&i| f(i as usize)),
            None => self.query(p, radius, f),
        }
    }

    /// The list [`Self::query_near`] reads for a `radius` up to the listed halo (empty without
    /// obstacles); `None` for a wider radius, which needs [`Self::query`].
    #[inline]
    pub fn near_list(&self, p: Vec2, radius: f32) -> Option<&[u32]> {
        if self.nx == 0 {
            return Some(&[]);
        }
        if radius > self.halo {
            return None;
        }
        let (cx, cz) = self.clamp_cell(p);
        let c = (cz * self.nx + cx) as usize;
        let (a, b) = (self.near_start[c] as usize, self.near_start[c + 1] as usize);
        Some(&self.near_items[a..b])
    }

    /// Calls `f(obstacle_index)` once for each obstacle whose cells overlap the square of half
    /// side `radius` around `p`, in a fixed order.
    #[inline]
    pub fn query(&self, p: Vec2, radius: f32, mut f: impl FnMut(usize)) {
        if self.nx == 0 {
            return;
        }
        let lo = p - Vec2::splat(radius) - self.origin;
        let hi = p + Vec2::splat(radius) - self.origin;
        let span = Vec2::new(self.nx as f32, self.nz as f32) * self.cell;
        if hi.x < 0.0 || hi.y < 0.0 || lo.x > span.x || lo.y > span.y {
            return;
        }
        let q = self.rect(p - Vec2::splat(radius), p + Vec2::splat(radius));
        for cz in q[1]..=q[3] {
            for cx in q[0]..=q[2] {
                let c = (cz * self.nx + cx) as usize;
                for &i in &self.items[self.start[c] as usize..self.start[c + 1] as usize] {
                    let r = self.rects[i as usize];
                    // Report only in the first cell shared by the query and the obstacle.
                    if cx == q[0].max(r[0]) && cz == q[1].max(r[1]) {
                        f(i as usize);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisor_remainders_are_exact() {
        let mut seed = 3u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 32) as u32
        };
        let mut divisors = vec![1u32, 2, 3, 4, 5, 7, 122, 267, 310, 843, 65_535, 1 << 20];
        divisors.extend([u32::MAX, u32::MAX - 1, 1 << 31, (1 << 31) + 1]);
        divisors.extend((0..200).map(|_| 1 + next() % 100_000));
        divisors.extend((0..50).map(|_| next().max(1)));
        for n in divisors {
            let div = Divisor::new(n);
            let edge = [0u32, 1, n - 1, n, n.wrapping_add(1), u32::MAX, u32::MAX - 1];
            for d in edge.into_iter().chain((0..2_000).map(|_| next())) {
                assert_eq!(div.rem(d), d % n, "{d} mod {n}");
            }
        }
        let div = Divisor::new(122);
        assert_eq!(div.wrap(i32::MAX, i32::MIN), u32::MAX % 122);
        assert_eq!(div.wrap(-5, -5), 0);
        assert_eq!(div.wrap(300, 10), 290 % 122);
    }

    #[test]
    fn agent_grid_finds_every_neighbour_once() {
        let mut s = 0x1234_5678u64;
        let mut rnd = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 40) as f32 / (1u64 << 24) as f32
        };
        let pts: Vec<Vec2> = (0..500)
            .map(|_| Vec2::new(rnd() * 60.0 - 30.0, rnd() * 60.0 - 30.0))
            .collect();
        let mut g = AgentGrid::with_capacity(500);
        g.build(&pts, AgentGrid::cell_for(5.0, 0.5));
        for (i, p) in pts.iter().enumerate() {
            let mut found = Vec::new();
            g.query(*p, 5.0, |k| found.push(g.order()[k] as usize));
            let mut sorted = found.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), found.len(), "duplicates for {i}");
            for (j, q) in pts.iter().enumerate() {
                if p.distance(*q) <= 5.0 {
                    assert!(found.contains(&j), "{i} misses {j}");
                }
            }
        }
    }

    #[test]
    fn agent_grid_wraps_far_flung_agents_without_duplicates() {
        // A small table and a huge spread: cells wrap round the torus.
        let pts: Vec<Vec2> = (0..60)
            .map(|i| {
                let (x, z) = ((i * 37 % 61) as f32, (i * 53 % 59) as f32);
                Vec2::new(x * 17.3 - 500.0, z * 23.9 - 700.0) + Vec2::splat((i % 3) as f32)
            })
            .chain((0..20).map(|i| Vec2::new(i as f32 * 0.9, 3.0)))
            .collect();
        let mut g = AgentGrid::with_capacity(pts.len() / 4);
        g.build(&pts, AgentGrid::cell_for(3.0, 0.5));
        for (i, p) in pts.iter().enumerate() {
            let mut found = Vec::new();
            g.query(*p, 3.0, |k| found.push(g.order()[k] as usize));
            let mut sorted = found.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), found.len(), "duplicates for {i}");
            for (j, q) in pts.iter().enumerate() {
                if p.distance(*q) <= 3.0 {
                    assert!(found.contains(&j), "{i} misses {j}");
                }
            }
        }
    }

    #[test]
    fn cells_of_matches_cell_of() {
        // Integers, fractions either side of zero, the edges of i32, NaN and infinities.
        let vals = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            -1.5,
            2.999,
            1e-30,
            -1e-30,
            1e9,
            -1e9,
            3e9,
            -3e9,
            2_147_483_520.0,
            -2_147_483_648.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        let pts: Vec<Vec2> = vals
            .iter()
            .flat_map(|&x| vals.iter().map(move |&z| Vec2::new(x, z)))
            .collect();
        let mut out = Vec::new();
        for inv in [1.0, 0.37, 4.0] {
            // An odd count (the last point takes the remainder path), then an even one.
            for n in [pts.len(), pts.len() - 1] {
                let (lo, hi) = cells_of(&pts[..n], inv, &mut out);
                assert_eq!(out.len(), n);
                let (mut lo2, mut hi2) = ([i32::MAX; 2], [i32::MIN; 2]);
                for (p, c) in pts.iter().zip(&out) {
                    let (x, z) = cell_of(*p, inv);
                    assert_eq!(*c, [x, z], "{p} × {inv}");
                    lo2 = [lo2[0].min(x), lo2[1].min(z)];
                    hi2 = [hi2[0].max(x), hi2[1].max(z)];
                }
                assert_eq!((lo, hi), (lo2, hi2));
                // Finite values only: the box then comes from the SSE2 lanes.
                let finite: Vec<Vec2> = pts[..n]
                    .iter()
                    .copied()
                    .filter(|p| p.abs().max_element() < 1e9)
                    .collect();
                let (lo, hi) = cells_of(&finite, inv, &mut out);
                let cells: Vec<(i32, i32)> = finite.iter().map(|p| cell_of(*p, inv)).collect();
                let min_x = cells.iter().map(|c| c.0).min().unwrap();
                let max_z = cells.iter().map(|c| c.1).max().unwrap();
                assert_eq!((lo[0], hi[1]), (min_x, max_z));
            }
        }
    }

    #[test]
    fn obstacle_grid_reports_each_obstacle_once() {
        let boxes: Vec<Option<(Vec2, Vec2)>> = (0..40)
            .map(|i| {
                let a = Vec2::new((i % 8) as f32 * 5.0, (i / 8) as f32 * 5.0);
                if i == 7 {
                    None
                } else {
                    Some((a, a + Vec2::new(1.0 + (i % 3) as f32 * 4.0, 2.0)))
                }
            })
            .collect();
        let mut g = ObstacleGrid::default();
        g.build(&boxes);
        for k in 0..30 {
            let p = Vec2::new(k as f32 * 1.3, k as f32 * 0.7);
            let mut found = Vec::new();
            g.query(p, 3.0, |i| found.push(i));
            let mut sorted = found.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), found.len());
            for (i, b) in boxes.iter().enumerate() {
                if let Some((a, b)) = b {
                    let c = p.clamp(*a, *b);
                    if (c - p).abs().max_element() <= 3.0 {
                        assert!(found.contains(&i), "{k}: misses {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn halo_lists_hold_every_obstacle_within_the_radius() {
        let boxes: Vec<Option<(Vec2, Vec2)>> = (0..60)
            .map(|i| {
                let a = Vec2::new((i * 37 % 50) as f32 * 1.7, (i * 11 % 40) as f32 * 2.3);
                if i % 9 == 4 {
                    None
                } else {
                    Some((a, a + Vec2::new(0.5 + (i % 4) as f32, 0.3 + (i % 3) as f32)))
                }
            })
            .collect();
        let mut g = ObstacleGrid::default();
        g.build(&boxes);
        g.ensure_halo(4.5);
        assert!(g.halo >= 4.5);
        for k in 0..400 {
            // Inside the grid and well outside it.
            let p = Vec2::new(k as f32 * 0.61 - 40.0, (k * 7 % 130) as f32 - 20.0);
            for radius in [0.3, 2.0, 4.5] {
                let mut near = Vec::new();
                g.query_near(p, radius, |i| near.push(i));
                let mut sorted = near.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), near.len(), "duplicates");
                // Every obstacle whose box comes within `radius` of p (on either axis).
                for (i, b) in boxes.iter().enumerate() {
                    if let Some((a, b)) = b {
                        let gap = (p.clamp(*a, *b) - p).abs().max_element();
                        assert!(
                            gap > radius || near.contains(&i),
                            "{p} r {radius}: misses {i}"
                        );
                    }
                }
            }
        }
        // A look-ahead wider than the listed halo falls back to the cell query.
        let mut far = Vec::new();
        g.query_near(Vec2::new(30.0, 30.0), 100.0, |i| far.push(i));
        assert_eq!(far.len(), boxes.iter().flatten().count());
    }
}
