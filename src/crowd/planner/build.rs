//! Building the clearance grid in slices: a crowd's rebuild of a grid in use runs over the
//! sub-steps that follow it, a share of the route budget at a time, so no step of play pays for
//! a whole grid.
//!
//! A cell's stored values depend only on the obstacles and on values stored before them in
//! this order: its centre and representative point (`Planner::set_point`, the obstacles near
//! it), the segments from its point to its neighbours' (`Planner::set_edges`, the points of its
//! row and the next), its move clearances (`Planner::set_reach`, the points of the rows beside
//! it and the segments stored in its row and the one before). The build walks the rows as a
//! pipeline: at pipeline row r, the points of row r, then the segments and the move clearances
//! of row r − 1. Each value is computed once, from the values it reads, as in a rebuild at
//! once: the grid gets the same bits however the rows are sliced.
//!
//! The build runs on a snapshot of the obstacles it began with. Obstacles that change
//! meanwhile (those whose slot holds another shape at the end) are applied when it ends, at
//! once, as a local update (`Planner::update`: the same bits as a rebuild), so obstacles that
//! change at every step delay no build, and when a build ends the grid is up to date.

use super::super::obstacle::Shape;
use super::grid::Layout;
use super::grid::BLOCK;
use super::lists::Area;
use super::lists::CellLists;
use super::lists::LIST_ITEMS;
use super::Planner;
use super::CLEARANCE_CAP;
use super::MAX_PLANNER_CELLS;

/// A build of the grid costs about as much as this many distance fields over as many cells
/// (measured on the finest grid, 65 536 cells among 200 circles: 12 ms against 1 ms a
/// field), so a sub-step with a budget of b fields builds the rows of about
/// b × [`MAX_PLANNER_CELLS`] ⁄ `GRID_FIELDS` cells (at least one row; on a grid of up to that
/// many cells, all of it), and computes no field.
pub const GRID_FIELDS: usize = 12;

/// A build of the clearance grid under way (see the module's docs).
#[derive(Clone, Debug)]
pub(super) struct GridBuild {
    /// The obstacles it began with.
    shapes: Vec<Option<Shape>>,
    /// The obstacles near each cell, listed once for the whole grid.
    lists: CellLists,
    /// Scratch for `Planner::set_point`.
    close: Vec<u32>,
    /// The next pipeline row (0..=nz).
    row: usize,
}

impl Planner {
    /// Lays out the grid `layout` for these obstacles and starts its build: every cached field
    /// is dropped, the obstacles near each cell are listed, and the rows are left to
    /// [`Self::advance_build`]. Obstacles overlapping by the thousand (more than `list_items`
    /// listed entries) are listed and built in runs of cells, at once.
    pub(super) fn start_build(
        &mut self,
        shapes: &[Option<Shape>],
        list_items: usize,
        layout: Option<Layout>,
    ) {
        self.pending = None;
        self.fields.clear();
        self.keys.clear();
        self.clearance.clear();
        self.block_min.clear();
        self.rep.clear();
        self.rep_clear.clear();
        self.edge.clear();
        self.reach_level.clear();
        self.point_level.clear();
        self.nx = 0;
        self.nz = 0;
        let Some((origin, cell, nx, nz)) = layout else {
            return;
        };
        (self.origin, self.cell, self.nx, self.nz) = (origin, cell, nx, nz);
        let cells = nx * nz;
        self.clearance.resize(cells, CLEARANCE_CAP);
        self.rep.resize(cells, glam::Vec2::ZERO);
        self.rep_clear.resize(cells, CLEARANCE_CAP);
        self.edge.resize(cells, [0.0; 4]);
        self.reach_level.resize(cells, 0);
        self.point_level.resize(cells, 0);
        self.block_min = vec![CLEARANCE_CAP; nx.div_ceil(BLOCK) * nz.div_ceil(BLOCK)];
        // Per cell, the obstacles that come within `far` are listed (the only ones that can
        // lower a clearance): in one run unless the obstacles overlap by the thousand, so
        // memory stays bounded whatever the obstacles.
        let far = self.far();
        let all = Area::all(self);
        let mut lists = CellLists::default();
        if lists.build(self, shapes, far, Err(list_items), all) {
            self.pending = Some(Box::new(GridBuild {
                shapes: shapes.to_vec(),
                lists,
                close: Vec::new(),
                row: 0,
            }));
        } else {
            self.build_in_runs(shapes, list_items);
        }
    }

    /// Whether a build of the grid is under way: planned agents walk straight at their
    /// targets until it ends.
    pub(super) fn building(&self) -> bool {
        self.pending.is_some()
    }

    /// Goes on with the build under way by up to `rows` pipeline rows (`usize::MAX`: to the
    /// end); at the end, applies the obstacles that changed meanwhile (`shapes` holds them as
    /// they are now). Returns whether the build ended.
    pub(super) fn advance_build(&mut self, shapes: &[Option<Shape>], rows: usize) -> bool {
        let Some(mut b) = self.pending.take() else {
            return false;
        };
        let (nx, nz) = (self.nx, self.nz);
        let end = b.row.saturating_add(rows).min(nz + 1);
        for r in b.row..end {
            if r < nz {
                for c in r * nx..(r + 1) * nx {
                    self.set_point(&b.shapes, &b.lists, &mut b.close, c);
                }
            }
            if r > 0 {
                for c in (r - 1) * nx..r * nx {
                    self.set_edges(&b.shapes, &b.lists, c);
                }
                for c in (r - 1) * nx..r * nx {
                    self.set_reach(c);
                }
            }
        }
        b.row = end;
        if end <= nz {
            self.pending = Some(b);
            return false;
        }
        self.set_block_mins(Area::all(self));
        // The obstacles that changed meanwhile: in each slot whose shape differs, the one it
        // began with (removed) and the one it holds now (added).
        let now = |i: usize| shapes.get(i).copied().flatten();
        let slots = b.shapes.len().max(shapes.len());
        let changed: Vec<Shape> = (0..slots)
            .filter(|&i| b.shapes.get(i).copied().flatten() != now(i))
            .flat_map(|i| [b.shapes.get(i).copied().flatten(), now(i)])
            .flatten()
            .collect();
        if !changed.is_empty() {
            self.update_listing(shapes, &changed, LIST_ITEMS, false);
        }
        true
    }

    /// Brings the grid up to date with the obstacles for a crowd: obstacles `changed` since
    /// the last call (each added or removed; `None` for a rebuild). A local update runs at
    /// once. A grid where there was none (the first step with a planned agent, as at a
    /// level's load) is built at once, so agents have routes from their first step; a grid in
    /// use that must be built again (re-laid, or changed too widely for a local update) is
    /// rebuilt in slices by [`Self::build_step`], so no step of play pays for a whole grid (as
    /// a navigation mesh is baked at load and its tiles rebuilt within a budget while the game
    /// runs). While a build is under way, changes wait for its end (which finds them by
    /// itself).
    pub(crate) fn refresh(&mut self, shapes: &[Option<Shape>], changed: Option<&[Shape]>) {
        // Kept ways may cross what changed: every agent routes afresh.
        self.ways.clear();
        if self.building() {
            return;
        }
        let sliced = self.nx > 0;
        match changed {
            Some(changed) => {
                self.update_listing(shapes, changed, LIST_ITEMS, sliced);
            }
            None => {
                self.start_build(shapes, LIST_ITEMS, Self::layout(shapes));
                if !sliced {
                    self.advance_build(shapes, usize::MAX);
                }
            }
        }
    }

    /// Ends the build under way, if any, at once (see `Crowd::bake_routes`). `shapes`: the
    /// obstacles as they are now.
    pub(crate) fn finish_build(&mut self, shapes: &[Option<Shape>]) {
        self.advance_build(shapes, usize::MAX);
    }

    /// Runs a sub-step's slice of the build under way, if any ([`GRID_FIELDS`]: the route
    /// budget's share of the cells); such a sub-step computes no field and searches no way.
    /// `shapes`: the obstacles as they are now.
    pub(crate) fn build_step(&mut self, shapes: &[Option<Shape>]) {
        if !self.building() {
            return;
        }
        let cells = self.per_step as usize * MAX_PLANNER_CELLS as usize / GRID_FIELDS;
        let rows = cells.div_ceil(self.nx).max(1);
        self.advance_build(shapes, rows);
        self.budget = 0;
        self.search_cells = 0;
    }
}
