//! Each agent's goal sequence, driven from outside the crowd with today's public API: the
//! runner calls [`Program::update`] after every step; it sets an agent's next target when the
//! current goal is reached or its `timeDuration` passes, and removes the agent when its
//! sequence ends ([`Arrival::Despawn`], SteerSuite's rule) or leaves it standing at its last
//! goal ([`Arrival::Stay`]; staying, its last destination has no time limit). This is the one place that knows how goals are walked: when the
//! crowd gets its own goal queue, it is the one place to change.

use std::collections::HashMap;

use glam::{Vec2, Vec3};
use wayfarer::crowd::{AgentId, AgentState, Crowd, Goal, OnArrival};

use super::scene::{AgentSpec, GoalKind};

/// What happens when an agent ends its goal sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// It leaves the world (SteerSuite).
    Despawn,
    /// It stops and settles where it got to.
    Stay,
}

/// How far a flow or flee goal's target lies ahead (kept inside the world).
const FAR: f32 = 1000.0;
/// A dynamic target is re-sent when its agent has moved this far.
const RETARGET: f32 = 0.25;

/// How a goal ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    /// A destination reached, this many seconds after the agent appeared.
    Reached(f32),
    /// A destination whose time passed first.
    Missed,
    /// A goal met by its time passing (flow, flee, idle).
    Timed,
}

/// One agent of the scene while the run lasts.
#[derive(Clone, Debug)]
pub struct Walker {
    /// Its place in the crowd (while it is there).
    pub id: Option<AgentId>,
    /// Its spec's index: placed agents first, then emitted ones (see `Program::spawn`).
    pub spec: AgentSpec,
    /// Run time it appeared.
    pub spawned: f32,
    /// The goal it is on (= goals walked so far).
    pub goal: usize,
    /// Run time its current goal began.
    pub goal_start: f32,
    /// How each goal walked so far ended.
    pub outcomes: Vec<Outcome>,
    /// Run time its sequence ended (reached or passed its last goal).
    pub finished: Option<f32>,
    /// Its last position.
    pub position: Vec2,
    /// Where its dynamic target's agent was when last sent.
    sent: Vec2,
}

impl Walker {
    /// The goal it is on, if any left.
    pub fn current(&self) -> Option<&GoalKind> {
        self.spec.goals.get(self.goal).map(|g| &g.kind)
    }
}

/// Every agent's goal sequence.
pub struct Program {
    /// Every agent that has appeared, in order of appearance.
    pub walkers: Vec<Walker>,
    arrival: Arrival,
    world: (Vec2, Vec2),
    names: HashMap<String, usize>,
}

impl Program {
    /// No agents yet; `world` bounds flow and flee targets.
    pub fn new(arrival: Arrival, world: (Vec2, Vec2)) -> Self {
        Self {
            walkers: Vec::new(),
            arrival,
            world,
            names: HashMap::new(),
        }
    }

    /// Whether every agent has ended its sequence.
    pub fn all_finished(&self) -> bool {
        self.walkers.iter().all(|w| w.finished.is_some())
    }

    /// Adds `spec` to the crowd at run time `now` and starts its first goal.
    pub fn spawn(&mut self, crowd: &mut Crowd, spec: &AgentSpec, now: f32) -> Result<(), String> {
        let p = spec.position;
        let id = crowd
            .add_agent(Vec3::new(p.x, 0.0, p.y), spec.yaw, spec.speed, spec.radius)
            .map_err(|e| {
                format!(
                    "agent #{} at ({}, {}): {e} (crowd capacity {})",
                    self.walkers.len(),
                    p.x,
                    p.y,
                    crowd.capacity()
                )
            })?;
        if let Some(n) = &spec.name {
            self.names.insert(n.clone(), self.walkers.len());
        }
        self.walkers.push(Walker {
            id: Some(id),
            spec: spec.clone(),
            spawned: now,
            goal: 0,
            goal_start: now,
            outcomes: Vec::new(),
            finished: None,
            position: p,
            sent: Vec2::splat(f32::INFINITY),
        });
        let k = self.walkers.len() - 1;
        self.begin(crowd, k, now)
    }

    /// Checks every agent's goal after a step at run time `now` and moves it on.
    pub fn update(&mut self, crowd: &mut Crowd, now: f32) -> Result<(), String> {
        for k in 0..self.walkers.len() {
            let Some(id) = self.walkers[k].id else {
                continue;
            };
            let p = crowd
                .agent(id)
                .map_err(|e| format!("agent #{k}: {e}"))?
                .position;
            self.walkers[k].position = Vec2::new(p.x, p.z);
            if self.walkers[k].finished.is_some() {
                continue;
            }
            let w = &self.walkers[k];
            let Some(kind) = w.current().cloned() else {
                continue;
            };
            let goal = &w.spec.goals[w.goal];
            // Staying, an agent keeps to its last destination however long it takes.
            let keeps = self.arrival == Arrival::Stay
                && kind.is_destination()
                && w.goal + 1 == w.spec.goals.len();
            let timed_out = now - w.goal_start >= goal.duration && !keeps;
            let reached = match &kind {
                GoalKind::Seek(t) => w.position.distance(*t) <= w.spec.radius + 1e-3,
                GoalKind::Region(lo, hi) => {
                    w.position.cmpge(*lo).all() && w.position.cmple(*hi).all()
                }
                GoalKind::SeekAgent(name) => self.other(name).is_some_and(|o| {
                    w.position.distance(o.position) <= w.spec.radius + o.spec.radius + 0.1
                }),
                _ => false,
            };
            if reached {
                let t = now - w.spawned;
                self.next(crowd, k, Outcome::Reached(t), now)?;
            } else if timed_out {
                let o = if kind.is_destination() {
                    Outcome::Missed
                } else {
                    Outcome::Timed
                };
                self.next(crowd, k, o, now)?;
            } else {
                self.follow(crowd, k, &kind)?;
            }
        }
        Ok(())
    }

    /// The agent named `name`, if it is in the world.
    fn other(&self, name: &str) -> Option<&Walker> {
        self.names
            .get(name)
            .map(|&k| &self.walkers[k])
            .filter(|w| w.id.is_some())
    }

    /// Ends agent `k`'s goal with `outcome` and starts its next (or ends its sequence).
    fn next(
        &mut self,
        crowd: &mut Crowd,
        k: usize,
        outcome: Outcome,
        now: f32,
    ) -> Result<(), String> {
        let w = &mut self.walkers[k];
        w.outcomes.push(outcome);
        w.goal += 1;
        w.goal_start = now;
        if w.goal < w.spec.goals.len() {
            return self.begin(crowd, k, now);
        }
        self.finish(crowd, k, now)
    }

    /// Ends agent `k`'s sequence at `now`: despawning, it leaves the crowd.
    fn finish(&mut self, crowd: &mut Crowd, k: usize, now: f32) -> Result<(), String> {
        let w = &mut self.walkers[k];
        w.finished = Some(now);
        if self.arrival == Arrival::Despawn {
            if let Some(id) = w.id.take() {
                crowd
                    .remove_agent(id)
                    .map_err(|e| format!("agent #{k}: {e}"))?;
            }
        }
        Ok(())
    }

    /// Sends agent `k` toward its current goal (with no goals, its sequence ends at once).
    fn begin(&mut self, crowd: &mut Crowd, k: usize, now: f32) -> Result<(), String> {
        let w = &mut self.walkers[k];
        let Some(goal) = w.spec.goals.get(w.goal).cloned() else {
            return self.finish(crowd, k, now);
        };
        let Some(id) = w.id else { return Ok(()) };
        let speed = goal.speed.unwrap_or(w.spec.speed);
        crowd
            .set_speed(id, speed, w.spec.radius)
            .map_err(|e| format!("agent #{k}: speed {speed}: {e}"))?;
        let here = w.position;
        let r = w.spec.radius;
        w.sent = Vec2::splat(f32::INFINITY);
        let target = match goal.kind {
            GoalKind::Seek(t) => Some((t, r)),
            GoalKind::Region(lo, hi) => {
                let c = 0.5 * (lo + hi);
                Some((c, (0.5 * (hi - lo)).min_element().max(0.0)))
            }
            GoalKind::Flow(d) => Some((self.inside(here + d * FAR, r), r)),
            GoalKind::Flee(from) => {
                let away = (here - from).try_normalize().unwrap_or(Vec2::X);
                Some((self.inside(here + away * FAR, r), r))
            }
            GoalKind::Idle => Some((here, r)),
            GoalKind::SeekAgent(_) | GoalKind::FleeAgent(_) => None,
        };
        if let Some((t, radius)) = target {
            // A goal of one, so that the crowd knows which goal the agent left last (it has
            // the right of way over those still bound for it).
            let g = Goal::new(Vec3::new(t.x, 0.0, t.y), radius);
            crowd
                .set_goals(id, &[g], OnArrival::Stop)
                .map_err(|e| format!("agent #{k}: target ({}, {}): {e}", t.x, t.y))?;
        }
        let kind = goal.kind.clone();
        self.follow(crowd, k, &kind)
    }

    /// Keeps agent `k` after a moving target (dynamic goals; others: nothing).
    fn follow(&mut self, crowd: &mut Crowd, k: usize, kind: &GoalKind) -> Result<(), String> {
        let (name, flee) = match kind {
            GoalKind::SeekAgent(n) => (n, false),
            GoalKind::FleeAgent(n) => (n, true),
            _ => return Ok(()),
        };
        let Some(o) = self.other(name).map(|o| o.position) else {
            return Ok(());
        };
        let w = &self.walkers[k];
        if w.sent.distance(o) < RETARGET {
            return Ok(());
        }
        let r = w.spec.radius;
        let t = if flee {
            let away = (w.position - o).try_normalize().unwrap_or(Vec2::X);
            self.inside(w.position + away * FAR, r)
        } else {
            o
        };
        let id = w.id.ok_or("no agent")?;
        crowd
            .set_target(id, Vec3::new(t.x, 0.0, t.y), r)
            .map_err(|e| format!("agent #{k}: target: {e}"))?;
        self.walkers[k].sent = o;
        Ok(())
    }

    /// Where the walk from the world's inside toward `p` leaves the world (shrunk by `r`).
    fn inside(&self, p: Vec2, r: f32) -> Vec2 {
        let (lo, hi) = (self.world.0 + Vec2::splat(r), self.world.1 - Vec2::splat(r));
        p.clamp(lo, hi.max(lo))
    }
}

/// Whether a live agent stopped short of its goal: the crowd calls it arrived (settled
/// against others) but it stands farther from its target than its arrival radius.
pub fn settled_short(crowd: &Crowd, w: &Walker) -> Option<f32> {
    let id = w.id?;
    let a = crowd.agent(id).ok()?;
    let t = w.current().and_then(GoalKind::point).or_else(|| {
        w.spec
            .goals
            .last()
            .and_then(|g| g.kind.point())
            .filter(|_| w.finished.is_some())
    })?;
    let d = w.position.distance(t);
    (a.state() == AgentState::Arrived && d > w.spec.radius + 1e-3).then_some(d)
}
