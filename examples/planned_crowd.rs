//! Steps the speed benchmark's scene ([`Scenario::benchmark`]) with every agent planning its
//! route to a goal of its own, and prints, now and then, the step time, the planner's work
//! (fields computed, paths searched by agents waiting for a field) and
//! how many agents arrived:
//! `cargo run --release --example planned_crowd -- [agents] [steps] [budget] [walls|direct]`
//! (defaults 1000, 1500, 4). `walls` adds two walls across the field, each with three 3 m
//! gaps, so that straight lines fail; `direct` has the agents walk straight instead of
//! planning, for comparison; `sparse` keeps one agent in ten (lone walkers among the
//! obstacles of the full scene), `sparse-direct` the same walking straight.

use std::time::Instant;

use glam::Vec3;
use wayfarer::crowd::scenario::Scenario;
use wayfarer::crowd::{AgentState, Obstacle, RouteMode};

#[path = "common/args.rs"]
mod args;
use args::arg;

fn main() {
    let (n, steps, budget) = (arg(1, 1000), arg(2, 1500).max(1), arg(3, 4));
    let mode = std::env::args().nth(4);
    let mut s = Scenario::benchmark(n);
    if mode.as_deref() == Some("walls") {
        let half = (n as f32 * 16.0).sqrt() / 2.0;
        let wall = |a: f32, b: f32, z: f32| Obstacle::Wall {
            a: Vec3::new(a, 0.0, z),
            b: Vec3::new(b, 0.0, z),
        };
        for z in [-half / 2.0, half / 2.0] {
            let mut x = -half - 2.0;
            for gap in [-half / 2.0, 0.0, half / 2.0] {
                s.crowd.add_obstacle(wall(x, gap - 1.5, z)).unwrap();
                x = gap + 1.5;
            }
            s.crowd.add_obstacle(wall(x, half + 2.0, z)).unwrap();
        }
    }
    let sparse = matches!(mode.as_deref(), Some("sparse" | "sparse-direct"));
    if sparse {
        // One agent in ten kept: lone walkers, each with a goal of its own, among the
        // obstacles of a crowd ten times larger.
        for (i, &a) in s.agents.iter().enumerate() {
            if i % 10 != 0 {
                s.crowd.remove_agent(a).unwrap();
            }
        }
        s.agents = s.agents.iter().step_by(10).copied().collect();
        s.ideal = s.ideal.iter().step_by(10).copied().collect();
    }
    if !matches!(mode.as_deref(), Some("direct" | "sparse-direct")) {
        for &a in &s.agents {
            s.crowd.set_route_mode(a, RouteMode::Planned).unwrap();
        }
    }
    s.crowd
        .set_route_budget(budget)
        .expect("a budget in 1..=64");
    let mut total = 0.0;
    for i in 0..steps {
        let t = Instant::now();
        s.crowd.step(0.1, 1).unwrap();
        let ms = t.elapsed().as_secs_f64() * 1e3;
        total += ms;
        if i % (steps / 10).max(1) == 0 || i == steps - 1 {
            let p = s.crowd.planner();
            let arrived = s
                .crowd
                .agents()
                .filter(|(_, a)| a.state() == AgentState::Arrived)
                .count();
            println!(
                "step {i}: {ms:.2} ms (mean {:.2} ms), fields computed {}, paths searched {}, arrived {arrived}",
                total / (i + 1) as f64,
                p.fields_computed(),
                p.paths_searched(),
            );
        }
    }
}
