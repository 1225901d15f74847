//! Table rows to lane columns with AVX-512 (x86-64 only): the batch's AVX-512 build reads
//! each lane's arc-length span (32 bytes) and power-form segment (a 64-byte row) with one
//! vector load per lane and turns 16 rows into columns with in-register shuffles — fewer
//! operations than gathering every field separately (a gather costs one load per lane and
//! field). Only bits move: the columns hold exactly the table's values.
//!
//! 16 × 16 transpose (rows `r₀ … r₁₅` of 16 values): (1) `unpacklo/hi_ps` of row pairs
//! interleave 32-bit values within each 128-bit lane; (2) `unpacklo/hi_pd` of those pairs
//! interleave 64-bit pairs, leaving in each 128-bit lane one column of four rows; (3) and (4)
//! `shuffle_f32x4` gather the 128-bit lanes of one column from the four row groups.

use super::path::{PowerRow, Span};
use super::set::CHUNK;
use core::arch::x86_64::*;

const _: () = assert!(
    CHUNK.is_multiple_of(16),
    "chunks hold whole blocks of 16 lanes"
);

/// `shuffle_f32x4` selectors: 128-bit lanes 0 and 2 of each source, or 1 and 3.
const EVEN: i32 = 0b10_00_10_00;
const ODD: i32 = 0b11_01_11_01;

/// The span row read for an index past the table (never happens: every index is in range).
static NO_SPAN: Span = Span::SENTINEL;
/// The segment row read for an index past the table (never happens, as above).
static NO_SEGMENT: PowerRow = PowerRow::ZERO;

/// Stores `v` at lanes `at..at + 16` of `col`.
///
/// # Safety
/// AVX-512F.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn put(col: &mut [u32; CHUNK], at: usize, v: __m512) {
    let dst = &mut col[at..at + 16];
    // SAFETY: `dst` is 16 writable `u32` (64 bytes); unaligned stores are allowed.
    unsafe { _mm512_storeu_ps(dst.as_mut_ptr().cast::<f32>(), v) }
}

/// The eight 4-byte fields of span `idx[j]` of `spans` (in [`Span`]'s order: start, `1/Δs`,
/// segment, `hi`, `c₀ … c₃`) as bits, into `out[field][j]`, for every lane of the chunk.
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn span_fields(spans: &[Span], idx: &[u32; CHUNK], out: &mut [[u32; CHUNK]; 8]) {
    for at in (0..CHUNK).step_by(16) {
        let row = |j: usize| -> __m256 {
            let s = spans.get(idx[at + j] as usize).unwrap_or(&NO_SPAN);
            // SAFETY: `Span` is `repr(C)`: eight 4-byte fields, 32 bytes, no padding; the
            // load reads exactly that object.
            unsafe { _mm256_loadu_ps((s as *const Span).cast::<f32>()) }
        };
        // Rows i and i + 4 (i < 4) in one register, rows 8 + i and 12 + i in another, so
        // that step (4) finds the row groups 0–3, 4–7, 8–11, 12–15 in order.
        let pair = |lo: usize, hi: usize| {
            _mm512_castpd_ps(_mm512_insertf64x4::<1>(
                _mm512_castps_pd(_mm512_castps256_ps512(row(lo))),
                _mm256_castps_pd(row(hi)),
            ))
        };
        let z = [
            pair(0, 4),
            pair(1, 5),
            pair(2, 6),
            pair(3, 7),
            pair(8, 12),
            pair(9, 13),
            pair(10, 14),
            pair(11, 15),
        ];
        let t = [
            _mm512_unpacklo_ps(z[0], z[1]),
            _mm512_unpackhi_ps(z[0], z[1]),
            _mm512_unpacklo_ps(z[2], z[3]),
            _mm512_unpackhi_ps(z[2], z[3]),
            _mm512_unpacklo_ps(z[4], z[5]),
            _mm512_unpackhi_ps(z[4], z[5]),
            _mm512_unpacklo_ps(z[6], z[7]),
            _mm512_unpackhi_ps(z[6], z[7]),
        ];
        let lo_pd = |a: __m512, b: __m512| {
            _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(a), _mm512_castps_pd(b)))
        };
        let hi_pd = |a: __m512, b: __m512| {
            _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(a), _mm512_castps_pd(b)))
        };
        // u[k] (k < 4): field k in 128-bit lanes 0 and 2, field k + 4 in lanes 1 and 3,
        // rows 0–3 | 4–7 (first four) or 8–11 | 12–15 (last four).
        let u = [
            lo_pd(t[0], t[2]),
            hi_pd(t[0], t[2]),
            lo_pd(t[1], t[3]),
            hi_pd(t[1], t[3]),
            lo_pd(t[4], t[6]),
            hi_pd(t[4], t[6]),
            lo_pd(t[5], t[7]),
            hi_pd(t[5], t[7]),
        ];
        for k in 0..4 {
            // SAFETY: AVX-512F (this function's contract).
            unsafe {
                put(
                    &mut out[k],
                    at,
                    _mm512_shuffle_f32x4::<EVEN>(u[k], u[k + 4]),
                );
                put(
                    &mut out[k + 4],
                    at,
                    _mm512_shuffle_f32x4::<ODD>(u[k], u[k + 4]),
                );
            }
        }
    }
}

/// The first 12 values of power-form row `seg[j]` of `rows` (`a`, `b`, `c`, `d`, each x, y,
/// z) as bits, into `out[value][j]`, for every lane of the chunk.
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn power_values(
    rows: &[PowerRow],
    seg: &[u32; CHUNK],
    out: &mut [[u32; CHUNK]; 12],
) {
    for at in (0..CHUNK).step_by(16) {
        let r: [__m512; 16] = std::array::from_fn(|j| {
            let row = rows.get(seg[at + j] as usize).unwrap_or(&NO_SEGMENT);
            // SAFETY: `PowerRow` is 16 `f32` (64 bytes, no padding); the load reads exactly
            // that object.
            unsafe { _mm512_loadu_ps(row.0.as_ptr()) }
        });
        // (1) t[2i], t[2i + 1]: rows 2i and 2i + 1 interleaved (low / high halves of each
        // 128-bit lane).
        let t: [__m512; 16] = std::array::from_fn(|k| {
            let (a, b) = (r[k & !1], r[k | 1]);
            if k % 2 == 0 {
                _mm512_unpacklo_ps(a, b)
            } else {
                _mm512_unpackhi_ps(a, b)
            }
        });
        // (2) u[4g + k] (row group g = rows 4g … 4g + 3, k < 4): in 128-bit lane q, value
        // 4q + k of the group's four rows.
        let u: [__m512; 16] = std::array::from_fn(|i| {
            let (g, k) = (i / 4, i % 4);
            let (a, b) = (t[4 * g + k / 2], t[4 * g + 2 + k / 2]);
            let (a, b) = (_mm512_castps_pd(a), _mm512_castps_pd(b));
            _mm512_castpd_ps(if k % 2 == 0 {
                _mm512_unpacklo_pd(a, b)
            } else {
                _mm512_unpackhi_pd(a, b)
            })
        });
        for k in 0..4 {
            // (3) groups 0 and 1, and groups 2 and 3: values k and 8 + k (even), 4 + k and
            // 12 + k (odd), two row groups each.
            let v0 = _mm512_shuffle_f32x4::<EVEN>(u[k], u[4 + k]);
            let v1 = _mm512_shuffle_f32x4::<ODD>(u[k], u[4 + k]);
            let v2 = _mm512_shuffle_f32x4::<EVEN>(u[8 + k], u[12 + k]);
            let v3 = _mm512_shuffle_f32x4::<ODD>(u[8 + k], u[12 + k]);
            // (4) all four row groups: values k, 8 + k, 4 + k (12 + k is padding).
            // SAFETY: AVX-512F (this function's contract).
            unsafe {
                put(&mut out[k], at, _mm512_shuffle_f32x4::<EVEN>(v0, v2));
                put(&mut out[8 + k], at, _mm512_shuffle_f32x4::<ODD>(v0, v2));
                put(&mut out[4 + k], at, _mm512_shuffle_f32x4::<EVEN>(v1, v3));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has_avx512f() -> bool {
        std::is_x86_feature_detected!("avx512f")
    }

    /// Both transposes against plain indexing, with repeated and out-of-range indexes.
    #[test]
    fn transposes_move_every_field_to_its_column() {
        if !has_avx512f() {
            return;
        }
        let spans: Vec<Span> = (0..50u32)
            .map(|i| {
                let f = |k: u32| f32::from_bits(i * 1000 + k);
                Span {
                    start: f(0),
                    inv_ds: f(1),
                    segment: i * 1000 + 2,
                    hi: f(3),
                    c: [f(4), f(5), f(6), f(7)],
                }
            })
            .collect();
        let rows: Vec<PowerRow> = (0..30u32)
            .map(|i| PowerRow(std::array::from_fn(|k| f32::from_bits(i * 1000 + k as u32))))
            .collect();
        let idx: [u32; CHUNK] = std::array::from_fn(|j| (j as u32 * 7919) % 53);
        let mut out = [[0u32; CHUNK]; 8];
        // SAFETY: AVX-512F was detected above.
        unsafe { span_fields(&spans, &idx, &mut out) };
        let mut pout = [[0u32; CHUNK]; 12];
        // SAFETY: as above.
        unsafe { power_values(&rows, &idx, &mut pout) };
        for (j, &i) in idx.iter().enumerate() {
            let sentinel = Span::SENTINEL;
            let no_span = [
                sentinel.start,
                sentinel.inv_ds,
                f32::from_bits(sentinel.segment),
                sentinel.hi,
                sentinel.c[0],
                sentinel.c[1],
                sentinel.c[2],
                sentinel.c[3],
            ];
            for (k, col) in out.iter().enumerate() {
                let want = if i < 50 {
                    i * 1000 + k as u32
                } else {
                    no_span[k].to_bits()
                };
                assert_eq!(col[j], want, "span field {k}, lane {j}");
            }
            for (k, col) in pout.iter().enumerate() {
                let want = if i < 30 { i * 1000 + k as u32 } else { 0 };
                assert_eq!(col[j], want, "power value {k}, lane {j}");
            }
        }
    }
}
