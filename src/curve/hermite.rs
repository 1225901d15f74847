//! One cubic Hermite segment: the BeanFollower primitive.
//!
//! Given end points `p0`, `p1` and end tangents (velocities) `m0`, `m1`:
//!
//! ```text
//! H(t)  = h00(t)·p0 + h10(t)·m0 + h01(t)·p1 + h11(t)·m1,    t ∈ [0, 1]
//! h00 = (1 + 2t)(1 − t)²   h10 = t(1 − t)²   h01 = t²(3 − 2t)   h11 = t²(t − 1)
//! H'(t) = (6t² − 6t)·p0 + (3t² − 4t + 1)·m0 + (6t − 6t²)·p1 + (3t² − 2t)·m1
//! ```
//!
//! so `H(0) = p0`, `H(1) = p1`, `H'(0) = m0`, `H'(1) = m1` exactly. (The BeanFollower article's
//! prose gives `h01 = t²(t − 1)`; its code, and this file, use the correct `t²(3 − 2t)`.)
//! `t` is clamped to `[0, 1]` like the seed's `Mathf.Clamp01`.

use glam::Vec3;

/// A cubic Hermite segment from `p0` to `p1` with end velocities `m0`, `m1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HermiteSegment {
    /// Start position.
    pub p0: Vec3,
    /// End position.
    pub p1: Vec3,
    /// Velocity at the start (d position / dt at `t = 0`).
    pub m0: Vec3,
    /// Velocity at the end (d position / dt at `t = 1`).
    pub m1: Vec3,
}

impl HermiteSegment {
    /// A segment from its end points and end velocities.
    pub fn new(p0: Vec3, p1: Vec3, m0: Vec3, m1: Vec3) -> Self {
        Self { p0, p1, m0, m1 }
    }

    /// Position at `t` (clamped to `[0, 1]`).
    #[inline]
    pub fn position(&self, t: f32) -> Vec3 {
        let t = t.clamp(0.0, 1.0);
        let s = 1.0 - t;
        let h00 = (1.0 + 2.0 * t) * s * s;
        let h10 = t * s * s;
        let h01 = t * t * (3.0 - 2.0 * t);
        let h11 = t * t * (t - 1.0);
        h00 * self.p0 + h10 * self.m0 + h01 * self.p1 + h11 * self.m1
    }

    /// First derivative at `t` (clamped to `[0, 1]`).
    #[inline]
    pub fn derivative(&self, t: f32) -> Vec3 {
        let t = t.clamp(0.0, 1.0);
        let d00 = 6.0 * t * (t - 1.0);
        let d10 = (3.0 * t - 1.0) * (t - 1.0);
        let d11 = t * (3.0 * t - 2.0);
        d00 * (self.p0 - self.p1) + d10 * self.m0 + d11 * self.m1
    }

    /// The same curve as cubic Bézier control points `[b0, b1, b2, b3]`
    /// (`b1 = p0 + m0/3`, `b2 = p1 − m1/3`).
    pub fn to_bezier(&self) -> [Vec3; 4] {
        [
            self.p0,
            self.p0 + self.m0 / 3.0,
            self.p1 - self.m1 / 3.0,
            self.p1,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn end_points_and_tangents_are_exact() {
        let h = HermiteSegment::new(
            Vec3::new(1.0, 2.0, 3.0),
            Vec3::new(-4.0, 5.0, 0.5),
            Vec3::new(0.0, 0.0, 7.0),
            Vec3::new(3.0, -1.0, 2.0),
        );
        assert_eq!(h.position(0.0), h.p0);
        assert_eq!(h.position(1.0), h.p1);
        assert_eq!(h.derivative(0.0), h.m0);
        assert_eq!(h.derivative(1.0), h.m1);
        assert_eq!(h.position(-3.0), h.p0);
        assert_eq!(h.position(9.0), h.p1);
    }
}
