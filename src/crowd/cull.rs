//! The steer's neighbour cull: of the candidates a query found, which can change the
//! decision. Most cannot: at walking densities an agent has about four candidates, and
//! fewer than one in ten is close enough to limit its walk or on a collision course inside
//! its horizon; the rest only lower the nearest distance. The AVX2 build (which AVX-512 CPUs
//! run too) tests eight candidates at once (each one's fields read from the cell-sorted
//! bodies as one vector, transposed into lanes) and hands on only the survivors, in order, to
//! the full per-neighbour rule.
//!
//! A candidate j of agent i (x = pⱼ − pᵢ, d = |x|, r = rᵢ + rⱼ) is dropped when one of the
//! rule's own early exits takes it, computed with the same f32 operations:
//! - i does not avoid j's layer, or d² > (look + rⱼ)²;
//! - and it neither may settle i (j arrived, d ≤ r + gap) nor counts as
//!   close (j moving, d < r + near), and either it is outside the field of view
//!   (d > r and both f·x and g·x < d cos θ) or, not touching (d ≥ r), the relative motion
//!   v = vᵢ − vⱼ does not bring it within r inside the horizon (x·v ≤ 0, |v|² < 10⁻¹²,
//!   no real root, or a first contact time beyond the horizon).
//!
//! NaN makes every comparison false, so such a candidate survives and the full rule decides.
//! The portable build keeps every
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
/// ignored; +∞ when none). `cand` holds 1 to [`LANES`] indices into `bodies`.
///
/// AVX2 only (it runs on AVX-512 CPUs too): each candidate's first 32 bytes (position,
/// velocity, radius, layer, the arrival flag's word: see [`Body`]) are read as one vector and
/// the eight rows transposed into one register per field; then the rule's tests run on the
/// lanes with the scalar f32 operations (no FMA), lane masks as vectors (all ones or all
/// zeros), turned into bits once by `_mm256_movemask_ps`. (Gathering the fields instead,
/// seven masked gathers per call, spent a sixth of the step waiting on them.)
///
/// # Safety
/// The CPU must support AVX2.
///
/// # Panics
/// If an index is out of range, or `cand` is empty.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn survivors_avx2(me: &Looker, bodies: &[Body], cand: &[u32]) -> (u32, f32) {
    use core::arch::x86_64::*;
    use core::mem::offset_of;

    const _: () = {
        assert!(offset_of!(Body, pos) == 0);
        assert!(offset_of!(Body, vel) == 8);
        assert!(offset_of!(Body, radius) == 16);
        assert!(offset_of!(Body, layer) == 20);
        assert!(offset_of!(Body, arrived) == 24);
        // No padding among the 32 bytes read (the last byte of the flags' word is a field).
        assert!(offset_of!(Body, recheck) == 27 && offset_of!(Body, priority) == 28);
        assert!(core::mem::align_of::<Body>() >= 32);
    };

    let n = cand.len().min(LANES);
    // Row i: candidate i's first eight f32 (absent candidates repeat the last; their lanes
    // are masked off below).
    let row = |i: usize| -> __m256 {
        let b = &bodies[cand[i.min(n - 1)] as usize];
        // SAFETY: a `Body` is `repr(C)`, 64-byte aligned, and longer than 32 bytes: the
        // aligned load reads its first eight 4-byte fields.
        unsafe { _mm256_load_ps((b as *const Body).cast()) }
    };
    let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
    let (r4, r5, r6, r7) = (row(4), row(5), row(6), row(7));
    // 8 × 8 transpose (fields 0..7 of rows 0..7 → one register per field); field 7 (the
    // priority) is not needed.
    let (t0, t1) = (_mm256_unpacklo_ps(r0, r1), _mm256_unpackhi_ps(r0, r1));
    let (t2, t3) = (_mm256_unpacklo_ps(r2, r3), _mm256_unpackhi_ps(r2, r3));
    let (t4, t5) = (_mm256_unpacklo_ps(r4, r5), _mm256_unpackhi_ps(r4, r5));
    let (t6, t7) = (_mm256_unpacklo_ps(r6, r7), _mm256_unpackhi_ps(r6, r7));
    let s0 = _mm256_shuffle_ps::<0x44>(t0, t2);
    let s1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
    let s2 = _mm256_shuffle_ps::<0x44>(t1, t3);
    let s3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
    let s4 = _mm256_shuffle_ps::<0x44>(t4, t6);
    let s5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
    let s6 = _mm256_shuffle_ps::<0x44>(t5, t7);
    let px = _mm256_permute2f128_ps::<0x20>(s0, s4);
    let pz = _mm256_permute2f128_ps::<0x20>(s1, s5);
    let ovx = _mm256_permute2f128_ps::<0x20>(s2, s6);
    let s7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
    let ovz = _mm256_permute2f128_ps::<0x20>(s3, s7);
    let o_radius = _mm256_permute2f128_ps::<0x31>(s0, s4);
    let layer = _mm256_castps_si256(_mm256_permute2f128_ps::<0x31>(s1, s5));
    let flags = _mm256_castps_si256(_mm256_permute2f128_ps::<0x31>(s2, s6));

    let iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    let live = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(n as i32), iota));
    let s = _mm256_set1_ps;
    let (add, sub, mul) = (_mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps);
    let (and, or, andnot) = (_mm256_and_ps, _mm256_or_ps, _mm256_andnot_ps);
    // Ordered compares: false where either side is NaN.
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

    let unseen = none(layer, _mm256_set1_epi32(me.mask as i32));
    let reach = add(s(me.look), o_radius);
    // Out of reach only where d² > reach² is definitely true (NaN keeps the lane).
    let out_of_reach = gt(d2, mul(reach, reach));
    let r = add(s(me.radius), o_radius);
    let dd = _mm256_sqrt_ps(d2);
    // The arrival flag is the first byte of its word (the others hold other flags).
    let moving = none(flags, _mm256_set1_epi32(0xff));
    let settle = andnot(moving, le(dd, add(r, s(me.settle_gap))));
    let close = and(moving, lt(dd, add(r, s(me.near))));
    let cos_dd = mul(dd, s(me.cos_half_fov));
    let f_x = add(mul(s(me.fwd.x), xx), mul(s(me.fwd.y), xz));
    let g_x = add(mul(s(me.g.x), xx), mul(s(me.g.y), xz));
    let out_of_view = and(and(gt(dd, r), lt(f_x, cos_dd)), lt(g_x, cos_dd));
    let vx = sub(s(me.v.x), ovx);
    let vz = sub(s(me.v.y), ovz);
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
        let settles = o.arrived && d <= r + me.settle_gap;
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
    /// candidates): the AVX2 build gives the scalar nearest d² and drops nothing the module
    /// doc's rule keeps.
    #[test]
    fn the_cull_drops_only_what_the_rule_drops() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
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
                // The cull reads each candidate's position from its body.
                b.pos = *q;
            }
            let n = 1 + case as usize % LANES;
            let owned: Vec<u32> = (0..n).map(|_| rng.bits() % N as u32).collect();
            // The candidates at the end of a page followed by an unmapped one: a read past the
            // slice faults.
            #[cfg(target_os = "linux")]
            let cand: &[u32] = guarded.tail(&owned);
            #[cfg(not(target_os = "linux"))]
            let cand: &[u32] = &owned;
            // SAFETY: AVX2 was detected.
            let (keep, nearest) = unsafe { survivors_avx2(&me, &bodies, cand) };
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
