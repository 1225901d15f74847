//! Path handles through the C ABI: fuzzed sequences of `wf_path_new_*` / `wf_path_length` /
//! `wf_path_at_distances` / `wf_path_nearest` / `wf_path_free` on up to four live paths, with NULL
//! handles, hostile distances and query points, and every buffer shape of `curve_ffi`.
//!
//! Checked: never a panic; failures write nothing; OK writes exactly `count` finite
//! positions (and unit forwards, distances within [0, length], nearest points on the path's
//! bounding box); paths are freed exactly once (LeakSanitizer reports any leak).
#![no_main]

use libfuzzer_sys::fuzz_target;
use wayfarer::ffi::timeline::*;
use wayfarer::ffi::WfStatus;
use wf_fuzz::*;

const MAX_QUERIES: usize = 32;

struct Live {
    handle: *mut WfPath,
    length: f32,
}

/// A live path or NULL (sometimes).
fn pick(inp: &mut Input, live: &[Live]) -> (*const WfPath, Option<f32>) {
    if live.is_empty() || inp.chance(8) {
        return (core::ptr::null(), None);
    }
    let l = &live[inp.upto(live.len() - 1)];
    (l.handle, Some(l.length))
}

fn length_of(handle: *const WfPath) -> f32 {
    let mut len = f32::NAN;
    // SAFETY: handle is live; len is one float.
    let s = unsafe { wf_path_length(handle, &mut len) };
    assert_eq!(s, WfStatus::Ok, "wf_path_length on a live path");
    assert!(len.is_finite() && len >= 0.0, "path length {len}");
    len
}

fn distances(inp: &mut Input, n: usize, length: f32) -> Vec<f32> {
    let mut v: Vec<f32> = (0..n)
        .map(|_| match inp.byte() {
            0..=31 => {
                let scale = inp.scale();
                inp.nice_f32(scale)
            }
            b => length * (b - 32) as f32 / 223.0,
        })
        .collect();
    inp.poison(&mut v);
    v
}

fn one_op(inp: &mut Input, live: &mut Vec<Live>) {
    match inp.byte() % 6 {
        0 | 1 => {
            if live.len() < 4 {
                if let Some(h) = path::new(inp) {
                    let length = length_of(h);
                    live.push(Live { handle: h, length });
                }
            }
        }
        2 => {
            let (h, len) = pick(inp, live);
            let mut out = OutOne::<f32>::new(inp.chance(8));
            // SAFETY: h is NULL or live; out is NULL or one float.
            let s = unsafe { wf_path_length(h, out.ptr()) };
            checked(s, "wf_path_length");
            if s == WfStatus::Ok {
                assert_eq!(out.assert_written("wf_path_length"), len.unwrap());
            } else {
                out.assert_untouched("wf_path_length");
            }
        }
        3 => {
            let (h, len) = pick(inp, live);
            let n = inp.upto(MAX_QUERIES);
            let mode = inp.mode();
            let ds = distances(inp, n, len.unwrap_or(1.0));
            let bad_d = ds.iter().any(|&d| !usable(d)) || (mode != Mode::Valid && n > 0);
            let mut d = if mode == Mode::Null {
                InBuf::null(n)
            } else {
                InBuf::new(&ds, 1, mode)
            };
            let mut pos = OutBuf::<f32>::fuzzed(inp, n, 3, MAX_QUERIES + 4);
            let mut fwd = OutBuf::<f32>::fuzzed(inp, n, 3, MAX_QUERIES + 4);
            // SAFETY: every pointer is NULL or valid for the count/capacity passed with it.
            let s = unsafe {
                wf_path_at_distances(
                    h,
                    d.ptr(),
                    n,
                    pos.ptr(),
                    pos.capacity,
                    fwd.ptr(),
                    fwd.capacity,
                )
            };
            let what = "wf_path_at_distances";
            checked(s, what);
            if s == WfStatus::Ok {
                assert!(!bad_d && len.is_some(), "{what}: OK despite invalid input");
                pos.assert_written(n, what);
                if fwd.is_null() {
                    fwd.assert_untouched(what);
                } else {
                    let f = fwd.assert_written(n, what);
                    for c in f.chunks(3) {
                        let l = (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt();
                        assert!((l - 1.0).abs() < 1e-3, "{what}: forward {c:?} not unit");
                    }
                }
            } else {
                pos.assert_untouched(what);
                fwd.assert_untouched(what);
            }
        }
        4 => {
            let (h, len) = pick(inp, live);
            let n = inp.upto(MAX_QUERIES);
            let (mut q, bad_q) = array_in(inp, n, 3);
            let count = q.count;
            let mut dist = OutBuf::<f32>::fuzzed(inp, count, 1, MAX_QUERIES + 4);
            let mut pts = OutBuf::<f32>::fuzzed(inp, count, 3, MAX_QUERIES + 4);
            // SAFETY: as above.
            let s = unsafe {
                wf_path_nearest(
                    h,
                    q.ptr(),
                    count,
                    dist.ptr(),
                    dist.capacity,
                    pts.ptr(),
                    pts.capacity,
                )
            };
            let what = "wf_path_nearest";
            checked(s, what);
            if s == WfStatus::Ok {
                assert!(!bad_q && len.is_some(), "{what}: OK despite invalid input");
                let len = len.unwrap();
                for d in dist.assert_written(count, what) {
                    assert!(
                        (0.0..=len).contains(&d),
                        "{what}: distance {d} outside [0, {len}]"
                    );
                }
                if pts.is_null() {
                    pts.assert_untouched(what);
                } else {
                    pts.assert_written(count, what);
                }
            } else {
                dist.assert_untouched(what);
                pts.assert_untouched(what);
            }
        }
        _ => {
            if live.is_empty() || inp.chance(16) {
                // SAFETY: freeing NULL is documented as a no-op.
                unsafe { wf_path_free(core::ptr::null_mut()) };
            } else {
                let i = inp.upto(live.len() - 1);
                let l = live.swap_remove(i);
                // SAFETY: a live handle, freed once and then forgotten.
                unsafe { wf_path_free(l.handle) };
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let mut live = Vec::new();
    for _ in 0..8 {
        one_op(&mut inp, &mut live);
        if inp.is_empty() {
            break;
        }
    }
    for l in live {
        // SAFETY: every remaining handle is live and freed once.
        unsafe { wf_path_free(l.handle) };
    }
});
