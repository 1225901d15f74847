//! The turn of a steer decision, batched: from the yaw ψ, the wanted unit direction w and
//! the turn cap m = `max_turn_rate · dt`, the new yaw and heading
//!
//! δ = wrap(atan2(wₓ, w_z) − ψ),  ψ′ = wrap(ψ + clamp(δ, −m, m)),  h = (sin ψ′, cos ψ′).
//!
//! It is a long chain of dependent f64 operations (two divisions, two polynomials, three
//! reductions) at the end of every agent's steer, where it stalled the next agent's work. The
//! steer leaves it pending and the step finishes all turns in one pass afterwards: eight
//! agents at a time in AVX-512 lanes (one 8 × f64 register) or AVX2 lanes (two 4 × f64
//! registers, worked in step) where the CPU has them, otherwise one by one (still faster:
//! consecutive agents' chains overlap).
//!
//! Both lane builds perform, lane by lane, exactly the operations of the scalar functions in
//! [`super::angle`] (IEEE add, multiply, divide and conversions, no fused multiply-add; the
//! branches become blends that pick the same values), so all three give the same bits.

use glam::Vec2;

use super::agent::{forward2, yaw_of};
use super::angle::wrap;
use super::kernels::Kernels;
use crate::simd::Simd;

/// Agents turned per lane pass.
pub(crate) const LANES: usize = 8;

/// One pending turn: (wanted direction, yaw, turn cap).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TurnIn {
    /// The wanted unit direction.
    pub want: Vec2,
    /// The yaw before the turn.
    pub yaw: f32,
    /// `max_turn_rate · dt`.
    pub max_turn: f32,
}

/// The turn of one agent: (new yaw, new heading).
#[inline]
pub(crate) fn turn(t: TurnIn) -> (f32, Vec2) {
    let delta = wrap(yaw_of(t.want) - t.yaw);
    let turn = delta.clamp(-t.max_turn, t.max_turn);
    let yaw = wrap(t.yaw + turn);
    (yaw, forward2(yaw))
}

/// [`turn`] of up to [`LANES`] agents into `out`, in the lanes `kernels` found on this CPU
/// when `input` is a full batch; partial batches, batches the lanes refuse and the portable
/// build are turned one by one. The bits are the same either way.
#[inline]
pub(crate) fn turn_lanes(input: &[TurnIn], kernels: Kernels, out: &mut [(f32, Vec2); LANES]) {
    debug_assert!(input.len() <= LANES);
    #[cfg(target_arch = "x86_64")]
    if input.len() == LANES {
        let input: &[TurnIn; LANES] = input.try_into().expect("LANES inputs");
        let done = match kernels.level() {
            Simd::Portable => false,
            // SAFETY: `Kernels::detect` found AVX2 on this CPU.
            Simd::Avx2 => unsafe { turn_avx2(input, out) },
            // SAFETY: `Kernels::detect` found AVX-512F and AVX-512VL on this CPU.
            Simd::Avx512 => unsafe { turn_avx512(input, out) },
        };
        if done {
            return;
        }
    }
    let _ = kernels;
    for (o, &t) in out.iter_mut().zip(input) {
        *o = turn(t);
    }
}

#[cfg(target_arch = "x86_64")]
mod lanes {
    use core::arch::x86_64::*;
    use core::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI, TAU};

    /// 1.5 · 2⁵² (as in `angle::reduce`).
    const ROUND_MAGIC: f64 = 6_755_399_441_055_744.0;

    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(super) fn splat(x: f64) -> __m512d {
        _mm512_set1_pd(x)
    }

    /// c + a · b, as two rounded operations (never fused).
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(super) fn mul_add(a: __m512d, b: __m512d, c: __m512d) -> __m512d {
        _mm512_add_pd(c, _mm512_mul_pd(a, b))
    }

    /// −x (the sign bit flipped, as scalar negation).
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(super) fn neg(x: __m512d) -> __m512d {
        _mm512_castsi512_pd(_mm512_xor_si512(
            _mm512_castpd_si512(x),
            _mm512_set1_epi64(i64::MIN),
        ))
    }

    /// `angle::reduce` on lanes whose |a| ≤ 10⁹ (the caller checks): a − 2π·round(a/2π),
    /// then clamped to [−π, π] as `f64::clamp` does.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(super) fn reduce(a: __m512d) -> __m512d {
        let n = _mm512_sub_pd(
            _mm512_add_pd(_mm512_mul_pd(a, splat(1.0 / TAU)), splat(ROUND_MAGIC)),
            splat(ROUND_MAGIC),
        );
        let r = _mm512_sub_pd(a, _mm512_mul_pd(n, splat(TAU)));
        let r = _mm512_mask_blend_pd(
            _mm512_cmp_pd_mask::<_CMP_LT_OQ>(r, splat(-PI)),
            r,
            splat(-PI),
        );
        _mm512_mask_blend_pd(_mm512_cmp_pd_mask::<_CMP_GT_OQ>(r, splat(PI)), r, splat(PI))
    }

    /// Whether every lane is within `reduce`'s fast range.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(super) fn reducible(a: __m512d) -> bool {
        let abs = _mm512_abs_pd(a);
        _mm512_cmp_pd_mask::<_CMP_LE_OQ>(abs, splat(1e9)) == 0xff
    }

    /// `angle::atan2(y, x)` lane by lane.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(super) fn atan2(y: __m512d, x: __m512d) -> __m512d {
        let (ay, ax) = (_mm512_abs_pd(y), _mm512_abs_pd(x));
        let steep = _mm512_cmp_pd_mask::<_CMP_GT_OQ>(ay, ax);
        let lo = _mm512_mask_blend_pd(steep, ay, ax);
        let hi = _mm512_mask_blend_pd(steep, ax, ay);
        let zero = _mm512_cmp_pd_mask::<_CMP_EQ_OQ>(hi, splat(0.0));
        let z = _mm512_div_pd(lo, hi);
        let folded = _mm512_cmp_pd_mask::<_CMP_GT_OQ>(z, splat(0.414_213_562_373_095_1));
        let zf = _mm512_div_pd(_mm512_sub_pd(z, splat(1.0)), _mm512_add_pd(z, splat(1.0)));
        let z = _mm512_mask_blend_pd(folded, z, zf);
        let base = _mm512_mask_blend_pd(folded, splat(0.0), splat(FRAC_PI_4));
        let z2 = _mm512_mul_pd(z, z);
        let t = splat(1.0 / 17.0);
        let t = mul_add(z2, t, splat(-1.0 / 15.0));
        let t = mul_add(z2, t, splat(1.0 / 13.0));
        let t = mul_add(z2, t, splat(-1.0 / 11.0));
        let t = mul_add(z2, t, splat(1.0 / 9.0));
        let t = mul_add(z2, t, splat(-1.0 / 7.0));
        let t = mul_add(z2, t, splat(1.0 / 5.0));
        let t = mul_add(z2, t, splat(-1.0 / 3.0));
        let t = mul_add(z2, t, splat(1.0));
        let p = _mm512_mul_pd(z, t);
        let a = _mm512_add_pd(base, p);
        let a = _mm512_mask_blend_pd(steep, a, _mm512_sub_pd(splat(FRAC_PI_2), a));
        let a = _mm512_mask_blend_pd(
            _mm512_cmp_pd_mask::<_CMP_LT_OQ>(x, splat(0.0)),
            a,
            _mm512_sub_pd(splat(PI), a),
        );
        let a = _mm512_mask_blend_pd(_mm512_cmp_pd_mask::<_CMP_LT_OQ>(y, splat(0.0)), a, neg(a));
        _mm512_mask_blend_pd(zero, a, splat(0.0))
    }

    /// `angle::sin_cos` lane by lane, from the reduced angle r.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(super) fn sin_cos(r: __m512d) -> (__m512d, __m512d) {
        let above = _mm512_cmp_pd_mask::<_CMP_GT_OQ>(r, splat(FRAC_PI_2));
        let below = _mm512_cmp_pd_mask::<_CMP_LT_OQ>(r, splat(-FRAC_PI_2));
        let x = _mm512_mask_blend_pd(below, r, _mm512_sub_pd(splat(-PI), r));
        let x = _mm512_mask_blend_pd(above, x, _mm512_sub_pd(splat(PI), r));
        let x2 = _mm512_mul_pd(x, x);
        let t = splat(-1.0 / 39_916_800.0);
        let t = mul_add(x2, t, splat(1.0 / 362_880.0));
        let t = mul_add(x2, t, splat(-1.0 / 5_040.0));
        let t = mul_add(x2, t, splat(1.0 / 120.0));
        let t = mul_add(x2, t, splat(-1.0 / 6.0));
        let t = mul_add(x2, t, splat(1.0));
        let s = _mm512_mul_pd(x, t);
        let t = splat(1.0 / 479_001_600.0);
        let t = mul_add(x2, t, splat(-1.0 / 3_628_800.0));
        let t = mul_add(x2, t, splat(1.0 / 40_320.0));
        let t = mul_add(x2, t, splat(-1.0 / 720.0));
        let t = mul_add(x2, t, splat(1.0 / 24.0));
        let t = mul_add(x2, t, splat(-0.5));
        let c = mul_add(x2, t, splat(1.0));
        (s, _mm512_mask_blend_pd(above | below, c, neg(c)))
    }
}

/// [`turn`] of eight agents in AVX-512 lanes; false (nothing written) when an angle is
/// outside the lanes' reduction range, for the scalar path to handle.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512VL.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
unsafe fn turn_avx512(input: &[TurnIn; LANES], out: &mut [(f32, Vec2); LANES]) -> bool {
    use core::arch::x86_64::*;
    use lanes::*;
    let col = |f: fn(&TurnIn) -> f32| -> __m256 {
        let v: [f32; LANES] = core::array::from_fn(|i| f(&input[i]));
        // SAFETY: eight f32.
        unsafe { _mm256_loadu_ps(v.as_ptr()) }
    };
    let (wx, wz, yaw, cap) = (
        col(|t| t.want.x),
        col(|t| t.want.y),
        col(|t| t.yaw),
        col(|t| t.max_turn),
    );
    // yaw_of(w) = atan2(wₓ, w_z), rounded to f32; δ = wrap(that − ψ) in f32.
    let toward = _mm512_cvtpd_ps(atan2(_mm512_cvtps_pd(wx), _mm512_cvtps_pd(wz)));
    let d = _mm512_cvtps_pd(_mm256_sub_ps(toward, yaw));
    if !reducible(d) {
        return false;
    }
    let delta = _mm512_cvtpd_ps(reduce(d));
    // f32::clamp(δ, −m, m): below −m gives −m, then above m gives m.
    let lo = _mm256_castsi256_ps(_mm256_xor_si256(
        _mm256_castps_si256(cap),
        _mm256_set1_epi32(i32::MIN),
    ));
    let t = _mm256_mask_blend_ps(_mm256_cmp_ps_mask::<_CMP_LT_OQ>(delta, lo), delta, lo);
    let t = _mm256_mask_blend_ps(_mm256_cmp_ps_mask::<_CMP_GT_OQ>(t, cap), t, cap);
    let y = _mm512_cvtps_pd(_mm256_add_ps(yaw, t));
    if !reducible(y) {
        return false;
    }
    let new_yaw = _mm512_cvtpd_ps(reduce(y));
    let (s, c) = sin_cos(reduce(_mm512_cvtps_pd(new_yaw)));
    let (mut ys, mut ss, mut cs) = ([0f32; LANES], [0f32; LANES], [0f32; LANES]);
    // SAFETY: eight f32 each.
    unsafe {
        _mm256_storeu_ps(ys.as_mut_ptr(), new_yaw);
        _mm256_storeu_ps(ss.as_mut_ptr(), _mm512_cvtpd_ps(s));
        _mm256_storeu_ps(cs.as_mut_ptr(), _mm512_cvtpd_ps(c));
    }
    for (i, o) in out.iter_mut().enumerate() {
        *o = (ys[i], Vec2::new(ss[i], cs[i]));
    }
    true
}

/// The AVX2 lane helpers: the operations of `crowd::angle` on `Wide`, eight f64 lanes held
/// as two 4-lane AVX registers. Every helper applies one instruction to both halves in turn,
/// so a kernel written with them interleaves the two independent dependency chains (each
/// instruction of half 1 can issue while half 0 waits on its predecessor). Measured on an
/// AVX-512 Xeon, running the two halves one after the other was as fast (the out-of-order
/// core overlaps them too); the interleaved form is kept as it needs one kernel only.
///
/// Only AVX instructions are used (compare with `_mm256_cmp_pd`, select with
/// `_mm256_blendv_pd`); never a fused multiply-add.
#[cfg(target_arch = "x86_64")]
mod lanes2 {
    use core::arch::x86_64::*;
    use core::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI, TAU};

    /// 1.5 · 2⁵² (as in `angle::reduce`).
    const ROUND_MAGIC: f64 = 6_755_399_441_055_744.0;

    /// Eight f64 lanes: lanes 0–3 in `.0[0]`, lanes 4–7 in `.0[1]`. Also used for lane masks
    /// (all bits set where true), as `_mm256_cmp_pd` gives them.
    #[derive(Clone, Copy)]
    pub(super) struct Wide(pub(super) [__m256d; 2]);

    /// `Wide([f(a₀, b₀, …), f(a₁, b₁, …)])`: one intrinsic on both halves.
    macro_rules! both {
        ($f:expr, $($x:expr),+) => {
            Wide([$f($($x.0[0]),+), $f($($x.0[1]),+)])
        };
    }

    /// x in every lane.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn splat(x: f64) -> Wide {
        let v = _mm256_set1_pd(x);
        Wide([v, v])
    }

    /// a + b.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn add(a: Wide, b: Wide) -> Wide {
        both!(_mm256_add_pd, a, b)
    }

    /// a − b.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn sub(a: Wide, b: Wide) -> Wide {
        both!(_mm256_sub_pd, a, b)
    }

    /// a · b.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn mul(a: Wide, b: Wide) -> Wide {
        both!(_mm256_mul_pd, a, b)
    }

    /// a / b.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn div(a: Wide, b: Wide) -> Wide {
        both!(_mm256_div_pd, a, b)
    }

    /// c + a · b, as two rounded operations (never fused).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn mul_add(a: Wide, b: Wide, c: Wide) -> Wide {
        add(c, mul(a, b))
    }

    /// −x (the sign bit flipped, as scalar negation).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn neg(x: Wide) -> Wide {
        both!(_mm256_xor_pd, x, splat(-0.0))
    }

    /// |x| (the sign bit cleared, as `f64::abs`).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn abs(x: Wide) -> Wide {
        both!(_mm256_andnot_pd, splat(-0.0), x)
    }

    /// The mask of a < b (false where either is NaN).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn lt(a: Wide, b: Wide) -> Wide {
        both!(_mm256_cmp_pd::<_CMP_LT_OQ>, a, b)
    }

    /// The mask of a > b (false where either is NaN).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn gt(a: Wide, b: Wide) -> Wide {
        both!(_mm256_cmp_pd::<_CMP_GT_OQ>, a, b)
    }

    /// The mask of a = b (false where either is NaN).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn eq(a: Wide, b: Wide) -> Wide {
        both!(_mm256_cmp_pd::<_CMP_EQ_OQ>, a, b)
    }

    /// The mask of a or b.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn or(a: Wide, b: Wide) -> Wide {
        both!(_mm256_or_pd, a, b)
    }

    /// b where `m`, else a (the argument order of `_mm512_mask_blend_pd`, so the kernels
    /// read as the AVX-512 ones).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn blend(m: Wide, a: Wide, b: Wide) -> Wide {
        both!(_mm256_blendv_pd, a, b, m)
    }

    /// Eight f32 widened to f64 (exact).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn widen(v: __m256) -> Wide {
        Wide([
            _mm256_cvtps_pd(_mm256_castps256_ps128(v)),
            _mm256_cvtps_pd(_mm256_extractf128_ps::<1>(v)),
        ])
    }

    /// Eight f64 rounded to f32 (to nearest, as `as f32`).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn narrow(x: Wide) -> __m256 {
        _mm256_set_m128(_mm256_cvtpd_ps(x.0[1]), _mm256_cvtpd_ps(x.0[0]))
    }

    /// Whether every lane is within `reduce`'s fast range: |a| ≤ 10⁹ (so not NaN).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn reducible(a: Wide) -> bool {
        let ok = both!(_mm256_cmp_pd::<_CMP_LE_OQ>, abs(a), splat(1e9));
        _mm256_movemask_pd(ok.0[0]) & _mm256_movemask_pd(ok.0[1]) == 0b1111
    }

    /// `angle::reduce` on lanes whose |a| ≤ 10⁹ (the caller checks): r = a − 2π·n with
    /// n = (a · (1/2π) + 1.5·2⁵²) − 1.5·2⁵², then clamped to [−π, π] as `f64::clamp` does
    /// (below −π gives −π, then above π gives π).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn reduce(a: Wide) -> Wide {
        let n = sub(
            add(mul(a, splat(1.0 / TAU)), splat(ROUND_MAGIC)),
            splat(ROUND_MAGIC),
        );
        let r = sub(a, mul(n, splat(TAU)));
        let r = blend(lt(r, splat(-PI)), r, splat(-PI));
        blend(gt(r, splat(PI)), r, splat(PI))
    }

    /// `angle::atan2(y, x)` lane by lane: z = min(|y|, |x|) / max(|y|, |x|), folded to
    /// (z − 1)/(z + 1) with base π/4 above tan(π/8), the odd series to z¹⁷ in Horner form,
    /// then the octant from `steep` (π/2 − a), x < 0 (π − a) and y < 0 (−a); 0 where both
    /// are zero.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn atan2(y: Wide, x: Wide) -> Wide {
        let (ay, ax) = (abs(y), abs(x));
        let steep = gt(ay, ax);
        let lo = blend(steep, ay, ax);
        let hi = blend(steep, ax, ay);
        let zero = eq(hi, splat(0.0));
        let z = div(lo, hi);
        let folded = gt(z, splat(0.414_213_562_373_095_1));
        let zf = div(sub(z, splat(1.0)), add(z, splat(1.0)));
        let z = blend(folded, z, zf);
        let base = blend(folded, splat(0.0), splat(FRAC_PI_4));
        let z2 = mul(z, z);
        let t = splat(1.0 / 17.0);
        let t = mul_add(z2, t, splat(-1.0 / 15.0));
        let t = mul_add(z2, t, splat(1.0 / 13.0));
        let t = mul_add(z2, t, splat(-1.0 / 11.0));
        let t = mul_add(z2, t, splat(1.0 / 9.0));
        let t = mul_add(z2, t, splat(-1.0 / 7.0));
        let t = mul_add(z2, t, splat(1.0 / 5.0));
        let t = mul_add(z2, t, splat(-1.0 / 3.0));
        let t = mul_add(z2, t, splat(1.0));
        let p = mul(z, t);
        let a = add(base, p);
        let a = blend(steep, a, sub(splat(FRAC_PI_2), a));
        let a = blend(lt(x, splat(0.0)), a, sub(splat(PI), a));
        let a = blend(lt(y, splat(0.0)), a, neg(a));
        blend(zero, a, splat(0.0))
    }

    /// `angle::sin_cos` lane by lane, from the reduced angle r: x = π − r above π/2, −π − r
    /// below −π/2, else r; then the series of sin x to x¹¹ and cos x to x¹² in Horner form,
    /// the cosine negated where r was folded.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn sin_cos(r: Wide) -> (Wide, Wide) {
        let above = gt(r, splat(FRAC_PI_2));
        let below = lt(r, splat(-FRAC_PI_2));
        let x = blend(below, r, sub(splat(-PI), r));
        let x = blend(above, x, sub(splat(PI), r));
        let x2 = mul(x, x);
        let t = splat(-1.0 / 39_916_800.0);
        let t = mul_add(x2, t, splat(1.0 / 362_880.0));
        let t = mul_add(x2, t, splat(-1.0 / 5_040.0));
        let t = mul_add(x2, t, splat(1.0 / 120.0));
        let t = mul_add(x2, t, splat(-1.0 / 6.0));
        let t = mul_add(x2, t, splat(1.0));
        let s = mul(x, t);
        let t = splat(1.0 / 479_001_600.0);
        let t = mul_add(x2, t, splat(-1.0 / 3_628_800.0));
        let t = mul_add(x2, t, splat(1.0 / 40_320.0));
        let t = mul_add(x2, t, splat(-1.0 / 720.0));
        let t = mul_add(x2, t, splat(1.0 / 24.0));
        let t = mul_add(x2, t, splat(-0.5));
        let c = mul_add(x2, t, splat(1.0));
        (s, blend(or(above, below), c, neg(c)))
    }
}

/// [`turn`] of eight agents in AVX2 lanes (two halves of four, worked in step); false
/// (nothing written) when an angle is outside the lanes' reduction range or NaN, for the
/// scalar path to handle — as [`turn_avx512`].
///
/// It uses AVX instructions only; it is enabled, and dispatched, as AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn turn_avx2(input: &[TurnIn; LANES], out: &mut [(f32, Vec2); LANES]) -> bool {
    use core::arch::x86_64::*;
    use lanes2::*;
    let col = |f: fn(&TurnIn) -> f32| -> __m256 {
        let v: [f32; LANES] = core::array::from_fn(|i| f(&input[i]));
        // SAFETY: eight f32.
        unsafe { _mm256_loadu_ps(v.as_ptr()) }
    };
    let (wx, wz, yaw, cap) = (
        col(|t| t.want.x),
        col(|t| t.want.y),
        col(|t| t.yaw),
        col(|t| t.max_turn),
    );
    // yaw_of(w) = atan2(wₓ, w_z), rounded to f32; δ = wrap(that − ψ) in f32.
    let toward = narrow(atan2(widen(wx), widen(wz)));
    let d = widen(_mm256_sub_ps(toward, yaw));
    if !reducible(d) {
        return false;
    }
    let delta = narrow(reduce(d));
    // f32::clamp(δ, −m, m): below −m gives −m, then above m gives m.
    let lo = _mm256_xor_ps(cap, _mm256_set1_ps(-0.0));
    let t = _mm256_blendv_ps(delta, lo, _mm256_cmp_ps::<_CMP_LT_OQ>(delta, lo));
    let t = _mm256_blendv_ps(t, cap, _mm256_cmp_ps::<_CMP_GT_OQ>(t, cap));
    let y = widen(_mm256_add_ps(yaw, t));
    if !reducible(y) {
        return false;
    }
    let new_yaw = narrow(reduce(y));
    let (s, c) = sin_cos(reduce(widen(new_yaw)));
    let (mut ys, mut ss, mut cs) = ([0f32; LANES], [0f32; LANES], [0f32; LANES]);
    // SAFETY: eight f32 each.
    unsafe {
        _mm256_storeu_ps(ys.as_mut_ptr(), new_yaw);
        _mm256_storeu_ps(ss.as_mut_ptr(), narrow(s));
        _mm256_storeu_ps(cs.as_mut_ptr(), narrow(c));
    }
    for (i, o) in out.iter_mut().enumerate() {
        *o = (ys[i], Vec2::new(ss[i], cs[i]));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One lane kernel called directly: `turn_avx2` or `turn_avx512`.
    #[cfg(target_arch = "x86_64")]
    type Kernel = unsafe fn(&[TurnIn; LANES], &mut [(f32, Vec2); LANES]) -> bool;

    /// Every level this CPU runs, and each lane build bit for bit against [`turn`] on the
    /// same inputs (random directions, yaws and caps; wants (0, −1), (−0, 1), zero, subnormal,
    /// huge and NaN; yaws ±0, ±10⁻³⁰, ±1, and 3·10⁹, 10²⁰, NaN and ±∞, which the lanes refuse;
    /// caps 0, 10⁻³⁰, 4, 10³⁰ and ∞). A refused batch must leave
    /// `out` untouched, and most batches must go through the lanes (so a kernel that always
    /// refuses fails).
    #[test]
    fn lanes_give_the_scalar_bits() {
        let best = Kernels::detect(Simd::Avx512);
        #[cfg(target_arch = "x86_64")]
        let (avx2, avx512) = (best.avx2(), best.avx512());
        // Every build this CPU runs.
        let levels: Vec<Kernels> = [Simd::Portable, Simd::Avx2, Simd::Avx512]
            .into_iter()
            .filter(|&cap| cap <= best.level())
            .map(Kernels::detect)
            .collect();
        #[cfg(target_arch = "x86_64")]
        let kernels: Vec<(&str, Kernel)> = [
            (avx2, "avx2", turn_avx2 as Kernel),
            (avx512, "avx512", turn_avx512 as Kernel),
        ]
        .into_iter()
        .filter_map(|(ok, name, k)| ok.then_some((name, k)))
        .collect();
        #[cfg(target_arch = "x86_64")]
        let mut taken = vec![0u32; kernels.len()];
        let bits = |(y, h): (f32, Vec2)| (y.to_bits(), h.x.to_bits(), h.y.to_bits());
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let specials = [
            0.0f32,
            -0.0,
            1e-30,
            -1e-30,
            1.0,
            -1.0,
            3.0e9,
            1e20,
            f32::NAN,
            f32::INFINITY,
            -f32::INFINITY,
        ];
        let wants = [
            Vec2::ZERO,
            Vec2::new(-0.0, -0.0),
            Vec2::new(1e-40, -1e-40),
            Vec2::new(-3e38, 3e38),
            Vec2::new(0.0, -1.0),
            Vec2::new(f32::NAN, 1.0),
            Vec2::new(1.0, f32::NAN),
            Vec2::new(
                core::f32::consts::FRAC_1_SQRT_2,
                -core::f32::consts::FRAC_1_SQRT_2,
            ),
        ];
        let caps = [0.0f32, 1e-30, 4.0, 1e30, f32::INFINITY];
        let cases = 200_000u32;
        for case in 0..cases {
            let input: Vec<TurnIn> = (0..LANES)
                .map(|_| {
                    let r = next();
                    let f = |k: u32| ((r >> (16 * k)) as u16 as f32 / 32768.0 - 1.0) * 4.0;
                    let want = Vec2::new(f(0), f(1)).try_normalize().unwrap_or(Vec2::Y);
                    let want = match case % 7 {
                        0 => Vec2::new(0.0, -1.0),
                        1 => Vec2::new(-0.0, 1.0),
                        _ if case % 17 == 2 => wants[(r >> 40) as usize % wants.len()],
                        _ => want,
                    };
                    let yaw = if case % 11 == 0 {
                        specials[(r % specials.len() as u64) as usize]
                    } else {
                        f(2)
                    };
                    let max_turn = if case % 13 == 0 {
                        caps[(r >> 40) as usize % caps.len()]
                    } else {
                        f(3).abs() * 0.3
                    };
                    TurnIn {
                        want,
                        yaw,
                        max_turn,
                    }
                })
                .collect();
            let want: Vec<_> = input.iter().map(|&t| bits(turn(t))).collect();
            for &level in &levels {
                let mut out = [(0.0, Vec2::ZERO); LANES];
                turn_lanes(&input, level, &mut out);
                for (i, &o) in out.iter().enumerate() {
                    assert_eq!(bits(o), want[i], "{level:?} {:?}", input[i]);
                }
            }
            #[cfg(target_arch = "x86_64")]
            for (&(name, kernel), taken) in kernels.iter().zip(&mut taken) {
                let full: &[TurnIn; LANES] = input.as_slice().try_into().unwrap();
                let sentinel = (f32::from_bits(0x7fc0_dead), Vec2::splat(-7.0));
                let mut out = [sentinel; LANES];
                // SAFETY: `kernels` holds only the builds this CPU supports.
                if unsafe { kernel(full, &mut out) } {
                    *taken += 1;
                    for (i, &o) in out.iter().enumerate() {
                        assert_eq!(bits(o), want[i], "{name} {:?}", input[i]);
                    }
                } else {
                    assert!(out.iter().all(|&o| bits(o) == bits(sentinel)), "{name}");
                }
            }
        }
        // About 1 batch in 11 holds huge or NaN yaws and 1 in 19 NaN wants (refused); the
        // rest must have run in lanes.
        #[cfg(target_arch = "x86_64")]
        for (&(name, _), &taken) in kernels.iter().zip(&taken) {
            assert!(taken >= cases * 8 / 10 && taken < cases, "{name}: {taken}");
        }
    }
}
