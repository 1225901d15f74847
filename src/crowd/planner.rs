//! Routes around static obstacles: a clearance grid built when obstacles change, and per goal
//! a distance field (Dijkstra over the 8-connected grid, cells passable where the clearance
//! exceeds the agent's radius) shared by every agent whose goal falls in the same cell and
//! whose radius rounds to the same class. An agent walks toward the farthest cell of its
//! descent along the field that it can see (string pulling), or straight at the target once it
//! sees it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::{DVec2, Vec2};

use super::grid::ObstacleGrid;
use super::obstacle::Shape;

/// Most cells of the planning grid.
pub const MAX_PLANNER_CELLS: f32 = 65_536.0;
/// Finest planning cell, metres.
pub const MIN_PLANNER_CELL: f32 = 0.25;
/// Free border around the obstacles' bounding box, metres.
pub const PLANNER_MARGIN: f32 = 4.0;
/// Clearance is measured up to this distance, metres (larger agents plan as this radius).
pub const CLEARANCE_CAP: f32 = 3.0;
/// Distance fields kept by default, and the most
/// [`Crowd::set_route_cache`](super::Crowd::set_route_cache) accepts; the least recently used
/// is dropped beyond the cap. Each holds one `f32` per planning cell (about
/// `MAX_PLANNER_CELLS` at most, see [`Planner::cells`]: 256 KiB), allocated as distinct goals
/// appear, so the cache peaks at 128 MiB for a crowd with 512 distinct goals on the finest
/// grid. A smaller cache thrashes when many agents have goals of their own (SteerSuite
/// `forest`: 500 agents with 64 fields mostly walked straight, waiting for a field, and 16 %
/// stuck behind boxes; with 512, 1 %).
pub const MAX_FIELDS: usize = 512;
/// Goals within one block of this edge (metres) share a distance field.
pub const GOAL_BLOCK: f32 = 2.0;
/// Sub-steps between two route updates of an agent (sooner when it reaches its route point).
pub const REPLAN_STEPS: u32 = 10;
/// New distance fields computed per sub-step at most (each a Dijkstra over the planning grid,
/// ~1–3 ms on the finest one); agents beyond the budget walk straight and ask again next
/// sub-step.
pub const FIELDS_PER_STEP: u32 = 4;
/// Rings of cells round a goal block searched for passable cells when the block has none.
const MAX_GOAL_RING: i64 = 8;
/// Cells of descent looked along for the farthest visible one.
const LOOK_ALONG: usize = 96;

#[derive(Clone, Debug)]
struct Field {
    goal: usize,
    class: u32,
    dist: Vec<f32>,
    used: u64,
}

/// The route planner of a crowd.
#[derive(Clone, Debug)]
pub struct Planner {
    origin: Vec2,
    cell: f32,
    nx: usize,
    nz: usize,
    clearance: Vec<f32>,
    fields: Vec<Field>,
    /// Most fields cached (1..=[`MAX_FIELDS`]).
    max_fields: usize,
    tick: u64,
    computed: u64,
    heap: BinaryHeap<Reverse<(u32, u32)>>,
    budget: u32,
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
            fields: Vec::new(),
            max_fields: MAX_FIELDS,
            tick: 0,
            computed: 0,
            heap: BinaryHeap::new(),
            budget: 0,
        }
    }
}

impl Planner {
    /// Rebuilds the clearance grid for these obstacles and drops every cached field.
    pub(crate) fn rebuild(&mut self, shapes: &[Option<Shape>], grid: &ObstacleGrid) {
        self.fields.clear();
        self.clearance.clear();
        self.nx = 0;
        self.nz = 0;
        let mut lo = Vec2::splat(f32::INFINITY);
        let mut hi = Vec2::splat(f32::NEG_INFINITY);
        for s in shapes.iter().flatten() {
            lo = lo.min(s.center - s.extent());
            hi = hi.max(s.center + s.extent());
        }
        if lo.x > hi.x {
            return;
        }
        lo -= Vec2::splat(PLANNER_MARGIN);
        hi += Vec2::splat(PLANNER_MARGIN);
        let span = hi - lo;
        // The per-axis bound keeps nx·nz ≤ 3·MAX_PLANNER_CELLS for thin spans too.
        let cell = (span.x * span.y / MAX_PLANNER_CELLS)
            .sqrt()
            .max(span.max_element() / MAX_PLANNER_CELLS)
            .max(MIN_PLANNER_CELL);
        self.origin = lo;
        self.cell = cell;
        self.nx = (span.x / cell).ceil() as usize;
        self.nz = (span.y / cell).ceil() as usize;
        self.clearance.resize(self.nx * self.nz, CLEARANCE_CAP);
        for z in 0..self.nz {
            for x in 0..self.nx {
                let c = self.center(x + z * self.nx);
                let mut best = CLEARANCE_CAP;
                grid.query(c, CLEARANCE_CAP, |i| {
                    if let Some(s) = &shapes[i] {
                        best = best.min(s.contact(c).distance);
                    }
                });
                self.clearance[x + z * self.nx] = best;
            }
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

    /// Distance fields computed so far (cache misses).
    pub fn fields_computed(&self) -> u64 {
        self.computed
    }

    /// Distance fields currently cached (at most [`Self::max_fields`]).
    pub fn fields_cached(&self) -> usize {
        self.fields.len()
    }

    /// Bytes held by the cached distance fields: 4 per planning cell per field, so at most
    /// `max_fields() × cells() × 4` (about 256 KiB per field on a large world). The
    /// clearance grid (one more `f32` per cell) and the bookkeeping are not counted.
    pub fn field_bytes(&self) -> usize {
        self.fields
            .iter()
            .map(|f| f.dist.capacity() * core::mem::size_of::<f32>())
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
        }
    }

    fn center(&self, c: usize) -> Vec2 {
        let (x, z) = (c % self.nx, c / self.nx);
        self.origin + Vec2::new(x as f32 + 0.5, z as f32 + 0.5) * self.cell
    }

    /// The cell holding `p`, or the nearest border cell when `p` is outside the grid.
    fn clamped_cell(&self, p: Vec2) -> usize {
        let l = (p - self.origin) / self.cell;
        let x = (l.x.max(0.0) as usize).min(self.nx - 1);
        let z = (l.y.max(0.0) as usize).min(self.nz - 1);
        x + z * self.nx
    }

    fn cell_of(&self, p: Vec2) -> Option<usize> {
        let l = (p - self.origin) / self.cell;
        if l.x < 0.0 || l.y < 0.0 {
            return None;
        }
        let (x, z) = (l.x as usize, l.y as usize);
        (x < self.nx && z < self.nz).then_some(x + z * self.nx)
    }

    /// Clearance needed by an agent of `radius`: its radius, plus the half cell the centre
    /// sample can be off by.
    fn need(&self, radius: f32) -> f32 {
        radius.min(CLEARANCE_CAP - 0.5 * self.cell).max(0.0) + 0.5 * self.cell
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
        (0..=n).all(|i| {
            let f = i as f32 / n as f32;
            if before + f * len < skip {
                return true;
            }
            let p = a2.lerp(b2, f);
            self.cell_of(p).is_none_or(|c| self.clearance[c] >= need)
        })
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

    /// Starts a sub-step: refills the field budget.
    pub(crate) fn begin_step(&mut self) {
        self.budget = FIELDS_PER_STEP;
    }

    fn field(&mut self, goal: usize, class: u32, need: f32) -> Option<usize> {
        self.tick += 1;
        if let Some(i) = self
            .fields
            .iter()
            .position(|f| f.goal == goal && f.class == class)
        {
            self.fields[i].used = self.tick;
            return Some(i);
        }
        if self.budget == 0 {
            return None;
        }
        self.budget -= 1;
        let mut dist = if self.fields.len() >= self.max_fields {
            let (i, _) = self
                .fields
                .iter()
                .enumerate()
                .min_by_key(|(_, f)| f.used)
                .expect("fields is full");
            self.fields.swap_remove(i).dist
        } else {
            Vec::new()
        };
        dist.clear();
        dist.resize(self.nx * self.nz, f32::INFINITY);
        self.computed += 1;
        let (nx, nz) = (self.nx as i64, self.nz as i64);
        let passable = |c: usize, clr: &[f32]| clr[c] >= need;
        self.heap.clear();
        // Seed every passable cell of the goal block (or the goal cell if none is).
        let bc = self.block_cells();
        let (bx, bz) = (goal % self.nx, goal / self.nx);
        let (bx, bz) = (bx - bx % bc, bz - bz % bc);
        for z in bz..(bz + bc).min(self.nz) {
            for x in bx..(bx + bc).min(self.nx) {
                let c = x + z * self.nx;
                if self.clearance[c] >= need {
                    dist[c] = 0.0;
                    self.heap.push(Reverse((0, c as u32)));
                }
            }
        }
        // A goal block with no passable cell (the goal is closer to an obstacle than the
        // agent's radius) is reached through the passable cells nearest to it: those of the
        // first ring of cells round the block that has any, at their distance from the block.
        // (Seeding the block's own impassable cell instead left a field of that one cell: the
        // agents walked straight at such goals, and one stuck behind a box in SteerSuite
        // `forest`, seed 3.)
        let (cx, cz) = (bx as f32 + 0.5 * bc as f32, bz as f32 + 0.5 * bc as f32);
        let mut ring = 1;
        while self.heap.is_empty() && ring <= MAX_GOAL_RING {
            let (x0, z0) = (bx as i64 - ring, bz as i64 - ring);
            let (x1, z1) = (
                bx as i64 + bc as i64 - 1 + ring,
                bz as i64 + bc as i64 - 1 + ring,
            );
            for z in z0.max(0)..=z1.min(nz - 1) {
                for x in x0.max(0)..=x1.min(nx - 1) {
                    if x != x0 && x != x1 && z != z0 && z != z1 {
                        continue;
                    }
                    let c = (x + z * nx) as usize;
                    if self.clearance[c] >= need {
                        let d = Vec2::new(x as f32 + 0.5 - cx, z as f32 + 0.5 - cz).length();
                        dist[c] = d;
                        self.heap.push(Reverse((d.to_bits(), c as u32)));
                    }
                }
            }
            ring += 1;
        }
        if self.heap.is_empty() {
            dist[goal] = 0.0;
            self.heap.push(Reverse((0, goal as u32)));
        }
        while let Some(Reverse((dbits, c))) = self.heap.pop() {
            let c = c as usize;
            let dc = f32::from_bits(dbits);
            if dc > dist[c] {
                continue;
            }
            let (x, z) = ((c % self.nx) as i64, (c / self.nx) as i64);
            for (dx, dz, w) in [
                (1, 0, 1.0),
                (-1, 0, 1.0),
                (0, 1, 1.0),
                (0, -1, 1.0),
                (1, 1, core::f32::consts::SQRT_2),
                (1, -1, core::f32::consts::SQRT_2),
                (-1, 1, core::f32::consts::SQRT_2),
                (-1, -1, core::f32::consts::SQRT_2),
            ] {
                let (x2, z2) = (x + dx, z + dz);
                if x2 < 0 || z2 < 0 || x2 >= nx || z2 >= nz {
                    continue;
                }
                let n = (x2 + z2 * nx) as usize;
                if !passable(n, &self.clearance) {
                    continue;
                }
                if dx != 0 && dz != 0 {
                    let a = (x2 + z * nx) as usize;
                    let b = (x + z2 * nx) as usize;
                    if !passable(a, &self.clearance) || !passable(b, &self.clearance) {
                        continue;
                    }
                }
                let nd = dc + w;
                if nd < dist[n] {
                    dist[n] = nd;
                    self.heap.push(Reverse((nd.to_bits(), n as u32)));
                }
            }
        }
        self.fields.push(Field {
            goal,
            class,
            dist,
            used: self.tick,
        });
        Some(self.fields.len() - 1)
    }

    /// The point an agent at `pos` of `radius` should walk toward to reach `target`, and
    /// whether that point is the target itself.
    ///
    /// `fits(p)`: a disc of the agent's radius at `p` would not go deeper into an obstacle than
    /// the agent already is (tested along the first 1.5 cells of every line of sight, so an
    /// agent wedged into a concave corner does not see through the crack behind it).
    pub(crate) fn next_point(
        &mut self,
        pos: Vec2,
        target: Vec2,
        radius: f32,
        fits: impl Fn(Vec2) -> bool,
    ) -> (Vec2, bool) {
        if self.nx == 0 {
            return (target, true);
        }
        let need = self.need(radius);
        let step = (0.25 * radius).max(0.125 * self.cell);
        if pos.distance(target) <= 2.0 * radius + self.cell
            || self.clear_line(pos, target, need, step, &fits)
        {
            return (target, true);
        }
        // The agent's own field; when no cell near the agent is reachable in it (it stands in a
        // pocket that the grid's conservative clearance counts as closed, though it walked in),
        // the field of the thinnest agent the grid can tell apart.
        for need in [need, self.need(0.0)] {
            if let Some(route) = self.descend(pos, target, need, step, &fits) {
                return route;
            }
        }
        (target, true)
    }

    /// [`Self::next_point`] along the distance field of clearance `need`: `None` when no cell
    /// within three of the agent's is reachable in that field.
    fn descend(
        &mut self,
        pos: Vec2,
        target: Vec2,
        need: f32,
        step: f32,
        fits: &impl Fn(Vec2) -> bool,
    ) -> Option<(Vec2, bool)> {
        let goal = self.clamped_cell(target);
        let bc = self.block_cells();
        let (gx, gz) = (goal % self.nx, goal / self.nx);
        let block = (gx - gx % bc) + (gz - gz % bc) * self.nx;
        let class = (need * 20.0).ceil() as u32;
        let Some(f) = self.field(block, class, need) else {
            // Over this sub-step's budget: walk straight for now, ask again next sub-step.
            return Some((target, false));
        };
        let dist = &self.fields[f].dist;
        let start = self.clamped_cell(pos);
        // The agent's own cell may be too tight (it is squeezed against a wall): use the best
        // reachable cell nearby.
        let (sx, sz) = ((start % self.nx) as i64, (start / self.nx) as i64);
        let mut cur = start;
        if !dist[start].is_finite() {
            // The nearby reachable cells, best first; the first one the agent's disc can slide
            // to in a straight line (so not one behind the obstacle it is pressed against),
            // else the best.
            let mut near = [(f32::INFINITY, 0usize); 49];
            let mut count = 0;
            for dz in -3..=3i64 {
                for dx in -3..=3i64 {
                    let (x, z) = (sx + dx, sz + dz);
                    if x < 0 || z < 0 || x >= self.nx as i64 || z >= self.nz as i64 {
                        continue;
                    }
                    let c = (x + z * self.nx as i64) as usize;
                    let d = dist[c] + ((dx * dx + dz * dz) as f32).sqrt();
                    if d.is_finite() {
                        near[count] = (d, c);
                        count += 1;
                    }
                }
            }
            if count == 0 {
                return None;
            }
            let near = &mut near[..count];
            near.sort_unstable_by(|p, q| p.0.total_cmp(&q.0).then(p.1.cmp(&q.1)));
            cur = near[0].1;
            for &(_, c) in near.iter() {
                let to = self.center(c);
                let m = (pos.distance(to) / step).ceil().max(1.0) as usize;
                if (1..=m).all(|i| fits(pos.lerp(to, i as f32 / m as f32))) {
                    cur = c;
                    break;
                }
            }
        }
        // Descend the field, then probe cells 3, 6, 12, 24, 48, 96 along it and keep the
        // farthest one still in sight.
        let mut descent = [cur; LOOK_ALONG + 1];
        let mut len = 1;
        while len <= LOOK_ALONG && dist[cur] > 0.0 {
            let (x, z) = ((cur % self.nx) as i64, (cur / self.nx) as i64);
            let mut next = cur;
            for (dx, dz) in [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ] {
                let (x2, z2) = (x + dx, z + dz);
                if x2 < 0 || z2 < 0 || x2 >= self.nx as i64 || z2 >= self.nz as i64 {
                    continue;
                }
                let n = (x2 + z2 * self.nx as i64) as usize;
                if dist[n] < dist[next] {
                    next = n;
                }
            }
            if next == cur {
                break;
            }
            cur = next;
            descent[len] = cur;
            len += 1;
        }
        let mut chosen = self.center(descent[(len - 1).min(3)]);
        let mut probe = 6;
        while probe < len + 3 {
            let k = probe.min(len - 1);
            let c = self.center(descent[k]);
            if !self.clear_line(pos, c, need, step, &fits) {
                break;
            }
            chosen = c;
            if k == len - 1 {
                break;
            }
            probe *= 2;
        }
        Some((chosen, false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crowd::scenario::Scenario;
    use crate::crowd::{Crowd, CrowdError};

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
            step(&mut capped, 1);
            let p = capped.planner();
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
        // Thrashing: the capped cache recomputes fields the uncapped one keeps.
        assert!(
            capped.planner().fields_computed() > p.fields_computed(),
            "{} vs {}",
            capped.planner().fields_computed(),
            p.fields_computed()
        );
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
}
