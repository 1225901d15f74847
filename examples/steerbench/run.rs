//! Plays a [`Scene`]: builds a crowd sized to it, places its agents, steps it while the
//! emitters place theirs and the goal program moves every agent along its sequence, until
//! every agent has ended its sequence or the time is up.

use std::time::Instant;

use glam::Vec2;
use wayfarer::crowd::{Crowd, RouteMode, MAX_CAPACITY};

use super::emitter::Emitters;
use super::metrics::{Measures, ObstacleCells};
use super::program::{Arrival, Program};
use super::scene::Scene;

/// How to run a scene.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Step, seconds.
    pub dt: f32,
    /// Threads for the step.
    pub threads: usize,
    /// What agents do at the end of their sequence.
    pub arrival: Arrival,
    /// Simulated seconds at most (the scene's own limit if lower).
    pub max_time: f32,
}

/// A finished run.
pub struct Played {
    /// The goal program as it ended (every agent's outcomes).
    pub program: Program,
    /// The measures.
    pub measures: Measures,
    /// The crowd as it ended (agents still in it, obstacles).
    pub crowd: Crowd,
    /// Every agent's positions every fifth step, when traced.
    pub trace: Vec<Vec<Vec2>>,
}

/// Builds the crowd for `scene`: room for every agent it will hold and every obstacle.
pub fn build(scene: &Scene) -> Result<Crowd, String> {
    let agents = scene.total_agents();
    let obstacles = scene.obstacles.len();
    let capacity = agents.max(obstacles).max(1);
    if capacity > MAX_CAPACITY {
        let what = if agents >= obstacles {
            format!("{agents} agents (placed and emitted)")
        } else {
            format!("{obstacles} obstacles")
        };
        return Err(format!(
            "{what}: more than the crowd's limit of {MAX_CAPACITY}"
        ));
    }
    let mut crowd = Crowd::new(capacity).map_err(|e| format!("crowd of {capacity}: {e}"))?;
    let mut d = crowd.agent_defaults();
    d.route_mode = RouteMode::Planned;
    crowd.set_agent_defaults(d).map_err(|e| e.to_string())?;
    for (k, o) in scene.obstacles.iter().enumerate() {
        crowd
            .add_obstacle(*o)
            .map_err(|e| format!("obstacle #{k} {o:?}: {e} (room for {capacity})"))?;
    }
    Ok(crowd)
}

/// Runs `scene`; with `trace`, records positions for a picture.
pub fn play(scene: &Scene, s: Settings, trace: bool) -> Result<Played, String> {
    let mut crowd = build(scene)?;
    let mut program = Program::new(s.arrival, scene.world);
    for a in &scene.agents {
        program.spawn(&mut crowd, a, 0.0)?;
    }
    let mut emitters = Emitters::new(&scene.emitters);
    let cells = ObstacleCells::new(&scene.obstacles);
    let mut m = Measures::default();
    let mut paths: Vec<Vec<Vec2>> = Vec::new();
    let limit = scene.time_limit.min(s.max_time);
    let mut now = 0.0f32;
    emitters.emit(&mut crowd, &mut program, now)?;
    while now < limit && !(emitters.done() && program.all_finished()) {
        let t0 = Instant::now();
        crowd
            .step(s.dt, s.threads)
            .map_err(|e| format!("step at {now:.1} s: {e}"))?;
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        now += s.dt;
        program.update(&mut crowd, now)?;
        m.observe(&crowd, &program, &cells, s.dt, ms);
        emitters.emit(&mut crowd, &mut program, now)?;
        if trace && m.steps % 5 == 1 {
            paths.resize(program.walkers.len(), Vec::new());
            for (k, w) in program.walkers.iter().enumerate() {
                if w.id.is_some() {
                    paths[k].push(w.position);
                }
            }
        }
    }
    m.bodies.resize(program.walkers.len(), Default::default());
    Ok(Played {
        program,
        measures: m,
        crowd,
        trace: paths,
    })
}
