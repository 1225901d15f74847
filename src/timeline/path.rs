//! A path: one curve of any kind baked once with its arc-length table, queried by distance.
//!
//! Distance `d ∈ [0, L]` (clamped) → curve parameter through [`ArcLengthTable`] → position.
//! The forward is the unit tangent `C'(t)/|C'(t)|`. Where the speed `|C'(t)|` vanishes (a
//! Bézier whose first two control points coincide, a Catmull-Rom with tension 1 at its knots)
//! the forward is the chord direction `C(d + h) − C(d − h)` with `h = 10⁻⁴ L`, then the path's
//! first non-degenerate direction, then `+Z`: always finite and unit length, never NaN.

use super::nearest::{Nearest, NearestIndex};
use crate::curve::{AnyCurve, ArcLengthTable, BezierChain, BezierCurve, CubicSpline, CurveError};
use crate::curve::{CurveParam, ParamCurve};
use glam::Vec3;

/// A curve with its precomputed arc-length table (see the module docs).
#[derive(Clone, Debug)]
pub struct Path {
    curve: AnyCurve,
    table: ArcLengthTable,
    length: f32,
    /// Direction used when neither the tangent nor the local chord is defined.
    fallback_forward: Vec3,
    nearest: NearestIndex,
}

impl Path {
    /// Bakes a path from any curve of [`crate::curve`].
    pub fn new(curve: impl Into<AnyCurve>) -> Self {
        let curve = curve.into();
        let table = ArcLengthTable::new(&curve);
        let nearest = NearestIndex::new(&curve);
        let fallback_forward = nearest.first_direction().unwrap_or(Vec3::Z);
        Self {
            length: table.total_length(),
            curve,
            table,
            fallback_forward,
            nearest,
        }
    }

    /// The polyline through `points` (≥ 2; consecutive duplicates are zero-length segments that
    /// distance queries skip).
    pub fn polyline(points: &[Vec3]) -> Result<Self, CurveError> {
        Ok(Self::new(CubicSpline::polyline(points)?))
    }

    /// The Hermite spline through `points` with velocity `tangents[i]` at knot `i`.
    pub fn hermite(points: &[Vec3], tangents: &[Vec3]) -> Result<Self, CurveError> {
        Ok(Self::new(CubicSpline::hermite(points, tangents)?))
    }

    /// The Catmull-Rom spline through `points` (`alpha`, `tension` in `[0, 1]`).
    pub fn catmull_rom(points: &[Vec3], alpha: f32, tension: f32) -> Result<Self, CurveError> {
        Ok(Self::new(CubicSpline::catmull_rom(points, alpha, tension)?))
    }

    /// A chain of Bézier pieces sharing end points: `control_points.len() == 1 + Σ degrees`,
    /// each degree in `1..=64`.
    ///
    /// Errors: no piece or a count mismatch ([`CurveError::TooFewPoints`] /
    /// [`CurveError::LengthMismatch`]), a degree of 0 ([`CurveError::InvalidArgument`]) or
    /// above 64 ([`CurveError::TooManyPoints`]), non-finite points.
    pub fn bezier_chain(control_points: &[Vec3], degrees: &[u32]) -> Result<Self, CurveError> {
        if degrees.is_empty() {
            return Err(CurveError::TooFewPoints);
        }
        if degrees.contains(&0) {
            return Err(CurveError::InvalidArgument);
        }
        if degrees
            .iter()
            .any(|&d| d as usize > crate::curve::MAX_BEZIER_DEGREE)
        {
            return Err(CurveError::TooManyPoints);
        }
        let needed = degrees
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_add(d as usize));
        if needed != Some(control_points.len()) {
            return Err(CurveError::LengthMismatch);
        }
        let mut pieces = Vec::with_capacity(degrees.len());
        let mut first = 0usize;
        for &d in degrees {
            let last = first + d as usize;
            pieces.push(BezierCurve::new(control_points[first..=last].to_vec())?);
            first = last;
        }
        Ok(Self::new(BezierChain::new(pieces)?))
    }

    /// The curve this path was baked from.
    pub fn curve(&self) -> &AnyCurve {
        &self.curve
    }

    /// The arc-length table.
    pub fn table(&self) -> &ArcLengthTable {
        &self.table
    }

    /// Total arc length `L` (f32, as distances are given).
    #[inline]
    pub fn length(&self) -> f32 {
        self.length
    }

    /// The curve parameter at distance `d` (clamped to `[0, L]`).
    #[inline]
    pub fn param_at(&self, d: f32) -> CurveParam {
        self.table.param_at_distance(d)
    }

    /// [`Path::param_at`] starting from a caller-owned interval hint (bit-identical result).
    #[inline]
    pub fn param_at_hinted(&self, d: f32, hint: &mut usize) -> CurveParam {
        self.table.param_at_distance_hinted(d, hint)
    }

    /// Position at distance `d` (clamped to `[0, L]`).
    #[inline]
    pub fn position(&self, d: f32) -> Vec3 {
        let p = self.param_at(d);
        self.curve.position(p.segment, p.t)
    }

    /// Unit forward (tangent) at distance `d`; finite everywhere (see the module docs).
    #[inline]
    pub fn forward(&self, d: f32) -> Vec3 {
        self.forward_at(self.param_at(d), d)
    }

    /// Position and unit forward at distance `d`.
    #[inline]
    pub fn sample(&self, d: f32) -> (Vec3, Vec3) {
        let p = self.param_at(d);
        (self.curve.position(p.segment, p.t), self.forward_at(p, d))
    }

    /// Position and unit forward at a parameter already found for distance `d`.
    #[inline]
    pub fn sample_param(&self, p: CurveParam, d: f32) -> (Vec3, Vec3) {
        (self.curve.position(p.segment, p.t), self.forward_at(p, d))
    }

    /// Unit tangent at `p` (found for distance `d`), with the fallbacks of the module docs.
    #[inline]
    pub fn forward_at(&self, p: CurveParam, d: f32) -> Vec3 {
        match self.curve.derivative(p.segment, p.t).try_normalize() {
            Some(f) => f,
            None => self.chord_forward(d),
        }
    }

    #[cold]
    fn chord_forward(&self, d: f32) -> Vec3 {
        let h = self.length * 1e-4;
        let a = self.position((d - h).max(0.0));
        let b = self.position((d + h).min(self.length));
        (b - a).try_normalize().unwrap_or(self.fallback_forward)
    }

    /// The global nearest point of the path to `query` (see [`Nearest`] for the guarantee).
    pub fn nearest(&self, query: Vec3) -> Nearest {
        let (segment, t, point) = self.nearest.nearest(query);
        let param = CurveParam {
            segment,
            t: t as f32,
        };
        let distance = self
            .table
            .distance_at_param(&self.curve, param)
            .clamp(0.0, self.length as f64) as f32;
        Nearest {
            distance,
            point,
            gap: point.distance(query),
            param,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_points_and_zero_length_paths_are_finite() {
        let p = Vec3::new(1.0, 2.0, 3.0);
        let path = Path::polyline(&[p, p, p]).unwrap();
        assert_eq!(path.length(), 0.0);
        for d in [-1.0, 0.0, 0.5, 10.0] {
            let (pos, fwd) = path.sample(d);
            assert_eq!(pos, p);
            assert_eq!(fwd, Vec3::Z);
        }
        let path =
            Path::polyline(&[Vec3::ZERO, Vec3::X, Vec3::X, Vec3::new(1.0, 0.0, 1.0)]).unwrap();
        assert!((path.length() - 2.0).abs() < 1e-6);
        let (pos, fwd) = path.sample(1.0);
        assert!((pos - Vec3::X).length() < 1e-6);
        assert!(fwd.is_finite() && (fwd.length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn zero_speed_end_falls_back_to_the_chord() {
        // b1 == b0: the derivative at t = 0 is zero.
        let pts = [
            Vec3::ZERO,
            Vec3::ZERO,
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::X * 2.0,
        ];
        let path = Path::bezier_chain(&pts, &[3]).unwrap();
        let f = path.forward(0.0);
        assert!((f.length() - 1.0).abs() < 1e-5);
        assert!(f.x > 0.0 && f.z > 0.0);
    }

    #[test]
    fn bezier_chain_counts_are_checked() {
        let pts = [Vec3::ZERO, Vec3::X, Vec3::Y];
        assert_eq!(
            Path::bezier_chain(&pts, &[1, 2]).err(),
            Some(CurveError::LengthMismatch)
        );
        assert_eq!(
            Path::bezier_chain(&pts, &[0, 2]).err(),
            Some(CurveError::InvalidArgument)
        );
        assert!(Path::bezier_chain(&pts, &[1, 1]).is_ok());
        assert!(Path::bezier_chain(&pts, &[2]).is_ok());
    }
}
