//! A 2 m disc sliding to and fro at up to 1 m/s through the obstacle field's 40 planned
//! agents, moved (removed and added) before every step: prints when the agents arrive, how
//! many distance fields the planner computed and repaired, and the wall time of the run.
//! `cargo run --release --example moving_obstacle -- [seed] [still]` (default seed 5; a
//! second argument leaves the disc standing, for the cost of the plain steps).

use std::time::Instant;

use glam::Vec3;
use wayfarer::crowd::scenario::Scenario;
use wayfarer::crowd::{AgentState, Obstacle};

fn main() {
    let seed = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("a whole number"))
        .unwrap_or(5);
    let still = std::env::args().nth(2).is_some();
    let mut s = Scenario::obstacle_field(40, 60, seed);
    let disc = |t: f32| Obstacle::Circle {
        center: Vec3::new(3.0 * (t / 3.0).sin(), 0.0, 0.0),
        radius: 1.0,
    };
    let mut id = s.crowd.add_obstacle(disc(0.0)).expect("valid disc");
    let mut arrival = vec![None; s.agents.len()];
    let (mut t, mut steps) = (0.0f32, 0);
    let clock = Instant::now();
    while t < 120.0 && arrival.iter().any(Option::is_none) {
        if !still {
            s.crowd.remove_obstacle(id).expect("live disc");
            id = s.crowd.add_obstacle(disc(t)).expect("valid disc");
        }
        s.crowd.step(s.dt, 1).expect("valid step");
        t += s.dt;
        steps += 1;
        for (i, &a) in s.agents.iter().enumerate() {
            if s.crowd.agent(a).expect("live agent").state() == AgentState::Arrived {
                arrival[i].get_or_insert(t);
            }
        }
    }
    let ms = clock.elapsed().as_secs_f64() * 1e3;
    let done: Vec<f32> = arrival.iter().flatten().copied().collect();
    let p = s.crowd.planner();
    println!(
        "seed {seed}{}: {}/{} arrived, last at {:.1} s, mean {:.1} s; fields computed {}, \
         repaired {}; {steps} steps in {ms:.0} ms ({:.2} ms per step)",
        if still { " (disc still)" } else { "" },
        done.len(),
        arrival.len(),
        done.iter().fold(0.0f32, |m, &x| m.max(x)),
        done.iter().sum::<f32>() / done.len().max(1) as f32,
        p.fields_computed(),
        p.fields_repaired(),
        ms / steps as f64
    );
}
