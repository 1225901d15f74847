//! The global nearest point of a path to a query point, with a proven bound.
//!
//! Every segment of every curve kind is a Bézier piece `B(t)` of degree `n` (cubic splines
//! store their Bézier control points). For a query `q`, let `g(t) = |B(t) − q|²`. Then
//!
//! - `B` lies in the convex hull of its control points, so the squared distance from `q` to
//!   their bounding box is a lower bound of `g` over the whole segment (segment culling);
//! - `|B'| ≤ M₁ = n·maxᵢ|cᵢ₊₁ − cᵢ|` and `|B''| ≤ M₂ = n(n−1)·maxᵢ|cᵢ₊₂ − 2cᵢ₊₁ + cᵢ|` (the
//!   hodographs lie in the hulls of their control points), hence on `[m − h, m + h]`
//!   `|g''| = 2|B'|² + 2(B − q)·B'' ≤ K = 2(M₁² + (|B(m) − q| + M₁h)·M₂)` and, by Taylor,
//!   `g(t) ≥ g(m) − |g'(m)|·h − K·h²/2`.
//!
//! Branch and bound: an interval is split until that lower bound can no longer beat the best
//! distance found so far by more than `ε = 10⁻⁷ × (size of the path's bounding box)` (or
//! 10⁻⁹ × the distance, when that is larger: f64 resolves nothing finer); the
//! second-order bound keeps O(1) live intervals per level near a minimum. The winner is then
//! polished by Newton steps on `g'`. All of it runs in f64 on the control points. Result: the
//! returned distance exceeds the true global minimum by at most `ε` (plus f64 rounding), no
//! matter how many local minima the path has. No allocation per query.

use crate::curve::{AnyCurve, CurveParam};
use glam::{DVec3, Vec3};

/// The nearest point of a path to a query point.
///
/// ```
/// use wayfarer::timeline::Path;
/// use wayfarer::Vec3;
///
/// let street = Path::polyline(&[Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0)]).unwrap();
/// let near = street.nearest(Vec3::new(4.0, 0.0, 3.0));
/// assert!((near.distance - 4.0).abs() < 1e-4); // resume 4 m along the street
/// assert!((near.gap - 3.0).abs() < 1e-4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nearest {
    /// Distance along the path (arc length from the start) of the nearest point.
    pub distance: f32,
    /// The nearest point.
    pub point: Vec3,
    /// Euclidean distance from the query to `point`.
    pub gap: f32,
    /// Curve parameter of the nearest point.
    pub param: CurveParam,
}

/// Per-segment data for the search (f64 control points, bounds).
#[derive(Clone, Debug)]
pub(crate) struct NearestIndex {
    ctrl: Vec<DVec3>,
    /// Segment `i` owns `ctrl[first[i]..first[i + 1]]`.
    first: Vec<u32>,
    bounds: Vec<SegmentBound>,
    eps: f64,
}

#[derive(Clone, Copy, Debug)]
struct SegmentBound {
    min: DVec3,
    max: DVec3,
    m1: f64,
    m2: f64,
}

/// Deepest interval split (half-width 2⁻⁴⁴): far below f32 resolution of any parameter.
const MAX_DEPTH: usize = 44;

impl NearestIndex {
    pub(crate) fn new(curve: &AnyCurve) -> Self {
        let mut ctrl = Vec::new();
        let mut first = vec![0u32];
        match curve {
            AnyCurve::Cubic(c) => {
                for s in c.segments() {
                    ctrl.extend(s.iter().map(|p| p.as_dvec3()));
                    first.push(ctrl.len() as u32);
                }
            }
            AnyCurve::Bezier(c) => {
                for piece in c.pieces() {
                    ctrl.extend(piece.points().iter().map(|p| p.as_dvec3()));
                    first.push(ctrl.len() as u32);
                }
            }
        }
        let mut lo = DVec3::splat(f64::INFINITY);
        let mut hi = DVec3::splat(f64::NEG_INFINITY);
        let bounds = first
            .windows(2)
            .map(|w| {
                let c = &ctrl[w[0] as usize..w[1] as usize];
                let n = (c.len() - 1) as f64;
                let (mut min, mut max) = (c[0], c[0]);
                for &p in c {
                    min = min.min(p);
                    max = max.max(p);
                }
                lo = lo.min(min);
                hi = hi.max(max);
                let m1 = c
                    .windows(2)
                    .map(|d| (d[1] - d[0]).length())
                    .fold(0.0, f64::max)
                    * n;
                let m2 = c
                    .windows(3)
                    .map(|d| (d[2] - 2.0 * d[1] + d[0]).length())
                    .fold(0.0, f64::max)
                    * n
                    * (n - 1.0);
                SegmentBound { min, max, m1, m2 }
            })
            .collect();
        let size = (hi - lo).length();
        let eps = if size.is_finite() && size > 0.0 {
            size * 1e-7
        } else {
            1e-12
        };
        Self {
            ctrl,
            first,
            bounds,
            eps,
        }
    }

    /// The first non-zero direction between consecutive control points, if any.
    pub(crate) fn first_direction(&self) -> Option<Vec3> {
        self.ctrl
            .windows(2)
            .find_map(|w| (w[1] - w[0]).try_normalize())
            .map(|d| d.as_vec3())
    }

    fn segment(&self, s: usize) -> &[DVec3] {
        &self.ctrl[self.first[s] as usize..self.first[s + 1] as usize]
    }

    /// `true` when a lower bound `lb` of a squared distance cannot beat `best` (squared) by
    /// more than `eps` in distance, or by more than 1e-9 of the distance itself: below that,
    /// f64 cannot tell the squared distances apart (a path 1e-35 long seen from 1e3 away), no
    /// interval would ever be pruned and the search would split 2^44 of them.
    #[inline]
    fn prune(&self, lb: f64, best: f64) -> bool {
        let d = best.sqrt();
        let r = d - self.eps.max(d * 1e-9);
        r <= 0.0 || lb >= r * r
    }

    /// Segment, parameter and point of the global nearest point to `query`.
    pub(crate) fn nearest(&self, query: Vec3) -> (usize, f64, Vec3) {
        let q = query.as_dvec3();
        let segs = self.bounds.len();
        // Upper bound from every segment's end points.
        let mut best = f64::INFINITY;
        let mut at = (0usize, 0.0f64);
        for s in 0..segs {
            let c = self.segment(s);
            for (t, p) in [(0.0, c[0]), (1.0, c[c.len() - 1])] {
                let g = (p - q).length_squared();
                if g < best {
                    best = g;
                    at = (s, t);
                }
            }
        }
        for s in 0..segs {
            let b = &self.bounds[s];
            let lb = (q.clamp(b.min, b.max) - q).length_squared();
            if self.prune(lb, best) {
                continue;
            }
            self.branch_and_bound(s, q, &mut best, &mut at);
        }
        let (s, t) = self.polish(at.0, at.1, q);
        let (p, _, _) = eval(self.segment(s), t);
        (s, t, p.as_vec3())
    }

    fn branch_and_bound(&self, s: usize, q: DVec3, best: &mut f64, at: &mut (usize, f64)) {
        let c = self.segment(s);
        let b = self.bounds[s];
        let mut stack = [(0.0f64, 1.0f64, 0usize); MAX_DEPTH + 2];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let (lo, hi, depth) = stack[top];
            let m = 0.5 * (lo + hi);
            let h = 0.5 * (hi - lo);
            let (p, d1, _) = eval(c, m);
            let r = p - q;
            let g = r.length_squared();
            if g < *best {
                *best = g;
                *at = (s, m);
            }
            let k = 2.0 * (b.m1 * b.m1 + (g.sqrt() + b.m1 * h) * b.m2);
            let lb = g - (2.0 * r.dot(d1)).abs() * h - 0.5 * k * h * h;
            if depth >= MAX_DEPTH || self.prune(lb, *best) {
                continue;
            }
            stack[top] = (m, hi, depth + 1);
            stack[top + 1] = (lo, m, depth + 1);
            top += 2;
        }
    }

    /// Newton steps on `g'(t) = 2(B − q)·B'` from `(s, t)`, keeping only improvements.
    fn polish(&self, s: usize, mut t: f64, q: DVec3) -> (usize, f64) {
        let c = self.segment(s);
        let (p, _, _) = eval(c, t);
        let mut g = (p - q).length_squared();
        for _ in 0..8 {
            let (p, d1, d2) = eval(c, t);
            let r = p - q;
            let g1 = r.dot(d1);
            let g2 = d1.length_squared() + r.dot(d2);
            if g2 <= 0.0 || g1 == 0.0 {
                break;
            }
            let tn = (t - g1 / g2).clamp(0.0, 1.0);
            let (pn, _, _) = eval(c, tn);
            let gn = (pn - q).length_squared();
            if gn >= g {
                break;
            }
            t = tn;
            g = gn;
        }
        (s, t)
    }
}

/// Position, first and second derivative of the Bézier `c` at `t` (de Casteljau in f64).
#[inline]
fn eval(c: &[DVec3], t: f64) -> (DVec3, DVec3, DVec3) {
    // Small buffers for the common degrees: zeroing and copying 65 points per evaluation
    // would cost more than the arithmetic.
    if c.len() <= 4 {
        let mut buf = [DVec3::ZERO; 4];
        buf[..c.len()].copy_from_slice(c);
        reduce(&mut buf[..c.len()], t)
    } else if c.len() <= 8 {
        let mut buf = [DVec3::ZERO; 8];
        buf[..c.len()].copy_from_slice(c);
        reduce(&mut buf[..c.len()], t)
    } else {
        let mut buf = [DVec3::ZERO; crate::curve::MAX_BEZIER_DEGREE + 1];
        buf[..c.len()].copy_from_slice(c);
        reduce(&mut buf[..c.len()], t)
    }
}

/// de Casteljau in place on `buf` (the control points), returning `B`, `B'`, `B''` at `t`.
#[inline]
fn reduce(buf: &mut [DVec3], t: f64) -> (DVec3, DVec3, DVec3) {
    let n = buf.len() - 1;
    let s = 1.0 - t;
    let mut d2 = DVec3::ZERO;
    let mut d1 = DVec3::ZERO;
    for level in (1..=n).rev() {
        if level == 2 {
            // Three points left: B'' = n(n−1)(b2 − 2b1 + b0).
            d2 = (n * (n - 1)) as f64 * (buf[2] - 2.0 * buf[1] + buf[0]);
        }
        if level == 1 {
            d1 = n as f64 * (buf[1] - buf[0]);
        }
        for i in 0..level {
            buf[i] = s * buf[i] + t * buf[i + 1];
        }
    }
    (buf[0], d1, d2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::CubicSpline;

    #[test]
    fn derivatives_of_the_f64_evaluator_match_finite_differences() {
        let c = [
            DVec3::ZERO,
            DVec3::new(1.0, 2.0, 0.0),
            DVec3::new(3.0, -1.0, 1.0),
            DVec3::new(4.0, 0.5, 0.0),
            DVec3::new(2.0, 2.0, 2.0),
        ];
        let h = 1e-5;
        for t in [0.1, 0.4, 0.77] {
            let (p, d1, d2) = eval(&c, t);
            let (pa, d1a, _) = eval(&c, t - h);
            let (pb, d1b, _) = eval(&c, t + h);
            assert!(((pb - pa) / (2.0 * h) - d1).length() < 1e-6);
            assert!(((d1b - d1a) / (2.0 * h) - d2).length() < 1e-5);
            assert!(p.is_finite());
        }
    }

    #[test]
    fn the_second_derivative_of_a_cubic_is_taken_before_the_last_levels() {
        // For a cubic, level 2 is reached after one reduction: the formula uses the reduced
        // points, which equals the hodograph's derivative evaluated at t.
        let s = CubicSpline::hermite(&[Vec3::ZERO, Vec3::X], &[Vec3::Y, Vec3::Z]).unwrap();
        let c: Vec<DVec3> = s.segments()[0].iter().map(|p| p.as_dvec3()).collect();
        let h = 1e-5;
        let (_, d1a, _) = eval(&c, 0.3 - h);
        let (_, d1b, _) = eval(&c, 0.3 + h);
        let (_, _, d2) = eval(&c, 0.3);
        assert!(((d1b - d1a) / (2.0 * h) - d2).length() < 1e-5);
    }
}
