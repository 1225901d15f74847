//! Baking the planner's grid at load (`Crowd::bake_routes`): the first step then routes at
//! once, and nothing else changes.

use wayfarer::crowd::scenario::Scenario;
use wayfarer::crowd::{AgentState, RouteMode};

/// The speed benchmark's scene with `n` agents, every one planning its route.
fn planned(n: usize) -> Scenario {
    let mut s = Scenario::benchmark(n);
    for &a in &s.agents {
        s.crowd.set_route_mode(a, RouteMode::Planned).unwrap();
    }
    s
}

/// Every agent's position, yaw and state, as bits.
fn bits(s: &Scenario) -> Vec<(u32, u32, u32, AgentState)> {
    s.crowd
        .agents()
        .map(|(_, a)| {
            let p = a.position;
            (p.x.to_bits(), p.z.to_bits(), a.yaw.to_bits(), a.state())
        })
        .collect()
}

#[test]
fn a_crowd_baked_before_its_first_step_moves_with_the_same_bits() {
    let (mut baked, mut plain) = (planned(600), planned(600));
    assert_eq!(baked.crowd.planner().cells(), 0, "no grid before the bake");
    baked.crowd.bake_routes();
    let cells = baked.crowd.planner().cells();
    assert!(cells > 0);
    // (Baked again with nothing changed: nothing to do.)
    baked.crowd.bake_routes();
    assert_eq!(baked.crowd.planner().cells(), cells);
    for step in 0..80 {
        baked.crowd.step(0.1, 1).unwrap();
        plain.crowd.step(0.1, 1).unwrap();
        assert_eq!(bits(&baked), bits(&plain), "step {step}");
    }
    let (b, p) = (baked.crowd.planner(), plain.crowd.planner());
    assert_eq!(
        (b.fields_computed(), b.paths_searched()),
        (p.fields_computed(), p.paths_searched())
    );
    assert_eq!(b.cells(), cells);
}
