//! Gather: the first phase of a sub-step. Each live agent, in slot order (the planner's caches
//! make the order matter), gets its route point (see `Crowd::route`), whether it is steered
//! afresh (an agent arrived short of its target within two radii of a change), and the goal it
//! last left; the phase returns the radii and the look-ahead the grids are sized by.

use glam::Vec2;

use crate::crowd::agent::{AgentState, RouteMode};
use crate::crowd::obstacle::{Obstacle, Shape};
use crate::crowd::simulator::TRACKED_CHANGES;
use crate::crowd::Crowd;

/// One live agent as the step gathers it in slot order (routes are planned in slot order:
/// the planner's caches make the order matter): what its `Body` needs besides the agent, so
/// that the body is built once, straight into steer order, instead of being built in slot
/// order and copied (128 bytes) into cell order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Gathered {
    pub(super) steer_to: Vec2,
    pub(super) slot: u32,
    pub(super) cos_half_fov: f32,
    pub(super) final_leg: bool,
    /// [`Body::recheck`](crate::crowd::steering::Body::recheck).
    pub(super) recheck: bool,
    /// [`Body::passed`](crate::crowd::steering::Body::passed).
    pub(super) passed: Vec2,
}

/// Notes a change near which agents arrived short of their targets are steered afresh in the next
/// sub-step (see [`Body::recheck`](crate::crowd::steering::Body::recheck)): into `list` while it
/// holds fewer than [`TRACKED_CHANGES`], past that (or for a `None`) as `all`: every such agent.
pub(crate) fn note_recheck(list: &mut Vec<Shape>, all: &mut bool, shape: Option<Shape>) {
    match shape {
        Some(shape) if list.len() < TRACKED_CHANGES => list.push(shape),
        _ => *all = true,
    }
}

impl Crowd {
    /// Gathers the live agents in slot order (routes, positions); returns the smallest and
    /// largest radius and the largest look-ahead, or `None` when no agent is live.
    #[inline(never)]
    pub(super) fn gather(&mut self) -> Option<(f32, f32, f32)> {
        self.planner.begin_step();
        self.planner.build_step(&self.shapes);
        self.sub_steps += 1;
        // An obstacle removed and added again as it was (a dynamic one that did not move)
        // changed nothing.
        let mut i = 0;
        while i < self.recheck.len() {
            let same = (i + 1..self.recheck.len()).find(|&j| self.recheck[j] == self.recheck[i]);
            if let Some(j) = same {
                self.recheck.swap_remove(j);
                self.recheck.swap_remove(i);
            } else {
                i += 1;
            }
        }
        // The flow (the walkers' velocities), for the planned agents' lanes (see the planner's
        // `lanes`).
        if self.planned > 0 {
            self.planner.clear_flows();
            for a in self.agents.items.iter().flatten() {
                if !matches!(a.state, AgentState::Moving | AgentState::Blocked) {
                    continue;
                }
                // How fast it walks, as a share of its speed, and which way: the flow of a
                // stream (a jam, jostling where it stands, is hardly one).
                let pos = Vec2::new(a.position.x, a.position.z);
                if a.speed > 0.0 {
                    self.planner.add_flow(pos, a.velocity / a.speed);
                }
            }
        }
        // Gather, in slot order: routes, positions, the largest radius and look-ahead.
        self.gathered.clear();
        self.gathered_pos.clear();
        let mut max_radius = 0.0f32;
        let mut min_radius = f32::INFINITY;
        let mut max_look = 0.0f32;
        // cos of the last half field of view seen (agents mostly share one): same bits as
        // computing it for each.
        let mut fov_cos = (f32::NAN, 0.0f32);
        for slot in 0..self.agents.items.len() {
            let valid =
                matches!(&self.agents.items[slot], Some(a) if a.state != AgentState::Invalid);
            if !valid {
                continue;
            }
            // (An agent walking straight at its target needs no more: kept out of `route`,
            // which then stays a call of its own.)
            let (steer_to, final_leg) = match &self.agents.items[slot] {
                Some(a)
                    if a.route_mode == RouteMode::Direct
                        && !a.detour
                        && self.standoffs.backing.is_empty() =>
                {
                    (Vec2::new(a.target.x, a.target.z), true)
                }
                Some(a)
                    if a.route_mode == RouteMode::Direct
                        && !(a.detour && self.standoffs.backing.is_empty()) =>
                {
                    let me = self.agents.id_of(slot);
                    match self.standoffs.backing.iter().find(|b| b.0 == me) {
                        // Giving way in a standoff: straight away from where the other stood.
                        Some(&(_, from, _)) => {
                            let p = Vec2::new(a.position.x, a.position.z);
                            let away = (p - from).try_normalize().unwrap_or(-a.heading);
                            (p + away * a.fov_range.max(4.0 * a.radius), false)
                        }
                        None if a.detour => self.route(slot),
                        None => (Vec2::new(a.target.x, a.target.z), true),
                    }
                }
                _ => self.route(slot),
            };
            let a = self.agents.items[slot].as_ref().expect("live slot");
            max_radius = max_radius.max(a.radius);
            if a.radius < min_radius {
                min_radius = a.radius;
            }
            max_look = max_look.max(a.fov_range + a.radius);
            if a.fov_half_angle.to_bits() != fov_cos.0.to_bits() {
                fov_cos = (
                    a.fov_half_angle,
                    crate::crowd::angle::sin_cos(a.fov_half_angle).1,
                );
            }
            let pos = Vec2::new(a.position.x, a.position.z);
            // Arrived short of its target (settled, or as near as it gets), within two radii
            // of an obstacle that changed (or of an agent that walked on).
            let recheck = a.state == AgentState::Arrived
                && a.settled_at > 0.0
                && (self.recheck_all
                    || self
                        .recheck
                        .iter()
                        .any(|s| s.distance(pos) <= 2.0 * a.radius));
            self.rechecking |= recheck;
            self.gathered_pos.push(pos);
            // The goal of its queue it last left (NaN: none).
            let passed = match self.program_of.get(slot) {
                Some(&k) if k != u32::MAX => self.programs[k as usize].passed,
                _ => Vec2::NAN,
            };
            self.gathered.push(Gathered {
                steer_to,
                slot: slot as u32,
                cos_half_fov: fov_cos.1,
                final_leg,
                recheck,
                passed,
            });
        }
        self.recheck.clear();
        self.recheck_all = false;
        (!self.gathered.is_empty()).then_some((min_radius, max_radius, max_look))
    }

    /// Notes where each agent steered afresh this sub-step (see
    /// [`Body::recheck`](crate::crowd::steering::Body::recheck)) that walked on stands, as a change
    /// of the next sub-step: the agents settled against it are then steered afresh too, and so on
    /// outward, so that a crowd settled round an obstacle that went closes in on its target.
    pub(super) fn recheck_around_released(&mut self) {
        self.rechecking = false;
        for g in &self.gathered {
            if !g.recheck {
                continue;
            }
            let Some(a) = &self.agents.items[g.slot as usize] else {
                continue;
            };
            if a.state == AgentState::Arrived || a.state == AgentState::Invalid {
                continue;
            }
            // (Its disc, as a circle obstacle's shape: a live agent's is always valid.)
            let disc = Obstacle::Circle {
                center: a.position,
                radius: a.radius,
            }
            .shape();
            note_recheck(&mut self.recheck, &mut self.recheck_all, disc);
        }
    }
}
