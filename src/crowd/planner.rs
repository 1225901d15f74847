//! Routes around static obstacles: a clearance grid built when obstacles change, and per goal
//! a distance field (Dijkstra over the 8-connected grid) shared by every agent whose goal
//! falls in the same cell and whose radius rounds to the same class. An agent walks toward the
//! farthest cell of its descent along the field that it can see (string pulling), or straight
//! at the target once it sees it. An agent whose field a sub-step cannot give (not cached, the
//! field budget spent) searches a way of its own meanwhile, in turns within a share of the
//! budget (A* from the goal over the same moves), and aims along it the same way. Near its
//! goal's block, where the field (seeded at 0 over the whole block) cannot tell the way to the
//! target itself, an agent that does not see its target takes the last stretch by a small A*
//! search from the cells beside the target (`Planner::approach`).
//!
//! Passability is exact along the graph's own segments. Each cell has a representative point:
//! of `REP_SAMPLES`² points spread over the cell (a third of a cell apart), the one with the
//! most clearance. A cell is open to an agent of radius r where that point's clearance is at
//! least r + [`PASS_SKIN`], and a move between neighbours where the segment joining their
//! points keeps that clearance (its exact distance to each obstacle,
//! [`Shape::segment_distance`]). A route through open cells is then a polyline a disc of
//! radius r + `PASS_SKIN` can slide along. A door a little wider than the agent is open
//! wherever the grid lies: in a wall along a grid axis some row of samples lies within a
//! sixth of a cell of the door's midline, so a door 2·(r + `PASS_SKIN`) plus a third of a
//! cell wide is open. (Clearance sampled at cell centres alone must ask for half a cell more
//! than the radius to guarantee anything: on the finest grid that closed doors narrower than
//! 2r + 2 cells, e.g. SteerSuite `doorway-one-way`, a 1.2 m door for agents of radius 0.5.)
//!
//! Obstacles that change (added, removed, moved as a remove and an add) are cheap while they stay
//! on the planning grid: only the cells within reach of them are computed again (`Planner::update`;
//! the same bits as a rebuild), and each cached field that the change touched is repaired where its
//! passability flipped, when next asked for (`Planner::repair`; the same bits as computing it
//! again). A door that opens or a crate that slides costs a fraction of a millisecond, not a
//! rebuild of the grid and of every route. The grid is laid over the obstacles' bounding box; when
//! a change takes an obstacle past it, the new grid leaves an eighth of the span spare on each side
//! (and is kept while it covers at most twice the area the obstacles alone would get), so an
//! obstacle that keeps moving outward re-lays the grid only now and then.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use glam::{DVec2, Vec2};

use super::buckets::Buckets;
use super::obstacle::{point_segment_distance, Shape};
use super::paths::{Found, Graph, Search};

/// Most cells of the planning grid.
pub const MAX_PLANNER_CELLS: f32 = 65_536.0;
/// Finest planning cell, metres.
pub const MIN_PLANNER_CELL: f32 = 0.25;
/// The grid's placement: origin, cell edge, columns, rows.
type Layout = (Vec2, f32, usize, usize);

/// Room a re-laid grid leaves round the obstacles' bounds, on each side, as a share of their
/// span (see `Planner::layout_for_update`).
const LAYOUT_SLACK: f32 = 0.125;

/// How many times the area of the grid the obstacles alone would get a grid may cover and
/// still be kept by a local update (so its cells are at most √2 × coarser, or at most
/// twice as many).
const KEEP_AREA: f32 = 2.0;

/// Cells a side of the blocks whose least clearance lets a line of sight skip samples.
const BLOCK: usize = 8;

/// Free border around the obstacles' bounding box, metres.
pub const PLANNER_MARGIN: f32 = 4.0;
/// Clearance is measured up to this distance, metres (larger agents plan as this radius).
pub const CLEARANCE_CAP: f32 = 3.0;
/// Distance fields kept by default, and the most
/// [`Crowd::set_route_cache`](super::Crowd::set_route_cache) accepts; beyond the cap a new
/// field replaces the least recently used, once that one has gone unused for
/// [`FIELD_HOT_STEPS`]. Each holds one `f32` per planning cell (about
/// `MAX_PLANNER_CELLS` at most, see [`Planner::cells`]: 256 KiB), allocated as distinct goals
/// appear, so the cache peaks at 128 MiB for a crowd with 512 distinct goals on the finest
/// grid (144 MiB while every field is stale, holding its repair list: see
/// [`Planner::field_bytes`]). With a smaller cache, more of the agents that have goals of their
/// own search their ways instead of following fields. (Before those searches, and while a
/// full cache still dropped fields in use, SteerSuite `forest` with 64 fields for its 500
/// agents mostly walked straight, waiting for a field, and 16 % stuck behind boxes; with
/// 512, 1 %.)
pub const MAX_FIELDS: usize = 512;
/// Clearance asked of a planned route beyond the agent's radius, metres.
pub const PASS_SKIN: f32 = 0.05;
/// Samples along each edge of a cell (so `REP_SAMPLES`² in all, the centre among them) of
/// which the one with the most clearance is the cell's representative point.
const REP_SAMPLES: usize = 3;
/// Goals within one block of this edge (metres) share a distance field.
pub const GOAL_BLOCK: f32 = 2.0;
/// Sub-steps between two route updates of an agent (sooner when it reaches its route point).
pub const REPLAN_STEPS: u32 = 10;
/// Sub-steps a cached field must go unused before a new field may take its place in a full
/// cache: twice [`REPLAN_STEPS`], so a field an agent is following (it asks at every route
/// update) is never dropped for another goal's. With more goals in use than the cache holds,
/// dropping the least recently used anyway only moves the miss to that field's agents: every
/// ask computed a field (the 10 k benchmark with every agent planned recomputed thousands).
/// Agents refused a field search ways of their own meanwhile, as when the budget is spent.
pub const FIELD_HOT_STEPS: u64 = 2 * REPLAN_STEPS as u64;
/// New distance fields computed (or stale ones repaired) per sub-step at most, unless set
/// otherwise with [`Crowd::set_route_budget`](super::Crowd::set_route_budget): each a Dijkstra
/// over the planning grid (~1 ms on the finest one here); agents beyond the budget search
/// ways of their own within a sixteenth of a field's cells per unit of budget, in turns, or
/// walk straight, and ask again next sub-step.
pub const FIELDS_PER_STEP: u32 = 4;
/// The largest per-sub-step budget of new fields [`Crowd::set_route_budget`](super::Crowd::set_route_budget)
/// accepts.
pub const MAX_FIELDS_PER_STEP: u32 = 64;
/// Rings of cells round a goal block with no passable cell over which the impassable region
/// it lies in is flooded to find that region's sides (see `Planner::seeds`).
const MAX_GOAL_RING: i64 = 32;
/// Cells of the square a goal block's region is flooded over, at most (a block is at most
/// `GOAL_BLOCK / MIN_PLANNER_CELL` cells wide).
const FLOOD_CELLS: usize = {
    let side = (GOAL_BLOCK / MIN_PLANNER_CELL) as usize + 2 * MAX_GOAL_RING as usize;
    side * side
};
/// The eight neighbours of a cell and the length of the move to each, in cells.
pub(crate) const NEIGHBOURS: [(i64, i64, f32); 8] = [
    (1, 0, 1.0),
    (-1, 0, 1.0),
    (0, 1, 1.0),
    (0, -1, 1.0),
    (1, 1, core::f32::consts::SQRT_2),
    (1, -1, core::f32::consts::SQRT_2),
    (-1, 1, core::f32::consts::SQRT_2),
    (-1, -1, core::f32::consts::SQRT_2),
];
/// The neighbours whose segments a cell stores (the other four are stored by them).
const EDGES: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];
/// Farthest a straight slide is tested, in cells: the first hop and the cells near the agent
/// lie within 10 cells of it when it stands on the grid.
const SLIDE_CELLS: f32 = 12.0;
/// Cells of descent looked along for the farthest visible one.
const LOOK_ALONG: usize = 96;
/// An agent whose cell lies within this many columns and rows of its goal's block and does
/// not see its target takes the last stretch by [`Planner::approach`].
const APPROACH_CELLS: usize = 3;
/// How far [`Planner::approach`] widens, in half cells, the distance from the target its
/// seeds' points must slide to.
const APPROACH_RINGS: usize = 4;
/// Cells beyond [`APPROACH_CELLS`] within which an agent that took its last stretch by
/// [`Planner::approach`] at its last route keeps to it. (Starting and leaving at the same
/// distance, an agent whose way from there went out round a box, the field's way back in
/// going round another, paced between the two for good: one of 800 planned agents of the
/// speed benchmark's scene.)
const APPROACH_HOLD: usize = 6;
/// The most cells the search of [`Planner::approach`] takes.
const APPROACH_SEARCH: u64 = 1024;
/// Cells the A* searches of agents waiting for a field may take per sub-step, per field of
/// the route budget, as a fraction of the grid's cells (1/16 of a field's cells; a search
/// takes a cell at several times a field's cost, a heap against buckets, so on the 10 k
/// benchmark the searches of a sub-step cost about a quarter of its four fields' time).
const SEARCH_SHARE: u64 = 16;
/// The most sub-steps between two turns of an agent to search (see [`Planner::begin_step`]).
const MAX_STRIDE: u64 = 64;

/// Whether a cached field is still true. A stale one is used as it is until it is brought up
/// to date, when next asked for within a step's budget.
#[derive(Clone, Debug, PartialEq)]
enum Freshness {
    Fresh,
    /// Stale where these cells (or moves from them) changed between open and closed: repaired
    /// there.
    Repair(Vec<u32>),
    /// Stale where more than an eighth of the grid changed: computed again.
    Recompute,
}

#[derive(Clone, Debug)]
struct Field {
    goal: usize,
    class: u32,
    /// The clearance it was computed for.
    pass: f32,
    /// The cells it was seeded at and their values (see [`Planner::seeds`]).
    seeds: Vec<(u32, f32)>,
    /// Whether obstacles changed the cells' or moves' passability for `pass` since it was
    /// computed (see [`Freshness`]).
    fresh: Freshness,
    dist: Vec<f32>,
    used: u64,
    /// The sub-step ([`Planner::begin_step`]) of its last use.
    used_step: u64,
}

/// The moves open to one clearance: bit k of `open[c]` is set when a field of clearance
/// `pass` spreads from cell c over `NEIGHBOURS[k]` (see `Planner::can_move`; off-grid moves
/// are closed). Shared by every field of that clearance, so a field's search reads one byte
/// per cell instead of testing eight moves.
#[derive(Clone, Debug)]
struct Moves {
    pass: f32,
    open: Vec<u8>,
    used: u64,
}

/// Clearances whose open moves are kept (least recently used dropped first): one byte per
/// planning cell each.
const MAX_MOVE_SETS: usize = 8;

/// The index of the least recently used of `items` (not empty), by their `used` tick.
fn least_used<T>(items: &[T], used: impl Fn(&T) -> u64) -> usize {
    (0..items.len())
        .min_by_key(|&i| used(&items[i]))
        .expect("items to choose from")
}

/// The key of the field of goal block `goal` and radius class `class`.
fn field_key(goal: usize, class: u32) -> u64 {
    (goal as u64) << 32 | class as u64
}

/// The hash of a [`field_key`] (a multiply of its bits, folded: the keys are not chosen by an
/// adversary, and a lookup is one multiply; no seed, so the same keys hash the same way on
/// every run, though no result depends on it).
#[derive(Clone, Copy, Debug, Default)]
struct KeyHash(u64);

impl Hasher for KeyHash {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn finish(&self) -> u64 {
        // The product's high half, where every key bit reaches, folded onto the low half too
        // (the table takes its bucket from the low bits and its tag from the top ones).
        self.0 ^ self.0 >> 32
    }
}

/// How an agent took its last stretch to its target (see [`Planner::approach`]) when its route
/// point was last refreshed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Approach {
    /// Not by [`Planner::approach`].
    #[default]
    Off,
    /// Along the way that search found.
    Search,
    /// Straight at the target (the search's own straight slide got near enough). The next
    /// route keeps it straight while its slide still gets within one ring (half a cell) more
    /// of the target than the search's seeds do (see [`Planner::approach`]).
    Straight,
}

/// One agent's question to [`Planner::descend`] and [`Planner::approach`]: where it stands,
/// its target and radius, the centre clearance its lines of sight ask (`need`), the clearance
/// of the field's cells and moves (`pass`), the spacing of its exact disc tests (`step`), and
/// whether it is wedged (touching two obstacles or more), and how it took its last stretch by
/// [`Planner::approach`] at its last route.
#[derive(Clone, Copy, Debug)]
struct Leg {
    pos: Vec2,
    target: Vec2,
    radius: f32,
    need: f32,
    pass: f32,
    step: f32,
    wedged: bool,
    approaching: Approach,
}

/// The route planner of a crowd.
///
/// ```
/// use wayfarer::crowd::{Crowd, Obstacle, RouteMode};
/// use wayfarer::Vec3;
///
/// let mut crowd = Crowd::new(4).unwrap();
/// crowd.add_obstacle(Obstacle::Box { min: Vec3::new(-3.0, 0.0, 2.0), max: Vec3::new(3.0, 0.0, 3.0) }).unwrap();
/// let id = crowd.add_agent(Vec3::ZERO, 0.0, 1.3, 0.3).unwrap();
/// crowd.set_route_mode(id, RouteMode::Planned).unwrap();
/// crowd.set_target(id, Vec3::new(0.0, 0.0, 6.0), 0.3).unwrap();
/// crowd.step(0.1, 1).unwrap();
/// assert!(crowd.planner().fields_computed() >= 1); // a distance field toward the goal
/// ```
#[derive(Clone, Debug)]
pub struct Planner {
    origin: Vec2,
    cell: f32,
    nx: usize,
    nz: usize,
    /// Clearance at each cell's centre (line-of-sight tests).
    clearance: Vec<f32>,
    /// The least centre clearance of each block of `BLOCK` × `BLOCK` cells (row-major, the
    /// last row and column of blocks cut by the grid's edge): a line of sight skips the
    /// samples it is sure to take within a block that no need exceeds.
    block_min: Vec<f32>,
    /// Each cell's representative point and its clearance (capped at `CLEARANCE_CAP`).
    rep: Vec<Vec2>,
    rep_clear: Vec<f32>,
    /// Clearance of the segments from each cell's point to those of its neighbours at
    /// (+1, 0), (0, +1), (+1, +1), (−1, +1) (capped; 0 where the neighbour is off the grid).
    edge: Vec<[f32; 4]>,
    fields: Vec<Field>,
    /// The index in `fields` of each field by its `field_key` (a lookup is one probe, not a
    /// scan of up to [`MAX_FIELDS`] keys: a crowd with thousands of goals asks every agent's
    /// every sub-step).
    keys: HashMap<u64, u32, BuildHasherDefault<KeyHash>>,
    /// Most fields cached (1..=[`MAX_FIELDS`]).
    max_fields: usize,
    /// The sub-step it was counted in, and how many cached fields a new one may still replace
    /// in this sub-step (those unused for [`FIELD_HOT_STEPS`]; see [`Planner::admits`]).
    cold: (u64, usize),
    tick: u64,
    computed: u64,
    repaired: u64,
    queue: Buckets,
    /// Open moves per clearance in use (at most `MAX_MOVE_SETS`).
    moves: Vec<Moves>,
    budget: u32,
    /// New fields per sub-step (1..=`MAX_FIELDS_PER_STEP`).
    per_step: u32,
    /// The A* search for agents waiting for a field ([`super::paths`]), its seeds and path
    /// buffers, the cells it may still take this sub-step, and the searches run so far.
    search: Search,
    search_seeds: Vec<(u32, f32)>,
    path: Vec<u32>,
    search_cells: u64,
    searched: u64,
    /// Sub-steps begun; an agent may search in a sub-step when (its ticket + this) is a
    /// multiple of `stride`. Agents that asked to search in the last sub-step (whether it
    /// was their turn or not) and those given a search (see [`Self::begin_step`]).
    sub_steps: u64,
    stride: u64,
    asked: u64,
    granted: u64,
}

impl Default for Planner {
    /// No grid, no fields, a cache of [`MAX_FIELDS`].
    fn default() -> Self {
        Self {
            origin: Vec2::ZERO,
            cell: 0.0,
            nx: 0,
            nz: 0,
            clearance: Vec::new(),
            block_min: Vec::new(),
            rep: Vec::new(),
            rep_clear: Vec::new(),
            edge: Vec::new(),
            fields: Vec::new(),
            keys: HashMap::default(),
            max_fields: MAX_FIELDS,
            cold: (u64::MAX, 0),
            tick: 0,
            computed: 0,
            repaired: 0,
            queue: Buckets::default(),
            moves: Vec::new(),
            budget: 0,
            per_step: FIELDS_PER_STEP,
            search: Search::default(),
            search_seeds: Vec::new(),
            path: Vec::new(),
            search_cells: 0,
            searched: 0,
            sub_steps: 0,
            stride: 1,
            asked: 0,
            granted: 0,
        }
    }
}

impl Planner {
    /// Rebuilds the clearance grid for these obstacles and drops every cached field.
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
    pub(crate) fn update(&mut self, shapes: &[Option<Shape>], changed: &[Shape]) -> bool {
        self.update_listing(shapes, changed, LIST_ITEMS)
    }

    /// [`Self::update`], rebuilding (in runs of at most `list_items` entries) when an area's
    /// lists would hold more than `list_items` entries.
    fn update_listing(
        &mut self,
        shapes: &[Option<Shape>],
        changed: &[Shape],
        list_items: usize,
    ) -> bool {
        let layout = self.layout_for_update(shapes);
        if layout.is_none() || layout != self.current_layout() {
            self.rebuild_in_runs(shapes, list_items, layout);
            return false;
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
            self.rebuild_in_runs(shapes, list_items, layout);
            return false;
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
                self.rebuild_in_runs(shapes, list_items, layout);
                return false;
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
        // The open moves of every cell in an area or next to one (a move's clearance is
        // stored in one of its ends, and it needs both ends' points).
        let mut moves = std::mem::take(&mut self.moves);
        for a in &areas {
            // The area grown by a cell.
            let (x0, x1) = (a.x0.saturating_sub(1), (a.x1 + 1).min(self.nx - 1));
            let (z0, z1) = ((a.c0 / self.nx).saturating_sub(1), (a.c1 - 1) / self.nx + 1);
            for z in z0..=z1.min(self.nz - 1) {
                for c in z * self.nx + x0..=z * self.nx + x1 {
                    for m in &mut moves {
                        m.open[c] = self.open_moves(c, m.pass);
                    }
                }
            }
        }
        self.moves = moves;
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
            for m in &self.moves {
                debug_assert!(
                    (0..self.nx * self.nz).all(|c| m.open[c] == fresh.open_moves(c, m.pass)),
                    "patched open moves differ from new ones"
                );
            }
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
    fn same_grid_as(&self, other: &Planner) -> bool {
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
    }

    /// The obstacles' bounding box grown by `PLANNER_MARGIN` (`None` without obstacles).
    fn bounds(shapes: &[Option<Shape>]) -> Option<(Vec2, Vec2)> {
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
    fn layout(shapes: &[Option<Shape>]) -> Option<Layout> {
        Self::bounds(shapes).and_then(|(lo, hi)| Self::layout_over(lo, hi))
    }

    /// The grid in use (`None` without one).
    fn current_layout(&self) -> Option<Layout> {
        (self.nx > 0).then_some((self.origin, self.cell, self.nx, self.nz))
    }

    /// The grid a local update lays for these obstacles. The grid in use while it still
    /// covers them (and their margin) and at most `KEEP_AREA` × the area of the grid they
    /// alone would get; otherwise one over their bounds grown by `LAYOUT_SLACK` of the span
    /// on each side, so an obstacle that moves out past the grid, and on, re-lays it only now
    /// and then, not at every step (each re-lay drops every cached field).
    fn layout_for_update(&self, shapes: &[Option<Shape>]) -> Option<Layout> {
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
    fn layout_over(lo: Vec2, hi: Vec2) -> Option<Layout> {
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
    fn far(&self) -> f32 {
        CLEARANCE_CAP + 2.0 * self.cell
    }

    /// [`Self::rebuild`] on the grid `layout` (which covers the obstacles), listing obstacles
    /// per cell in runs of at most `list_items` entries.
    fn rebuild_in_runs(
        &mut self,
        shapes: &[Option<Shape>],
        list_items: usize,
        layout: Option<Layout>,
    ) {
        self.fields.clear();
        self.keys.clear();
        self.moves.clear();
        self.clearance.clear();
        self.block_min.clear();
        self.rep.clear();
        self.rep_clear.clear();
        self.edge.clear();
        self.nx = 0;
        self.nz = 0;
        let Some((origin, cell, nx, nz)) = layout else {
            return;
        };
        (self.origin, self.cell, self.nx, self.nz) = (origin, cell, nx, nz);
        let cells = nx * nz;
        self.clearance.resize(cells, CLEARANCE_CAP);
        self.rep.resize(cells, Vec2::ZERO);
        self.rep_clear.resize(cells, CLEARANCE_CAP);
        self.edge.resize(cells, [0.0; 4]);
        // Per cell, the obstacles that come within `far` are listed (the only ones that can
        // lower a clearance), in runs of cells of at most `list_items` entries (one run unless
        // the obstacles overlap by the thousand), so memory stays bounded whatever the
        // obstacles.
        let far = self.far();
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
        self.block_min = vec![CLEARANCE_CAP; nx.div_ceil(BLOCK) * nz.div_ceil(BLOCK)];
        self.set_block_mins(Area::all(self));
    }

    /// Sets the least centre clearance of every block that holds a cell of `area`.
    fn set_block_mins(&mut self, area: Area) {
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
    fn set_point(
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
                    let p = centre + off * cell;
                    // Clearance grows no faster than distance: the bound prunes the obstacles
                    // (the nearest is below it, with room for rounding).
                    let bound = at_centre + off.length() * cell + PRUNE_SLACK;
                    let clear = clearance_at(shapes, close, p, bound.min(CLEARANCE_CAP));
                    if clear > best_clear {
                        (best, best_clear) = (p, clear);
                    }
                }
            }
        }
        self.rep[c] = best;
        self.rep_clear[c] = best_clear;
    }

    /// Sets the clearance of the segments from cell `c`'s point to its neighbours' (`lists`
    /// holds `c`; every point is set).
    fn set_edges(&mut self, shapes: &[Option<Shape>], lists: &CellLists, c: usize) {
        for (k, (dx, dz)) in EDGES.into_iter().enumerate() {
            let Some(n) = self.neighbour(c, dx, dz) else {
                continue;
            };
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
    fn reach_cells(&self, s: &Shape, far: f32) -> Option<(Vec2, Vec2)> {
        let reach = far + s.bounding_radius();
        let lo = ((s.center - reach - self.origin) / self.cell - 0.5).ceil();
        let hi = ((s.center + reach - self.origin) / self.cell - 0.5).floor();
        let lo = lo.max(Vec2::ZERO);
        let hi = hi.min(Vec2::new(self.nx as f32 - 1.0, self.nz as f32 - 1.0));
        (lo.x <= hi.x && lo.y <= hi.y).then_some((lo, hi))
    }

    /// The cell at (`dx`, `dz`) from cell `c`, if it is on the grid.
    #[inline(always)]
    fn neighbour(&self, c: usize, dx: i64, dz: i64) -> Option<usize> {
        let (x, z) = ((c % self.nx) as i64 + dx, (c / self.nx) as i64 + dz);
        (x >= 0 && z >= 0 && x < self.nx as i64 && z < self.nz as i64)
            .then(|| (x + z * self.nx as i64) as usize)
    }

    /// Whether a field of clearance `pass` spreads from cell `c` to its neighbour `n` at
    /// (`dx`, `dz`): `n`'s point and the segment to it are clear. A closed `c` is a goal cell
    /// seeded for want of an open one near the goal; it spreads to its open neighbours.
    #[inline(always)]
    fn can_move(&self, c: usize, n: usize, dx: i64, dz: i64, pass: f32) -> bool {
        self.rep_clear[n] >= pass
            && (self.rep_clear[c] < pass || self.edge_clear(c, n, dx, dz) >= pass)
    }

    /// Whether a disc can slide from `pos` to `to` in a straight line: `fits` at every `step`
    /// metres of the part of the way over the grid grown by a cell (the obstacles, and their
    /// `PLANNER_MARGIN`, lie inside the grid: beyond it every point fits). Only asked of
    /// points a few cells apart (a cell near the agent's, the first cells of its descent, from
    /// the border in for an agent off the grid); a part longer than `SLIDE_CELLS` cells is
    /// answered no, untested. (Sampling the whole way, an agent 1e20 m off the grid took
    /// 1e20 / step samples: fuzz/crowd_ffi and crowd_threads.)
    fn slides(&self, pos: Vec2, to: Vec2, step: f32, fits: &impl Fn(Vec2) -> bool) -> bool {
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

    /// Clearance of the move from cell `c` to its neighbour `n` at (`dx`, `dz`).
    #[inline(always)]
    fn edge_clear(&self, c: usize, n: usize, dx: i64, dz: i64) -> f32 {
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

    /// Planning cell edge, metres (0 when there are no obstacles).
    pub fn cell_size(&self) -> f32 {
        if self.nx == 0 {
            0.0
        } else {
            self.cell
        }
    }

    /// Cells of the planning grid (0 when there are no obstacles): each cached distance field
    /// holds one `f32` per cell. At most `MAX_PLANNER_CELLS` (65 536) plus one row and one
    /// column of rounding, so about 256 KiB per field on a large world.
    pub fn cells(&self) -> usize {
        self.nx * self.nz
    }

    /// Distance fields computed so far (cache misses, and stale fields computed again rather
    /// than repaired).
    pub fn fields_computed(&self) -> u64 {
        self.computed
    }

    /// Stale distance fields repaired so far (brought up to date where obstacles changed,
    /// rather than computed again: see [`Crowd::add_obstacle`](super::Crowd::add_obstacle)).
    pub fn fields_repaired(&self) -> u64 {
        self.repaired
    }

    /// Cached distance fields marked stale by an obstacle change (used as they are until
    /// repaired: see [`Crowd::add_obstacle`](super::Crowd::add_obstacle)).
    pub fn fields_stale(&self) -> usize {
        self.fields
            .iter()
            .filter(|f| f.fresh != Freshness::Fresh)
            .count()
    }

    /// Distance fields currently cached (at most [`Self::max_fields`]).
    pub fn fields_cached(&self) -> usize {
        self.fields.len()
    }

    /// Bytes held by the cached distance fields: 4 per planning cell per field (about
    /// 256 KiB per field on a large world), and for a stale field 4 per cell of its repair
    /// list (under an eighth of that), so at most `max_fields() × cells() × 4.5`. The
    /// clearance grid (one more `f32` per cell), the open-move bits (a byte per cell for each
    /// of at most 8 radius classes in use) and the bookkeeping are not counted.
    pub fn field_bytes(&self) -> usize {
        self.fields
            .iter()
            .map(|f| {
                let listed = match &f.fresh {
                    Freshness::Repair(cells) => cells.capacity(),
                    _ => 0,
                };
                (f.dist.capacity() + listed) * core::mem::size_of::<f32>()
            })
            .sum()
    }

    /// Most distance fields cached: [`MAX_FIELDS`] unless lowered by
    /// [`Crowd::set_route_cache`](super::Crowd::set_route_cache).
    pub fn max_fields(&self) -> usize {
        self.max_fields
    }

    /// Caps the cache at `max_fields` (clamped to 1..=[`MAX_FIELDS`]; `Crowd::set_route_cache`
    /// refuses values outside), dropping the least recently used fields beyond it now and
    /// freeing their memory.
    pub(crate) fn set_max_fields(&mut self, max_fields: usize) {
        let max_fields = max_fields.clamp(1, MAX_FIELDS);
        self.max_fields = max_fields;
        if self.fields.len() > max_fields {
            // Most recently used first; `used` is unique per field (one tick per lookup).
            self.fields.sort_unstable_by_key(|f| Reverse(f.used));
            self.fields.truncate(max_fields);
            self.fields.shrink_to_fit();
            self.index_keys();
        }
    }

    fn center(&self, c: usize) -> Vec2 {
        self.center_xz(c % self.nx, c / self.nx)
    }

    fn center_xz(&self, x: usize, z: usize) -> Vec2 {
        self.origin + Vec2::new(x as f32 + 0.5, z as f32 + 0.5) * self.cell
    }

    /// The cell holding `p`, or the nearest border cell when `p` is outside the grid.
    fn clamped_cell(&self, p: Vec2) -> usize {
        let l = (p - self.origin) / self.cell;
        let x = (l.x.max(0.0) as usize).min(self.nx - 1);
        let z = (l.y.max(0.0) as usize).min(self.nz - 1);
        x + z * self.nx
    }

    /// The column and row of the cell holding `p` (`None` off the grid).
    fn column_row(&self, p: Vec2) -> Option<(usize, usize)> {
        let l = (p - self.origin) / self.cell;
        if l.x < 0.0 || l.y < 0.0 {
            return None;
        }
        let (x, z) = (l.x as usize, l.y as usize);
        (x < self.nx && z < self.nz).then_some((x, z))
    }

    /// Clearance a line of sight needs for an agent of `radius`, sampled at cell centres: its
    /// radius, plus the half cell the centre sample can be off by.
    fn need(&self, radius: f32) -> f32 {
        radius.min(CLEARANCE_CAP - 0.5 * self.cell).max(0.0) + 0.5 * self.cell
    }

    /// Clearance the representative points and the segments between them need for an agent
    /// of `radius` (clearances are capped: larger agents plan as the cap).
    fn pass(radius: f32) -> f32 {
        (radius.max(0.0) + PASS_SKIN).min(CLEARANCE_CAP)
    }

    /// True when a disc can slide from `a` to `b`: within 1.5 cells of `a`, where the cell
    /// clearances are too coarse (an agent touching an obstacle stands in a cell whose
    /// clearance is below its radius), `fits` tests the exact disc every `step` metres; farther
    /// on, the clearance grid every half cell.
    fn clear_line(
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
    fn last_sample_in_block(
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
    fn clip(&self, a: Vec2, b: Vec2) -> Option<(Vec2, Vec2)> {
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

    /// Goal block edge in cells: agents whose goals share a block share a field.
    fn block_cells(&self) -> usize {
        ((GOAL_BLOCK / self.cell).round() as usize).max(1)
    }

    /// The first cell of the goal block holding `target` (the goal of its fields).
    fn goal_block(&self, target: Vec2) -> usize {
        let goal = self.clamped_cell(target);
        let bc = self.block_cells();
        let (gx, gz) = (goal % self.nx, goal / self.nx);
        (gx - gx % bc) + (gz - gz % bc) * self.nx
    }

    /// The clearance class of the fields for clearance `pass`.
    fn class(pass: f32) -> u32 {
        (pass * 20.0).ceil() as u32
    }

    /// Whether [`Self::field`] would give the field of goal block `goal` for clearance `pass`
    /// now: it is cached, or this sub-step's budget can compute it and the cache can take it
    /// ([`Self::admits`]). (No use is recorded and no field changes.)
    fn field_ready(&mut self, goal: usize, pass: f32) -> bool {
        self.keys.contains_key(&field_key(goal, Self::class(pass)))
            || (self.budget > 0 && self.admits())
    }

    /// Whether the cache can take a new field now: it has room, or a cached field has gone
    /// unused for [`FIELD_HOT_STEPS`] sub-steps (the least recently used is then one of them).
    /// Counted once per sub-step; each field replaced uses one up.
    fn admits(&mut self) -> bool {
        if self.fields.len() < self.max_fields {
            return true;
        }
        if self.cold.0 != self.sub_steps {
            let now = self.sub_steps;
            let cold = self.fields.iter();
            let cold = cold
                .filter(|f| f.used_step + FIELD_HOT_STEPS <= now)
                .count();
            self.cold = (now, cold);
        }
        self.cold.1 > 0
    }

    /// Indexes every cached field by its key afresh.
    fn index_keys(&mut self) {
        self.keys.clear();
        let keys = self.fields.iter().map(|f| field_key(f.goal, f.class));
        self.keys.extend(keys.zip(0..));
    }

    /// Starts a sub-step: refills the field budget and the search budget, and sets how often
    /// an agent waiting for a field may search. When the last sub-step's searches ran out of
    /// cells, the agents that asked share them in turns: each may search every
    /// ⌈asked / granted⌉ sub-steps (at most [`MAX_STRIDE`]), so that the first agents of the
    /// crowd's order do not take every search; when they did not, the turns come twice as
    /// often again.
    pub(crate) fn begin_step(&mut self) {
        self.budget = self.per_step;
        self.stride = if self.search_cells == 0 && self.granted > 0 {
            self.asked.div_ceil(self.granted).clamp(1, MAX_STRIDE)
        } else {
            (self.stride / 2).max(1)
        };
        self.sub_steps += 1;
        self.asked = 0;
        self.granted = 0;
        self.search_cells = u64::from(self.per_step) * (self.nx * self.nz) as u64 / SEARCH_SHARE;
    }

    /// A* searches run so far for agents waiting for a field (none cached, the route budget
    /// spent), each from the goal to the agent, within a share of the budget.
    pub fn paths_searched(&self) -> u64 {
        self.searched
    }

    /// New distance fields computed or repaired per sub-step at most ([`FIELDS_PER_STEP`]
    /// unless set by [`Crowd::set_route_budget`](super::Crowd::set_route_budget)).
    pub fn fields_per_step(&self) -> u32 {
        self.per_step
    }

    /// Sets the budget of new fields per sub-step (clamped to 1..=[`MAX_FIELDS_PER_STEP`];
    /// `Crowd::set_route_budget` refuses values outside).
    pub(crate) fn set_fields_per_step(&mut self, per_step: u32) {
        self.per_step = per_step.clamp(1, MAX_FIELDS_PER_STEP);
    }

    fn field(&mut self, goal: usize, class: u32, pass: f32) -> Option<usize> {
        self.tick += 1;
        let key = field_key(goal, class);
        debug_assert_eq!(self.keys.len(), self.fields.len(), "one key per field");
        let cached = self.keys.get(&key).map(|&i| i as usize);
        if let Some(i) = cached {
            self.fields[i].used = self.tick;
            self.fields[i].used_step = self.sub_steps;
            if self.fields[i].fresh == Freshness::Fresh || self.budget == 0 {
                return Some(i);
            }
            // Stale: repaired where it changed, or computed again.
            self.budget -= 1;
            let f = &mut self.fields[i];
            let (pass, fresh) = (f.pass, std::mem::replace(&mut f.fresh, Freshness::Fresh));
            let mut dist = std::mem::take(&mut f.dist);
            let seeds = std::mem::take(&mut self.fields[i].seeds);
            self.fields[i].seeds = if let Freshness::Repair(flipped) = fresh {
                self.repaired += 1;
                let seeds = self.repair(&mut dist, goal, pass, &flipped, seeds);
                // (Debug builds, the fuzz targets among them, check it against a new field.)
                #[cfg(debug_assertions)]
                {
                    let mut again = Vec::new();
                    self.compute(&mut again, goal, pass);
                    let bits = |d: &[f32]| d.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    debug_assert!(bits(&dist) == bits(&again), "a repair differs");
                }
                seeds
            } else {
                self.computed += 1;
                self.compute(&mut dist, goal, pass)
            };
            self.fields[i].dist = dist;
            return Some(i);
        }
        if self.budget == 0 || !self.admits() {
            return None;
        }
        self.budget -= 1;
        let mut dist = if self.fields.len() >= self.max_fields {
            // (The least recently used is unused for FIELD_HOT_STEPS: `admits`.)
            self.cold.1 -= 1;
            let i = least_used(&self.fields, |f| f.used);
            let gone = self.fields.swap_remove(i);
            self.keys.remove(&field_key(gone.goal, gone.class));
            if let Some(moved) = self.fields.get(i) {
                self.keys
                    .insert(field_key(moved.goal, moved.class), i as u32);
            }
            gone.dist
        } else {
            Vec::new()
        };
        self.computed += 1;
        let seeds = self.compute(&mut dist, goal, pass);
        self.keys.insert(key, self.fields.len() as u32);
        self.fields.push(Field {
            goal,
            class,
            pass,
            seeds,
            fresh: Freshness::Fresh,
            dist,
            used: self.tick,
            used_step: self.sub_steps,
        });
        Some(self.fields.len() - 1)
    }

    /// Where the field of goal block `goal` for clearance `pass` starts, and at what values:
    /// every passable cell of the block at 0; for a block with none (the goal is closer to an
    /// obstacle than the agent's radius), the passable cells bordering the impassable region
    /// the block lies in, on every side (the region flooded from the block, eight-connected,
    /// within [`MAX_GOAL_RING`] rings of it), at 0; for want of those, the goal cell.
    /// Agents then walk to the nearest side of the obstacle round their goal and, from there,
    /// straight at the goal. (Seeding the block's own impassable cell alone left a field of
    /// that one cell: the agents walked straight at such goals, and one stuck behind a box in
    /// SteerSuite `forest`, seed 3. Seeding the first ring of cells round the block that had
    /// a passable cell, at their distance from the block, seeded one side of a box round the
    /// goal: a planned crowd sent to a point inside a 4 m box walked round to that side.)
    fn seeds(&self, goal: usize, pass: f32) -> Vec<(u32, f32)> {
        let mut seeds = Vec::new();
        self.seeds_into(goal, pass, &mut seeds);
        seeds
    }

    /// [`Self::seeds`] into `seeds` (cleared first).
    fn seeds_into(&self, goal: usize, pass: f32, seeds: &mut Vec<(u32, f32)>) {
        seeds.clear();
        let (nx, nz) = (self.nx as i64, self.nz as i64);
        let bc = self.block_cells();
        let (bx, bz) = (goal % self.nx, goal / self.nx);
        let (bx, bz) = ((bx - bx % bc) as i64, (bz - bz % bc) as i64);
        for z in bz..(bz + bc as i64).min(nz) {
            for x in bx..(bx + bc as i64).min(nx) {
                let c = (x + z * nx) as usize;
                if self.rep_clear[c] >= pass {
                    seeds.push((c as u32, 0.0));
                }
            }
        }
        if seeds.is_empty() {
            self.region_border(bx, bz, pass, seeds);
        }
        if seeds.is_empty() {
            seeds.push((goal as u32, 0.0));
        }
    }

    /// The passable cells bordering the impassable region that holds the block of first
    /// column `bx` and row `bz` (every cell of which is impassable for `pass`): the region is
    /// flooded from the block, eight-connected, within [`MAX_GOAL_RING`] rings of it, and each
    /// passable cell next to it (of the eight) is pushed onto `seeds` once, at 0.
    fn region_border(&self, bx: i64, bz: i64, pass: f32, seeds: &mut Vec<(u32, f32)>) {
        let (nx, nz) = (self.nx as i64, self.nz as i64);
        let bc = self.block_cells() as i64;
        let (x0, z0) = ((bx - MAX_GOAL_RING).max(0), (bz - MAX_GOAL_RING).max(0));
        let x1 = (bx + bc - 1 + MAX_GOAL_RING).min(nx - 1);
        let z1 = (bz + bc - 1 + MAX_GOAL_RING).min(nz - 1);
        let w = (x1 - x0 + 1) as usize;
        // Two marks a cell of the square: flooded (impassable, reached), bordering (pushed).
        let mut flooded = [0u64; FLOOD_CELLS.div_ceil(64)];
        let mut bordering = [0u64; FLOOD_CELLS.div_ceil(64)];
        let mark = |bits: &mut [u64], i: usize| {
            let was = bits[i / 64] >> (i % 64) & 1 == 1;
            bits[i / 64] |= 1 << (i % 64);
            was
        };
        let mut stack = [0u16; FLOOD_CELLS];
        let mut top = 0;
        for z in bz..(bz + bc).min(nz) {
            for x in bx..(bx + bc).min(nx) {
                let i = (x - x0) as usize + (z - z0) as usize * w;
                mark(&mut flooded, i);
                stack[top] = i as u16;
                top += 1;
            }
        }
        while top > 0 {
            top -= 1;
            let i = stack[top] as usize;
            let (x, z) = (x0 + (i % w) as i64, z0 + (i / w) as i64);
            for (dx, dz, _) in NEIGHBOURS {
                let (x, z) = (x + dx, z + dz);
                if x < x0 || x > x1 || z < z0 || z > z1 {
                    continue;
                }
                let i = (x - x0) as usize + (z - z0) as usize * w;
                let c = (x + z * nx) as usize;
                if self.rep_clear[c] >= pass {
                    if !mark(&mut bordering, i) {
                        seeds.push((c as u32, 0.0));
                    }
                } else if !mark(&mut flooded, i) {
                    stack[top] = i as u16;
                    top += 1;
                }
            }
        }
    }

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
    fn repair(
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
        self.spread(dist, pass);
        seeds
    }

    /// Computes into `dist` the field of goal block `goal` for clearance `pass`; returns its
    /// seeds.
    fn compute(&mut self, dist: &mut Vec<f32>, goal: usize, pass: f32) -> Vec<(u32, f32)> {
        dist.clear();
        dist.resize(self.nx * self.nz, f32::INFINITY);
        self.queue.clear();
        let seeds = self.seeds(goal, pass);
        for &(c, d) in &seeds {
            dist[c as usize] = d;
            self.queue.push(d, c);
        }
        self.spread(dist, pass);
        seeds
    }

    /// The moves open to `pass` from cell `c`, a bit per move of `NEIGHBOURS`.
    fn open_moves(&self, c: usize, pass: f32) -> u8 {
        let mut bits = 0;
        for (k, &(dx, dz, _)) in NEIGHBOURS.iter().enumerate() {
            if let Some(n) = self.neighbour(c, dx, dz) {
                bits |= u8::from(self.can_move(c, n, dx, dz, pass)) << k;
            }
        }
        bits
    }

    /// The index in `self.moves` of the open moves for `pass`, made if missing.
    fn moves_for(&mut self, pass: f32) -> usize {
        self.tick += 1;
        if let Some(i) = self.moves.iter().position(|m| m.pass == pass) {
            self.moves[i].used = self.tick;
            return i;
        }
        let open = (0..self.nx * self.nz)
            .map(|c| self.open_moves(c, pass))
            .collect();
        if self.moves.len() >= MAX_MOVE_SETS {
            self.moves.swap_remove(least_used(&self.moves, |m| m.used));
        }
        self.moves.push(Moves {
            pass,
            open,
            used: self.tick,
        });
        self.moves.len() - 1
    }

    /// Dijkstra's algorithm from the cells in the queue, over the moves open to `pass`.
    ///
    /// Each cell taken tests its eight neighbours without a branch (open, and lowered by the
    /// move) and then writes the lowered ones; the order they are queued in cannot change the
    /// fixed point the search ends at. The queue hands the cells over a bucket at a time
    /// ([`Buckets::drain`]: no bookkeeping per cell; 8–25 % faster than taking them one by
    /// one, the same bits).
    fn spread(&mut self, dist: &mut [f32], pass: f32) {
        let m = self.moves_for(pass);
        let nx = self.nx as isize;
        let step = NEIGHBOURS.map(|(dx, dz, _)| dx as isize + dz as isize * nx);
        let Planner { moves, queue, .. } = self;
        let open = &moves[m].open;
        queue.drain(|queue, dc, c| {
            let c = c as usize;
            if dc > dist[c] {
                return;
            }
            let mut lower = if c > nx as usize && c + (nx as usize) + 3 <= dist.len() {
                lowered_inside(dist, c, nx as usize, dc)
            } else {
                // (A closed move's other end may be off the grid: read as 0, never lowered.)
                let at = |k: usize| dist.get(c.wrapping_add_signed(step[k])).copied();
                (0..8).fold(0, |m, k| {
                    m | u32::from(dc + NEIGHBOURS[k].2 < at(k).unwrap_or(0.0)) << k
                })
            } & u32::from(open[c]);
            while lower != 0 {
                let k = lower.trailing_zeros() as usize;
                lower &= lower - 1;
                let n = c.wrapping_add_signed(step[k]);
                let nd = dc + NEIGHBOURS[k].2;
                dist[n] = nd;
                queue.push_next(nd, n as u32);
            }
        });
    }

    /// The point an agent at `pos` of `radius` should walk toward to reach `target`, and
    /// whether that point is the target itself.
    ///
    /// `fits(p)`: a disc of the agent's radius at `p` would not go deeper into an obstacle than
    /// the agent already is (tested along the first 1.5 cells of every line of sight, so an
    /// agent wedged into a concave corner does not see through the crack behind it).
    ///
    /// `ticket` (the agent's slot) decides its turns to search while it waits for a field.
    /// `avoid`: another agent's centre and radius the agent is to search its way round (it
    /// gives way in a head-on block), out of turn while searches last; when they do not, its
    /// usual route. `wedged`: the agent touches two obstacles or more (see [`Self::descend`]).
    /// `approaching`: in, how the agent took its last stretch by [`Self::approach`] at its last
    /// route; out, how it does now (it then keeps to it out to [`APPROACH_HOLD`] cells
    /// farther, and straight at the target while its slide gets a ring farther).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn next_point(
        &mut self,
        pos: Vec2,
        target: Vec2,
        radius: f32,
        ticket: u32,
        avoid: Option<(Vec2, f32)>,
        wedged: bool,
        approaching: &mut Approach,
        fits: impl Fn(Vec2) -> bool,
    ) -> (Vec2, bool) {
        let was_approaching = core::mem::take(approaching);
        if self.nx == 0 {
            return (target, true);
        }
        let need = self.need(radius);
        let step = (0.25 * radius).max(0.125 * self.cell);
        if pos.distance(target) <= 2.0 * radius + self.cell
            && self.reaches(pos, target, radius, step, &fits)
        {
            return (target, true);
        }
        // Waiting for a field this sub-step cannot give (none cached, the budget spent): a
        // search of its own, in its turn, while the search budget lasts; else walk straight and
        // ask again next sub-step. Decided before the line of sight, which costs most on the
        // long lines of goals far away (a crowd with thousands of goals of its own waits here).
        if let Some(avoid) = avoid {
            if let Some(route) = self.search_route(pos, target, radius, ticket, Some(avoid), &fits)
            {
                return route;
            }
        }
        if !self.field_ready(self.goal_block(target), Self::pass(radius)) {
            return self
                .search_route(pos, target, radius, ticket, None, &fits)
                .unwrap_or((target, false));
        }
        if self.clear_line(pos, target, need, step, &fits) {
            return (target, true);
        }
        // The agent's own field; when no cell near the agent is reachable in it (it stands in a
        // pocket that the grid counts as closed, though it walked in), the field of an agent of
        // no radius.
        let own = (need, Self::pass(radius));
        for (need, pass) in [own, (self.need(0.0), Self::pass(0.0))] {
            let leg = Leg {
                pos,
                target,
                radius,
                need,
                pass,
                step,
                wedged,
                approaching: was_approaching,
            };
            if let Some((route, approached)) = self.descend(leg, &fits) {
                *approaching = approached;
                return route;
            }
        }
        (target, true)
    }

    /// [`Self::next_point`] along the distance field of clearance `pass` (lines of sight
    /// asking `need` of the centre clearances), and how the way came from
    /// [`Self::approach`]: `None` when no cell within three of the agent's is reachable in
    /// that field.
    fn descend(
        &mut self,
        leg: Leg,
        fits: &impl Fn(Vec2) -> bool,
    ) -> Option<((Vec2, bool), Approach)> {
        let Leg {
            pos,
            target,
            need,
            pass,
            step,
            wedged,
            approaching,
            ..
        } = leg;
        let block = self.goal_block(target);
        let class = Self::class(pass);
        let Some(f) = self.field(block, class, pass) else {
            // Over this sub-step's budget: walk straight for now, ask again next sub-step.
            return Some(((target, false), Approach::Off));
        };
        let dist = &self.fields[f].dist;
        let start = self.clamped_cell(pos);
        // The agent's own cell may be too tight (it is squeezed against a wall): use the best
        // reachable cell nearby.
        let mut cur = start;
        if !dist[start].is_finite() {
            // The first nearby reachable cell the agent's disc can slide to in a straight line
            // (so not one behind the obstacle it is pressed against), else the best.
            let (best, sliding) = self.best_near(dist, start, pos, step, fits)?;
            cur = sliding.unwrap_or(best);
        }
        let zone = APPROACH_CELLS
            + if approaching == Approach::Off {
                0
            } else {
                APPROACH_HOLD
            };
        if self.near_block(cur, block, zone) {
            if let Some(route) = self.approach(leg, fits) {
                let how = if route.1 {
                    Approach::Straight
                } else {
                    Approach::Search
                };
                return Some((route, how));
            }
        }
        let dist = &self.fields[f].dist;
        // Descend the field; aim along the descent.
        let mut descent = [cur as u32; LOOK_ALONG + 1];
        let mut len = 1;
        while len <= LOOK_ALONG && dist[cur] > 0.0 {
            let mut next = cur;
            for (dx, dz, _) in NEIGHBOURS {
                let Some(n) = self.neighbour(cur, dx, dz) else {
                    continue;
                };
                // Only along the field's own moves (the search went from `n` to `cur`): a
                // lower neighbour across a corner the search could not cut is not a way.
                if dist[n] < dist[next] && self.can_move(n, cur, -dx, -dz, pass) {
                    next = n;
                }
            }
            if next == cur {
                break;
            }
            cur = next;
            descent[len] = cur as u32;
            len += 1;
        }
        // At (or next to) the side of the obstacle round a goal whose block has no open cell
        // (the field's seeds there lie outside the block): the rest is the steer's, straight at
        // the target, to arrive as near it as it gets. (Aiming at the seed's point, an agent
        // that stood a fifth of a metre from it, held off by an arrived one, walked on the
        // spot for good: it could not settle against agents that were no nearer that point.)
        if len <= 2 && dist[cur] == 0.0 && !self.near_block(cur, block, 0) {
            return Some(((target, true), Approach::Off));
        }
        // Wedged between obstacles, off the graph (its cell's point and moves are clear, but
        // not the line from where it stands to the next cells): back onto the graph at the
        // best cell nearby it can slide to. (Aiming at the next cell, through the obstacles,
        // six agents of the 10 k benchmark pressed into cracks between a disc and a box for
        // good.)
        if wedged && len > 1 {
            let ahead = (len - 1).min(3);
            let rep = |k: usize| self.rep[descent[k] as usize];
            if !(1..=ahead).any(|k| self.slides(pos, rep(k), step, fits)) {
                if let Some((_, Some(c))) = self.best_near(dist, start, pos, step, fits) {
                    return Some(((self.rep[c], false), Approach::Off));
                }
            }
        }
        let route = self.aim_or_target(pos, target, &descent[..len], need, step, fits);
        Some((route, Approach::Off))
    }

    /// The cells within three of `start` reachable in the field `dist`, ranked by their value
    /// plus their distance from `start` (in cells; ties by index): the best, and the best the
    /// disc at `pos` slides to in a straight line (`None`: none of them). `None` when no cell
    /// within three is reachable.
    fn best_near(
        &self,
        dist: &[f32],
        start: usize,
        pos: Vec2,
        step: f32,
        fits: &impl Fn(Vec2) -> bool,
    ) -> Option<(usize, Option<usize>)> {
        let mut near = [(f32::INFINITY, 0usize); 49];
        let mut count = 0;
        for (c, dx, dz) in self.around(start) {
            let d = dist[c] + ((dx * dx + dz * dz) as f32).sqrt();
            if d.is_finite() {
                near[count] = (d, c);
                count += 1;
            }
        }
        let near = &mut near[..count];
        near.sort_unstable_by(|p, q| p.0.total_cmp(&q.0).then(p.1.cmp(&q.1)));
        let best = near.first()?.1;
        let sliding = near
            .iter()
            .find(|&&(_, c)| self.slides(pos, self.rep[c], step, fits))
            .map(|&(_, c)| c);
        Some((best, sliding))
    }

    /// The cells of the grid within three columns and rows of cell `c` (at most 49), row by
    /// row, each with its column and row offsets from `c`.
    fn around(&self, c: usize) -> impl Iterator<Item = (usize, i64, i64)> + '_ {
        let (nx, nz) = (self.nx as i64, self.nz as i64);
        let (cx, cz) = (c as i64 % nx, c as i64 / nx);
        (-3..=3i64)
            .flat_map(|dz| (-3..=3i64).map(move |dx| (dx, dz)))
            .filter(move |&(dx, dz)| {
                let (x, z) = (cx + dx, cz + dz);
                x >= 0 && z >= 0 && x < nx && z < nz
            })
            .map(move |(dx, dz)| ((cx + dx + (cz + dz) * nx) as usize, dx, dz))
    }

    /// [`Self::aim`] along `way`, or the target itself (and `true`) when `way` is a single
    /// cell: the agent stands on a seed of the field (in its goal's block, or on the ring
    /// round a block with no open cell), where the field ends and has no way to give. The
    /// block's seeds all stand at 0, so the field cannot tell one of them from another: the
    /// last stretch is the steer's, straight at the target. (Aiming at its own cell's point,
    /// an agent whose target lay a little closer to an obstacle than its radius plus
    /// [`PASS_SKIN`], so that no line of sight reached it, turned round that point for good.)
    fn aim_or_target(
        &self,
        pos: Vec2,
        target: Vec2,
        way: &[u32],
        need: f32,
        step: f32,
        fits: &impl Fn(Vec2) -> bool,
    ) -> (Vec2, bool) {
        if way.len() == 1 {
            return (target, true);
        }
        (self.aim(pos, way, need, step, fits), false)
    }

    /// The point to walk toward along `way`, cells of a descent from the agent's cell (or the
    /// one picked near it; at least one cell): the farthest of its first three cells the disc
    /// can slide to in a straight line (the first when none is: it is the next move, or the
    /// cell picked), and when that is the third, the farthest of cells 6, 12, 24, 48, 96 along
    /// it still in sight. (Taking the third cell unseen, an agent in a forest of boxes aimed
    /// through a box at a cell the field reached round it, slid along the box into a corner
    /// and stayed: SteerSuite `forest`.)
    fn aim(
        &self,
        pos: Vec2,
        way: &[u32],
        need: f32,
        step: f32,
        fits: &impl Fn(Vec2) -> bool,
    ) -> Vec2 {
        let len = way.len();
        let rep = |k: usize| self.rep[way[k] as usize];
        let third = (len - 1).min(3);
        let mut first = third;
        while first > 1 && !self.slides(pos, rep(first), step, fits) {
            first -= 1;
        }
        let mut chosen = rep(first);
        let mut probe = if first == third { 6 } else { usize::MAX };
        while probe < len + 3 {
            let k = probe.min(len - 1);
            let c = rep(k);
            if !self.clear_line(pos, c, need, step, fits) {
                break;
            }
            chosen = c;
            if k == len - 1 {
                break;
            }
            probe *= 2;
        }
        chosen
    }

    /// [`Self::next_point`] by a search of its own, for an agent waiting for a field or giving
    /// way to the agent `avoid`: an A* search from its goal's cells to its own
    /// ([`super::paths`]) and its aim along the way found, in its turn (giving way, out of
    /// turn) while the sub-step's search budget lasts; `None` when it may not search now. An
    /// agent standing in a cell too tight for it searches to the nearest open cell it can slide
    /// to within three. Giving way, the search never enters the cells within both radii of the
    /// other agent that lie nearer it than this one; when no way round is found, the agent backs
    /// off, away from the other. Waiting, a goal it cannot reach, or a search over the budget,
    /// leaves it walking straight.
    fn search_route(
        &mut self,
        pos: Vec2,
        target: Vec2,
        radius: f32,
        ticket: u32,
        avoid: Option<(Vec2, f32)>,
        fits: &impl Fn(Vec2) -> bool,
    ) -> Option<(Vec2, bool)> {
        self.asked += 1;
        // (Agents giving way are few, and search out of turn.)
        let turn =
            avoid.is_some() || (u64::from(ticket) + self.sub_steps).is_multiple_of(self.stride);
        if self.search_cells == 0 || !turn {
            return None;
        }
        self.granted += 1;
        let need = self.need(radius);
        let step = (0.25 * radius).max(0.125 * self.cell);
        if avoid.is_none() && self.clear_line(pos, target, need, step, fits) {
            return Some((target, true));
        }
        // The cells nearer the other agent than this one within both radii of it.
        let mut closed = [0u32; 49];
        let mut n_closed = 0;
        if let Some((at, r)) = avoid {
            for (n, _, _) in self.around(self.clamped_cell(at)) {
                let p = self.center(n);
                if p.distance(at) <= r + radius && p.distance(at) < p.distance(pos) {
                    closed[n_closed] = n as u32;
                    n_closed += 1;
                }
            }
        }
        let pass = Self::pass(radius);
        let Some(to) = self.entry_cell(pos, pass, step, fits) else {
            return Some((target, false));
        };
        let m = self.moves_for(pass);
        let mut seeds = std::mem::take(&mut self.search_seeds);
        let mut path = std::mem::take(&mut self.path);
        self.seeds_into(self.goal_block(target), pass, &mut seeds);
        let graph = Graph {
            open: &self.moves[m].open,
            nx: self.nx,
            nz: self.nz,
            neighbours: &NEIGHBOURS,
        };
        let (found, taken) = self.search.run(
            &graph,
            &seeds,
            to,
            &closed[..n_closed],
            self.search_cells,
            &mut path,
        );
        self.search_cells -= taken;
        self.searched += 1;
        let route = match found {
            Found::Path => {
                let len = path.len().min(LOOK_ALONG + 1);
                Some(self.aim_or_target(pos, target, &path[..len], need, step, fits))
            }
            // No way round the other agent (or none found within the searches left): back off,
            // away from it, for it to pass.
            Found::Unreachable | Found::GaveUp if avoid.is_some() => avoid.map(|(at, _)| {
                let away = (pos - at).try_normalize().unwrap_or(Vec2::X);
                (pos + away * (4.0 * radius), false)
            }),
            Found::Unreachable | Found::GaveUp => Some((target, false)),
        };
        self.search_seeds = seeds;
        self.path = path;
        route
    }
}

impl Planner {
    /// The cell a search for an agent at `pos` ends at: its own when open to `pass`, else the
    /// nearest open cell within three that its disc slides to (`None`: there is none).
    fn entry_cell(
        &self,
        pos: Vec2,
        pass: f32,
        step: f32,
        fits: &impl Fn(Vec2) -> bool,
    ) -> Option<usize> {
        let start = self.clamped_cell(pos);
        if self.rep_clear[start] >= pass {
            return Some(start);
        }
        // The open cells within three, nearest first; the first the disc slides to.
        let mut near = [(f32::INFINITY, 0usize); 49];
        let mut count = 0;
        for (c, _, _) in self.around(start) {
            if self.rep_clear[c] >= pass {
                near[count] = (self.rep[c].distance(pos), c);
                count += 1;
            }
        }
        let near = &mut near[..count];
        near.sort_unstable_by(|p, q| p.0.total_cmp(&q.0).then(p.1.cmp(&q.1)));
        near.iter()
            .find(|&&(_, c)| self.slides(pos, self.rep[c], step, fits))
            .map(|&(_, c)| c)
    }

    /// Whether a disc slides from `from` to within `near` of `target` (straight toward it; at
    /// once when `from` is that near).
    fn reaches(
        &self,
        from: Vec2,
        target: Vec2,
        near: f32,
        step: f32,
        fits: &impl Fn(Vec2) -> bool,
    ) -> bool {
        let off = from - target;
        let len = off.length();
        len <= near || self.slides(from, target + off * (near / len), step, fits)
    }

    /// Whether cell `c` lies within `reach` columns and rows of goal block `block` (0: in it).
    fn near_block(&self, c: usize, block: usize, reach: usize) -> bool {
        let bc = self.block_cells() as i64;
        let (nx, reach) = (self.nx as i64, reach as i64);
        let (x, z) = (c as i64 % nx, c as i64 / nx);
        let (bx, bz) = (block as i64 % nx, block as i64 / nx);
        x >= bx - reach && x < bx + bc + reach && z >= bz - reach && z < bz + bc + reach
    }

    /// The last stretch to `target` of an agent near its goal's block (within
    /// [`APPROACH_CELLS`] of it) that does not see the target: the field's seeds are the open
    /// cells of the whole block, all at 0, so there it cannot tell the way to the target
    /// itself (a block may hold cells on both sides of a box). The way comes from a small A*
    /// search of its own instead, from the open cells round the target (within three of its
    /// cell) whose points the disc slides from to within its radius of the target (or, when
    /// none does, as little farther as some do, by half cells up to [`APPROACH_RINGS`]), each
    /// at its distance from the target, to the agent's cell. The agent aims along the way
    /// found. It walks straight at the target (`true`) once its own disc slides to within
    /// that distance of the target, standing on one of those cells, or when there are none
    /// or no way is found: the steer takes it the rest of the way, and an agent that cannot
    /// get nearer for an obstacle arrives there (see [`super::steering`]).
    /// `None` when the search takes its most cells without reaching the agent (the field's
    /// way is taken then). (With the field alone, an agent whose target lay beside a box, on
    /// the side away from the block's cells it reached first, went to and fro between those
    /// cells and the box for good.)
    fn approach(&mut self, leg: Leg, fits: &impl Fn(Vec2) -> bool) -> Option<(Vec2, bool)> {
        let Leg {
            pos,
            target,
            radius,
            need,
            pass,
            step,
            approaching,
            ..
        } = leg;
        // The cells whose points slide to within `near` of the target, for the least `near`
        // from the radius up, in half cells, that the agent or any cell does (the target may
        // lie inside an obstacle); when the agent does, it walks straight at the target. An
        // agent that walked straight at it last time keeps on while its slide gets within one
        // ring more: the steer, taking it round an obstacle on the line, moves it to where the
        // slide just misses the ring its seeds make (a target inside a disc: the agent paced
        // between walking straight and a search's way round the other side, for good).
        let hold = if approaching == Approach::Straight {
            0.5 * self.cell
        } else {
            0.0
        };
        let mut seeds = std::mem::take(&mut self.search_seeds);
        seeds.clear();
        let around = self.clamped_cell(target);
        for k in 0..=APPROACH_RINGS {
            let near = radius + 0.5 * self.cell * k as f32;
            if self.reaches(pos, target, near + hold, step, fits) {
                self.search_seeds = seeds;
                return Some((target, true));
            }
            for (c, _, _) in self.around(around) {
                let p = self.rep[c];
                if self.rep_clear[c] < pass {
                    continue;
                }
                if self.reaches(p, target, near, step, fits) {
                    seeds.push((c as u32, p.distance(target) / self.cell));
                }
            }
            if !seeds.is_empty() {
                break;
            }
        }
        let to = self.entry_cell(pos, pass, step, fits);
        let mut route = Some((target, true));
        if let (Some(to), false) = (to, seeds.is_empty()) {
            let m = self.moves_for(pass);
            let mut path = std::mem::take(&mut self.path);
            let graph = Graph {
                open: &self.moves[m].open,
                nx: self.nx,
                nz: self.nz,
                neighbours: &NEIGHBOURS,
            };
            let (found, _) = self
                .search
                .run(&graph, &seeds, to, &[], APPROACH_SEARCH, &mut path);
            if found == Found::GaveUp {
                route = None;
            } else if found == Found::Path && path.len() > 1 {
                let len = path.len().min(LOOK_ALONG + 1);
                route = Some((self.aim(pos, &path[..len], need, step, fits), false));
            }
            self.path = path;
        }
        self.search_seeds = seeds;
        route
    }
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
fn lowered_inside(dist: &[f32], c: usize, nx: usize, dc: f32) -> u32 {
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
fn lowered_scalar(dist: &[f32], c: usize, nx: usize, dc: f32) -> u32 {
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
const ROW_MASKS_TO_MOVES: [u8; 512] = {
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

/// The least of `start` and the clearances of point `p` from the listed obstacles. An obstacle
/// whose bounding circle lies beyond the least so far cannot lower it and is skipped.
fn clearance_at(shapes: &[Option<Shape>], list: &[u32], p: Vec2, start: f32) -> f32 {
    list.iter()
        .fold(start, |best, &i| match &shapes[i as usize] {
            Some(s) if s.center.distance(p) - s.bounding_radius() < best + PRUNE_SLACK => {
                best.min(s.contact(p).distance)
            }
            _ => best,
        })
}

/// The least of `start` and the distances from the segment `a → b` to the listed obstacles.
/// An obstacle whose bounding circle lies beyond the least so far cannot lower it and is
/// skipped.
fn segment_clearance(shapes: &[Option<Shape>], list: &[u32], a: Vec2, b: Vec2, start: f32) -> f32 {
    list.iter()
        .fold(start, |best, &i| match &shapes[i as usize] {
            Some(s)
                if point_segment_distance(s.center, a, b) - s.bounding_radius()
                    < best + PRUNE_SLACK =>
            {
                best.min(s.segment_distance(a, b))
            }
            _ => best,
        })
}

/// Slack on the bounding-circle test that skips an obstacle which cannot lower a clearance
/// (metres): the bound and the exact distance round differently.
const PRUNE_SLACK: f32 = 1e-3;

/// Most entries of one run of [`CellLists`] (16 MiB).
const LIST_ITEMS: usize = 1 << 22;

/// Cells of the planning grid: those of the range `c0..c1` (in row-major order) whose column
/// lies in `x0..=x1`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Area {
    c0: usize,
    c1: usize,
    x0: usize,
    x1: usize,
}

impl Area {
    /// Every cell.
    fn all(p: &Planner) -> Self {
        Self::run(p, 0, p.nx * p.nz)
    }

    /// The cells `c0..c1`, every column.
    fn run(p: &Planner, c0: usize, c1: usize) -> Self {
        Self {
            c0,
            c1,
            x0: 0,
            x1: p.nx - 1,
        }
    }

    /// The rectangle of cells with corners (column, row) `lo` and `hi` (whole numbers on the
    /// grid, `lo` ≤ `hi`).
    fn of(p: &Planner, lo: Vec2, hi: Vec2) -> Self {
        let (x0, z0, x1, z1) = (lo.x as usize, lo.y as usize, hi.x as usize, hi.y as usize);
        Self {
            c0: x0 + z0 * p.nx,
            c1: x1 + z1 * p.nx + 1,
            x0,
            x1,
        }
    }

    /// The rectangle bounding two rectangles.
    fn bounds(self, other: &Self, nx: usize) -> Self {
        let (x0, x1) = (self.x0.min(other.x0), self.x1.max(other.x1));
        let z0 = (self.c0 / nx).min(other.c0 / nx);
        let z1 = ((self.c1 - 1) / nx).max((other.c1 - 1) / nx);
        Self {
            c0: x0 + z0 * nx,
            c1: x1 + z1 * nx + 1,
            x0,
            x1,
        }
    }

    /// Whether cell `c` (in `c0..c1`) is in the area.
    fn holds(&self, nx: usize, c: usize) -> bool {
        (self.x0..=self.x1).contains(&(c % nx))
    }

    /// The cells, ascending.
    fn iter(self, nx: usize) -> impl Iterator<Item = usize> {
        (self.c0..self.c1).filter(move |&c| self.holds(nx, c))
    }

    /// How many cells.
    fn cells(&self, nx: usize) -> usize {
        let rows = (self.c1 - 1) / nx - self.c0 / nx + 1;
        rows * (self.x1 - self.x0 + 1)
    }
}

/// For an area of planning cells, the obstacles that come within some distance of each cell's
/// centre, obstacles ascending within a cell.
#[derive(Default)]
struct CellLists {
    first: usize,
    start: Vec<u32>,
    items: Vec<u32>,
}

impl CellLists {
    /// Calls `f(cell, obstacle)`, obstacle by obstacle, for every cell of `area` whose centre
    /// may lie within `far` of the obstacle: within `far` of its bounding circle, and for an
    /// obstacle larger than `far` (a long wall) within `far` of the obstacle itself.
    fn scatter(
        p: &Planner,
        shapes: &[Option<Shape>],
        far: f32,
        area: Area,
        mut f: impl FnMut(usize, u32),
    ) {
        let (z0, z1) = ((area.c0 / p.nx) as f32, ((area.c1 - 1) / p.nx) as f32);
        let (x0, x1) = (area.x0 as f32, area.x1 as f32);
        for (i, s) in shapes.iter().enumerate() {
            let Some(s) = s else { continue };
            let Some((lo, hi)) = p.reach_cells(s, far) else {
                continue;
            };
            let (xa, xb) = (lo.x.max(x0), hi.x.min(x1));
            let (za, zb) = (lo.y.max(z0), hi.y.min(z1));
            if !(xa <= xb && za <= zb) {
                continue;
            }
            let reach = far + s.bounding_radius();
            for z in za as usize..=zb as usize {
                for x in xa as usize..=xb as usize {
                    let (c, at) = (x + z * p.nx, p.center_xz(x, z));
                    if (area.c0..area.c1).contains(&c)
                        && at.distance(s.center) <= reach
                        && (s.bounding_radius() <= far || s.contact(at).distance <= far)
                    {
                        f(c, i as u32);
                    }
                }
            }
        }
    }

    /// Lists the cells of `area`, given their counts (`Ok`, indexed from `area.c0`) or
    /// counting them (`Err(limit)`: returns false, listing nothing, past `limit` entries).
    fn build(
        &mut self,
        p: &Planner,
        shapes: &[Option<Shape>],
        far: f32,
        counts: Result<&[u32], usize>,
        area: Area,
    ) -> bool {
        let (c0, c1) = (area.c0, area.c1);
        self.first = c0;
        self.start.clear();
        self.start.push(0);
        let limit = match counts {
            Ok(counts) => {
                self.start.extend_from_slice(counts);
                usize::MAX
            }
            Err(limit) => {
                self.start.resize(c1 - c0 + 1, 0);
                let start = &mut self.start;
                Self::scatter(p, shapes, far, area, |c, _| start[c - c0 + 1] += 1);
                limit
            }
        };
        let mut total = 0u64;
        for k in 0..c1 - c0 {
            total += u64::from(self.start[k + 1]);
            self.start[k + 1] += self.start[k];
        }
        self.items.clear();
        if total > limit as u64 {
            return false;
        }
        self.items.resize(self.start[c1 - c0] as usize, 0);
        // Fill: each cell's start advances to its end, the next cell's start; shift back.
        Self::scatter(p, shapes, far, area, |c, i| {
            let k = c - c0;
            self.items[self.start[k] as usize] = i;
            self.start[k] += 1;
        });
        self.start.rotate_right(1);
        self.start[0] = 0;
        true
    }

    /// The obstacles listed for cell `c` (in the area last built).
    fn get(&self, c: usize) -> &[u32] {
        let k = c - self.first;
        &self.items[self.start[k] as usize..self.start[k + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crowd::scenario::{Scenario, SplitMix};
    use crate::crowd::{Crowd, CrowdError, Obstacle, ObstacleId, RouteMode};
    use glam::Vec3;

    /// An obstacle field whose 40 planned agents head for ~20 distinct goal blocks.
    fn field_scene() -> Scenario {
        Scenario::obstacle_field(40, 40, 7)
    }

    fn bytes_of(p: &Planner, fields: usize) -> usize {
        fields * p.cells() * core::mem::size_of::<f32>()
    }

    fn step(c: &mut Crowd, steps: usize) {
        for _ in 0..steps {
            c.step(0.1, 1).unwrap();
        }
    }

    #[test]
    fn the_default_cap_is_max_fields() {
        let s = field_scene();
        assert_eq!(s.crowd.route_cache(), MAX_FIELDS);
        assert_eq!(Planner::default().max_fields(), MAX_FIELDS);
        assert_eq!(Planner::default().field_bytes(), 0);
    }

    #[test]
    fn the_cap_bounds_the_fields_cached_and_their_bytes() {
        let mut free = field_scene().crowd;
        let mut capped = free.clone();
        capped.set_route_cache(4).unwrap();
        assert_eq!(capped.route_cache(), 4);
        let mut most = 0;
        for _ in 0..100 {
            step(&mut free, 1);
            let before = capped.planner().fields.clone();
            step(&mut capped, 1);
            let p = capped.planner();
            // A field is dropped for another only when unused for FIELD_HOT_STEPS sub-steps.
            for f in &before {
                if !p
                    .fields
                    .iter()
                    .any(|g| (g.goal, g.class) == (f.goal, f.class))
                {
                    assert!(
                        f.used_step + FIELD_HOT_STEPS <= p.sub_steps,
                        "dropped a field used at sub-step {} in sub-step {}",
                        f.used_step,
                        p.sub_steps
                    );
                }
            }
            assert!(p.fields_cached() <= 4, "{} fields", p.fields_cached());
            assert_eq!(p.field_bytes(), bytes_of(p, p.fields_cached()));
            assert!(p.field_bytes() <= 4 * p.cells() * 4);
            most = most.max(p.fields_cached());
        }
        assert_eq!(most, 4, "the cap is reached");
        let p = free.planner();
        assert!(p.cells() > 0);
        assert!(
            p.fields_cached() > 4,
            "uncapped: {} fields",
            p.fields_cached()
        );
        assert_eq!(p.field_bytes(), bytes_of(p, p.fields_cached()));
        // No thrashing: the capped cache does not drop fields in use to compute others, so it
        // computes fewer than the uncapped one (its other agents search their ways).
        assert!(
            capped.planner().fields_computed() < p.fields_computed(),
            "{} vs {}",
            capped.planner().fields_computed(),
            p.fields_computed()
        );
        assert!(capped.planner().paths_searched() > p.paths_searched());
    }

    #[test]
    fn a_full_cache_replaces_only_a_field_gone_unused() {
        // A cache of two, full of fields asked for this sub-step: a third goal is refused (no
        // budget spent, none dropped) until one of the two has gone unused for
        // FIELD_HOT_STEPS sub-steps; then that one, and only that one, makes room.
        let mut p = field_planner();
        p.set_max_fields(2);
        let pass = Planner::pass(0.3);
        let class = Planner::class(pass);
        let [a, b, c] =
            [(-15.0, -15.0), (12.0, 3.0), (0.0, 16.0)].map(|(x, z)| p.goal_block(Vec2::new(x, z)));
        p.begin_step();
        assert!(p.field(a, class, pass).is_some());
        assert!(p.field(b, class, pass).is_some());
        assert!(p.field_ready(b, pass), "cached");
        assert!(!p.field_ready(c, pass), "both in use");
        assert!(p.field(c, class, pass).is_none());
        assert_eq!((p.budget, p.fields_computed()), (FIELDS_PER_STEP - 2, 2));
        // `b` stays in use (asked every REPLAN_STEPS sub-steps), `a` is not asked again.
        for k in 1..=FIELD_HOT_STEPS {
            p.begin_step();
            if k % u64::from(REPLAN_STEPS) == 0 {
                assert!(p.field(b, class, pass).is_some());
            }
            let cold = k >= FIELD_HOT_STEPS;
            assert_eq!(p.field_ready(c, pass), cold, "sub-step {k}");
        }
        assert!(p.field(c, class, pass).is_some());
        let goals: Vec<_> = p.fields.iter().map(|f| f.goal).collect();
        assert!(goals.contains(&b) && goals.contains(&c) && !goals.contains(&a));
        // Now `b` and `c` are both in use: `a` waits again.
        assert!(!p.field_ready(a, pass));
        assert!(p.field(a, class, pass).is_none());
        assert_eq!(p.fields_computed(), 3);
    }

    #[test]
    fn lowering_the_cap_drops_the_least_recently_used_now() {
        let mut c = field_scene().crowd;
        step(&mut c, 60);
        let before = c.planner().fields.clone();
        assert!(before.len() > 3, "{} fields", before.len());
        let mut newest: Vec<_> = before.iter().map(|f| f.used).collect();
        newest.sort_unstable_by(|a, b| b.cmp(a));
        newest.truncate(3);
        let computed = c.planner().fields_computed();

        c.set_route_cache(3).unwrap();
        let p = c.planner();
        assert_eq!(p.fields_cached(), 3);
        assert_eq!(p.field_bytes(), bytes_of(p, 3));
        assert!(p.fields.capacity() <= 3, "the cache's Vec shrank");
        assert_eq!(p.fields_computed(), computed, "nothing recomputed");
        for f in &p.fields {
            assert!(newest.contains(&f.used), "kept a field used at {}", f.used);
            let old = before.iter().find(|g| g.used == f.used).unwrap();
            assert_eq!((old.goal, old.class), (f.goal, f.class));
            assert_eq!(old.dist, f.dist, "kept fields are untouched");
        }

        // Stepping on keeps within the cap; raising it lets the cache grow again.
        step(&mut c, 20);
        assert!(c.planner().fields_cached() <= 3);
        c.set_route_cache(MAX_FIELDS).unwrap();
        step(&mut c, 40);
        assert!(c.planner().fields_cached() > 3);
    }

    #[test]
    fn the_route_budget_bounds_the_fields_made_per_step() {
        // ~20 goal blocks wanted at once: with a budget of b, each step computes or repairs at
        // most b fields, and a larger budget gets every field sooner (the same fields in the
        // end). Bad budgets are refused and change nothing.
        let made = |p: &Planner| p.fields_computed() + p.fields_repaired();
        let mut first_all = Vec::new();
        for budget in [1, FIELDS_PER_STEP as usize, MAX_FIELDS_PER_STEP as usize] {
            let mut c = field_scene().crowd;
            assert_eq!(c.route_budget(), FIELDS_PER_STEP as usize);
            c.set_route_budget(budget).unwrap();
            assert_eq!(c.route_budget(), budget);
            for bad in [0, MAX_FIELDS_PER_STEP as usize + 1, usize::MAX] {
                assert_eq!(c.set_route_budget(bad), Err(CrowdError::InvalidArgument));
                assert_eq!(c.route_budget(), budget);
            }
            let mut all_at = None;
            for k in 1..=40 {
                let before = made(c.planner());
                step(&mut c, 1);
                let now = made(c.planner());
                assert!(
                    now - before <= budget as u64,
                    "budget {budget}: {}",
                    now - before
                );
                if all_at.is_none() && now >= 20 {
                    all_at = Some(k);
                }
            }
            first_all.push(all_at.expect("the fields come"));
        }
        assert!(
            first_all[0] > first_all[1] && first_all[1] > first_all[2],
            "{first_all:?}"
        );
    }

    #[test]
    fn bad_caps_are_refused_and_change_nothing() {
        let mut c = field_scene().crowd;
        step(&mut c, 30);
        c.set_route_cache(100).unwrap();
        let (cached, bytes) = (c.planner().fields_cached(), c.planner().field_bytes());
        assert!(cached > 1);
        for bad in [0, MAX_FIELDS + 1, usize::MAX] {
            assert_eq!(c.set_route_cache(bad), Err(CrowdError::InvalidArgument));
            assert_eq!(c.route_cache(), 100);
            assert_eq!(c.planner().fields_cached(), cached);
            assert_eq!(c.planner().field_bytes(), bytes);
        }
        c.set_route_cache(1).unwrap();
        assert_eq!((c.route_cache(), c.planner().fields_cached()), (1, 1));
        c.set_route_cache(MAX_FIELDS).unwrap();
        assert_eq!(c.route_cache(), MAX_FIELDS);
    }

    #[test]
    fn the_cap_survives_an_obstacle_rebuild_and_a_clone() {
        let mut c = field_scene().crowd;
        c.set_route_cache(2).unwrap();
        step(&mut c, 20);
        c.add_obstacle(crate::crowd::Obstacle::Circle {
            center: glam::Vec3::new(0.0, 0.0, 30.0),
            radius: 1.0,
        })
        .unwrap();
        step(&mut c, 20);
        assert_eq!(c.route_cache(), 2);
        assert!(c.planner().fields_cached() <= 2);
        assert_eq!(c.clone().route_cache(), 2);
    }

    /// A wall across x = 0 (boxes 1 m thick reaching 30 m to each side) with a door `width`
    /// wide centred on z = `z0`, and one planned agent of radius 0.3 walking at 1.3 m/s from
    /// x = −6 to x = 6 along the door's line: the seconds it takes to arrive (`None`: not in
    /// 120 s), its ideal time, and the planning cell.
    fn door_time(width: f32, z0: f32) -> (Option<f32>, f32, f32) {
        use crate::crowd::{AgentState, Obstacle, RouteMode};
        use glam::Vec3;
        let mut c = Crowd::new(4).unwrap();
        let mut d = c.agent_defaults();
        d.route_mode = RouteMode::Planned;
        c.set_agent_defaults(d).unwrap();
        for (lo, hi) in [(z0 + width / 2.0, 30.0), (-30.0, z0 - width / 2.0)] {
            let (min, max) = (Vec3::new(-0.5, 0.0, lo), Vec3::new(0.5, 0.0, hi));
            c.add_obstacle(Obstacle::Box { min, max }).unwrap();
        }
        let id = c
            .add_agent(
                Vec3::new(-6.0, 0.0, z0),
                core::f32::consts::FRAC_PI_2,
                1.3,
                0.3,
            )
            .unwrap();
        c.set_target(id, Vec3::new(6.0, 0.0, z0), 0.3).unwrap();
        let ideal = (12.0 - 0.3) / 1.3;
        for k in 1..=1200 {
            c.step(0.1, 1).unwrap();
            let a = c.agent(id).unwrap();
            for (_, o) in c.obstacles() {
                let at = glam::Vec2::new(a.position.x, a.position.z);
                assert!(o.shape().unwrap().contact(at).distance > 0.3 - 1e-3);
            }
            if a.state() == AgentState::Arrived {
                return (Some(k as f32 * 0.1), ideal, c.planner().cell_size());
            }
        }
        (None, ideal, c.planner().cell_size())
    }

    #[test]
    fn doors_a_little_wider_than_the_agent_are_used_wherever_the_grid_lies() {
        // 0.8 m ≥ 2 × (0.3 + PASS_SKIN) + a third of the 0.25 m cell: open at every offset
        // of the door against the grid (centre sampling alone closed doors under 1.1 m here).
        for k in 0..6 {
            let z0 = k as f32 * 0.25 / 6.0;
            let (t, ideal, cell) = door_time(0.8, z0);
            assert_eq!(cell, MIN_PLANNER_CELL);
            let t = t.unwrap_or_else(|| panic!("door at {z0}: never arrived"));
            // Through the door, not round the 30 m wall (about 5 × ideal).
            assert!(t < 1.4 * ideal, "door at {z0}: {t} s against {ideal} s");
        }
    }

    #[test]
    fn doors_narrower_than_the_agent_are_walked_round() {
        let (t, ideal, _) = door_time(0.55, 0.1);
        let t = t.expect("arrives round the wall");
        assert!(
            t > 3.0 * ideal,
            "{t} s against {ideal} s: through a 0.55 m door?"
        );
    }

    /// The obstacles of a crowd as the planner sees them.
    fn shapes_of(c: &Crowd) -> Vec<Option<Shape>> {
        c.obstacles().map(|(_, o)| o.shape()).collect()
    }

    /// A planner built over the 60 obstacles of `Scenario::obstacle_field(0, 60, 5)`.
    fn field_planner() -> Planner {
        let mut p = Planner::default();
        p.rebuild(&shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd));
        p
    }

    #[test]
    fn cell_points_and_segments_have_the_clearance_stored() {
        // Against every obstacle (not the per-cell lists), in f32 with a sampled check of
        // the segments: the lists miss nothing that matters and the stored values are exact.
        let s = Scenario::obstacle_field(10, 60, 11);
        let mut p = Planner::default();
        let shapes = shapes_of(&s.crowd);
        p.rebuild(&shapes);
        let clear = |q: Vec2| {
            shapes
                .iter()
                .flatten()
                .fold(CLEARANCE_CAP, |b, s| b.min(s.contact(q).distance))
        };
        let mut checked = 0;
        for c in (0..p.cells()).step_by(7) {
            assert_eq!(p.clearance[c], clear(p.center(c)));
            assert_eq!(p.rep_clear[c], clear(p.rep[c]));
            // The point is the clearest sample: at least the centre's clearance, in the cell.
            assert!(p.rep_clear[c] >= p.clearance[c]);
            assert!((p.rep[c] - p.center(c)).abs().max_element() <= 0.5 * p.cell);
            let (x, z) = ((c % p.nx) as i64, (c / p.nx) as i64);
            for (k, (dx, dz)) in EDGES.into_iter().enumerate() {
                let (x2, z2) = (x + dx, z + dz);
                if x2 < 0 || z2 < 0 || x2 >= p.nx as i64 || z2 >= p.nz as i64 {
                    continue;
                }
                let (a, b) = (p.rep[c], p.rep[(x2 + z2 * p.nx as i64) as usize]);
                let exact = shapes
                    .iter()
                    .flatten()
                    .fold(CLEARANCE_CAP, |m, s| m.min(s.segment_distance(a, b)));
                let e = p.edge[c][k];
                assert!(
                    e == exact || (e <= 0.0 && exact <= 0.0),
                    "cell {c} edge {k}: {e} vs {exact}"
                );
                let sampled = (0..=64).fold(f32::INFINITY, |m, i| {
                    m.min(clear(a.lerp(b, i as f32 / 64.0)))
                });
                // (Crossing an obstacle, the sampled depth goes below the stored ≤ 0.)
                let (e0, s0) = (e.max(0.0), sampled.max(0.0));
                assert!(e0 <= s0 + 1e-5, "cell {c} edge {k}: {e} vs {sampled}");
                checked += 1;
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn listing_in_runs_gives_the_same_grid() {
        let s = Scenario::obstacle_field(10, 60, 5);
        let shapes = shapes_of(&s.crowd);
        let (mut one, mut many) = (Planner::default(), Planner::default());
        one.rebuild(&shapes);
        many.rebuild_in_runs(&shapes, 64, Planner::layout(&shapes));
        assert!(one.cells() > 1000);
        assert_eq!(grid_bits(&one), grid_bits(&many));
    }

    /// Every stored clearance, point and segment, as bits.
    /// Whether `p`'s grid covers the obstacles and their margin.
    fn covers(p: &Planner, shapes: &[Option<Shape>]) -> bool {
        let (lo, hi) = Planner::bounds(shapes).unwrap();
        let (origin, cell, nx, nz) = p.current_layout().unwrap();
        let end = origin + Vec2::new(nx as f32, nz as f32) * cell;
        lo.cmpge(origin).all() && hi.cmple(end).all()
    }

    /// A planner rebuilt over `shapes` on `p`'s grid.
    fn rebuilt_like(p: &Planner, shapes: &[Option<Shape>]) -> Planner {
        let mut fresh = Planner::default();
        fresh.rebuild_in_runs(shapes, LIST_ITEMS, p.current_layout());
        fresh
    }

    fn grid_bits(p: &Planner) -> Vec<u32> {
        let mut v = vec![p.nx as u32, p.nz as u32, p.cell.to_bits()];
        v.extend([p.origin.x.to_bits(), p.origin.y.to_bits()]);
        v.extend(p.clearance.iter().map(|x| x.to_bits()));
        v.extend(p.rep_clear.iter().map(|x| x.to_bits()));
        v.extend(p.rep.iter().flat_map(|q| [q.x.to_bits(), q.y.to_bits()]));
        v.extend(p.edge.iter().flatten().map(|x| x.to_bits()));
        v
    }

    /// A random obstacle of any kind inside the square of half-width `half`.
    fn random_obstacle(rng: &mut SplitMix, half: f32) -> Obstacle {
        let c = Vec3::new(rng.range(-half, half), 0.0, rng.range(-half, half));
        let r = rng.range(0.2, 2.0);
        match rng.next_u64() % 4 {
            0 => Obstacle::Circle {
                center: c,
                radius: r,
            },
            1 => Obstacle::Box {
                min: c - Vec3::new(r, 0.0, 0.5 * r),
                max: c + Vec3::new(0.5 * r, 0.0, r),
            },
            2 => Obstacle::OrientedBox {
                center: c,
                half_x: r,
                half_z: 0.3 * r,
                yaw: rng.range(0.0, 3.1),
            },
            _ => Obstacle::Wall {
                a: c,
                b: c + Vec3::new(rng.range(-4.0, 4.0), 0.0, rng.range(-4.0, 4.0)),
            },
        }
    }

    /// Dijkstra's algorithm as in the textbook (a binary heap, every move tested with
    /// `can_move`, its own neighbour indexing): the reference for the bucket queue and the
    /// open-move bits.
    fn textbook_field(p: &Planner, goal: usize, pass: f32) -> Vec<f32> {
        use std::collections::BinaryHeap;
        let (nx, nz) = (p.nx as i64, p.nz as i64);
        let mut dist = vec![f32::INFINITY; p.nx * p.nz];
        let mut heap = BinaryHeap::new();
        for (c, d) in p.seeds(goal, pass) {
            dist[c as usize] = d;
            heap.push(Reverse((d.to_bits(), c as usize)));
        }
        while let Some(Reverse((bits, c))) = heap.pop() {
            let d = f32::from_bits(bits);
            if d > dist[c] {
                continue;
            }
            let (x, z) = (c as i64 % nx, c as i64 / nx);
            for (dx, dz, w) in NEIGHBOURS {
                if !(0..nx).contains(&(x + dx)) || !(0..nz).contains(&(z + dz)) {
                    continue;
                }
                let n = (x + dx + (z + dz) * nx) as usize;
                if p.can_move(c, n, dx, dz, pass) && d + w < dist[n] {
                    dist[n] = d + w;
                    heap.push(Reverse(((d + w).to_bits(), n)));
                }
            }
        }
        dist
    }

    /// `Planner::clear_line` as it was before blocks: every sample taken.
    fn clear_line_every_sample(p: &Planner, a: Vec2, b: Vec2, need: f32) -> bool {
        let skip = 1.5 * p.cell;
        let Some((a2, b2)) = p.clip(a, b) else {
            return true;
        };
        let (before, len) = (a.distance(a2), a2.distance(b2));
        let n = (len / (0.5 * p.cell)).ceil().max(1.0) as usize;
        (0..=n).all(|i| {
            let f = i as f32 / n as f32;
            before + f * len < skip
                || p.column_row(a2.lerp(b2, f))
                    .is_none_or(|(x, z)| p.clearance[x + z * p.nx] >= need)
        })
    }

    #[test]
    fn lines_of_sight_that_skip_clear_blocks_answer_as_every_sample_would() {
        // Random lines over an obstacle field (and from far off it), with needs around the
        // clearances found, on a grid near the origin and on one 30 km out (where f32 spacing
        // is 2 mm): the same answer as taking every sample, and many lines both ways.
        for offset in [Vec2::ZERO, Vec2::new(30_000.0, -21_000.0)] {
            let mut shapes = shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd);
            for s in shapes.iter_mut().flatten() {
                s.center += offset;
            }
            let mut p = Planner::default();
            p.rebuild(&shapes);
            let mut rng = SplitMix(21);
            let mut coord = |span: f32| (rng.next_u64() % 2_000_001) as f32 / 1e6 * span - span;
            let (mut clear, mut blocked) = (0, 0);
            for k in 0..20_000 {
                let span = if k % 10 == 0 { 60.0 } else { 25.0 };
                let a = offset + Vec2::new(coord(span), coord(span));
                let b = if k % 3 == 0 {
                    // Short lines, often within one block.
                    a + Vec2::new(coord(3.0), coord(3.0))
                } else {
                    offset + Vec2::new(coord(span), coord(span))
                };
                let need = 0.05 + (k % 16) as f32 * 0.1;
                let want = clear_line_every_sample(&p, a, b, need);
                let got = p.clear_line(a, b, need, 1.0, &|_| true);
                assert_eq!(got, want, "{a} → {b}, need {need}");
                clear += usize::from(want);
                blocked += usize::from(!want);
            }
            assert!(
                clear > 2_000 && blocked > 2_000,
                "{clear} clear, {blocked} blocked"
            );
        }
    }

    #[test]
    fn fields_equal_the_textbook_dijkstra_bit_for_bit() {
        // Goals all over an obstacle field (in the open, beside and inside obstacles, on the
        // border), for three agent radii, with the open-move bits made before and kept
        // across fields.
        let shapes = shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd);
        let mut p = Planner::default();
        p.rebuild(&shapes);
        let cells = p.nx * p.nz;
        let mut rng = SplitMix(3);
        let mut dist = Vec::new();
        let mut reached = 0;
        for radius in [0.0, 0.3, 0.9] {
            let pass = Planner::pass(radius);
            for g in 0..12 {
                let goal = match g {
                    0 => 0,
                    1 => cells - 1,
                    _ => (rng.next_u64() % cells as u64) as usize,
                };
                p.compute(&mut dist, goal, pass);
                let want = textbook_field(&p, goal, pass);
                assert!(
                    dist.iter()
                        .zip(&want)
                        .all(|(a, b)| a.to_bits() == b.to_bits()),
                    "goal {goal}, radius {radius}"
                );
                reached += dist.iter().filter(|d| d.is_finite()).count();
            }
        }
        // (Most of the grid is reached: the fields are not trivially equal.)
        assert!(reached > 36 * cells / 2, "{reached} of {}", 36 * cells);
        assert_eq!(p.moves.len(), 3);
    }

    #[test]
    fn a_local_update_gives_the_grid_a_rebuild_gives() {
        // Obstacles taken away, added (in the slots freed first, as the crowd does) and
        // moved, a few at a time: after each round the updated grid covers the obstacles and
        // equals a grid rebuilt from scratch on it, bit for bit. Most rounds update locally;
        // those that take an obstacle past the grid (a wall reaching out) or touch a quarter
        // of the grid rebuild.
        let mut rng = SplitMix(17);
        let mut shapes = shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd);
        let mut p = Planner::default();
        p.rebuild(&shapes);
        let (mut local, mut rounds) = (0, 0);
        for round in 0..40 {
            let mut changed = Vec::new();
            for _ in 0..1 + round % 4 {
                let live: Vec<usize> = (0..shapes.len()).filter(|&i| shapes[i].is_some()).collect();
                if !rng.next_u64().is_multiple_of(3) && !live.is_empty() {
                    let i = live[(rng.next_u64() % live.len() as u64) as usize];
                    changed.push(shapes[i].take().unwrap());
                }
                if !rng.next_u64().is_multiple_of(3) {
                    let s = random_obstacle(&mut rng, 18.0).shape().unwrap();
                    match shapes.iter().position(Option::is_none) {
                        Some(free) => shapes[free] = Some(s),
                        None => shapes.push(Some(s)),
                    }
                    changed.push(s);
                }
            }
            rounds += 1;
            local += usize::from(p.update(&shapes, &changed));
            assert!(p.cells() > 10_000);
            assert!(covers(&p, &shapes), "round {round}");
            let fresh = rebuilt_like(&p, &shapes);
            assert_eq!(grid_bits(&p), grid_bits(&fresh), "round {round}");
        }
        assert!(local * 2 > rounds, "{local} of {rounds} rounds local");
    }

    /// The fields for these goals and radii, computed as a fresh planner over `shapes` on
    /// `like`'s grid would.
    fn fresh_fields(
        like: &Planner,
        shapes: &[Option<Shape>],
        wanted: &[(usize, f32)],
    ) -> Vec<Vec<u32>> {
        let mut p = rebuilt_like(like, shapes);
        p.budget = u32::MAX;
        let mut out = Vec::new();
        for &(goal, r) in wanted {
            let pass = Planner::pass(r);
            let i = p.field(goal, Planner::class(pass), pass).unwrap();
            out.push(p.fields[i].dist.iter().map(|d| d.to_bits()).collect());
        }
        out
    }

    #[test]
    fn the_lane_neighbour_test_matches_the_scalar_one() {
        // Random distances (with infinities, NaN, ties at exactly dc + 1 and dc + √2) on a
        // 7-wide grid: every inside cell, every centre value.
        let mut rng = SplitMix(5);
        let nx = 7;
        for round in 0..2_000 {
            let dc = rng.range(0.0, 50.0).floor() + [0.0, 0.5, 0.25][round % 3];
            let dist: Vec<f32> = (0..nx * 5)
                .map(|_| match (rng.range(0.0, 8.0)) as u32 {
                    0 => f32::INFINITY,
                    1 => f32::NAN,
                    2 => dc + 1.0,
                    3 => dc + core::f32::consts::SQRT_2,
                    _ => dc + rng.range(-1.0, 3.0),
                })
                .collect();
            for c in nx + 1..dist.len() - nx - 2 {
                assert_eq!(
                    lowered_inside(&dist, c, nx, dc),
                    lowered_scalar(&dist, c, nx, dc),
                    "cell {c}, dc {dc}, {dist:?}"
                );
            }
        }
    }

    #[test]
    fn an_agent_waiting_for_a_field_searches_in_its_turn_or_walks_straight() {
        // Agents all over an obstacle field ask for a far goal while no field can come (none
        // cached, the field budget spent). Out of search budget, or out of turn, each walks
        // straight at the target and no line of sight is tested. In its turn it searches, and
        // its aim, like the goal's field's, lies on a shortest way (the search is a descent of
        // that field; where equal ways tie, the two may take different ones).
        let mut p = field_planner();
        let mut fielded = p.clone();
        let tests = core::cell::Cell::new(0u32);
        let fits = |_: Vec2| {
            tests.set(tests.get() + 1);
            true
        };
        let target = Vec2::new(14.0, 15.0);
        let mut routed = 0;
        for i in 0..64 {
            let pos = Vec2::new(-16.0 + (i % 8) as f32 * 2.3, -16.0 + (i / 8) as f32 * 2.1);
            p.budget = 0;
            p.search_cells = 0;
            tests.set(0);
            assert_eq!(
                p.next_point(pos, target, 0.3, i, None, false, &mut Approach::Off, fits),
                (target, false)
            );
            assert_eq!(tests.get(), 0, "no line tested without searches left");
            p.search_cells = u64::MAX;
            (p.stride, p.sub_steps) = (2, u64::from(i) + 1);
            assert_eq!(
                p.next_point(pos, target, 0.3, i, None, false, &mut Approach::Off, fits),
                (target, false)
            );
            assert_eq!(tests.get(), 0, "no line tested out of turn");
            p.stride = 1;
            let searched = p.next_point(pos, target, 0.3, i, None, false, &mut Approach::Off, fits);
            assert!(tests.get() > 0, "lines tested in its turn");
            fielded.budget = 1;
            let by_field =
                fielded.next_point(pos, target, 0.3, i, None, false, &mut Approach::Off, fits);
            routed += usize::from(by_field.0 != target);
            // Both aims lie on a shortest way: the field's value where the aim is, plus the
            // straight walk to it, is the value where the agent is (to within a cell or two:
            // the aim is a cell's point, the agent anywhere in its cell).
            let d = &fielded.fields[0].dist;
            let via = |aim: Vec2| d[p.clamped_cell(aim)] + aim.distance(pos) / p.cell;
            let here = d[p.clamped_cell(pos)];
            for (aim, by) in [(searched.0, "search"), (by_field.0, "field")] {
                assert!(
                    via(aim) <= here + 1.0,
                    "{pos}: {by} {aim}, {} > {here}",
                    via(aim)
                );
            }
        }
        assert_eq!((p.fields_computed(), fielded.fields_computed()), (0, 1));
        assert!(routed > 10, "{routed} of 64 walk round obstacles");
        assert_eq!(
            p.paths_searched() as usize,
            routed,
            "a search per blocked line"
        );
    }

    #[test]
    fn the_turns_to_search_widen_when_searches_run_out_and_narrow_again() {
        let mut p = field_planner();
        p.begin_step();
        assert_eq!(p.stride, 1);
        // 100 asked, 10 searched before the cells ran out: turns every 10 sub-steps.
        (p.asked, p.granted, p.search_cells) = (100, 10, 0);
        p.begin_step();
        assert_eq!(p.stride, 10);
        assert!(p.search_cells > 0);
        // Searches to spare: turns twice as often, down to every sub-step.
        for want in [5, 2, 1, 1] {
            (p.asked, p.granted) = (3, 3);
            p.begin_step();
            assert_eq!(p.stride, want);
        }
        (p.asked, p.granted, p.search_cells) = (u64::MAX / 2, 1, 0);
        p.begin_step();
        assert_eq!(p.stride, MAX_STRIDE);
    }

    #[test]
    fn a_local_update_keeps_exact_fields_and_marks_the_others_stale() {
        let mut shapes = shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd);
        let mut p = Planner::default();
        p.rebuild(&shapes);
        let goals = [
            Vec2::new(-15.0, -15.0),
            Vec2::new(12.0, 3.0),
            Vec2::new(0.0, 16.0),
        ];
        let wanted: Vec<(usize, f32)> = goals
            .iter()
            .flat_map(|&g| [0.3, 0.6, 1.2].map(|r| (p.goal_block(g), r)))
            .collect();
        let ask = |p: &mut Planner, budget: u32| -> Vec<Option<Vec<u32>>> {
            p.budget = budget;
            wanted
                .iter()
                .map(|&(goal, r)| {
                    let pass = Planner::pass(r);
                    let i = p.field(goal, Planner::class(pass), pass)?;
                    Some(p.fields[i].dist.iter().map(|d| d.to_bits()).collect())
                })
                .collect()
        };
        ask(&mut p, u32::MAX);
        assert_eq!((p.fields_cached(), p.fields_stale()), (9, 0));

        // A box nudged by 1 mm: no cell or move changes between open and closed, and every
        // field is kept as it is, equal to one computed afresh.
        let i = shapes.iter().position(|s| s.is_some()).unwrap();
        let old = shapes[i].unwrap();
        shapes[i] = Some(Shape {
            center: old.center + Vec2::new(1e-3, 0.0),
            ..old
        });
        assert!(p.update(&shapes, &[old, shapes[i].unwrap()]));
        assert_eq!((p.fields_cached(), p.fields_stale()), (9, 0));
        let now: Vec<Vec<u32>> = ask(&mut p, 0).into_iter().map(Option::unwrap).collect();
        assert_eq!(now, fresh_fields(&p, &shapes, &wanted));
        assert_eq!(p.fields_computed(), 9);

        // A wall across open ground: the fields go stale, are used as they are while the
        // budget is spent, and repaired within it equal fresh ones.
        let wall = Obstacle::Wall {
            a: Vec3::new(-6.0, 0.0, -1.0),
            b: Vec3::new(6.0, 0.0, 1.0),
        };
        shapes.push(wall.shape());
        assert!(p.update(&shapes, &[wall.shape().unwrap()]));
        assert_eq!((p.fields_cached(), p.fields_stale()), (9, 9));
        let waiting = ask(&mut p, 0);
        assert!(waiting.iter().all(Option::is_some));
        assert_eq!((p.fields_stale(), p.fields_computed()), (9, 9));
        let now: Vec<Vec<u32>> = ask(&mut p, 4).into_iter().map(Option::unwrap).collect();
        assert_eq!((p.fields_stale(), p.fields_repaired()), (5, 4));
        let now_all: Vec<Vec<u32>> = ask(&mut p, u32::MAX)
            .into_iter()
            .map(Option::unwrap)
            .collect();
        assert_eq!(
            (p.fields_stale(), p.fields_repaired(), p.fields_computed()),
            (0, 9, 9)
        );
        let fresh = fresh_fields(&p, &shapes, &wanted);
        assert_eq!(now_all, fresh);
        assert_eq!(now[..4], fresh[..4]);
        assert_ne!(waiting[0].as_ref(), Some(&fresh[0]));
    }

    #[test]
    fn repaired_fields_equal_fields_computed_afresh() {
        // Obstacles moved round after round (for six rounds without an ask, so a repair covers
        // many changes), two of them round goals set on them (the
        // goal block closed, then open: the seeds change): every field asked for equals one
        // computed afresh over the obstacles of the moment, and stale fields are repaired,
        // never computed again. Four posts far out fix the grid.
        let mut rng = SplitMix(23);
        let mut shapes = shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd);
        for (x, z) in [(-30.0, -30.0), (30.0, -30.0), (-30.0, 30.0), (30.0, 30.0)] {
            let post = Obstacle::Circle {
                center: Vec3::new(x, 0.0, z),
                radius: 0.5,
            };
            shapes.push(post.shape());
        }
        let moving = shapes.len() - 4;
        let mut p = Planner::default();
        p.rebuild(&shapes);
        let home = [shapes[0].unwrap(), shapes[1].unwrap()];
        let goals = [
            home[0].center,
            home[1].center,
            Vec2::new(12.0, 3.0),
            Vec2::new(17.0, -17.0),
        ];
        let wanted: Vec<(usize, f32)> = goals
            .iter()
            .flat_map(|&g| [0.25, 0.6, 1.3].map(|r| (p.goal_block(g), r)))
            .collect();
        let mut seeds_changed = 0;
        for round in 0..40 {
            let mut changed = Vec::new();
            for k in 0..[1, 2, 4][round % 3] {
                let i = if k < 2 {
                    k
                } else {
                    (rng.next_u64() % moving as u64) as usize
                };
                let old = shapes[i].unwrap();
                let step = Vec2::new(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5));
                let centre = if i < 2 {
                    home[i].center + step
                } else {
                    (old.center + step).clamp(Vec2::splat(-24.0), Vec2::splat(24.0))
                };
                shapes[i] = Some(Shape {
                    center: centre,
                    ..old
                });
                changed.extend([old, shapes[i].unwrap()]);
            }
            assert!(p.update(&shapes, &changed), "round {round}");
            if (10..16).contains(&round) {
                continue;
            }
            p.budget = u32::MAX;
            let now: Vec<Vec<u32>> = wanted
                .iter()
                .map(|&(goal, r)| {
                    let pass = Planner::pass(r);
                    let class = Planner::class(pass);
                    let i = p
                        .fields
                        .iter()
                        .position(|f| f.goal == goal && f.class == class);
                    let before = i.map(|i| p.fields[i].seeds.clone());
                    let i = p.field(goal, class, pass).unwrap();
                    seeds_changed += usize::from(before.is_some_and(|b| b != p.fields[i].seeds));
                    p.fields[i].dist.iter().map(|d| d.to_bits()).collect()
                })
                .collect();
            assert_eq!(now, fresh_fields(&p, &shapes, &wanted), "round {round}");
        }
        assert_eq!(p.fields_computed(), 12);
        assert!(
            p.fields_repaired() >= 200,
            "{} repaired",
            p.fields_repaired()
        );
        assert!(seeds_changed >= 20, "seeds changed {seeds_changed} times");
    }

    #[test]
    fn an_update_past_the_list_limit_rebuilds_in_runs() {
        let shapes = shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd);
        let mut p = Planner::default();
        p.rebuild(&shapes);
        let mut moved = shapes.clone();
        let s = moved[7].take().unwrap();
        moved[7] = Some(Shape {
            center: s.center + Vec2::new(0.5, 0.0),
            ..s
        });
        let changed = [s, moved[7].unwrap()];
        let (mut big, mut small) = (p.clone(), p);
        assert!(big.update_listing(&moved, &changed, LIST_ITEMS));
        assert!(!small.update_listing(&moved, &changed, 64));
        let mut fresh = Planner::default();
        fresh.rebuild(&moved);
        assert_eq!(grid_bits(&big), grid_bits(&fresh));
        assert_eq!(grid_bits(&small), grid_bits(&fresh));
    }

    #[test]
    fn the_crowd_updates_its_planner_as_a_rebuild_would() {
        // Through the crowd: obstacles removed and added between steps (its change list, the
        // removed shapes with the added ones), a change past the tracked count, and one that
        // grows the bounding box; planned agents walk all along.
        let mut s = Scenario::obstacle_field(20, 40, 3);
        let c = &mut s.crowd;
        step(c, 2);
        let mut rng = SplitMix(5);
        let ids: Vec<ObstacleId> = c.obstacles().map(|(id, _)| id).collect();
        for (round, id) in ids.into_iter().take(6).enumerate() {
            c.remove_obstacle(id).unwrap();
            for _ in 0..[1, 2, 80, 1, 0, 3][round] {
                c.add_obstacle(random_obstacle(&mut rng, 15.0)).unwrap();
            }
            if round == 3 {
                c.add_obstacle(Obstacle::Circle {
                    center: Vec3::new(40.0, 0.0, 0.0),
                    radius: 1.0,
                })
                .unwrap();
            }
            step(c, 1);
            let shapes = shapes_of(c);
            assert!(covers(c.planner(), &shapes), "round {round}");
            let fresh = rebuilt_like(c.planner(), &shapes);
            assert_eq!(grid_bits(c.planner()), grid_bits(&fresh), "round {round}");
        }
    }

    #[test]
    fn an_obstacle_moving_out_past_the_grid_re_lays_it_only_now_and_then() {
        // A disc leaves the obstacle field 0.1 m per round (a vehicle driving off): most
        // rounds are local updates on a grid laid with room to spare; the grid always covers
        // the obstacles, equals a rebuild on it, and never covers more than twice the area
        // of the grid the obstacles alone would get. Taking the disc away (the field alone
        // again: a grid far larger than it needs) re-lays the grid.
        let mut shapes = shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd);
        let area = |(_, cell, nx, nz): Layout| (nx * nz) as f32 * cell * cell;
        let spare = |p: &Planner, shapes: &[Option<Shape>]| {
            area(p.current_layout().unwrap()) / area(Planner::layout(shapes).unwrap())
        };
        let disc = |x: f32| {
            let center = Vec3::new(x, 0.0, 3.0);
            Obstacle::Circle {
                center,
                radius: 1.0,
            }
            .shape()
            .unwrap()
        };
        shapes.push(Some(disc(0.0)));
        let mut p = Planner::default();
        p.rebuild(&shapes);
        let (mut relays, rounds) = (0, 400);
        for round in 1..=rounds {
            let old = shapes
                .last_mut()
                .unwrap()
                .replace(disc(0.1 * round as f32))
                .unwrap();
            let now = shapes.last().unwrap().unwrap();
            relays += usize::from(!p.update(&shapes, &[old, now]));
            assert!(covers(&p, &shapes), "round {round}");
            assert!(spare(&p, &shapes) <= KEEP_AREA, "round {round}");
            if round % 50 == 0 {
                assert_eq!(grid_bits(&p), grid_bits(&rebuilt_like(&p, &shapes)));
            }
        }
        assert!((1..=rounds / 20).contains(&relays), "{relays} re-lays");
        let old = shapes.pop().unwrap().unwrap();
        assert!(!p.update(&shapes, &[old]));
        assert!(spare(&p, &shapes) <= KEEP_AREA);
    }

    #[test]
    fn the_planner_waits_for_an_agent_that_plans() {
        // Agents that walk straight: the planner is never built, whatever the obstacles do.
        // The first step with a planned agent brings it up to date (a rebuild; later, with
        // the changes noted meanwhile, a local update); removing or switching the last
        // planned agent stops the updates again.
        let mut s = Scenario::obstacle_field(20, 40, 3);
        let c = &mut s.crowd;
        let agents: Vec<_> = c.agents().map(|(id, _)| id).collect();
        for &a in &agents {
            c.set_route_mode(a, RouteMode::Direct).unwrap();
        }
        let mut rng = SplitMix(9);
        let mut moved = |c: &mut Crowd, rounds: usize| {
            for _ in 0..rounds {
                let ids: Vec<ObstacleId> = c.obstacles().map(|(id, _)| id).collect();
                let id = ids[(rng.next_u64() % ids.len() as u64) as usize];
                c.remove_obstacle(id).unwrap();
                c.add_obstacle(random_obstacle(&mut rng, 15.0)).unwrap();
                step(c, 1);
            }
        };
        let fresh = |c: &Crowd| grid_bits(&rebuilt_like(c.planner(), &shapes_of(c)));
        moved(c, 10);
        assert_eq!((c.planner().cells(), c.planner().fields_computed()), (0, 0));
        c.set_route_mode(agents[0], RouteMode::Planned).unwrap();
        step(c, 1);
        assert!(c.planner().cells() > 0);
        assert_eq!(grid_bits(c.planner()), fresh(c));
        // Switched back: the changes are noted, not applied; a new planned agent applies them.
        c.set_route_mode(agents[0], RouteMode::Waypoints).unwrap();
        moved(c, 5);
        assert_ne!(grid_bits(c.planner()), fresh(c));
        c.remove_agent(agents[1]).unwrap(); // (the crowd is full)
        let id = c.add_agent(Vec3::ZERO, 0.0, 1.3, 0.3).unwrap();
        c.set_route_mode(id, RouteMode::Planned).unwrap();
        step(c, 1);
        assert_eq!(grid_bits(c.planner()), fresh(c));
        assert!(c.planner().fields_computed() > 0);
        // Removed: no planned agent is left.
        c.remove_agent(id).unwrap();
        moved(c, 3);
        assert_ne!(grid_bits(c.planner()), fresh(c));
        // Agents added planned (the defaults) count too.
        let mut d = c.agent_defaults();
        d.route_mode = RouteMode::Planned;
        c.set_agent_defaults(d).unwrap();
        c.add_agent(Vec3::new(1.0, 0.0, 1.0), 0.0, 1.3, 0.3)
            .unwrap();
        step(c, 1);
        assert_eq!(grid_bits(c.planner()), fresh(c));
    }

    #[test]
    fn obstacles_whose_span_rounds_to_zero_or_overflows_leave_no_grid() {
        // Found by fuzz/crowd_ffi: a point-sized box at 1e15, where the 4 m margin rounds
        // away, gave a span of 0 and 0 cells, and listing obstacles per cell divided by zero.
        // Boxes 6e38 apart (beyond the C ABI's domain) overflow the span: 0 cells too.
        use crate::crowd::Obstacle;
        use glam::Vec3;
        let mut c = Crowd::new(8).unwrap();
        let center = Vec3::new(1e15, 0.0, 1e15);
        let point = Obstacle::OrientedBox {
            center,
            half_x: 0.0,
            half_z: 0.0,
            yaw: 2.0,
        };
        c.add_obstacle(point).unwrap();
        for x in [-3e38f32, 3e38] {
            let (min, max) = (Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1e32, 0.0, 1.0));
            c.add_obstacle(Obstacle::Box { min, max }).unwrap();
        }
        let id = c.add_agent(Vec3::ZERO, 0.0, 1.0, 0.3).unwrap();
        c.set_route_mode(id, RouteMode::Planned).unwrap();
        c.set_target(id, Vec3::new(5.0, 0.0, 0.0), 0.3).unwrap();
        step(&mut c, 3);
        assert_eq!((c.planner().cells(), c.planner().cell_size()), (0, 0.0));
        assert!(c.agent(id).unwrap().position.x > 0.0);
    }

    #[test]
    fn an_agent_far_outside_the_grid_routes_without_sampling_the_way_there() {
        // Found by fuzz/crowd_ffi and crowd_threads: the first hop's straight-slide test from
        // an agent 1e20 m out to the grid's border took 1e20 / step samples (a hang).
        use crate::crowd::{Obstacle, RouteMode};
        use glam::Vec3;
        let mut c = Crowd::new(8).unwrap();
        let (min, max) = (Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, 1.0));
        c.add_obstacle(Obstacle::Box { min, max }).unwrap();
        let id = c
            .add_agent(Vec3::new(1e20, 0.0, 3e19), 0.0, 1.0, 0.3)
            .unwrap();
        c.set_route_mode(id, RouteMode::Planned).unwrap();
        c.set_target(id, Vec3::new(-5.0, 0.0, 0.0), 0.3).unwrap();
        step(&mut c, 3);
        assert!(c.agent(id).unwrap().position.is_finite());
    }

    #[test]
    fn the_field_of_a_goal_inside_an_obstacle_starts_on_every_side_of_it() {
        // A 4 m box round the goal (its block has no open cell), placed across the goal
        // blocks, and a disc 1.5 m off its side (not touching what is closed round the box for
        // an agent of radius 0.3). The seeds are the open cells next to the closed region the
        // block lies in (found here by a flood over the whole grid), at 0: on every side of
        // the box, none round the disc.
        let centre = Vec2::new(0.6, 0.42);
        let mut c = Crowd::new(1).unwrap();
        let c3 = Vec3::new(centre.x, 0.0, centre.y);
        c.add_obstacle(Obstacle::Box {
            min: c3 - Vec3::new(2.0, 0.0, 2.0),
            max: c3 + Vec3::new(2.0, 0.0, 2.0),
        })
        .unwrap();
        c.add_obstacle(Obstacle::Circle {
            center: c3 + Vec3::new(4.5, 0.0, 0.0),
            radius: 0.5,
        })
        .unwrap();
        for (x, z) in [(-20.0, -20.0), (20.0, 20.0)] {
            c.add_obstacle(Obstacle::Circle {
                center: Vec3::new(x, 0.0, z),
                radius: 0.5,
            })
            .unwrap();
        }
        let mut p = Planner::default();
        p.rebuild(&shapes_of(&c));
        let pass = Planner::pass(0.3);
        let goal = p.goal_block(centre);
        let (nx, nz) = (p.nx as i64, p.nz as i64);
        let bc = p.block_cells() as i64;
        let (bx, bz) = (goal as i64 % nx, goal as i64 / nx);
        let closed = |x: i64, z: i64| p.rep_clear[(x + z * nx) as usize] < pass;
        // The flood, over the whole grid.
        let mut region = std::collections::HashSet::new();
        let mut todo: Vec<(i64, i64)> = Vec::new();
        for z in bz..bz + bc {
            for x in bx..bx + bc {
                assert!(closed(x, z), "the goal block has an open cell");
                region.insert((x, z));
                todo.push((x, z));
            }
        }
        let mut border = std::collections::BTreeSet::new();
        while let Some((x, z)) = todo.pop() {
            for (dx, dz, _) in NEIGHBOURS {
                let (x, z) = (x + dx, z + dz);
                if x < 0 || z < 0 || x >= nx || z >= nz {
                    continue;
                }
                if !closed(x, z) {
                    border.insert((x + z * nx) as u32);
                } else if region.insert((x, z)) {
                    todo.push((x, z));
                }
            }
        }
        let seeds = p.seeds(goal, pass);
        assert!(seeds.iter().all(|&(_, d)| d == 0.0));
        let got: std::collections::BTreeSet<u32> = seeds.iter().map(|&(c, _)| c).collect();
        assert_eq!(got.len(), seeds.len(), "a cell seeded twice");
        assert_eq!(got, border);
        // Every side of the box, and nothing near the disc.
        let points: Vec<Vec2> = seeds
            .iter()
            .map(|&(c, _)| p.rep[c as usize] - centre)
            .collect();
        for side in [Vec2::X, Vec2::NEG_X, Vec2::Y, Vec2::NEG_Y] {
            let on_side = points
                .iter()
                .filter(|q| q.dot(side) > 2.0 && q.perp_dot(side).abs() < 2.0)
                .count();
            assert!(
                on_side >= 14,
                "{on_side} seeds along the side toward {side}"
            );
        }
        assert!(points.iter().all(|q| q.distance(Vec2::new(4.5, 0.0)) > 1.0));
    }
}
