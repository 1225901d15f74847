//! The steer query's candidate scan: which positions of a run of the cell-sorted array lie
//! within a radius of the agent, in array order.
//!
//! A query visits a few short runs (one or two per row of cells; about four positions each at
//! walking densities). A scalar loop over such runs pays a mispredicted exit per run; the
//! AVX-512 build tests up to [`LANES`] positions at once with a masked load (no read past the
//! run) and writes the indices that pass with one compress store, so a run of up to eight
//! positions takes no data-dependent branch at all.
//!
//! Both builds compute d² = (pₓ − qₓ)² + (p_z − q_z)² with the same f32 operations and test
//! d² ≤ r² (false for NaN), so they select the same indices in the same order: the steer
//! above them gives the same bits on every build.

use glam::Vec2;

use crate::simd::Simd;

/// Positions tested per call.
pub(crate) const LANES: usize = 8;

/// Which lane builds the step's kernels (this scan, the cull, the batched turns) may use on
/// this CPU: the best it has up to a cap (checked once, when the cap is set).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Scan {
    level: Simd,
}

impl Scan {
    /// The fastest build this CPU runs, up to `cap`.
    pub(crate) fn detect(cap: Simd) -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            let avx512 = std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512vl")
                && std::is_x86_feature_detected!("bmi2");
            let avx2 = std::is_x86_feature_detected!("avx2");
            let best = if avx512 && avx2 {
                Simd::Avx512
            } else if avx2 {
                Simd::Avx2
            } else {
                Simd::Portable
            };
            Scan {
                level: best.min(cap),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = cap;
            Scan::portable()
        }
    }

    /// The builds in use.
    pub(crate) fn level(self) -> Simd {
        self.level
    }

    /// Whether the AVX-512 builds (F, VL, BMI2; and AVX2) may run.
    pub(crate) fn avx512(self) -> bool {
        self.level == Simd::Avx512
    }

    /// Whether the AVX2 builds (or better) may run.
    #[allow(dead_code)] // Wired with the AVX2 kernels.
    pub(crate) fn avx2(self) -> bool {
        self.level >= Simd::Avx2
    }

    /// The portable build only.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    pub(crate) fn portable() -> Self {
        Scan {
            level: Simd::Portable,
        }
    }

    /// Writes to the front of `out`, in order, `first + i` for every `i` with
    /// |`pos[i]` − `p`|² ≤ `r2` and `first + i` ≠ `skip`; returns how many. `pos` holds 1 to
    /// [`LANES`] positions. Entries of `out` past the count are unspecified.
    #[inline]
    pub(crate) fn within(
        self,
        pos: &[Vec2],
        first: u32,
        p: Vec2,
        r2: f32,
        skip: u32,
        out: &mut [u32; LANES],
    ) -> usize {
        debug_assert!(!pos.is_empty() && pos.len() <= LANES);
        #[cfg(target_arch = "x86_64")]
        if self.avx512() {
            // SAFETY: `detect` found AVX-512F, AVX-512VL and BMI2 on this CPU.
            return unsafe { within_avx512(pos, first, p, r2, skip, out) };
        }
        within_portable(pos, first, p, r2, skip, out)
    }
}

/// [`Scan::within`] in scalar code, branch-free per position.
#[inline]
fn within_portable(
    pos: &[Vec2],
    first: u32,
    p: Vec2,
    r2: f32,
    skip: u32,
    out: &mut [u32; LANES],
) -> usize {
    let mut n = 0;
    for (i, q) in (first..).zip(pos.iter().take(LANES)) {
        let d2 = (*q - p).length_squared();
        out[n] = i;
        n += (d2 <= r2 && i != skip) as usize;
    }
    n
}

/// [`Scan::within`] with AVX-512: the (x, z) pairs of up to eight positions in one register.
///
/// # Safety
/// The CPU must support AVX-512F, AVX-512VL and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,bmi2")]
unsafe fn within_avx512(
    pos: &[Vec2],
    first: u32,
    p: Vec2,
    r2: f32,
    skip: u32,
    out: &mut [u32; LANES],
) -> usize {
    use core::arch::x86_64::*;
    let n = pos.len().min(LANES);
    // One mask bit per float: 2n floats are read, nothing past the slice.
    let load = ((1u32 << (2 * n)) - 1) as __mmask16;
    // SAFETY: `Vec2` is two f32 with no padding, so `pos` is 2·len contiguous f32; the masked
    // load touches (and may fault on) only the 2n of them it keeps.
    let q = unsafe { _mm512_maskz_loadu_ps(load, pos.as_ptr().cast::<f32>()) };
    let pp = _mm512_castpd_ps(_mm512_set1_pd(f64::from_bits(
        (p.y.to_bits() as u64) << 32 | p.x.to_bits() as u64,
    )));
    let d = _mm512_sub_ps(q, pp);
    let sq = _mm512_mul_ps(d, d);
    // Each pair (dx², dz²) summed into both of its lanes: dx² + dz² (addition of two values
    // is commutative in IEEE arithmetic, so both lanes hold the scalar build's d²).
    let d2 = _mm512_add_ps(sq, _mm512_permute_ps::<0b10_11_00_01>(sq));
    let hit = _mm512_mask_cmp_ps_mask::<_CMP_LE_OQ>(load, d2, _mm512_set1_ps(r2));
    // The even (x) lanes' bits, one per position.
    let mut keep = _pext_u32(hit as u32, 0x5555);
    let off = skip.wrapping_sub(first);
    if (off as usize) < n {
        keep &= !(1 << off);
    }
    let idx = _mm256_add_epi32(
        _mm256_set1_epi32(first as i32),
        _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
    );
    // SAFETY: `out` holds LANES = 8 u32; the compress store writes at most popcount(keep) ≤ 8.
    unsafe { _mm256_mask_compressstoreu_epi32(out.as_mut_ptr().cast(), keep as __mmask8, idx) };
    keep.count_ones() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_build_selects_the_same_indices() {
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 40) as f32 / (1u64 << 24) as f32) * 8.0 - 4.0
        };
        let fast = Scan::detect(Simd::Avx512);
        for case in 0..20_000u32 {
            let n = 1 + case as usize % LANES;
            let mut pos: Vec<Vec2> = (0..n).map(|_| Vec2::new(rnd(), rnd())).collect();
            if case % 97 == 0 {
                pos[0].x = f32::NAN;
            }
            let p = Vec2::new(rnd(), rnd());
            // Radii on the boundary of some positions too.
            let r2 = if case % 5 == 0 {
                (pos[n - 1] - p).length_squared()
            } else {
                rnd().abs() * 3.0
            };
            let first = 1000 + case;
            let skip = first + case % 10;
            let (mut a, mut b) = ([u32::MAX; LANES], [u32::MAX; LANES]);
            let na = fast.within(&pos, first, p, r2, skip, &mut a);
            let nb = Scan::portable().within(&pos, first, p, r2, skip, &mut b);
            assert_eq!(a[..na], b[..nb], "case {case}");
            let want: Vec<u32> = (0..n as u32)
                .filter(|&i| (pos[i as usize] - p).length_squared() <= r2 && first + i != skip)
                .map(|i| first + i)
                .collect();
            assert_eq!(b[..nb], want[..], "case {case}");
        }
    }
}
