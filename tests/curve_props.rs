//! Property tests of the curves against independent f64 references and exact identities.

use glam::DVec3;
use proptest::prelude::*;
use wayfarer::curve::{
    ArcLengthTable, BezierCurve, CubicSpline, CurveError, HermiteSegment, ParamCurve, Projectile,
};
use wayfarer::Vec3;

/// de Casteljau in f64 (an algorithm independent of the library's Horner form).
fn casteljau(points: &[DVec3], t: f64) -> DVec3 {
    let mut b = points.to_vec();
    for level in (1..b.len()).rev() {
        for i in 0..level {
            b[i] = b[i] * (1.0 - t) + b[i + 1] * t;
        }
    }
    b[0]
}

fn vec3() -> impl Strategy<Value = Vec3> {
    (-100.0f32..100.0, -100.0f32..100.0, -100.0f32..100.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn dv(v: &[Vec3]) -> Vec<DVec3> {
    v.iter().map(|p| p.as_dvec3()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Position within 3e-6·max|P| of f64 de Casteljau for every degree 1..=64; derivative =
    /// degree × the difference curve; exact end points and end tangents.
    #[test]
    fn bezier_matches_f64_reference(
        points in prop::collection::vec(vec3(), 2..=65),
        ts in prop::collection::vec(0.0f32..=1.0, 1..12),
    ) {
        let n = points.len() - 1;
        let c = BezierCurve::new(points.clone()).unwrap();
        let p64 = dv(&points);
        let diff: Vec<DVec3> = p64.windows(2).map(|w| (w[1] - w[0]) * n as f64).collect();
        let scale = points.iter().map(|p| p.abs().max_element()).fold(0.0f32, f32::max) as f64;
        let dscale = diff.iter().map(|p| p.abs().max_element()).fold(0.0f64, f64::max);
        let mut batch = vec![Vec3::ZERO; ts.len()];
        let mut dbatch = vec![Vec3::ZERO; ts.len()];
        c.eval(&ts, &mut batch);
        c.eval_derivatives(&ts, &mut dbatch);
        for (i, &t) in ts.iter().enumerate() {
            let e = (c.position(t).as_dvec3() - casteljau(&p64, t as f64)).abs().max_element();
            prop_assert!(e <= 3e-6 * scale, "degree {} t {} error {} scale {}", n, t, e, scale);
            let de = (c.derivative(t).as_dvec3() - casteljau(&diff, t as f64)).abs().max_element();
            prop_assert!(de <= 3e-6 * dscale.max(1e-30), "derivative error {}", de);
            prop_assert_eq!(batch[i], c.position(t));
            prop_assert_eq!(dbatch[i], c.derivative(t));
        }
        prop_assert_eq!(c.position(0.0), points[0]);
        prop_assert_eq!(c.position(1.0), points[n]);
        let d0 = ((points[1] - points[0]).as_dvec3() * n as f64).as_vec3();
        prop_assert!((c.derivative(0.0) - d0).abs().max_element() <= 1e-6 * dscale as f32 + 1e-30);
    }

    /// Hermite end points and end tangents are exact; the batch path equals the scalar one.
    #[test]
    fn hermite_ends_and_batch(p0 in vec3(), p1 in vec3(), m0 in vec3(), m1 in vec3(),
                              ts in prop::collection::vec(-0.5f32..1.5, 0..40)) {
        let h = HermiteSegment::new(p0, p1, m0, m1);
        prop_assert_eq!(h.position(0.0), p0);
        prop_assert_eq!(h.position(1.0), p1);
        prop_assert_eq!(h.derivative(0.0), m0);
        prop_assert_eq!(h.derivative(1.0), m1);
        let mut out = vec![Vec3::ZERO; ts.len()];
        h.eval(&ts, &mut out);
        for (o, &t) in out.iter().zip(&ts) {
            prop_assert_eq!(*o, h.position(t));
        }
        h.eval_derivatives(&ts, &mut out);
        for (o, &t) in out.iter().zip(&ts) {
            prop_assert_eq!(*o, h.derivative(t));
        }
    }

    /// Catmull-Rom passes through its points for every alpha/tension, duplicates included,
    /// and never produces NaN.
    #[test]
    fn catmull_rom_interpolates(
        raw in prop::collection::vec(vec3(), 2..12),
        dup in prop::collection::vec(any::<bool>(), 12),
        alpha in prop::sample::select(vec![0.0f32, 0.5, 1.0]),
        tension in 0.0f32..=1.0,
    ) {
        // Repeat some points to exercise coincident neighbours.
        let mut pts = Vec::new();
        for (p, d) in raw.iter().zip(&dup) {
            pts.push(*p);
            if *d { pts.push(*p); }
        }
        let c = CubicSpline::catmull_rom(&pts, alpha, tension).unwrap();
        for i in 0..pts.len() - 1 {
            prop_assert!((c.position(i, 0.0) - pts[i]).length() <= 1e-4);
            prop_assert!((c.position(i, 1.0) - pts[i + 1]).length() <= 1e-4);
            for k in 0..=8 {
                let t = k as f32 / 8.0;
                prop_assert!(c.position(i, t).is_finite() && c.derivative(i, t).is_finite());
            }
        }
        let table = ArcLengthTable::new(&c);
        let mut out = vec![Vec3::ZERO; 17];
        table.sample_even(&c, &mut out);
        prop_assert!(out.iter().all(|p| p.is_finite()));
    }

    /// The ballistic chain is the closed-form motion: B(τ) = p(t0 + τ·h) for every arc.
    #[test]
    fn ballistic_is_exact(
        x in -10.0f32..10.0, h in 0.0f32..20.0, z in -10.0f32..10.0,
        v in vec3(), g in 0.5f32..30.0, e in 0.0f32..=1.0, ground in -5.0f32..5.0,
        bounces in 0u32..6,
    ) {
        let v = v * 0.2;
        let p = Projectile { start: Vec3::new(x, ground + h, z), velocity: v, gravity: g,
                             ground_y: ground, restitution: e };
        prop_assert!(p.validate().is_ok());
        let arcs: Vec<_> = p.arcs(bounces).collect();
        prop_assert_eq!(arcs.len(), bounces as usize + 1);
        // Independent f64 simulation: landing by the plain quadratic formula.
        let (g, ground) = (g as f64, ground as f64);
        let mut pos = p.start.as_dvec3();
        let mut vel = v.as_dvec3();
        let mut time = 0.0;
        let scale = 1.0 + pos.abs().max_element() + vel.abs().max_element() * 10.0;
        for a in &arcs {
            let height = pos.y - ground;
            let dt = (vel.y + (vel.y * vel.y + 2.0 * g * height).sqrt()) / g;
            prop_assert!((a.duration - dt).abs() <= 1e-9 * (1.0 + dt), "{} vs {}", a.duration, dt);
            prop_assert!((a.start_time - time).abs() <= 1e-9 * (1.0 + time));
            let motion = |s: f64| pos + vel * s - DVec3::Y * (0.5 * g * s * s);
            let cps = dv(&a.control_points);
            for k in 0..=8 {
                let tau = k as f64 / 8.0;
                let err = (casteljau(&cps, tau) - motion(tau * dt)).abs().max_element();
                prop_assert!(err <= 2e-6 * scale, "arc error {} at tau {}", err, tau);
            }
            prop_assert_eq!(a.control_points[2].y as f64, ground);
            let land = motion(dt);
            pos = DVec3::new(land.x, ground, land.z);
            vel.y = -(e as f64) * (vel.y - g * dt);
            time += dt;
        }
    }
}

#[test]
fn ballistic_degenerate_cases_are_defined() {
    // e = 0: after the first landing every arc is three copies of the landing point.
    let p = Projectile {
        start: Vec3::new(0.0, 2.0, 0.0),
        velocity: Vec3::new(1.0, 3.0, 0.0),
        gravity: 9.81,
        ground_y: 0.0,
        restitution: 0.0,
    };
    let arcs: Vec<_> = p.arcs(3).collect();
    let landing = arcs[0].control_points[2];
    for a in &arcs[1..] {
        assert_eq!(a.duration, 0.0);
        assert_eq!(a.control_points, [landing; 3]);
    }
    // Start on the ground moving down: a zero-length first arc, then the bounce.
    let p = Projectile {
        start: Vec3::ZERO,
        velocity: Vec3::new(1.0, -4.0, 0.0),
        gravity: 10.0,
        ground_y: 0.0,
        restitution: 0.5,
    };
    let arcs: Vec<_> = p.arcs(1).collect();
    assert_eq!(arcs[0].control_points, [Vec3::ZERO; 3]);
    assert!((arcs[1].duration - 0.4).abs() < 1e-12); // v_y = 2 after the bounce: 2·2/10
                                                     // Zero vertical velocity on the ground: it stays (no flight, sliding is not modelled).
    let p = Projectile {
        start: Vec3::ZERO,
        velocity: Vec3::X,
        gravity: 10.0,
        ground_y: 0.0,
        restitution: 0.5,
    };
    assert!(p.arcs(2).all(|a| a.control_points == [Vec3::ZERO; 3]));
    // Below the ground: rejected.
    let p = Projectile {
        start: Vec3::new(0.0, -1.0, 0.0),
        ..p
    };
    assert_eq!(p.validate(), Err(CurveError::InvalidArgument));
    assert!(p.bezier_chain(1).is_err());
}
