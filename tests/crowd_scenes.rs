//! Quality goals on the built-in scenes, measured by brute force in f64 (see
//! `wayfarer::crowd::scenario`): everyone arrives, nobody enters an obstacle, agents overlap by
//! at most 5 % of a radius, the turn-rate cap holds, and the circles finish fast.

use glam::{Vec2, Vec3};
use wayfarer::crowd::scenario::{Report, Scenario};
use wayfarer::crowd::{AgentState, Obstacle};

fn check_common(name: &str, r: &Report) {
    // The README's quality table comes from this line:
    // cargo test --release --test crowd_scenes -- --nocapture --test-threads 1
    println!(
        "{name}: arrived {:.1} %, p95 {:.2} x ideal, deepest overlap {:.2} % r, obstacle \
         penetrations {}, fastest turn {:.4} x cap",
        r.arrived * 100.0,
        r.p95_ratio,
        r.max_agent_penetration * 100.0,
        r.obstacle_penetrations,
        r.max_turn_ratio
    );
    assert_eq!(r.arrived, 1.0, "{name}: not everyone arrived: {r:?}");
    assert_eq!(
        r.obstacle_penetrations, 0,
        "{name}: agents entered obstacles"
    );
    assert!(
        r.max_obstacle_penetration <= 1e-3,
        "{name}: obstacle penetration {}",
        r.max_obstacle_penetration
    );
    assert!(
        r.max_agent_penetration <= 0.05,
        "{name}: agent penetration {} of a radius",
        r.max_agent_penetration
    );
    assert!(
        r.max_turn_ratio <= 1.0 + 1e-4,
        "{name}: turned faster than allowed ({}×)",
        r.max_turn_ratio
    );
}

#[test]
fn circle_250_like_rvo2_arrives_within_one_and_a_half_ideal() {
    // RVO2's Circle example: 250 agents of radius 1.5 on a 200 m circle at 2 m/s.
    let mut s = Scenario::circle(250, 200.0, 1.5, 2.0);
    let r = s.run(1000.0, 2, None);
    check_common("circle-250", &r);
    assert!(r.p95_ratio <= 1.5, "p95 arrival {} × ideal", r.p95_ratio);
}

#[test]
fn symmetric_circle_100_does_not_deadlock() {
    let mut s = Scenario::circle(100, 50.0, 0.5, 1.3);
    let r = s.run(500.0, 1, None);
    check_common("circle-100", &r);
    let worst = r
        .arrival
        .iter()
        .zip(&s.ideal)
        .map(|(a, i)| a.unwrap() / i)
        .fold(0.0f32, f32::max);
    assert!(worst <= 2.0, "slowest agent took {worst} × ideal");
}

#[test]
fn crossing_flows() {
    let mut s = Scenario::crossing(50);
    let r = s.run(300.0, 1, None);
    check_common("crossing", &r);
}

#[test]
fn bottleneck_doorway() {
    let mut s = Scenario::bottleneck(60, 1.6);
    let r = s.run(300.0, 1, None);
    check_common("bottleneck", &r);
}

#[test]
fn two_way_hallway() {
    let mut s = Scenario::hallway(30, 4.0);
    let r = s.run(300.0, 1, None);
    check_common("hallway", &r);
}

#[test]
fn random_obstacle_field() {
    for seed in [7, 11] {
        let mut s = Scenario::obstacle_field(40, 40, seed);
        let r = s.run(300.0, 1, None);
        check_common(&format!("obstacle-field seed {seed}"), &r);
    }
}

#[test]
fn a_route_cache_of_four_still_gets_everyone_through_the_obstacle_field() {
    // ~20 distinct goal blocks share a cache of 4 fields: it thrashes, but agents waiting for
    // a field search ways of their own, so every goal is still met, about as soon as with
    // every field cached.
    let mut free = Scenario::obstacle_field(40, 40, 7);
    let mut small = free.clone();
    small.crowd.set_route_cache(4).unwrap();
    let mut small2 = small.clone();
    let rf = free.run(300.0, 1, None);
    let rs = small.run(300.0, 1, None);
    check_common("obstacle-field seed 7, route cache 4", &rs);
    let (pf, ps) = (free.crowd.planner(), small.crowd.planner());
    println!(
        "route cache 512: {} fields computed, {} cached ({} KiB), {} paths searched, last \
         arrival {:.1} s; route cache 4: {} computed, {} cached ({} KiB), {} searched, last \
         arrival {:.1} s",
        pf.fields_computed(),
        pf.fields_cached(),
        pf.field_bytes() / 1024,
        pf.paths_searched(),
        rf.time,
        ps.fields_computed(),
        ps.fields_cached(),
        ps.field_bytes() / 1024,
        ps.paths_searched(),
        rs.time
    );
    assert!(ps.fields_cached() <= 4);
    assert!(ps.field_bytes() <= 4 * ps.cells() * 4);
    assert!(ps.fields_computed() > pf.fields_computed());
    assert!(ps.paths_searched() > pf.paths_searched());
    assert!(
        rs.time <= 1.1 * rf.time,
        "searching while the cache thrashes: {} s against {} s",
        rs.time,
        rf.time
    );
    // Still deterministic and independent of the thread count.
    assert_eq!(small2.run(300.0, 2, None), rs);
}

#[test]
fn planned_agents_get_through_the_obstacle_field_round_a_moving_disc() {
    // A 2 m disc slides to and fro through the middle at up to 1 m/s, moved (removed and
    // added) before every step: the planner updates its grid locally and repairs the routes
    // it touched. Everyone still arrives, no agent ends a step inside an obstacle, fields are
    // repaired (not computed again) and the run is the same on two threads.
    fn run(threads: usize) -> (Vec<Option<f32>>, u64, u64, Vec<u32>) {
        let mut s = Scenario::obstacle_field(40, 60, 5);
        let disc = |t: f32| Obstacle::Circle {
            center: Vec3::new(3.0 * (t / 3.0).sin(), 0.0, 0.0),
            radius: 1.0,
        };
        let mut id = s.crowd.add_obstacle(disc(0.0)).unwrap();
        let mut arrival = vec![None; s.agents.len()];
        let mut t = 0.0f32;
        while t < 120.0 && arrival.iter().any(Option::is_none) {
            s.crowd.remove_obstacle(id).unwrap();
            id = s.crowd.add_obstacle(disc(t)).unwrap();
            s.crowd.step(s.dt, threads).unwrap();
            t += s.dt;
            let shapes: Vec<_> = s.crowd.obstacles().filter_map(|(_, o)| o.shape()).collect();
            for (i, &a) in s.agents.iter().enumerate() {
                let a = s.crowd.agent(a).unwrap();
                if a.state() == AgentState::Arrived {
                    arrival[i].get_or_insert(t);
                }
                let p = Vec2::new(a.position.x, a.position.z);
                for sh in &shapes {
                    let gap = sh.contact(p).distance - a.radius;
                    assert!(
                        gap > -1e-3,
                        "agent {i} {gap} m into an obstacle at {t:.1} s"
                    );
                }
            }
        }
        let p = s.crowd.planner();
        let bits = s
            .agents
            .iter()
            .flat_map(|&a| {
                let q = s.crowd.agent(a).unwrap().position;
                [q.x.to_bits(), q.z.to_bits()]
            })
            .collect();
        (arrival, p.fields_computed(), p.fields_repaired(), bits)
    }
    let (arrival, computed, repaired, bits) = run(1);
    let last = arrival
        .iter()
        .map(|a| a.expect("every agent arrives"))
        .fold(0.0, f32::max);
    println!("last arrival {last:.1} s, {computed} fields computed, {repaired} repaired");
    assert!(last < 70.0, "last arrival {last} s");
    // (~20 goal blocks: each field computed once, then only repaired.)
    assert!(computed <= 30, "{computed} fields computed");
    assert!(repaired > 500, "{repaired} fields repaired");
    assert_eq!(run(2).3, bits);
}
