//! Schedule sets through the C ABI: fuzzed sequences of `wf_schedule_set_new / add_path /
//! add_npc / add_npc_simple / npc_count / evaluate / evaluate_times / evaluate_hinted /
//! evaluate_times_hinted / crossings / free`, with hostile key times (NaN, ±Inf, equal,
//! decreasing, subnormal gaps, ±1e300), distances, ease flags, wrap modes, path indices and
//! world times, paths freed right after being added (the set holds a copy), and hint arrays
//! full of garbage.
//!
//! Checked: never a panic; failures write nothing (crossings: only `*out_count` on
//! `BUFFER_TOO_SMALL`, and then it exceeds the capacity); OK writes exactly one value per NPC,
//! all finite, forwards of unit length, states in 0..=3; hinted evaluation is bit-identical to
//! the stateless one; crossing events name existing NPCs and keys with direction ±1.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wayfarer::ffi::timeline::*;
use wayfarer::ffi::WfStatus;
use wayfarer::timeline::MIN_LEG_SECONDS;
use wf_fuzz::*;

const MAX_KEYS: usize = 10;

struct Set {
    handle: *mut WfScheduleSet,
    path_lengths: Vec<f32>,
    /// Key count of each NPC.
    npc_keys: Vec<usize>,
}

fn key_times(inp: &mut Input, n: usize) -> Vec<f64> {
    let mut t = match inp.byte() {
        0..=15 => inp.any_f64(),
        b => b as f64 - 64.0,
    };
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        v.push(t);
        let gap = match inp.byte() {
            0 => 0.0,
            1 => -1.0,
            2 => 5.0e-324,
            3 => 1.0e-300,
            4 => 1.0e-9,
            5 => 1.0e300,
            6 => inp.any_f64(),
            b => b as f64 / 16.0,
        };
        t += gap;
    }
    if !v.is_empty() && inp.chance(16) {
        let i = inp.upto(v.len() - 1);
        v[i] = SPECIAL_F64[inp.upto(SPECIAL_F64.len() - 1)];
    }
    v
}

fn world_time(inp: &mut Input) -> f64 {
    match inp.byte() {
        0..=31 => inp.any_f64(),
        b => (b as f64 - 40.0) * 0.37,
    }
}

fn pick_set(inp: &mut Input, sets: &[Set]) -> Option<usize> {
    if sets.is_empty() || inp.chance(8) {
        None
    } else {
        Some(inp.upto(sets.len() - 1))
    }
}

fn handle(sets: &[Set], i: Option<usize>) -> *mut WfScheduleSet {
    i.map_or(core::ptr::null_mut(), |i| sets[i].handle)
}

fn npc_count(set: *const WfScheduleSet) -> usize {
    let mut n = usize::MAX;
    // SAFETY: a live set; n is one usize.
    let s = unsafe { wf_schedule_set_npc_count(set, &mut n) };
    assert_eq!(s, WfStatus::Ok, "wf_schedule_set_npc_count");
    n
}

/// The four optional per-NPC outputs, fuzzed.
struct Outs {
    pos: OutBuf<f32>,
    fwd: OutBuf<f32>,
    vel: OutBuf<f32>,
    states: OutBuf<u32>,
}

impl Outs {
    fn new(inp: &mut Input, n: usize) -> Self {
        // Each output NULL one time in four: the positions-only evaluation (no forwards, no
        // velocities) is a separate code path.
        fn one<T: Elem>(inp: &mut Input, n: usize, per: usize) -> OutBuf<T> {
            if inp.chance(64) {
                OutBuf::null(n, per)
            } else {
                OutBuf::fuzzed(inp, n, per, n + 4)
            }
        }
        Self {
            pos: one(inp, n, 3),
            fwd: one(inp, n, 3),
            vel: one(inp, n, 3),
            states: one(inp, n, 1),
        }
    }

    /// Exact-size, non-NULL outputs (for comparisons).
    fn exact(n: usize) -> Self {
        Self {
            pos: OutBuf::new(n, 3, Mode::Valid),
            fwd: OutBuf::new(n, 3, Mode::Valid),
            vel: OutBuf::new(n, 3, Mode::Valid),
            states: OutBuf::new(n, 1, Mode::Valid),
        }
    }

    /// Checks the contract after a call; returns the written values of the non-NULL outputs.
    fn check(&mut self, s: WfStatus, n: usize, what: &str) -> Vec<Vec<u32>> {
        checked(s, what);
        let mut written = Vec::new();
        if s != WfStatus::Ok {
            self.pos.assert_untouched(what);
            self.fwd.assert_untouched(what);
            self.vel.assert_untouched(what);
            self.states.assert_untouched(what);
            return written;
        }
        for (b, name) in [
            (&mut self.pos, "positions"),
            (&mut self.fwd, "forwards"),
            (&mut self.vel, "velocities"),
        ] {
            if b.is_null() {
                b.assert_untouched(what);
                written.push(Vec::new());
            } else {
                let v = b.assert_written(n, what);
                if name == "forwards" {
                    for c in v.chunks(3) {
                        let l = (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt();
                        assert!((l - 1.0).abs() < 1e-3, "{what}: forward {c:?} not unit");
                    }
                }
                written.push(v.iter().map(|x| x.to_bits()).collect());
            }
        }
        if self.states.is_null() {
            self.states.assert_untouched(what);
            written.push(Vec::new());
        } else {
            let v = self.states.assert_written(n, what);
            assert!(
                v.iter().all(|&x| x <= 3),
                "{what}: state outside 0..=3: {v:?}"
            );
            written.push(v);
        }
        written
    }
}

fn evaluate(set: *const WfScheduleSet, time: f64, o: &mut Outs) -> WfStatus {
    // SAFETY: set is NULL or live; every output is NULL or valid for its capacity.
    unsafe {
        wf_schedule_set_evaluate(
            set,
            time,
            o.pos.ptr(),
            o.pos.capacity,
            o.fwd.ptr(),
            o.fwd.capacity,
            o.vel.ptr(),
            o.vel.capacity,
            o.states.ptr(),
            o.states.capacity,
        )
    }
}

fn evaluate_times(set: *const WfScheduleSet, t: &mut InBuf<f64>, o: &mut Outs) -> WfStatus {
    // SAFETY: as above; t is NULL or valid for its count.
    unsafe {
        wf_schedule_set_evaluate_times(
            set,
            t.ptr(),
            t.count,
            o.pos.ptr(),
            o.pos.capacity,
            o.fwd.ptr(),
            o.fwd.capacity,
            o.vel.ptr(),
            o.vel.capacity,
            o.states.ptr(),
            o.states.capacity,
        )
    }
}

/// Same as the stateless call, written only where both succeed: hinted output must be
/// bit-identical.
#[track_caller]
fn assert_same(a: &[Vec<u32>], b: &[Vec<u32>], what: &str) {
    for (x, y) in a.iter().zip(b) {
        if !x.is_empty() && !y.is_empty() {
            assert_eq!(x, y, "{what}: differs from the stateless evaluation");
        }
    }
}

fn one_op(inp: &mut Input, sets: &mut Vec<Set>) {
    match inp.byte() % 11 {
        0 => {
            if sets.len() < 2 {
                let mut out = OutHandle::<WfScheduleSet>::new(inp.chance(8));
                // SAFETY: out is NULL or one pointer.
                let s = unsafe { wf_schedule_set_new(out.ptr()) };
                checked(s, "wf_schedule_set_new");
                if let Some(h) = out.take(s, "wf_schedule_set_new") {
                    sets.push(Set {
                        handle: h,
                        path_lengths: Vec::new(),
                        npc_keys: Vec::new(),
                    });
                }
            }
        }
        1 => {
            let si = pick_set(inp, sets);
            let path = if inp.chance(16) { None } else { path::new(inp) };
            let mut out = OutOne::<u32>::new(inp.chance(32));
            // SAFETY: set and path are NULL or live; out is NULL or one u32.
            let s = unsafe {
                wf_schedule_set_add_path(
                    handle(sets, si),
                    path.unwrap_or(core::ptr::null_mut()),
                    out.ptr(),
                )
            };
            let what = "wf_schedule_set_add_path";
            checked(s, what);
            if s == WfStatus::Ok {
                let set = &mut sets[si.expect("OK with a NULL set")];
                let p = path.expect("OK with a NULL path");
                assert!(!out.ptr().is_null(), "{what}: OK with a NULL out_path_index");
                let idx = out.assert_written(what);
                if !out.ptr().is_null() {
                    assert_eq!(idx as usize, set.path_lengths.len(), "{what}: index");
                }
                let mut len = 0.0f32;
                // SAFETY: p is live.
                assert_eq!(unsafe { wf_path_length(p, &mut len) }, WfStatus::Ok);
                set.path_lengths.push(len);
            } else {
                out.assert_untouched(what);
            }
            // The set holds a copy: the path may go right away.
            // SAFETY: NULL or a live path, freed once.
            unsafe { wf_path_free(path.unwrap_or(core::ptr::null_mut())) };
        }
        2 | 3 => {
            let si = pick_set(inp, sets);
            let paths = si.map_or(0, |i| sets[i].path_lengths.len());
            let path_index = if paths > 0 && inp.chance(240) {
                inp.upto(paths - 1) as u32
            } else {
                inp.u32() % 4
            };
            let length = si
                .and_then(|i| sets[i].path_lengths.get(path_index as usize).copied())
                .unwrap_or(1.0);
            let n = if inp.chance(16) {
                inp.upto(1)
            } else {
                2 + inp.upto(MAX_KEYS - 2)
            };
            let ts = key_times(inp, n);
            let mut ds: Vec<f32> = (0..n)
                .map(|_| match inp.byte() {
                    0..=7 => inp.any_f32(),
                    b => length * ((b - 8) % 125) as f32 / 124.0,
                })
                .collect();
            inp.poison(&mut ds);
            let (mut tb, mut db) = (
                InBuf::new(&ts, 1, Mode::Valid),
                InBuf::new(&ds, 1, Mode::Valid),
            );
            let ease: Vec<u32> = (0..n.saturating_sub(1))
                .map(|_| {
                    if inp.chance(8) {
                        inp.u32()
                    } else {
                        inp.byte() as u32 % 4
                    }
                })
                .collect();
            let emode = inp.mode();
            let mut eb = if emode == Mode::Null || inp.chance(64) {
                InBuf::null(0)
            } else {
                InBuf::new(&ease, 1, emode)
            };
            let wrap = if inp.chance(8) {
                inp.u32()
            } else {
                inp.byte() as u32 % 3
            };
            let mut out = OutOne::<u32>::new(inp.chance(32));
            // SAFETY: every pointer is NULL or valid for its count.
            let s = unsafe {
                wf_schedule_set_add_npc(
                    handle(sets, si),
                    path_index,
                    tb.ptr(),
                    db.ptr(),
                    n,
                    eb.ptr(),
                    eb.count,
                    wrap,
                    out.ptr(),
                )
            };
            let what = "wf_schedule_set_add_npc";
            checked(s, what);
            if s == WfStatus::Ok {
                let set = &mut sets[si.expect("OK with a NULL set")];
                let bad = n < 2
                    || ts.iter().any(|t| !t.is_finite())
                    || ts.windows(2).any(|w| !(w[1] - w[0] >= MIN_LEG_SECONDS))
                    || ds.iter().any(|&d| !usable(d))
                    || out.ptr().is_null()
                    || wrap > 2
                    || path_index as usize >= set.path_lengths.len()
                    || emode == Mode::Misaligned && eb.count > 0;
                assert!(!bad, "{what}: OK despite invalid input");
                let idx = out.assert_written(what);
                if !out.ptr().is_null() {
                    assert_eq!(idx as usize, set.npc_keys.len(), "{what}: index");
                }
                set.npc_keys.push(n);
            } else {
                out.assert_untouched(what);
            }
        }
        4 => {
            let si = pick_set(inp, sets);
            let paths = si.map_or(0, |i| sets[i].path_lengths.len());
            let path_index = if paths > 0 && inp.chance(240) {
                inp.upto(paths - 1) as u32
            } else {
                inp.u32() % 4
            };
            let t0 = world_time(inp);
            let t1 = if inp.chance(32) {
                world_time(inp)
            } else {
                t0 + inp.byte() as f64 / 8.0
            };
            let wrap = if inp.chance(8) {
                inp.u32()
            } else {
                inp.byte() as u32 % 3
            };
            let mut out = OutOne::<u32>::new(inp.chance(32));
            // SAFETY: set NULL or live, out NULL or one u32.
            let s = unsafe {
                wf_schedule_set_add_npc_simple(
                    handle(sets, si),
                    path_index,
                    t0,
                    t1,
                    wrap,
                    out.ptr(),
                )
            };
            let what = "wf_schedule_set_add_npc_simple";
            checked(s, what);
            if s == WfStatus::Ok {
                let set = &mut sets[si.expect("OK with a NULL set")];
                let bad = !t0.is_finite()
                    || !t1.is_finite()
                    || !(t1 - t0 >= MIN_LEG_SECONDS)
                    || out.ptr().is_null()
                    || wrap > 2
                    || path_index as usize >= set.path_lengths.len();
                assert!(!bad, "{what}: OK despite invalid input");
                let idx = out.assert_written(what);
                if !out.ptr().is_null() {
                    assert_eq!(idx as usize, set.npc_keys.len(), "{what}: index");
                }
                set.npc_keys.push(2);
            } else {
                out.assert_untouched(what);
            }
        }
        5 => {
            let si = pick_set(inp, sets);
            let mut out = OutOne::<usize>::new(inp.chance(32));
            // SAFETY: set NULL or live, out NULL or one usize.
            let s = unsafe { wf_schedule_set_npc_count(handle(sets, si), out.ptr()) };
            checked(s, "wf_schedule_set_npc_count");
            if s == WfStatus::Ok {
                assert_eq!(
                    out.assert_written("wf_schedule_set_npc_count"),
                    sets[si.unwrap()].npc_keys.len()
                );
            } else {
                out.assert_untouched("wf_schedule_set_npc_count");
            }
        }
        6 | 7 => {
            let si = pick_set(inp, sets);
            let h = handle(sets, si);
            let n = si.map_or(0, |i| sets[i].npc_keys.len());
            let time = world_time(inp);
            let hinted = inp.bool();
            let mut o = Outs::new(inp, n);
            let what = if hinted {
                "wf_schedule_set_evaluate_hinted"
            } else {
                "wf_schedule_set_evaluate"
            };
            let s = if hinted {
                let hn = if inp.chance(16) {
                    inp.upto(2 * n + 2)
                } else {
                    2 * n
                };
                let garbage: Vec<u32> = (0..hn)
                    .map(|_| if inp.chance(128) { 0 } else { inp.u32() })
                    .collect();
                let mut hints = OutBuf::<u32>::new(
                    hn,
                    1,
                    if inp.chance(8) {
                        Mode::Misaligned
                    } else {
                        Mode::Valid
                    },
                );
                let p = hints.ptr();
                for (i, g) in garbage.iter().enumerate() {
                    // SAFETY: hints holds hn u32 (possibly at an odd address).
                    unsafe { p.add(i).write_unaligned(*g) };
                }
                // SAFETY: as for evaluate, plus hints valid for hn reads and writes.
                unsafe {
                    wf_schedule_set_evaluate_hinted(
                        h,
                        time,
                        hints.ptr(),
                        hn,
                        o.pos.ptr(),
                        o.pos.capacity,
                        o.fwd.ptr(),
                        o.fwd.capacity,
                        o.vel.ptr(),
                        o.vel.capacity,
                        o.states.ptr(),
                        o.states.capacity,
                    )
                }
            } else {
                evaluate(h, time, &mut o)
            };
            let got = o.check(s, n, what);
            if s == WfStatus::Ok {
                assert!(
                    time.is_finite() && si.is_some(),
                    "{what}: OK despite invalid input"
                );
                assert_eq!(npc_count(h), n);
                let mut reference = Outs::exact(n);
                assert_eq!(evaluate(h, time, &mut reference), WfStatus::Ok);
                let want = reference.check(WfStatus::Ok, n, "wf_schedule_set_evaluate");
                assert_same(&got, &want, what);
            }
        }
        8 => {
            let si = pick_set(inp, sets);
            let h = handle(sets, si);
            let n = si.map_or(0, |i| sets[i].npc_keys.len());
            let tn = if inp.chance(16) { inp.upto(n + 2) } else { n };
            let ts: Vec<f64> = (0..tn).map(|_| world_time(inp)).collect();
            let mode = inp.mode();
            let mut tb = if mode == Mode::Null {
                InBuf::null(tn)
            } else {
                InBuf::new(&ts, 1, mode)
            };
            let mut o = Outs::new(inp, n);
            let s = evaluate_times(h, &mut tb, &mut o);
            let what = "wf_schedule_set_evaluate_times";
            o.check(s, n, what);
            if s == WfStatus::Ok {
                let bad = ts.iter().any(|t| !t.is_finite())
                    || tn != n
                    || si.is_none()
                    || (mode != Mode::Valid && tn > 0);
                assert!(!bad, "{what}: OK despite invalid input");
            }
        }
        9 => {
            let si = pick_set(inp, sets);
            let h = handle(sets, si);
            let npcs = si.map_or(0, |i| sets[i].npc_keys.len());
            let (a, b) = (world_time(inp), world_time(inp));
            let cap = inp.upto(48);
            let mut npc_out = OutBuf::<u32>::new(
                cap,
                1,
                if inp.chance(16) {
                    Mode::Null
                } else {
                    Mode::Valid
                },
            );
            let mut key_out = OutBuf::<u32>::new(
                cap,
                1,
                if inp.chance(16) {
                    Mode::Null
                } else {
                    Mode::Valid
                },
            );
            let mut dir_out = OutBuf::<i32>::new(
                cap,
                1,
                if inp.chance(16) {
                    Mode::Null
                } else {
                    Mode::Valid
                },
            );
            let mut count = OutOne::<usize>::new(inp.chance(8));
            // SAFETY: set NULL or live; the three arrays NULL or valid for cap elements.
            let s = unsafe {
                wf_schedule_set_crossings(
                    h,
                    a,
                    b,
                    npc_out.ptr(),
                    key_out.ptr(),
                    dir_out.ptr(),
                    cap,
                    count.ptr(),
                )
            };
            let what = "wf_schedule_set_crossings";
            checked(s, what);
            match s {
                WfStatus::Ok => {
                    assert!(
                        a.is_finite() && b.is_finite() && si.is_some(),
                        "{what}: OK despite invalid input"
                    );
                    let c = count.assert_written(what);
                    assert!(c <= cap, "{what}: count {c} > capacity {cap}");
                    let keys = &sets[si.unwrap()].npc_keys;
                    let nv = if npc_out.is_null() {
                        npc_out.assert_untouched(what);
                        vec![]
                    } else {
                        npc_out.assert_written(c, what)
                    };
                    let kv = if key_out.is_null() {
                        key_out.assert_untouched(what);
                        vec![]
                    } else {
                        key_out.assert_written(c, what)
                    };
                    let dv = if dir_out.is_null() {
                        dir_out.assert_untouched(what);
                        vec![]
                    } else {
                        dir_out.assert_written(c, what)
                    };
                    for &x in &nv {
                        assert!((x as usize) < npcs, "{what}: npc {x} of {npcs}");
                    }
                    if !nv.is_empty() && !kv.is_empty() {
                        for (&npc, &k) in nv.iter().zip(&kv) {
                            assert!(
                                (k as usize) < keys[npc as usize],
                                "{what}: key {k} of npc {npc}"
                            );
                        }
                    }
                    assert!(
                        dv.iter().all(|&d| d == 1 || d == -1),
                        "{what}: directions {dv:?}"
                    );
                }
                WfStatus::BufferTooSmall if !count.ptr().is_null() => {
                    let c = count.get();
                    assert!(
                        c > cap && !count.get().is_sentinel(),
                        "{what}: BUFFER_TOO_SMALL with count {c} for capacity {cap}"
                    );
                    npc_out.assert_untouched(what);
                    key_out.assert_untouched(what);
                    dir_out.assert_untouched(what);
                }
                _ => {
                    count.assert_untouched(what);
                    npc_out.assert_untouched(what);
                    key_out.assert_untouched(what);
                    dir_out.assert_untouched(what);
                }
            }
        }
        _ => {
            if let Some(i) = pick_set(inp, sets) {
                let set = sets.swap_remove(i);
                // SAFETY: a live set, freed once and forgotten.
                unsafe { wf_schedule_set_free(set.handle) };
            } else {
                // SAFETY: NULL is a no-op.
                unsafe { wf_schedule_set_free(core::ptr::null_mut()) };
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let mut sets = Vec::new();
    for _ in 0..16 {
        one_op(&mut inp, &mut sets);
        if inp.is_empty() {
            break;
        }
    }
    for s in sets {
        // SAFETY: every remaining set is live and freed once.
        unsafe { wf_schedule_set_free(s.handle) };
    }
});
