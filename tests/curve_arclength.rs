//! Arc length against an independent f64 reference: total length, speed ripple of
//! distance → parameter, and even spacing of constant-speed samples.
//! `cargo test --test curve_arclength -- --nocapture` prints the measured figures.

use glam::DVec3;
use wayfarer::curve::{
    self, ArcLengthTable, BezierChain, BezierCurve, CubicSpline, CurveParam, ParamCurve, Spacing,
};
use wayfarer::Vec3;

/// Speed |B'(t)| of a Bézier piece given in f64 control points (derivative by the hodograph,
/// de Casteljau in f64).
fn speed(cps: &[DVec3], t: f64) -> f64 {
    let n = cps.len() - 1;
    let mut b: Vec<DVec3> = cps.windows(2).map(|w| (w[1] - w[0]) * n as f64).collect();
    for level in (1..b.len()).rev() {
        for i in 0..level {
            b[i] = b[i] * (1.0 - t) + b[i + 1] * t;
        }
    }
    b[0].length()
}

/// Adaptive Simpson of the speed over `[a, b]` in f64 to an absolute tolerance.
fn simpson(cps: &[DVec3], a: f64, b: f64, tol: f64) -> f64 {
    #[allow(clippy::too_many_arguments)] // the textbook recursion's state, kept explicit
    fn rec(
        cps: &[DVec3],
        a: f64,
        b: f64,
        fa: f64,
        fm: f64,
        fb: f64,
        whole: f64,
        tol: f64,
        depth: u32,
    ) -> f64 {
        let m = 0.5 * (a + b);
        let (lm, rm) = (0.5 * (a + m), 0.5 * (m + b));
        let (flm, frm) = (speed(cps, lm), speed(cps, rm));
        let left = (m - a) / 6.0 * (fa + 4.0 * flm + fm);
        let right = (b - m) / 6.0 * (fm + 4.0 * frm + fb);
        if depth > 40 || (left + right - whole).abs() <= 15.0 * tol {
            return left + right + (left + right - whole) / 15.0;
        }
        rec(cps, a, m, fa, flm, fm, left, tol / 2.0, depth + 1)
            + rec(cps, m, b, fm, frm, fb, right, tol / 2.0, depth + 1)
    }
    if b <= a {
        return 0.0;
    }
    let (fa, fm, fb) = (speed(cps, a), speed(cps, 0.5 * (a + b)), speed(cps, b));
    let whole = (b - a) / 6.0 * (fa + 4.0 * fm + fb);
    rec(cps, a, b, fa, fm, fb, whole, tol, 0)
}

/// f64 control points of every segment of a cubic spline.
fn pieces(c: &CubicSpline) -> Vec<Vec<DVec3>> {
    c.segments()
        .iter()
        .map(|s| s.iter().map(|p| p.as_dvec3()).collect())
        .collect()
}

/// Reference arc length between two curve parameters.
fn arc(pieces: &[Vec<DVec3>], a: CurveParam, b: CurveParam) -> f64 {
    let (a, b) = if a.global() <= b.global() {
        (a, b)
    } else {
        (b, a)
    };
    if a.segment == b.segment {
        return simpson(&pieces[a.segment], a.t as f64, b.t as f64, 1e-13);
    }
    let mut s = simpson(&pieces[a.segment], a.t as f64, 1.0, 1e-13);
    for p in &pieces[a.segment + 1..b.segment] {
        s += simpson(p, 0.0, 1.0, 1e-13);
    }
    s + simpson(&pieces[b.segment], 0.0, b.t as f64, 1e-13)
}

/// Hermite splines with uneven handles: tangents from tiny to 4× the chord.
fn uneven_splines() -> Vec<CubicSpline> {
    let mut out = Vec::new();
    let mut seed = 12345u64;
    let mut rnd = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as f32 / (1u64 << 31) as f32
    };
    for _ in 0..6 {
        let k = 8;
        let mut p = Vec3::ZERO;
        let mut pts = Vec::new();
        let mut tan = Vec::new();
        for i in 0..k {
            pts.push(p);
            let dir = Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5).normalize_or(Vec3::X);
            let mag = if i % 3 == 0 {
                0.05
            } else {
                4.0 * (1.0 + 10.0 * rnd())
            };
            tan.push(dir * mag);
            p += Vec3::new(1.0 + 5.0 * rnd(), 4.0 * rnd() - 2.0, 4.0 * rnd() - 2.0);
        }
        out.push(CubicSpline::hermite(&pts, &tan).unwrap());
    }
    out
}

#[test]
fn total_length_relative_error_below_1e6() {
    let mut worst = 0.0f64;
    for c in uneven_splines() {
        let ps = pieces(&c);
        let reference: f64 = ps.iter().map(|p| simpson(p, 0.0, 1.0, 1e-13)).sum();
        let table = ArcLengthTable::new(&c);
        let rel = (table.total_length_f64() - reference).abs() / reference;
        worst = worst.max(rel);
        assert!(rel <= 1e-6, "relative error {rel}");
        for (s, p) in ps.iter().enumerate() {
            let r = simpson(p, 0.0, 1.0, 1e-13);
            assert!((table.segment_length(s) - r).abs() <= 1e-6 * r);
        }
    }
    // Bézier chains of high degree too.
    let pts: Vec<Vec3> = (0..=20)
        .map(|i| Vec3::new(i as f32, ((i * 7) % 5) as f32 * 2.0, (i % 3) as f32))
        .collect();
    let chain = BezierChain::from_shared_points(&pts, &[12, 8]).unwrap();
    let reference: f64 = chain
        .pieces()
        .iter()
        .map(|p| {
            simpson(
                &p.points().iter().map(|v| v.as_dvec3()).collect::<Vec<_>>(),
                0.0,
                1.0,
                1e-13,
            )
        })
        .sum();
    let rel = (curve::length(&chain) - reference).abs() / reference;
    worst = worst.max(rel);
    assert!(rel <= 1e-6, "Bézier chain relative error {rel}");
    println!("arc length: worst relative error {worst:.2e}");
}

#[test]
fn constant_speed_ripple_below_0_1_percent() {
    let mut worst = 0.0f64;
    for (ci, c) in uneven_splines().into_iter().enumerate() {
        let ps = pieces(&c);
        let table = ArcLengthTable::new(&c);
        let total = table.total_length_f64();
        let h = 0.02f64; // distance step; the f32 parameter quantisation is ~1e-6 of it
        let steps = (total / h) as usize;
        for k in 0..steps - 1 {
            let d0 = (k as f64 * h) as f32;
            let d1 = ((k + 1) as f64 * h) as f32;
            let a = table.param_at_distance(d0);
            let b = table.param_at_distance(d1);
            let ds = d1 as f64 - d0 as f64;
            let ripple = (arc(&ps, a, b) / ds - 1.0).abs();
            assert!(ripple <= 1e-3, "spline {ci}: ripple {ripple:.2e} at d {d0}");
            worst = worst.max(ripple);
        }
    }
    println!("arc length: worst speed ripple {:.3} %", worst * 100.0);
    assert!(worst <= 1e-3, "ripple {worst}");
}

#[test]
fn even_samples_are_equally_far_apart_along_the_curve() {
    for c in uneven_splines() {
        let ps = pieces(&c);
        let table = ArcLengthTable::new(&c);
        let total = table.total_length_f64();
        let n = 50;
        let mut out = vec![Vec3::ZERO; n];
        curve::sample(&c, Spacing::ArcLength, &mut out);
        let step = total / (n - 1) as f64;
        let mut prev = CurveParam { segment: 0, t: 0.0 };
        assert_eq!(out[0], c.position(0, 0.0));
        assert_eq!(out[n - 1], c.position(c.segment_count() - 1, 1.0));
        for (i, o) in out.iter().enumerate().skip(1) {
            let p = table.param_at_distance((step * i as f64) as f32);
            assert!((c.position(p.segment, p.t) - *o).length() <= 1e-4);
            let gap = arc(&ps, prev, p);
            assert!((gap - step).abs() <= 5e-4 * step, "gap {gap} vs {step}");
            prev = p;
        }
    }
}

#[test]
fn zero_length_and_single_bezier_sampling() {
    let p = Vec3::new(1.0, -2.0, 3.0);
    let b = BezierCurve::new(vec![p; 5]).unwrap();
    let mut out = vec![Vec3::splat(9.0); 4];
    curve::sample(&b, Spacing::ArcLength, &mut out);
    assert!(out.iter().all(|&q| q == p));
    assert_eq!(curve::length(&b), 0.0);
    // Parameter spacing on one Bézier: t = i/(n-1), start included (GetBezierList skips it).
    let b = BezierCurve::new(vec![Vec3::ZERO, Vec3::Y, Vec3::X]).unwrap();
    let mut out = vec![Vec3::ZERO; 5];
    curve::sample(&b, Spacing::Parameter, &mut out);
    for (i, o) in out.iter().enumerate() {
        assert_eq!(*o, b.position(i as f32 / 4.0));
    }
}
