//! Differential target: the multi-threaded crowd step against the one-thread step, bit for
//! bit. Two crowds receive the same fuzzed calls (agents, obstacles, targets, steering,
//! priorities, waypoints, route modes, teleports, removals); one steps with `threads = 1`, the
//! other with a fuzzed thread count (0, 2..8, `u32::MAX`). After every step every agent's
//! position, yaw, state and hit (kind, id, point, normal) must have the same bits.
//!
//! The fuzz build lowers the crowd's "agents per thread" threshold (`cfg(fuzzing)`), so small
//! crowds really are split across threads.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wayfarer::ffi::crowd::*;
use wayfarer::ffi::WfStatus;
use wf_fuzz::crowd::{dt, mutate, position, read_all, Model};
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
            let threads = match inp.byte() {
                0..=15 => 0,
                16..=23 => u32::MAX,
                b => 2 + b as u32 % 7,
            };
            // SAFETY: live crowds, each used by this thread only.
            let (a, b) = unsafe { (wf_crowd_step(one, dt, 1), wf_crowd_step(many, dt, threads)) };
            assert_eq!(a, b, "wf_crowd_step status differs with {threads} threads");
            checked(a, "wf_crowd_step");
            // SAFETY: both crowds are live.
            let (a, b) = unsafe { (read_all(one, &m.agents), read_all(many, &m.agents)) };
            assert!(
                a == b,
                "one-thread and {threads}-thread steps differ (dt {dt})"
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
