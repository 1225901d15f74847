//! The steer's neighbour cull: of the candidates a query found, which can change the
//! decision. Most cannot: at walking densities an agent has about four candidates, and
//! fewer than one in ten is close enough to limit its walk or on a collision course inside
//! its horizon; the rest only lower the nearest distance. The AVX-512 build tests eight
//! candidates at once (their fields gathered from the cell-sorted bodies) and hands on only
//! the survivors, in order, to the full per-neighbour rule.
//!
//! A candidate j of agent i (x = pⱼ − pᵢ, d = |x|, r = rᵢ + rⱼ) is dropped when one of the
//! rule's own early exits takes it, computed with the same f32 operations:
//! - i does not avoid j's layer, or d² > (look + rⱼ)²;
//! - and it neither may settle i (j arrived, i on its final leg, d ≤ r + gap) nor counts as
//!   close (j moving, d < r + near), and either it is outside the field of view
//!   (d > r and both f·x and g·x < d cos θ) or, not touching (d ≥ r), the relative motion
//!   v = vᵢ − vⱼ does not bring it within r inside the horizon (x·v ≤ 0, |v|² < 10⁻¹²,
//!   no real root, or a first contact time beyond the horizon).
//!
//! NaN makes every comparison false, so such a candidate survives and the full rule decides.
//! The portable build keeps every candidate. Either way the rule sees the same candidates
//! that matter, in the same order, and the steer gives the same bits.

use glam::Vec2;

use super::steering::Body;

/// Candidates tested per call.
pub(crate) const LANES: usize = 8;

/// What the cull knows of the agent that looks.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Looker {
    pub pos: Vec2,
    pub mask: u32,
    pub look: f32,
    pub radius: f32,
    pub final_leg: bool,
    /// `SETTLE_GAP · radius`.
    pub settle_gap: f32,
    /// The close distance beyond contact.
    pub near: f32,
    pub fwd: Vec2,
    pub g: Vec2,
    pub cos_half_fov: f32,
    /// Its preferred velocity.
    pub v: Vec2,
    pub horizon: f32,
}

/// Bit i set: `cand[i]` survives. Also returns the smallest d² among the candidates (NaN
/// ignored; +∞ when none). `cand` holds 1 to [`LANES`] indices into `bodies` and `pos`.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512VL; every index must be in range.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) unsafe fn survivors_avx512(
    me: &Looker,
    bodies: &[Body],
    pos: &[Vec2],
    cand: &[u32],
) -> (u32, f32) {
    use core::arch::x86_64::*;
    use core::mem::{offset_of, size_of};

    const STRIDE: i32 = (size_of::<Body>() / 4) as i32;
    const VEL: i32 = (offset_of!(Body, vel) / 4) as i32;
    const RADIUS: i32 = (offset_of!(Body, radius) / 4) as i32;
    const LAYER: i32 = (offset_of!(Body, layer) / 4) as i32;
    const ARRIVED: i32 = (offset_of!(Body, arrived) / 4) as i32;
    const ARRIVED_SHIFT: u32 = (offset_of!(Body, arrived) % 4 * 8) as u32;
    const _: () = assert!(size_of::<Body>().is_multiple_of(4));

    let n = cand.len().min(LANES);
    let live = ((1u32 << n) - 1) as __mmask8;
    // SAFETY: the masked load reads only the first n indices.
    let idx = unsafe { _mm256_maskz_loadu_epi32(live, cand.as_ptr().cast()) };
    let f32s = bodies.as_ptr().cast::<f32>();
    let rows = _mm256_mullo_epi32(idx, _mm256_set1_epi32(STRIDE));
    let field = |at: i32| -> __m256 {
        // SAFETY: live lanes index bodies in range (the caller's promise); the field lies
        // inside the row; masked lanes read nothing.
        unsafe {
            _mm256_mmask_i32gather_ps::<4>(
                _mm256_setzero_ps(),
                live,
                _mm256_add_epi32(rows, _mm256_set1_epi32(at)),
                f32s,
            )
        }
    };
    let pos2 = _mm256_slli_epi32::<1>(idx);
    let p32 = pos.as_ptr().cast::<f32>();
    // SAFETY: as above, into `pos` (two f32 per entry).
    let (px, pz) = unsafe {
        (
            _mm256_mmask_i32gather_ps::<4>(_mm256_setzero_ps(), live, pos2, p32),
            _mm256_mmask_i32gather_ps::<4>(
                _mm256_setzero_ps(),
                live,
                _mm256_add_epi32(pos2, _mm256_set1_epi32(1)),
                p32,
            ),
        )
    };
    let s = _mm256_set1_ps;
    let (add, sub, mul) = (_mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps);
    let lt = |a: __m256, b: __m256| _mm256_cmp_ps_mask::<_CMP_LT_OQ>(a, b);
    let le = |a: __m256, b: __m256| _mm256_cmp_ps_mask::<_CMP_LE_OQ>(a, b);
    let gt = |a: __m256, b: __m256| _mm256_cmp_ps_mask::<_CMP_GT_OQ>(a, b);

    let xx = sub(px, s(me.pos.x));
    let xz = sub(pz, s(me.pos.y));
    let d2 = add(mul(xx, xx), mul(xz, xz));
    // Smallest d² of the live lanes, NaN counted as +∞ (f32::min ignores NaN).
    let finite = _mm256_cmp_ps_mask::<_CMP_ORD_Q>(d2, d2) & live;
    let nearest = _mm256_mask_blend_ps(finite, s(f32::INFINITY), d2);
    let mut lanes = [0f32; LANES];
    // SAFETY: eight f32.
    unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), nearest) };
    let nearest = lanes.iter().fold(f32::INFINITY, |m, &v| m.min(v));

    let layer = _mm256_castps_si256(field(LAYER));
    let seen = _mm256_mask_test_epi32_mask(live, layer, _mm256_set1_epi32(me.mask as i32));
    let o_radius = field(RADIUS);
    let reach = add(s(me.look), o_radius);
    // False only where d² > reach² is definitely true (NaN keeps the lane).
    let in_reach = !gt(d2, mul(reach, reach));
    let r = add(s(me.radius), o_radius);
    let dd = _mm256_sqrt_ps(d2);
    let arrived_dw = _mm256_castps_si256(field(ARRIVED));
    let arrived = _mm256_test_epi32_mask(
        arrived_dw,
        _mm256_set1_epi32((0xffu32 << ARRIVED_SHIFT) as i32),
    );
    let settle = if me.final_leg {
        arrived & le(dd, add(r, s(me.settle_gap)))
    } else {
        0
    };
    let close = !arrived & lt(dd, add(r, s(me.near)));
    let cos_dd = mul(dd, s(me.cos_half_fov));
    let f_x = add(mul(s(me.fwd.x), xx), mul(s(me.fwd.y), xz));
    let g_x = add(mul(s(me.g.x), xx), mul(s(me.g.y), xz));
    let out_of_view = gt(dd, r) & lt(f_x, cos_dd) & lt(g_x, cos_dd);
    let vx = sub(s(me.v.x), field(VEL));
    let vz = sub(s(me.v.y), field(VEL + 1));
    let a = add(mul(vx, vx), mul(vz, vz));
    let bq = add(mul(xx, vx), mul(xz, vz));
    let c = sub(d2, mul(r, r));
    let disc = sub(mul(bq, bq), mul(a, c));
    let t = _mm256_div_ps(c, add(bq, _mm256_sqrt_ps(disc)));
    // Only a candidate not touching (d ≥ r) leaves through the course tests.
    let no_course = (le(bq, s(0.0)) | lt(a, s(1e-12)) | le(disc, s(0.0)) | gt(t, s(me.horizon)))
        & _mm256_cmp_ps_mask::<_CMP_GE_OQ>(dd, r);
    let dropped = out_of_view | no_course;
    let keep = live & seen & in_reach & (settle | close | !dropped);
    (keep as u32, nearest)
}
