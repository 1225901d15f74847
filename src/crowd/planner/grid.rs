//! The clearance grid: where it is laid over the obstacles, and per cell the clearance of its
//! centre, of its representative point and of the segments to its neighbours' points, built
//! when obstacles change and brought up to date locally where they stay on the grid.

use super::super::obstacle::point_segment_distance;
use super::super::obstacle::Shape;
use super::fields::Freshness;
use super::level;
use super::lists::Area;
use super::lists::CellLists;
#[cfg(any(test, debug_assertions))]
use super::lists::LIST_ITEMS;
use super::Planner;
use super::CLEARANCE_CAP;
use super::MAX_PLANNER_CELLS;
use super::MIN_PLANNER_CELL;
use super::NEIGHBOURS;
use super::PASS_SKIN;
use super::PLANNER_MARGIN;
use glam::Vec2;

/// The grid's placement: origin, cell edge, columns, rows.
pub(super) type Layout = (Vec2, f32, usize, usize);

/// Room a re-laid grid leaves round the obstacles' bounds, on each side, as a share of their
/// span (see `Planner::layout_for_update`).
pub(super) const LAYOUT_SLACK: f32 = 0.125;

/// How many times the area of the grid the obstacles alone would get a grid may cover and
/// still be kept by a local update (so its cells are at most √2 × coarser, or at most
/// twice as many).
pub(super) const KEEP_AREA: f32 = 2.0;

/// Cells a side of the blocks whose least clearance lets a line of sight skip samples.
pub(super) const BLOCK: usize = 8;

/// Samples along each edge of a cell (so `REP_SAMPLES`² in all, the centre among them) of
/// which the one with the most clearance is the cell's representative point.
pub(super) const REP_SAMPLES: usize = 3;

/// The neighbours whose segments a cell stores (the other four are stored by them).
pub(super) const EDGES: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// The least of `start` and the clearances of point `p` from the listed obstacles. An obstacle
/// whose bounding circle lies beyond the least so far cannot lower it and is skipped. For a
/// circle the bound is its clearance ([`Shape::contact`]'s distance: the distance to its
/// centre less its radius, the same operations), taken as it is rather than computed twice.
pub(super) fn clearance_at(shapes: &[Option<Shape>], list: &[u32], p: Vec2, start: f32) -> f32 {
    list.iter()
        .fold(start, |best, &i| match &shapes[i as usize] {
            Some(s) => {
                let bound = s.center.distance(p) - s.bounding_radius();
                if bound < best + PRUNE_SLACK {
                    best.min(if s.half == Vec2::ZERO {
                        bound
                    } else {
                        s.distance(p)
                    })
                } else {
                    best
                }
            }
            None => best,
        })
}

/// The least of `start` and the distances from the segment `a → b` to the listed obstacles.
/// An obstacle whose bounding circle lies beyond the least so far cannot lower it and is
/// skipped. For a circle the bound is its exact distance
/// ([`Shape::segment_distance`]: the distance to its centre less its radius, which is its
/// bounding radius), taken as it is rather than computed twice.
pub(super) fn segment_clearance(
    shapes: &[Option<Shape>],
    list: &[u32],
    a: Vec2,
    b: Vec2,
    start: f32,
) -> f32 {
    list.iter()
        .fold(start, |best, &i| match &shapes[i as usize] {
            Some(s) => {
                let bound = point_segment_distance(s.center, a, b) - s.bounding_radius();
                if bound < best + PRUNE_SLACK {
                    best.min(if s.half == Vec2::ZERO {
                        bound
                    } else {
                        s.segment_distance(a, b)
                    })
                } else {
                    best
                }
            }
            None => best,
        })
}

/// Slack on the bounding-circle test that skips an obstacle which cannot lower a clearance
/// (metres): the bound and the exact distance round differently.
pub(super) const PRUNE_SLACK: f32 = 1e-3;

impl Planner {
    /// Rebuilds the clearance grid for these obstacles and drops every cached field, at once.
    #[cfg(test)]
    pub(crate) fn rebuild(&mut self, shapes: &[Option<Shape>]) {
        self.rebuild_in_runs(shapes, LIST_ITEMS, Self::layout(shapes));
    }

    /// Brings the clearance grid up to date after the obstacles in `changed` (each one added or
    /// removed since the grid was built, as it was) changed. The grid gets the same bits as a
    /// rebuild on the same grid: while the grid still covers the obstacles (see
    /// `layout_for_update`), only the cells that listed a changed obstacle, or would list it now
    /// (the only ones whose point or segments it can move), are computed again; otherwise, or when
    /// that is a quarter of the grid or more, everything is rebuilt (on a grid laid with room to
    /// spare when the obstacles outgrew the old one). A local update keeps the cached fields: those
    /// for which no cell and no move changed between open and closed are exact (a field is a
    /// function of those alone); the others are marked stale, used as they are (agents keep a route
    /// that is mostly right rather than walk straight while they wait) until repaired within a
    /// step's budget ([`Self::repair`]: the same bits as computing them again, at a fraction of the
    /// cost). A rebuild drops them all. Returns whether the update was local.
    #[cfg(test)]
    pub(crate) fn update(&mut self, shapes: &[Option<Shape>], changed: &[Shape]) -> bool {
        self.update_listing(shapes, changed, LIST_ITEMS, false)
    }

    /// [`Self::update`], rebuilding (in runs of at most `list_items` entries) when an area's
    /// lists would hold more than `list_items` entries; a rebuild is only started (left to
    /// [`Self::build_step`]) when `sliced`. A build under way is finished instead (its end
    /// applies every change since it began, `changed` among them: a rebuild, not local).
    pub(super) fn update_listing(
        &mut self,
        shapes: &[Option<Shape>],
        changed: &[Shape],
        list_items: usize,
        sliced: bool,
    ) -> bool {
        if self.advance_build(shapes, usize::MAX) {
            return false;
        }
        let layout = self.layout_for_update(shapes);
        let rebuild = |p: &mut Self| {
            p.start_build(shapes, list_items, layout);
            if !sliced {
                p.advance_build(shapes, usize::MAX);
            }
            false
        };
        if layout.is_none() || layout != self.current_layout() {
            return rebuild(self);
        }
        // A field computed only in part goes on over the grid it began on: each is finished
        // now, before the grid changes (see `Planner::settle`).
        for i in 0..self.fields.len() {
            self.settle(i, None);
        }
        let far = self.far();
        // One area per change, merged with another where their bounding rectangle is no
        // larger than the two (an obstacle moved a little: where it was and where it is).
        let mut areas: Vec<Area> = Vec::new();
        for (lo, hi) in changed.iter().filter_map(|s| self.reach_cells(s, far)) {
            let mut a = Area::of(self, lo, hi);
            while let Some(j) = areas.iter().position(|b| {
                a.bounds(b, self.nx).cells(self.nx) <= a.cells(self.nx) + b.cells(self.nx)
            }) {
                a = a.bounds(&areas.swap_remove(j), self.nx);
            }
            areas.push(a);
        }
        let cells: usize = areas.iter().map(|a| a.cells(self.nx)).sum();
        if cells * 4 >= self.nx * self.nz {
            return rebuild(self);
        }
        // What the cells about to change held, to tell which fields stay true.
        let before: Vec<(usize, f32, [f32; 4])> = areas
            .iter()
            .flat_map(|a| a.iter(self.nx))
            .map(|c| (c, self.rep_clear[c], self.edge[c]))
            .collect();
        let (mut lists, mut close) = (CellLists::default(), Vec::new());
        for a in &areas {
            // (Obstacles overlapping by the thousand: the rebuild lists them in runs.)
            if !lists.build(self, shapes, far, Err(list_items), *a) {
                return rebuild(self);
            }
            for c in a.iter(self.nx) {
                self.set_point(shapes, &lists, &mut close, c);
            }
            self.set_block_mins(*a);
        }
        // The segments, once every point is known. A cell outside every area keeps its
        // segments too: a segment from a cell's point lies within (1 + ⅓)·√2 < 2 cells of the
        // cell's centre, and so does the point at its other end, so a change within
        // `CLEARANCE_CAP` of either is within `far` of the centre, inside the area.
        for a in &areas {
            // (One area: its lists are still the last built.)
            if areas.len() > 1 {
                lists.build(self, shapes, far, Err(usize::MAX), *a);
            }
            for c in a.iter(self.nx) {
                self.set_edges(shapes, &lists, c);
            }
        }
        // The move clearances of every cell in an area or next to one (a move's segment is
        // stored in one of its ends, and its value reads the other end's point).
        for a in &areas {
            // The area grown by a cell.
            let (x0, x1) = (a.x0.saturating_sub(1), (a.x1 + 1).min(self.nx - 1));
            let (z0, z1) = ((a.c0 / self.nx).saturating_sub(1), (a.c1 - 1) / self.nx + 1);
            for z in z0..=z1.min(self.nz - 1) {
                for c in z * self.nx + x0..=z * self.nx + x1 {
                    self.set_reach(c);
                }
            }
        }
        // Per clearance the fields were computed for, the cells whose point or a stored move
        // changed between open and closed for it: every move that changed has an end among
        // them, all a repair needs to clear.
        let mut passes: Vec<f32> = self.fields.iter().map(|f| f.pass).collect();
        passes.sort_by(f32::total_cmp);
        passes.dedup();
        let (rep_clear, edge) = (&self.rep_clear, &self.edge);
        let flips: Vec<(f32, Vec<u32>)> = passes
            .into_iter()
            .map(|p| {
                let flipped = before.iter().filter(|&&(c, was, edges)| {
                    (was >= p) != (rep_clear[c] >= p)
                        || (0..4).any(|k| (edges[k] >= p) != (edge[c][k] >= p))
                });
                (p, flipped.map(|&(c, _, _)| c as u32).collect())
            })
            .collect();
        // (Debug builds, the fuzz targets among them, check the grid against a rebuild.)
        #[cfg(debug_assertions)]
        {
            let mut fresh = Planner::default();
            fresh.rebuild_in_runs(shapes, LIST_ITEMS, layout);
            debug_assert!(
                self.same_grid_as(&fresh),
                "a local update differs from a rebuild"
            );
        }
        // (A repair list stays under an eighth of a field's size: past it, computing the
        // field again costs little more, and the lists hold at most an eighth more memory
        // than the fields.)
        let most = self.nx * self.nz / 8;
        for f in &mut self.fields {
            let Some((_, flipped)) = flips.iter().find(|(p, _)| *p == f.pass) else {
                continue;
            };
            if flipped.is_empty() {
                continue;
            }
            f.fresh = match std::mem::replace(&mut f.fresh, Freshness::Fresh) {
                Freshness::Fresh => Freshness::Repair(flipped.clone()),
                Freshness::Repair(mut known) if known.len() + flipped.len() <= most => {
                    known.reserve_exact(flipped.len());
                    known.extend_from_slice(flipped);
                    Freshness::Repair(known)
                }
                _ => Freshness::Recompute,
            };
        }
        true
    }

    /// Whether the clearance grids are the same, bit for bit.
    #[cfg(debug_assertions)]
    pub(super) fn same_grid_as(&self, other: &Planner) -> bool {
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let points = |v: &[Vec2]| {
            v.iter()
                .flat_map(|p| bits(&p.to_array()))
                .collect::<Vec<_>>()
        };
        let edges = |v: &[[f32; 4]]| v.iter().flat_map(|e| bits(e)).collect::<Vec<_>>();
        (self.origin, self.cell, self.nx, self.nz) == (other.origin, other.cell, other.nx, other.nz)
            && bits(&self.clearance) == bits(&other.clearance)
            && bits(&self.block_min) == bits(&other.block_min)
            && bits(&self.rep_clear) == bits(&other.rep_clear)
            && points(&self.rep) == points(&other.rep)
            && edges(&self.edge) == edges(&other.edge)
            && self.reach_level == other.reach_level
            && self.point_level == other.point_level
    }

    /// The obstacles' bounding box grown by `PLANNER_MARGIN` (`None` without obstacles).
    pub(super) fn bounds(shapes: &[Option<Shape>]) -> Option<(Vec2, Vec2)> {
        let mut lo = Vec2::splat(f32::INFINITY);
        let mut hi = Vec2::splat(f32::NEG_INFINITY);
        for s in shapes.iter().flatten() {
            lo = lo.min(s.center - s.extent());
            hi = hi.max(s.center + s.extent());
        }
        (lo.x <= hi.x).then(|| (lo - PLANNER_MARGIN, hi + PLANNER_MARGIN))
    }

    /// The grid over these obstacles, or `None` without one: no obstacle, or a span that
    /// rounds to no cell.
    pub(super) fn layout(shapes: &[Option<Shape>]) -> Option<Layout> {
        Self::bounds(shapes).and_then(|(lo, hi)| Self::layout_over(lo, hi))
    }

    /// The grid in use (`None` without one).
    pub(super) fn current_layout(&self) -> Option<Layout> {
        (self.nx > 0).then_some((self.origin, self.cell, self.nx, self.nz))
    }

    /// The grid a local update lays for these obstacles. The grid in use while it still
    /// covers them (and their margin) and at most `KEEP_AREA` × the area of the grid they
    /// alone would get; otherwise one over their bounds grown by `LAYOUT_SLACK` of the span
    /// on each side, so an obstacle that moves out past the grid, and on, re-lays it only now
    /// and then, not at every step (each re-lay drops every cached field).
    pub(super) fn layout_for_update(&self, shapes: &[Option<Shape>]) -> Option<Layout> {
        let (lo, hi) = Self::bounds(shapes)?;
        let tight = Self::layout_over(lo, hi)?;
        let area = |(_, cell, nx, nz): Layout| (nx * nz) as f32 * cell * cell;
        if let Some(now @ (origin, cell, nx, nz)) = self.current_layout() {
            let end = origin + Vec2::new(nx as f32, nz as f32) * cell;
            let covers = lo.cmpge(origin).all() && hi.cmple(end).all();
            if covers && area(now) <= KEEP_AREA * area(tight) {
                return Some(now);
            }
        }
        let slack = (hi - lo) * LAYOUT_SLACK;
        Self::layout_over(lo - slack, hi + slack).or(Some(tight))
    }

    /// The grid over the rectangle `lo`..`hi` (`None` for a span that rounds to no cell).
    pub(super) fn layout_over(lo: Vec2, hi: Vec2) -> Option<Layout> {
        let span = hi - lo;
        // The per-axis bound keeps nx·nz ≤ 3·MAX_PLANNER_CELLS for thin spans too.
        let cell = (span.x * span.y / MAX_PLANNER_CELLS)
            .sqrt()
            .max(span.max_element() / MAX_PLANNER_CELLS)
            .max(MIN_PLANNER_CELL);
        let (nx, nz) = (
            (span.x / cell).ceil() as usize,
            (span.y / cell).ceil() as usize,
        );
        // A span of 0 (obstacles so far out that the margin rounds away: at 1e15 an f32's
        // spacing is 1.3e8 m) or past f32 (the cell is infinite): no grid, and planned
        // agents walk straight, as with no obstacles.
        (nx * nz > 0).then_some((lo, cell, nx, nz))
    }

    /// How far from a cell's centre an obstacle can lower a clearance stored for the cell.
    /// A cell's sample points lie within half a cell of its centre (per axis) and a
    /// neighbour's within 1 + ⅓ cells, so every point of a segment between them within
    /// (1 + ⅓)·√2 cells: what comes within `CLEARANCE_CAP` of them comes within this of the
    /// centre.
    pub(super) fn far(&self) -> f32 {
        CLEARANCE_CAP + 2.0 * self.cell
    }

    /// [`Self::rebuild`] on the grid `layout` (which covers the obstacles), listing obstacles
    /// per cell in runs of at most `list_items` entries, at once.
    #[cfg(any(test, debug_assertions))]
    pub(super) fn rebuild_in_runs(
        &mut self,
        shapes: &[Option<Shape>],
        list_items: usize,
        layout: Option<Layout>,
    ) {
        self.start_build(shapes, list_items, layout);
        self.advance_build(shapes, usize::MAX);
    }

    /// Builds the grid laid out by `start_build` with the obstacles listed per cell in runs of
    /// cells of at most `list_items` entries (obstacles overlapping by the thousand), at once.
    pub(super) fn build_in_runs(&mut self, shapes: &[Option<Shape>], list_items: usize) {
        let (far, cells) = (self.far(), self.nx * self.nz);
        let all = Area::all(self);
        let mut counts = vec![0u32; cells];
        CellLists::scatter(self, shapes, far, all, |c, _| counts[c] += 1);
        let mut runs = Vec::new();
        let (mut first, mut total) = (0, 0usize);
        for (c, &n) in counts.iter().enumerate() {
            if total + n as usize > list_items && c > first {
                runs.push(Area::run(self, first, c));
                (first, total) = (c, 0);
            }
            total += n as usize;
        }
        runs.push(Area::run(self, first, cells));
        let (mut lists, mut close) = (CellLists::default(), Vec::new());
        for &run in &runs {
            lists.build(self, shapes, far, Ok(&counts[run.c0..run.c1]), run);
            for c in run.c0..run.c1 {
                self.set_point(shapes, &lists, &mut close, c);
            }
        }
        // The segments, once every point is known (a run's last row reaches into the next).
        for &run in &runs {
            if runs.len() > 1 {
                lists.build(self, shapes, far, Ok(&counts[run.c0..run.c1]), run);
            }
            for c in run.c0..run.c1 {
                self.set_edges(shapes, &lists, c);
            }
        }
        self.set_block_mins(all);
        for c in 0..cells {
            self.set_reach(c);
        }
    }

    /// Sets the least centre clearance of every block that holds a cell of `area`.
    pub(super) fn set_block_mins(&mut self, area: Area) {
        let (nx, bx) = (self.nx, self.nx.div_ceil(BLOCK));
        let (x0, x1) = (area.x0 / BLOCK, area.x1 / BLOCK);
        let (z0, z1) = (area.c0 / nx / BLOCK, (area.c1 - 1) / nx / BLOCK);
        for kz in z0..=z1 {
            for kx in x0..=x1 {
                let mut least = f32::INFINITY;
                for z in kz * BLOCK..((kz + 1) * BLOCK).min(self.nz) {
                    let row = &self.clearance[z * nx..(z + 1) * nx];
                    for &c in &row[kx * BLOCK..((kx + 1) * BLOCK).min(nx)] {
                        least = least.min(c);
                    }
                }
                self.block_min[kx + kz * bx] = least;
            }
        }
    }

    /// Sets cell `c`'s centre clearance, representative point and its clearance (`lists`
    /// holds `c`; `close` is scratch).
    pub(super) fn set_point(
        &mut self,
        shapes: &[Option<Shape>],
        lists: &CellLists,
        close: &mut Vec<u32>,
        c: usize,
    ) {
        let cell = self.cell;
        let centre = self.center(c);
        let list = lists.get(c);
        let at_centre = clearance_at(shapes, list, centre, CLEARANCE_CAP);
        self.clearance[c] = at_centre;
        // The centre first: elsewhere only a strictly clearer sample replaces it.
        let (mut best, mut best_clear) = (centre, at_centre);
        // Samples lie within half a cell of the centre and clearance changes no faster than
        // distance: deep inside an obstacle none can be clear.
        if at_centre < CLEARANCE_CAP && at_centre + 0.5 * cell > 0.0 {
            // A sample p is at most ⅓·√2 cell from the centre, and its clearance is below
            // at_centre + |p − centre|: an obstacle can set it only if its bounding circle
            // comes within at_centre + 2·|p − centre| of the centre.
            close.clear();
            close.extend(list.iter().filter(|&&i| {
                shapes[i as usize].is_some_and(|s| {
                    s.center.distance(centre) - s.bounding_radius() < at_centre + cell + PRUNE_SLACK
                })
            }));
            let k = REP_SAMPLES as f32;
            for j in 0..REP_SAMPLES {
                for i in 0..REP_SAMPLES {
                    let off = Vec2::new(i as f32 + 0.5, j as f32 + 0.5) / k - 0.5;
                    // (The centre's sample is the centre: its clearance is `at_centre`,
                    // never strictly clearer.)
                    if off == Vec2::ZERO {
                        continue;
                    }
                    let p = centre + off * cell;
                    // Clearance grows no faster than distance: the bound prunes the obstacles
                    // (the nearest is below it, with room for rounding).
                    let bound = (at_centre + off.length() * cell + PRUNE_SLACK).min(CLEARANCE_CAP);
                    // Its clearance, at most the bound, cannot beat the best so far when the
                    // bound does not (the centre's own sample among them, once any sample
                    // is clearer than the centre).
                    if bound <= best_clear {
                        continue;
                    }
                    let clear = clearance_at(shapes, close, p, bound);
                    if clear > best_clear {
                        (best, best_clear) = (p, clear);
                    }
                }
            }
        }
        self.rep[c] = best;
        self.rep_clear[c] = best_clear;
    }

    /// The clearances of cell `c`'s eight moves, in [`NEIGHBOURS`] order (its neighbours'
    /// points and the segments to them are set). For the move k from c to n, with point
    /// clearances ρ(c), ρ(n) and segment clearance e(c, n) ≤ min(ρ(c), ρ(n)):
    ///
    /// reach(c, k) = min(ρ(n), e(c, n)), NaN when either is NaN, −∞ when n is off the grid,
    ///
    /// so that for every clearance p with ρ(c) ≥ p, `can_move(c, n, p)` (ρ(n) ≥ p and
    /// e(c, n) ≥ p) holds exactly when reach(c, k) ≥ p. Only its byte [`level`] a move is
    /// stored (and the cell's): the open-move test for any radius is a compare of bytes, and
    /// these exact values are computed again only where a level ties.
    #[inline]
    pub(super) fn move_reach(&self, c: usize) -> [f32; 8] {
        let (x, z) = ((c % self.nx) as i64, (c / self.nx) as i64);
        let (nx, nz) = (self.nx as i64, self.nz as i64);
        let mut reach = [f32::NEG_INFINITY; 8];
        for (k, &(dx, dz, _)) in NEIGHBOURS.iter().enumerate() {
            // (`neighbour` without its division per move.)
            let (xn, zn) = (x + dx, z + dz);
            if xn < 0 || zn < 0 || xn >= nx || zn >= nz {
                continue;
            }
            let n = (xn + zn * nx) as usize;
            let (point, segment) = (self.rep_clear[n], self.edge_clear(c, n, dx, dz));
            reach[k] = if point.is_nan() || segment.is_nan() {
                f32::NAN
            } else {
                point.min(segment)
            };
        }
        reach
    }

    /// Sets the levels of cell `c`'s eight moves ([`Self::move_reach`]) and of its point.
    pub(super) fn set_reach(&mut self, c: usize) {
        self.reach_level[c] = u64::from_le_bytes(self.move_reach(c).map(level));
        self.point_level[c] = level(self.rep_clear[c]);
    }

    /// Sets the clearance of the segments from cell `c`'s point to its neighbours' (`lists`
    /// holds `c`; every point is set).
    pub(super) fn set_edges(&mut self, shapes: &[Option<Shape>], lists: &CellLists, c: usize) {
        let (x, z) = ((c % self.nx) as i64, (c / self.nx) as i64);
        let (nx, nz) = (self.nx as i64, self.nz as i64);
        for (k, (dx, dz)) in EDGES.into_iter().enumerate() {
            // (`neighbour` without its division per move.)
            let (xn, zn) = (x + dx, z + dz);
            if xn < 0 || zn < 0 || xn >= nx || zn >= nz {
                continue;
            }
            let n = (xn + zn * nx) as usize;
            let (a, b) = (self.rep[c], self.rep[n]);
            // The end points are on the segment: it is no clearer than they are. A closed end
            // closes the move whatever the segment's clearance.
            let clearest = self.rep_clear[c].min(self.rep_clear[n]);
            self.edge[c][k] = if clearest <= 0.0 {
                clearest
            } else {
                segment_clearance(shapes, lists.get(c), a, b, clearest)
            };
        }
    }

    /// The cells whose centre lies within the bounding square of the disc of `far` round
    /// `s`'s bounding circle, as the corners (column, row) of that square, clamped to the
    /// grid; `None` when no cell does.
    pub(super) fn reach_cells(&self, s: &Shape, far: f32) -> Option<(Vec2, Vec2)> {
        let reach = far + s.bounding_radius();
        let lo = ((s.center - reach - self.origin) / self.cell - 0.5).ceil();
        let hi = ((s.center + reach - self.origin) / self.cell - 0.5).floor();
        let lo = lo.max(Vec2::ZERO);
        let hi = hi.min(Vec2::new(self.nx as f32 - 1.0, self.nz as f32 - 1.0));
        (lo.x <= hi.x && lo.y <= hi.y).then_some((lo, hi))
    }

    /// The cell at (`dx`, `dz`) from cell `c`, if it is on the grid.
    #[inline(always)]
    pub(super) fn neighbour(&self, c: usize, dx: i64, dz: i64) -> Option<usize> {
        let (x, z) = ((c % self.nx) as i64 + dx, (c / self.nx) as i64 + dz);
        (x >= 0 && z >= 0 && x < self.nx as i64 && z < self.nz as i64)
            .then(|| (x + z * self.nx as i64) as usize)
    }

    /// Whether a field of clearance `pass` spreads from cell `c` to its neighbour `n` at
    /// (`dx`, `dz`): `n`'s point and the segment to it are clear. A closed `c` is a goal cell
    /// seeded for want of an open one near the goal; it spreads to its open neighbours.
    #[inline(always)]
    pub(super) fn can_move(&self, c: usize, n: usize, dx: i64, dz: i64, pass: f32) -> bool {
        self.rep_clear[n] >= pass
            && (self.rep_clear[c] < pass || self.edge_clear(c, n, dx, dz) >= pass)
    }

    /// Clearance of the move from cell `c` to its neighbour `n` at (`dx`, `dz`).
    #[inline(always)]
    pub(super) fn edge_clear(&self, c: usize, n: usize, dx: i64, dz: i64) -> f32 {
        match (dx, dz) {
            (1, 0) => self.edge[c][0],
            (-1, 0) => self.edge[n][0],
            (0, 1) => self.edge[c][1],
            (0, -1) => self.edge[n][1],
            (1, 1) => self.edge[c][2],
            (-1, -1) => self.edge[n][2],
            (-1, 1) => self.edge[c][3],
            _ => self.edge[n][3],
        }
    }

    /// The centre of cell `c`.
    pub(super) fn center(&self, c: usize) -> Vec2 {
        self.center_xz(c % self.nx, c / self.nx)
    }

    /// The centre of the cell in column `x`, row `z`.
    pub(super) fn center_xz(&self, x: usize, z: usize) -> Vec2 {
        self.origin + Vec2::new(x as f32 + 0.5, z as f32 + 0.5) * self.cell
    }

    /// The cell holding `p`, or the nearest border cell when `p` is outside the grid.
    pub(super) fn clamped_cell(&self, p: Vec2) -> usize {
        let l = (p - self.origin) / self.cell;
        let x = (l.x.max(0.0) as usize).min(self.nx - 1);
        let z = (l.y.max(0.0) as usize).min(self.nz - 1);
        x + z * self.nx
    }

    /// The column and row of the cell holding `p` (`None` off the grid).
    pub(super) fn column_row(&self, p: Vec2) -> Option<(usize, usize)> {
        let l = (p - self.origin) / self.cell;
        if l.x < 0.0 || l.y < 0.0 {
            return None;
        }
        let (x, z) = (l.x as usize, l.y as usize);
        (x < self.nx && z < self.nz).then_some((x, z))
    }

    /// Clearance a line of sight needs for an agent of `radius`, sampled at cell centres: its
    /// radius, plus the half cell the centre sample can be off by.
    pub(super) fn need(&self, radius: f32) -> f32 {
        radius.min(CLEARANCE_CAP - 0.5 * self.cell).max(0.0) + 0.5 * self.cell
    }

    /// Clearance the representative points and the segments between them need for an agent
    /// of `radius` (clearances are capped: larger agents plan as the cap).
    pub(super) fn pass(radius: f32) -> f32 {
        (radius.max(0.0) + PASS_SKIN).min(CLEARANCE_CAP)
    }
}
