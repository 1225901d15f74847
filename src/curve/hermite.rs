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

    /// Positions at every `ts[i]` (each clamped to `[0, 1]`) into `out[i]`; writes
    /// `min(ts.len(), out.len())` points.
    ///
    /// The batch path behind `wf_hermite_segment_sample`: the cubic is expanded once into
    /// per-component power-basis coefficients about `t = 0` and about `t = 1`
    /// (`H(1 + s) = p1 + m1·s + c1·s² + d·s³`), each lane uses the expansion nearer to its `t`
    /// (so `|x| ≤ ½`, the ends are exact and rounding stays within a few ulps of
    /// [`position`](Self::position)), and blocks of values are processed at once as x/y/z
    /// lane arrays, which the compiler turns into SIMD code (8 at a time). No allocation.
    pub fn sample(&self, ts: &[f32], out: &mut [Vec3]) {
        let c = PowerCoeffs::position(self);
        batch(&c, ts, out);
    }

    /// First derivatives at every `ts[i]` (clamped to `[0, 1]`) into `out[i]`, like
    /// [`sample`](Self::sample) (same method, applied to `H'`).
    pub fn sample_derivatives(&self, ts: &[f32], out: &mut [Vec3]) {
        let c = PowerCoeffs::derivative(self);
        batch(&c, ts, out);
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

/// How many parameters the batch path processes per step.
const BATCH: usize = 8;

/// A cubic per component, twice: `k0 + k1·x + k2·x² + k3·x³` with `x = t` (`lo`) and with
/// `x = t − 1` (`hi`). Index `[component][power]`.
struct PowerCoeffs {
    lo: [[f32; 4]; 3],
    hi: [[f32; 4]; 3],
}

impl PowerCoeffs {
    fn from_vecs(lo: [Vec3; 4], hi: [Vec3; 4]) -> Self {
        let split = |v: [Vec3; 4]| [v.map(|c| c.x), v.map(|c| c.y), v.map(|c| c.z)];
        Self {
            lo: split(lo),
            hi: split(hi),
        }
    }

    /// `H(t) = p0 + m0·t + c·t² + d·t³` with `c = 3(p1 − p0) − 2m0 − m1` and
    /// `d = 2(p0 − p1) + m0 + m1`; about `t = 1`, `H(1 + s) = p1 + m1·s + c1·s² + d·s³` with
    /// `c1 = H''(1)/2 = c + 3d = 3(p0 − p1) + m0 + 2m1`.
    fn position(h: &HermiteSegment) -> Self {
        let dp = h.p1 - h.p0;
        let c0 = 3.0 * dp - 2.0 * h.m0 - h.m1;
        let c1 = -3.0 * dp + h.m0 + 2.0 * h.m1;
        let d = -2.0 * dp + h.m0 + h.m1;
        Self::from_vecs([h.p0, h.m0, c0, d], [h.p1, h.m1, c1, d])
    }

    /// `H'(t) = m0 + 2c·t + 3d·t²`, about `t = 1`: `m1 + 2c1·s + 3d·s²`.
    fn derivative(h: &HermiteSegment) -> Self {
        let p = Self::position(h);
        let der = |k: [f32; 4]| [k[1], 2.0 * k[2], 3.0 * k[3], 0.0];
        Self {
            lo: p.lo.map(der),
            hi: p.hi.map(der),
        }
    }
}

/// Evaluates the cubic of one lane: Horner in the nearer expansion.
#[inline(always)]
fn lane(c: &PowerCoeffs, t: f32) -> [f32; 3] {
    let t = t.max(0.0).min(1.0);
    let hi = t > 0.5;
    let x = if hi { t - 1.0 } else { t };
    let mut r = [0.0f32; 3];
    for (k, r) in r.iter_mut().enumerate() {
        let q = if hi { c.hi[k] } else { c.lo[k] };
        *r = ((q[3] * x + q[2]) * x + q[1]) * x + q[0];
    }
    r
}

/// Chunks of [`BATCH`] parameters into x/y/z lane arrays, then an interleaved store.
fn batch(c: &PowerCoeffs, ts: &[f32], out: &mut [Vec3]) {
    let n = ts.len().min(out.len());
    let (ts, out) = (&ts[..n], &mut out[..n]);
    let mut t_chunks = ts.chunks_exact(BATCH);
    let mut o_chunks = out.chunks_exact_mut(BATCH);
    for (tc, oc) in (&mut t_chunks).zip(&mut o_chunks) {
        let mut xs = [0.0f32; BATCH];
        let mut ys = [0.0f32; BATCH];
        let mut zs = [0.0f32; BATCH];
        for j in 0..BATCH {
            let t = tc[j].max(0.0).min(1.0);
            let hi = t > 0.5;
            let x = if hi { t - 1.0 } else { t };
            let sel = |k: usize, p: usize| if hi { c.hi[k][p] } else { c.lo[k][p] };
            xs[j] = ((sel(0, 3) * x + sel(0, 2)) * x + sel(0, 1)) * x + sel(0, 0);
            ys[j] = ((sel(1, 3) * x + sel(1, 2)) * x + sel(1, 1)) * x + sel(1, 0);
            zs[j] = ((sel(2, 3) * x + sel(2, 2)) * x + sel(2, 1)) * x + sel(2, 0);
        }
        for j in 0..BATCH {
            oc[j] = Vec3::new(xs[j], ys[j], zs[j]);
        }
    }
    for (o, &t) in o_chunks
        .into_remainder()
        .iter_mut()
        .zip(t_chunks.remainder())
    {
        let [x, y, z] = lane(c, t);
        *o = Vec3::new(x, y, z);
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
