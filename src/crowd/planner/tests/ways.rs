//! Ways of an agent's own: kept while the goal is the agent's alone, fields for shared goals.

use super::*;
use crate::crowd::{AgentId, AgentState, Obstacle, RouteMode};
use glam::Vec3;

/// A wall along x = 0 from z = −30 to 30 (1 m thick) with a 2 m door centred on z = 10, and
/// planned agents of radius 0.3 at `starts`, each with its target.
fn walled(agents: &[(Vec2, Vec2)]) -> (Crowd, Vec<AgentId>) {
    let mut c = Crowd::new(8).unwrap();
    let mut d = c.agent_defaults();
    d.route_mode = RouteMode::Planned;
    c.set_agent_defaults(d).unwrap();
    for (lo, hi) in [(11.0, 30.0), (-30.0, 9.0)] {
        let (min, max) = (Vec3::new(-0.5, 0.0, lo), Vec3::new(0.5, 0.0, hi));
        c.add_obstacle(Obstacle::Box { min, max }).unwrap();
    }
    let ids = agents
        .iter()
        .map(|&(from, to)| {
            let id = c
                .add_agent(Vec3::new(from.x, 0.0, from.y), 0.0, 1.3, 0.3)
                .unwrap();
            c.set_target(id, Vec3::new(to.x, 0.0, to.y), 0.3).unwrap();
            id
        })
        .collect();
    (c, ids)
}

/// Steps until every agent has arrived (at most 120 s); the seconds that took.
fn arrive(c: &mut Crowd) -> f32 {
    for k in 1..=1200 {
        c.step(0.1, 1).unwrap();
        if c.agents().all(|(_, a)| a.state() == AgentState::Arrived) {
            return k as f32 * 0.1;
        }
    }
    panic!("not every agent arrived in 120 s");
}

#[test]
fn an_agent_with_a_goal_of_its_own_keeps_its_way_and_computes_no_field() {
    // From (−20, 0) to (20, 0) through the door at z = 10: a way of its own, kept to the door
    // and beyond (no field: a field would search the grid as far as this one agent).
    let (mut c, ids) = walled(&[(Vec2::new(-20.0, 0.0), Vec2::new(20.0, 0.0))]);
    c.step(0.1, 1).unwrap();
    assert!(
        c.planner()
            .ways
            .holds(ids[0].0 & crate::crowd::slots::SLOT_MASK),
        "a way is kept"
    );
    let t = arrive(&mut c);
    let via_door = 2.0 * Vec2::new(20.0, 10.0).length() / 1.3;
    assert!(
        t < 1.2 * via_door,
        "{t} s against {via_door} s through the door"
    );
    let p = c.planner();
    assert_eq!(p.fields_computed(), 0);
    // A few searches, not one per route update (about 35 over the walk): walking straight at
    // a cell far along its way, it cuts the corners of the way's cells by more than a cell
    // now and then, and searches afresh from there.
    assert!(p.paths_searched() <= 6, "{} searches", p.paths_searched());
}

#[test]
fn agents_sharing_a_goal_share_its_field() {
    // Eight agents to one target: the first to ask searches its own way, the others ask for
    // the field, and once it is cached the first follows it too. One field, a search or two.
    let agents: Vec<(Vec2, Vec2)> = (0..8)
        .map(|i| {
            (
                Vec2::new(-20.0, -12.0 + 3.0 * i as f32),
                Vec2::new(20.0, 0.0),
            )
        })
        .collect();
    let (mut c, _) = walled(&agents);
    arrive(&mut c);
    let p = c.planner();
    assert_eq!(p.fields_computed(), 1);
    assert!(p.paths_searched() <= 2, "{} searches", p.paths_searched());
}

#[test]
fn an_obstacle_change_drops_every_kept_way() {
    let (mut c, ids) = walled(&[(Vec2::new(-20.0, 0.0), Vec2::new(20.0, 0.0))]);
    c.step(0.1, 1).unwrap();
    assert!(c
        .planner()
        .ways
        .holds(ids[0].0 & crate::crowd::slots::SLOT_MASK));
    let crate_box = Obstacle::Circle {
        center: Vec3::new(-10.0, 0.0, 20.0),
        radius: 0.5,
    };
    c.add_obstacle(crate_box).unwrap();
    let searched = c.planner().paths_searched();
    c.step(0.1, 1).unwrap();
    let slot = ids[0].0 & crate::crowd::slots::SLOT_MASK;
    // Dropped at the change; kept again only by a search made since.
    assert!(!c.planner().ways.holds(slot) || c.planner().paths_searched() > searched);
    // Its next route update searches afresh.
    for _ in 0..REPLAN_STEPS {
        c.step(0.1, 1).unwrap();
    }
    assert!(c.planner().paths_searched() > searched);
    arrive(&mut c);
}
