//! Differential target: the multi-threaded crowd step at every SIMD cap against the one-thread
//! step at the default cap, bit for bit. Two crowds receive the same fuzzed calls (agents,
//! obstacles, targets, steering, priorities, waypoints, route modes, teleports, removals); one
//! steps with `threads = 1` and the default cap (`WF_SIMD_AVX512`: the best lane kernels this
//! CPU has), the other with a fuzzed thread count (0, 2..8, `u32::MAX`) after
//! `wf_crowd_set_simd` to `WF_SIMD_PORTABLE`, `WF_SIMD_AVX2` or `WF_SIMD_AVX512`. After every
//! step every agent's position, yaw, state and hit (kind, id, point, normal) must have the same
//! bits.
//!
//! The cap is the thread-count byte modulo 3: it takes no input bytes of its own, so saved
//! inputs keep their meaning, and every thread count occurs with every cap.
//!
//! The fuzz build lowers the crowd's "agents per thread" threshold (`cfg(fuzzing)`), so small
//! crowds really are split across threads.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wayfarer::ffi::crowd::*;
use wayfarer::ffi::WfStatus;
use wf_fuzz::crowd::{drain_events, dt, mutate, position, read_all, Model};
use wf_fuzz::*;

fn new_crowd(cap: usize) -> *mut WfCrowd {
    let mut c = core::ptr::null_mut();
    // SAFETY: c is one out-pointer.
    assert_eq!(
        unsafe { wf_crowd_new(cap, &mut c) },
        WfStatus::Ok,
        "wf_crowd_new"
    );
    c
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let (one, many) = (new_crowd(64), new_crowd(64));
    let crowds = [one, many];
    let mut m = Model::default();
    // A starting crowd: up to 40 agents walking toward fuzzed targets.
    let n = inp.upto(40);
    for _ in 0..n {
        let p = position(&mut inp);
        let t = position(&mut inp);
        let speed = 0.5 + inp.byte() as f32 / 64.0;
        let radius = 0.2 + inp.byte() as f32 / 512.0;
        let mut ids = [0u32; 2];
        let mut added = [WfStatus::Ok; 2];
        let mut targeted = [WfStatus::Ok; 2];
        for (k, c) in crowds.iter().enumerate() {
            // SAFETY: live crowds; p, t 3 floats; ids[k] one u32.
            unsafe {
                added[k] = wf_crowd_add_agent(*c, p.as_ptr(), 0.0, speed, radius, &mut ids[k]);
                targeted[k] = wf_crowd_set_target(*c, ids[k], t.as_ptr(), 0.3);
            }
        }
        assert!(
            added[0] == added[1] && targeted[0] == targeted[1],
            "crowds disagree"
        );
        if added[0] == WfStatus::Ok {
            assert_eq!(ids[0], ids[1], "the same calls gave different ids");
            m.agents.push(ids[0]);
        }
    }
    for _ in 0..12 {
        if inp.chance(160) {
            let dt = dt(&mut inp);
            let byte = inp.byte();
            let threads = match byte {
                0..=15 => 0,
                16..=23 => u32::MAX,
                b => 2 + b as u32 % 7,
            };
            let cap = [WfSimd::Portable, WfSimd::Avx2, WfSimd::Avx512][byte as usize % 3];
            let mut level = SENTINEL_U32;
            // SAFETY: `many` is live and used by this thread only; level is one u32.
            unsafe {
                assert_eq!(wf_crowd_set_simd(many, cap as u32), WfStatus::Ok);
                assert_eq!(wf_crowd_simd(many, &mut level), WfStatus::Ok);
            }
            assert!(
                level <= cap as u32,
                "wf_crowd_simd {level} above the cap {cap:?}"
            );
            // SAFETY: live crowds, each used by this thread only.
            let (a, b) = unsafe { (wf_crowd_step(one, dt, 1), wf_crowd_step(many, dt, threads)) };
            assert_eq!(
                a, b,
                "wf_crowd_step status differs with {threads} threads at {cap:?}"
            );
            checked(a, "wf_crowd_step");
            let mut m2 = m.clone();
            // SAFETY: both crowds are live.
            let (ea, eb) = unsafe { (drain_events(one, &mut m), drain_events(many, &mut m2)) };
            assert!(ea == eb, "events differ with {threads} threads at {cap:?}");
            // SAFETY: both crowds are live.
            let (a, b) = unsafe { (read_all(one, &m.agents), read_all(many, &m.agents)) };
            assert!(
                a == b,
                "one-thread default-cap and {threads}-thread {cap:?} (level {level}) steps differ \
                 (dt {dt})"
            );
        } else {
            // SAFETY: both crowds are live and used by this thread only.
            unsafe { mutate(&mut inp, &crowds, &mut m) };
        }
        if inp.is_empty() {
            break;
        }
    }
    // SAFETY: both crowds are live and freed once.
    unsafe {
        wf_crowd_free(one);
        wf_crowd_free(many);
    }
});
