//! Bézier curves of any degree 1..=64 and chains of them.
//!
//! `B(t) = Σᵢ C(n,i)(1−t)^(n−i) tⁱ Pᵢ`, evaluated with de Casteljau's algorithm (repeated linear
//! interpolation, the seed paper's "degree reduction") on a stack buffer: no allocation, and
//! every step is a convex combination, so the f32 error stays bounded by the control points'
//! magnitude. The derivative is `n` times the Bézier curve of the differences
//! `Pᵢ₊₁ − Pᵢ` (the hodograph).

use super::cubic::check_points;
use super::{CurveError, ParamCurve};
use glam::Vec3;

/// The highest supported degree (65 control points).
pub const MAX_BEZIER_DEGREE: usize = 64;

/// One Bézier curve of degree `points.len() − 1` (1..=64).
#[derive(Clone, Debug, PartialEq)]
pub struct BezierCurve {
    points: Vec<Vec3>,
}

impl BezierCurve {
    /// A Bézier curve from its 2..=65 control points (end points included).
    pub fn new(points: Vec<Vec3>) -> Result<Self, CurveError> {
        check_points(&points, 2)?;
        if points.len() > MAX_BEZIER_DEGREE + 1 {
            return Err(CurveError::TooManyPoints);
        }
        Ok(Self { points })
    }

    /// The control points.
    pub fn points(&self) -> &[Vec3] {
        &self.points
    }

    /// The degree (control points − 1).
    pub fn degree(&self) -> usize {
        self.points.len() - 1
    }

    /// Position at `t` (clamped to `[0, 1]`).
    pub fn position(&self, t: f32) -> Vec3 {
        de_casteljau(&self.points, t.clamp(0.0, 1.0))
    }

    /// First derivative at `t` (clamped to `[0, 1]`).
    pub fn derivative(&self, t: f32) -> Vec3 {
        let t = t.clamp(0.0, 1.0);
        let n = self.points.len() - 1;
        let mut diff = [Vec3::ZERO; MAX_BEZIER_DEGREE];
        for (d, w) in diff.iter_mut().zip(self.points.windows(2)) {
            *d = w[1] - w[0];
        }
        n as f32 * de_casteljau(&diff[..n], t)
    }
}

/// de Casteljau's algorithm on a copy of `points` (≤ 65 of them) at `t ∈ [0, 1]`.
fn de_casteljau(points: &[Vec3], t: f32) -> Vec3 {
    let mut buf = [Vec3::ZERO; MAX_BEZIER_DEGREE + 1];
    let n = points.len();
    buf[..n].copy_from_slice(points);
    let s = 1.0 - t;
    for level in (1..n).rev() {
        for i in 0..level {
            buf[i] = s * buf[i] + t * buf[i + 1];
        }
    }
    buf[0]
}

/// Bézier curves joined end to end (the paper's two-piece ping-pong trajectory); each piece
/// may have its own degree. Piece `i` is segment `i` of the [`ParamCurve`].
#[derive(Clone, Debug, PartialEq)]
pub struct BezierChain {
    pieces: Vec<BezierCurve>,
}

impl BezierChain {
    /// A chain from its pieces; each piece must start exactly where the previous one ends.
    pub fn new(pieces: Vec<BezierCurve>) -> Result<Self, CurveError> {
        if pieces.is_empty() {
            return Err(CurveError::TooFewPoints);
        }
        if pieces
            .windows(2)
            .any(|w| w[0].points.last() != w[1].points.first())
        {
            return Err(CurveError::InvalidArgument);
        }
        Ok(Self { pieces })
    }

    /// The pieces.
    pub fn pieces(&self) -> &[BezierCurve] {
        &self.pieces
    }
}

impl ParamCurve for BezierCurve {
    fn segment_count(&self) -> usize {
        1
    }
    fn position(&self, _segment: usize, t: f32) -> Vec3 {
        BezierCurve::position(self, t)
    }
    fn derivative(&self, _segment: usize, t: f32) -> Vec3 {
        BezierCurve::derivative(self, t)
    }
}

impl ParamCurve for BezierChain {
    fn segment_count(&self) -> usize {
        self.pieces.len()
    }
    fn position(&self, segment: usize, t: f32) -> Vec3 {
        self.pieces[segment.min(self.pieces.len() - 1)].position(t)
    }
    fn derivative(&self, segment: usize, t: f32) -> Vec3 {
        self.pieces[segment.min(self.pieces.len() - 1)].derivative(t)
    }
}
