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

use glam::{Vec3, Vec4};

/// A cubic Hermite segment from `p0` to `p1` with end velocities `m0`, `m1`.
///
/// ```
/// use wayfarer::curve::HermiteSegment;
/// use wayfarer::Vec3;
///
/// // From (0,0,0) leaving along +X to (4,0,2) arriving along +Z.
/// let seg = HermiteSegment::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 2.0), Vec3::X * 4.0, Vec3::Z * 4.0);
/// let ts = [0.0, 0.5, 1.0];
/// let mut points = [Vec3::ZERO; 3];
/// seg.eval(&ts, &mut points); // many parameters in one call
/// assert_eq!(points[0], Vec3::ZERO);
/// assert_eq!(points[1], seg.position(0.5)); // the same bits as one at a time
/// ```
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
    /// The batch path behind `wf_hermite_segment_eval`: blocks of 8 parameters are processed
    /// in SIMD lanes (8-wide AVX when the CPU has it, detected at run time; 4-wide SSE/NEON
    /// through [`Vec4`] otherwise) — the four basis weights once per parameter, shared by x, y
    /// and z, then one weighted sum per component, then an interleaved store by shuffles. The
    /// operations are those of [`position`](Self::position) in the same order (no FMA), so
    /// the results are bit-identical to it for every non-NaN `t` (ends exact; a NaN `t` may
    /// give the start point instead of NaN). Outputs of 65 536 points or more are written
    /// with non-temporal (streaming) stores on x86-64 with AVX. No allocation.
    pub fn eval(&self, ts: &[f32], out: &mut [Vec3]) {
        let k = [self.p0, self.m0, self.p1, self.m1];
        batch(
            k,
            position_weights,
            Basis::Position,
            |t| self.position(t),
            ts,
            out,
        );
    }

    /// First derivatives at every `ts[i]` (clamped to `[0, 1]`) into `out[i]`, like
    /// [`eval`](Self::eval) (same method, applied to `H'`).
    pub fn eval_derivatives(&self, ts: &[f32], out: &mut [Vec3]) {
        // The fourth weight is zero: `0·0` adds +0, which leaves every sum unchanged.
        let k = [self.p0 - self.p1, self.m0, self.m1, Vec3::ZERO];
        batch(
            k,
            derivative_weights,
            Basis::Derivative,
            |t| self.derivative(t),
            ts,
            out,
        );
    }

    /// Former name of [`eval`](Self::eval).
    #[deprecated(note = "renamed to `eval` (positions at these parameters)")]
    pub fn sample(&self, ts: &[f32], out: &mut [Vec3]) {
        self.eval(ts, out);
    }

    /// Former name of [`eval_derivatives`](Self::eval_derivatives).
    #[deprecated(note = "renamed to `eval_derivatives`")]
    pub fn sample_derivatives(&self, ts: &[f32], out: &mut [Vec3]) {
        self.eval_derivatives(ts, out);
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

/// Outputs of at least this many points (768 KiB, beyond a typical L2 share) are written
/// with non-temporal (streaming) stores on x86-64: the points go to memory without first
/// reading their cache lines, which halves the memory traffic of a large batch and keeps it
/// from evicting the caller's working set. Smaller outputs use ordinary stores (they are
/// usually read again soon, from cache).
const STREAM_MIN: usize = 1 << 16;

/// The four weights of a segment's end points and end velocities at `t` (4 lanes at once),
/// with the same operations as [`HermiteSegment::position`] (so the results are bit-identical).
#[inline(always)]
fn position_weights(t: Vec4) -> [Vec4; 4] {
    let t = t.clamp(Vec4::ZERO, Vec4::ONE);
    let s = Vec4::ONE - t;
    let h00 = (Vec4::ONE + 2.0 * t) * s * s;
    let h10 = t * s * s;
    let h01 = t * t * (Vec4::splat(3.0) - 2.0 * t);
    let h11 = t * t * (t - Vec4::ONE);
    [h00, h10, h01, h11]
}

/// The weights of `p0 − p1`, `m0`, `m1` in [`HermiteSegment::derivative`] (last one unused).
#[inline(always)]
fn derivative_weights(t: Vec4) -> [Vec4; 4] {
    let t = t.clamp(Vec4::ZERO, Vec4::ONE);
    let d00 = 6.0 * t * (t - Vec4::ONE);
    let d10 = (3.0 * t - Vec4::ONE) * (t - Vec4::ONE);
    let d11 = t * (3.0 * t - Vec4::splat(2.0));
    [d00, d10, d11, Vec4::ZERO]
}

/// Four points given as x/y/z lane vectors, interleaved: `[x0 y0 z0 x1] [y1 z1 x2 y2]
/// [z2 x3 y3 z3]`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn interleave4(v: [Vec4; 3]) -> [Vec4; 3] {
    use core::arch::x86_64::{__m128, _mm_shuffle_ps, _mm_unpackhi_ps, _mm_unpacklo_ps};
    let (x, y, z): (__m128, __m128, __m128) = (v[0].into(), v[1].into(), v[2].into());
    // SAFETY: SSE is part of the x86_64 baseline; the shuffles only move register lanes.
    unsafe {
        let xy_lo = _mm_unpacklo_ps(x, y); // x0 y0 x1 y1
        let xy_hi = _mm_unpackhi_ps(x, y); // x2 y2 x3 y3
        let zx = _mm_shuffle_ps::<0b01_01_00_00>(z, x); // z0 z0 x1 x1
        let out0 = _mm_shuffle_ps::<0b10_00_01_00>(xy_lo, zx); // x0 y0 z0 x1
        let yz = _mm_shuffle_ps::<0b01_01_01_01>(y, z); // y1 y1 z1 z1
        let out1 = _mm_shuffle_ps::<0b01_00_10_00>(yz, xy_hi); // y1 z1 x2 y2
        let zz = _mm_shuffle_ps::<0b11_10_10_10>(z, xy_hi); // z2 z2 x3 y3
        let yz3 = _mm_shuffle_ps::<0b11_11_11_11>(xy_hi, z); // y3 y3 z3 z3
        let out2 = _mm_shuffle_ps::<0b10_00_10_00>(zz, yz3); // z2 x3 y3 z3
        [out0.into(), out1.into(), out2.into()]
    }
}

/// Stores four points given as x/y/z lane vectors into `out[..4]` (interleaved xyz).
#[inline(always)]
fn store4(v: [Vec4; 3], out: &mut [Vec3]) {
    let out = &mut out[..4];
    #[cfg(target_arch = "x86_64")]
    {
        let r = interleave4(v);
        let p = out.as_mut_ptr() as *mut f32;
        for (j, r) in r.into_iter().enumerate() {
            // SAFETY: `out` holds 4 Vec3 = 12 contiguous f32 (Vec3 is repr(C) {x, y, z}); the
            // three unaligned 4-float stores cover exactly floats 0..12 of it.
            unsafe { core::arch::x86_64::_mm_storeu_ps(p.add(4 * j), r.into()) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let [x, y, z] = v.map(|c| c.to_array());
        for (j, o) in out.iter_mut().enumerate() {
            *o = Vec3::new(x[j], y[j], z[j]);
        }
    }
}

/// Chunks of [`BATCH`] parameters: the basis weights are computed once per parameter, four
/// lanes per [`Vec4`] (an SSE/NEON register where available) and shared by x, y and z; each
/// component is then `Σ wᵢ·kᵢ` with the vectors `k` (terms added in the scalar code's order),
/// and an interleaved store writes the points.
#[inline(never)]
fn batch(
    k: [Vec3; 4],
    weights: impl Fn(Vec4) -> [Vec4; 4],
    basis: Basis,
    scalar: impl Fn(f32) -> Vec3,
    ts: &[f32],
    out: &mut [Vec3],
) {
    let n = ts.len().min(out.len());
    let (ts, out) = (&ts[..n], &mut out[..n]);
    let kx = k.map(|v| Vec4::splat(v.x));
    let ky = k.map(|v| Vec4::splat(v.y));
    let kz = k.map(|v| Vec4::splat(v.z));
    #[cfg(target_arch = "x86_64")]
    let avx = std::arch::is_x86_feature_detected!("avx");
    #[cfg(target_arch = "x86_64")]
    if avx && n >= STREAM_MIN {
        // Large outputs: ordinary stores up to a 16-byte aligned point, then streaming.
        let p = out.as_ptr() as usize;
        if let Some(head) = (0..4).find(|i| (p + 12 * i).is_multiple_of(16)) {
            for (o, &t) in out[..head].iter_mut().zip(&ts[..head]) {
                *o = scalar(t);
            }
            let (ts, out) = (&ts[head..], &mut out[head..]);
            let whole = ts.len() / BATCH * BATCH;
            let (t_wide, t_rest) = ts.split_at(whole);
            let (o_wide, o_rest) = out.split_at_mut(whole);
            // SAFETY: the CPU supports AVX (checked above); both slices hold `whole`, a
            // multiple of BATCH, elements; `o_wide` starts on a 16-byte boundary.
            unsafe { wide_avx::<true>(&k, basis, t_wide, o_wide) };
            for (o, &t) in o_rest.iter_mut().zip(t_rest) {
                *o = scalar(t);
            }
            return;
        }
    }
    let whole = n / BATCH * BATCH;
    let (t_wide, t_rest) = ts.split_at(whole);
    let (o_wide, o_rest) = out.split_at_mut(whole);
    #[cfg(target_arch = "x86_64")]
    if avx {
        // SAFETY: the CPU supports AVX (checked just above); both slices hold `whole`, a
        // multiple of BATCH, elements.
        unsafe { wide_avx::<false>(&k, basis, t_wide, o_wide) };
    } else {
        wide(&kx, &ky, &kz, &weights, t_wide, o_wide);
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = basis;
        wide(&kx, &ky, &kz, &weights, t_wide, o_wide);
    }
    for (o, &t) in o_rest.iter_mut().zip(t_rest) {
        *o = scalar(t);
    }
}

/// Which basis the batch path evaluates.
#[derive(Clone, Copy)]
enum Basis {
    Position,
    Derivative,
}

/// The chunked loop in 8-wide AVX registers: the same operations in the same order as
/// [`HermiteSegment::position`] / [`HermiteSegment::derivative`] (no FMA), so the results are
/// bit-identical; each half of the 8 results is stored by [`store4`].
///
/// # Safety
/// The CPU must support AVX; `ts.len()` and `out.len()` must be equal multiples of [`BATCH`].
///
/// With `STREAM`, the points are written by non-temporal stores (`movntps`), followed by an
/// `sfence` so they are ordered before anything the caller writes next; `out` must then
/// start on a 16-byte boundary.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn wide_avx<const STREAM: bool>(k: &[Vec3; 4], basis: Basis, ts: &[f32], out: &mut [Vec3]) {
    use core::arch::x86_64::*;
    let one = _mm256_set1_ps(1.0);
    let two = _mm256_set1_ps(2.0);
    let three = _mm256_set1_ps(3.0);
    let six = _mm256_set1_ps(6.0);
    let zero = _mm256_setzero_ps();
    let kc = |c: usize| k.map(|v| _mm256_set1_ps(v.to_array()[c]));
    let (kx, ky, kz) = (kc(0), kc(1), kc(2));
    for (tc, oc) in ts.chunks_exact(BATCH).zip(out.chunks_exact_mut(BATCH)) {
        // SAFETY: `tc` holds BATCH = 8 floats.
        let t = unsafe { _mm256_loadu_ps(tc.as_ptr()) };
        let t = _mm256_min_ps(_mm256_max_ps(t, zero), one);
        let tm1 = _mm256_sub_ps(t, one);
        let w = match basis {
            Basis::Position => {
                let s = _mm256_sub_ps(one, t);
                let tt = _mm256_mul_ps(t, t);
                let h00 = _mm256_mul_ps(
                    _mm256_mul_ps(_mm256_add_ps(one, _mm256_mul_ps(two, t)), s),
                    s,
                );
                let h10 = _mm256_mul_ps(_mm256_mul_ps(t, s), s);
                let h01 = _mm256_mul_ps(tt, _mm256_sub_ps(three, _mm256_mul_ps(two, t)));
                let h11 = _mm256_mul_ps(tt, tm1);
                [h00, h10, h01, h11]
            }
            Basis::Derivative => {
                let d00 = _mm256_mul_ps(_mm256_mul_ps(six, t), tm1);
                let d10 = _mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(three, t), one), tm1);
                let d11 = _mm256_mul_ps(t, _mm256_sub_ps(_mm256_mul_ps(three, t), two));
                [d00, d10, d11, zero]
            }
        };
        let dot = |c: &[__m256; 4]| {
            let mut acc = _mm256_add_ps(_mm256_mul_ps(w[0], c[0]), _mm256_mul_ps(w[1], c[1]));
            acc = _mm256_add_ps(acc, _mm256_mul_ps(w[2], c[2]));
            if let Basis::Position = basis {
                acc = _mm256_add_ps(acc, _mm256_mul_ps(w[3], c[3]));
            }
            acc
        };
        let r = [dot(&kx), dot(&ky), dot(&kz)];
        let lo = r.map(|v| Vec4::from(_mm256_castps256_ps128(v)));
        let hi = r.map(|v| Vec4::from(_mm256_extractf128_ps::<1>(v)));
        if STREAM {
            // SAFETY: `oc` holds 8 points = 24 floats, 16-byte aligned (the caller's start is
            // aligned and each chunk is 96 bytes).
            unsafe { stream8(lo, hi, oc) };
        } else {
            let (o1, o2) = oc.split_at_mut(4);
            store4(lo, o1);
            store4(hi, o2);
        }
    }
    if STREAM {
        _mm_sfence();
    }
}

/// The interleaving of [`store4`] for 8 points, written with non-temporal stores.
///
/// # Safety
/// `out` must hold 8 points and start on a 16-byte boundary.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn stream8(lo: [Vec4; 3], hi: [Vec4; 3], out: &mut [Vec3]) {
    use core::arch::x86_64::{__m128, _mm_stream_ps};
    let out = &mut out[..8];
    let p = out.as_mut_ptr() as *mut f32;
    debug_assert!((p as usize).is_multiple_of(16));
    for (h, v) in [lo, hi].into_iter().enumerate() {
        let r = interleave4(v);
        for (j, r) in r.into_iter().enumerate() {
            // SAFETY: floats 12h + 4j .. +4 lie inside the 24 floats of `out`, and are
            // 16-byte aligned (p is, and 48h + 16j bytes are multiples of 16).
            unsafe { _mm_stream_ps(p.add(12 * h + 4 * j), __m128::from(r)) };
        }
    }
}

/// The chunked loop of [`batch`] over whole chunks of [`BATCH`].
#[inline(always)]
fn wide(
    kx: &[Vec4; 4],
    ky: &[Vec4; 4],
    kz: &[Vec4; 4],
    weights: &impl Fn(Vec4) -> [Vec4; 4],
    ts: &[f32],
    out: &mut [Vec3],
) {
    let eval = |t: Vec4| -> [Vec4; 3] {
        let w = weights(t);
        let dot = |c: &[Vec4; 4]| w[0] * c[0] + w[1] * c[1] + w[2] * c[2] + w[3] * c[3];
        [dot(kx), dot(ky), dot(kz)]
    };
    let mut t_chunks = ts.chunks_exact(BATCH);
    let mut o_chunks = out.chunks_exact_mut(BATCH);
    for (tc, oc) in (&mut t_chunks).zip(&mut o_chunks) {
        let a = eval(Vec4::from_slice(&tc[..4]));
        let b = eval(Vec4::from_slice(&tc[4..]));
        let (o1, o2) = oc.split_at_mut(4);
        store4(a, o1);
        store4(b, o2);
    }
    debug_assert!(t_chunks.remainder().is_empty() && o_chunks.into_remainder().is_empty());
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

    #[test]
    fn batch_equals_scalar() {
        let h = HermiteSegment::new(
            Vec3::new(1.0, 2.0, 3.0),
            Vec3::new(-4.0, 5.0, 0.5),
            Vec3::new(0.0, 0.0, 7.0),
            Vec3::new(3.0, -1.0, 2.0),
        );
        // 1003 values: chunks of 8 plus a remainder, and out-of-range values that clamp.
        let ts: Vec<f32> = (0..1003).map(|i| i as f32 / 1000.0 - 0.001).collect();
        let mut pos = vec![Vec3::ZERO; ts.len()];
        let mut der = vec![Vec3::ZERO; ts.len()];
        h.eval(&ts, &mut pos);
        h.eval_derivatives(&ts, &mut der);
        for (i, &t) in ts.iter().enumerate() {
            assert_eq!(pos[i], h.position(t), "t {t}");
            assert_eq!(der[i], h.derivative(t), "t {t}");
        }
        // The portable 4-wide path (used where AVX is missing) gives the same results.
        let k = [h.p0, h.m0, h.p1, h.m1];
        let splat = |c: usize| k.map(|v| Vec4::splat(v.to_array()[c]));
        let whole = ts.len() / BATCH * BATCH;
        let mut portable = vec![Vec3::ZERO; whole];
        wide(
            &splat(0),
            &splat(1),
            &splat(2),
            &position_weights,
            &ts[..whole],
            &mut portable,
        );
        assert_eq!(&portable[..], &pos[..whole]);
        let k = [h.p0 - h.p1, h.m0, h.m1, Vec3::ZERO];
        let splat = |c: usize| k.map(|v| Vec4::splat(v.to_array()[c]));
        wide(
            &splat(0),
            &splat(1),
            &splat(2),
            &derivative_weights,
            &ts[..whole],
            &mut portable,
        );
        assert_eq!(&portable[..], &der[..whole]);
        assert_eq!(pos[1], h.p0);
        assert_eq!(pos[1001], h.p1);
        // Large outputs take the streaming path: every start alignment (the output slice
        // begins 0..4 points into the buffer), a ragged end, still bit-identical.
        let n = STREAM_MIN + 13;
        let ts: Vec<f32> = (0..n)
            .map(|i| (i as f32 * 0.618_034).fract() * 1.2 - 0.1)
            .collect();
        let mut buf = vec![Vec3::splat(f32::NAN); n + 4];
        for skip in 0..4 {
            h.eval(&ts, &mut buf[skip..skip + n]);
            for (i, &t) in ts.iter().enumerate() {
                assert_eq!(buf[skip + i], h.position(t), "skip {skip}, t {t}");
            }
            h.eval_derivatives(&ts, &mut buf[skip..skip + n]);
            for (i, &t) in ts.iter().enumerate() {
                assert_eq!(buf[skip + i], h.derivative(t), "skip {skip}, t {t}");
            }
        }
        assert_eq!(der[1], h.m0);
        assert_eq!(der[1001], h.m1);
    }
}
