//! Goal queues: an agent with a queue (see [`goals`](crate::crowd::goals)) walks its goals in
//! turn; after each sub-step its program reports the goals reached, waits at them, sends the
//! agent on to the next, and at the last does what its [`OnArrival`] says.

use glam::{Vec2, Vec3};

use crate::crowd::agent::AgentState;
use crate::crowd::goals::{CrowdEvent, EventKind, Goal, Next, OnArrival, Program};
use crate::crowd::obstacle::Obstacle;
use crate::crowd::simulator::{check, check_finite, check_target, retarget, AgentId};
use crate::crowd::slots::SLOT_MASK;
use crate::crowd::{Crowd, CrowdError};

use super::gather::note_recheck;

impl Crowd {
    /// Gives an agent a queue of goals: it walks to `goals[0]` now, and on reaching each goal
    /// (see [`goals`](crate::crowd::goals): within its arrival radius, not stopped short against
    /// others) waits that goal's `wait`, then takes the next; at the last it does what
    /// `on_arrival` says. Replaces any queue it had (a caller that walks goals one at a time,
    /// setting a queue of one goal after another as each is reached, gets the same right of
    /// way as a queue: the goal it had reached, or touches the arrival circle of, counts as
    /// left). An empty `goals` drops the queue (the
    /// agent keeps its target and stops there). Checked before anything changes: targets,
    /// radii and waits finite ([`CrowdError::NonFinite`]), radii and waits ≥ 0
    /// ([`CrowdError::InvalidArgument`]).
    pub fn set_goals(
        &mut self,
        id: AgentId,
        goals: &[Goal],
        on_arrival: OnArrival,
    ) -> Result<(), CrowdError> {
        let slot = self.agents.slot(id.0)?;
        for g in goals {
            check_target(g.target, g.arrival_radius)?;
            check_finite(&[g.wait])?;
            check(g.wait >= 0.0)?;
        }
        let Some((&first, rest)) = goals.split_first() else {
            self.drop_program(slot);
            return Ok(());
        };
        let a = self.agents.items[slot].as_mut().expect("live slot");
        let (at, radius) = (Vec2::new(a.position.x, a.position.z), a.radius);
        retarget(a, first.target, first.arrival_radius);
        // The goal it last left stays: the one it had reached, or touches the arrival circle
        // of, if a new queue sends it on from there (a caller's own reach test may fire a
        // step before the crowd marks it arrived), else the one it left before.
        let passed = match self.program_of.get(slot) {
            Some(&k) if k != u32::MAX => {
                let old = &self.programs[k as usize];
                let left = Vec2::new(old.current.target.x, old.current.target.z);
                let touching = at.distance(left) <= old.current.arrival_radius + radius;
                if old.waiting.is_some() || touching {
                    left
                } else {
                    old.passed
                }
            }
            _ => Vec2::NAN,
        };
        let program = Program {
            agent: id.0,
            current: first,
            queue: rest.iter().copied().collect(),
            on_arrival,
            reached: 0,
            waiting: None,
            passed,
        };
        match self.program_of.get(slot) {
            Some(&k) if k != u32::MAX => self.programs[k as usize] = program,
            _ => {
                if self.program_of.len() <= slot {
                    self.program_of.resize(self.agents.items.len(), u32::MAX);
                }
                self.program_of[slot] = self.programs.len() as u32;
                self.programs.push(program);
            }
        }
        Ok(())
    }

    /// Adds a goal to the end of an agent's queue (an agent without one gets a queue whose
    /// first goal is its target, stopping at the last). An agent already at its last goal
    /// takes the new one once it has waited out the one it stands at.
    pub fn push_goal(&mut self, id: AgentId, goal: Goal) -> Result<(), CrowdError> {
        check_target(goal.target, goal.arrival_radius)?;
        check_finite(&[goal.wait])?;
        check(goal.wait >= 0.0)?;
        let k = self.program_index(id)?;
        self.programs[k].queue.push_back(goal);
        Ok(())
    }

    /// Sets what an agent does at the last goal of its queue (an agent without one gets a queue
    /// whose one goal is its target).
    pub fn set_on_arrival(&mut self, id: AgentId, on_arrival: OnArrival) -> Result<(), CrowdError> {
        let k = self.program_index(id)?;
        self.programs[k].on_arrival = on_arrival;
        Ok(())
    }

    /// Goals still ahead of an agent after the one it walks to now (0 without a queue).
    pub fn goals_left(&self, id: AgentId) -> Result<usize, CrowdError> {
        let slot = self.agents.slot(id.0)?;
        Ok(match self.program_of.get(slot) {
            Some(&k) if k != u32::MAX => self.programs[k as usize].queue.len(),
            _ => 0,
        })
    }

    /// What happened during the last [`Crowd::step`]: goals reached and agents despawned, in
    /// the order they happened (sub-step by sub-step, agents in the order their queues were
    /// set). Kept until the next call to `step`; a refused call reports none.
    pub fn events(&self) -> &[CrowdEvent] {
        &self.events
    }

    /// The index of the agent's program, made (its target as its one goal, stopping there)
    /// if it has none.
    pub(super) fn program_index(&mut self, id: AgentId) -> Result<usize, CrowdError> {
        let slot = self.agents.slot(id.0)?;
        if let Some(&k) = self.program_of.get(slot) {
            if k != u32::MAX {
                return Ok(k as usize);
            }
        }
        let a = self.agents.items[slot].as_ref().expect("live slot");
        let first = Goal::new(a.target, a.arrival_radius);
        self.set_goals(id, &[first], OnArrival::Stop)?;
        Ok(self.program_of[slot] as usize)
    }

    /// Keeps an agent's current goal in step with a target set directly (its queue stays).
    pub(crate) fn retarget_program(&mut self, id: AgentId, target: Vec3, arrival_radius: f32) {
        let slot = (id.0 & SLOT_MASK) as usize;
        if let Some(&k) = self.program_of.get(slot) {
            if k != u32::MAX {
                let p = &mut self.programs[k as usize];
                if p.current.target != target || p.current.arrival_radius != arrival_radius {
                    p.current.target = target;
                    p.current.arrival_radius = arrival_radius;
                    p.waiting = None;
                }
            }
        }
    }

    /// Drops the program of the agent in `slot`, if any.
    pub(crate) fn drop_program(&mut self, slot: usize) {
        let Some(&k) = self.program_of.get(slot) else {
            return;
        };
        if k == u32::MAX {
            return;
        }
        self.program_of[slot] = u32::MAX;
        self.programs.swap_remove(k as usize);
        if let Some(moved) = self.programs.get(k as usize) {
            self.program_of[(moved.agent & SLOT_MASK) as usize] = k;
        }
    }

    /// Moves every agent with a goal queue on after a sub-step of `dt` seconds: a goal
    /// reached is reported, waited at, and followed by the next; an agent leaving at its last
    /// goal is removed (its disc noted as a change, so that agents stopped short against it
    /// are steered afresh).
    pub(super) fn run_programs(&mut self, dt: f32) {
        let mut k = 0;
        while k < self.programs.len() {
            let p = &mut self.programs[k];
            let id = p.agent;
            let slot = (id & SLOT_MASK) as usize;
            let a = self.agents.items[slot]
                .as_ref()
                .expect("a program's agent lives");
            // Reached: arrived at the goal itself (or as near as it can get), not stopped
            // short against others.
            let reached = a.state == AgentState::Arrived && a.settled_at == 0.0;
            let position = a.position;
            let events = &mut self.events;
            let next = p.advance(reached, dt, |goal| {
                events.push(CrowdEvent {
                    kind: EventKind::GoalReached,
                    agent: AgentId(id),
                    goal,
                    position,
                })
            });
            match next {
                Next::Stay => k += 1,
                Next::Go(g) => {
                    let a = self.agents.items[slot].as_mut().expect("live");
                    retarget(a, g.target, g.arrival_radius);
                    k += 1;
                }
                Next::Leave => {
                    let goal = p.reached.saturating_sub(1);
                    let radius = a.radius;
                    self.events.push(CrowdEvent {
                        kind: EventKind::Despawned,
                        agent: AgentId(id),
                        goal,
                        position,
                    });
                    self.remove_agent(AgentId(id)).expect("live");
                    let disc = Obstacle::Circle {
                        center: position,
                        radius,
                    }
                    .shape();
                    note_recheck(&mut self.recheck, &mut self.recheck_all, disc);
                    // (The last program moved into `k`: look at it next.)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The goal the crowd keeps as left when a caller walks an agent to `(1, 0, 0)` and sets
    /// its next goal as soon as its own reach test (within the arrival radius + 1 mm) fires,
    /// or after `early` steps if given.
    fn left_after_hand_off(early: Option<usize>) -> Vec2 {
        let mut c = Crowd::new(4).unwrap();
        let id = c.add_agent(Vec3::ZERO, 0.0, 1.0, 0.3).unwrap();
        let (a, b) = (Vec3::new(1.0, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0));
        c.set_goals(id, &[Goal::new(a, 0.25)], OnArrival::Stop)
            .unwrap();
        for k in 0.. {
            c.step(0.1, 1).unwrap();
            let at = c.agent(id).unwrap().position;
            if early == Some(k) || (early.is_none() && at.distance(a) <= 0.25 + 1e-3) {
                break;
            }
        }
        c.set_goals(id, &[Goal::new(b, 0.25)], OnArrival::Stop)
            .unwrap();
        let k = c.program_of[(id.0 & SLOT_MASK) as usize] as usize;
        c.programs[k].passed
    }

    #[test]
    fn a_goal_handed_off_at_the_callers_reach_counts_as_left() {
        // The caller's test fires the step the agent enters the circle, before the crowd's
        // program has marked the goal reached.
        assert_eq!(left_after_hand_off(None), Vec2::new(1.0, 0.0));
        // Sent on halfway, it left nothing.
        assert!(left_after_hand_off(Some(2)).is_nan());
    }
}
