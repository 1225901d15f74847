//! Routes: the point each agent steers to this sub-step, by its [`RouteMode`]: its target
//! walking straight, the next waypoint, or the planner's next point (with a give-way in a
//! head-on block: see `Crowd::yield_to`); on a detour, the way out of its pocket.

use glam::Vec2;

use crate::crowd::agent::{AgentState, RouteMode};
use crate::crowd::planner::REPLAN_STEPS;
use crate::crowd::projection::{obstacle_distance, obstacles_within};
use crate::crowd::steering::TURN_NEAR;
use crate::crowd::Crowd;

use super::detour::detour_point;
use super::standoffs::YIELD_STEPS;

impl Crowd {
    pub(super) fn route(&mut self, slot: usize) -> (Vec2, bool) {
        // A new head-on block: give way for YIELD_STEPS sub-steps, routed round where the
        // other agent stood (or backing off when there is no way round), starting now.
        let me = self.agents.id_of(slot);
        let mut avoid = self.standoffs.yields.get(slot, me, self.sub_steps);
        let mut fresh = false;
        if avoid.is_none() {
            if let Some((at, r)) = self.yield_to(slot) {
                let until = self.sub_steps + YIELD_STEPS;
                self.standoffs.yields.start(slot, me, at, r, until);
                avoid = Some((at, r));
                fresh = true;
            }
        }
        let Some(a) = self.agents.items[slot].as_mut() else {
            return (Vec2::ZERO, true);
        };
        let pos = Vec2::new(a.position.x, a.position.z);
        let target = Vec2::new(a.target.x, a.target.z);
        match a.route_mode {
            RouteMode::Direct if !a.detour || a.state == AgentState::Arrived => {
                a.detour = false;
                (target, true)
            }
            RouteMode::Direct => {
                let (shapes, og) = (&self.shapes, &self.obstacle_grid);
                match detour_point(a, pos, &mut self.escape, shapes, og) {
                    Some(point) => (point, false),
                    None => (target, true),
                }
            }
            RouteMode::Waypoints => {
                let reach = (TURN_NEAR * a.radius).max(a.arrival_radius);
                while let Some(w) = a.waypoints.get(a.next_waypoint) {
                    let w = Vec2::new(w.x, w.z);
                    if w.distance(pos) > reach {
                        return (w, false);
                    }
                    a.next_waypoint += 1;
                }
                (target, true)
            }
            RouteMode::Planned => {
                if a.state == AgentState::Arrived {
                    return (target, true);
                }
                if a.detour {
                    // Wedged in a crack the planning grid has no open cell in, and held there
                    // (see `pin_wedged`): out as an agent walking straight gets out of a pocket;
                    // the planner again once straight on is the way.
                    let (shapes, og) = (&self.shapes, &self.obstacle_grid);
                    if let Some(point) = detour_point(a, pos, &mut self.escape, shapes, og) {
                        return (point, false);
                    }
                    a.plan.2 = 0;
                }
                let (point, last, age) = a.plan;
                if !fresh && age > 0 && !last && point.distance(pos) > TURN_NEAR * a.radius {
                    a.plan.2 -= 1;
                    return (point, last);
                }
                // A disc on a line of sight may not go deeper into an obstacle than the agent
                // already is (to within a thousandth of its radius).
                let (shapes, og) = (&self.shapes, &self.obstacle_grid);
                let r = a.radius;
                // (Measured on first use: an agent waiting for a field tests no line.)
                let depth = std::cell::OnceCell::new();
                let fits = |p: Vec2| {
                    let depth = *depth
                        .get_or_init(|| obstacle_distance(pos, r, shapes, og).min(r) - 1e-3 * r);
                    obstacle_distance(p, r, shapes, og) >= depth
                };
                // Touching two obstacles or more (to within a hundredth of its radius).
                let wedged = obstacles_within(pos, 1.01 * r, shapes, og) >= 2;
                let mut approaching = a.approaching;
                let (point, last) = self.planner.next_point(
                    pos,
                    target,
                    r,
                    slot as u32,
                    avoid,
                    wedged,
                    &mut approaching,
                    fits,
                );
                a.approaching = approaching;
                // A straight fallback (no field yet) is retried next sub-step.
                let age = if last || point != target {
                    REPLAN_STEPS
                } else {
                    0
                };
                a.plan = (point, last, age);
                (point, last)
            }
        }
    }
}
