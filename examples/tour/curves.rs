//! Tour, part 1: curves.

use crate::svg::Svg;
use std::path::Path;
use wayfarer::curve::{ArcLengthTable, CubicSpline, ParamCurve};
use wayfarer::Vec3;

/// Hermite (BeanFollower tangents) vs Catmull-Rom through the same checkpoints.
pub fn run(out: &Path) -> std::io::Result<()> {
    let checkpoints = [
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(6.0, 0.0, 4.0),
        Vec3::new(12.0, 0.0, 1.0),
        Vec3::new(16.0, 0.0, 8.0),
        Vec3::new(9.0, 0.0, 12.0),
    ];
    let forwards = [
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.2),
        Vec3::new(0.6, 0.0, -0.8),
        Vec3::new(0.0, 0.0, 1.0),
        Vec3::new(-1.0, 0.0, 0.0),
    ];
    let speed = 8.0;
    let tangents: Vec<Vec3> = forwards.iter().map(|f| f.normalize() * speed).collect();
    let hermite = CubicSpline::hermite(&checkpoints, &tangents).expect("hermite");
    let cr = CubicSpline::catmull_rom(&checkpoints, 0.5, 0.0).expect("catmull-rom");
    let xz = |p: Vec3| (p.x, p.z);
    let mut svg = Svg::new(
        "Hermite (forward × speed) vs centripetal Catmull-Rom",
        720.0,
        520.0,
    );
    for (curve, color, label) in [
        (
            &hermite,
            "#d1495b",
            "Hermite, tangent = checkpoint forward × 8",
        ),
        (&cr, "#00798c", "Catmull-Rom, α = 0.5"),
    ] {
        let mut pts = vec![Vec3::ZERO; 200];
        curve.sample_uniform(&mut pts);
        let line: Vec<(f32, f32)> = pts.iter().map(|&p| xz(p)).collect();
        svg.polyline(&line, color, 2.5);
        svg.legend(label, color);
        let table = ArcLengthTable::new(curve);
        println!("  {label}: length {:.4} m", table.total_length());
    }
    for (p, f) in checkpoints.iter().zip(&forwards) {
        svg.dot(xz(*p), 5.0, "#333");
        let tip = *p + f.normalize() * 1.5;
        svg.polyline(&[xz(*p), xz(tip)], "#333", 1.5);
    }
    let path = out.join("hermite_vs_catmull_rom.svg");
    svg.save(&path)?;
    println!("  wrote {}", path.display());
    Ok(())
}
