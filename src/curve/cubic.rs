//! A chain of cubic segments stored as Bézier control points: the common form of Hermite
//! splines (explicit tangents per knot), Catmull-Rom splines and polylines.
//!
//! Segment `i` is `B(t) = (1−t)³·b0 + 3(1−t)²t·b1 + 3(1−t)t²·b2 + t³·b3` with
//! `B'(t) = 3[(1−t)²(b1−b0) + 2(1−t)t(b2−b1) + t²(b3−b2)]`. A Hermite segment `(p0, p1, m0, m1)`
//! is the cubic with `b0 = p0`, `b1 = p0 + m0/3`, `b2 = p1 − m1/3`, `b3 = p1`.

use super::{CurveError, HermiteSegment, ParamCurve};
use glam::Vec3;

/// Consecutive cubic segments joined end to end (C0 at least; C1 for Hermite and Catmull-Rom
/// splines whose tangents agree at the knots).
///
/// ```
/// use wayfarer::curve::{CubicSpline, ParamCurve};
/// use wayfarer::Vec3;
///
/// let points = [Vec3::ZERO, Vec3::new(2.0, 0.0, 1.0), Vec3::new(4.0, 0.0, 0.0)];
/// let smooth = CubicSpline::catmull_rom(&points, 0.5, 0.0).unwrap(); // centripetal
/// assert_eq!(smooth.segment_count(), 2);
/// assert!((smooth.position(0, 1.0) - points[1]).length() < 1e-5); // through every point
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct CubicSpline {
    segments: Vec<[Vec3; 4]>,
}

impl CubicSpline {
    /// A spline from cubic Bézier control points, one `[b0, b1, b2, b3]` per segment.
    ///
    /// Errors: no segment ([`CurveError::TooFewPoints`]), a non-finite coordinate
    /// ([`CurveError::NonFinite`]), or segments that do not join exactly
    /// ([`CurveError::InvalidArgument`]).
    pub fn from_bezier_segments(segments: Vec<[Vec3; 4]>) -> Result<Self, CurveError> {
        if segments.is_empty() {
            return Err(CurveError::TooFewPoints);
        }
        if !segments.iter().flatten().all(|p| p.is_finite()) {
            return Err(CurveError::NonFinite);
        }
        if segments.windows(2).any(|w| w[0][3] != w[1][0]) {
            return Err(CurveError::InvalidArgument);
        }
        Ok(Self { segments })
    }

    /// The Hermite spline through `points` (k ≥ 2 knots) with the velocity `tangents[i]` at
    /// knot `i` — BeanFollower's case, where `tangents[i] = checkpoint[i].forward × speed`.
    /// Segment `i` runs from knot `i` to knot `i + 1` over `t ∈ [0, 1]`.
    pub fn hermite(points: &[Vec3], tangents: &[Vec3]) -> Result<Self, CurveError> {
        check_points(points, 2)?;
        if tangents.len() != points.len() {
            return Err(CurveError::LengthMismatch);
        }
        if !tangents.iter().all(|p| p.is_finite()) {
            return Err(CurveError::NonFinite);
        }
        let segments = (0..points.len() - 1)
            .map(|i| {
                HermiteSegment::new(points[i], points[i + 1], tangents[i], tangents[i + 1])
                    .to_bezier()
            })
            .collect();
        Ok(Self { segments })
    }

    /// The polyline through `points` (k ≥ 2): straight segments traversed at constant speed in
    /// `t`. Consecutive duplicate points give zero-length segments, which arc-length queries
    /// skip.
    pub fn polyline(points: &[Vec3]) -> Result<Self, CurveError> {
        check_points(points, 2)?;
        let segments = points
            .windows(2)
            .map(|w| {
                let d = w[1] - w[0];
                [w[0], w[0] + d / 3.0, w[1] - d / 3.0, w[1]]
            })
            .collect();
        Ok(Self { segments })
    }

    /// The segments' Bézier control points.
    pub fn segments(&self) -> &[[Vec3; 4]] {
        &self.segments
    }
}

/// Checks that `points` has at least `min` entries, all finite.
pub(crate) fn check_points(points: &[Vec3], min: usize) -> Result<(), CurveError> {
    if points.len() < min {
        return Err(CurveError::TooFewPoints);
    }
    if !points.iter().all(|p| p.is_finite()) {
        return Err(CurveError::NonFinite);
    }
    Ok(())
}

/// Position of the cubic Bézier `b` at `t ∈ [0, 1]` (Bernstein form).
#[inline]
pub(crate) fn cubic_position(b: &[Vec3; 4], t: f32) -> Vec3 {
    let s = 1.0 - t;
    let (s2, t2) = (s * s, t * t);
    (s2 * s) * b[0] + (3.0 * s2 * t) * b[1] + (3.0 * s * t2) * b[2] + (t2 * t) * b[3]
}

/// Derivative of the cubic Bézier `b` at `t ∈ [0, 1]`.
#[inline]
pub(crate) fn cubic_derivative(b: &[Vec3; 4], t: f32) -> Vec3 {
    let s = 1.0 - t;
    3.0 * ((s * s) * (b[1] - b[0]) + (2.0 * s * t) * (b[2] - b[1]) + (t * t) * (b[3] - b[2]))
}

impl ParamCurve for CubicSpline {
    #[inline]
    fn segment_count(&self) -> usize {
        self.segments.len()
    }

    #[inline]
    fn position(&self, segment: usize, t: f32) -> Vec3 {
        let i = segment.min(self.segments.len() - 1);
        cubic_position(&self.segments[i], t.clamp(0.0, 1.0))
    }

    #[inline]
    fn derivative(&self, segment: usize, t: f32) -> Vec3 {
        let i = segment.min(self.segments.len() - 1);
        cubic_derivative(&self.segments[i], t.clamp(0.0, 1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hermite_spline_interpolates_knots_and_tangents() {
        let pts = [
            Vec3::ZERO,
            Vec3::new(4.0, 0.0, 1.0),
            Vec3::new(6.0, 2.0, -3.0),
        ];
        let tan = [Vec3::X, Vec3::new(0.0, 0.0, 2.0), Vec3::Y];
        let s = CubicSpline::hermite(&pts, &tan).unwrap();
        assert_eq!(s.segment_count(), 2);
        for i in 0..2 {
            assert!((s.position(i, 0.0) - pts[i]).length() < 1e-6);
            assert!((s.position(i, 1.0) - pts[i + 1]).length() < 1e-6);
            assert!((s.derivative(i, 0.0) - tan[i]).length() < 1e-5);
            assert!((s.derivative(i, 1.0) - tan[i + 1]).length() < 1e-5);
        }
    }

    #[test]
    fn bad_input_is_rejected() {
        assert_eq!(
            CubicSpline::polyline(&[Vec3::ZERO]),
            Err(CurveError::TooFewPoints)
        );
        assert_eq!(
            CubicSpline::polyline(&[Vec3::ZERO, Vec3::splat(f32::NAN)]),
            Err(CurveError::NonFinite)
        );
        assert_eq!(
            CubicSpline::hermite(&[Vec3::ZERO, Vec3::X], &[Vec3::X]),
            Err(CurveError::LengthMismatch)
        );
    }
}
