//! The steer's neighbour cull: of the candidates a query found, which can change the
//! decision. Most cannot: at walking densities an agent has about four candidates, and
//! fewer than one in ten is close enough to limit its walk or on a collision course inside
//! its horizon; the rest only lower the nearest distance. The AVX-512 build tests eight
//! candidates at once (their fields gathered from the cell-sorted bodies) and hands on only
//! the survivors, in order, to the full per-neighbour rule; the AVX2 build, for CPUs without
//! AVX-512, does the same with AVX2 gathers and vector compare masks.
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
//! Both vector builds keep exactly the same candidates. The portable build keeps every
//! candidate. Either way the rule sees the same candidates that matter, in the same order,
//! and the steer gives the same bits.

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

/// [`survivors_avx512`] with AVX2 only, for CPUs without AVX-512: the same f32 operations in
/// the same order (no FMA), so the same survivor bits and the same smallest d². Lane masks
/// are vectors (all ones or all zeros per lane) combined with vector logic and turned into
/// bits once, by `_mm256_movemask_ps`.
///
/// # Safety
/// The CPU must support AVX2; every index must be in range.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn survivors_avx2(
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
    let iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    // All ones in the first n lanes.
    let live_i = _mm256_cmpgt_epi32(_mm256_set1_epi32(n as i32), iota);
    let live = _mm256_castsi256_ps(live_i);
    // SAFETY: the masked load reads only the first n indices (masked-off lanes are neither
    // read nor can fault) and gives 0 in the others.
    let idx = unsafe { _mm256_maskload_epi32(cand.as_ptr().cast(), live_i) };
    let f32s = bodies.as_ptr().cast::<f32>();
    let rows = _mm256_mullo_epi32(idx, _mm256_set1_epi32(STRIDE));
    let field = |at: i32| -> __m256 {
        // SAFETY: live lanes index bodies in range (the caller's promise); the field lies
        // inside the row; masked lanes read nothing and give 0.
        unsafe {
            _mm256_mask_i32gather_ps::<4>(
                _mm256_setzero_ps(),
                f32s,
                _mm256_add_epi32(rows, _mm256_set1_epi32(at)),
                live,
            )
        }
    };
    let pos2 = _mm256_slli_epi32::<1>(idx);
    let p32 = pos.as_ptr().cast::<f32>();
    // SAFETY: as above, into `pos` (two f32 per entry).
    let (px, pz) = unsafe {
        (
            _mm256_mask_i32gather_ps::<4>(_mm256_setzero_ps(), p32, pos2, live),
            _mm256_mask_i32gather_ps::<4>(
                _mm256_setzero_ps(),
                p32,
                _mm256_add_epi32(pos2, _mm256_set1_epi32(1)),
                live,
            ),
        )
    };
    let s = _mm256_set1_ps;
    let (add, sub, mul) = (_mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps);
    let (and, or, andnot) = (_mm256_and_ps, _mm256_or_ps, _mm256_andnot_ps);
    // Ordered compares: false where either side is NaN, as the AVX-512 build's masks.
    let lt = |a: __m256, b: __m256| _mm256_cmp_ps::<_CMP_LT_OQ>(a, b);
    let le = |a: __m256, b: __m256| _mm256_cmp_ps::<_CMP_LE_OQ>(a, b);
    let gt = |a: __m256, b: __m256| _mm256_cmp_ps::<_CMP_GT_OQ>(a, b);
    // Lanes where (a & b) == 0 as integers.
    let none = |a: __m256i, b: __m256i| {
        _mm256_castsi256_ps(_mm256_cmpeq_epi32(
            _mm256_and_si256(a, b),
            _mm256_setzero_si256(),
        ))
    };

    let xx = sub(px, s(me.pos.x));
    let xz = sub(pz, s(me.pos.y));
    let d2 = add(mul(xx, xx), mul(xz, xz));
    // Smallest d² of the live lanes, NaN counted as +∞. The lanes hold no NaN and no −0
    // (a sum of squares), so min picks the same value in any order.
    let finite = and(_mm256_cmp_ps::<_CMP_ORD_Q>(d2, d2), live);
    let m = _mm256_blendv_ps(s(f32::INFINITY), d2, finite);
    let m = _mm256_min_ps(m, _mm256_permute2f128_ps::<0x01>(m, m));
    let m = _mm256_min_ps(m, _mm256_permute_ps::<0b01_00_11_10>(m));
    let m = _mm256_min_ps(m, _mm256_permute_ps::<0b10_11_00_01>(m));
    let nearest = _mm256_cvtss_f32(m);

    let layer = _mm256_castps_si256(field(LAYER));
    let unseen = none(layer, _mm256_set1_epi32(me.mask as i32));
    let o_radius = field(RADIUS);
    let reach = add(s(me.look), o_radius);
    // Out of reach only where d² > reach² is definitely true (NaN keeps the lane).
    let out_of_reach = gt(d2, mul(reach, reach));
    let r = add(s(me.radius), o_radius);
    let dd = _mm256_sqrt_ps(d2);
    let arrived_dw = _mm256_castps_si256(field(ARRIVED));
    let moving = none(
        arrived_dw,
        _mm256_set1_epi32((0xffu32 << ARRIVED_SHIFT) as i32),
    );
    let settle = if me.final_leg {
        andnot(moving, le(dd, add(r, s(me.settle_gap))))
    } else {
        _mm256_setzero_ps()
    };
    let close = and(moving, lt(dd, add(r, s(me.near))));
    let cos_dd = mul(dd, s(me.cos_half_fov));
    let f_x = add(mul(s(me.fwd.x), xx), mul(s(me.fwd.y), xz));
    let g_x = add(mul(s(me.g.x), xx), mul(s(me.g.y), xz));
    let out_of_view = and(and(gt(dd, r), lt(f_x, cos_dd)), lt(g_x, cos_dd));
    let vx = sub(s(me.v.x), field(VEL));
    let vz = sub(s(me.v.y), field(VEL + 1));
    let a = add(mul(vx, vx), mul(vz, vz));
    let bq = add(mul(xx, vx), mul(xz, vz));
    let c = sub(d2, mul(r, r));
    let disc = sub(mul(bq, bq), mul(a, c));
    let t = _mm256_div_ps(c, add(bq, _mm256_sqrt_ps(disc)));
    // Only a candidate not touching (d ≥ r) leaves through the course tests.
    let no_course = and(
        or(
            or(le(bq, s(0.0)), lt(a, s(1e-12))),
            or(le(disc, s(0.0)), gt(t, s(me.horizon))),
        ),
        _mm256_cmp_ps::<_CMP_GE_OQ>(dd, r),
    );
    let dropped = or(out_of_view, no_course);
    // Culled: dropped and neither settling nor close; lost: culled, unseen or out of reach.
    let culled = andnot(or(settle, close), dropped);
    let lost = or(or(unseen, out_of_reach), culled);
    let keep = andnot(lost, live);
    (_mm256_movemask_ps(keep) as u32, nearest)
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// How the module doc's rule treats one candidate.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Way {
        /// Dropped: i does not avoid j's layer.
        Unseen,
        /// Dropped: d² > (look + rⱼ)².
        OutOfReach,
        /// Dropped: out of view or no course, and neither settling nor close.
        Culled,
        /// Kept: out of view or no course, but settling or close.
        Rescued,
        /// Kept: in view and on course (or NaN somewhere).
        Kept,
    }

    impl Way {
        /// Whether the rule drops the candidate.
        fn drops(self) -> bool {
            matches!(self, Way::Unseen | Way::OutOfReach | Way::Culled)
        }
    }

    /// The module doc's rule, one candidate at a time in plain scalar code, for `o` at `q`
    /// (NaN makes every comparison false, so a NaN position is never dropped).
    fn rule(me: &Looker, o: &Body, q: Vec2) -> Way {
        let x = q - me.pos;
        let d2 = x.length_squared();
        if me.mask & o.layer == 0 {
            return Way::Unseen;
        }
        let reach = me.look + o.radius;
        if d2 > reach * reach {
            return Way::OutOfReach;
        }
        let r = me.radius + o.radius;
        let d = d2.sqrt();
        let settles = o.arrived && me.final_leg && d <= r + me.settle_gap;
        let close = !o.arrived && d < r + me.near;
        let cos_d = d * me.cos_half_fov;
        let out_of_view = d > r && me.fwd.dot(x) < cos_d && me.g.dot(x) < cos_d;
        let v = me.v - o.vel;
        let a = v.length_squared();
        let bq = x.dot(v);
        let c = d2 - r * r;
        let disc = bq * bq - a * c;
        let t = c / (bq + disc.sqrt());
        let no_course = d >= r && (bq <= 0.0 || a < 1e-12 || disc <= 0.0 || t > me.horizon);
        match (out_of_view || no_course, settles || close) {
            (false, _) => Way::Kept,
            (true, true) => Way::Rescued,
            (true, false) => Way::Culled,
        }
    }

    /// A small deterministic generator (64-bit LCG, top bits).
    struct Rng(u64);

    impl Rng {
        /// The next 32 random bits.
        fn bits(&mut self) -> u32 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 32) as u32
        }

        /// Uniform in [lo, hi).
        fn range(&mut self, lo: f32, hi: f32) -> f32 {
            lo + (hi - lo) * ((self.bits() >> 8) as f32 / (1u32 << 24) as f32)
        }

        /// True with probability `p`.
        fn chance(&mut self, p: f32) -> bool {
            self.range(0.0, 1.0) < p
        }

        /// A unit vector.
        fn unit(&mut self) -> Vec2 {
            let a = self.range(0.0, std::f32::consts::TAU);
            Vec2::new(a.cos(), a.sin())
        }
    }

    /// Random looks (NaN positions, arrived neighbours, excluding layers, touching and
    /// overlapping pairs, exact boundaries, zero relative motion, final leg on and off, 1 to 8
    /// candidates): the AVX2 build gives the AVX-512 build's bits and nearest d², and drops
    /// nothing the module doc's rule keeps.
    #[test]
    fn avx2_cull_matches_avx512_and_drops_only_what_the_rule_drops() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        let avx512 =
            std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl");
        let mut rng = Rng(0x5eed);
        #[cfg(target_os = "linux")]
        let mut guarded = crate::crowd::scan::guard::Guarded::new();
        const N: usize = 48;
        // How often each [`Way`] was taken, then how many NaN positions, exact contacts
        // (d = r) and candidates exactly on the close or the settle boundary were seen.
        let mut seen_cases = [0usize; 9];
        // Candidates the AVX2 build keeps though the rule drops them (allowed: a superset).
        let mut extra = 0usize;
        for case in 0..40_000u32 {
            // Small coordinates on a 1/64 grid sometimes, so exact contact (d = r) happens.
            let snap = case % 3 == 0;
            let coord = |rng: &mut Rng, half: f32| {
                let v = rng.range(-half, half);
                if snap {
                    (v * 64.0).round() / 64.0
                } else {
                    v
                }
            };
            let radius = if snap { 0.25 } else { rng.range(0.2, 0.6) };
            let speed = rng.range(0.0, 2.0);
            let fov_range = rng.range(0.5, 4.0);
            let fov = rng.range(0.3, 3.0);
            let me = Looker {
                // At the origin sometimes, so a neighbour placed at a distance is exactly there.
                pos: if case % 4 == 1 {
                    Vec2::ZERO
                } else {
                    Vec2::new(coord(&mut rng, 4.0), coord(&mut rng, 4.0))
                },
                mask: rng.bits() & 7 | 1 << (rng.bits() % 3),
                look: fov_range + radius,
                radius,
                final_leg: rng.chance(0.5),
                settle_gap: 0.2 * radius,
                near: rng.range(0.0, 0.5),
                fwd: rng.unit(),
                g: rng.unit(),
                cos_half_fov: fov.cos(),
                v: if rng.chance(0.2) {
                    Vec2::ZERO
                } else {
                    rng.unit() * speed
                },
                horizon: fov_range / speed.max(0.05),
            };
            let mut bodies = vec![Body::default(); N];
            let mut pos = vec![Vec2::ZERO; N];
            for (b, q) in bodies.iter_mut().zip(&mut pos) {
                b.radius = if snap { 0.25 } else { rng.range(0.2, 0.6) };
                b.layer = 1 << (rng.bits() % 3);
                b.arrived = rng.chance(0.3);
                // Other fields sharing the arrival flag's word: set, so only its byte counts.
                b.blocked = rng.chance(0.5);
                b.final_leg = rng.chance(0.5);
                b.vel = match rng.bits() % 4 {
                    0 => Vec2::ZERO,
                    1 => me.v,
                    _ => rng.unit() * rng.range(0.0, 2.0),
                };
                let r = me.radius + b.radius;
                *q = match rng.bits() % 10 {
                    // Touching along an axis (exactly on the snapped grid or at the origin).
                    0 => me.pos + Vec2::new(r, 0.0),
                    1 => me.pos - Vec2::new(0.0, r),
                    // Overlapping.
                    2 => me.pos + rng.unit() * rng.range(0.0, r),
                    3 if rng.chance(0.1) => Vec2::new(f32::NAN, coord(&mut rng, 4.0)),
                    // On the close and the settle boundaries (exactly, at the origin).
                    4 => me.pos + Vec2::new(0.0, r + me.near),
                    5 => me.pos - Vec2::new(r + me.settle_gap, 0.0),
                    _ => me.pos + Vec2::new(coord(&mut rng, 5.0), coord(&mut rng, 5.0)),
                };
                // The cull reads positions from `pos`, never from the bodies.
                b.pos = Vec2::splat(1e6);
            }
            let n = 1 + case as usize % LANES;
            let owned: Vec<u32> = (0..n).map(|_| rng.bits() % N as u32).collect();
            // The candidates at the end of a page followed by an unmapped one: a read past the
            // slice faults.
            #[cfg(target_os = "linux")]
            let cand: &[u32] = guarded.tail(&owned);
            #[cfg(not(target_os = "linux"))]
            let cand: &[u32] = &owned;
            // SAFETY: AVX2 was detected; the indices are below N.
            let (keep, nearest) = unsafe { survivors_avx2(&me, &bodies, &pos, cand) };
            if avx512 {
                // SAFETY: AVX-512F and VL were detected; the indices are below N.
                let want = unsafe { survivors_avx512(&me, &bodies, &pos, cand) };
                assert_eq!(keep, want.0, "case {case}");
                assert_eq!(nearest.to_bits(), want.1.to_bits(), "case {case}");
            }
            assert_eq!(keep >> n, 0, "case {case}: bits past the candidates");
            let d2s = cand
                .iter()
                .map(|&j| (pos[j as usize] - me.pos).length_squared());
            let scalar_nearest = d2s.fold(f32::INFINITY, f32::min);
            assert_eq!(nearest.to_bits(), scalar_nearest.to_bits(), "case {case}");
            for (i, &j) in cand.iter().enumerate() {
                let (o, q) = (&bodies[j as usize], pos[j as usize]);
                let kept = keep >> i & 1 == 1;
                let way = rule(&me, o, q);
                assert!(
                    kept || way.drops(),
                    "case {case}: candidate {i} dropped, the rule keeps it ({way:?})"
                );
                seen_cases[way as usize] += 1;
                seen_cases[5] += q.is_nan() as usize;
                let (d, r) = ((q - me.pos).length(), me.radius + o.radius);
                seen_cases[6] += (d == r) as usize;
                seen_cases[7] += (d == r + me.near) as usize;
                seen_cases[8] += (d == r + me.settle_gap) as usize;
                extra += (kept && way.drops()) as usize;
            }
        }
        // Every way out of the rule was taken many times, NaN positions and contacts were seen.
        assert!(seen_cases.iter().all(|&c| c > 100), "{seen_cases:?}");
        // Only NaN-free superset surplus would show here; none is expected.
        println!("ways {seen_cases:?}, kept though the rule drops: {extra}");
    }
}
