//! Where an agent goes after its target: a queue of goals, what it does when it reaches the
//! last one, and the events the step reports.
//!
//! An agent with no queue walks to its target and stops there, as it always has. Given a
//! queue ([`Crowd::set_goals`](crate::crowd::Crowd::set_goals)), its target is the queue's
//! head; when it **reaches** that goal it waits the goal's `wait` seconds, then takes the next.
//! At the last goal it does what its [`OnArrival`] says: stop and settle, leave the crowd
//! (despawn: its id is freed and a [`EventKind::Despawned`] event reported), or start the queue
//! again (loop, for patrols).
//!
//! *Reached* is strict: within the goal's arrival radius of its target, or of the nearest
//! point the agent can reach when the target lies inside an obstacle (see
//! [`AgentState::Arrived`](crate::crowd::AgentState::Arrived)). An agent that stopped
//! against others short of the goal (settled) has **not** reached it: it keeps its goal, and
//! walks on when those it stopped against move or leave.

use glam::Vec3;

use super::simulator::AgentId;

/// One goal of an agent's queue.
///
/// ```
/// use wayfarer::crowd::Goal;
/// use glam::Vec3;
///
/// let market = Goal::new(Vec3::new(10.0, 0.0, 4.0), 0.5).waiting(3.0);
/// assert_eq!(market.wait, 3.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Goal {
    /// Where to go.
    pub target: Vec3,
    /// Reached once this close to `target`, metres (≥ 0).
    pub arrival_radius: f32,
    /// Seconds to stay once reached before taking the next goal (≥ 0; ignored at the last goal
    /// unless the queue loops).
    pub wait: f32,
}

impl Goal {
    /// A goal at `target`, reached within `arrival_radius`, with no wait.
    pub fn new(target: Vec3, arrival_radius: f32) -> Self {
        Self {
            target,
            arrival_radius,
            wait: 0.0,
        }
    }

    /// The same goal with a wait of `seconds` once reached.
    pub fn waiting(self, seconds: f32) -> Self {
        Self {
            wait: seconds,
            ..self
        }
    }
}

/// What an agent does when it reaches the last goal of its queue (`WF_ON_ARRIVAL_*` in the C
/// ABI).
///
/// ```
/// use wayfarer::crowd::OnArrival;
///
/// assert_eq!(OnArrival::from_code(1), Some(OnArrival::Despawn));
/// assert_eq!(OnArrival::default(), OnArrival::Stop);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u32)]
pub enum OnArrival {
    /// Stops there and settles (against others already there, if it cannot get nearer).
    #[default]
    Stop = 0,
    /// Leaves the crowd: it is removed, its id becomes invalid, and the step reports an
    /// [`EventKind::Despawned`] event (as SteerSuite removes an agent at its final goal).
    Despawn = 1,
    /// Starts its queue again from the first goal (a patrol).
    Loop = 2,
}

impl OnArrival {
    /// The behaviour for a C ABI code, or `None`.
    pub fn from_code(code: u32) -> Option<Self> {
        match code {
            0 => Some(Self::Stop),
            1 => Some(Self::Despawn),
            2 => Some(Self::Loop),
            _ => None,
        }
    }
}

/// What happened (`WF_EVENT_*` in the C ABI).
///
/// ```
/// use wayfarer::crowd::EventKind;
///
/// assert_eq!(EventKind::Despawned as u32, 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum EventKind {
    /// The agent reached a goal of its queue (its wait, if any, starts now).
    GoalReached = 0,
    /// The agent reached its last goal and left the crowd; its id is no longer valid.
    Despawned = 1,
}

/// One thing that happened to an agent during [`Crowd::step`](crate::crowd::Crowd::step),
/// read with [`Crowd::events`](crate::crowd::Crowd::events) until the next step.
///
/// ```
/// use wayfarer::crowd::{Crowd, EventKind, Goal, OnArrival};
/// use glam::Vec3;
///
/// let mut crowd = Crowd::new(4).unwrap();
/// let id = crowd.add_agent(Vec3::ZERO, 0.0, 2.0, 0.3).unwrap();
/// crowd
///     .set_goals(id, &[Goal::new(Vec3::new(0.0, 0.0, 3.0), 0.2)], OnArrival::Despawn)
///     .unwrap();
/// let mut left = false;
/// for _ in 0..60 {
///     crowd.step(0.05, 1).unwrap();
///     left |= crowd.events().iter().any(|e| e.agent == id && e.kind == EventKind::Despawned);
/// }
/// assert!(left);
/// assert!(crowd.agent(id).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdEvent {
    /// What happened.
    pub kind: EventKind,
    /// The agent it happened to.
    pub agent: AgentId,
    /// How many goals the agent had reached before this one since its queue was set (0 for
    /// the first goal).
    pub goal: u32,
    /// Where the agent stood.
    pub position: Vec3,
}

/// An agent's queue as the crowd keeps it.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    /// The agent's id (its slot and generation).
    pub agent: u32,
    /// The goal it walks to now.
    pub current: Goal,
    /// The goals after it, in order (for [`OnArrival::Loop`], the current goal is pushed to
    /// the back as it is left).
    pub queue: std::collections::VecDeque<Goal>,
    /// What it does at its last goal.
    pub on_arrival: OnArrival,
    /// Goals reached since the queue was set.
    pub reached: u32,
    /// Seconds it still waits at the current goal; `None` until it reaches it.
    pub waiting: Option<f32>,
    /// The goal it last left, on the ground plane (NaN: none yet): it came to that goal before
    /// those still bound for it, and has the right of way over them.
    pub passed: glam::Vec2,
}

/// What a program asks of the crowd after a sub-step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Next {
    /// Nothing changes.
    Stay,
    /// Walk to this goal now.
    Go(Goal),
    /// Leave the crowd.
    Leave,
}

impl Program {
    /// Advances the program by `dt` seconds, given whether its agent has reached the current
    /// goal; reports a reached goal through `reached_now` (called at most once).
    pub fn advance(&mut self, reached: bool, dt: f32, mut reached_now: impl FnMut(u32)) -> Next {
        let left = match self.waiting {
            Some(w) => w,
            None if reached => {
                reached_now(self.reached);
                self.reached += 1;
                self.waiting = Some(self.current.wait);
                self.current.wait
            }
            None => return Next::Stay,
        };
        if self.queue.is_empty() {
            // The last goal (or a loop of one goal: it stays there too).
            return match self.on_arrival {
                OnArrival::Despawn => Next::Leave,
                OnArrival::Stop | OnArrival::Loop => Next::Stay,
            };
        }
        // More goals: wait out the current goal first.
        if left > dt {
            self.waiting = Some(left - dt);
            return Next::Stay;
        }
        if self.on_arrival == OnArrival::Loop {
            self.queue.push_back(self.current);
        }
        match self.queue.pop_front() {
            Some(g) => {
                self.passed = glam::Vec2::new(self.current.target.x, self.current.target.z);
                self.current = g;
                self.waiting = None;
                Next::Go(g)
            }
            None => Next::Stay,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn goal(x: f32) -> Goal {
        Goal::new(Vec3::new(x, 0.0, 0.0), 0.1)
    }

    fn program(goals: &[Goal], on_arrival: OnArrival) -> Program {
        Program {
            agent: 0,
            current: goals[0],
            queue: goals[1..].iter().copied().collect(),
            on_arrival,
            reached: 0,
            waiting: None,
            passed: glam::Vec2::NAN,
        }
    }

    #[test]
    fn walks_its_goals_in_order_and_waits_at_each() {
        let mut p = program(&[goal(1.0).waiting(0.25), goal(2.0)], OnArrival::Stop);
        let mut seen = vec![];
        assert_eq!(p.advance(false, 0.1, |g| seen.push(g)), Next::Stay);
        assert_eq!(p.advance(true, 0.1, |g| seen.push(g)), Next::Stay);
        assert_eq!(p.advance(true, 0.1, |g| seen.push(g)), Next::Stay);
        assert_eq!(p.advance(true, 0.1, |g| seen.push(g)), Next::Go(goal(2.0)));
        assert_eq!(seen, [0]);
        assert_eq!(p.advance(true, 0.1, |g| seen.push(g)), Next::Stay);
        assert_eq!(seen, [0, 1]);
        // Stopped at the last goal: nothing more happens, no event repeats.
        assert_eq!(p.advance(true, 0.1, |g| seen.push(g)), Next::Stay);
        assert_eq!(seen, [0, 1]);
    }

    #[test]
    fn despawns_only_at_the_last_goal() {
        let mut p = program(&[goal(1.0), goal(2.0)], OnArrival::Despawn);
        assert_eq!(p.advance(true, 0.1, |_| {}), Next::Go(goal(2.0)));
        assert_eq!(p.advance(false, 0.1, |_| {}), Next::Stay);
        assert_eq!(p.advance(true, 0.1, |_| {}), Next::Leave);
    }

    #[test]
    fn loops_back_to_the_first_goal() {
        let mut p = program(&[goal(1.0), goal(2.0), goal(3.0)], OnArrival::Loop);
        let mut order = vec![];
        for _ in 0..7 {
            if let Next::Go(g) = p.advance(true, 0.1, |_| {}) {
                order.push(g.target.x);
            }
        }
        assert_eq!(order, [2.0, 3.0, 1.0, 2.0, 3.0, 1.0, 2.0]);
    }

    #[test]
    fn a_loop_of_one_goal_stays() {
        let mut p = program(&[goal(1.0)], OnArrival::Loop);
        let mut events = 0;
        for _ in 0..5 {
            assert_eq!(p.advance(true, 0.1, |_| events += 1), Next::Stay);
        }
        assert_eq!(events, 1);
    }
}
