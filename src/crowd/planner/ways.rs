//! Ways of an agent's own: an agent whose goal no other agent asks for follows the way its
//! own A* search found (see `Planner::search_route`), kept from one route update to the next,
//! rather than a distance field. A field is a Dijkstra search over the grid as far as the
//! agent, about a millisecond for a far goal, worth it when many agents share the goal; for a
//! goal of one agent's own, an A* search takes the cells along its way only. (700 planned
//! agents with goals of their own among 200 circles stepped in 4.8 ms, most of it fields that
//! served one agent each; with kept ways, 2.5 ms.)
//!
//! Which goals are shared: the first agent to ask for a goal (its block part and radius
//! class, the key of its field) searches a way of its own; any other agent that asks for the
//! same goal asks for its field, and once that field is cached every agent of the goal follows
//! it (a field leads from wherever an agent is pushed).
//!
//! A kept way is followed from the farthest of its next [`FOLLOW_CELLS`] cells within
//! [`STRAY_CELLS`] of the agent's cell that its disc slides to, aiming along it as along a
//! field's descent. It is dropped, and the agent routes afresh, when there is no such cell
//! (the agent strayed, pushed off by others), when the target or radius changed, when any
//! obstacle changed, when the agent is wedged and none of the next cells slides, or near the
//! goal: within [`APPROACH_CELLS`] + [`APPROACH_HOLD`] cells of the goal's block the agent
//! takes the field's way and its last stretch (see `Planner::approach`), a field that runs
//! only as far as the agent, a few cells.

use glam::Vec2;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::fields::{field_key, KeyHash};
use super::route::{Leg, APPROACH_CELLS, APPROACH_HOLD, LOOK_ALONG};
use super::Planner;

/// Cells of a kept way ahead of the last cell followed that the agent may be found at.
pub(super) const FOLLOW_CELLS: usize = 24;

/// How far (in cells, along either axis) an agent may stand from a cell of its kept way and
/// still follow it: one, so that an agent pushed aside routes afresh from where it stands, as
/// a field would lead it. (With two, four agents crossing in a gap between two boxes of
/// SteerSuite `forest` stood in a knot for good.)
pub(super) const STRAY_CELLS: usize = 1;

/// Distinct goals whose first asker is remembered (see [`Ways::alone`]); past this, the
/// memory starts afresh (a crowd sending agents to ever new goals does not grow it for good).
const MAX_ASKED: usize = 8192;

/// One agent's kept way.
#[derive(Clone, Debug, Default)]
struct Kept {
    /// Whether the way is in use.
    live: bool,
    /// The target and radius it was searched for.
    target: Vec2,
    radius: f32,
    /// Its cells, from the agent's cell at the search to the goal.
    cells: Vec<u32>,
    /// The cell the agent last followed it from.
    at: usize,
}

/// The kept ways, by ticket (the agent's slot), and the first agent that asked for each goal.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ways {
    kept: Vec<Kept>,
    asked: HashMap<u64, u32, BuildHasherDefault<KeyHash>>,
}

impl Ways {
    /// Drops every kept way (the obstacles changed) and the memory of who asked for what.
    pub(super) fn clear(&mut self) {
        for k in &mut self.kept {
            k.live = false;
        }
        self.asked.clear();
    }

    /// Whether the agent `ticket` is the only one that asked for the goal `key` so far (the
    /// first to ask; any later asker shares it).
    pub(super) fn alone(&mut self, key: u64, ticket: u32) -> bool {
        if self.asked.len() >= MAX_ASKED && !self.asked.contains_key(&key) {
            self.asked.clear();
        }
        *self.asked.entry(key).or_insert(ticket) == ticket
    }

    /// Keeps `cells` as the way of agent `ticket` to `target`.
    pub(super) fn keep(&mut self, ticket: u32, target: Vec2, radius: f32, cells: &[u32]) {
        let t = ticket as usize;
        if self.kept.len() <= t {
            self.kept.resize(t + 1, Kept::default());
        }
        let k = &mut self.kept[t];
        k.live = true;
        k.target = target;
        k.radius = radius;
        k.cells.clear();
        k.cells.extend_from_slice(cells);
        k.at = 0;
    }

    /// Whether agent `ticket` has a kept way.
    pub(super) fn holds(&self, ticket: u32) -> bool {
        self.kept.get(ticket as usize).is_some_and(|k| k.live)
    }

    /// Drops agent `ticket`'s kept way.
    fn drop_way(&mut self, ticket: u32) {
        if let Some(k) = self.kept.get_mut(ticket as usize) {
            k.live = false;
        }
    }
}

impl Planner {
    /// Whether the agent `ticket` going to goal cell `goal` with clearance `pass` should search
    /// a way of its own before asking for a field: no other agent asked for that goal, and no
    /// field for it is cached.
    pub(super) fn own_way_first(
        &mut self,
        pos: Vec2,
        target: Vec2,
        goal: usize,
        pass: f32,
        ticket: u32,
    ) -> bool {
        let key = field_key(goal, Self::class(pass));
        self.ways.alone(key, ticket)
            && !self.field_cached(goal, pass)
            && !self.near_goal(self.clamped_cell(pos), target)
    }

    /// Whether cell `c` lies within [`APPROACH_CELLS`] + [`APPROACH_HOLD`] of the block of
    /// `target`: there an agent takes the field's way, its last stretch by
    /// `Planner::approach` (a field run only as far as the agent's cell: a few cells).
    fn near_goal(&self, c: usize, target: Vec2) -> bool {
        self.near_block(c, self.goal_block(target), APPROACH_CELLS + APPROACH_HOLD)
    }

    /// The route point along agent `ticket`'s kept way to goal cell `goal`, and whether it is
    /// the target (see the module docs); `None` (the way dropped) when it has none to follow.
    pub(super) fn follow_way(
        &mut self,
        leg: Leg,
        goal: usize,
        ticket: u32,
        fits: &impl Fn(Vec2) -> bool,
    ) -> Option<(Vec2, bool)> {
        let route = self.along_way(leg, goal, ticket, fits);
        if route.is_none() {
            self.ways.drop_way(ticket);
        }
        route
    }

    fn along_way(
        &mut self,
        leg: Leg,
        goal: usize,
        ticket: u32,
        fits: &impl Fn(Vec2) -> bool,
    ) -> Option<(Vec2, bool)> {
        let (pos, target, need, step) = (leg.pos, leg.target, leg.need, leg.step);
        let k = self.ways.kept.get(ticket as usize)?;
        if !k.live || k.target != target || k.radius != leg.radius {
            return None;
        }
        // A field for the goal came (another agent asked for it): along the field now, which
        // leads from wherever the agent is pushed.
        let key = field_key(goal, Self::class(leg.pass));
        let shared = self.ways.asked.get(&key).is_some_and(|&t| t != ticket);
        if self.field_cached(goal, leg.pass) || (shared && self.field_ready(goal, leg.pass)) {
            return None;
        }
        let here = self.clamped_cell(pos);
        if self.near_goal(here, target) {
            return None;
        }
        let (x, z) = (here % self.nx, here / self.nx);
        let k = &self.ways.kept[ticket as usize];
        let end = (k.at + FOLLOW_CELLS).min(k.cells.len());
        let at = (k.at..end).rev().find(|&i| {
            let c = k.cells[i] as usize;
            x.abs_diff(c % self.nx) <= STRAY_CELLS
                && z.abs_diff(c / self.nx) <= STRAY_CELLS
                && self.slides(pos, self.rep[c], step, fits)
        })?;
        self.ways.kept[ticket as usize].at = at;
        if self.clear_line(pos, target, need, step, fits) {
            return Some((target, true));
        }
        let k = &self.ways.kept[ticket as usize];
        let len = (k.cells.len() - at).min(LOOK_ALONG + 1);
        let cells = &k.cells[at..at + len];
        // Wedged between obstacles where none of the next cells slides: routed afresh.
        if leg.wedged && len > 1 {
            let ahead = (len - 1).min(3);
            let rep = |i: usize| self.rep[cells[i] as usize];
            if !(1..=ahead).any(|i| self.slides(pos, rep(i), step, fits)) {
                return None;
            }
        }
        Some(self.aim_or_target(pos, target, cells, need, step, fits))
    }
}
