//! Catmull-Rom splines: a cubic through every point with automatic tangents.
//!
//! For the segment from `P1` to `P2` with neighbours `P0`, `P3`, the knot spacing is
//! `tᵢⱼ = |Pⱼ − Pᵢ|^α` (α = 0 uniform, 0.5 centripetal — no cusps or self-intersections within a
//! segment —, 1 chordal), and the end velocities of the segment on `t ∈ [0, 1]` are
//!
//! ```text
//! m1 = (1 − τ) · t12 · ((P1 − P0)/t01 − (P2 − P0)/(t01 + t12) + (P2 − P1)/t12)
//! m2 = (1 − τ) · t12 · ((P2 − P1)/t12 − (P3 − P1)/(t12 + t23) + (P3 − P2)/t23)
//! ```
//!
//! (the Barry–Goldman pyramid differentiated at the segment's ends, rescaled to the unit
//! parameter), with tension τ (0 = Catmull-Rom, 1 = zero tangents). With α = 0 this is the
//! familiar `m1 = (1 − τ)(P2 − P0)/2`.
//!
//! End points and duplicates: a missing or coincident neighbour is replaced by the reflection
//! of the far point (`P0 := 2·P1 − P2`), so the ends are well defined and duplicate points never
//! divide by zero; a zero-length segment gets zero tangents (it stays at its point).

use super::cubic::check_points;
use super::{CubicSpline, CurveError, HermiteSegment};
use glam::Vec3;

impl CubicSpline {
    /// The Catmull-Rom spline through `points` (k ≥ 2) with knot exponent `alpha ∈ [0, 1]`
    /// and `tension ∈ [0, 1]`; segment `i` runs from `points[i]` to `points[i + 1]`.
    ///
    /// Errors: fewer than 2 points, non-finite input, or `alpha`/`tension` outside `[0, 1]`.
    pub fn catmull_rom(points: &[Vec3], alpha: f32, tension: f32) -> Result<Self, CurveError> {
        check_points(points, 2)?;
        if !alpha.is_finite() || !tension.is_finite() {
            return Err(CurveError::NonFinite);
        }
        if !(0.0..=1.0).contains(&alpha) || !(0.0..=1.0).contains(&tension) {
            return Err(CurveError::InvalidArgument);
        }
        let k = points.len();
        let segments = (0..k - 1)
            .map(|i| {
                let p1 = points[i];
                let p2 = points[i + 1];
                let p0 = if i > 0 && points[i - 1] != p1 {
                    points[i - 1]
                } else {
                    2.0 * p1 - p2
                };
                let p3 = if i + 2 < k && points[i + 2] != p2 {
                    points[i + 2]
                } else {
                    2.0 * p2 - p1
                };
                let (m1, m2) = tangents(p0, p1, p2, p3, alpha, 1.0 - tension);
                HermiteSegment::new(p1, p2, m1, m2).to_bezier()
            })
            .collect();
        CubicSpline::from_bezier_segments(segments)
    }
}

/// End velocities of the segment `p1 → p2` (see the module docs), scaled by `scale = 1 − τ`.
fn tangents(p0: Vec3, p1: Vec3, p2: Vec3, p3: Vec3, alpha: f32, scale: f32) -> (Vec3, Vec3) {
    let knot = |a: Vec3, b: Vec3| (a.distance(b) as f64).powf(alpha as f64);
    let (t01, t12, t23) = (knot(p0, p1), knot(p1, p2), knot(p2, p3));
    if t12 <= 0.0 || t01 <= 0.0 || t23 <= 0.0 {
        return (Vec3::ZERO, Vec3::ZERO);
    }
    let d = |a: Vec3, b: Vec3| b.as_dvec3() - a.as_dvec3();
    let m1 = t12 * (d(p0, p1) / t01 - d(p0, p2) / (t01 + t12) + d(p1, p2) / t12);
    let m2 = t12 * (d(p1, p2) / t12 - d(p1, p3) / (t12 + t23) + d(p2, p3) / t23);
    (m1.as_vec3() * scale, m2.as_vec3() * scale)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::ParamCurve;

    #[test]
    fn uniform_tangents_are_half_the_chord_of_neighbours() {
        let pts = [
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(2.0, 1.0, 0.0),
            Vec3::new(3.0, 1.0, 1.0),
        ];
        let s = CubicSpline::catmull_rom(&pts, 0.0, 0.0).unwrap();
        let m = s.derivative(1, 0.0);
        assert!((m - (pts[2] - pts[0]) / 2.0).length() < 1e-5);
        for i in 0..3 {
            assert!((s.position(i, 0.0) - pts[i]).length() < 1e-6);
            assert!((s.position(i, 1.0) - pts[i + 1]).length() < 1e-6);
        }
    }

    #[test]
    fn duplicate_points_give_finite_curves() {
        let p = Vec3::new(1.0, 2.0, 3.0);
        for alpha in [0.0, 0.5, 1.0] {
            let s = CubicSpline::catmull_rom(&[p, p, Vec3::X, Vec3::X, p], alpha, 0.0).unwrap();
            for seg in 0..s.segment_count() {
                for k in 0..=10 {
                    let t = k as f32 / 10.0;
                    assert!(s.position(seg, t).is_finite());
                    assert!(s.derivative(seg, t).is_finite());
                }
            }
        }
    }
}
