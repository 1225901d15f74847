//! The steer's obstacle sieve: of the obstacles listed near an agent, which its walk line can
//! reach (only those are ray-cast), and a lower bound on the distance to every one of them
//! (the projection skips the push-out of an agent that cannot have reached any).
//!
//! Each obstacle is first seen through its [`Ring`]: its bounding circle (centre c, radius
//! ρ) and the magnitude s of its centre. For the agent at p (radius r, look-ahead `look`,
//! walking along the unit g at most `reach` metres), with m = p − c:
//!
//! - its surface is at least |m| − ρ − 10⁻⁴ (|m| + ρ + s) away (the rounding allowance;
//!   NaN, from infinite magnitudes, counts as touching);
//! - it is out of sight when |m|² > (look + ρ)²;
//! - the walk line misses it when, outside the circle grown to
//!   ρ′ = (ρ + r)(1 + 10⁻⁵) + 10⁻⁵ (|m|² − ρ′² > 0), it goes away from the centre
//!   (m·g ≥ 0), passes wide (a negative discriminant) or meets the circle beyond the reach.
//!
//! A list holds about two obstacles at walking densities, and whether each passes is a coin
//! toss, so a branch per test mispredicts often. The x86-64 build tests four obstacles at
//! once in SSE2 lanes (the baseline: every x86-64 CPU) with the same f32 operations, so it
//! finds the same survivors, in list order, and the same bound.

use glam::Vec2;

use super::obstacle::Shape;

/// A shape's bounding circle and the magnitude of its centre, computed once when the
/// obstacles change (16 bytes, no square root per look).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub(crate) struct Ring {
    /// The shape's centre.
    pub center: Vec2,
    /// [`Shape::bounding_radius`].
    pub bound: f32,
    /// The centre's largest coordinate magnitude (the rounding allowance's scale).
    pub scale: f32,
}

impl Ring {
    /// The ring of `s`.
    pub(crate) fn of(s: &Shape) -> Self {
        Self {
            center: s.center,
            bound: s.bounding_radius(),
            scale: s.center.abs().max_element(),
        }
    }
}

/// The looking agent, as the sieve sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Looker {
    pub pos: Vec2,
    pub radius: f32,
    pub look: f32,
    /// The unit walking direction.
    pub g: Vec2,
    /// How far along g the ray goes, with its allowance: `reach · (1 + 10⁻⁵) + 10⁻⁵`.
    pub reach: f32,
}

/// The sieve of one obstacle: (the lower bound on its distance, whether the walk line can
/// reach it).
#[inline]
pub(crate) fn sieve_one(me: &Looker, ring: &Ring) -> (f32, bool) {
    let m = me.pos - ring.center;
    let m2 = m.length_squared();
    let dm = m2.sqrt();
    let lower = dm - ring.bound - 1e-4 * (dm + ring.bound + ring.scale);
    let reach = me.look + ring.bound;
    if m2 > reach * reach {
        return (lower, false);
    }
    let grown = (ring.bound + me.radius) * (1.0 + 1e-5) + 1e-5;
    let outside = m2 - grown * grown;
    if outside > 0.0 {
        let bq = m.dot(me.g);
        let disc = bq * bq - outside;
        if bq >= 0.0 || disc < 0.0 || -bq - disc.sqrt() > me.reach {
            return (lower, false);
        }
    }
    (lower, true)
}

/// [`sieve_one`] of every obstacle of `list` (indices into `rings`): lowers `gap` to the
/// smallest bound that is not NaN, sets `nan` if one is, and calls `reach(index)` for each
/// obstacle the walk line can reach, in list order.
#[inline]
pub(crate) fn sieve(
    me: &Looker,
    rings: &[Ring],
    list: &[u32],
    gap: &mut f32,
    nan: &mut bool,
    mut reach: impl FnMut(usize),
) {
    #[cfg(target_arch = "x86_64")]
    for chunk in list.chunks(4) {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        let (keep, least, any_nan) = unsafe { lanes::sieve4(me, rings, chunk) };
        *gap = gap.min(least);
        *nan |= any_nan;
        let mut keep = keep;
        while keep != 0 {
            let i = keep.trailing_zeros() as usize;
            keep &= keep - 1;
            reach(chunk[i] as usize);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for &i in list {
        sieve_index(me, rings, i as usize, gap, nan, &mut reach);
    }
}

/// [`sieve`] of the one obstacle `i` (for lists built otherwise, and the portable build).
#[inline]
pub(crate) fn sieve_index(
    me: &Looker,
    rings: &[Ring],
    i: usize,
    gap: &mut f32,
    nan: &mut bool,
    reach: &mut impl FnMut(usize),
) {
    let (lower, keep) = sieve_one(me, &rings[i]);
    *gap = gap.min(lower);
    *nan |= lower.is_nan();
    if keep {
        reach(i);
    }
}

#[cfg(target_arch = "x86_64")]
mod lanes {
    use core::arch::x86_64::*;

    use super::{Looker, Ring};

    /// [`super::sieve_one`] of up to four obstacles (`chunk`, 1 to 4 indices into `rings`) in
    /// SSE2 lanes: (bit i set: `chunk[i]` is reachable; the smallest bound that is not NaN,
    /// +∞ when none; whether a bound is NaN).
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) fn sieve4(me: &Looker, rings: &[Ring], chunk: &[u32]) -> (u32, f32, bool) {
        debug_assert!((1..=4).contains(&chunk.len()));
        let n = chunk.len().min(4);
        // Each ring is four f32 (`repr(C)`): one register per obstacle. Absent lanes repeat
        // the last obstacle (no branch on the list's length) and are masked off below.
        let load = |i: usize| -> __m128 {
            let ring = &rings[chunk[i.min(n - 1)] as usize];
            // SAFETY: `Ring` is `repr(C)` of a `Vec2` (two f32) and two f32: 16 bytes of
            // f32, read unaligned.
            unsafe { _mm_loadu_ps((ring as *const Ring).cast()) }
        };
        let (r0, r1, r2, r3) = (load(0), load(1), load(2), load(3));
        // Transpose: one register per field, one lane per obstacle.
        let t0 = _mm_unpacklo_ps(r0, r1);
        let t1 = _mm_unpacklo_ps(r2, r3);
        let t2 = _mm_unpackhi_ps(r0, r1);
        let t3 = _mm_unpackhi_ps(r2, r3);
        let cx = _mm_movelh_ps(t0, t1);
        let cz = _mm_movehl_ps(t1, t0);
        let bound = _mm_movelh_ps(t2, t3);
        let scale = _mm_movehl_ps(t3, t2);

        let s = _mm_set1_ps;
        let (add, sub, mul) = (_mm_add_ps, _mm_sub_ps, _mm_mul_ps);
        let live = _mm_castsi128_ps(_mm_cmpgt_epi32(
            _mm_set1_epi32(n as i32),
            _mm_setr_epi32(0, 1, 2, 3),
        ));
        let mx = sub(s(me.pos.x), cx);
        let mz = sub(s(me.pos.y), cz);
        let m2 = add(mul(mx, mx), mul(mz, mz));
        let dm = _mm_sqrt_ps(m2);
        let lower = sub(sub(dm, bound), mul(s(1e-4), add(add(dm, bound), scale)));
        let number = _mm_and_ps(_mm_cmpord_ps(lower, lower), live);
        let nan = _mm_movemask_ps(_mm_andnot_ps(number, live)) != 0;
        let least = _mm_or_ps(
            _mm_and_ps(number, lower),
            _mm_andnot_ps(number, s(f32::INFINITY)),
        );
        let least = _mm_min_ps(least, _mm_movehl_ps(least, least));
        let least = _mm_min_ss(least, _mm_shuffle_ps::<0b01>(least, least));
        let least = _mm_cvtss_f32(least);

        let reach = add(s(me.look), bound);
        // Ordered compares: false for NaN, as the scalar `>`, `>=` and `<`.
        let out_of_sight = _mm_cmpgt_ps(m2, mul(reach, reach));
        let grown = add(mul(add(bound, s(me.radius)), s(1.0 + 1e-5)), s(1e-5));
        let outside = sub(m2, mul(grown, grown));
        let bq = add(mul(mx, s(me.g.x)), mul(mz, s(me.g.y)));
        let disc = sub(mul(bq, bq), outside);
        let neg_bq = _mm_xor_ps(bq, s(-0.0));
        let beyond = _mm_cmpgt_ps(sub(neg_bq, _mm_sqrt_ps(disc)), s(me.reach));
        let misses = _mm_and_ps(
            _mm_cmpgt_ps(outside, s(0.0)),
            _mm_or_ps(
                _mm_or_ps(_mm_cmpge_ps(bq, s(0.0)), _mm_cmplt_ps(disc, s(0.0))),
                beyond,
            ),
        );
        let keep = _mm_andnot_ps(_mm_or_ps(out_of_sight, misses), live);
        (_mm_movemask_ps(keep) as u32, least, nan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::crowd::scenario::SplitMix;

    /// 32 random bits.
    fn bits(rng: &mut SplitMix) -> u32 {
        (rng.next_u64() >> 32) as u32
    }

    /// Random looks at random lists (1 to 11 obstacles, repeats, touching and overlapping
    /// circles, exact boundaries on a 1/64 grid, huge and infinite centres, zero reach): the
    /// sieve visits exactly the obstacles `sieve_one` keeps, in list order, and gives the
    /// smallest bound that is not NaN, and whether one is.
    #[test]
    fn the_sieve_keeps_what_the_scalar_rule_keeps() {
        let mut rng = SplitMix(0x51e7e);
        let mut kept_total = 0;
        let mut dropped_total = 0;
        let mut nan_seen = 0;
        for case in 0..40_000u32 {
            let snap = case % 3 == 0;
            let coord = |rng: &mut SplitMix, half: f32| {
                let v = rng.range(-half, half);
                if snap {
                    (v * 64.0).round() / 64.0
                } else {
                    v
                }
            };
            let a = rng.range(0.0, core::f32::consts::TAU);
            let me = Looker {
                pos: Vec2::new(coord(&mut rng, 6.0), coord(&mut rng, 6.0)),
                radius: if snap { 0.25 } else { rng.range(0.05, 0.8) },
                look: rng.range(0.5, 5.0),
                g: Vec2::new(a.cos(), a.sin()),
                reach: match bits(&mut rng) % 4 {
                    0 => 1e-5,
                    _ => rng.range(0.0, 5.0) * (1.0 + 1e-5) + 1e-5,
                },
            };
            let rings: Vec<Ring> = (0..12)
                .map(|_| {
                    let center = match bits(&mut rng) % 12 {
                        0 => Vec2::new(f32::INFINITY, coord(&mut rng, 6.0)),
                        1 => Vec2::new(3e38, -3e38),
                        2 => me.pos,
                        3 => me.pos + me.g * rng.range(0.0, 6.0),
                        _ => Vec2::new(coord(&mut rng, 9.0), coord(&mut rng, 9.0)),
                    };
                    let bound = if snap { 0.5 } else { rng.range(0.0, 2.0) };
                    Ring {
                        center,
                        bound,
                        scale: center.abs().max_element(),
                    }
                })
                .collect();
            let n = 1 + bits(&mut rng) as usize % 11;
            let list: Vec<u32> = (0..n).map(|_| bits(&mut rng) % 12).collect();
            let (mut gap, mut nan) = (me.look, false);
            let mut seen = Vec::new();
            sieve(&me, &rings, &list, &mut gap, &mut nan, |i| seen.push(i));
            let (mut want_gap, mut want_nan) = (me.look, false);
            let mut want = Vec::new();
            for &i in &list {
                let (lower, keep) = sieve_one(&me, &rings[i as usize]);
                want_gap = want_gap.min(lower);
                want_nan |= lower.is_nan();
                if keep {
                    want.push(i as usize);
                }
            }
            assert_eq!(seen, want, "case {case}");
            assert_eq!(gap.to_bits(), want_gap.to_bits(), "case {case}");
            assert_eq!(nan, want_nan, "case {case}");
            kept_total += want.len();
            dropped_total += list.len() - want.len();
            nan_seen += want_nan as usize;
        }
        assert!(kept_total > 10_000 && dropped_total > 10_000 && nan_seen > 1_000);
    }
}
