//! Routes around static obstacles: a clearance grid built when obstacles change, and per goal
//! a distance field (Dijkstra over the 8-connected grid) shared by every agent whose goal
//! falls in the same part of a 2 m goal block (the open cells its target's cell reaches within
//! the block: a wall through a block parts it) and whose radius rounds to the same class. An agent walks toward the
//! farthest cell of its descent along the field that it can see (string pulling), or straight
//! at the target once it sees it. An agent whose goal no other agent asks for, and an agent
//! whose field a sub-step cannot give (not cached, the field budget spent), searches a way of
//! its own, in turns within a share of the budget (A* from the goal over the same moves),
//! aims along it the same way, and keeps it from one route update to the next until it
//! strays, nears its goal, or a field for its goal is cached (`ways`). Near its
//! goal's block, where the field (seeded at 0 over the whole block) cannot tell the way to the
//! target itself, an agent that does not see its target takes the last stretch by a small A*
//! search from the cells beside the target (`Planner::approach`).
//!
//! Passability is exact along the graph's own segments. Each cell has a representative point:
//! of `REP_SAMPLES`² points spread over the cell (a third of a cell apart), the one with the
//! most clearance. A cell is open to an agent of radius r where that point's clearance is at
//! least r + [`PASS_SKIN`], and a move between neighbours where the segment joining their
//! points keeps that clearance (its exact distance to each obstacle,
//! [`Shape::segment_distance`](super::obstacle::Shape::segment_distance)). A route through
//! open cells is then a polyline a disc of radius r + `PASS_SKIN` can slide along. A door a little wider than the agent is open
//! wherever the grid lies: in a wall along a grid axis some row of samples lies within a
//! sixth of a cell of the door's midline, so a door 2·(r + `PASS_SKIN`) plus a third of a
//! cell wide is open. (Clearance sampled at cell centres alone must ask for half a cell more
//! than the radius to guarantee anything: on the finest grid that closed doors narrower than
//! 2r + 2 cells, e.g. SteerSuite `doorway-one-way`, a 1.2 m door for agents of radius 0.5.)
//!
//! Nothing is built per radius. Each move has one clearance (`Planner::move_reach`):
//! reach(c → n) = min(ρ(n), e(c, n)), ρ a point's clearance and e the segment's, so that from
//! an open cell the move is open to an agent of radius r exactly when
//! reach(c → n) ≥ r + [`PASS_SKIN`]. Fields and searches for any radius read their open moves
//! from that one table: a byte a move (`level`: the clearance in 255ths of
//! [`CLEARANCE_CAP`]), eight compared at once, and the exact value (computed again from the
//! points and segments) only where the byte ties with the level of r + `PASS_SKIN`; a crowd
//! whose every agent has a radius of its own costs what one radius costs. Fields are shared by
//! agents whose r + `PASS_SKIN` falls in the same 5 cm class (the field of the first to ask);
//! an agent descends a field only over the moves open to its own clearance, so its route keeps
//! r + `PASS_SKIN` clear.
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
//!
//! A crowd builds its first grid at once; a grid in use that must be built again (re-laid, or
//! changed too widely for a local update) is rebuilt in slices (`build`): a sub-step spends its
//! route budget on a share of the grid's cells ([`GRID_FIELDS`]), and planned agents walk
//! straight at their targets until the build ends, so no step of play pays for a whole grid.
//!
//! The files, one concept each: `grid` (the clearance grid and its local updates; `lists`, the
//! obstacles near each cell; `build`, building it in slices), `sight` (lines of sight and straight slides), `fields` (the field
//! cache, each field's seeds, and running a field's search as far as agents read it), `spread`
//! (Dijkstra's algorithm: computing and repairing a field), `route` (an agent's next route
//! point along its field), `lanes` (that point moved into the right-hand lane where streams
//! meet head on), `search` (an agent's own A* searches: waiting for a field, giving
//! way, the last stretch), `ways` (the ways agents keep: goals of one agent's own).

mod build;
mod fields;
mod grid;
mod lanes;
mod lists;
mod route;
mod search;
mod sight;
mod spread;
#[cfg(test)]
mod tests;
mod ways;

use super::buckets::Buckets;
use super::paths::Search;
pub use build::GRID_FIELDS;
use fields::Field;
use fields::Freshness;
use fields::KeyHash;
use glam::Vec2;
pub(crate) use route::Approach;
use std::cmp::Reverse;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Most cells of the planning grid.
pub const MAX_PLANNER_CELLS: f32 = 65_536.0;

/// Finest planning cell, metres.
pub const MIN_PLANNER_CELL: f32 = 0.25;

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

/// Levels per metre of [`level`].
const LEVELS_PER_METRE: f32 = 255.0 / CLEARANCE_CAP;

/// A clearance `x` as a byte: ⌊fl(x · `LEVELS_PER_METRE`)⌋ clamped to 0..=255 (0 for NaN).
/// A rounded product by a constant never decreases as `x` grows, so neither does the level:
/// level(x) > level(p) implies x > p and level(x) < level(p) implies x < p; only equal levels
/// leave the order to the exact values. The open-move test compares levels, a byte a move.
fn level(x: f32) -> u8 {
    let scaled = x * LEVELS_PER_METRE;
    if scaled >= 0.0 {
        scaled.min(255.0) as u8
    } else {
        0
    }
}

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

/// The route planner of a crowd.
///
/// ```
/// use wayfarer::crowd::{Crowd, Obstacle, RouteMode};
/// use wayfarer::Vec3;
///
/// let mut crowd = Crowd::new(4).unwrap();
/// crowd.add_obstacle(Obstacle::Box { min: Vec3::new(-3.0, 0.0, 2.0), max: Vec3::new(3.0, 0.0, 3.0) }).unwrap();
/// for x in [-0.5, 0.5] {
///     let id = crowd.add_agent(Vec3::new(x, 0.0, 0.0), 0.0, 1.3, 0.3).unwrap();
///     crowd.set_route_mode(id, RouteMode::Planned).unwrap();
///     crowd.set_target(id, Vec3::new(0.0, 0.0, 6.0), 0.3).unwrap();
/// }
/// crowd.step(0.1, 1).unwrap();
/// // The first agent to ask for the goal searches a way of its own; the second asks for the
/// // goal's distance field, which then serves both.
/// assert_eq!(crowd.planner().paths_searched(), 1);
/// assert_eq!(crowd.planner().fields_computed(), 1);
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
    /// Each cell's eight moves' clearances ([`Planner::move_reach`]: a move from a cell open
    /// to clearance p is open to p exactly when its clearance is at least p) as levels
    /// ([`level`]), a byte a move, in [`NEIGHBOURS`] order: one table for every radius. The
    /// open-move test reads them, and computes the exact clearances only where a level ties
    /// with the level of the clearance asked.
    reach_level: Vec<u64>,
    /// `rep_clear` as levels.
    point_level: Vec<u8>,
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
    /// A build of the grid under way (see [`build`]).
    pending: Option<Box<build::GridBuild>>,
    /// The ways agents with goals of their own keep (see [`ways`]).
    ways: ways::Ways,
    /// The flow: the walkers' velocities per cell this sub-step (see [`lanes`]).
    flows: lanes::Flows,
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
            reach_level: Vec::new(),
            point_level: Vec::new(),
            fields: Vec::new(),
            keys: HashMap::default(),
            max_fields: MAX_FIELDS,
            cold: (u64::MAX, 0),
            tick: 0,
            computed: 0,
            repaired: 0,
            queue: Buckets::default(),
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
            pending: None,
            ways: ways::Ways::default(),
            flows: lanes::Flows::default(),
        }
    }
}

impl Planner {
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
    /// clearance grid (its clearances, points and move clearances, about 64 bytes per cell,
    /// whatever the agents' radii) and the bookkeeping are not counted.
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
}
