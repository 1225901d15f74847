//! Yaw arithmetic for the step: angle wrapping, sine/cosine and `atan2`, written with `+ − × ÷`
//! only, so they inline into the step (no libm call per agent) and give the same bits on every
//! platform and compiler (Rust never fuses `a * b + c` into an FMA by itself).
//!
//! **Reduction.** An angle a is brought into [−π, π] as r = a − 2π·n with n = round(a / 2π),
//! in f64: n by the round-to-nearest trick (x + 1.5·2⁵²) − 1.5·2⁵², exact for |x| < 2⁵¹; beyond
//! ±10⁹ rad, f64 `%` (IEEE `fmod`, an exact remainder) is used instead.
//!
//! **Sine and cosine.** r ∈ [−π, π] is folded to x ∈ [−π/2, π/2] with sin(π − r) = sin r,
//! cos(π − r) = −cos r; then the Taylor series to x¹¹ (sine) and x¹² (cosine) in f64, whose
//! truncation error is below x¹³/13! ≤ 5.7·10⁻⁸ and x¹⁴/14! ≤ 6.4·10⁻⁹: under half an f32 ulp
//! of the result for |x| ≤ π/2 except where the result is tiny.
//!
//! **atan2.** z = min(|y|, |x|) / max(|y|, |x|) ∈ [0, 1]; above tan(π/8) it is mapped to
//! (z − 1)/(z + 1) ∈ [−0.42, 0] with atan z = π/4 + atan((z − 1)/(z + 1)); then the odd series
//! to z¹⁷ (error ≤ 0.4143¹⁹/19 < 3·10⁻⁹), and the octant is restored from the signs.

use core::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI, TAU};

/// 1.5 · 2⁵²: adding and subtracting it rounds an f64 of magnitude < 2⁵¹ to an integer.
const ROUND_MAGIC: f64 = 6_755_399_441_055_744.0;

/// `a` reduced to [−π, π] (f64).
#[inline]
fn reduce(a: f32) -> f64 {
    let a = a as f64;
    if a.abs() <= 1e9 {
        let n = (a * (1.0 / TAU) + ROUND_MAGIC) - ROUND_MAGIC;
        let r = a - n * TAU;
        r.clamp(-PI, PI)
    } else {
        let r = a % TAU;
        if r > PI {
            r - TAU
        } else if r < -PI {
            r + TAU
        } else {
            r
        }
    }
}

/// `a` wrapped into [−π, π] (a finite).
#[inline]
pub(crate) fn wrap(a: f32) -> f32 {
    reduce(a) as f32
}

/// `a` if `c`, else `b`, without a branch: these functions sit on
/// the steer's critical path, where a mispredicted sign test costs the whole dependency chain
/// before it (the values, and so the bits, are those the branches chose).
///
/// On x86-64 the choice is made with SSE2 bit masks on a vector register: a plain `if` (or
/// `select_unpredictable`) on an f64 is compiled to a branch there, as x86 has no conditional
/// move for XMM registers, while a vector select never is.
#[inline(always)]
pub(crate) fn pick(c: bool, a: f64, b: f64) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86-64 baseline; these only move and mask bits.
        unsafe {
            let m = _mm_castsi128_pd(_mm_set1_epi64x(-(c as i64)));
            _mm_cvtsd_f64(_mm_or_pd(
                _mm_and_pd(m, _mm_set_sd(a)),
                _mm_andnot_pd(m, _mm_set_sd(b)),
            ))
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        if c {
            a
        } else {
            b
        }
    }
}

/// [`pick`] for f32.
#[inline(always)]
pub(crate) fn pick32(c: bool, a: f32, b: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86-64 baseline; these only move and mask bits.
        unsafe {
            let m = _mm_castsi128_ps(_mm_set1_epi32(-(c as i32)));
            _mm_cvtss_f32(_mm_or_ps(
                _mm_and_ps(m, _mm_set_ss(a)),
                _mm_andnot_ps(m, _mm_set_ss(b)),
            ))
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        if c {
            a
        } else {
            b
        }
    }
}

/// (sin a, cos a) for a finite `a`.
#[inline]
pub(crate) fn sin_cos(a: f32) -> (f32, f32) {
    let r = reduce(a);
    let (above, below) = (r > FRAC_PI_2, r < -FRAC_PI_2);
    let x = pick(above, PI - r, pick(below, -PI - r, r));
    let x2 = x * x;
    let s = x
        * (1.0
            + x2 * (-1.0 / 6.0
                + x2 * (1.0 / 120.0
                    + x2 * (-1.0 / 5_040.0
                        + x2 * (1.0 / 362_880.0 + x2 * (-1.0 / 39_916_800.0))))));
    let c = 1.0
        + x2 * (-0.5
            + x2 * (1.0 / 24.0
                + x2 * (-1.0 / 720.0
                    + x2 * (1.0 / 40_320.0
                        + x2 * (-1.0 / 3_628_800.0 + x2 * (1.0 / 479_001_600.0))))));
    // cos(π − x) = −cos x (negation is exact: the same bits as c × −1).
    (s as f32, pick(above | below, -c, c) as f32)
}

/// atan2(y, x) in [−π, π] for finite `y`, `x`; (0, 0) gives 0.
#[inline]
pub(crate) fn atan2(y: f32, x: f32) -> f32 {
    let (y, x) = (y as f64, x as f64);
    let (ay, ax) = (y.abs(), x.abs());
    let steep = ay > ax;
    let (lo, hi) = (pick(steep, ax, ay), pick(steep, ay, ax));
    if hi == 0.0 {
        return 0.0;
    }
    let z = lo / hi;
    let folded = z > 0.414_213_562_373_095_1;
    let (z, base) = (
        pick(folded, (z - 1.0) / (z + 1.0), z),
        pick(folded, FRAC_PI_4, 0.0),
    );
    let z2 = z * z;
    let p = z
        * (1.0
            + z2 * (-1.0 / 3.0
                + z2 * (1.0 / 5.0
                    + z2 * (-1.0 / 7.0
                        + z2 * (1.0 / 9.0
                            + z2 * (-1.0 / 11.0
                                + z2 * (1.0 / 13.0 + z2 * (-1.0 / 15.0 + z2 * (1.0 / 17.0)))))))));
    let a = base + p;
    let a = pick(steep, FRAC_PI_2 - a, a);
    let a = pick(x < 0.0, PI - a, a);
    let a = pick(y < 0.0, -a, a);
    a as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The branching forms these functions had before [`pick`] (same operations): the
    /// rewrite must give their bits.
    fn sin_cos_branching(a: f32) -> (f32, f32) {
        let r = reduce(a);
        let (x, flip) = if r > FRAC_PI_2 {
            (PI - r, -1.0)
        } else if r < -FRAC_PI_2 {
            (-PI - r, -1.0)
        } else {
            (r, 1.0)
        };
        let x2 = x * x;
        let s = x
            * (1.0
                + x2 * (-1.0 / 6.0
                    + x2 * (1.0 / 120.0
                        + x2 * (-1.0 / 5_040.0
                            + x2 * (1.0 / 362_880.0 + x2 * (-1.0 / 39_916_800.0))))));
        let c = 1.0
            + x2 * (-0.5
                + x2 * (1.0 / 24.0
                    + x2 * (-1.0 / 720.0
                        + x2 * (1.0 / 40_320.0
                            + x2 * (-1.0 / 3_628_800.0 + x2 * (1.0 / 479_001_600.0))))));
        (s as f32, (c * flip) as f32)
    }

    fn atan2_branching(y: f32, x: f32) -> f32 {
        let (y, x) = (y as f64, x as f64);
        let (ay, ax) = (y.abs(), x.abs());
        let (lo, hi) = if ay > ax { (ax, ay) } else { (ay, ax) };
        if hi == 0.0 {
            return 0.0;
        }
        let z = lo / hi;
        let (z, base) = if z > 0.414_213_562_373_095_1 {
            ((z - 1.0) / (z + 1.0), FRAC_PI_4)
        } else {
            (z, 0.0)
        };
        let z2 = z * z;
        let p = z
            * (1.0
                + z2 * (-1.0 / 3.0
                    + z2 * (1.0 / 5.0
                        + z2 * (-1.0 / 7.0
                            + z2 * (1.0 / 9.0
                                + z2 * (-1.0 / 11.0
                                    + z2 * (1.0 / 13.0
                                        + z2 * (-1.0 / 15.0 + z2 * (1.0 / 17.0)))))))));
        let mut a = base + p;
        if ay > ax {
            a = FRAC_PI_2 - a;
        }
        if x < 0.0 {
            a = PI - a;
        }
        if y < 0.0 {
            a = -a;
        }
        a as f32
    }

    #[test]
    fn branch_free_forms_give_the_branching_bits() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut bits = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u32
        };
        let specials = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            1e-30,
            -1e-30,
            3e38,
            -3e38,
            0.414_213_57,
        ];
        for i in 0..2_000_000u32 {
            // Angles over many octaves and raw bit patterns (finite ones only).
            let a = match i % 3 {
                0 => (bits() as i32) as f32 * 1e-8,
                1 => f32::from_bits(bits()),
                _ => specials[(bits() % specials.len() as u32) as usize],
            };
            let b = f32::from_bits(bits()) * if i % 2 == 0 { 1.0 } else { 1e-30 };
            if a.is_finite() {
                let (s, c) = sin_cos(a);
                let (s0, c0) = sin_cos_branching(a);
                assert_eq!(
                    (s.to_bits(), c.to_bits()),
                    (s0.to_bits(), c0.to_bits()),
                    "{a}"
                );
            }
            if a.is_finite() && b.is_finite() {
                for (y, x) in [(a, b), (b, a), (a, a), (-a, a)] {
                    assert_eq!(
                        atan2(y, x).to_bits(),
                        atan2_branching(y, x).to_bits(),
                        "{y} {x}"
                    );
                }
            }
        }
    }

    #[test]
    fn matches_libm_closely() {
        let mut worst = [0.0f64; 3];
        for i in -200_000..=200_000 {
            let a = i as f32 * 1.1e-4;
            let (s, c) = sin_cos(a);
            let a64 = a as f64;
            worst[0] = worst[0].max((s as f64 - a64.sin()).abs());
            worst[1] = worst[1].max((c as f64 - a64.cos()).abs());
            let (y, x) = (a64.sin() * 3.0, a64.cos() * 3.0);
            let t = atan2(y as f32, x as f32) as f64;
            worst[2] = worst[2].max((t - (y as f32 as f64).atan2(x as f32 as f64)).abs());
        }
        assert!(worst.iter().all(|&w| w < 2e-7), "{worst:?}");
        for a in [1e5f32, -3.7e8, 2.5e12, -1e15, 3e38] {
            let (s, c) = sin_cos(a);
            let r = (a as f64) % TAU;
            assert!((s as f64 - r.sin()).abs() < 2e-7 && (c as f64 - r.cos()).abs() < 2e-7);
            assert!(wrap(a).abs() <= core::f32::consts::PI);
        }
        assert_eq!(atan2(0.0, 0.0), 0.0);
        assert_eq!(atan2(0.0, -1.0) as f64, PI as f32 as f64);
        assert_eq!(atan2(1.0, 0.0), core::f32::consts::FRAC_PI_2);
    }
}
