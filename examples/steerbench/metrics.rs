//! What a run measures step by step: agent–agent and agent–obstacle overlaps (collisions
//! deeper than 1 mm counted once per pair and episode, and the deepest of each), each agent's
//! blocked time and longest blocked spell, its path length, Σ|Δv| and least-effort energy
//! ∫(2.23 + 1.26·|v|²)dt (Guy et al. 2010), how often it zig-zags (reverses a turn of more than
//! half its turn-rate cap two steps running, per step on its way), and the step's wall time.

use std::collections::{HashMap, HashSet};

use glam::Vec2;
use wayfarer::crowd::obstacle::Shape;
use wayfarer::crowd::{AgentState, Crowd, Obstacle};

use super::program::Program;

/// Overlaps shallower than this (metres) are not collisions.
const TOLERANCE: f32 = 1e-3;
/// Side of the cells obstacles are listed in, metres.
const CELL: f32 = 4.0;
/// An agent blocked this long without a break is in gridlock, seconds.
pub const GRIDLOCK: f32 = 60.0;

/// Per agent (in order of appearance), what the steps measured.
#[derive(Clone, Debug, Default)]
pub struct Body {
    /// Seconds spent blocked.
    pub blocked: f32,
    /// Longest unbroken blocked spell, seconds.
    pub longest_blocked: f32,
    /// The current blocked spell.
    spell: f32,
    /// Distance walked.
    pub path: f32,
    /// Deepest overlap with another agent, fraction of the smaller radius.
    pub deepest_agent: f32,
    /// Deepest overlap with an obstacle, metres.
    pub deepest_obstacle: f32,
    /// Σ|Δv| over its steps, m/s.
    pub sum_dv: f32,
    /// Least-effort energy spent, J/kg.
    pub energy: f32,
    /// Steps on its way, and zig-zags among them.
    pub walking: usize,
    /// Zig-zags (see the module doc).
    pub zig_zags: usize,
    last: Option<Vec2>,
    velocity: Vec2,
    yaw: f32,
    turn: f32,
}

/// A run's measures.
#[derive(Debug, Default)]
pub struct Measures {
    /// Per agent, in order of appearance.
    pub bodies: Vec<Body>,
    /// Agent–agent collisions (pairs newly overlapping).
    pub agent_collisions: usize,
    /// Agent–obstacle collisions.
    pub obstacle_collisions: usize,
    /// Deepest agent–agent overlap, fraction of the smaller radius.
    pub deepest_agent: f32,
    /// Deepest agent–obstacle overlap, metres.
    pub deepest_obstacle: f32,
    /// Steps taken.
    pub steps: usize,
    /// Total and longest wall time of `Crowd::step`, milliseconds.
    pub step_ms: f64,
    /// The longest step, milliseconds.
    pub max_step_ms: f64,
    /// Simulated seconds.
    pub simulated: f32,
    /// Most agents in the world at once.
    pub peak_agents: usize,
    pairs: HashSet<(usize, usize)>,
    touching: HashSet<(usize, usize)>,
}

/// Obstacles listed per cell, for the overlap checks.
pub struct ObstacleCells {
    shapes: Vec<Shape>,
    cells: HashMap<(i32, i32), Vec<usize>>,
}

fn cell_of(p: Vec2, size: f32) -> (i32, i32) {
    ((p.x / size).floor() as i32, (p.y / size).floor() as i32)
}

impl ObstacleCells {
    /// Lists `obstacles` in the cells their bounds reach.
    pub fn new(obstacles: &[Obstacle]) -> Self {
        let shapes: Vec<Shape> = obstacles.iter().filter_map(Obstacle::shape).collect();
        let mut cells: HashMap<(i32, i32), Vec<usize>> = HashMap::new();
        for (i, s) in shapes.iter().enumerate() {
            let (lo, hi) = (
                cell_of(s.center - s.extent(), CELL),
                cell_of(s.center + s.extent(), CELL),
            );
            for x in lo.0..=hi.0 {
                for z in lo.1..=hi.1 {
                    cells.entry((x, z)).or_default().push(i);
                }
            }
        }
        Self { shapes, cells }
    }

    /// Each obstacle overlapping the disc at `p` of radius `r` (≤ `CELL`), with the depth.
    fn overlaps(&self, p: Vec2, r: f32, out: &mut Vec<(usize, f32)>) {
        out.clear();
        let c = cell_of(p, CELL);
        for dx in -1..=1 {
            for dz in -1..=1 {
                for &o in self.cells.get(&(c.0 + dx, c.1 + dz)).into_iter().flatten() {
                    let depth = r - self.shapes[o].contact(p).distance;
                    if depth > TOLERANCE && !out.iter().any(|&(q, _)| q == o) {
                        out.push((o, depth));
                    }
                }
            }
        }
    }
}

impl Measures {
    /// Records the world after a step that took `ms` milliseconds of `dt` seconds.
    pub fn observe(
        &mut self,
        crowd: &Crowd,
        program: &Program,
        cells: &ObstacleCells,
        dt: f32,
        ms: f64,
    ) {
        self.steps += 1;
        self.step_ms += ms;
        self.max_step_ms = self.max_step_ms.max(ms);
        self.simulated += dt;
        self.bodies.resize(program.walkers.len(), Body::default());
        let mut live: Vec<(usize, Vec2, f32)> = Vec::with_capacity(program.walkers.len());
        for (k, w) in program.walkers.iter().enumerate() {
            let Some(id) = w.id else { continue };
            let Ok(a) = crowd.agent(id) else { continue };
            let p = Vec2::new(a.position.x, a.position.z);
            let b = &mut self.bodies[k];
            if let Some(q) = b.last {
                b.path += p.distance(q);
                let v = (p - q) / dt;
                b.sum_dv += (v - b.velocity).length();
                b.energy += (2.23 + 1.26 * v.length_squared()) * dt;
                b.velocity = v;
                let turn = (a.yaw - b.yaw + core::f32::consts::PI)
                    .rem_euclid(core::f32::consts::TAU)
                    - core::f32::consts::PI;
                let half_cap = 0.5 * a.max_turn_rate * dt;
                if a.state() != AgentState::Arrived {
                    b.walking += 1;
                    if turn * b.turn < 0.0 && turn.abs() > half_cap && b.turn.abs() > half_cap {
                        b.zig_zags += 1;
                    }
                }
                b.turn = turn;
            }
            b.yaw = a.yaw;
            b.last = Some(p);
            if a.state() == AgentState::Blocked && w.finished.is_none() {
                b.blocked += dt;
                b.spell += dt;
                b.longest_blocked = b.longest_blocked.max(b.spell);
            } else {
                b.spell = 0.0;
            }
            live.push((k, p, a.radius));
        }
        self.peak_agents = self.peak_agents.max(live.len());
        self.agent_overlaps(&live);
        let mut touching = HashSet::new();
        let mut found = Vec::new();
        for &(k, p, r) in &live {
            cells.overlaps(p, r, &mut found);
            for &(o, depth) in &found {
                self.deepest_obstacle = self.deepest_obstacle.max(depth);
                let b = &mut self.bodies[k];
                b.deepest_obstacle = b.deepest_obstacle.max(depth);
                if !self.touching.contains(&(k, o)) {
                    self.obstacle_collisions += 1;
                }
                touching.insert((k, o));
            }
        }
        self.touching = touching;
    }

    /// Agent–agent overlaps among `live` (index, position, radius), by a grid of cells as
    /// wide as the largest body.
    fn agent_overlaps(&mut self, live: &[(usize, Vec2, f32)]) {
        let size = 2.0 * live.iter().map(|l| l.2).fold(0.05f32, f32::max);
        let mut grid: HashMap<(i32, i32), Vec<usize>> = HashMap::new();
        for (i, l) in live.iter().enumerate() {
            grid.entry(cell_of(l.1, size)).or_default().push(i);
        }
        let mut pairs = HashSet::new();
        for (i, &(ki, pi, ri)) in live.iter().enumerate() {
            let c = cell_of(pi, size);
            for dx in -1..=1 {
                for dz in -1..=1 {
                    for &j in grid.get(&(c.0 + dx, c.1 + dz)).into_iter().flatten() {
                        let (kj, pj, rj) = live[j];
                        if j <= i {
                            continue;
                        }
                        let depth = ri + rj - pi.distance(pj);
                        if depth > TOLERANCE {
                            let f = depth / ri.min(rj);
                            self.deepest_agent = self.deepest_agent.max(f);
                            for k in [ki, kj] {
                                let b = &mut self.bodies[k];
                                b.deepest_agent = b.deepest_agent.max(f);
                            }
                            let key = (ki.min(kj), ki.max(kj));
                            if !self.pairs.contains(&key) {
                                self.agent_collisions += 1;
                            }
                            pairs.insert(key);
                        }
                    }
                }
            }
        }
        self.pairs = pairs;
    }

    /// Mean wall time of a step, milliseconds.
    pub fn mean_step_ms(&self) -> f64 {
        self.step_ms / self.steps.max(1) as f64
    }
}
