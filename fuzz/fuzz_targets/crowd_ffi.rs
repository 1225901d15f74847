//! The crowd through the C ABI: a crowd of fuzzed capacity (0, small, just over the limit,
//! huge), then fuzzed sequences of every mutating call (agents and obstacles added, removed,
//! re-targeted, re-tuned with hostile values, teleported to NaN, unknown and stale ids),
//! steps with hostile `dt` and thread counts (0, 1, many, `u32::MAX`), the route cache and
//! SIMD caps set to hostile values and read back, the planner's grid baked, and reads (agents,
//! hits, velocities) with every buffer shape (NULL, misaligned, too small, larger).
//!
//! Checked: never a panic, a hang or a leak; ids are never reused while live; a failing read
//! writes nothing; a successful read writes exactly one value per id, finite positions and
//! yaws, valid states and hit kinds; the agent count and the caps match the model.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wayfarer::ffi::crowd::*;
use wayfarer::ffi::WfStatus;
use wf_fuzz::crowd::{drain_events, dt, id, mutate, read_all, Model};
use wf_fuzz::*;

/// Up to 12 fuzzed ids for a read, in a buffer of a fuzzed shape (NULL, maybe with a huge
/// count; misaligned; valid): the buffer, whether every id is live, and whether the buffer
/// itself is bad (NULL with a count, or misaligned).
fn read_ids(inp: &mut Input, m: &Model) -> (InBuf<u32>, bool, bool) {
    let n = inp.upto(12);
    let ids: Vec<u32> = (0..n).map(|_| id(inp, &m.agents)).collect();
    let known = ids.iter().all(|i| m.agents.contains(i));
    let mode = inp.mode();
    let ib = if mode == Mode::Null {
        // NULL ids with a huge count: a status, never an allocation or a read.
        InBuf::null(if inp.chance(32) {
            HUGE_COUNTS[inp.upto(5)]
        } else {
            n
        })
    } else {
        InBuf::new(&ids, 1, mode)
    };
    let bad_ids = mode == Mode::Misaligned || (mode == Mode::Null && ib.count > 0);
    (ib, known, bad_ids)
}

fn read_agents(inp: &mut Input, c: *const WfCrowd, m: &Model) {
    let (mut ib, known, bad_ids) = read_ids(inp, m);
    let n = ib.count;
    let mut pos = OutBuf::<f32>::fuzzed(inp, n, 3, 16);
    let mut yaw = OutBuf::<f32>::fuzzed(inp, n, 1, 16);
    let mut st = OutBuf::<u32>::fuzzed(inp, n, 1, 16);
    // SAFETY: every pointer is NULL or valid for the count/capacity passed with it.
    let s = unsafe {
        wf_crowd_read_agents(
            c,
            ib.ptr(),
            n,
            pos.ptr(),
            pos.capacity,
            yaw.ptr(),
            yaw.capacity,
            st.ptr(),
            st.capacity,
        )
    };
    let what = "wf_crowd_read_agents";
    checked(s, what);
    if s == WfStatus::Ok {
        assert!(
            known && !c.is_null(),
            "{what}: OK for unknown ids or NULL crowd"
        );
        assert!(!bad_ids, "{what}: OK with NULL or misaligned ids");
        for b in [&mut pos, &mut yaw] {
            if b.is_null() {
                b.assert_untouched(what);
            } else {
                b.assert_written(n, what);
            }
        }
        if st.is_null() {
            st.assert_untouched(what);
        } else {
            let v = st.assert_written(n, what);
            assert!(v.iter().all(|&x| x <= 3), "{what}: states {v:?}");
        }
    } else {
        pos.assert_untouched(what);
        yaw.assert_untouched(what);
        st.assert_untouched(what);
    }
}

fn read_hits(inp: &mut Input, c: *const WfCrowd, m: &Model) {
    let n = inp.upto(12);
    let ids: Vec<u32> = (0..n).map(|_| id(inp, &m.agents)).collect();
    let known = ids.iter().all(|i| m.agents.contains(i));
    let mut ib = InBuf::new(&ids, 1, Mode::Valid);
    let mut kinds = OutBuf::<u32>::fuzzed(inp, n, 1, 16);
    let mut hid = OutBuf::<u32>::fuzzed(inp, n, 1, 16);
    let mut pts = OutBuf::<f32>::fuzzed(inp, n, 3, 16);
    let mut nrm = OutBuf::<f32>::fuzzed(inp, n, 3, 16);
    // SAFETY: every pointer is NULL or valid for the count/capacity passed with it.
    let s = unsafe {
        wf_crowd_read_hits(
            c,
            ib.ptr(),
            n,
            kinds.ptr(),
            kinds.capacity,
            hid.ptr(),
            hid.capacity,
            pts.ptr(),
            pts.capacity,
            nrm.ptr(),
            nrm.capacity,
        )
    };
    let what = "wf_crowd_read_hits";
    checked(s, what);
    if s == WfStatus::Ok {
        assert!(
            known && !c.is_null(),
            "{what}: OK for unknown ids or NULL crowd"
        );
        for b in [&mut kinds, &mut hid] {
            if b.is_null() {
                b.assert_untouched(what);
            } else {
                b.assert_written(n, what);
            }
        }
        for b in [&mut pts, &mut nrm] {
            if b.is_null() {
                b.assert_untouched(what);
            } else {
                b.assert_written(n, what);
            }
        }
    } else {
        kinds.assert_untouched(what);
        hid.assert_untouched(what);
        pts.assert_untouched(what);
        nrm.assert_untouched(what);
    }
}

fn read_velocities(inp: &mut Input, c: *const WfCrowd, m: &Model) {
    let (mut ib, known, bad_ids) = read_ids(inp, m);
    let n = ib.count;
    let mut vel = OutBuf::<f32>::fuzzed(inp, n, 3, 16);
    // SAFETY: every pointer is NULL or valid for the count/capacity passed with it.
    let s = unsafe { wf_crowd_read_velocities(c, ib.ptr(), n, vel.ptr(), vel.capacity) };
    let what = "wf_crowd_read_velocities";
    checked(s, what);
    if s == WfStatus::Ok {
        assert!(
            known && !c.is_null() && !bad_ids,
            "{what}: OK for unknown, NULL or misaligned ids or a NULL crowd"
        );
        assert!(!vel.is_null() || n == 0, "{what}: OK with NULL output");
        if !vel.is_null() {
            let v = vel.assert_written(n, what);
            assert!(v.iter().all(|x| x.is_finite()), "{what}: {v:?}");
        }
    } else {
        vel.assert_untouched(what);
    }
}

fn capacity(inp: &mut Input) -> usize {
    match inp.byte() {
        0..=3 => 0,
        4..=7 => MAX_CAPACITY + 1,
        8..=11 => HUGE_COUNTS[inp.upto(HUGE_COUNTS.len() - 1)],
        b => 1 + (b as usize % 48),
    }
}

/// The crowd's settings the fuzzer has set: the route cache cap, the route budget and the
/// SIMD cap.
struct Knobs {
    route_cache: usize,
    route_budget: usize,
    simd: u32,
}

/// The crowd handle, or NULL by chance.
fn maybe_null(inp: &mut Input, c: *mut WfCrowd) -> *mut WfCrowd {
    if inp.chance(32) {
        core::ptr::null_mut()
    } else {
        c
    }
}

fn count(inp: &mut Input, c: *mut WfCrowd, m: &Model) {
    let h = maybe_null(inp, c);
    let mut n = OutOne::<usize>::new(inp.chance(16));
    // SAFETY: h NULL or live; n NULL or one usize.
    let s = checked(
        unsafe { wf_crowd_agent_count(h, n.ptr()) },
        "wf_crowd_agent_count",
    );
    if s == WfStatus::Ok {
        assert_eq!(n.get(), m.agents.len(), "wf_crowd_agent_count");
    } else {
        n.assert_untouched("wf_crowd_agent_count");
    }
}

/// A setting of the crowd set through `set` (named `name`, accepting 1..=`max`) and read back
/// through `get`: set to a hostile value (0, 1, in range, `max` + 1, huge), then read. Only
/// 1..=`max` on a live crowd is accepted, and the read gives the last accepted value, `known`.
fn setting(
    inp: &mut Input,
    c: *mut WfCrowd,
    name: &str,
    (set, get): (SetSize, GetSize),
    max: usize,
    known: &mut usize,
) {
    let h = maybe_null(inp, c);
    let v = match inp.byte() % 6 {
        0 => 0,
        1 => 1,
        2 => max + 1,
        3 => usize::MAX,
        4 => inp.u32() as usize,
        _ => 1 + inp.upto(max - 1),
    };
    // SAFETY: h NULL or live, used by this thread only.
    let s = checked(unsafe { set(h, v) }, name);
    let valid = !h.is_null() && (1..=max).contains(&v);
    assert_eq!(s == WfStatus::Ok, valid, "set {name}({v}): {s:?}");
    if valid {
        *known = v;
    }
    let h = maybe_null(inp, c);
    let mut out = OutOne::<usize>::new(inp.chance(16));
    // SAFETY: h NULL or live; out NULL or one usize.
    let s = checked(unsafe { get(h, out.ptr()) }, name);
    if s == WfStatus::Ok {
        assert_eq!(out.get(), *known, "read {name}");
    } else {
        out.assert_untouched(name);
    }
}

/// A crowd setter taking a `size_t`.
type SetSize = unsafe extern "C" fn(*mut WfCrowd, usize) -> WfStatus;
/// A crowd getter writing a `size_t`.
type GetSize = unsafe extern "C" fn(*const WfCrowd, *mut usize) -> WfStatus;

/// The route cache cap (1..=512) and the route budget (1..=64), each set to a hostile value
/// and read back; and at times a bake of the planner's grid.
fn route_cache(inp: &mut Input, c: *mut WfCrowd, k: &mut Knobs) {
    let cache = (
        wf_crowd_set_route_cache as SetSize,
        wf_crowd_route_cache as GetSize,
    );
    setting(inp, c, "route cache", cache, 512, &mut k.route_cache);
    let budget = (
        wf_crowd_set_route_budget as SetSize,
        wf_crowd_route_budget as GetSize,
    );
    setting(inp, c, "route budget", budget, 64, &mut k.route_budget);
    // Baked at any time (as at a level's load): refused only for a NULL handle.
    if inp.chance(64) {
        let h = maybe_null(inp, c);
        // SAFETY: h NULL or live.
        let s = checked(unsafe { wf_crowd_bake_routes(h) }, "wf_crowd_bake_routes");
        assert_eq!(s == WfStatus::Ok, !h.is_null(), "wf_crowd_bake_routes: {s:?}");
    }
}

/// Caps the lane kernels at a hostile value (the three levels, 3, huge), then reads the
/// level in use: only 0..=2 on a live crowd is accepted, and the level never exceeds the last
/// accepted cap.
fn simd(inp: &mut Input, c: *mut WfCrowd, k: &mut Knobs) {
    let h = maybe_null(inp, c);
    let v = match inp.byte() % 6 {
        0..=2 => inp.byte() as u32 % 3,
        3 => 3,
        4 => u32::MAX,
        _ => inp.u32(),
    };
    // SAFETY: h NULL or live, used by this thread only.
    let s = checked(unsafe { wf_crowd_set_simd(h, v) }, "wf_crowd_set_simd");
    let valid = !h.is_null() && v <= 2;
    assert_eq!(s == WfStatus::Ok, valid, "wf_crowd_set_simd({v}): {s:?}");
    if valid {
        k.simd = v;
    }
    let h = maybe_null(inp, c);
    let mut out = OutOne::<u32>::new(inp.chance(16));
    // SAFETY: h NULL or live; out NULL or one u32.
    let s = checked(unsafe { wf_crowd_simd(h, out.ptr()) }, "wf_crowd_simd");
    if s == WfStatus::Ok {
        assert!(
            out.get() <= k.simd,
            "wf_crowd_simd {} above the cap {}",
            out.get(),
            k.simd
        );
    } else {
        out.assert_untouched("wf_crowd_simd");
    }
}

use wayfarer::crowd::MAX_CAPACITY;

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let cap = capacity(&mut inp);
    let mut out = OutHandle::<WfCrowd>::new(inp.chance(4));
    // SAFETY: out is NULL or one pointer.
    let s = checked(unsafe { wf_crowd_new(cap, out.ptr()) }, "wf_crowd_new");
    let Some(c) = out.take(s, "wf_crowd_new") else {
        assert!(
            cap > MAX_CAPACITY || out.ptr().is_null(),
            "wf_crowd_new({cap}) failed: {s:?}"
        );
        return;
    };
    assert!(
        cap <= MAX_CAPACITY,
        "wf_crowd_new({cap}) OK above MAX_CAPACITY"
    );
    let mut m = Model::default();
    let mut knobs = Knobs {
        route_cache: 512,
        route_budget: 4,
        simd: 2,
    };
    for _ in 0..32 {
        match inp.byte() % 8 {
            0..=3 => {
                // SAFETY: c is live and used by this thread only.
                let (what, s) = unsafe { mutate(&mut inp, &[c], &mut m) };
                if what == "wf_crowd_add_agent" && s == WfStatus::InvalidCount {
                    assert!(
                        m.agents.len() >= cap,
                        "add_agent: full at {} of {cap}",
                        m.agents.len()
                    );
                }
            }
            4 => {
                let dt = dt(&mut inp);
                let threads = match inp.byte() {
                    0..=7 => u32::MAX,
                    8..=15 => inp.u32(),
                    b => b as u32 % 9,
                };
                // SAFETY: c is live and used by this thread only.
                let s = checked(unsafe { wf_crowd_step(c, dt, threads) }, "wf_crowd_step");
                if s == WfStatus::Ok {
                    assert!(usable(dt) && dt >= 0.0, "wf_crowd_step: OK for dt {dt}");
                }
                // SAFETY: c is live.
                unsafe {
                    drain_events(c, &mut m);
                    read_all(c, &m.agents)
                };
            }
            5 => read_agents(&mut inp, c, &m),
            6 => read_hits(&mut inp, c, &m),
            _ => match inp.byte() % 4 {
                0 => count(&mut inp, c, &m),
                1 => route_cache(&mut inp, c, &mut knobs),
                2 => read_velocities(&mut inp, c, &m),
                _ => simd(&mut inp, c, &mut knobs),
            },
        }
        if inp.is_empty() {
            break;
        }
    }
    // SAFETY: c is live and freed once; NULL is a no-op.
    unsafe {
        wf_crowd_free(c);
        wf_crowd_free(core::ptr::null_mut());
    }
});
