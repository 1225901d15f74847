//! Tour, part 1: curves.

use crate::svg::Svg;
use std::path::Path;
use wayfarer::curve::{
    self, ArcLengthTable, BezierCurve, CubicSpline, ParamCurve, Projectile, Spacing,
};
use wayfarer::Vec3;

/// All curve pictures.
pub fn run(out: &Path) -> std::io::Result<()> {
    hermite_vs_catmull_rom(out)?;
    bezier_degree_10(out)?;
    even_t_vs_even_arc_length(out)?;
    ballistic_ping_pong(out)?;
    Ok(())
}

/// Hermite (BeanFollower tangents) vs Catmull-Rom through the same checkpoints.
fn hermite_vs_catmull_rom(out: &Path) -> std::io::Result<()> {
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
    let path = out.join("curves-hermite-vs-catmull-rom.svg");
    svg.save(&path)?;
    println!("  wrote {}", path.display());
    Ok(())
}

/// The control points of a degree-10 Bézier curve (a wavy path).
fn degree_10_points() -> Vec<Vec3> {
    [
        (0.0, 0.0),
        (2.0, 6.0),
        (4.0, -3.0),
        (6.0, 7.0),
        (8.0, -2.0),
        (10.0, 9.0),
        (12.0, 0.0),
        (14.0, 5.0),
        (16.0, -4.0),
        (18.0, 3.0),
        (20.0, 1.0),
    ]
    .iter()
    .map(|&(x, z)| Vec3::new(x, 0.0, z))
    .collect()
}

/// A degree-10 Bézier curve with its control polygon.
fn bezier_degree_10(out: &Path) -> std::io::Result<()> {
    let pts = degree_10_points();
    let b = BezierCurve::new(pts.clone()).expect("bezier");
    let xz = |p: Vec3| (p.x, p.z);
    let mut svg = Svg::new(
        "Bézier curve of degree 10 and its control polygon",
        720.0,
        420.0,
    );
    let poly: Vec<(f32, f32)> = pts.iter().map(|&p| xz(p)).collect();
    svg.dashed(&poly, "#999", 1.2);
    svg.legend("control polygon (11 points)", "#999");
    let ts: Vec<f32> = (0..=300).map(|i| i as f32 / 300.0).collect();
    let mut curve_pts = vec![Vec3::ZERO; ts.len()];
    b.eval(&ts, &mut curve_pts);
    let line: Vec<(f32, f32)> = curve_pts.iter().map(|&p| xz(p)).collect();
    svg.polyline(&line, "#6a4c93", 2.5);
    svg.legend("B(t), Bernstein form (f64 Horner)", "#6a4c93");
    for (i, &p) in poly.iter().enumerate() {
        svg.dot(p, 4.0, "#555");
        svg.text((p.0 + 0.2, p.1 + 0.3), &format!("P{i}"), 11.0, "#555");
    }
    let path = out.join("curves-bezier-degree-10.svg");
    svg.save(&path)?;
    println!("  degree-10 Bézier: length {:.4}", curve::length(&b));
    println!("  wrote {}", path.display());
    Ok(())
}

/// The same curve sampled evenly in t (dots bunch where the curve is slow) and evenly in arc
/// length (constant speed).
fn even_t_vs_even_arc_length(out: &Path) -> std::io::Result<()> {
    // A cubic with very uneven handles: slow near the start, fast near the end, so samples
    // evenly spaced in t bunch up where evenly spaced ones in arc length do not.
    let b = BezierCurve::new(vec![
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(0.4, 0.0, 2.0),
        Vec3::new(3.0, 0.0, 7.0),
        Vec3::new(16.0, 0.0, 0.0),
    ])
    .expect("bezier");
    let xz = |p: Vec3| (p.x, p.z);
    let mut svg = Svg::new(
        "24 samples: evenly in t (top) vs evenly in arc length (bottom)",
        720.0,
        560.0,
    );
    let shift = Vec3::new(0.0, 0.0, -9.0);
    let mut line = vec![Vec3::ZERO; 300];
    b.sample_uniform(&mut line);
    for (offset, spacing, color, label) in [
        (Vec3::ZERO, Spacing::Parameter, "#d1495b", "evenly in t"),
        (
            shift,
            Spacing::ArcLength,
            "#00798c",
            "evenly in arc length (constant speed)",
        ),
    ] {
        let l: Vec<(f32, f32)> = line.iter().map(|&p| xz(p + offset)).collect();
        svg.polyline(&l, "#bbb", 1.5);
        let mut dots = vec![Vec3::ZERO; 24];
        curve::sample(&b, spacing, &mut dots);
        for &d in &dots {
            svg.dot(xz(d + offset), 4.0, color);
        }
        svg.legend(label, color);
    }
    let path = out.join("curves-even-t-vs-arc-length.svg");
    svg.save(&path)?;
    println!("  wrote {}", path.display());
    Ok(())
}

/// The ping-pong ball of the Bézier paper, exactly: a chain of quadratic Béziers, one per
/// bounce, with their control points.
fn ballistic_ping_pong(out: &Path) -> std::io::Result<()> {
    let ball = Projectile {
        start: Vec3::new(0.0, 1.2, 0.0),
        velocity: Vec3::new(2.5, 2.0, 0.0),
        gravity: 9.81,
        ground_y: 0.0,
        restitution: 0.7,
    };
    let bounces = 4;
    let chain = ball.bezier_chain(bounces).expect("ballistic");
    let xy = |p: Vec3| (p.x, p.y);
    let mut svg = Svg::new(
        "Ballistic Bézier chain: restitution 0.7, 4 bounces (exact parabolas)",
        760.0,
        360.0,
    );
    svg.polyline(&[(-0.2, 0.0), (6.6, 0.0)], "#8c6d46", 2.0);
    let mut line = vec![Vec3::ZERO; 400];
    chain.sample_uniform(&mut line);
    let l: Vec<(f32, f32)> = line.iter().map(|&p| xy(p)).collect();
    svg.polyline(&l, "#e07a1f", 2.5);
    svg.legend("trajectory (5 quadratic Béziers)", "#e07a1f");
    let cps: Vec<Vec3> = ball.control_points(bounces).collect();
    let poly: Vec<(f32, f32)> = cps.iter().map(|&p| xy(p)).collect();
    svg.dashed(&poly, "#777", 1.0);
    svg.legend("control points: P1 = P0 + v·T/2", "#777");
    for (i, &p) in poly.iter().enumerate() {
        svg.dot(p, if i % 2 == 0 { 4.5 } else { 3.0 }, "#444");
    }
    for a in ball.arcs(bounces) {
        println!(
            "  arc at t = {:.3} s lasts {:.3} s, lands at x = {:.3}",
            a.start_time, a.duration, a.control_points[2].x
        );
    }
    let path = out.join("curves-ballistic-ping-pong.svg");
    svg.save(&path)?;
    println!("  wrote {}", path.display());
    Ok(())
}
