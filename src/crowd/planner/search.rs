//! Searches of an agent's own (A* over the grid): while it waits for a field, when it gives
//! way, and for the last stretch to its target.

use super::super::paths::Found;
use super::super::paths::Graph;
use super::route::Approach;
use super::route::Leg;
use super::route::LOOK_ALONG;
use super::spread::OpenMoves;
use super::Planner;
use super::NEIGHBOURS;
use glam::Vec2;

/// How far [`Planner::approach`] widens, in half cells, the distance from the target its
/// seeds' points must slide to.
pub(super) const APPROACH_RINGS: usize = 4;

/// The most cells the search of [`Planner::approach`] takes.
pub(super) const APPROACH_SEARCH: u64 = 1024;

/// Cells the A* searches of agents waiting for a field may take per sub-step, per field of
/// the route budget, as a fraction of the grid's cells (1/16 of a field's cells; a search
/// takes a cell at several times a field's cost, a heap against buckets, so on the 10 k
/// benchmark the searches of a sub-step cost about a quarter of its four fields' time).
pub(super) const SEARCH_SHARE: u64 = 16;

/// The most sub-steps between two turns of an agent to search (see [`Planner::begin_step`]).
pub(super) const MAX_STRIDE: u64 = 64;

impl Planner {
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

    /// [`Self::next_point`] by a search of its own, for an agent waiting for a field or giving
    /// way to the agent `avoid`: an A* search from the cells of its goal (`goal`, the goal cell
    /// for its clearance `Self::pass(radius)`, see [`Self::goal_cell`]) to its own
    /// ([`crate::crowd::paths`]) and its aim along the way found, in its turn (giving way, out
    /// of turn) while the sub-step's search budget lasts; `None` when it may not search now. An
    /// agent standing in a cell too tight for it searches to the nearest open cell it can slide
    /// to within three. Giving way, the search never enters a cell where the agent's disc would
    /// overlap the other's (but the one it ends at); when no way round is found, the agent backs
    /// off where there is room ([`Self::retreat`]; with none, straight away from the other).
    /// Waiting, a goal it cannot reach, or a search over the budget,
    /// leaves it walking straight.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_route(
        &mut self,
        pos: Vec2,
        target: Vec2,
        radius: f32,
        ticket: u32,
        goal: usize,
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
        let pass = Self::pass(radius);
        let Some(to) = self.entry_cell(pos, pass, step, fits) else {
            return Some((target, false));
        };
        // The cells where its disc would overlap the other's, but the one the search ends at.
        let mut closed = [0u32; 49];
        let mut n_closed = 0;
        if let Some((at, r)) = avoid {
            for (n, _, _) in self.around(self.clamped_cell(at)) {
                if n != to && self.center(n).distance(at) < r + radius {
                    closed[n_closed] = n as u32;
                    n_closed += 1;
                }
            }
        }
        let mut seeds = std::mem::take(&mut self.search_seeds);
        let mut path = std::mem::take(&mut self.path);
        self.seeds_into(goal, pass, &mut seeds);
        let mut search = std::mem::take(&mut self.search);
        let open = OpenMoves::new(self, pass);
        let graph = Graph {
            open: &|c| open.at(c),
            nx: self.nx,
            nz: self.nz,
            neighbours: &NEIGHBOURS,
        };
        let (found, taken) = search.run(
            &graph,
            &seeds,
            to,
            &closed[..n_closed],
            self.search_cells,
            &mut path,
        );
        self.search = search;
        self.search_cells -= taken;
        self.searched += 1;
        let route = match found {
            Found::Path => {
                // Kept, and followed at the agent's next route updates (see `ways`); a way
                // round another agent is not.
                if avoid.is_none() {
                    self.ways.keep(ticket, target, radius, &path);
                }
                let len = path.len().min(LOOK_ALONG + 1);
                Some(self.aim_or_target(pos, target, &path[..len], need, step, fits))
            }
            // No way round the other agent (or none found within the searches left): back off
            // for it to pass, where there is room.
            Found::Unreachable | Found::GaveUp if avoid.is_some() => avoid.map(|(at, _)| {
                let retreat = self.retreat(to, at, pass);
                let away = (pos - at).try_normalize().unwrap_or(Vec2::X);
                (retreat.unwrap_or(pos + away * (4.0 * radius)), false)
            }),
            Found::Unreachable | Found::GaveUp => Some((target, false)),
        };
        self.search_seeds = seeds;
        self.path = path;
        route
    }

    /// Where an agent in cell `from` giving way to another agent at `at` backs off to when no
    /// way round that agent is found: of the cells within three of `from` that it walks to
    /// over moves open to `pass`, each move ending no nearer `at` than it starts, the point of
    /// the one farthest from `at`; `None` when none is farther than `from`. (Backing off
    /// straight away from the other, an agent pressed between it and a wall pushed into the
    /// wall for good, where the way it came by was open beside it.) Asked again at each route
    /// update, the agent walks up the distance from the other, round what stands in the way.
    pub(super) fn retreat(&self, from: usize, at: Vec2, pass: f32) -> Option<Vec2> {
        let nx = self.nx as i64;
        let (fx, fz) = (from as i64 % nx, from as i64 / nx);
        // Bit of cell c in the 7 × 7 window round `from` (None outside it).
        let bit = |c: usize| {
            let (x, z) = (c as i64 % nx - fx + 3, c as i64 / nx - fz + 3);
            ((0..7).contains(&x) && (0..7).contains(&z)).then(|| 1u64 << (x + 7 * z))
        };
        let open = OpenMoves::new(self, pass);
        // Breadth first: the cells reached, in the order reached, and their bits.
        let mut reached = [0u32; 49];
        reached[0] = from as u32;
        let (mut count, mut next, mut seen) = (1, 0, bit(from).unwrap_or(0));
        let mut best = (self.center(from).distance(at), from);
        while next < count {
            let c = reached[next] as usize;
            next += 1;
            let moves = open.at(c);
            let here = self.center(c).distance(at);
            for (k, &(dx, dz, _)) in NEIGHBOURS.iter().enumerate() {
                if moves >> k & 1 == 0 {
                    continue;
                }
                let Some(n) = self.neighbour(c, dx, dz) else {
                    continue;
                };
                let Some(b) = bit(n).filter(|b| seen & b == 0) else {
                    continue;
                };
                let d = self.center(n).distance(at);
                if d < here {
                    continue;
                }
                seen |= b;
                reached[count] = n as u32;
                count += 1;
                if d > best.0 {
                    best = (d, n);
                }
            }
        }
        (best.1 != from).then(|| self.center(best.1))
    }

    /// The cell a search for an agent at `pos` ends at: its own when open to `pass`, else the
    /// nearest open cell within three that its disc slides to (`None`: there is none).
    pub(super) fn entry_cell(
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
    pub(super) fn reaches(
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
    pub(super) fn near_block(&self, c: usize, block: usize, reach: usize) -> bool {
        let bc = self.block_cells() as i64;
        let (nx, reach) = (self.nx as i64, reach as i64);
        let (x, z) = (c as i64 % nx, c as i64 / nx);
        let (bx, bz) = (block as i64 % nx, block as i64 / nx);
        x >= bx - reach && x < bx + bc + reach && z >= bz - reach && z < bz + bc + reach
    }

    /// The last stretch to `target` of an agent near its goal's block (within [`APPROACH_CELLS`] of
    /// it) that does not see the target: the field's seeds are the open cells of the target's part
    /// of the block (or of the whole block), all at 0, so there it cannot tell the way to the
    /// target itself (a part may wrap round a box). The way comes from a small A* search of its own
    /// instead, from the open cells round the target (within three of its cell) whose points the
    /// disc slides from to within its radius of the target (or, when none does, as little farther
    /// as some do, by half cells up to [`APPROACH_RINGS`]), each at its distance from the target,
    /// to the agent's cell. The agent aims along the way found. It walks straight at the target
    /// (`true`) once its own disc slides to within that distance of the target, standing on one of
    /// those cells, or when there are none: the steer takes it the rest of the way, and an agent
    /// that cannot get nearer for an obstacle arrives there (see [`crate::crowd::steering`]).
    /// `None` when the search finds no way to the agent, or takes its most cells without reaching
    /// it: the field's way is taken then. (With the field alone, an agent whose target lay beside a
    /// box, on the side away from the block's cells it reached first, went to and fro between those
    /// cells and the box for good. Walking straight at the target when no way was found, an agent
    /// pushed to a wall's end, whose nearest open cell lay on the wall's far side from its target,
    /// 3 m off, circled at the end for good.)
    pub(super) fn approach(
        &mut self,
        leg: Leg,
        fits: &impl Fn(Vec2) -> bool,
    ) -> Option<(Vec2, bool)> {
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
            let mut path = std::mem::take(&mut self.path);
            let mut search = std::mem::take(&mut self.search);
            let open = OpenMoves::new(self, pass);
            let graph = Graph {
                open: &|c| open.at(c),
                nx: self.nx,
                nz: self.nz,
                neighbours: &NEIGHBOURS,
            };
            let (found, _) = search.run(&graph, &seeds, to, &[], APPROACH_SEARCH, &mut path);
            self.search = search;
            if found != Found::Path {
                route = None;
            } else if path.len() > 1 {
                let len = path.len().min(LOOK_ALONG + 1);
                route = Some((self.aim(pos, &path[..len], need, step, fits), false));
            }
            self.path = path;
        }
        self.search_seeds = seeds;
        route
    }
}
