//! Paths against independent f64 references: position at distance (arc length by dense
//! Gauss–Legendre, inverted by bisection), the speed ripple of constant-speed schedules, and
//! the global nearest point against brute-force dense sampling.

use glam::{DVec3, Vec3};
use proptest::prelude::*;
use wayfarer::curve::{AnyCurve, CubicSpline, ParamCurve};
use wayfarer::timeline::{Path, Schedule, Wrap};

/// The f64 Bézier control points of every segment.
fn control_points(path: &Path) -> Vec<Vec<DVec3>> {
    match path.curve() {
        AnyCurve::Cubic(c) => c
            .segments()
            .iter()
            .map(|s| s.iter().map(|p| p.as_dvec3()).collect())
            .collect(),
        AnyCurve::Bezier(c) => c
            .pieces()
            .iter()
            .map(|p| p.points().iter().map(|q| q.as_dvec3()).collect())
            .collect(),
    }
}

/// Bernstein-form position and derivative in f64 (no de Casteljau: an independent evaluator).
fn bez(c: &[DVec3], t: f64) -> (DVec3, DVec3) {
    let n = c.len() - 1;
    let binom = |n: usize, k: usize| -> f64 {
        (0..k).fold(1.0, |a, i| a * (n - i) as f64 / (i + 1) as f64)
    };
    let basis = |n: usize, k: usize, t: f64| {
        binom(n, k) * t.powi(k as i32) * (1.0 - t).powi((n - k) as i32)
    };
    let mut p = DVec3::ZERO;
    for (k, &ck) in c.iter().enumerate() {
        p += basis(n, k, t) * ck;
    }
    let mut d = DVec3::ZERO;
    for k in 0..n {
        d += n as f64 * basis(n - 1, k, t) * (c[k + 1] - c[k]);
    }
    (p, d)
}

/// Arc length of `c` over `[0, t]`: 256 panels of 5-point Gauss–Legendre.
fn arc(c: &[DVec3], t: f64) -> f64 {
    const X: [f64; 5] = [
        -0.906_179_845_938_664,
        -0.538_469_310_105_683_1,
        0.0,
        0.538_469_310_105_683_1,
        0.906_179_845_938_664,
    ];
    const W: [f64; 5] = [
        0.236_926_885_056_189_1,
        0.478_628_670_499_366_5,
        0.568_888_888_888_888_9,
        0.478_628_670_499_366_5,
        0.236_926_885_056_189_1,
    ];
    let panels = 256;
    let h = t / panels as f64;
    let mut s = 0.0;
    for i in 0..panels {
        let mid = (i as f64 + 0.5) * h;
        for k in 0..5 {
            s += W[k] * 0.5 * h * bez(c, mid + 0.5 * h * X[k]).1.length();
        }
    }
    s
}

/// f64 reference: position at distance `d` (bisection on the cumulative arc length).
struct Reference {
    segs: Vec<Vec<DVec3>>,
    starts: Vec<f64>,
}

impl Reference {
    fn new(path: &Path) -> Self {
        let segs = control_points(path);
        let mut starts = vec![0.0];
        for c in &segs {
            let last = *starts.last().unwrap();
            starts.push(last + arc(c, 1.0));
        }
        Self { segs, starts }
    }

    fn length(&self) -> f64 {
        *self.starts.last().unwrap()
    }

    /// Segment and parameter at distance `d`.
    fn param(&self, d: f64) -> (usize, f64) {
        let d = d.clamp(0.0, self.length());
        let mut s = self.starts.partition_point(|&x| x <= d).saturating_sub(1);
        s = s.min(self.segs.len() - 1);
        let target = d - self.starts[s];
        let c = &self.segs[s];
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..50 {
            let m = 0.5 * (lo + hi);
            if arc(c, m) < target {
                lo = m;
            } else {
                hi = m;
            }
        }
        (s, 0.5 * (lo + hi))
    }

    fn position(&self, d: f64) -> DVec3 {
        let (s, t) = self.param(d);
        bez(&self.segs[s], t).0
    }
}

fn curved_hermite() -> Path {
    let pts: Vec<Vec3> = (0..8)
        .map(|i| {
            let a = i as f32 * 0.9;
            Vec3::new(a.cos() * (6.0 + i as f32), (a * 0.5).sin(), a.sin() * 6.0)
        })
        .collect();
    let tan: Vec<Vec3> = (0..8)
        .map(|i| {
            let a = i as f32 * 0.9;
            Vec3::new(-a.sin(), 0.3, a.cos()) * 7.0
        })
        .collect();
    Path::hermite(&pts, &tan).unwrap()
}

fn curved_bezier() -> Path {
    let pts = [
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(0.0, 0.0, 8.0),
        Vec3::new(10.0, 2.0, 9.0),
        Vec3::new(12.0, 0.0, 1.0),
        Vec3::new(14.0, -2.0, -7.0),
        Vec3::new(20.0, 0.0, -4.0),
        Vec3::new(22.0, 1.0, 3.0),
        Vec3::new(18.0, 0.0, 9.0),
    ];
    // A quartic then a cubic.
    Path::bezier_chain(&pts, &[4, 3]).unwrap()
}

#[test]
fn position_error_is_under_1e_5_of_the_length() {
    for (name, path) in [("hermite", curved_hermite()), ("bezier", curved_bezier())] {
        let r = Reference::new(&path);
        let l = r.length();
        assert!(
            (path.length() as f64 - l).abs() <= 1e-5 * l,
            "{name} length"
        );
        let mut worst = 0.0f64;
        for i in 0..=400 {
            let d = l * i as f64 / 400.0;
            let got = path.position(d as f32).as_dvec3();
            worst = worst.max((got - r.position(d)).length());
        }
        eprintln!(
            "{name}: length {l:.4} m, max position error {:.2e} × L",
            worst / l
        );
        assert!(worst <= 1e-5 * l, "{name}: error {worst} vs length {l}");
    }
}

#[test]
fn speed_ripple_is_under_a_tenth_of_a_percent() {
    for (name, path) in [("hermite", curved_hermite()), ("bezier", curved_bezier())] {
        let r = Reference::new(&path);
        let l = path.length() as f64;
        let period = 100.0;
        let speed = l / period;
        let s = Schedule::simple(0.0, period, Wrap::Clamp, l).unwrap();
        // True arc length travelled between consecutive samples, from the f64 reference.
        let true_s = |t: f64| {
            let p = path.param_at(s.sample(t).distance as f32);
            r.starts[p.segment] + arc(&r.segs[p.segment], p.t as f64)
        };
        let dt = 0.05 / speed; // 5 cm steps
        let steps = (period / dt) as usize;
        let mut worst = 0.0f64;
        let mut prev = true_s(0.0);
        for k in 1..steps {
            let cur = true_s(k as f64 * dt);
            let v = (cur - prev) / dt;
            worst = worst.max((v / speed - 1.0).abs());
            prev = cur;
        }
        eprintln!("{name}: speed ripple {:.3e} (max relative)", worst);
        assert!(worst <= 1e-3, "{name}: ripple {worst}");
    }
}

/// Brute force: the minimum over 4 000 samples per segment (f64).
fn brute_nearest(segs: &[Vec<DVec3>], q: DVec3) -> f64 {
    let mut best = f64::INFINITY;
    for c in segs {
        for i in 0..=4000 {
            let t = i as f64 / 4000.0;
            best = best.min((bez(c, t).0 - q).length());
        }
    }
    best
}

fn check_nearest(path: &Path, q: Vec3) -> Result<(), TestCaseError> {
    let segs = control_points(path);
    let brute = brute_nearest(&segs, q.as_dvec3());
    let n = path.nearest(q);
    let size = {
        let all: Vec<DVec3> = segs.iter().flatten().copied().collect();
        let lo = all
            .iter()
            .fold(DVec3::splat(f64::INFINITY), |a, &p| a.min(p));
        let hi = all
            .iter()
            .fold(DVec3::splat(f64::NEG_INFINITY), |a, &p| a.max(p));
        (hi - lo).length().max(1e-6)
    };
    let got = (n.point.as_dvec3() - q.as_dvec3()).length();
    // Never worse than brute force (which only over-estimates the true minimum).
    prop_assert!(got <= brute + 2e-6 * size, "nearest {got} vs brute {brute}");
    // The distance along the path leads back to the point.
    let back = path.position(n.distance);
    prop_assert!((back - n.point).length() <= 1e-4 * size.max(path.length() as f64) as f32);
    Ok(())
}

#[test]
fn nearest_on_a_winding_path_finds_the_global_minimum() {
    // An S-curve passing near itself: many local minima for points between the strands.
    let pts: Vec<Vec3> = (0..12)
        .map(|i| Vec3::new((i % 2) as f32 * 10.0, 0.0, i as f32 * 1.5))
        .collect();
    let path = Path::catmull_rom(&pts, 0.5, 0.0).unwrap();
    for i in 0..60 {
        let q = Vec3::new(
            (i % 7) as f32 * 1.7 - 1.0,
            (i % 3) as f32 - 1.0,
            i as f32 * 0.3,
        );
        check_nearest(&path, q).unwrap();
    }
}

fn vec3() -> impl Strategy<Value = Vec3> {
    (-20.0f32..20.0, -5.0f32..5.0, -20.0f32..20.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn nearest_matches_brute_force_on_hermite_paths(
        pts in prop::collection::vec(vec3(), 2..6),
        tans in prop::collection::vec(vec3(), 6),
        qs in prop::collection::vec(vec3(), 4),
    ) {
        let path = Path::hermite(&pts, &tans[..pts.len()]).unwrap();
        for q in qs {
            check_nearest(&path, q)?;
        }
    }

    #[test]
    fn nearest_matches_brute_force_on_bezier_chains(
        pts in prop::collection::vec(vec3(), 7),
        q in vec3(),
    ) {
        let path = Path::bezier_chain(&pts, &[2, 4]).unwrap();
        check_nearest(&path, q)?;
    }

    #[test]
    fn forward_is_unit_and_finite_even_at_zero_speed(
        pts in prop::collection::vec(vec3(), 2..6),
        dup in 0usize..5,
        d in -1.0f32..100.0,
    ) {
        let mut pts = pts;
        let i = dup % pts.len();
        pts.insert(i, pts[i]);
        // Tension 1: zero tangents at every knot.
        for path in [
            Path::catmull_rom(&pts, 0.5, 1.0).unwrap(),
            Path::polyline(&pts).unwrap(),
        ] {
            let (p, f) = path.at_distance(d);
            prop_assert!(p.is_finite());
            prop_assert!(f.is_finite());
            prop_assert!((f.length() - 1.0).abs() < 1e-4);
        }
    }
}

#[test]
fn knots_of_a_polyline_are_at_their_cumulative_lengths() {
    let pts = [
        Vec3::ZERO,
        Vec3::new(3.0, 0.0, 4.0),
        Vec3::new(3.0, 0.0, 4.0),
        Vec3::new(3.0, 12.0, 4.0),
        Vec3::new(0.0, 12.0, 0.0),
    ];
    let path = Path::polyline(&pts).unwrap();
    let c = CubicSpline::polyline(&pts).unwrap();
    assert_eq!(c.segment_count(), 4);
    assert!((path.length() - 22.0).abs() < 1e-5);
    for (d, p) in [(5.0, pts[1]), (17.0, pts[3]), (22.0, pts[4])] {
        assert!((path.position(d) - p).length() < 1e-5);
    }
}
