//! What the runner plays: a scene (world bounds, obstacles, agents with their goal sequences,
//! emitters), whether it was read from a SteerSuite file ([`super::loader`]) or generated
//! ([`super::sampler`]). Every random choice is already made: a scene is plain data.

use glam::Vec2;
use wayfarer::crowd::Obstacle;

/// SteerSuite's `timeDuration` when a goal gives none: for ever, in practice.
pub const NO_DURATION: f32 = 100_000.0;

/// What one goal of a sequence asks of an agent.
#[derive(Clone, Debug, PartialEq)]
pub enum GoalKind {
    /// `seekStaticTarget`: walk to a point; reached within the arrival radius.
    Seek(Vec2),
    /// `seekAxisAlignedBoxRegion`: walk into a box (min, max); reached inside it.
    Region(Vec2, Vec2),
    /// `fleeStaticTarget`: walk away from a point for the goal's time.
    Flee(Vec2),
    /// `seekDynamicTarget`: walk to the agent with this name (reached on touching it).
    SeekAgent(String),
    /// `fleeDynamicTarget`: walk away from the agent with this name for the goal's time.
    FleeAgent(String),
    /// `flowStaticDirection` / `flowDynamicDirection`: walk along a unit direction for the
    /// goal's time.
    Flow(Vec2),
    /// `idle`: stand for the goal's time.
    Idle,
}

impl GoalKind {
    /// Whether the goal is met by getting somewhere (else by its time passing).
    pub fn is_destination(&self) -> bool {
        matches!(
            self,
            GoalKind::Seek(_) | GoalKind::Region(..) | GoalKind::SeekAgent(_)
        )
    }

    /// The point the agent walks to for a destination goal (a region's centre), if fixed.
    pub fn point(&self) -> Option<Vec2> {
        match *self {
            GoalKind::Seek(p) => Some(p),
            GoalKind::Region(lo, hi) => Some(0.5 * (lo + hi)),
            _ => None,
        }
    }
}

/// One goal of a sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// What it asks.
    pub kind: GoalKind,
    /// Seconds the agent gives it (`timeDuration`): a destination not reached by then is
    /// missed and the agent takes its next goal; any other goal ends then.
    pub duration: f32,
    /// Walking speed for this goal (`desiredSpeed`), if given.
    pub speed: Option<f32>,
}

/// An agent to place (or to emit).
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    /// Its name (`name`), for dynamic targets.
    pub name: Option<String>,
    /// Start on the XZ plane.
    pub position: Vec2,
    /// Facing (Unity yaw: 0 faces +Z).
    pub yaw: f32,
    /// Body radius.
    pub radius: f32,
    /// Walking speed.
    pub speed: f32,
    /// Goals in order.
    pub goals: Vec<Goal>,
    /// Straight-line length of the walk from the start through every fixed goal point, for
    /// time-to-goal ratios (0 when it has no fixed destination).
    pub ideal_length: f32,
    /// Seconds after its start by which it must reach its final goal (generated scenes:
    /// 4 × ideal + 20 s); `None`: only its goals' own times.
    pub deadline: Option<f32>,
}

impl AgentSpec {
    /// Fills in [`Self::ideal_length`] from the start and the fixed goal points.
    pub fn with_ideal_length(mut self) -> Self {
        let mut from = self.position;
        let mut len = 0.0;
        for g in &self.goals {
            if let Some(p) = g.kind.point() {
                len += from.distance(p);
                from = p;
            }
        }
        self.ideal_length = len;
        self
    }
}

/// An `<agentEmitter>`: places a copy of `agent` at its position whenever the spot is free and
/// `interval` seconds have passed since the last, until it has emitted `count`.
#[derive(Clone, Debug, PartialEq)]
pub struct EmitterSpec {
    /// The agent it emits (its position is the emitter's).
    pub agent: AgentSpec,
    /// Seconds between two emissions.
    pub interval: f32,
    /// How many it emits in all.
    pub count: usize,
    /// Seconds into the run of the first emission.
    pub start: f32,
}

/// A scene to run.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Its name (file stem, or generated kind and seed).
    pub name: String,
    /// World bounds (min, max) on the XZ plane.
    pub world: (Vec2, Vec2),
    /// Static obstacles.
    pub obstacles: Vec<Obstacle>,
    /// Agents present from the start.
    pub agents: Vec<AgentSpec>,
    /// Emitters.
    pub emitters: Vec<EmitterSpec>,
    /// Simulated seconds to run at most.
    pub time_limit: f32,
}

impl Scene {
    /// Agents the scene ever holds: placed plus emitted.
    pub fn total_agents(&self) -> usize {
        self.agents.len() + self.emitters.iter().map(|e| e.count).sum::<usize>()
    }
}
