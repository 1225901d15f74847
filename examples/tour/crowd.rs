//! Crowd: trajectories through a seeded obstacle field (planned routes around the obstacles,
//! avoidance between walkers) and the perfectly symmetric circle swap that deadlocks ORCA.

use std::path::Path;

use glam::Vec2;
use wayfarer::crowd::scenario::Scenario;
use wayfarer::crowd::Obstacle;

use crate::svg::Svg;

const COLORS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
];

fn draw_obstacles(svg: &mut Svg, s: &Scenario) {
    for (_, o) in s.crowd.obstacles() {
        match *o {
            Obstacle::Circle { center, radius } => {
                svg.circle((center.x, center.z), radius, "#ccc", "#888")
            }
            _ => {
                if let Some(sh) = o.shape() {
                    let perp = Vec2::new(-sh.axis.y, sh.axis.x);
                    let corner = |a: f32, b: f32| {
                        let p = sh.center + sh.axis * (a * sh.half.x) + perp * (b * sh.half.y);
                        (p.x, p.y)
                    };
                    let pts = [
                        corner(-1.0, -1.0),
                        corner(1.0, -1.0),
                        corner(1.0, 1.0),
                        corner(-1.0, 1.0),
                        corner(-1.0, -1.0),
                    ];
                    svg.polyline(&pts, "#888", 2.0);
                }
            }
        }
    }
}

fn draw_run(svg: &mut Svg, s: &Scenario, trace: &[Vec<Vec2>]) {
    for (i, t) in trace.iter().enumerate() {
        // Every fourth step keeps the picture light.
        let pts: Vec<(f32, f32)> = t
            .iter()
            .step_by(4)
            .chain(t.last())
            .map(|p| (p.x, p.y))
            .collect();
        svg.polyline(&pts, COLORS[i % COLORS.len()], 1.2);
        if let (Some(first), Some(&id)) = (t.first(), s.agents.get(i)) {
            let r = s.crowd.agent(id).map_or(0.3, |a| a.radius);
            svg.circle((first.x, first.y), r, "none", COLORS[i % COLORS.len()]);
        }
        if let Some(last) = t.last() {
            svg.dot((last.x, last.y), 2.0, "#000");
        }
    }
}

pub fn run(out: &Path) -> std::io::Result<()> {
    let mut field = Scenario::obstacle_field(40, 40, 7);
    let mut trace = Vec::new();
    let r = field.run(300.0, 1, Some(&mut trace));
    let mut svg = Svg::new(
        &format!(
            "Crowd: 40 agents through 40 obstacles (planned routes) — {:.0} % arrived, p95 {:.2}× ideal, deepest overlap {:.1} % r",
            100.0 * r.arrived,
            r.p95_ratio,
            100.0 * r.max_agent_penetration
        ),
        900.0,
        760.0,
    );
    draw_obstacles(&mut svg, &field);
    draw_run(&mut svg, &field, &trace);
    svg.legend("trajectory (circle: start, dot: end)", "#1f77b4");
    svg.save(&out.join("crowd_field.svg"))?;

    let mut circle = Scenario::circle(100, 30.0, 0.5, 1.3);
    let r = circle.run(300.0, 1, Some(&mut trace));
    let slowest = r
        .arrival
        .iter()
        .zip(&circle.ideal)
        .map(|(a, i)| a.map_or(f32::INFINITY, |a| a / i))
        .fold(0.0f32, f32::max);
    let mut svg = Svg::new(
        &format!(
            "Crowd: symmetric circle swap, 100 agents — all through in {:.2}× ideal (ORCA deadlocks)",
            slowest
        ),
        760.0,
        800.0,
    );
    draw_run(&mut svg, &circle, &trace);
    svg.save(&out.join("crowd_circle.svg"))?;
    println!("  crowd: crowd_field.svg, crowd_circle.svg");
    Ok(())
}
