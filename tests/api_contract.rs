//! The C ABI's contract as a caller reads it from the header, checked through the exports:
//! the distance tolerance of schedule keys, precise statuses, the ±1e15 domain of every float
//! input, the one out-pointer rule of every `new` / `add`, and crossings counted in closed form.

use std::ffi::CStr;
use std::ptr::{null, null_mut};
use wayfarer::ffi::boundary::{wf_status_str, ALL_STATUSES};
use wayfarer::ffi::crowd::*;
use wayfarer::ffi::curve::wf_ballistic_bezier;
use wayfarer::ffi::timeline::*;
use wayfarer::ffi::WfStatus;

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

fn status_text(s: WfStatus) -> String {
    // SAFETY: wf_status_str returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(wf_status_str(s as i32)) }
        .to_str()
        .unwrap()
        .to_string()
}

fn new_set() -> *mut WfScheduleSet {
    let mut set = null_mut();
    // SAFETY: one out-pointer.
    assert_eq!(unsafe { wf_schedule_set_new(&mut set) }, WfStatus::Ok);
    set
}

fn polyline(points: &[f32]) -> *mut WfPath {
    let mut path = null_mut();
    // SAFETY: `points` holds len / 3 points; one out-pointer.
    let s = unsafe { wf_path_new_polyline(points.as_ptr(), points.len() / 3, &mut path) };
    assert_eq!(s, WfStatus::Ok);
    path
}

fn add_path(set: *mut WfScheduleSet, path: *mut WfPath) -> u32 {
    let mut index = u32::MAX;
    // SAFETY: live handles, one out-pointer.
    assert_eq!(
        unsafe { wf_schedule_set_add_path(set, path, &mut index) },
        WfStatus::Ok
    );
    index
}

fn add_npc(set: *mut WfScheduleSet, path: u32, times: &[f64], distances: &[f32]) -> WfStatus {
    let mut npc = u32::MAX;
    // SAFETY: times and distances hold the same number of keys; one out-pointer.
    let s = unsafe {
        wf_schedule_set_add_npc(
            set,
            path,
            times.as_ptr(),
            distances.as_ptr(),
            times.len(),
            null(),
            0,
            0,
            &mut npc,
        )
    };
    assert_eq!(s == WfStatus::Ok, npc != u32::MAX, "out_npc written iff OK");
    s
}

/// The seed sums a path's length in floats, segment by segment, and schedules the NPC to
/// arrive there. That sum is a few ulps off the path's own length; it must be accepted and
/// taken as the end. 300 paths, as in the report (where 66 of them were refused).
#[test]
fn a_length_summed_in_floats_is_the_path_end() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let set = new_set();
    let mut past_the_end = 0;
    for i in 0..300u32 {
        let n = 3 + (rng.next() * 12.0) as usize;
        let mut pts = Vec::with_capacity(3 * n);
        let mut p = [0.0f32; 3];
        for _ in 0..n {
            pts.extend_from_slice(&p);
            p[0] += 0.5 + 20.0 * rng.next();
            p[1] += 2.0 * rng.next() - 1.0;
            p[2] += 40.0 * rng.next() - 20.0;
        }
        let summed: f32 = pts
            .chunks(3)
            .zip(pts.chunks(3).skip(1))
            .map(|(a, b)| {
                let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
                (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
            })
            .sum();
        let path = polyline(&pts);
        let mut length = 0.0f32;
        // SAFETY: a live path; one out-pointer.
        assert_eq!(unsafe { wf_path_length(path, &mut length) }, WfStatus::Ok);
        if summed > length {
            past_the_end += 1;
        }
        let pi = add_path(set, path);
        assert_eq!(pi, i);
        assert_eq!(
            add_npc(set, pi, &[0.0, 60.0], &[0.0, summed]),
            WfStatus::Ok,
            "path {i}: summed {summed} vs length {length}"
        );
        // Farther than the tolerance is refused with the precise status.
        let beyond = length + 8.0 * f32::EPSILON * length;
        assert_eq!(
            add_npc(set, pi, &[0.0, 60.0], &[0.0, beyond]),
            WfStatus::DistanceOutOfRange
        );
        // SAFETY: a live path, freed once (the set holds a copy).
        unsafe { wf_path_free(path) };
    }
    assert!(past_the_end > 0, "no summed length fell past the end");
    // The accepted NPCs end exactly at their path's end: the distance was clamped.
    let mut count = 0usize;
    // SAFETY: a live set; one out-pointer.
    assert_eq!(
        unsafe { wf_schedule_set_npc_count(set, &mut count) },
        WfStatus::Ok
    );
    assert_eq!(count, 300);
    let mut states = vec![u32::MAX; count];
    // SAFETY: states holds count elements; other outputs NULL.
    let s = unsafe {
        wf_schedule_set_evaluate(
            set,
            61.0,
            null_mut(),
            0,
            null_mut(),
            0,
            null_mut(),
            0,
            states.as_mut_ptr(),
            count,
        )
    };
    assert_eq!(s, WfStatus::Ok);
    assert!(states.iter().all(|&s| s == WfNpc::After as u32));
    // SAFETY: a live set, freed once.
    unsafe { wf_schedule_set_free(set) };
}

/// The status texts of the precise statuses name the argument and its range.
#[test]
fn range_statuses_name_the_argument_and_the_range() {
    let d = status_text(WfStatus::DistanceOutOfRange);
    assert!(
        d.starts_with("distances:") && d.contains("[0, path length]"),
        "{d}"
    );
    assert!(d.contains("4 * FLT_EPSILON * length"), "{d}");
    let t = status_text(WfStatus::InvalidKeyTime);
    assert!(t.starts_with("times:") && t.contains("1e-9 s"), "{t}");
    for s in ALL_STATUSES {
        assert!(!status_text(s).is_empty());
    }
}

/// Legs and holds shorter than 1e-9 s are refused, as documented (they were accepted down to
/// 1e-300 s, with speeds of 1e14).
#[test]
fn legs_shorter_than_a_nanosecond_are_refused() {
    let set = new_set();
    let path = polyline(&[0.0, 0.0, 0.0, 100.0, 0.0, 0.0]);
    let pi = add_path(set, path);
    for gap in [1e-10, 1e-20, 1e-300] {
        assert_eq!(
            add_npc(set, pi, &[0.0, gap], &[0.0, 1.0]),
            WfStatus::InvalidKeyTime,
            "leg {gap:e}"
        );
        assert_eq!(
            add_npc(set, pi, &[0.0, 1.0, 1.0 + gap], &[0.0, 5.0, 5.0]),
            WfStatus::InvalidKeyTime,
            "hold {gap:e}"
        );
    }
    assert_eq!(add_npc(set, pi, &[0.0, 1e-9], &[0.0, 1e-3]), WfStatus::Ok);
    // SAFETY: live handles, freed once.
    unsafe {
        wf_path_free(path);
        wf_schedule_set_free(set);
    }
}

/// Every float input of `wf_ballistic_bezier` obeys the ±1e15 domain, and the control points
/// it writes stay in it.
#[test]
fn ballistic_inputs_and_outputs_stay_in_the_domain() {
    let start = [0.0f32, 1.0, 0.0];
    let velocity = [1.0f32, 5.0, 0.0];
    let call = |gravity: f32, ground: f32, restitution: f32, vel: [f32; 3]| {
        let mut out = [-7.0f32; 3 * 5];
        let mut count = 0usize;
        // SAFETY: 3 floats each for start and velocity; out holds 5 points.
        let s = unsafe {
            wf_ballistic_bezier(
                start.as_ptr(),
                vel.as_ptr(),
                gravity,
                ground,
                restitution,
                1,
                out.as_mut_ptr(),
                5,
                &mut count,
            )
        };
        if s != WfStatus::Ok {
            assert!(
                out.iter().all(|&x| x == -7.0) && count == 0,
                "written on failure"
            );
        }
        (s, out)
    };
    assert_eq!(call(9.81, 0.0, 0.5, velocity).0, WfStatus::Ok);
    for g in [1e16, f32::MAX] {
        assert_eq!(
            call(g, 0.0, 0.5, velocity).0,
            WfStatus::NonFinite,
            "gravity {g:e}"
        );
    }
    for y in [-1e16, -f32::MAX] {
        assert_eq!(
            call(9.81, y, 0.5, velocity).0,
            WfStatus::NonFinite,
            "ground {y:e}"
        );
    }
    assert_eq!(call(9.81, 0.0, f32::MAX, velocity).0, WfStatus::NonFinite);
    // Inputs in the domain whose trajectory leaves it: refused, not written.
    let (s, _) = call(1e-30, 0.0, 0.5, [1e15, 1e15, 0.0]);
    assert_eq!(s, WfStatus::InvalidArgument);
    let (s, _) = call(1e15, -1e15, 1.0, [0.0, 1e15, 0.0]);
    assert!(s == WfStatus::InvalidArgument || s == WfStatus::Ok);
    if s == WfStatus::Ok {
        let (_, out) = call(1e15, -1e15, 1.0, [0.0, 1e15, 0.0]);
        assert!(out.iter().all(|x| x.abs() <= 1e15));
    }
}

/// One rule for every `new` and `add`: the out-pointer is required; NULL is
/// `WF_STATUS_NULL_POINTER` and nothing is created or added.
#[test]
fn every_new_and_add_requires_its_out_pointer() {
    let pts = [0.0f32, 0.0, 0.0, 4.0, 0.0, 0.0];
    let tan = [1.0f32, 0.0, 0.0, 1.0, 0.0, 0.0];
    let degrees = [1u32];
    // SAFETY: inputs valid for their counts; the out-pointer is NULL on purpose.
    unsafe {
        assert_eq!(
            wf_path_new_polyline(pts.as_ptr(), 2, null_mut()),
            WfStatus::NullPointer
        );
        assert_eq!(
            wf_path_new_hermite(pts.as_ptr(), 2, tan.as_ptr(), 2, null_mut()),
            WfStatus::NullPointer
        );
        assert_eq!(
            wf_path_new_catmull_rom(pts.as_ptr(), 2, 0.5, 0.0, null_mut()),
            WfStatus::NullPointer
        );
        assert_eq!(
            wf_path_new_bezier_chain(pts.as_ptr(), 2, degrees.as_ptr(), 1, null_mut()),
            WfStatus::NullPointer
        );
        assert_eq!(wf_schedule_set_new(null_mut()), WfStatus::NullPointer);
        assert_eq!(wf_crowd_new(16, null_mut()), WfStatus::NullPointer);
    }
    let set = new_set();
    let path = polyline(&pts);
    let mut count = 0usize;
    // SAFETY: live handles; NULL out-pointers on purpose.
    unsafe {
        assert_eq!(
            wf_schedule_set_add_path(set, path, null_mut()),
            WfStatus::NullPointer
        );
        let pi = add_path(set, path);
        assert_eq!(pi, 0, "the refused add added nothing");
        let t = [0.0f64, 1.0];
        let d = [0.0f32, 4.0];
        assert_eq!(
            wf_schedule_set_add_npc(set, pi, t.as_ptr(), d.as_ptr(), 2, null(), 0, 0, null_mut()),
            WfStatus::NullPointer
        );
        assert_eq!(
            wf_schedule_set_add_npc_simple(set, pi, 0.0, 1.0, 0, null_mut()),
            WfStatus::NullPointer
        );
        assert_eq!(wf_schedule_set_npc_count(set, &mut count), WfStatus::Ok);
        assert_eq!(count, 0, "nothing was added");
        wf_path_free(path);
        wf_schedule_set_free(set);
    }
    let mut crowd = null_mut();
    // SAFETY: one out-pointer.
    assert_eq!(unsafe { wf_crowd_new(16, &mut crowd) }, WfStatus::Ok);
    let (a, b) = ([0.0f32, 0.0, 0.0], [1.0f32, 0.0, 1.0]);
    // SAFETY: a live crowd; points hold 3 floats; NULL out-pointers on purpose.
    unsafe {
        assert_eq!(
            wf_crowd_add_agent(crowd, a.as_ptr(), 0.0, 1.0, 0.5, null_mut()),
            WfStatus::NullPointer
        );
        assert_eq!(
            wf_crowd_add_circle(crowd, a.as_ptr(), 1.0, null_mut()),
            WfStatus::NullPointer
        );
        assert_eq!(
            wf_crowd_add_box(crowd, a.as_ptr(), b.as_ptr(), null_mut()),
            WfStatus::NullPointer
        );
        assert_eq!(
            wf_crowd_add_oriented_box(crowd, a.as_ptr(), 1.0, 1.0, 0.0, null_mut()),
            WfStatus::NullPointer
        );
        assert_eq!(
            wf_crowd_add_wall(crowd, a.as_ptr(), b.as_ptr(), null_mut()),
            WfStatus::NullPointer
        );
        let mut agents = usize::MAX;
        assert_eq!(wf_crowd_agent_count(crowd, &mut agents), WfStatus::Ok);
        assert_eq!(agents, 0, "nothing was added");
        wf_crowd_free(crowd);
    }
}

/// Obstacle sizes at the bottom of the float range, as documented in the header: a wall
/// whose XZ length squared underflows f32 (shorter than about 3e-23 m) is refused; any
/// positive radius and a zero-size box are accepted.
#[test]
fn tiny_obstacles_behave_as_documented() {
    let mut crowd = null_mut();
    // SAFETY: one out-pointer.
    assert_eq!(unsafe { wf_crowd_new(16, &mut crowd) }, WfStatus::Ok);
    let o = [0.0f32, 0.0, 0.0];
    let mut id = u32::MAX;
    // SAFETY: a live crowd; points hold 3 floats; one out-pointer.
    unsafe {
        for len in [1.4e-45f32, 1e-30, 1e-23] {
            let b = [len, 0.0, 0.0];
            assert_eq!(
                wf_crowd_add_wall(crowd, o.as_ptr(), b.as_ptr(), &mut id),
                WfStatus::InvalidArgument,
                "wall {len:e} m"
            );
        }
        for len in [1e-18f32, 1e-3] {
            let b = [len, 0.0, 0.0];
            assert_eq!(
                wf_crowd_add_wall(crowd, o.as_ptr(), b.as_ptr(), &mut id),
                WfStatus::Ok,
                "wall {len:e} m"
            );
        }
        assert_eq!(
            wf_crowd_add_circle(crowd, o.as_ptr(), 1.4e-45, &mut id),
            WfStatus::Ok
        );
        assert_eq!(
            wf_crowd_add_circle(crowd, o.as_ptr(), 0.0, &mut id),
            WfStatus::InvalidArgument
        );
        assert_eq!(
            wf_crowd_add_box(crowd, o.as_ptr(), o.as_ptr(), &mut id),
            WfStatus::Ok
        );
        wf_crowd_free(crowd);
    }
}

/// Counting crossings is closed-form whatever the capacity: with every array NULL a span of
/// 1e15 s on a 1 µs loop answers at once (it walked every event before, and had not returned
/// after 120 s).
#[test]
fn crossing_counts_are_closed_form_at_any_capacity() {
    let set = new_set();
    let path = polyline(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
    let pi = add_path(set, path);
    let mut npc = u32::MAX;
    // SAFETY: live set; one out-pointer.
    assert_eq!(
        unsafe { wf_schedule_set_add_npc_simple(set, pi, 0.0, 1e-6, 1, &mut npc) },
        WfStatus::Ok
    );
    for t in [100.0, 1e15] {
        let (mut at_max, mut at_zero) = (0usize, 0usize);
        // SAFETY: live set; all arrays NULL; one out-pointer each.
        unsafe {
            assert_eq!(
                wf_schedule_set_crossings(
                    set,
                    0.0,
                    t,
                    null_mut(),
                    null_mut(),
                    null_mut(),
                    usize::MAX,
                    &mut at_max
                ),
                WfStatus::Ok
            );
            assert_eq!(
                wf_schedule_set_crossings(
                    set,
                    0.0,
                    t,
                    null_mut(),
                    null_mut(),
                    null_mut(),
                    0,
                    &mut at_zero
                ),
                WfStatus::BufferTooSmall
            );
        }
        assert_eq!(at_max, at_zero, "T = {t:e}");
        // Two keys per 1 µs period (the last key and the first of the next); 2e21 events
        // saturate at SIZE_MAX.
        let expected = (2.0 * t / 1e-6).min(usize::MAX as f64);
        assert!(
            (at_max as f64 - expected).abs() <= 1e-6 * expected + 2.0,
            "T = {t:e}: {at_max} events, expected about {expected:e}"
        );
    }
    // With arrays, the walk writes what fits: bounded by the capacity the caller gives.
    let mut npcs = vec![u32::MAX; 1000];
    let mut count = 0usize;
    // SAFETY: npcs holds 1000 elements; one out-pointer.
    let s = unsafe {
        wf_schedule_set_crossings(
            set,
            0.0,
            1.0,
            npcs.as_mut_ptr(),
            null_mut(),
            null_mut(),
            1000,
            &mut count,
        )
    };
    assert_eq!(s, WfStatus::BufferTooSmall);
    assert_eq!(npcs[0], u32::MAX, "nothing written when it does not fit");
    assert!(count > 1000);
    // SAFETY: live handles, freed once.
    unsafe {
        wf_path_free(path);
        wf_schedule_set_free(set);
    }
}
