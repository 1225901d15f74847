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

/// (sin a, cos a) for a finite `a`.
#[inline]
pub(crate) fn sin_cos(a: f32) -> (f32, f32) {
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

/// atan2(y, x) in [−π, π] for finite `y`, `x`; (0, 0) gives 0.
#[inline]
pub(crate) fn atan2(y: f32, x: f32) -> f32 {
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
                                + z2 * (1.0 / 13.0 + z2 * (-1.0 / 15.0 + z2 * (1.0 / 17.0)))))))));
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

#[cfg(test)]
mod tests {
    use super::*;

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
