//! The exact trajectory of a bouncing projectile as a chain of quadratic Bézier curves (the
//! seed paper's predicted ping-pong trajectory, without the approximation).
//!
//! Between bounces the motion is `p(t) = p₀ + v₀t − ½gt²·ŷ`, a parabola: a polynomial of degree
//! 2 in `t`. Over `[t₀, t₁]` with `h = t₁ − t₀` it is *exactly* the quadratic Bézier
//!
//! ```text
//! P0 = p(t₀),   P1 = p(t₀) + v(t₀)·h/2,   P2 = p(t₁)
//! ```
//!
//! (a quadratic is fixed by its end points and start tangent: `B'(0) = 2(P1 − P0) = v(t₀)·h`),
//! so `B(τ) = p(t₀ + τh)` for `τ ∈ [0, 1]`: the Bézier parameter is time, rescaled.
//!
//! Each arc ends when the projectile reaches the ground plane `y = ground_y` moving down, at
//! `h = (v_y + √(v_y² + 2g·(y − ground_y)))/g`. There the vertical velocity flips and is scaled
//! by the restitution `e` (`v_y ← −e·v_y`); the horizontal velocity is kept. Everything is
//! computed in f64 and rounded to f32 once per control point; landing points get
//! `y = ground_y` exactly, and consecutive arcs share their end point exactly.
//!
//! Degenerate cases (all defined, never NaN):
//! - Start *on* the ground moving down or level (`v_y ≤ 0`): the first arc has duration 0
//!   (its three control points are the start point) and the bounce follows.
//! - `e = 0`: after the first landing `v_y = 0` on the ground, so every later arc has duration
//!   0: three copies of the landing point (the ball stops; sliding is not modelled).
//! - Zero vertical velocity above the ground: the projectile simply falls.
//! - Start *below* the ground: rejected ([`CurveError::InvalidArgument`]): the projectile
//!   would be inside the ground and never land.

use super::{BezierChain, BezierCurve, CurveError};
use glam::{DVec3, Vec3};

/// A projectile thrown from `start` with `velocity` under gravity `(0, −gravity, 0)`, bouncing
/// on the plane `y = ground_y` with `restitution ∈ [0, 1]`.
///
/// ```
/// use wayfarer::curve::Projectile;
/// use wayfarer::Vec3;
///
/// let ball = Projectile {
///     start: Vec3::new(0.0, 1.0, 0.0),
///     velocity: Vec3::new(2.0, 5.0, 0.0),
///     gravity: 9.81,
///     ground_y: 0.0,
///     restitution: 0.5,
/// };
/// let arcs: Vec<_> = ball.arcs(2).collect(); // the flight and two bounces
/// assert_eq!(arcs.len(), 3);
/// assert!(arcs[0].control_points[2].y.abs() < 1e-5); // the first arc ends on the ground
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projectile {
    /// Start position (at or above the ground).
    pub start: Vec3,
    /// Initial velocity (units per second).
    pub velocity: Vec3,
    /// Gravitational acceleration, pointing down −Y (> 0, units per second²).
    pub gravity: f32,
    /// Height of the ground plane.
    pub ground_y: f32,
    /// Fraction of the vertical speed kept at each bounce, in `[0, 1]`.
    pub restitution: f32,
}

/// One arc of the trajectory: a quadratic Bézier and its time span.
///
/// ```
/// use wayfarer::curve::Projectile;
/// use wayfarer::Vec3;
///
/// let ball = Projectile { start: Vec3::ZERO, velocity: Vec3::new(1.0, 4.9, 0.0), gravity: 9.8, ground_y: 0.0, restitution: 0.0 };
/// let first = ball.arcs(0).next().unwrap();
/// assert!((first.duration - 1.0).abs() < 1e-6); // up and down again in 2·4.9/9.8 s
/// assert_eq!(first.control_points[0], Vec3::ZERO);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BallisticArc {
    /// Time (seconds since the throw) at which the arc starts.
    pub start_time: f64,
    /// Duration of the arc in seconds (0 for a degenerate arc).
    pub duration: f64,
    /// The quadratic Bézier control points `[P0, P1, P2]`.
    pub control_points: [Vec3; 3],
}

impl Projectile {
    /// Checks the parameters: all finite ([`CurveError::NonFinite`]), `gravity > 0`,
    /// `restitution ∈ [0, 1]` and `start.y ≥ ground_y` ([`CurveError::InvalidArgument`]).
    pub fn validate(&self) -> Result<(), CurveError> {
        let scalars = [self.gravity, self.ground_y, self.restitution];
        if !self.start.is_finite()
            || !self.velocity.is_finite()
            || !scalars.iter().all(|x| x.is_finite())
        {
            return Err(CurveError::NonFinite);
        }
        if self.gravity <= 0.0
            || !(0.0..=1.0).contains(&self.restitution)
            || self.start.y < self.ground_y
        {
            return Err(CurveError::InvalidArgument);
        }
        Ok(())
    }

    /// Number of control points of the chain with `bounces` bounces (`bounces + 1` arcs):
    /// `1 + 2·(bounces + 1)`, or `None` if that overflows `usize`.
    pub fn control_point_count(bounces: u32) -> Option<usize> {
        (bounces as usize)
            .checked_add(1)?
            .checked_mul(2)?
            .checked_add(1)
    }

    /// The `bounces + 1` arcs, lazily (no allocation). Call [`validate`](Self::validate)
    /// first: invalid parameters give unspecified (possibly non-finite) arcs, never a panic.
    pub fn arcs(&self, bounces: u32) -> impl Iterator<Item = BallisticArc> + '_ {
        let g = self.gravity as f64;
        let ground = self.ground_y as f64;
        let e = self.restitution as f64;
        let mut p = self.start.as_dvec3();
        let mut v = self.velocity.as_dvec3();
        let mut time = 0.0f64;
        (0..=bounces).map(move |_| {
            let h = (p.y - ground).max(0.0);
            let disc = (v.y * v.y + 2.0 * g * h).sqrt();
            // Positive root of ½g·t² − v_y·t − h = 0, in the form without cancellation.
            let dt = if v.y >= 0.0 {
                (v.y + disc) / g
            } else if disc - v.y > 0.0 {
                2.0 * h / (disc - v.y)
            } else {
                0.0
            };
            let mut land = p + v * dt - DVec3::Y * (0.5 * g * dt * dt);
            land.y = ground;
            let p0 = p.as_vec3();
            let arc = BallisticArc {
                start_time: time,
                duration: dt,
                control_points: [
                    p0,
                    if dt > 0.0 {
                        (p + v * (0.5 * dt)).as_vec3()
                    } else {
                        p0
                    },
                    if dt > 0.0 { land.as_vec3() } else { p0 },
                ],
            };
            if dt > 0.0 {
                p = land;
            }
            let vy_land = v.y - g * dt;
            v.y = -e * vy_land.min(0.0);
            time += dt;
            arc
        })
    }

    /// The control points of the chain in the C ABI's shared-end-point layout:
    /// `P0, P1 of arc 0, P2 of arc 0 (= P0 of arc 1), P1 of arc 1, …`,
    /// [`control_point_count`](Self::control_point_count) of them.
    pub fn control_points(&self, bounces: u32) -> impl Iterator<Item = Vec3> + '_ {
        let first = self.start;
        core::iter::once(first).chain(
            self.arcs(bounces)
                .flat_map(|a| [a.control_points[1], a.control_points[2]]),
        )
    }

    /// The trajectory as a [`BezierChain`] of `bounces + 1` quadratic pieces.
    pub fn bezier_chain(&self, bounces: u32) -> Result<BezierChain, CurveError> {
        self.validate()?;
        let pieces = self
            .arcs(bounces)
            .map(|a| BezierCurve::new(a.control_points.to_vec()))
            .collect::<Result<Vec<_>, _>>()?;
        BezierChain::new(pieces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn throw() -> Projectile {
        Projectile {
            start: Vec3::new(0.0, 1.5, 0.0),
            velocity: Vec3::new(3.0, 4.0, 1.0),
            gravity: 9.81,
            ground_y: 0.0,
            restitution: 0.6,
        }
    }

    #[test]
    fn layout_and_shared_ends() {
        let p = throw();
        let pts: Vec<Vec3> = p.control_points(3).collect();
        assert_eq!(Some(pts.len()), Projectile::control_point_count(3));
        let arcs: Vec<BallisticArc> = p.arcs(3).collect();
        for (k, a) in arcs.iter().enumerate() {
            assert_eq!(a.control_points[0], pts[2 * k]);
            assert_eq!(a.control_points[2], pts[2 * k + 2]);
            assert_eq!(a.control_points[2].y, 0.0);
        }
        assert!(p.bezier_chain(3).is_ok());
    }

    #[test]
    fn bad_parameters_are_rejected() {
        let mut p = throw();
        p.start.y = -0.1;
        assert_eq!(p.validate(), Err(CurveError::InvalidArgument));
        let mut p = throw();
        p.gravity = 0.0;
        assert_eq!(p.validate(), Err(CurveError::InvalidArgument));
        let mut p = throw();
        p.restitution = 1.5;
        assert_eq!(p.validate(), Err(CurveError::InvalidArgument));
        let mut p = throw();
        p.velocity.x = f32::NAN;
        assert_eq!(p.validate(), Err(CurveError::NonFinite));
    }
}
