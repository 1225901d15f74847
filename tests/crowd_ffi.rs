//! The crowd C ABI called from Rust: every export, its good path and its refusals (status and
//! untouched outputs). The C harness (`tests/c/crowd.c`) covers the same from C.

use core::ptr::{null, null_mut};
use wayfarer::ffi::boundary::WfStatus;
use wayfarer::ffi::crowd::*;
use wayfarer::ffi::goals::*;

struct Crowd(*mut WfCrowd);

impl Drop for Crowd {
    fn drop(&mut self) {
        // SAFETY: made by wf_crowd_new, freed once.
        unsafe { wf_crowd_free(self.0) };
    }
}

fn new(capacity: usize) -> Crowd {
    let mut c = null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { wf_crowd_new(capacity, &mut c) }, WfStatus::Ok);
    Crowd(c)
}

#[test]
fn every_export_round_trips_and_refuses_bad_input() {
    let c = new(2);
    let (p0, p1, target) = ([0.0f32, 0.0, 0.0], [0.0f32, 0.0, 6.0], [0.0f32, 0.5, 6.0]);
    let (mut a, mut b, mut untouched) = (0u32, 0u32, 77u32);
    // SAFETY: every pointer below points to live locals of the right size.
    unsafe {
        assert_eq!(
            wf_crowd_add_agent(c.0, p0.as_ptr(), 0.0, 1.3, 0.4, &mut a),
            WfStatus::Ok
        );
        assert_eq!(
            wf_crowd_add_agent(c.0, p1.as_ptr(), 3.0, 1.3, 0.4, &mut b),
            WfStatus::Ok
        );
        // A full crowd grows: the third agent fits a crowd made for two.
        let mut third = 0u32;
        assert_eq!(
            wf_crowd_add_agent(c.0, p1.as_ptr(), 0.0, 1.3, 0.4, &mut third),
            WfStatus::Ok,
            "a full crowd grows"
        );
        assert_eq!(wf_crowd_remove_agent(c.0, third), WfStatus::Ok);
        assert_eq!(
            wf_crowd_add_agent(c.0, p1.as_ptr(), 0.0, 1.3, 0.0, &mut untouched),
            WfStatus::InvalidArgument
        );
        assert_eq!(
            wf_crowd_add_agent(c.0, p1.as_ptr(), f32::NAN, 1.3, 0.4, &mut untouched),
            WfStatus::NonFinite
        );
        assert_eq!(untouched, 77);
        assert_eq!(
            wf_crowd_set_target(c.0, a, target.as_ptr(), 0.3),
            WfStatus::Ok
        );
        assert_eq!(wf_crowd_set_target(c.0, b, p0.as_ptr(), 0.3), WfStatus::Ok);
        assert_eq!(
            wf_crowd_set_steering(c.0, a, 6.0, 3.0, 1.2, 1.0),
            WfStatus::Ok
        );
        assert_eq!(
            wf_crowd_set_steering(c.0, a, 6.0, -3.0, 1.2, 1.0),
            WfStatus::InvalidArgument
        );
        assert_eq!(
            wf_crowd_set_priority(c.0, a, 1.0, 1, u32::MAX),
            WfStatus::Ok
        );
        assert_eq!(wf_crowd_set_speed(c.0, a, 1.4, 0.35), WfStatus::Ok);
        assert_eq!(
            wf_crowd_set_speed(c.0, a, f32::INFINITY, 0.35),
            WfStatus::NonFinite
        );
        assert_eq!(
            wf_crowd_set_defaults(c.0, 6.0, 4.0, 1.5, 1.5, 0.2),
            WfStatus::Ok
        );
        assert_eq!(
            wf_crowd_set_defaults(c.0, 6.0, 4.0, 4.0, 1.5, 0.2),
            WfStatus::InvalidArgument
        );
        let mut cap = 0usize;
        assert_eq!(wf_crowd_route_cache(c.0, &mut cap), WfStatus::Ok);
        assert_eq!(cap, 512);
        assert_eq!(wf_crowd_set_route_cache(c.0, 8), WfStatus::Ok);
        for bad in [0, 513, usize::MAX] {
            assert_eq!(
                wf_crowd_set_route_cache(c.0, bad),
                WfStatus::InvalidArgument
            );
        }
        assert_eq!(
            wf_crowd_set_route_cache(null_mut(), 8),
            WfStatus::NullPointer
        );
        assert_eq!(wf_crowd_route_cache(c.0, &mut cap), WfStatus::Ok);
        assert_eq!(cap, 8, "refused calls changed nothing");
        let mut untouched_cap = 77usize;
        assert_eq!(
            wf_crowd_route_cache(null(), &mut untouched_cap),
            WfStatus::NullPointer
        );
        assert_eq!(wf_crowd_route_cache(c.0, null_mut()), WfStatus::NullPointer);
        assert_eq!(untouched_cap, 77);
        let mut budget = 0usize;
        assert_eq!(wf_crowd_route_budget(c.0, &mut budget), WfStatus::Ok);
        assert_eq!(budget, 4);
        assert_eq!(wf_crowd_set_route_budget(c.0, 64), WfStatus::Ok);
        assert_eq!(wf_crowd_set_route_budget(c.0, 1), WfStatus::Ok);
        for bad in [0, 65, usize::MAX] {
            assert_eq!(
                wf_crowd_set_route_budget(c.0, bad),
                WfStatus::InvalidArgument
            );
        }
        assert_eq!(
            wf_crowd_set_route_budget(null_mut(), 2),
            WfStatus::NullPointer
        );
        assert_eq!(wf_crowd_route_budget(c.0, &mut budget), WfStatus::Ok);
        assert_eq!(budget, 1, "refused calls changed nothing");
        let mut untouched_budget = 77usize;
        assert_eq!(
            wf_crowd_route_budget(null(), &mut untouched_budget),
            WfStatus::NullPointer
        );
        assert_eq!(
            wf_crowd_route_budget(c.0, null_mut()),
            WfStatus::NullPointer
        );
        assert_eq!(untouched_budget, 77);
        let corners = [1.0f32, 0.0, 3.0];
        assert_eq!(
            wf_crowd_set_waypoints(c.0, a, corners.as_ptr(), 1),
            WfStatus::Ok
        );
        assert_eq!(
            wf_crowd_set_waypoints(c.0, a, null(), 1),
            WfStatus::NullPointer
        );
        assert_eq!(wf_crowd_set_route_mode(c.0, a, 1), WfStatus::Ok);
        assert_eq!(
            wf_crowd_set_route_mode(c.0, a, 3),
            WfStatus::InvalidArgument
        );
        let mut o = [0u32; 4];
        let (lo, hi) = ([3.0f32, 0.0, 3.0], [4.0f32, 0.0, 4.0]);
        assert_eq!(
            wf_crowd_add_circle(c.0, lo.as_ptr(), 0.5, &mut o[0]),
            WfStatus::Ok
        );
        assert_eq!(
            wf_crowd_add_box(c.0, lo.as_ptr(), hi.as_ptr(), &mut o[1]),
            WfStatus::Ok
        );
        assert_eq!(
            wf_crowd_add_oriented_box(c.0, hi.as_ptr(), 0.5, 0.5, 0.2, &mut o[2]),
            WfStatus::Ok
        );
        assert_eq!(
            wf_crowd_add_wall(c.0, lo.as_ptr(), hi.as_ptr(), &mut o[3]),
            WfStatus::Ok
        );
        assert_eq!(
            wf_crowd_add_box(c.0, hi.as_ptr(), lo.as_ptr(), &mut untouched),
            WfStatus::InvalidArgument
        );
        assert_eq!(wf_crowd_remove_obstacle(c.0, o[2]), WfStatus::Ok);
        assert_eq!(wf_crowd_remove_obstacle(c.0, o[2]), WfStatus::OutOfRange);
        assert_eq!(wf_crowd_step(c.0, 0.1, 2), WfStatus::Ok);
        assert_eq!(wf_crowd_step(c.0, -0.1, 1), WfStatus::InvalidArgument);
        assert_eq!(wf_crowd_step(c.0, f32::NAN, 1), WfStatus::NonFinite);
        let mut n = 0usize;
        assert_eq!(wf_crowd_agent_count(c.0, &mut n), WfStatus::Ok);
        assert_eq!(n, 2);

        let ids = [a, b];
        let (mut pos, mut yaws, mut states) = ([0.0f32; 6], [0.0f32; 2], [9u32; 2]);
        assert_eq!(
            wf_crowd_read_agents(
                c.0,
                ids.as_ptr(),
                2,
                pos.as_mut_ptr(),
                2,
                yaws.as_mut_ptr(),
                2,
                states.as_mut_ptr(),
                2
            ),
            WfStatus::Ok
        );
        assert!(pos.iter().all(|x| x.is_finite()));
        assert_eq!((pos[1], pos[4]), (0.0, 0.0), "y carried through");
        assert!(states.iter().all(|&s| s <= WfAgent::Invalid as u32));
        let (mut kinds, mut hit_ids, mut pts, mut nrm) =
            ([9u32; 2], [0u32; 2], [0.0f32; 6], [0.0f32; 6]);
        assert_eq!(
            wf_crowd_read_hits(
                c.0,
                ids.as_ptr(),
                2,
                kinds.as_mut_ptr(),
                2,
                hit_ids.as_mut_ptr(),
                2,
                pts.as_mut_ptr(),
                2,
                nrm.as_mut_ptr(),
                2
            ),
            WfStatus::Ok
        );
        assert!(kinds.iter().all(|&k| k <= WfHit::Agent as u32));
        // Refusals leave outputs untouched.
        let mut sentinel = [-7.0f32; 6];
        assert_eq!(
            wf_crowd_read_agents(
                c.0,
                ids.as_ptr(),
                2,
                sentinel.as_mut_ptr(),
                1,
                null_mut(),
                0,
                null_mut(),
                0
            ),
            WfStatus::BufferTooSmall
        );
        let bad = [a, 12345];
        assert_eq!(
            wf_crowd_read_hits(
                c.0,
                bad.as_ptr(),
                2,
                null_mut(),
                0,
                null_mut(),
                0,
                sentinel.as_mut_ptr(),
                2,
                null_mut(),
                0
            ),
            WfStatus::OutOfRange
        );
        assert!(sentinel.iter().all(|&x| x == -7.0));

        // NaN teleport: that agent INVALID, the other moved, NON_FINITE returned.
        let to = [f32::NAN, 0.0, 0.0, 9.0, 0.0, 9.0];
        assert_eq!(
            wf_crowd_set_positions(c.0, ids.as_ptr(), 2, to.as_ptr(), 2, null(), 0),
            WfStatus::NonFinite
        );
        assert_eq!(
            wf_crowd_read_agents(
                c.0,
                ids.as_ptr(),
                2,
                pos.as_mut_ptr(),
                2,
                null_mut(),
                0,
                states.as_mut_ptr(),
                2
            ),
            WfStatus::Ok
        );
        assert_eq!(states[0], WfAgent::Invalid as u32);
        assert_eq!((pos[3], pos[5]), (9.0, 9.0));
        assert!(pos[0].is_finite());

        assert_eq!(wf_crowd_remove_agent(c.0, b), WfStatus::Ok);
        assert_eq!(wf_crowd_remove_agent(c.0, b), WfStatus::OutOfRange);
        assert_eq!(wf_crowd_set_route_mode(c.0, b, 0), WfStatus::OutOfRange);
        assert_eq!(wf_crowd_step(null_mut(), 0.1, 1), WfStatus::NullPointer);
        assert_eq!(wf_crowd_agent_count(null(), &mut n), WfStatus::NullPointer);
        assert_eq!(wf_crowd_new(1, null_mut()), WfStatus::NullPointer);
        wf_crowd_free(null_mut());
    }
}

#[test]
fn simd_cap_round_trips_and_refuses_unknown_levels() {
    use wayfarer::crowd::{Crowd as RustCrowd, Simd};
    let levels = [
        (WfSimd::Portable, Simd::Portable),
        (WfSimd::Avx2, Simd::Avx2),
        (WfSimd::Avx512, Simd::Avx512),
    ];
    let c = new(1);
    // What the safe API runs at under each cap on this CPU.
    let in_use = |cap: Simd| {
        let mut r = RustCrowd::new(1).unwrap();
        r.set_simd(cap);
        WfSimd::from(r.simd()) as u32
    };
    // SAFETY: every pointer below points to a live local or is NULL.
    unsafe {
        let mut level = 77u32;
        assert_eq!(wf_crowd_simd(c.0, &mut level), WfStatus::Ok);
        assert_eq!(level, in_use(Simd::Avx512), "the default: no cap");
        for (cap, rust) in levels {
            assert_eq!(wf_crowd_set_simd(c.0, cap as u32), WfStatus::Ok);
            assert_eq!(wf_crowd_simd(c.0, &mut level), WfStatus::Ok);
            assert!(level <= cap as u32, "{level} above the cap {cap:?}");
            assert_eq!(level, in_use(rust), "{cap:?}");
        }
        assert_eq!(
            wf_crowd_set_simd(c.0, WfSimd::Portable as u32),
            WfStatus::Ok
        );
        for bad in [3, 4, 512, u32::MAX] {
            assert_eq!(wf_crowd_set_simd(c.0, bad), WfStatus::InvalidArgument);
        }
        assert_eq!(
            wf_crowd_set_simd(null_mut(), WfSimd::Avx2 as u32),
            WfStatus::NullPointer
        );
        assert_eq!(wf_crowd_simd(c.0, &mut level), WfStatus::Ok);
        assert_eq!(
            level,
            WfSimd::Portable as u32,
            "refused calls changed nothing"
        );
        let mut untouched = 77u32;
        assert_eq!(wf_crowd_simd(null(), &mut untouched), WfStatus::NullPointer);
        assert_eq!(wf_crowd_simd(c.0, null_mut()), WfStatus::NullPointer);
        assert_eq!(untouched, 77);
    }
}

#[test]
fn every_simd_cap_steps_to_the_same_bits() {
    let caps = [WfSimd::Portable, WfSimd::Avx2, WfSimd::Avx512];
    let mut runs = Vec::new();
    for cap in caps {
        let c = new(24);
        let mut ids = [0u32; 24];
        // SAFETY: every pointer below points to live locals of the right size.
        unsafe {
            assert_eq!(wf_crowd_set_simd(c.0, cap as u32), WfStatus::Ok);
            // Two lines of twelve walking through each other.
            for (k, id) in ids.iter_mut().enumerate() {
                let (row, col) = ((k / 12) as f32, (k % 12) as f32);
                let from = [col - 5.5, 0.0, 8.0 * row - 4.0];
                let to = [5.5 - col, 0.0, 4.0 - 8.0 * row];
                assert_eq!(
                    wf_crowd_add_agent(c.0, from.as_ptr(), 0.0, 1.4, 0.35, id),
                    WfStatus::Ok
                );
                assert_eq!(
                    wf_crowd_set_target(c.0, *id, to.as_ptr(), 0.2),
                    WfStatus::Ok
                );
            }
            let centre = [0.0f32, 0.0, 0.0];
            let mut o = 0u32;
            assert_eq!(
                wf_crowd_add_circle(c.0, centre.as_ptr(), 0.8, &mut o),
                WfStatus::Ok
            );
            for _ in 0..60 {
                assert_eq!(wf_crowd_step(c.0, 0.1, 1), WfStatus::Ok);
            }
            let (mut pos, mut yaws) = ([0.0f32; 72], [0.0f32; 24]);
            assert_eq!(
                wf_crowd_read_agents(
                    c.0,
                    ids.as_ptr(),
                    24,
                    pos.as_mut_ptr(),
                    24,
                    yaws.as_mut_ptr(),
                    24,
                    null_mut(),
                    0
                ),
                WfStatus::Ok
            );
            let bits: Vec<u32> = pos.iter().chain(&yaws).map(|x| x.to_bits()).collect();
            runs.push(bits);
        }
    }
    assert_eq!(runs[0], runs[1], "AVX2 cap differs from portable");
    assert_eq!(runs[0], runs[2], "AVX-512 cap differs from portable");
}

/// Three agents on a line, sent across it.
fn three(c: &Crowd) -> [u32; 3] {
    let mut ids = [0u32; 3];
    for (i, id) in ids.iter_mut().enumerate() {
        let p = [i as f32 * 3.0, 0.0, 0.0];
        // SAFETY: live crowd, valid pointers.
        unsafe {
            assert_eq!(
                wf_crowd_add_agent(c.0, p.as_ptr(), 0.0, 1.3, 0.4, id),
                WfStatus::Ok
            );
        }
    }
    ids
}

fn positions(c: &Crowd, ids: &[u32]) -> Vec<u32> {
    let mut pos = vec![0.0f32; 3 * ids.len()];
    // SAFETY: live crowd, buffers of the lengths given.
    unsafe {
        assert_eq!(
            wf_crowd_read_agents(
                c.0,
                ids.as_ptr(),
                ids.len(),
                pos.as_mut_ptr(),
                ids.len(),
                null_mut(),
                0,
                null_mut(),
                0
            ),
            WfStatus::Ok
        );
    }
    pos.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn batch_targets_and_velocities_round_trip_and_refuse_bad_input() {
    let (batch, single, untouched) = (new(3), new(3), new(3));
    let ids = three(&batch);
    assert_eq!(three(&single), ids);
    assert_eq!(three(&untouched), ids);
    let targets = [0.0f32, 0.0, 9.0, 3.0, 0.5, 9.0, 6.0, 0.0, -9.0];
    let radii = [0.2f32, 0.3, 0.4];
    // SAFETY: every pointer below points to live locals of the lengths given.
    unsafe {
        assert_eq!(
            wf_crowd_set_targets(
                batch.0,
                ids.as_ptr(),
                3,
                targets.as_ptr(),
                3,
                radii.as_ptr(),
                3
            ),
            WfStatus::Ok
        );
        for i in 0..3 {
            assert_eq!(
                wf_crowd_set_target(single.0, ids[i], targets[3 * i..].as_ptr(), radii[i]),
                WfStatus::Ok
            );
        }
        // Refused: nothing changes (the first entries are good ones).
        let good = [1.0f32, 0.0, 1.0, 2.0, 0.0, 2.0];
        let nan = [1.0f32, 0.0, 1.0, f32::NAN, 0.0, 2.0];
        let huge = [1.0f32, 0.0, 1.0, 2e15, 0.0, 2.0];
        let bad_ids = [ids[0], 12345];
        let c = untouched.0;
        let cases = [
            (
                c,
                ids.as_ptr(),
                2,
                good.as_ptr(),
                1,
                null(),
                0,
                WfStatus::InvalidCount,
            ),
            (
                c,
                ids.as_ptr(),
                2,
                good.as_ptr(),
                2,
                radii.as_ptr(),
                1,
                WfStatus::InvalidCount,
            ),
            (
                c,
                ids.as_ptr(),
                2,
                nan.as_ptr(),
                2,
                null(),
                0,
                WfStatus::NonFinite,
            ),
            (
                c,
                ids.as_ptr(),
                2,
                huge.as_ptr(),
                2,
                null(),
                0,
                WfStatus::NonFinite,
            ),
            (
                c,
                ids.as_ptr(),
                2,
                good.as_ptr(),
                2,
                [0.1, f32::NAN].as_ptr(),
                2,
                WfStatus::NonFinite,
            ),
            (
                c,
                ids.as_ptr(),
                2,
                good.as_ptr(),
                2,
                [0.1, -1.0].as_ptr(),
                2,
                WfStatus::InvalidArgument,
            ),
            (
                c,
                bad_ids.as_ptr(),
                2,
                good.as_ptr(),
                2,
                null(),
                0,
                WfStatus::OutOfRange,
            ),
            (
                c,
                ids.as_ptr(),
                2,
                null(),
                2,
                null(),
                0,
                WfStatus::NullPointer,
            ),
            (
                c,
                null(),
                2,
                good.as_ptr(),
                2,
                null(),
                0,
                WfStatus::NullPointer,
            ),
            (
                c,
                ids.as_ptr(),
                2,
                good.as_ptr(),
                2,
                null(),
                2,
                WfStatus::NullPointer,
            ),
            (
                null_mut(),
                ids.as_ptr(),
                2,
                good.as_ptr(),
                2,
                null(),
                0,
                WfStatus::NullPointer,
            ),
            (
                c,
                ids.as_ptr(),
                usize::MAX,
                good.as_ptr(),
                usize::MAX,
                null(),
                0,
                WfStatus::InvalidCount,
            ),
        ];
        for (crowd, i, n, t, tn, r, rn, want) in cases {
            assert_eq!(wf_crowd_set_targets(crowd, i, n, t, tn, r, rn), want);
        }
        assert_eq!(
            wf_crowd_set_targets(c, null(), 0, null(), 0, null(), 0),
            WfStatus::Ok,
            "(NULL, 0) is an empty batch"
        );
    }
    let (mut v, mut sentinel) = ([0.0f32; 9], [-7.0f32; 9]);
    for step in 0..30 {
        for c in [&batch, &single, &untouched] {
            // SAFETY: live crowd.
            assert_eq!(unsafe { wf_crowd_step(c.0, 0.1, 1) }, WfStatus::Ok);
        }
        if step == 0 {
            assert_eq!(
                positions(&untouched, &ids),
                positions(&new_three_stepped(), &ids),
                "the refused batches changed no target"
            );
        }
    }
    assert_eq!(positions(&batch, &ids), positions(&single, &ids));
    // SAFETY: as above.
    unsafe {
        assert_eq!(
            wf_crowd_read_velocities(batch.0, ids.as_ptr(), 3, v.as_mut_ptr(), 3),
            WfStatus::Ok
        );
        // Walking at about 1.3 m/s toward +z, +z and -z, on the ground plane.
        for (i, dir) in [1.0f32, 1.0, -1.0].into_iter().enumerate() {
            let (x, y, z) = (v[3 * i], v[3 * i + 1], v[3 * i + 2]);
            assert_eq!(y, 0.0);
            let speed = (x * x + z * z).sqrt();
            assert!(speed > 0.5 && speed <= 1.3 * (1.0 + 1e-5), "speed {speed}");
            assert!(z * dir > 0.5, "heading {x} {z}");
        }
        let bad_ids = [ids[0], 12345];
        assert_eq!(
            wf_crowd_read_velocities(batch.0, bad_ids.as_ptr(), 2, sentinel.as_mut_ptr(), 3),
            WfStatus::OutOfRange
        );
        assert_eq!(
            wf_crowd_read_velocities(batch.0, ids.as_ptr(), 3, sentinel.as_mut_ptr(), 2),
            WfStatus::BufferTooSmall
        );
        assert_eq!(
            wf_crowd_read_velocities(batch.0, ids.as_ptr(), 3, null_mut(), 3),
            WfStatus::NullPointer
        );
        assert_eq!(
            wf_crowd_read_velocities(null(), ids.as_ptr(), 3, sentinel.as_mut_ptr(), 3),
            WfStatus::NullPointer
        );
        assert_eq!(
            wf_crowd_read_velocities(batch.0, null(), 0, null_mut(), 0),
            WfStatus::Ok
        );
        assert!(
            sentinel.iter().all(|&x| x == -7.0),
            "refusals wrote nothing"
        );
    }
}

/// A crowd of `three` stepped once with no targets set.
fn new_three_stepped() -> Crowd {
    let c = new(3);
    three(&c);
    // SAFETY: live crowd.
    assert_eq!(unsafe { wf_crowd_step(c.0, 0.1, 1) }, WfStatus::Ok);
    c
}

#[test]
fn goal_queues_and_events_through_the_c_abi() {
    let c = new(1);
    let start = [0.0f32, 0.0, 0.0];
    let targets = [0.0f32, 0.0, 2.0, 2.0, 0.0, 2.0];
    let radii = [0.2f32, 0.2];
    let (mut a, mut left) = (0u32, 77usize);
    let null_u = null_mut::<u32>();
    let null_f = null_mut::<f32>();
    // SAFETY: every pointer below points to live locals of the right size.
    unsafe {
        assert_eq!(
            wf_crowd_add_agent(c.0, start.as_ptr(), 0.0, 2.0, 0.3, &mut a),
            WfStatus::Ok
        );
        // Refusals change nothing.
        let nan = [0.0f32, f32::NAN, 0.0, 1.0, 0.0, 1.0];
        let bad: [(u32, *const f32, *const f32, usize, u32, WfStatus); 6] = [
            (a, nan.as_ptr(), null(), 2, 1, WfStatus::NonFinite),
            (
                a,
                targets.as_ptr(),
                [-1.0f32, 0.0].as_ptr(),
                2,
                1,
                WfStatus::InvalidArgument,
            ),
            (
                a,
                targets.as_ptr(),
                radii.as_ptr(),
                2,
                3,
                WfStatus::InvalidArgument,
            ),
            (a, null(), null(), 2, 1, WfStatus::NullPointer),
            (
                a,
                targets.as_ptr(),
                null(),
                usize::MAX,
                1,
                WfStatus::InvalidCount,
            ),
            (
                a ^ 0x40_0000,
                targets.as_ptr(),
                null(),
                2,
                1,
                WfStatus::OutOfRange,
            ),
        ];
        for (id, t, r, n, on, want) in bad {
            assert_eq!(wf_crowd_set_goals(c.0, id, t, r, null(), n, on), want);
        }
        assert_eq!(wf_crowd_goals_left(c.0, a, &mut left), WfStatus::Ok);
        assert_eq!(left, 0, "no queue after refusals");
        assert_eq!(
            wf_crowd_set_goals(c.0, a, targets.as_ptr(), radii.as_ptr(), null(), 2, 1),
            WfStatus::Ok
        );
        assert_eq!(wf_crowd_goals_left(c.0, a, &mut left), WfStatus::Ok);
        assert_eq!(left, 1);
        let far = [4.0f32, 0.0, 2.0];
        assert_eq!(
            wf_crowd_push_goal(c.0, a, far.as_ptr(), 0.2, -1.0),
            WfStatus::InvalidArgument
        );
        assert_eq!(
            wf_crowd_push_goal(c.0, a, far.as_ptr(), 0.2, 0.5),
            WfStatus::Ok
        );
        assert_eq!(
            wf_crowd_set_on_arrival(c.0, a, 7),
            WfStatus::InvalidArgument
        );
        assert_eq!(
            wf_crowd_set_on_arrival(null_mut(), a, 1),
            WfStatus::NullPointer
        );
        assert_eq!(wf_crowd_set_on_arrival(c.0, a, 1), WfStatus::Ok);
        let (mut kinds, mut agents, mut goals, mut pos) =
            ([9u32; 4], [9u32; 4], [9u32; 4], [9.0f32; 12]);
        let mut seen = vec![];
        for _ in 0..200 {
            assert_eq!(wf_crowd_step(c.0, 0.05, 1), WfStatus::Ok);
            let mut n = 77usize;
            assert_eq!(
                wf_crowd_read_events(c.0, null_u, 0, null_u, 0, null_u, 0, null_f, 0, &mut n),
                WfStatus::Ok
            );
            if n == 0 {
                continue;
            }
            let mut short = 0usize;
            assert_eq!(
                wf_crowd_read_events(
                    c.0,
                    kinds.as_mut_ptr(),
                    n - 1,
                    null_u,
                    0,
                    null_u,
                    0,
                    null_f,
                    0,
                    &mut short
                ),
                WfStatus::BufferTooSmall
            );
            assert_eq!(short, n, "the count needed");
            assert_eq!(
                wf_crowd_read_events(
                    c.0,
                    kinds.as_mut_ptr(),
                    4,
                    agents.as_mut_ptr(),
                    4,
                    goals.as_mut_ptr(),
                    4,
                    pos.as_mut_ptr(),
                    4,
                    &mut n
                ),
                WfStatus::Ok
            );
            for k in 0..n {
                assert_eq!(agents[k], a);
                seen.push((kinds[k], goals[k]));
            }
        }
        let reached = WfEvent::GoalReached as u32;
        assert_eq!(
            seen,
            [
                (reached, 0),
                (reached, 1),
                (reached, 2),
                (WfEvent::Despawned as u32, 2)
            ]
        );
        let mut count = 77usize;
        assert_eq!(wf_crowd_agent_count(c.0, &mut count), WfStatus::Ok);
        assert_eq!(count, 0, "despawned");
        assert_eq!(wf_crowd_goals_left(c.0, a, &mut left), WfStatus::OutOfRange);
        assert_eq!(
            wf_crowd_goals_left(c.0, a, null_mut()),
            WfStatus::NullPointer
        );
        let mut n = 77usize;
        assert_eq!(
            wf_crowd_read_events(null(), null_u, 0, null_u, 0, null_u, 0, null_f, 0, &mut n),
            WfStatus::NullPointer
        );
        assert_eq!(n, 77);
    }
}
