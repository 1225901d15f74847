//! Detours of agents held near obstacles (see *Detours* in
//! [`RouteMode::Direct`](crate::crowd::RouteMode::Direct)): an agent
//! walking straight that stays held near obstacles for [`DETOUR_TIME`] searches a way out of
//! the pocket it stands in (`Escape`) and follows it until straight on at its target is the
//! way again; a planned agent takes one only when wedged between obstacles.

use glam::Vec2;

use crate::crowd::agent::{Agent, AgentState};
use crate::crowd::escape::{Escape, WayOut};
use crate::crowd::grid::ObstacleGrid;
use crate::crowd::obstacle::Shape;
use crate::crowd::planner::REPLAN_STEPS;
use crate::crowd::projection::obstacles_within;
use crate::crowd::steering::TURN_NEAR;

/// Seconds an agent walking straight at its target stays held near obstacles, sub-step after
/// sub-step, before it searches for a way out (see *Detours* in [`RouteMode::Direct`](crate::crowd::RouteMode::Direct)).
pub const DETOUR_TIME: f32 = 2.0;
/// Agents walking straight that stall with the steer's bound on the nearest obstacle within
/// this many radii of their centres (or touching one), or that hit one, count as held near
/// obstacles (see *Detours* in [`RouteMode::Direct`](crate::crowd::RouteMode::Direct)).
pub(super) const PINNED_GAP: f32 = 3.0;
/// The rate at which an agent held near obstacles counts its time while what holds it is
/// another agent (its most urgent hit), not an obstacle: it searches after
/// [`DETOUR_TIME`] ÷ this (4 s), so that agents pressed to a wall beside a door by the queue,
/// which moves on within that, walk with it instead of making for the door on their own.
pub(super) const HELD_BY_AGENT_RATE: f32 = 0.5;

/// Counts agent `a` (walking straight, at `p`, of `radius`) held near obstacles in sub-step
/// `now`, by `held` seconds (see *Detours* in [`RouteMode::Direct`](crate::crowd::RouteMode::Direct)): on from the sub-step
/// before while it stays within a radius of where it was first held (else, if blocked, counted
/// from now); held for [`DETOUR_TIME`], it searches for a way out at its next route
/// (`Crowd::route`), and is counted afresh (if walking straight is the way, as in a queue, it
/// asks again `DETOUR_TIME` later). Out of line: it runs for few agents, and reads and writes
/// the record's last line.
#[cold]
#[inline(never)]
pub(super) fn pin(a: &mut Agent, p: Vec2, radius: f32, now: u64, held: f32) {
    let on = a.pinned_step + 1 == now && p.distance_squared(a.pinned_at) <= radius * radius;
    if !on && a.state != AgentState::Blocked {
        return;
    }
    if !on {
        a.pinned_at = p;
        a.pinned = 0.0;
    }
    a.pinned += held;
    a.pinned_step = now;
    if a.pinned >= DETOUR_TIME {
        a.pinned_step = 0;
        a.detour = true;
        a.plan.2 = 0;
    }
}

/// The point agent `a`, at `pos` on a detour, makes for: out of the pocket by a search round it
/// (see *Detours* in [`RouteMode::Direct`](crate::crowd::RouteMode::Direct)), again every [`REPLAN_STEPS`] sub-steps or on
/// reaching the point it made for. `None` once straight on at its target is the way: the
/// detour ends.
pub(super) fn detour_point(
    a: &mut Agent,
    pos: Vec2,
    escape: &mut Escape,
    shapes: &[Option<Shape>],
    og: &ObstacleGrid,
) -> Option<Vec2> {
    let (point, _, age) = a.plan;
    if age > 0 && point.distance(pos) > TURN_NEAR * a.radius {
        a.plan.2 -= 1;
        return Some(point);
    }
    let target = Vec2::new(a.target.x, a.target.z);
    match escape.way_out(pos, target, a.radius, shapes, og) {
        WayOut::Via(point) => {
            a.plan = (point, false, REPLAN_STEPS);
            Some(point)
        }
        WayOut::Straight => {
            a.detour = false;
            None
        }
    }
}

/// Counts agent `a` (planning its route, blocked hitting an obstacle, at `p`, of `radius`) held
/// as [`pin`] does, but takes the detour only when, held for [`DETOUR_TIME`], it is wedged
/// (touching two obstacles or more, to within a hundredth of its radius): in a crack between
/// two boxes barely wider than itself, where the planning grid has no open cell, the planner
/// sent it on into the crack for good (one agent of the planned benchmark with 2 800). Held
/// otherwise (pressing on an obstacle in a crowd), nothing changes: the count starts again.
#[cold]
#[inline(never)]
pub(super) fn pin_wedged(
    a: &mut Agent,
    p: Vec2,
    radius: f32,
    now: u64,
    held: f32,
    shapes: &[Option<Shape>],
    og: &ObstacleGrid,
) {
    let age = a.plan.2;
    pin(a, p, radius, now, held);
    if a.detour && obstacles_within(p, 1.01 * radius, shapes, og) < 2 {
        a.detour = false;
        a.plan.2 = age;
    }
}
