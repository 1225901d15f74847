//! An agent's next route point: along its goal's distance field, string pulled.

use super::Planner;
use super::CLEARANCE_CAP;
use super::NEIGHBOURS;
use glam::Vec2;

/// Cells of descent looked along for the farthest visible one.
pub(super) const LOOK_ALONG: usize = 96;

/// An agent whose cell lies within this many columns and rows of its goal's block and does
/// not see its target takes the last stretch by [`Planner::approach`].
pub(super) const APPROACH_CELLS: usize = 3;

/// Cells beyond [`APPROACH_CELLS`] within which an agent that took its last stretch by
/// [`Planner::approach`] at its last route keeps to it. (Starting and leaving at the same
/// distance, an agent whose way from there went out round a box, the field's way back in
/// going round another, paced between the two for good: one of 800 planned agents of the
/// speed benchmark's scene.)
pub(super) const APPROACH_HOLD: usize = 6;

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
/// whether it is wedged (touching two obstacles or more), how it took its last stretch by
/// [`Planner::approach`] at its last route, and the goal naming its field.
#[derive(Clone, Copy, Debug)]
pub(super) struct Leg {
    /// Where the agent stands.
    pub(super) pos: Vec2,
    /// Its target.
    pub(super) target: Vec2,
    /// Its radius.
    pub(super) radius: f32,
    /// The centre clearance its lines of sight ask.
    pub(super) need: f32,
    /// The clearance of the field's cells and moves.
    pub(super) pass: f32,
    /// The spacing of its exact disc tests.
    pub(super) step: f32,
    /// Whether it touches two obstacles or more.
    pub(super) wedged: bool,
    /// How it took its last stretch at its last route.
    pub(super) approaching: Approach,
    /// The goal naming its field for `pass` ([`Planner::goal_cell`]).
    pub(super) goal: usize,
}

impl Planner {
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
        // The grid is being built: straight at the target meanwhile, asking again next
        // sub-step (as when waiting for a field).
        if self.building() {
            return (target, false);
        }
        let need = self.need(radius);
        let step = (0.25 * radius).max(0.125 * self.cell);
        if pos.distance(target) <= 2.0 * radius + self.cell
            && self.reaches(pos, target, radius, step, &fits)
        {
            return (target, true);
        }
        // The goal naming its field (and whether it fits at its target), asked once.
        let pass = Self::pass(radius);
        let at_target = fits(target);
        let goal = self.goal_cell(target, pass, at_target);
        // Waiting for a field this sub-step cannot give (none cached, the budget spent): a
        // search of its own, in its turn, while the search budget lasts; else walk straight and
        // ask again next sub-step. Decided before the line of sight, which costs most on the
        // long lines of goals far away (a crowd with thousands of goals of its own waits here).
        if let Some(avoid) = avoid {
            let searched = self.search_route(pos, target, radius, ticket, goal, Some(avoid), &fits);
            if let Some(route) = searched {
                return route;
            }
        }
        let leg = Leg {
            pos,
            target,
            radius,
            need,
            pass,
            step,
            wedged,
            approaching: was_approaching,
            goal,
        };
        // Along the way it keeps (see `ways`), when it has one; else, its goal its own (no
        // other agent asked for it, no field cached), a search of its own first.
        if avoid.is_none() {
            if let Some(route) = self.follow_way(leg, goal, ticket, &fits) {
                return route;
            }
        }
        // (A search tried here is not tried again below.)
        let mut tried = None;
        if avoid.is_none() && self.own_way_first(pos, target, goal, pass, ticket) {
            let searched = self.search_route(pos, target, radius, ticket, goal, None, &fits);
            // Found a way (now kept), or the target in sight; else (none found, or not its
            // turn) as any agent: a field when one is ready, which tries the agent's bare
            // radius and no radius too.
            match searched {
                Some(route) if route.1 || self.ways.holds(ticket) => return route,
                _ => tried = Some(searched),
            }
        }
        if !self.field_ready(goal, pass) {
            let searched = match tried {
                Some(searched) => searched,
                None => self.search_route(pos, target, radius, ticket, goal, None, &fits),
            };
            return searched.unwrap_or((target, false));
        }
        if self.clear_line(pos, target, need, step, &fits) {
            return (target, true);
        }
        // The agent's own field; when no cell near the agent is reachable in it, the field for
        // its bare radius (the skin is a margin, not a need: a way with nothing to spare is
        // still a way, where the agent's own field, finding none, left it to the field of no
        // radius, which led it into a gap narrower than itself, for good); when none in that
        // either (it stands in a pocket that the grid counts as closed, though it walked in),
        // the field of an agent of no radius.
        let own = (need, Self::pass(radius));
        let bare = (need, radius.clamp(0.0, CLEARANCE_CAP));
        for (need, pass) in [own, bare, (self.need(0.0), Self::pass(0.0))] {
            let goal = if pass == leg.pass {
                leg.goal
            } else {
                self.goal_cell(target, pass, at_target)
            };
            let leg = Leg {
                need,
                pass,
                goal,
                ..leg
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
    pub(super) fn descend(
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
        let Some(f) = self.field(leg.goal, class, pass) else {
            // Over this sub-step's budget: walk straight for now, ask again next sub-step.
            return Some(((target, false), Approach::Off));
        };
        let start = self.clamped_cell(pos);
        // The field as far as the agent's cell (to the end where it does not reach the cell,
        // so that the cells round it are final too).
        self.settle(f, Some(start));
        let dist = &self.fields[f].dist;
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
        // Descend the field, as far as the aim looks along it; aim along the descent.
        let mut descent = Descent::new(self, f, cur, pass);
        // At (or next to) the side of the obstacle round a goal whose block has no open cell
        // (the field's seeds there lie outside the block): the rest is the steer's, straight at
        // the target, to arrive as near it as it gets. (Aiming at the seed's point, an agent
        // that stood a fifth of a metre from it, held off by an arrived one, walked on the
        // spot for good: it could not settle against agents that were no nearer that point.)
        let short = descent.reach(2);
        let end = descent.cell(short - 1) as usize;
        if short <= 2 && descent.dist[end] == 0.0 && !self.near_block(end, block, 0) {
            return Some(((target, true), Approach::Off));
        }
        // Wedged between obstacles, off the graph (its cell's point and moves are clear, but
        // not the line from where it stands to the next cells): back onto the graph at the
        // best cell nearby it can slide to. (Aiming at the next cell, through the obstacles,
        // six agents of the 10 k benchmark pressed into cracks between a disc and a box for
        // good.)
        let first = descent.reach(3);
        let stuck = wedged && first > 1 && {
            let rep = |k: usize| self.rep[descent.cell(k) as usize];
            !(1..=(first - 1).min(3)).any(|k| self.slides(pos, rep(k), step, fits))
        };
        let mut descent = if stuck {
            // (The cells round the agent, final: the whole field. The descent is the same:
            // it only steps down to cells below the agent's, final already.)
            self.settle(f, None);
            let dist = &self.fields[f].dist;
            if let Some((_, Some(c))) = self.best_near(dist, start, pos, step, fits) {
                return Some(((self.rep[c], false), Approach::Off));
            }
            Descent::new(self, f, cur, pass)
        } else {
            descent
        };
        let route = self.aim_or_target(pos, target, &mut descent, need, step, fits);
        let route = if route.1 {
            route
        } else {
            let dist = &self.fields[f].dist;
            (self.keep_right(pos, route.0, dist, need, step, fits), false)
        };
        Some((route, Approach::Off))
    }

    /// The cells within three of `start` reachable in the field `dist`, ranked by their value
    /// plus their distance from `start` (in cells; ties by index): the best, and the best the
    /// disc at `pos` slides to in a straight line (`None`: none of them). `None` when no cell
    /// within three is reachable.
    pub(super) fn best_near(
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
    pub(super) fn around(&self, c: usize) -> impl Iterator<Item = (usize, i64, i64)> + '_ {
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
    pub(super) fn aim_or_target(
        &self,
        pos: Vec2,
        target: Vec2,
        mut way: impl Way,
        need: f32,
        step: f32,
        fits: &impl Fn(Vec2) -> bool,
    ) -> (Vec2, bool) {
        if way.reach(1) == 1 {
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
    pub(super) fn aim(
        &self,
        pos: Vec2,
        mut way: impl Way,
        need: f32,
        step: f32,
        fits: &impl Fn(Vec2) -> bool,
    ) -> Vec2 {
        let third = way.reach(3) - 1;
        let mut first = third;
        while first > 1 && !self.slides(pos, self.rep[way.cell(first) as usize], step, fits) {
            first -= 1;
        }
        let mut chosen = self.rep[way.cell(first) as usize];
        let mut probe = if first == third { 6 } else { usize::MAX };
        // The probes past the way's end stop at its last cell (while the probe is within three
        // cells past it).
        while probe != usize::MAX {
            let n = way.reach(probe);
            if n <= probe && probe >= n + 3 {
                break;
            }
            let k = probe.min(n - 1);
            let c = self.rep[way.cell(k) as usize];
            if !self.clear_line(pos, c, need, step, fits) {
                break;
            }
            chosen = c;
            if way.reach(k + 1) == k + 1 {
                break;
            }
            probe *= 2;
        }
        chosen
    }
}

/// The cells of a way an agent aims along ([`Planner::aim`]), read as far as the aim looks:
/// a path's cells, or a field's descent, stepped down only as far as asked.
pub(super) trait Way {
    /// How many cells the way has, counted no farther than `k + 1`: `k + 1`, or fewer when
    /// the way ends sooner (at least one).
    fn reach(&mut self, k: usize) -> usize;
    /// The way's `k`-th cell, `k` below what [`Self::reach`] returned.
    fn cell(&self, k: usize) -> u32;
}

impl Way for &[u32] {
    fn reach(&mut self, k: usize) -> usize {
        self.len().min(k + 1)
    }

    fn cell(&self, k: usize) -> u32 {
        self[k]
    }
}

impl<W: Way> Way for &mut W {
    fn reach(&mut self, k: usize) -> usize {
        (**self).reach(k)
    }

    fn cell(&self, k: usize) -> u32 {
        (**self).cell(k)
    }
}

/// A field's descent from a cell: each step to the lowest neighbour below, over the field's
/// own moves, for at most [`LOOK_ALONG`] steps; the steps taken only as [`Way::reach`] asks
/// (where obstacles hide the way, the aim looks no farther than its first probes).
pub(super) struct Descent<'a> {
    planner: &'a Planner,
    /// The field's values.
    dist: &'a [f32],
    /// The field's clearance.
    pass: f32,
    cells: [u32; LOOK_ALONG + 1],
    len: usize,
    /// Whether the descent ended (at a seed, or with no neighbour below).
    ended: bool,
}

impl<'a> Descent<'a> {
    /// The descent of field `f` (settled as far as `from`) from cell `from`.
    fn new(planner: &'a Planner, f: usize, from: usize, pass: f32) -> Self {
        Self {
            planner,
            dist: &planner.fields[f].dist,
            pass,
            cells: [from as u32; LOOK_ALONG + 1],
            len: 1,
            ended: false,
        }
    }
}

impl Way for Descent<'_> {
    fn reach(&mut self, k: usize) -> usize {
        let (p, dist) = (self.planner, self.dist);
        while self.len <= k && !self.ended {
            let cur = self.cells[self.len - 1] as usize;
            // (At a seed, or a value that is not above 0: NaN too.)
            let above = dist[cur] > 0.0;
            if self.len > LOOK_ALONG || !above {
                self.ended = true;
                break;
            }
            let mut next = cur;
            for (dx, dz, _) in NEIGHBOURS {
                let Some(n) = p.neighbour(cur, dx, dz) else {
                    continue;
                };
                // Only along the field's own moves (the search went from `n` to `cur`): a
                // lower neighbour across a corner the search could not cut is not a way.
                if dist[n] < dist[next] && p.can_move(n, cur, -dx, -dz, self.pass) {
                    next = n;
                }
            }
            if next == cur {
                self.ended = true;
                break;
            }
            self.cells[self.len] = next as u32;
            self.len += 1;
        }
        self.len.min(k + 1)
    }

    fn cell(&self, k: usize) -> u32 {
        self.cells[k]
    }
}
