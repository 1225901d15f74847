//! Regression tests for the defects found by the fuzz targets (`fuzz/`) and by probing what
//! they exercise, each replaying the failing call through the C ABI. The last fuzz findings'
//! inputs are also in the seed corpora (`fuzz/corpus/<target>/regression-*`), so the bounded
//! fuzz run replays them too.

use wayfarer::ffi::boundary::MAX_MAGNITUDE;
use wayfarer::ffi::curve::*;
use wayfarer::ffi::WfStatus;

/// The f32 bit pattern every output buffer starts with (see `fuzz/src/lib.rs`).
const SENTINEL: f32 = -7.25e-3;

/// A throw: start, velocity, gravity, ground height, restitution, bounces.
type Throw = ([f32; 3], [f32; 3], f32, f32, f32, u32);

fn untouched(v: &[f32]) -> bool {
    v.iter().all(|x| x.to_bits() == SENTINEL.to_bits())
}

/// `fuzz/curve_ffi`: a finite but huge velocity threw the projectile past the float range and
/// `wf_ballistic_bezier` returned OK with ±Inf control points. Now such a trajectory is
/// `WF_STATUS_INVALID_ARGUMENT` (or `NON_FINITE` for inputs beyond ±1e15) and nothing is
/// written.
#[test]
fn ballistic_trajectory_beyond_the_float_range_is_rejected_untouched() {
    let cases: [Throw; 3] = [
        // Found by the fuzzer: velocity.z = −f32::MAX.
        (
            [-930.0, -931.6875, -931.6875],
            [0.375, 10.5, -3.402_823_5e38],
            25.125,
            -931.6875,
            0.772_549,
            5,
        ),
        // Inputs inside ±1e15 whose trajectory still leaves the float range: a tiny gravity.
        ([0.0; 3], [1.0e15, 1.0e15, 0.0], 1.0e-30, 0.0, 1.0, 3),
        ([0.0; 3], [0.0, 1.0e15, 0.0], 1.0e-20, 0.0, 0.5, 0),
    ];
    for (start, velocity, gravity, ground, restitution, bounces) in cases {
        let n = 1 + 2 * (bounces as usize + 1);
        let mut out = vec![SENTINEL; 3 * n];
        let mut count = usize::MAX;
        // SAFETY: start/velocity hold 3 floats, out n points, count one usize.
        let s = unsafe {
            wf_ballistic_bezier(
                start.as_ptr(),
                velocity.as_ptr(),
                gravity,
                ground,
                restitution,
                bounces,
                out.as_mut_ptr(),
                n,
                &mut count,
            )
        };
        assert!(
            s == WfStatus::InvalidArgument || s == WfStatus::NonFinite,
            "{velocity:?} g={gravity}: {s:?}"
        );
        assert!(untouched(&out), "output written on failure");
        assert_eq!(count, usize::MAX, "out_count written on failure");
    }
    // A legal throw still works and stays finite.
    let mut out = vec![SENTINEL; 3 * 5];
    let mut count = 0usize;
    // SAFETY: as above.
    let s = unsafe {
        wf_ballistic_bezier(
            [0.0, 1.0, 0.0].as_ptr(),
            [3.0, 4.0, 0.0].as_ptr(),
            9.81,
            0.0,
            0.5,
            1,
            out.as_mut_ptr(),
            5,
            &mut count,
        )
    };
    assert_eq!(s, WfStatus::Ok);
    assert_eq!(count, 5);
    assert!(out.iter().all(|x| x.is_finite()));
}

/// `fuzz/curve_ffi`: a polyline with a coordinate at f32::MAX overflowed while being turned
/// into cubic segments and `wf_polyline_sample` returned OK with NaN positions. Float inputs
/// beyond ±`MAX_MAGNITUDE` (1e15) are now `WF_STATUS_NON_FINITE`, for every export.
#[test]
fn coordinates_beyond_the_magnitude_limit_are_non_finite_untouched() {
    let found = [
        7.6375e31f32,
        -9.28e32,
        3.402_823_5e38,
        0.0,
        -9.15625e32,
        -9.151_250_5e32,
    ];
    let mut out = vec![SENTINEL; 3 * 4];
    // SAFETY: found holds 2 points, out 4.
    let s = unsafe { wf_polyline_sample(found.as_ptr(), 2, 4, 0, out.as_mut_ptr(), 4) };
    assert_eq!(s, WfStatus::NonFinite);
    assert!(untouched(&out));

    // The limit itself is accepted, the next float above it is not.
    let edge = [
        MAX_MAGNITUDE,
        -MAX_MAGNITUDE,
        0.0,
        -MAX_MAGNITUDE,
        MAX_MAGNITUDE,
        1.0,
    ];
    // SAFETY: as above.
    let s = unsafe { wf_polyline_sample(edge.as_ptr(), 2, 4, 1, out.as_mut_ptr(), 4) };
    assert_eq!(s, WfStatus::Ok);
    assert!(out.iter().all(|x| x.is_finite()));
    let above = f32::from_bits(MAX_MAGNITUDE.to_bits() + 1);
    let mut out = vec![SENTINEL; 3 * 4];
    for k in 0..6 {
        let mut pts = edge;
        pts[k] = if k % 2 == 0 { above } else { -above };
        // SAFETY: as above.
        let s = unsafe { wf_polyline_sample(pts.as_ptr(), 2, 4, 1, out.as_mut_ptr(), 4) };
        assert_eq!(s, WfStatus::NonFinite, "coordinate {k} = {}", pts[k]);
        assert!(untouched(&out));
    }

    // The same limit for scalar parameters (Hermite parameters, lengths' outputs untouched).
    let p = [0.0f32, 0.0, 0.0];
    let ts = [0.5f32, 2.0e15];
    let mut pos = vec![SENTINEL; 3 * 2];
    // SAFETY: p holds 3 floats, ts 2, pos 2 points.
    let s = unsafe {
        wf_hermite_segment_eval(
            p.as_ptr(),
            p.as_ptr(),
            p.as_ptr(),
            p.as_ptr(),
            ts.as_ptr(),
            2,
            pos.as_mut_ptr(),
            2,
            core::ptr::null_mut(),
            0,
        )
    };
    assert_eq!(s, WfStatus::NonFinite);
    assert!(untouched(&pos));

    // Inside the limit, the extreme Hermite segment evaluates without overflow.
    let (p0, p1) = ([MAX_MAGNITUDE; 3], [-MAX_MAGNITUDE; 3]);
    let (m0, m1) = ([-MAX_MAGNITUDE; 3], [MAX_MAGNITUDE; 3]);
    let ts: Vec<f32> = (0..=16).map(|i| i as f32 / 16.0).collect();
    let mut pos = vec![SENTINEL; 3 * 17];
    let mut der = vec![SENTINEL; 3 * 17];
    // SAFETY: the points hold 3 floats, ts 17, pos and der 17 points.
    let s = unsafe {
        wf_hermite_segment_eval(
            p0.as_ptr(),
            p1.as_ptr(),
            m0.as_ptr(),
            m1.as_ptr(),
            ts.as_ptr(),
            17,
            pos.as_mut_ptr(),
            17,
            der.as_mut_ptr(),
            17,
        )
    };
    assert_eq!(s, WfStatus::Ok);
    assert!(pos.iter().chain(&der).all(|x| x.is_finite()));
}

mod timeline {
    use super::*;
    use wayfarer::ffi::timeline::*;

    fn set_with_path() -> (*mut WfScheduleSet, *mut WfPath) {
        let pts = [0.0f32, 0.0, 0.0, 100.0, 0.0, 0.0];
        let (mut path, mut set) = (core::ptr::null_mut(), core::ptr::null_mut());
        // SAFETY: pts holds 2 points; the out-pointers are valid.
        unsafe {
            assert_eq!(
                wf_path_new_polyline(pts.as_ptr(), 2, &mut path),
                WfStatus::Ok
            );
            assert_eq!(wf_schedule_set_new(&mut set), WfStatus::Ok);
            let mut index = u32::MAX;
            let s = wf_schedule_set_add_path(set, path, &mut index);
            assert_eq!(s, WfStatus::Ok);
            assert_eq!(index, 0);
        }
        (set, path)
    }

    fn evaluate_all(set: *const WfScheduleSet, t: f64) -> Vec<f32> {
        let mut n = 0usize;
        // SAFETY: a live set; n is one usize.
        assert_eq!(
            unsafe { wf_schedule_set_npc_count(set, &mut n) },
            WfStatus::Ok
        );
        let (mut pos, mut fwd, mut vel) = (
            vec![0.0f32; 3 * n],
            vec![0.0f32; 3 * n],
            vec![0.0f32; 3 * n],
        );
        // SAFETY: every output holds n points.
        let s = unsafe {
            wf_schedule_set_evaluate(
                set,
                t,
                pos.as_mut_ptr(),
                n,
                fwd.as_mut_ptr(),
                n,
                vel.as_mut_ptr(),
                n,
                core::ptr::null_mut(),
                0,
            )
        };
        assert_eq!(s, WfStatus::Ok);
        pos.extend(fwd);
        pos.extend(vel);
        pos
    }

    /// Keys a subnormal time apart (0 and 5e-324 s) made a leg of infinite speed: every
    /// evaluation returned OK with Inf/NaN velocities. Legs shorter than 1e-9 s are now refused
    /// (`WF_STATUS_INVALID_KEY_TIME`), as are legs faster than 1e15/s.
    #[test]
    fn legs_shorter_than_the_limit_are_refused() {
        let (set, path) = set_with_path();
        for gap in [5.0e-324f64, 1.0e-300, 1.0e-14] {
            let times = [0.0f64, gap];
            let distances = [0.0f32, 100.0];
            let mut npc = u32::MAX;
            // SAFETY: times/distances hold 2 keys; npc is one u32.
            let s = unsafe {
                wf_schedule_set_add_npc(
                    set,
                    0,
                    times.as_ptr(),
                    distances.as_ptr(),
                    2,
                    core::ptr::null(),
                    0,
                    1,
                    &mut npc,
                )
            };
            assert_eq!(s, WfStatus::InvalidKeyTime, "gap {gap:e}");
            assert_eq!(npc, u32::MAX, "out_npc written on failure");
            // SAFETY: a live set.
            let s = unsafe { wf_schedule_set_add_npc_simple(set, 0, 0.0, gap, 0, &mut npc) };
            assert_eq!(s, WfStatus::InvalidKeyTime, "simple, gap {gap:e}");
        }
        // 100 m in 1e-9 s is 1e11 m/s: allowed, and finite everywhere.
        let mut npc = u32::MAX;
        // SAFETY: a live set.
        let s = unsafe { wf_schedule_set_add_npc_simple(set, 0, 0.0, 1.0e-9, 2, &mut npc) };
        assert_eq!(s, WfStatus::Ok);
        assert_eq!(npc, 0);
        for t in [0.0, 2.5e-10, 1.0, -7.5, 1.0e300] {
            assert!(
                evaluate_all(set, t).iter().all(|x| x.is_finite()),
                "t = {t:e}"
            );
        }
        // SAFETY: both live, freed once.
        unsafe {
            wf_schedule_set_free(set);
            wf_path_free(path);
        }
    }

    /// Keys spanning ±1.7e308 s overflowed `t_N − t_0` to Inf and looping / ping-pong NPCs
    /// evaluated to NaN velocities at large world times; now such spans are refused, and world
    /// times whose distance to `t_0` overflows still wrap to finite outputs.
    #[test]
    fn huge_time_spans_are_refused_and_huge_world_times_wrap_finitely() {
        let (set, path) = set_with_path();
        let times = [-1.7e308f64, 0.0, 1.7e308];
        let distances = [0.0f32, 50.0, 100.0];
        let mut npc = u32::MAX;
        for wrap in 0..3 {
            // SAFETY: 3 keys, 2 ease flags.
            let s = unsafe {
                wf_schedule_set_add_npc(
                    set,
                    0,
                    times.as_ptr(),
                    distances.as_ptr(),
                    3,
                    [3u32, 1].as_ptr(),
                    2,
                    wrap,
                    &mut npc,
                )
            };
            assert_eq!(s, WfStatus::InvalidKeyTime, "wrap {wrap}");
            // SAFETY: a live set.
            let s = unsafe {
                wf_schedule_set_add_npc_simple(set, 0, -f64::MAX, f64::MAX, wrap, &mut npc)
            };
            assert_eq!(s, WfStatus::InvalidKeyTime, "simple, wrap {wrap}");
            // A schedule far in the past: (t − t0) overflows for t near +f64::MAX.
            let far = [-1.5e308f64, -1.5e308 + 4.0e292, -1.5e308 + 1.0e293];
            // SAFETY: 3 keys, 2 ease flags.
            let s = unsafe {
                wf_schedule_set_add_npc(
                    set,
                    0,
                    far.as_ptr(),
                    distances.as_ptr(),
                    3,
                    [3u32, 2].as_ptr(),
                    2,
                    wrap,
                    &mut npc,
                )
            };
            assert_eq!(s, WfStatus::Ok, "wrap {wrap}");
        }
        for t in [f64::MAX, 1.7e308, -f64::MAX, 0.0, 1.0e300, -1.5e308] {
            assert!(
                evaluate_all(set, t).iter().all(|x| x.is_finite()),
                "t = {t:e}"
            );
        }
        // SAFETY: both live, freed once.
        unsafe {
            wf_schedule_set_free(set);
            wf_path_free(path);
        }
    }
}

/// `fuzz/path_ffi` (a timeout): on a path 1.3e-35 long queried from ~1e3 away the nearest
/// point search could prune nothing (f64 cannot tell squared distances that close apart) and
/// split 2^44 intervals: `wf_path_nearest` never returned. The pruning tolerance now has a
/// floor of 1e-9 × the distance.
#[test]
fn nearest_on_a_microscopic_path_returns() {
    use wayfarer::ffi::timeline::*;
    let start = std::time::Instant::now();
    let pts = [0.0f32, 0.0, 0.0, 0.0, -9.496_25e-36, -9.477_499e-36];
    let mut path = core::ptr::null_mut();
    // SAFETY: pts holds 2 points, degrees 1 piece; path is one out-pointer.
    let s = unsafe { wf_path_new_bezier_chain(pts.as_ptr(), 2, [1u32].as_ptr(), 1, &mut path) };
    assert_eq!(s, WfStatus::Ok);
    let q = [9.4375f32, 0.0, -1907.75, 18.4375, 63.9375, -960.0];
    let (mut d, mut p) = ([SENTINEL; 2], [SENTINEL; 6]);
    // SAFETY: q holds 2 points, d 2 floats, p 2 points.
    let s = unsafe { wf_path_nearest(path, q.as_ptr(), 2, d.as_mut_ptr(), 2, p.as_mut_ptr(), 2) };
    assert_eq!(s, WfStatus::Ok);
    assert!(d.iter().chain(&p).all(|x| x.is_finite()));
    assert!(d.iter().all(|&x| (0.0..=1.4e-35).contains(&x)), "{d:?}");
    // The same from a point-sized path far away from the origin.
    let far = [1.0e15f32, 1.0e15, -1.0e15, 1.0e15, 1.0e15, -1.0e15];
    let mut path2 = core::ptr::null_mut();
    // SAFETY: far holds 2 points; path2 is one out-pointer.
    let s = unsafe { wf_path_new_polyline(far.as_ptr(), 2, &mut path2) };
    assert_eq!(s, WfStatus::Ok);
    // SAFETY: as above.
    let s = unsafe { wf_path_nearest(path2, q.as_ptr(), 2, d.as_mut_ptr(), 2, p.as_mut_ptr(), 2) };
    assert_eq!(s, WfStatus::Ok);
    assert_eq!(&p[..3], &far[..3]);
    // Minutes before the fix; microseconds after (a generous bound for a loaded machine).
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
    // SAFETY: both live, freed once.
    unsafe {
        wf_path_free(path);
        wf_path_free(path2);
    }
}

/// `fuzz/path_ffi`: a degree-5 Bézier whose first five control points coincide has a speed
/// growing like t⁴ from its start; there the derivative is ~1e-20 long, its squared length
/// subnormal, and `wf_path_at_distances` returned a "unit" forward of length 0.995. Tiny tangents are
/// now normalised in f64.
#[test]
fn forwards_stay_unit_where_the_speed_is_tiny() {
    use wayfarer::ffi::timeline::*;
    let (a, b) = (1108.3125f32, [868.3125f32, -0.0625, -0.0625]);
    let mut pts = vec![a; 15];
    pts.extend(b);
    let mut path = core::ptr::null_mut();
    // SAFETY: pts holds 6 points, degrees 1 piece; path is one out-pointer.
    let s = unsafe { wf_path_new_bezier_chain(pts.as_ptr(), 6, [5u32].as_ptr(), 1, &mut path) };
    assert_eq!(s, WfStatus::Ok);
    let mut len = 0.0f32;
    // SAFETY: a live path; len is one float.
    assert_eq!(unsafe { wf_path_length(path, &mut len) }, WfStatus::Ok);
    let mut ds: Vec<f32> = vec![263.105_83, 1585.746, -1172.625, 1066.6453, 0.0];
    ds.extend((0..200).map(|i| len * (i as f32 / 200.0).powi(6)));
    let n = ds.len();
    let (mut pos, mut fwd) = (vec![0.0f32; 3 * n], vec![0.0f32; 3 * n]);
    // SAFETY: ds holds n floats, pos and fwd n points.
    let s = unsafe {
        wf_path_at_distances(
            path,
            ds.as_ptr(),
            n,
            pos.as_mut_ptr(),
            n,
            fwd.as_mut_ptr(),
            n,
        )
    };
    assert_eq!(s, WfStatus::Ok);
    for (i, f) in fwd.chunks(3).enumerate() {
        let l = (f[0] as f64).hypot(f[1] as f64).hypot(f[2] as f64);
        assert!(
            (l - 1.0).abs() < 1e-6,
            "distance {}: forward {f:?} has length {l}",
            ds[i]
        );
    }
    // SAFETY: live, freed once.
    unsafe { wf_path_free(path) };
}

mod crowd {
    use super::*;
    use wayfarer::ffi::crowd::*;

    /// `wf_crowd_set_speed` / `set_steering` / `set_positions` passed floats straight to the
    /// simulator, bypassing the boundary's ±1e15 domain: a body radius of 3e38 pushed agents to
    /// ±2e38, one step from overflow. They now refuse such values like every other export
    /// (`set_positions` flags the agent `WF_AGENT_INVALID` and keeps its last position).
    #[test]
    fn crowd_setters_apply_the_float_domain() {
        let mut c = core::ptr::null_mut();
        // SAFETY: c is one out-pointer.
        assert_eq!(unsafe { wf_crowd_new(4, &mut c) }, WfStatus::Ok);
        let mut ids = [0u32; 2];
        for (i, id) in ids.iter_mut().enumerate() {
            // SAFETY: a live crowd; the point holds 3 floats.
            let s =
                unsafe { wf_crowd_add_agent(c, [i as f32, 0.0, 0.0].as_ptr(), 0.0, 1.0, 0.3, id) };
            assert_eq!(s, WfStatus::Ok);
        }
        let huge = 3.0e38f32;
        // SAFETY: a live crowd and live ids; the arrays hold what their counts say.
        unsafe {
            assert_eq!(
                wf_crowd_set_speed(c, ids[0], 1.0, huge),
                WfStatus::NonFinite
            );
            assert_eq!(
                wf_crowd_set_speed(c, ids[0], huge, 0.3),
                WfStatus::NonFinite
            );
            assert_eq!(
                wf_crowd_set_speed(c, ids[0], 1.0, 2.0e15),
                WfStatus::NonFinite
            );
            assert_eq!(
                wf_crowd_set_steering(c, ids[0], huge, 4.0, 1.0, 1.5),
                WfStatus::NonFinite
            );
            assert_eq!(
                wf_crowd_set_steering(c, ids[0], 6.0, huge, 1.0, 1.5),
                WfStatus::NonFinite
            );
            assert_eq!(
                wf_crowd_set_steering(c, ids[0], 6.0, 4.0, 1.0, huge),
                WfStatus::NonFinite
            );
            let pos = [huge, 0.0, -huge, 5.0, 0.0, 5.0];
            let s =
                wf_crowd_set_positions(c, ids.as_ptr(), 2, pos.as_ptr(), 2, core::ptr::null(), 0);
            assert_eq!(s, WfStatus::NonFinite);
            let (mut p, mut st) = ([0.0f32; 6], [0u32; 2]);
            let s = wf_crowd_read_agents(
                c,
                ids.as_ptr(),
                2,
                p.as_mut_ptr(),
                2,
                core::ptr::null_mut(),
                0,
                st.as_mut_ptr(),
                2,
            );
            assert_eq!(s, WfStatus::Ok);
            assert_eq!(st[0], 3, "the out-of-domain agent is flagged invalid");
            assert_eq!(&p[..3], &[0.0, 0.0, 0.0], "and keeps its last position");
            assert_eq!(&p[3..], &[5.0, 0.0, 5.0], "the other one moved");
            // Stepping skips the flagged agent and keeps everything finite.
            for _ in 0..20 {
                assert_eq!(wf_crowd_step(c, 0.1, 1), WfStatus::Ok);
            }
            let s = wf_crowd_read_agents(
                c,
                ids.as_ptr(),
                2,
                p.as_mut_ptr(),
                2,
                core::ptr::null_mut(),
                0,
                st.as_mut_ptr(),
                2,
            );
            assert_eq!(s, WfStatus::Ok);
            assert_eq!(st[0], 3);
            assert!(p.iter().all(|x| x.is_finite() && x.abs() < 10.0), "{p:?}");
            // Values inside the domain are still accepted.
            assert_eq!(wf_crowd_set_speed(c, ids[1], 2.0, 0.5), WfStatus::Ok);
            assert_eq!(
                wf_crowd_set_steering(c, ids[1], 6.0, 4.0, 1.0, 1.5),
                WfStatus::Ok
            );
            wf_crowd_free(c);
        }
    }

    /// `fuzz/crowd_ffi`: an agent more than 2^31 grid cells from the origin (x = −3e9 m with
    /// 1 m cells, inside the ±1e15 domain) overflowed the grid's `floor` to i32: a panic in
    /// checked builds (`WF_STATUS_PANIC`), a wrapped cell index otherwise.
    #[test]
    fn agents_far_from_the_origin_step_without_overflow() {
        let mut c = core::ptr::null_mut();
        // SAFETY: c is one out-pointer.
        assert_eq!(unsafe { wf_crowd_new(8, &mut c) }, WfStatus::Ok);
        let spots = [
            [-3.0e9f32, 0.0, 0.0],
            [-1.0e15, 0.0, -1.0e15],
            [1.0e15, 0.0, 1.0e15],
        ];
        let mut ids = Vec::new();
        for p in spots {
            let mut id = 0u32;
            // SAFETY: a live crowd; p holds 3 floats.
            unsafe {
                assert_eq!(
                    wf_crowd_add_agent(c, p.as_ptr(), 0.0, 1.0, 0.3, &mut id),
                    WfStatus::Ok
                );
                let t = [p[0] + 10.0, 0.0, p[2]];
                assert_eq!(wf_crowd_set_target(c, id, t.as_ptr(), 0.1), WfStatus::Ok);
            }
            ids.push(id);
        }
        let mut pos = [0.0f32; 9];
        // SAFETY: a live crowd; ids 3 u32, pos 3 points.
        unsafe {
            for threads in [1, 4] {
                assert_eq!(wf_crowd_step(c, 0.1, threads), WfStatus::Ok);
            }
            let s = wf_crowd_read_agents(
                c,
                ids.as_ptr(),
                3,
                pos.as_mut_ptr(),
                3,
                core::ptr::null_mut(),
                0,
                core::ptr::null_mut(),
                0,
            );
            assert_eq!(s, WfStatus::Ok);
            wf_crowd_free(c);
        }
        assert!(pos.iter().all(|x| x.is_finite()), "{pos:?}");
    }

    /// Obstacles 2e15 apart (or one wall / box 2e15 long) overflowed the obstacle grid's cell
    /// count to i32 (a panic) or sized it by area alone: a thin box got 1.25e8 cells and a step
    /// took minutes. The grids now bound the cell count per axis too.
    #[test]
    fn far_apart_and_huge_obstacles_step_quickly() {
        let start = std::time::Instant::now();
        for case in 0..4 {
            let mut c = core::ptr::null_mut();
            // SAFETY: c is one out-pointer.
            assert_eq!(unsafe { wf_crowd_new(8, &mut c) }, WfStatus::Ok);
            let (mut id, mut oid) = (0u32, 0u32);
            // SAFETY: a live crowd; every point holds 3 floats.
            unsafe {
                let s = wf_crowd_add_agent(c, [0.0f32, 0.0, 0.0].as_ptr(), 0.0, 1.0, 0.3, &mut id);
                assert_eq!(s, WfStatus::Ok);
                assert_eq!(
                    wf_crowd_set_target(c, id, [10.0f32, 0.0, 10.0].as_ptr(), 0.1),
                    WfStatus::Ok
                );
                assert_eq!(wf_crowd_set_route_mode(c, id, 2), WfStatus::Ok);
                let (a, b) = ([-1.0e15f32, 0.0, 0.0], [1.0e15f32, 0.0, 0.0]);
                let s = match case {
                    0 => wf_crowd_add_wall(c, a.as_ptr(), b.as_ptr(), &mut oid),
                    1 => {
                        wf_crowd_add_circle(c, [-1.0e15f32, 0.0, 3.0].as_ptr(), 1.0, &mut oid);
                        wf_crowd_add_circle(c, [1.0e15f32, 0.0, 3.0].as_ptr(), 1.0, &mut oid)
                    }
                    2 => {
                        wf_crowd_add_circle(c, [-1.0e15f32, 0.0, -1.0e15].as_ptr(), 1.0, &mut oid);
                        wf_crowd_add_circle(c, [1.0e15f32, 0.0, 1.0e15].as_ptr(), 1.0, &mut oid)
                    }
                    _ => wf_crowd_add_box(
                        c,
                        [-1.0e15f32, 0.0, 5.0].as_ptr(),
                        [1.0e15f32, 1.0, 5.5].as_ptr(),
                        &mut oid,
                    ),
                };
                assert_eq!(s, WfStatus::Ok, "case {case}");
                for _ in 0..3 {
                    assert_eq!(wf_crowd_step(c, 0.1, 2), WfStatus::Ok, "case {case}");
                }
                wf_crowd_free(c);
            }
        }
        // Minutes before the fix, milliseconds after (generous for a loaded machine).
        assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
    }

    /// `fuzz/crowd_threads` (a timeout): a planned route checked the straight line from an
    /// agent to a target 2e15 m away every half cell (1e16 samples): the step never returned.
    /// Only the part of the line over the planner's grid is sampled now.
    #[test]
    fn a_planned_route_to_a_far_target_steps_quickly() {
        let start = std::time::Instant::now();
        let mut c = core::ptr::null_mut();
        // SAFETY: c is one out-pointer.
        assert_eq!(unsafe { wf_crowd_new(4, &mut c) }, WfStatus::Ok);
        let (mut id, mut oid) = (0u32, 0u32);
        // SAFETY: a live crowd; every point holds 3 floats.
        unsafe {
            let s = wf_crowd_add_agent(c, [0.0f32, 0.0, 0.0].as_ptr(), 0.0, 1.5, 0.3, &mut id);
            assert_eq!(s, WfStatus::Ok);
            let s = wf_crowd_add_circle(c, [3.0f32, 0.0, 0.0].as_ptr(), 1.0, &mut oid);
            assert_eq!(s, WfStatus::Ok);
            let far = [1.0e15f32, 0.0, -1.0e15];
            assert_eq!(wf_crowd_set_target(c, id, far.as_ptr(), 0.5), WfStatus::Ok);
            assert_eq!(wf_crowd_set_route_mode(c, id, 2), WfStatus::Ok);
            for _ in 0..5 {
                assert_eq!(wf_crowd_step(c, 0.1, 1), WfStatus::Ok);
            }
            let mut p = [0.0f32; 3];
            let s = wf_crowd_read_agents(
                c,
                &id,
                1,
                p.as_mut_ptr(),
                1,
                core::ptr::null_mut(),
                0,
                core::ptr::null_mut(),
                0,
            );
            assert_eq!(s, WfStatus::Ok);
            assert!(p.iter().all(|x| x.is_finite()) && p[0] > 0.0, "{p:?}");
            wf_crowd_free(c);
        }
        assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
    }

    /// Reads one agent's position.
    ///
    /// # Safety
    /// `c` must be a live crowd.
    unsafe fn position_of(c: *mut WfCrowd, id: u32) -> [f32; 3] {
        let mut p = [0.0f32; 3];
        let (yaws, states) = (core::ptr::null_mut(), core::ptr::null_mut());
        // SAFETY: forwarded contract; p holds one point.
        let s = unsafe { wf_crowd_read_agents(c, &id, 1, p.as_mut_ptr(), 1, yaws, 0, states, 0) };
        assert_eq!(s, WfStatus::Ok);
        p
    }

    /// `fuzz/crowd_ffi` and `crowd_threads` (a panic): the only obstacle, a
    /// point-sized oriented box at (1e15, 1e15), where an f32's spacing is 1.3e8 m. The
    /// planner's 4 m margin rounded away, its grid spanned 0 m, had 0 cells, and listing the
    /// obstacles per cell divided by zero. Such a planner now has no grid (agents walk
    /// straight, as with no obstacles).
    #[test]
    fn an_obstacle_where_the_planner_margin_rounds_away_steps() {
        let mut c = core::ptr::null_mut();
        // SAFETY: c is one out-pointer.
        assert_eq!(unsafe { wf_crowd_new(4, &mut c) }, WfStatus::Ok);
        let (mut id, mut oid) = (0u32, 0u32);
        // SAFETY: a live crowd; every point holds 3 floats.
        unsafe {
            let far = [1.0e15f32, 0.0, 1.0e15];
            let s = wf_crowd_add_oriented_box(c, far.as_ptr(), 0.0, 0.0, 2.04, &mut oid);
            assert_eq!(s, WfStatus::Ok);
            let s = wf_crowd_add_agent(c, [0.0f32, 0.0, 0.0].as_ptr(), 0.0, 1.0, 0.3, &mut id);
            assert_eq!(s, WfStatus::Ok);
            assert_eq!(wf_crowd_set_route_mode(c, id, 2), WfStatus::Ok);
            let to = [5.0f32, 0.0, 0.0];
            assert_eq!(wf_crowd_set_target(c, id, to.as_ptr(), 0.3), WfStatus::Ok);
            for _ in 0..3 {
                assert_eq!(wf_crowd_step(c, 0.1, 2), WfStatus::Ok);
            }
            let p = position_of(c, id);
            assert!(p.iter().all(|x| x.is_finite()) && p[0] > 0.0, "{p:?}");
            wf_crowd_free(c);
        }
    }

    /// `fuzz/crowd_ffi` and `crowd_threads` (timeouts): a planned agent 1e15 m
    /// off the planner's grid. Its first hop tested the straight slide to a border cell every
    /// quarter radius of the whole way (4e16 samples): the step never returned. Only the part
    /// of the line over the grid is sampled now, at most 12 cells of it.
    #[test]
    fn a_planned_agent_far_off_the_grid_steps_quickly() {
        let start = std::time::Instant::now();
        let mut c = core::ptr::null_mut();
        // SAFETY: c is one out-pointer.
        assert_eq!(unsafe { wf_crowd_new(4, &mut c) }, WfStatus::Ok);
        let (mut id, mut oid) = (0u32, 0u32);
        // SAFETY: a live crowd; every point holds 3 floats.
        unsafe {
            let (lo, hi) = ([-1.0f32, 0.0, -1.0], [1.0f32, 0.0, 1.0]);
            assert_eq!(
                wf_crowd_add_box(c, lo.as_ptr(), hi.as_ptr(), &mut oid),
                WfStatus::Ok
            );
            let far = [1.0e15f32, 0.0, 3.0e14];
            let s = wf_crowd_add_agent(c, far.as_ptr(), 0.0, 1.0, 0.3, &mut id);
            assert_eq!(s, WfStatus::Ok);
            assert_eq!(wf_crowd_set_route_mode(c, id, 2), WfStatus::Ok);
            let to = [-5.0f32, 0.0, 0.0];
            assert_eq!(wf_crowd_set_target(c, id, to.as_ptr(), 0.3), WfStatus::Ok);
            for _ in 0..3 {
                assert_eq!(wf_crowd_step(c, 0.1, 1), WfStatus::Ok);
            }
            assert!(position_of(c, id).iter().all(|x| x.is_finite()));
            wf_crowd_free(c);
        }
        assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
    }
}

#[test]
fn a_subnormal_agent_at_a_box_corner_reports_finite_hits() {
    use wayfarer::ffi::crowd::*;
    // fuzz/crowd_ffi: an agent of radius 1e-45 walking at a box corner hit the corner disc of
    // that radius; its normal was divided by the radius, and wf_crowd_read_hits returned NaN
    // hit points and normals for a live, moving agent.
    let mut c = core::ptr::null_mut();
    // SAFETY: one out-pointer.
    assert_eq!(unsafe { wf_crowd_new(8, &mut c) }, WfStatus::Ok);
    let mut ids = Vec::new();
    // SAFETY: c is live; every pointer below points at 3 floats or one u32.
    unsafe {
        let mut ob = 0u32;
        let (lo, hi) = ([0.0f32, 0.0, 0.0], [10.0f32, 0.0, 10.0]);
        assert_eq!(
            wf_crowd_add_box(c, lo.as_ptr(), hi.as_ptr(), &mut ob),
            WfStatus::Ok
        );
        for k in 0..8 {
            let off = k as f32 * 1e-6;
            let p = [13.0 + off, 0.25, 13.0 - off];
            let mut id = 0u32;
            assert_eq!(
                wf_crowd_add_agent(c, p.as_ptr(), -2.356, 12.75, 1e-45, &mut id),
                WfStatus::Ok
            );
            let t = [-5.0f32 + off, 0.25, -5.0];
            assert_eq!(wf_crowd_set_target(c, id, t.as_ptr(), 0.3), WfStatus::Ok);
            ids.push(id);
        }
    }
    let n = ids.len();
    for _ in 0..10 {
        // SAFETY: c is live.
        assert_eq!(unsafe { wf_crowd_step(c, 0.06875, 1) }, WfStatus::Ok);
        let (mut kinds, mut hit_ids) = (vec![9u32; n], vec![0u32; n]);
        let (mut pts, mut nrm) = (vec![0.0f32; 3 * n], vec![0.0f32; 3 * n]);
        // SAFETY: every buffer holds its stated capacity.
        let s = unsafe {
            wf_crowd_read_hits(
                c,
                ids.as_ptr(),
                n,
                kinds.as_mut_ptr(),
                n,
                hit_ids.as_mut_ptr(),
                n,
                pts.as_mut_ptr(),
                3 * n,
                nrm.as_mut_ptr(),
                3 * n,
            )
        };
        assert_eq!(s, WfStatus::Ok);
        assert!(
            pts.iter().chain(&nrm).all(|x| x.is_finite()),
            "{kinds:?} {pts:?} {nrm:?}"
        );
    }
    // SAFETY: c is live and freed once.
    unsafe { wf_crowd_free(c) };
}
