use wayfarer::crowd::scenario::Scenario;
fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    let mut scenes = vec![];
    if which.is_empty() || which == "circle" {
        scenes.push((Scenario::circle(250, 200.0, 1.5, 2.0), 2000.0));
    }
    if which.is_empty() || which == "sym" {
        scenes.push((Scenario::circle(100, 50.0, 0.5, 1.3), 500.0));
    }
    if which.is_empty() || which == "cross" {
        scenes.push((Scenario::crossing(50), 300.0));
    }
    if which.is_empty() || which == "bottle" {
        scenes.push((Scenario::bottleneck(60, 1.6), 300.0));
    }
    if which.is_empty() || which == "hall" {
        scenes.push((Scenario::hallway(30, 4.0), 300.0));
    }
    if which.is_empty() || which == "field" {
        scenes.push((Scenario::obstacle_field(40, 40, 7), 300.0));
    }
    for (mut s, t) in scenes {
        let t0 = std::time::Instant::now();
        let r = s.run(t, 1, None);
        diag(&s);
        println!(
            "{:16} arrived {:.3} p95 {:.2} pen {:.3} obs {:.4} ({}) turn {:.3} time {} [{:?}]",
            s.name,
            r.arrived,
            r.p95_ratio,
            r.max_agent_penetration,
            r.max_obstacle_penetration,
            r.obstacle_penetrations,
            r.max_turn_ratio,
            r.time,
            t0.elapsed()
        );
    }
}
#[allow(dead_code)]
fn diag(s: &Scenario) {
    let mut k = 0;
    for &id in &s.agents {
        let a = s.crowd.agent(id).unwrap();
        if a.state() != wayfarer::crowd::AgentState::Arrived && k < 8 {
            k += 1;
            println!(
                "  {:?} pos {:?} tgt {:?} d {:.2} st {:?} vel {:?} yaw {:.2} hit {:?} plan {:?}",
                id,
                a.position,
                a.target,
                a.position.distance(a.target),
                a.state(),
                a.velocity(),
                a.yaw,
                a.hit().kind,
                a.plan
            );
        }
    }
}
