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

#[cfg(test)]
mod tests {
    use super::{play, Settings};
    use crate::program::{Arrival, Outcome};
    use crate::scene::{AgentSpec, Goal, GoalKind, Scene};
    use glam::Vec2;

    fn scene(goals: Vec<Goal>) -> Scene {
        Scene {
            name: "t".into(),
            world: (Vec2::splat(-30.0), Vec2::splat(30.0)),
            obstacles: Vec::new(),
            agents: vec![AgentSpec {
                name: None,
                position: Vec2::ZERO,
                yaw: 0.0,
                radius: 0.4,
                speed: 1.5,
                goals,
                ideal_length: 0.0,
                deadline: None,
            }
            .with_ideal_length()],
            emitters: Vec::new(),
            time_limit: 100.0,
        }
    }

    fn goal(kind: GoalKind, duration: f32) -> Goal {
        Goal {
            kind,
            duration,
            speed: None,
        }
    }

    fn settings(arrival: Arrival) -> Settings {
        Settings {
            dt: 0.1,
            threads: 1,
            arrival,
            max_time: 100.0,
        }
    }

    #[test]
    fn goals_are_walked_in_order_and_the_agent_leaves_at_the_last() {
        let s = scene(vec![
            goal(GoalKind::Seek(Vec2::new(0.0, 5.0)), 100.0),
            goal(GoalKind::Idle, 1.0),
            goal(GoalKind::Seek(Vec2::new(5.0, 5.0)), 100.0),
        ]);
        let p = play(&s, settings(Arrival::Despawn), false).unwrap();
        let w = &p.program.walkers[0];
        assert!(matches!(
            w.outcomes[..],
            [Outcome::Reached(a), Outcome::Timed, Outcome::Reached(b)] if a < b
        ));
        assert!(w.finished.is_some() && w.id.is_none());
        assert_eq!(p.crowd.agent_count(), 0);
        assert!(w.position.distance(Vec2::new(5.0, 5.0)) <= 0.4 + 1e-3);
        // --stay: it stays where it arrived.
        let p = play(&s, settings(Arrival::Stay), false).unwrap();
        assert_eq!(p.crowd.agent_count(), 1);
    }

    #[test]
    fn a_goal_whose_time_passes_is_missed_and_the_next_taken() {
        let s = scene(vec![
            goal(GoalKind::Seek(Vec2::new(0.0, 25.0)), 2.0),
            goal(GoalKind::Flow(Vec2::new(1.0, 0.0)), 2.0),
            goal(
                GoalKind::Region(Vec2::new(-2.0, -2.0), Vec2::new(2.0, 2.0)),
                100.0,
            ),
        ]);
        let p = play(&s, settings(Arrival::Despawn), false).unwrap();
        let w = &p.program.walkers[0];
        assert_eq!(w.outcomes[..2], [Outcome::Missed, Outcome::Timed]);
        assert!(matches!(w.outcomes[2], Outcome::Reached(_)));
        // After 2 s north and 2 s east, back inside the region.
        assert!(w.position.abs().max_element() <= 2.0);
    }

    #[test]
    fn emitters_place_their_agents_and_the_crowd_holds_every_obstacle() {
        let mut s = scene(vec![goal(GoalKind::Seek(Vec2::new(0.0, 4.0)), 100.0)]);
        s.emitters.push(crate::scene::EmitterSpec {
            agent: s.agents.pop().unwrap(),
            interval: 1.0,
            count: 3,
            start: 0.0,
        });
        // 3 000 obstacles and no agent placed at the start (the old sizing held 1 024).
        s.obstacles = (0..3000)
            .map(|k| {
                let c = glam::Vec3::new(
                    -29.0 + (k % 60) as f32 * 0.2,
                    0.0,
                    20.0 + (k / 60) as f32 * 0.15,
                );
                wayfarer::crowd::Obstacle::Circle {
                    center: c,
                    radius: 0.05,
                }
            })
            .collect();
        let p = play(&s, settings(Arrival::Despawn), false).unwrap();
        assert!(p.crowd.capacity() >= 3000);
        assert_eq!(p.crowd.obstacles().count(), 3000);
        assert_eq!(p.program.walkers.len(), 3);
        let t: Vec<f32> = p.program.walkers.iter().map(|w| w.spawned).collect();
        assert!(t[0] < t[1] && t[1] < t[2], "{t:?}");
        assert!(p
            .program
            .walkers
            .iter()
            .all(|w| matches!(w.outcomes[..], [Outcome::Reached(_)])));
    }
}
