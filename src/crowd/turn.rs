//! The turn of a steer decision, batched: from the yaw ψ, the wanted unit direction w and
//! the turn cap m = `max_turn_rate · dt`, the new yaw and heading
//!
//! δ = wrap(atan2(wₓ, w_z) − ψ),  ψ′ = wrap(ψ + clamp(δ, −m, m)),  h = (sin ψ′, cos ψ′).
//!
//! It is a long chain of dependent f64 operations (two divisions, two polynomials, three
//! reductions) at the end of every agent's steer, where it stalled the next agent's work. The
//! steer leaves it pending and the step finishes all turns in one pass afterwards: eight
//! agents at a time in AVX-512 lanes where the CPU has them, otherwise one by one (still
//! faster: consecutive agents' chains overlap).
//!
//! The lane build performs, lane by lane, exactly the operations of the scalar functions in
//! [`super::angle`] (IEEE add, multiply, divide and conversions, no fused multiply-add; the
//! branches become blends that pick the same values), so both give the same bits.

use glam::Vec2;

use super::agent::{forward2, yaw_of};
use super::angle::wrap;

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

/// [`turn`] of up to [`LANES`] agents, with AVX-512 when `avx512` (the CPU must have
/// AVX-512F and AVX-512VL), into `out`.
#[inline]
pub(crate) fn turn_lanes(input: &[TurnIn], avx512: bool, out: &mut [(f32, Vec2); LANES]) {
    debug_assert!(input.len() <= LANES);
    #[cfg(target_arch = "x86_64")]
    if avx512 && input.len() == LANES {
        let input: &[TurnIn; LANES] = input.try_into().expect("LANES inputs");
        // SAFETY: the caller found AVX-512F and AVX-512VL on this CPU.
        if unsafe { turn_avx512(input, out) } {
            return;
        }
    }
    let _ = avx512;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_give_the_scalar_bits() {
        let avx512 = super::super::scan::Scan::detect(crate::simd::Simd::Avx512).avx512();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let specials = [0.0f32, -0.0, 1e-30, -1e-30, 1.0, -1.0, 3.0e9, 1e20];
        for case in 0..200_000u32 {
            let input: Vec<TurnIn> = (0..LANES)
                .map(|_| {
                    let r = next();
                    let f = |k: u32| ((r >> (16 * k)) as u16 as f32 / 32768.0 - 1.0) * 4.0;
                    let want = Vec2::new(f(0), f(1)).try_normalize().unwrap_or(Vec2::Y);
                    let want = match case % 7 {
                        0 => Vec2::new(0.0, -1.0),
                        1 => Vec2::new(-0.0, 1.0),
                        _ => want,
                    };
                    let yaw = if case % 11 == 0 {
                        specials[(r % specials.len() as u64) as usize]
                    } else {
                        f(2)
                    };
                    let max_turn = if case % 13 == 0 {
                        0.0
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
            let mut out = [(0.0, Vec2::ZERO); LANES];
            turn_lanes(&input, avx512, &mut out);
            for (o, &t) in out.iter().zip(&input) {
                let (y, h) = turn(t);
                assert_eq!(
                    (o.0.to_bits(), o.1.x.to_bits(), o.1.y.to_bits()),
                    (y.to_bits(), h.x.to_bits(), h.y.to_bits()),
                    "{t:?}"
                );
            }
        }
    }
}
