//! The cache of distance fields, one per goal block and clearance class, and where a field
//! starts (its seeds).

use super::spread;
use super::Planner;
use super::FIELD_HOT_STEPS;
use super::GOAL_BLOCK;
use super::MIN_PLANNER_CELL;
use super::NEIGHBOURS;
use glam::Vec2;
use std::hash::Hasher;

/// Rings of cells round a goal block with no passable cell over which the impassable region
/// it lies in is flooded to find that region's sides (see `Planner::seeds`).
pub(super) const MAX_GOAL_RING: i64 = 32;

/// The mark of a goal ([`Planner::goal_cell`]) whose field starts from its whole block.
pub(super) const WHOLE_BLOCK: usize = 1 << 31;

/// Cells of the square a goal block's region is flooded over, at most (a block is at most
/// `GOAL_BLOCK / MIN_PLANNER_CELL` cells wide).
pub(super) const FLOOD_CELLS: usize = {
    let side = (GOAL_BLOCK / MIN_PLANNER_CELL) as usize + 2 * MAX_GOAL_RING as usize;
    side * side
};

/// Whether a cached field is still true. A stale one is used as it is until it is brought up
/// to date, when next asked for within a step's budget.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Freshness {
    Fresh,
    /// Stale where these cells (or moves from them) changed between open and closed: repaired
    /// there.
    Repair(Vec<u32>),
    /// Stale where more than an eighth of the grid changed: computed again.
    Recompute,
}

/// One cached distance field: d(c), the length in cells of the shortest way from cell c to
/// the goal block's seeds over the moves open to `pass` (∞ where there is none).
///
/// A field is computed as far as it is read ([`Planner::settle`]): Dijkstra's algorithm from
/// the seeds reaches the cells in order of value, so the values below the bucket it would
/// take next are final. An agent reads its own cell's value, and descends over cells of
/// lower values (the neighbours it compares are taken only when lower than a final value):
/// the search stops once the agent's cell is final, and goes on where it stopped when an
/// agent farther away asks. The cells it did not reach cost nothing; an agent walking toward
/// its goal never asks for more. (In the 700-agent scene of the `planned_radii` example,
/// fields computed to the end cost a fifth more.)
#[derive(Clone, Debug)]
pub(super) struct Field {
    /// Its goal ([`Planner::goal_cell`]).
    pub(super) goal: usize,
    /// Its radius class ([`Planner::class`]).
    pub(super) class: u32,
    /// The clearance it was computed for.
    pub(super) pass: f32,
    /// The cells it was seeded at and their values (see [`Planner::seeds`]).
    pub(super) seeds: Vec<(u32, f32)>,
    /// Whether obstacles changed the cells' or moves' passability for `pass` since it was
    /// computed (see [`Freshness`]).
    pub(super) fresh: Freshness,
    /// The distance of every cell, in cells: final below `floor`; above it a value may still
    /// be lowered (or be ∞ yet) by the rest of the search.
    pub(super) dist: Vec<f32>,
    /// Every value of `dist` below it is final; ∞ once the search is done, −∞ before it began
    /// (see [`Planner::settle`]). The search still has queued exactly the cells whose values
    /// are finite and at least `floor` (each cell's last value is queued as it is lowered,
    /// and taken when its bucket is): nothing else is kept to go on from.
    pub(super) floor: f32,
    /// The lookup ([`Planner::field`]) of its last use.
    pub(super) used: u64,
    /// The sub-step ([`Planner::begin_step`]) of its last use.
    pub(super) used_step: u64,
}

/// The index of the least recently used of `items` (not empty), by their `used` tick.
pub(super) fn least_used<T>(items: &[T], used: impl Fn(&T) -> u64) -> usize {
    (0..items.len())
        .min_by_key(|&i| used(&items[i]))
        .expect("items to choose from")
}

/// The key of the field of goal block `goal` and radius class `class`.
pub(super) fn field_key(goal: usize, class: u32) -> u64 {
    (goal as u64) << 32 | class as u64
}

/// The hash of a [`field_key`] (a multiply of its bits, folded: the keys are not chosen by an
/// adversary, and a lookup is one multiply; no seed, so the same keys hash the same way on
/// every run, though no result depends on it).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct KeyHash(u64);

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

impl Planner {
    /// Goal block edge in cells: agents whose goals share a block share a field.
    pub(super) fn block_cells(&self) -> usize {
        ((GOAL_BLOCK / self.cell).round() as usize).max(1)
    }

    /// The first cell of the goal block holding `target` (the goal of its fields).
    pub(super) fn goal_block(&self, target: Vec2) -> usize {
        let goal = self.clamped_cell(target);
        let bc = self.block_cells();
        let (gx, gz) = (goal % self.nx, goal / self.nx);
        (gx - gx % bc) + (gz - gz % bc) * self.nx
    }

    /// The clearance class of the fields for clearance `pass`.
    pub(super) fn class(pass: f32) -> u32 {
        (pass * 20.0).ceil() as u32
    }

    /// Whether the field of goal block `goal` for clearance `pass` is cached (nothing is
    /// computed or recorded).
    pub(super) fn field_cached(&self, goal: usize, pass: f32) -> bool {
        self.keys.contains_key(&field_key(goal, Self::class(pass)))
    }

    /// Whether [`Self::field`] would give the field of goal block `goal` for clearance `pass`
    /// now: it is cached, or this sub-step's budget can compute it and the cache can take it
    /// ([`Self::admits`]). (No use is recorded and no field changes.)
    pub(super) fn field_ready(&mut self, goal: usize, pass: f32) -> bool {
        self.field_cached(goal, pass) || (self.budget > 0 && self.admits())
    }

    /// Whether the cache can take a new field now: it has room, or a cached field has gone
    /// unused for [`FIELD_HOT_STEPS`] sub-steps (the least recently used is then one of them).
    /// Counted once per sub-step; each field replaced uses one up.
    pub(super) fn admits(&mut self) -> bool {
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
    pub(super) fn index_keys(&mut self) {
        self.keys.clear();
        let keys = self.fields.iter().map(|f| field_key(f.goal, f.class));
        self.keys.extend(keys.zip(0..));
    }

    /// The index in `fields` of the field of goal block `goal` and radius class `class`
    /// (computed for clearance `pass` when missing; a stale one repaired or computed again),
    /// within this sub-step's budget; `None` when it is not cached and the budget is spent or
    /// the cache cannot take it.
    pub(super) fn field(&mut self, goal: usize, class: u32, pass: f32) -> Option<usize> {
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
            let fresh = std::mem::replace(&mut self.fields[i].fresh, Freshness::Fresh);
            let Freshness::Repair(flipped) = fresh else {
                self.computed += 1;
                self.begin(i);
                return Some(i);
            };
            self.repaired += 1;
            // (Done already: a local update of the grid finishes every field first.)
            self.settle(i, None);
            let f = &mut self.fields[i];
            let (pass, mut dist) = (f.pass, std::mem::take(&mut f.dist));
            let seeds = std::mem::take(&mut f.seeds);
            let seeds = self.repair(&mut dist, goal, pass, &flipped, seeds);
            // (Debug builds, the fuzz targets among them, check it against a new field.)
            #[cfg(debug_assertions)]
            {
                let mut again = Vec::new();
                self.compute(&mut again, goal, pass);
                let bits = |d: &[f32]| d.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                debug_assert!(bits(&dist) == bits(&again), "a repair differs");
            }
            self.fields[i].seeds = seeds;
            self.fields[i].dist = dist;
            return Some(i);
        }
        if self.budget == 0 || !self.admits() {
            return None;
        }
        self.budget -= 1;
        let dist = if self.fields.len() >= self.max_fields {
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
        let i = self.fields.len();
        self.keys.insert(key, i as u32);
        self.fields.push(Field {
            goal,
            class,
            pass,
            seeds: Vec::new(),
            fresh: Freshness::Fresh,
            dist,
            floor: f32::NEG_INFINITY,
            used: self.tick,
            used_step: self.sub_steps,
        });
        self.begin(i);
        Some(i)
    }

    /// Starts field `i` afresh from its seeds ([`Self::seeds`]): each seed at its value,
    /// every other cell ∞, the search not begun. It runs as far as the field is read
    /// ([`Self::settle`]).
    pub(super) fn begin(&mut self, i: usize) {
        let (goal, pass) = (self.fields[i].goal, self.fields[i].pass);
        let seeds = self.seeds(goal, pass);
        let cells = self.nx * self.nz;
        let f = &mut self.fields[i];
        spread::seed(&mut f.dist, cells, &seeds, |_, _| {});
        f.floor = f32::NEG_INFINITY;
        f.seeds = seeds;
    }

    /// Runs the search of field `i` on from where it stopped until cell `until`'s value is
    /// final (every value below the search's floor is: see [`Self::spread`]), or to the end
    /// (`until` `None`, or a cell it never reaches). Nothing to do when the cell's value is
    /// below the floor already or the search is done. The values it gives are those of the
    /// whole search, bit for bit: the search goes on from the cells it still had queued (the
    /// seeds, before it began; after, every cell of a finite value at or above the floor),
    /// over the grid it began on (a local update of the grid finishes every field first, see
    /// [`Self::update`]).
    ///
    /// What a field is read for: an agent's cell, final, and every cell lower than a final
    /// value (the descent from it), final too; a cell above the floor holds its final value or
    /// more, and is never taken as lower. What reads more of a field (the cells round an agent
    /// whose own cell the field does not reach, a repair) finishes it first.
    pub(super) fn settle(&mut self, i: usize, until: Option<usize>) {
        let f = &mut self.fields[i];
        if f.floor == f32::INFINITY || until.is_some_and(|c| f.dist[c] < f.floor) {
            return;
        }
        let (pass, mut dist) = (f.pass, std::mem::take(&mut f.dist));
        if f.floor == f32::NEG_INFINITY {
            self.queue.clear();
            for &(c, d) in &f.seeds {
                self.queue.push(d, c);
            }
        } else {
            self.queue.clear_at(f.floor);
            let floor = f.floor;
            for (c, &d) in dist.iter().enumerate() {
                if d >= floor && d < f32::INFINITY {
                    self.queue.push(d, c as u32);
                }
            }
        }
        let floor = self.spread(&mut dist, pass, until);
        let f = &mut self.fields[i];
        f.floor = floor;
        f.dist = dist;
        // (What the search left queued is, again, the finite values at or above its floor.)
        self.queue.clear();
    }

    /// The goal naming the field that an agent of clearance `pass` walking to `target`
    /// descends (see [`Self::seeds`]). When the agent fits at its target (`fits`) and the
    /// target's cell is open: the first cell (in row order) of the open cells of the target's
    /// goal block that the target's cell reaches within the block (its part). Else the block's
    /// first cell, marked [`WHOLE_BLOCK`]. Agents whose targets lie in one part of a block
    /// share a field; a wall through a block parts it, and targets on its two sides get a field
    /// each.
    pub(super) fn goal_cell(&self, target: Vec2, pass: f32, fits: bool) -> usize {
        let t = self.clamped_cell(target);
        let (bx, bz) = self.block_origin(t);
        let bc = self.block_cells();
        if fits && self.rep_clear[t] >= pass {
            let first = self.block_part(t, pass).trailing_zeros() as usize;
            return bx + first % bc + (bz + first / bc) * self.nx;
        }
        (bx + bz * self.nx) | WHOLE_BLOCK
    }

    /// The column and row of the first cell of the goal block holding cell `c`.
    fn block_origin(&self, c: usize) -> (usize, usize) {
        let bc = self.block_cells();
        let (x, z) = (c % self.nx, c / self.nx);
        (x - x % bc, z - z % bc)
    }

    /// The open cells of the goal block holding the open cell `start` that it reaches within
    /// the block over the moves open to `pass` (a flood), as bits of the block's cells in row
    /// order (a block is at most [`GOAL_BLOCK`] / [`MIN_PLANNER_CELL`] = 8 cells wide).
    fn block_part(&self, start: usize, pass: f32) -> u64 {
        let bc = self.block_cells();
        debug_assert!(bc * bc <= 64, "a goal block fits a u64");
        let (bx, bz) = self.block_origin(start);
        let local = |c: usize| (c % self.nx - bx) + (c / self.nx - bz) * bc;
        let mut part = 1u64 << local(start);
        let mut stack = [0u32; 64];
        stack[0] = start as u32;
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let c = stack[top] as usize;
            for (dx, dz, _) in NEIGHBOURS {
                let Some(n) = self.neighbour(c, dx, dz) else {
                    continue;
                };
                let (x, z) = (n % self.nx, n / self.nx);
                if x < bx || x >= bx + bc || z < bz || z >= bz + bc {
                    continue;
                }
                let bit = 1u64 << local(n);
                if part & bit == 0 && self.can_move(c, n, dx, dz, pass) {
                    part |= bit;
                    stack[top] = n as u32;
                    top += 1;
                }
            }
        }
        part
    }

    /// Where the field of goal `goal` ([`Self::goal_cell`]) for clearance `pass` starts, and
    /// at what values. A part of a block: its cells, at 0 (a wall through the block leaves the
    /// cells beyond it unseeded, to be reached round the wall; seeding every open cell of the
    /// block led agents to the near side of a wall whose far side held their target, a wedge
    /// they paced in for good). A [`WHOLE_BLOCK`] goal (a target the agent does not fit at,
    /// inside an obstacle or closer to one than its radius): every open cell of the block at
    /// 0; for a block with none, the passable cells bordering the impassable region the block
    /// lies in, on every side (the region flooded from the block, eight-connected, within
    /// [`MAX_GOAL_RING`] rings of it), at 0; for want of those, the block's first cell. Agents
    /// then walk to the nearest side of the obstacle round their goal and, from there,
    /// straight at the goal. (Seeding the first ring of cells round the block that had a
    /// passable cell, at their distance from the block, seeded one side of a box round the
    /// goal: a planned crowd sent to a point inside a 4 m box walked round to that side.)
    pub(super) fn seeds(&self, goal: usize, pass: f32) -> Vec<(u32, f32)> {
        let mut seeds = Vec::new();
        self.seeds_into(goal, pass, &mut seeds);
        seeds
    }

    /// [`Self::seeds`] into `seeds` (cleared first).
    pub(super) fn seeds_into(&self, goal: usize, pass: f32, seeds: &mut Vec<(u32, f32)>) {
        seeds.clear();
        let bc = self.block_cells();
        let whole = goal & WHOLE_BLOCK != 0;
        let goal = goal & !WHOLE_BLOCK;
        let (bx, bz) = self.block_origin(goal);
        if !whole {
            let mut part = self.block_part(goal, pass);
            while part != 0 {
                let k = part.trailing_zeros() as usize;
                part &= part - 1;
                seeds.push(((bx + k % bc + (bz + k / bc) * self.nx) as u32, 0.0));
            }
            return;
        }
        let (bx, bz) = (bx as i64, bz as i64);
        let (nx, nz) = (self.nx as i64, self.nz as i64);
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
    pub(super) fn region_border(&self, bx: i64, bz: i64, pass: f32, seeds: &mut Vec<(u32, f32)>) {
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
}
