//! An SVG picture of a run: obstacles and every agent's trajectory.

use std::path::Path;

use glam::Vec2;
use wayfarer::crowd::Obstacle;

#[path = "../tour/svg.rs"]
mod svg;

/// Draws `obstacles` and the trajectories `trace` to `path`.
pub fn draw(
    name: &str,
    obstacles: &[Obstacle],
    trace: &[Vec<Vec2>],
    path: &Path,
) -> std::io::Result<()> {
    let mut s = svg::Svg::new(&format!("SteerSuite {name} — wayfarer crowd"), 900.0, 700.0);
    for o in obstacles {
        match *o {
            Obstacle::Circle { center, radius } => {
                s.circle((center.x, center.z), radius, "#bbb", "#777")
            }
            _ => {
                if let Some(sh) = o.shape() {
                    let axis = sh.axis;
                    let perp = Vec2::new(-axis.y, axis.x);
                    let corner = |a: f32, b: f32| {
                        let p = sh.center + axis * (a * sh.half.x) + perp * (b * sh.half.y);
                        (p.x, p.y)
                    };
                    let pts = [
                        corner(-1.0, -1.0),
                        corner(1.0, -1.0),
                        corner(1.0, 1.0),
                        corner(-1.0, 1.0),
                        corner(-1.0, -1.0),
                    ];
                    s.polyline(&pts, "#777", 2.0);
                }
            }
        }
    }
    let colors = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
    ];
    for (i, t) in trace.iter().enumerate() {
        let pts: Vec<(f32, f32)> = t.iter().map(|p| (p.x, p.y)).collect();
        s.polyline(&pts, colors[i % colors.len()], 1.0);
        if let Some(p) = t.last() {
            s.dot((p.x, p.y), 1.5, "#000");
        }
    }
    s.save(path)
}
