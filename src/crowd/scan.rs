//! The steer query's candidate scan: which positions of a run of the cell-sorted array lie
//! within a radius of the agent, in array order.
//!
//! A query visits a few short runs (one or two per row of cells; about four positions each at
//! walking densities). A scalar loop over such runs pays a mispredicted exit per run; the
//! AVX2 build (used on AVX-512 CPUs too) tests up to [`LANES`] positions at once with two
//! masked loads (no read past the run) and packs the indices that pass to the front with a
//! table of lane numbers, so a run of up to eight positions takes no data-dependent branch at
//! all. (An AVX-512 build with one masked load, `pext` and a compress store was slower on this
//! Xeon, 5.5 against 4.9 ns per call, and `pext` is slow on AMD Zen 1 and 2.)
//!
//! Every build computes d² = (qₓ − pₓ)² + (q_z − p_z)² with the same f32 operations and
//! tests d² ≤ r² (false for NaN), so they select the same indices in the same order: the
//! steer above them gives the same bits on every build.

use glam::Vec2;

use super::kernels::Kernels;
use crate::simd::Simd;

/// Positions tested per call.
pub(crate) const LANES: usize = 8;

impl Kernels {
    /// Writes to the front of `out`, in order, `first + i` for every `i` with
    /// |`pos[i]` − `p`|² ≤ `r2` and `first + i` ≠ `skip`; returns how many. `pos` holds 0 to
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
        debug_assert!(pos.len() <= LANES);
        #[cfg(target_arch = "x86_64")]
        match self.level() {
            Simd::Avx2 | Simd::Avx512 => {
                // SAFETY: `Kernels::detect` found AVX2 on this CPU (at either level).
                return unsafe { within_avx2(pos, first, p, r2, skip, out) };
            }
            Simd::Portable => {}
        }
        within_portable(pos, first, p, r2, skip, out)
    }
}

/// [`Kernels::within`] in scalar code, branch-free per position.
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

/// For each 8-bit keep mask, the positions of its set bits in increasing order, one per byte
/// (unused bytes 0): the lane permutation that packs the kept lanes to the front.
#[cfg(target_arch = "x86_64")]
static PACK: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut packed, mut at, mut bit) = (0u64, 0, 0);
        while bit < 8 {
            if mask >> bit & 1 == 1 {
                packed |= (bit as u64) << (8 * at);
                at += 1;
            }
            bit += 1;
        }
        table[mask] = packed;
        mask += 1;
    }
    table
};

/// For each 8-bit keep mask, how many bits it sets (AVX2 does not imply POPCNT, and without
/// it `count_ones` is a dozen instructions).
#[cfg(target_arch = "x86_64")]
static KEPT: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut mask = 0;
    while mask < 256 {
        table[mask] = (mask as u32).count_ones() as u8;
        mask += 1;
    }
    table
};

/// [`Kernels::within`] with AVX2 only (no BMI2: `pext` is microcoded and slow on AMD Zen 1 and 2):
/// up to eight positions as two registers of (x, z) pairs, read with masked loads (nothing
/// past the run), split into an x and a z register, tested at once; the kept indices are
/// packed to the front with a 256-entry table of lane numbers.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn within_avx2(
    pos: &[Vec2],
    first: u32,
    p: Vec2,
    r2: f32,
    skip: u32,
    out: &mut [u32; LANES],
) -> usize {
    use core::arch::x86_64::*;
    let n = pos.len().min(LANES);
    let iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    // One mask lane per float: floats 0..8 (positions 0..4) and 8..16 (positions 4..8), of
    // which the first 2n exist.
    let lo_load = _mm256_cmpgt_epi32(_mm256_set1_epi32(2 * n as i32), iota);
    let hi_load = _mm256_cmpgt_epi32(_mm256_set1_epi32(2 * n as i32 - 8), iota);
    let f = pos.as_ptr().cast::<f32>();
    // SAFETY: `Vec2` is two f32 with no padding, so `pos` is 2·len contiguous f32; a masked
    // load reads (and may fault on) only the floats its mask keeps, all among the first 2n,
    // and gives 0 in the others. The second address is formed with `wrapping_add`, so it
    // is no error when it lies past the slice (n ≤ 4: nothing is read there).
    let (lo, hi) = unsafe {
        (
            _mm256_maskload_ps(f, lo_load),
            _mm256_maskload_ps(f.wrapping_add(8), hi_load),
        )
    };
    // Per 128-bit half: x of the first register's two positions, then of the second's
    // (lanes hold positions 0 1 4 5 | 2 3 6 7), and the same for z.
    let qx = _mm256_shuffle_ps::<0b10_00_10_00>(lo, hi);
    let qz = _mm256_shuffle_ps::<0b11_01_11_01>(lo, hi);
    let dx = _mm256_sub_ps(qx, _mm256_set1_ps(p.x));
    let dz = _mm256_sub_ps(qz, _mm256_set1_ps(p.y));
    let d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dz, dz));
    // Back to position order 0..8 (64-bit pairs 0 2 1 3).
    let d2 = _mm256_castpd_ps(_mm256_permute4x64_pd::<0b11_01_10_00>(_mm256_castps_pd(d2)));
    let hit = _mm256_and_ps(
        _mm256_cmp_ps::<_CMP_LE_OQ>(d2, _mm256_set1_ps(r2)),
        _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(n as i32), iota)),
    );
    // The lane of `skip`, if it is one of these positions (no lane matches otherwise).
    let skipped = _mm256_castsi256_ps(_mm256_cmpeq_epi32(
        iota,
        _mm256_set1_epi32(skip.wrapping_sub(first) as i32),
    ));
    let keep = _mm256_movemask_ps(_mm256_andnot_ps(skipped, hit)) as usize;
    // Lane k of the result is first + (the k-th kept lane).
    let lanes = _mm_cvtsi64_si128(PACK[keep] as i64);
    let packed = _mm256_add_epi32(_mm256_set1_epi32(first as i32), _mm256_cvtepu8_epi32(lanes));
    // SAFETY: `out` holds LANES = 8 u32, the eight written.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), packed) };
    KEPT[keep] as usize
}

/// Test memory followed by an unmapped page: data copied to its end lets a test check that a
/// build reads nothing past a slice (a read there faults).
#[cfg(all(test, target_os = "linux", target_arch = "x86_64"))]
pub(crate) mod guard {
    use core::ffi::c_void;

    /// The x86-64 Linux page size.
    const PAGE: usize = 4096;

    /// One readable page and, after it, one that faults on any access.
    pub(crate) struct Guarded {
        base: *mut u8,
    }

    impl Guarded {
        /// Maps the two pages.
        pub(crate) fn new() -> Self {
            // (Declared in the function: cbindgen, which reads every module for the C header
            // and does not evaluate `cfg(test)`, does not look inside functions.)
            extern "C" {
                fn mmap(
                    addr: *mut c_void,
                    len: usize,
                    prot: i32,
                    flags: i32,
                    fd: i32,
                    off: i64,
                ) -> *mut c_void;
                fn mprotect(addr: *mut c_void, len: usize, prot: i32) -> i32;
            }
            const PROT_READ_WRITE: i32 = 3;
            const MAP_PRIVATE_ANONYMOUS: i32 = 0x22;
            // SAFETY: an anonymous private mapping of two fresh pages, then the second made
            // inaccessible; neither touches memory Rust owns.
            unsafe {
                let base = mmap(
                    core::ptr::null_mut(),
                    2 * PAGE,
                    PROT_READ_WRITE,
                    MAP_PRIVATE_ANONYMOUS,
                    -1,
                    0,
                );
                assert_ne!(base as isize, -1, "mmap failed");
                assert_eq!(mprotect(base.cast::<u8>().add(PAGE).cast(), PAGE, 0), 0);
                Guarded { base: base.cast() }
            }
        }

        /// `items` copied to the very end of the readable page.
        pub(crate) fn tail<T: Copy>(&mut self, items: &[T]) -> &mut [T] {
            let bytes = core::mem::size_of_val(items);
            let align = core::mem::align_of::<T>();
            assert!(bytes <= PAGE && PAGE.is_multiple_of(align) && bytes.is_multiple_of(align));
            // SAFETY: the last `bytes` bytes of the readable page, aligned for T (the page is,
            // and `bytes` is a multiple of T's alignment), borrowed from `self` mutably.
            unsafe {
                let at = self.base.add(PAGE - bytes).cast::<T>();
                core::ptr::copy_nonoverlapping(items.as_ptr(), at, items.len());
                core::slice::from_raw_parts_mut(at, items.len())
            }
        }
    }

    impl Drop for Guarded {
        fn drop(&mut self) {
            extern "C" {
                fn munmap(addr: *mut c_void, len: usize) -> i32;
            }
            // SAFETY: the mapping `new` made; no slice of it outlives `self`.
            unsafe { munmap(self.base.cast(), 2 * PAGE) };
        }
    }
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
        let fast = Kernels::detect(Simd::Avx512);
        #[cfg(target_arch = "x86_64")]
        let avx2 = std::is_x86_feature_detected!("avx2");
        #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
        let mut guarded = guard::Guarded::new();
        for case in 0..20_000u32 {
            // 0 to LANES positions (the steer pads its queries with empty runs).
            let n = case as usize % (LANES + 1);
            let mut pos: Vec<Vec2> = (0..n).map(|_| Vec2::new(rnd(), rnd())).collect();
            if case % 97 == 0 && n > 0 {
                pos[0].x = f32::NAN;
            }
            let p = Vec2::new(rnd(), rnd());
            // Radii on the boundary of some positions too.
            let r2 = if case % 5 == 0 && n > 0 {
                (pos[n - 1] - p).length_squared()
            } else {
                rnd().abs() * 3.0
            };
            let first = 1000 + case;
            let skip = first + case % 10;
            let (mut a, mut b) = ([u32::MAX; LANES], [u32::MAX; LANES]);
            let na = fast.within(&pos, first, p, r2, skip, &mut a);
            let nb = Kernels::portable().within(&pos, first, p, r2, skip, &mut b);
            assert_eq!(a[..na], b[..nb], "case {case}");
            let want: Vec<u32> = (0..n as u32)
                .filter(|&i| (pos[i as usize] - p).length_squared() <= r2 && first + i != skip)
                .map(|i| first + i)
                .collect();
            assert_eq!(b[..nb], want[..], "case {case}");
            #[cfg(target_arch = "x86_64")]
            if avx2 {
                let mut c = [u32::MAX; LANES];
                // SAFETY: AVX2 was detected.
                let nc = unsafe { within_avx2(&pos, first, p, r2, skip, &mut c) };
                assert_eq!(c[..nc], b[..nb], "case {case}");
            }
            // Again with the positions at the end of a page followed by an unmapped one: a
            // read past the slice faults.
            #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
            {
                let tail = guarded.tail(&pos);
                let mut c = [u32::MAX; LANES];
                let nc = fast.within(tail, first, p, r2, skip, &mut c);
                assert_eq!(c[..nc], b[..nb], "case {case}");
                if avx2 {
                    // SAFETY: AVX2 was detected.
                    let nc = unsafe { within_avx2(tail, first, p, r2, skip, &mut c) };
                    assert_eq!(c[..nc], b[..nb], "case {case}");
                }
            }
        }
    }
}
