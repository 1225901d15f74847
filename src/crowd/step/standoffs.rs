//! Standoffs: two agents blocked against each other that pushing does not part. A planned agent
//! in a head-on block gives way at once (see `Crowd::yield_to`: it routes round where the other
//! stands for [`YIELD_STEPS`] sub-steps); after the write-back, agents walking straight that
//! stand head on for [`STANDOFF_TIME`] back off, and planned agents knotted with crossing flows
//! for [`PATIENCE`] give way (see `Crowd::break_standoffs`).

use glam::Vec2;

use crate::crowd::agent::{Agent, AgentState, HitKind, RouteMode};
use crate::crowd::slots::SLOT_MASK;
use crate::crowd::Crowd;

/// Sub-steps an agent gives way for after a head-on block (see `Crowd::yield_to`): long
/// enough for the other to get through a short passage.
pub(super) const YIELD_STEPS: u64 = 40;
/// Seconds two agents walking straight at their targets stay blocked against each other,
/// head on, before one of them backs off (see `Crowd::break_standoffs`).
pub const STANDOFF_TIME: f32 = 2.0;
/// How far ahead of an agent, toward its target, the other of a standoff stands at least
/// (cosine of the angle: within about 70°; two agents pressed against opposite walls of a
/// passage too narrow to pass each other stand some 55° off each other's way).
const STANDOFF_AHEAD: f32 = 0.35;
/// Seconds the one giving way backs off for: long enough to clear a short passage (about 5 m
/// at a walking pace), and then it walks at its target again.
pub const BACK_OFF_TIME: f32 = 4.0;
/// Seconds an agent planning its route stays blocked against the same agent, one on a way at
/// least 60° off its own, before it routes round where that one stands (see
/// `Crowd::break_standoffs`).
pub const PATIENCE: f32 = 4.0;
/// Cosine of the least angle between the ways of two agents for [`PATIENCE`] to apply (those
/// queueing one behind the other, as at a door, wait their turn).
const PATIENCE_CROSSING: f32 = 0.5;

/// The standoffs under way: who gives way, and who backs off.
#[derive(Clone, Debug)]
pub(crate) struct Standoffs {
    /// Agents giving way in a head-on block (see [`Crowd::yield_to`]).
    pub(super) yields: Yields,
    /// Agents walking straight at their targets backing off to end a standoff (see
    /// [`Crowd::break_standoffs`]): the agent's id, where the other stood, the seconds left.
    pub(super) backing: Vec<(u32, Vec2, f32)>,
    /// Scratch of `break_standoffs`: the slots of the pairs it ends, and where the other stood.
    backing_off: Vec<(usize, usize, Vec2)>,
}

impl Default for Standoffs {
    fn default() -> Self {
        Self {
            yields: Yields::default(),
            backing: Vec::with_capacity(64),
            backing_off: Vec::with_capacity(64),
        }
    }
}

/// Agents giving way in a head-on block, by slot: the agent's id, where the other agent stood
/// and its radius, and the sub-step the yield ends at (a lookup by slot, not a scan of every
/// yield for each agent routed).
#[derive(Clone, Debug, Default)]
pub(crate) struct Yields(Vec<(u32, Vec2, f32, u64)>);

impl Yields {
    /// Where the other agent stood and its radius, while agent `id` in `slot` gives way at
    /// sub-step `now`.
    pub(super) fn get(&self, slot: usize, id: u32, now: u64) -> Option<(Vec2, f32)> {
        self.0
            .get(slot)
            .filter(|y| y.0 == id && y.3 > now)
            .map(|y| (y.1, y.2))
    }

    /// Agent `id` in `slot` gives way to the agent of radius `r` that stood at `at` until
    /// sub-step `until`.
    pub(super) fn start(&mut self, slot: usize, id: u32, at: Vec2, r: f32, until: u64) {
        if self.0.len() <= slot {
            self.0.resize(slot + 1, (u32::MAX, Vec2::ZERO, 0.0, 0));
        }
        self.0[slot] = (id, at, r, until);
    }
}

impl Standoffs {
    /// Counts `dt` seconds off the agents backing off, and ends the backing off of those done.
    pub(super) fn back_off(&mut self, dt: f32) {
        if !self.backing.is_empty() {
            for b in &mut self.backing {
                b.2 -= dt;
            }
            self.backing.retain(|b| b.2 > 0.0);
        }
    }
}

/// How long an agent in `mode` stays blocked against the same agent before its standoff is
/// ended (see `Crowd::break_standoffs`): [`STANDOFF_TIME`] walking straight, [`PATIENCE`]
/// planning; never on waypoints.
pub(super) fn standoff_limit(mode: RouteMode) -> f32 {
    match mode {
        RouteMode::Direct => STANDOFF_TIME,
        RouteMode::Planned => PATIENCE,
        RouteMode::Waypoints => f32::INFINITY,
    }
}

/// Whether `b` stands in `a`'s way to `to`: within the angle whose cosine is `cos` (> 0) of
/// the direction from `a` to `to` (false when either direction is undefined).
fn in_way(a: &Agent, to: Vec2, b: &Agent, cos: f32) -> bool {
    let p = Vec2::new(a.position.x, a.position.z);
    let to = (to - p).try_normalize();
    let off = (Vec2::new(b.position.x, b.position.z) - p).try_normalize();
    matches!((to, off), (Some(t), Some(o)) if t.dot(o) > cos)
}

/// Whether agent `a` (in `slot`) is the one of a pair blocked head on to give way to `other`
/// (in `other_slot`): the lower priority gives way; of equal priorities, the later slot.
/// Exactly one of any two agents gives way to the other, and the order does not change as
/// they move. (Giving way to the one farther from its target instead, which changes as they
/// move, solved no more generated scenes: 2 988 of 3 000 against 2 989.) Agents out of
/// patience with each other (see `Crowd::break_standoffs`) may both give way: each routes
/// round the other, and they part (letting only one of them do so left the SteerSuite
/// `random` case with 149 agents blocked for 60 s on their way instead of 89, and solved no
/// more generated scenes).
fn gives_way(a: &Agent, slot: usize, other: &Agent, other_slot: usize) -> bool {
    if a.priority != other.priority {
        return a.priority < other.priority;
    }
    slot > other_slot
}

impl Crowd {
    /// Whether the planned agent in `slot` is to give way to another, and where that one
    /// stands and its radius: the two touch, each stands right in the other's way to its route
    /// point (within 45°) and is the other's most urgent hit, and one of them made no headway
    /// last step (a head-on block, which in a passage one agent wide neither the side bias
    /// nor pushing resolves). Of the two, the one [`gives_way`] names gives way; an agent that
    /// does not plan its route cannot, so the other does.
    pub(super) fn yield_to(&self, slot: usize) -> Option<(Vec2, f32)> {
        let a = self.agents.items[slot].as_ref()?;
        if a.route_mode != RouteMode::Planned || a.hit.kind != HitKind::Agent {
            return None;
        }
        let other = self.agents.get(a.hit.id).ok()?;
        let other_slot = (a.hit.id & SLOT_MASK) as usize;
        let at = Vec2::new(other.position.x, other.position.z);
        let gap = at.distance(Vec2::new(a.position.x, a.position.z)) - a.radius - other.radius;
        let stuck = a.state == AgentState::Blocked || other.state == AgentState::Blocked;
        // Each stands right in the other's way to its route point (agents jostling into their
        // places near their targets, or pressed together at a door, face any way and touch
        // at any side).
        let opposite = in_way(a, a.plan.0, other, 0.7) && in_way(other, other.plan.0, a, 0.7);
        if other.hit.kind != HitKind::Agent
            || other.hit.id != self.agents.id_of(slot)
            || !stuck
            || gap > 0.05 * a.radius.min(other.radius)
            || !opposite
        {
            return None;
        }
        let yields =
            other.route_mode != RouteMode::Planned || gives_way(a, slot, other, other_slot);
        yields.then_some((at, other.radius))
    }

    /// Ends the standoffs of agents walking straight at their targets: two of them blocked
    /// against each other, head on, for [`STANDOFF_TIME`] (each the other's hit, each standing
    /// ahead of the other on its way to its target, within about 70°), as in a passage one
    /// agent wide, where neither the side bias nor pushing gets either through and neither
    /// plans a way round (planned agents give way at once, see [`Crowd::yield_to`]). Of the
    /// two, the one [`gives_way`] names backs off, straight away from where the other stands,
    /// for [`BACK_OFF_TIME`]; the other follows it out, and then they pass.
    ///
    /// Agents planning their routes give way at once in a head-on block; this ends the rest of
    /// their knots: one blocked against the same agent for [`PATIENCE`], that agent on a way
    /// at least 60° off its own (crossing flows wedged among obstacles, where no two stand
    /// head on), routes round where that agent stands for as long as a head-on give-way.
    /// (Before, 83 of the 1 200 planned agents of the speed benchmark's scene stood in such a
    /// knot for good, and 50 of 1 000 once agents held their swerves, see `steering`.) Those
    /// queueing behind one another (as at a door) wait their turn.
    ///
    /// Serial, in slot order, after the write-back: the same for any thread count.
    pub(super) fn break_standoffs(&mut self) {
        let now = self.sub_steps;
        // Blocked against the same agent, up to this sub-step, for its mode's limit.
        let stood = |a: &Agent| {
            a.standoff_step == now
                && a.hit.kind == HitKind::Agent
                && a.standoff >= standoff_limit(a.route_mode)
        };
        self.standoffs.backing_off.clear();
        for (slot, item) in self.agents.items.iter().enumerate() {
            let Some(a) = item.as_ref().filter(|a| stood(a)) else {
                continue;
            };
            let Ok(other) = self.agents.get(a.hit.id) else {
                continue;
            };
            let other_slot = (a.hit.id & SLOT_MASK) as usize;
            let at = Vec2::new(other.position.x, other.position.z);
            let ends = if a.route_mode == RouteMode::Planned {
                // Out of patience, unless queueing behind the other.
                let way = |a: &Agent| {
                    let p = Vec2::new(a.position.x, a.position.z);
                    (a.plan.0 - p).normalize_or_zero()
                };
                way(a).dot(way(other)) < PATIENCE_CROSSING
            } else {
                // Walking straight: a pair, each the other's hit, head on (on the way to its
                // target, or on a detour to its route point); the lower gives way, and of one
                // on a detour and one not, the one not (the other knows the way out of where
                // it was wedged: pressing after it, the second held it there).
                let way = |a: &Agent| {
                    if a.detour {
                        a.plan.0
                    } else {
                        Vec2::new(a.target.x, a.target.z)
                    }
                };
                let yields = if a.detour != other.detour {
                    other.detour
                } else {
                    gives_way(a, slot, other, other_slot)
                };
                other.route_mode == RouteMode::Direct
                    && stood(other)
                    && other.hit.id == self.agents.id_of(slot)
                    && yields
                    && in_way(a, way(a), other, STANDOFF_AHEAD)
                    && in_way(other, way(other), a, STANDOFF_AHEAD)
            };
            if ends {
                self.standoffs.backing_off.push((slot, other_slot, at));
            }
        }
        for i in 0..self.standoffs.backing_off.len() {
            let (slot, other_slot, at) = self.standoffs.backing_off[i];
            let id = self.agents.id_of(slot);
            let other_radius = self.agents.items[other_slot].as_ref().map(|o| o.radius);
            if let (Some(a), Some(r)) = (self.agents.items[slot].as_mut(), other_radius) {
                if a.route_mode == RouteMode::Planned {
                    // Gives way as in a head-on block (see `Crowd::yield_to`), for YIELD_STEPS.
                    a.standoff = 0.0;
                    if self.standoffs.yields.get(slot, id, now).is_none() {
                        self.standoffs
                            .yields
                            .start(slot, id, at, r, now + YIELD_STEPS);
                    }
                    continue;
                }
            }
            for s in [slot, other_slot] {
                if let Some(a) = self.agents.items[s].as_mut() {
                    a.standoff = 0.0;
                }
            }
            if !self.standoffs.backing.iter().any(|b| b.0 == id) {
                self.standoffs.backing.push((id, at, BACK_OFF_TIME));
            }
        }
    }
}
