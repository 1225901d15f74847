//! Every stateless curve export called like a hostile C caller would: arbitrary counts and
//! capacities (too small, exact, larger, huge with NULL), NULL and misaligned pointers,
//! floats that are NaN, ±Inf, subnormal or huge, out-of-range enums and degrees.
//!
//! Checked after every call: never `WF_STATUS_PANIC`; on failure every output is untouched; on
//! OK exactly the documented outputs are written and all of them are finite; a call that had
//! a NaN/Inf input it reads, an invalid pointer, a too-small count or an unknown enum value
//! does not return OK.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wayfarer::ffi::curve::*;
use wayfarer::ffi::WfStatus;
use wf_fuzz::*;

/// Largest arrays the target builds (keeps one execution well under a millisecond).
const MAX_POINTS: usize = 48;
const MAX_SAMPLES: usize = 300;

fn sample_count(inp: &mut Input) -> usize {
    match inp.byte() {
        0..=7 => inp.upto(1),
        8..=11 => HUGE_COUNTS[inp.upto(HUGE_COUNTS.len() - 1)],
        _ => 2 + inp.upto(MAX_SAMPLES - 2),
    }
}

fn spacing(inp: &mut Input) -> u32 {
    match inp.byte() {
        0..=5 => inp.u32(),
        b => (b & 1) as u32,
    }
}

/// Checks a call that writes `needed` points to `out` (and nothing else); `inputs` and
/// `scalars` describe the call in the failure message.
#[allow(clippy::too_many_arguments)]
fn check_sampled(
    status: WfStatus,
    out: &mut OutBuf<f32>,
    needed: usize,
    must_fail: bool,
    what: &str,
    inputs: &mut [&mut InBuf<f32>],
    scalars: &[f32],
) {
    checked(status, what);
    if status == WfStatus::Ok {
        assert!(!must_fail, "{what}: OK despite invalid input");
        let vals: Vec<Vec<f32>> = inputs.iter_mut().map(|b| b.values()).collect();
        out.assert_written_ctx(needed, what, &|| {
            format!("(inputs {vals:?}, scalars {scalars:?})")
        });
    } else {
        out.assert_untouched(what);
    }
}

/// Checks a length query.
fn check_length(status: WfStatus, out: &OutOne<f32>, must_fail: bool, what: &str) {
    checked(status, what);
    if status == WfStatus::Ok {
        assert!(!must_fail, "{what}: OK despite invalid input");
        let l = out.assert_written(what);
        assert!(l >= 0.0, "{what}: negative length {l}");
    } else {
        out.assert_untouched(what);
    }
}

fn one_call(inp: &mut Input) {
    match inp.byte() % 13 {
        0 => {
            let (mut p0, b0) = point_in(inp);
            let (mut p1, b1) = point_in(inp);
            let (mut m0, b2) = point_in(inp);
            let (mut m1, b3) = point_in(inp);
            let n = inp.upto(MAX_SAMPLES);
            let (mut ts, bt) = array_in(inp, n, 1);
            let count = ts.count;
            let mut pos = OutBuf::<f32>::fuzzed(inp, count, 3, MAX_SAMPLES + 8);
            let mut der = OutBuf::<f32>::fuzzed(inp, count, 3, MAX_SAMPLES + 8);
            // SAFETY: every pointer is NULL or valid for the count/capacity passed with it.
            let s = unsafe {
                wf_hermite_segment_eval(
                    p0.ptr(),
                    p1.ptr(),
                    m0.ptr(),
                    m1.ptr(),
                    ts.ptr(),
                    count,
                    pos.ptr(),
                    pos.capacity,
                    der.ptr(),
                    der.capacity,
                )
            };
            let what = "wf_hermite_segment_eval";
            checked(s, what);
            if s == WfStatus::Ok {
                assert!(
                    !(b0 || b1 || b2 || b3 || bt),
                    "{what}: OK despite invalid input"
                );
                pos.assert_written(count, what);
                if der.is_null() {
                    der.assert_untouched(what);
                } else {
                    der.assert_written(count, what);
                }
            } else {
                pos.assert_untouched(what);
                der.assert_untouched(what);
            }
        }
        1 => {
            let n = inp.upto(MAX_POINTS);
            let (mut pts, bp) = array_in(inp, n, 3);
            let tn = if inp.chance(16) {
                inp.upto(MAX_POINTS)
            } else {
                n
            };
            let (mut tan, bt) = array_in(inp, tn, 3);
            let sc = sample_count(inp);
            let sp = spacing(inp);
            let mut out = OutBuf::<f32>::fuzzed(inp, sc, 3, MAX_SAMPLES + 8);
            // SAFETY: as above.
            let s = unsafe {
                wf_hermite_spline_sample(
                    pts.ptr(),
                    pts.count,
                    tan.ptr(),
                    tan.count,
                    sc,
                    sp,
                    out.ptr(),
                    out.capacity,
                )
            };
            let bad = bp || bt || sc < 2 || sp > 1 || pts.count != tan.count || pts.count < 2;
            check_sampled(
                s,
                &mut out,
                sc,
                bad,
                "wf_hermite_spline_sample",
                &mut [&mut pts, &mut tan],
                &[],
            );
        }
        2 => {
            let n = inp.upto(MAX_POINTS);
            let (mut pts, bp) = array_in(inp, n, 3);
            let alpha = inp.unit_f32();
            let tension = inp.unit_f32();
            let sc = sample_count(inp);
            let sp = spacing(inp);
            let mut out = OutBuf::<f32>::fuzzed(inp, sc, 3, MAX_SAMPLES + 8);
            // SAFETY: as above.
            let s = unsafe {
                wf_catmull_rom_sample(
                    pts.ptr(),
                    pts.count,
                    alpha,
                    tension,
                    sc,
                    sp,
                    out.ptr(),
                    out.capacity,
                )
            };
            let bad = bp
                || !(0.0..=1.0).contains(&alpha)
                || !(0.0..=1.0).contains(&tension)
                || sc < 2
                || sp > 1
                || pts.count < 2;
            check_sampled(
                s,
                &mut out,
                sc,
                bad,
                "wf_catmull_rom_sample",
                &mut [&mut pts],
                &[alpha, tension],
            );
        }
        3 => {
            let n = inp.upto(MAX_POINTS);
            let (mut pts, bp) = array_in(inp, n, 3);
            let sc = sample_count(inp);
            let sp = spacing(inp);
            let mut out = OutBuf::<f32>::fuzzed(inp, sc, 3, MAX_SAMPLES + 8);
            // SAFETY: as above.
            let s = unsafe {
                wf_polyline_sample(pts.ptr(), pts.count, sc, sp, out.ptr(), out.capacity)
            };
            let bad = bp || sc < 2 || sp > 1 || pts.count < 2;
            check_sampled(
                s,
                &mut out,
                sc,
                bad,
                "wf_polyline_sample",
                &mut [&mut pts],
                &[sp as f32],
            );
        }
        4 => {
            let n = if inp.chance(16) {
                60 + inp.upto(10)
            } else {
                inp.upto(12)
            };
            let (mut pts, bp) = array_in(inp, n, 3);
            let sc = sample_count(inp);
            let sp = spacing(inp);
            let mut out = OutBuf::<f32>::fuzzed(inp, sc, 3, MAX_SAMPLES + 8);
            // SAFETY: as above.
            let s =
                unsafe { wf_bezier_sample(pts.ptr(), pts.count, sc, sp, out.ptr(), out.capacity) };
            let bad = bp || sc < 2 || sp > 1 || pts.count < 2 || pts.count > 65;
            check_sampled(
                s,
                &mut out,
                sc,
                bad,
                "wf_bezier_sample",
                &mut [&mut pts],
                &[sp as f32],
            );
        }
        5 => {
            let n = if inp.chance(16) {
                60 + inp.upto(10)
            } else {
                inp.upto(12)
            };
            let (mut pts, bp) = array_in(inp, n, 3);
            let tc = inp.upto(MAX_SAMPLES);
            let (mut ts, bt) = array_in(inp, tc, 1);
            let count = ts.count;
            let mut pos = OutBuf::<f32>::fuzzed(inp, count, 3, MAX_SAMPLES + 8);
            let mut der = OutBuf::<f32>::fuzzed(inp, count, 3, MAX_SAMPLES + 8);
            // SAFETY: as above.
            let s = unsafe {
                wf_bezier_eval(
                    pts.ptr(),
                    pts.count,
                    ts.ptr(),
                    count,
                    pos.ptr(),
                    pos.capacity,
                    der.ptr(),
                    der.capacity,
                )
            };
            let what = "wf_bezier_eval";
            checked(s, what);
            if s == WfStatus::Ok {
                let bad = bp || bt || pts.count < 2 || pts.count > 65;
                assert!(!bad, "{what}: OK despite invalid input");
                pos.assert_written(count, what);
                if der.is_null() {
                    der.assert_untouched(what);
                } else {
                    der.assert_written(count, what);
                }
            } else {
                pos.assert_untouched(what);
                der.assert_untouched(what);
            }
        }
        6 | 7 => {
            let is_length = inp.byte() & 1 == 1;
            let pieces = inp.upto(8);
            let (degs, bd) = degrees_in(inp, pieces);
            let total: u64 = 1 + degs.iter().map(|&d| d as u64).sum::<u64>();
            let n = if inp.chance(16) {
                inp.upto(MAX_POINTS)
            } else {
                (total as usize).min(8 * 65 + 1)
            };
            let (mut pts, bp) = array_in(inp, n, 3);
            let dmode = inp.mode();
            let mut dbuf: InBuf<u32> = if dmode == Mode::Null {
                InBuf::null(pieces)
            } else {
                InBuf::new(&degs, 1, dmode)
            };
            let bad = bd
                || bp
                || (dmode != Mode::Valid && pieces > 0)
                || pieces == 0
                || total != pts.count as u64;
            if is_length {
                let mut len = OutOne::<f32>::new(inp.chance(8));
                // SAFETY: as above.
                let s = unsafe {
                    wf_bezier_chain_length(pts.ptr(), pts.count, dbuf.ptr(), pieces, len.ptr())
                };
                check_length(s, &len, bad, "wf_bezier_chain_length");
            } else {
                let sc = sample_count(inp);
                let sp = spacing(inp);
                let mut out = OutBuf::<f32>::fuzzed(inp, sc, 3, MAX_SAMPLES + 8);
                // SAFETY: as above.
                let s = unsafe {
                    wf_bezier_chain_sample(
                        pts.ptr(),
                        pts.count,
                        dbuf.ptr(),
                        pieces,
                        sc,
                        sp,
                        out.ptr(),
                        out.capacity,
                    )
                };
                let bad = bad || sc < 2 || sp > 1;
                check_sampled(
                    s,
                    &mut out,
                    sc,
                    bad,
                    "wf_bezier_chain_sample",
                    &mut [&mut pts],
                    &degs.iter().map(|&d| d as f32).collect::<Vec<_>>(),
                );
            }
        }
        8 => {
            let (mut start, b0) = point_in(inp);
            let (mut vel, b1) = point_in(inp);
            let gravity = if inp.chance(200) {
                0.5 + inp.byte() as f32 / 8.0
            } else {
                inp.any_f32()
            };
            let ground = inp.any_f32();
            let restitution = if inp.chance(200) {
                inp.byte() as f32 / 255.0
            } else {
                inp.any_f32()
            };
            let bounces = match inp.byte() {
                0..=3 => inp.u32(),
                b => (b % 8) as u32,
            };
            let needed = (1 + 2 * (bounces as u64 + 1)) as usize;
            let mut out = OutBuf::<f32>::fuzzed(inp, needed.min(64), 3, 64);
            let mut count = OutOne::<usize>::new(inp.chance(8));
            // SAFETY: as above.
            let s = unsafe {
                wf_ballistic_bezier(
                    start.ptr(),
                    vel.ptr(),
                    gravity,
                    ground,
                    restitution,
                    bounces,
                    out.ptr(),
                    out.capacity,
                    count.ptr(),
                )
            };
            let what = "wf_ballistic_bezier";
            checked(s, what);
            if s == WfStatus::Ok {
                let bad = b0
                    || b1
                    || !usable(gravity)
                    || gravity <= 0.0
                    || !usable(ground)
                    || !(0.0..=1.0).contains(&restitution);
                assert!(!bad, "{what}: OK despite invalid input");
                let n = count.assert_written(what);
                if !count.ptr().is_null() {
                    assert_eq!(n, needed, "{what}: out_count");
                }
                let ctx = format!(
                    "{what}(start {:?}, velocity {:?}, gravity {gravity:e}, ground {ground:e}, \
                     restitution {restitution}, bounces {bounces})",
                    start.values(),
                    vel.values()
                );
                let pts = out.assert_written(needed, &ctx);
                assert!(
                    pts.iter().all(|&x| usable(x)),
                    "{ctx}: a control point outside the ±1e15 domain"
                );
            } else {
                out.assert_untouched(what);
                count.assert_untouched(what);
            }
        }
        9 => {
            let n = inp.upto(MAX_POINTS);
            let (mut pts, bp) = array_in(inp, n, 3);
            let tn = if inp.chance(16) {
                inp.upto(MAX_POINTS)
            } else {
                n
            };
            let (mut tan, bt) = array_in(inp, tn, 3);
            let mut len = OutOne::<f32>::new(inp.chance(8));
            // SAFETY: as above.
            let s = unsafe {
                wf_hermite_spline_length(pts.ptr(), pts.count, tan.ptr(), tan.count, len.ptr())
            };
            let bad = bp || bt || pts.count < 2 || pts.count != tan.count;
            check_length(s, &len, bad, "wf_hermite_spline_length");
        }
        10 => {
            let n = inp.upto(MAX_POINTS);
            let (mut pts, bp) = array_in(inp, n, 3);
            let alpha = inp.unit_f32();
            let tension = inp.unit_f32();
            let mut len = OutOne::<f32>::new(inp.chance(8));
            // SAFETY: as above.
            let s =
                unsafe { wf_catmull_rom_length(pts.ptr(), pts.count, alpha, tension, len.ptr()) };
            let bad = bp
                || pts.count < 2
                || !(0.0..=1.0).contains(&alpha)
                || !(0.0..=1.0).contains(&tension);
            check_length(s, &len, bad, "wf_catmull_rom_length");
        }
        11 => {
            let n = inp.upto(MAX_POINTS * 4);
            let (mut pts, bp) = array_in(inp, n, 3);
            let mut len = OutOne::<f32>::new(inp.chance(8));
            // SAFETY: as above.
            let s = unsafe { wf_polyline_length(pts.ptr(), pts.count, len.ptr()) };
            let bad = bp || pts.count < 2;
            check_length(s, &len, bad, "wf_polyline_length");
        }
        _ => {
            // The status strings: any code, never NULL.
            let code = inp.u32() as i32;
            let p = wayfarer::ffi::boundary::wf_status_str(code);
            assert!(!p.is_null());
            // SAFETY: wf_status_str returns a static NUL-terminated string.
            let s = unsafe { core::ffi::CStr::from_ptr(p) };
            assert!(!s.to_bytes().is_empty());
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    for _ in 0..4 {
        one_call(&mut inp);
        if inp.is_empty() {
            break;
        }
    }
});
