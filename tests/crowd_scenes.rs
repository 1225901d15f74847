//! Quality goals on the built-in scenes, measured by brute force in f64 (see
//! `wayfarer::crowd::scenario`): everyone arrives, nobody enters an obstacle, agents overlap by
//! at most 5 % of a radius, the turn-rate cap holds, and the circles finish fast.

use wayfarer::crowd::scenario::{Report, Scenario};

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
    // ~20 distinct goal blocks share a cache of 4 fields: it thrashes (agents walk straight
    // while they wait for a field) but every goal is still met.
    let mut free = Scenario::obstacle_field(40, 40, 7);
    let mut small = free.clone();
    small.crowd.set_route_cache(4).unwrap();
    let mut small2 = small.clone();
    let rf = free.run(300.0, 1, None);
    let rs = small.run(300.0, 1, None);
    check_common("obstacle-field seed 7, route cache 4", &rs);
    let (pf, ps) = (free.crowd.planner(), small.crowd.planner());
    println!(
        "route cache 512: {} fields computed, {} cached ({} KiB), last arrival {:.1} s; \
         route cache 4: {} computed, {} cached ({} KiB), last arrival {:.1} s",
        pf.fields_computed(),
        pf.fields_cached(),
        pf.field_bytes() / 1024,
        rf.time,
        ps.fields_computed(),
        ps.fields_cached(),
        ps.field_bytes() / 1024,
        rs.time
    );
    assert!(ps.fields_cached() <= 4);
    assert!(ps.field_bytes() <= 4 * ps.cells() * 4);
    assert!(ps.fields_computed() > pf.fields_computed());
    assert!(
        rs.time >= rf.time,
        "the thrashing cache should not be faster"
    );
    // Still deterministic and independent of the thread count.
    assert_eq!(small2.run(300.0, 2, None), rs);
}
