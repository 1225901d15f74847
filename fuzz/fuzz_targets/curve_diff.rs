//! Differential target: the f32 curve exports against f64 references written here from the
//! textbook formulas, within a stated error bound.
//!
//! - `wf_hermite_segment_eval`: positions and derivatives vs the Hermite basis in f64;
//!   bound `16 ε (|p0| + |p1| + |m0| + |m1|)` per component (ε = f32 epsilon).
//! - `wf_bezier_eval`: positions vs the Bernstein sum in f64, bound `4 (n + 1) ε M`;
//!   derivatives vs `n Σ B(n−1) ΔP`, bound `8 n (n + 1) ε M` (n = degree, M = largest
//!   coordinate magnitude).
//! - `wf_polyline_length`: vs the f64 sum of segment lengths; bound
//!   `4 ε L + 4 k ε M` (k = segments): f32 differences of coordinates of size M.
//! - `wf_polyline_sample` with arc-length spacing: sample i vs the f64 point at distance
//!   `i L / (n − 1)`; bound `1e-5 L + 8 k ε M`.
//! - `wf_bezier_chain_length`: vs 8-point Gauss–Legendre on 128 sub-intervals per piece in
//!   f64; bound `1e-4 L + 64 n ε M` (the library's adaptive quadrature promises ~1e-6).
//!
//! Inputs are finite and moderate (up to 1e6 in magnitude; hostile values are
//! `curve_ffi`'s job); only successful calls are compared.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wayfarer::ffi::curve::*;
use wayfarer::ffi::WfStatus;
use wf_fuzz::*;

const EPS: f64 = f32::EPSILON as f64;

type V = [f64; 3];

fn v(p: &[f32]) -> V {
    [p[0] as f64, p[1] as f64, p[2] as f64]
}
fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn mul(a: V, s: f64) -> V {
    [a[0] * s, a[1] * s, a[2] * s]
}
fn norm(a: V) -> f64 {
    (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt()
}
fn max_abs(p: &[f32]) -> f64 {
    p.iter().fold(0.0f64, |m, &x| m.max((x as f64).abs()))
}

#[track_caller]
fn assert_close(got: &[f32], want: V, tol: f64, what: &str) {
    for k in 0..3 {
        let e = (got[k] as f64 - want[k]).abs();
        assert!(
            e <= tol,
            "{what}: component {k}: got {} want {} (error {e:e} > bound {tol:e})",
            got[k],
            want[k]
        );
    }
}

/// Moderate finite coordinates: fixed point times a scale in 1e-3..1e3.
fn coords(inp: &mut Input, n: usize) -> Vec<f32> {
    let scale = [1.0f32, 1.0, 0.001, 1000.0][inp.upto(3)];
    (0..n).map(|_| inp.nice_f32(scale)).collect()
}

fn binom(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

fn bernstein(points: &[V], t: f64) -> V {
    let n = points.len() - 1;
    let mut acc = [0.0; 3];
    for (i, p) in points.iter().enumerate() {
        let b = binom(n, i) * t.powi(i as i32) * (1.0 - t).powi((n - i) as i32);
        acc = add(acc, mul(*p, b));
    }
    acc
}

fn bezier_derivative(points: &[V], t: f64) -> V {
    let n = points.len() - 1;
    let diffs: Vec<V> = points.windows(2).map(|w| sub(w[1], w[0])).collect();
    mul(bernstein(&diffs, t), n as f64)
}

fn hermite(inp: &mut Input) {
    let pts = coords(inp, 12);
    let n = inp.upto(64);
    let ts: Vec<f32> = (0..n)
        .map(|_| match inp.byte() {
            0..=7 => inp.nice_f32(1.0), // outside [0, 1]: clamped
            _ => inp.u16() as f32 / 65535.0,
        })
        .collect();
    let mut pos = vec![0.0f32; 3 * n];
    let mut der = vec![0.0f32; 3 * n];
    // SAFETY: the four points are 3 floats each; ts has n floats; outputs hold n points.
    let s = unsafe {
        wf_hermite_segment_eval(
            pts[0..].as_ptr(),
            pts[3..].as_ptr(),
            pts[6..].as_ptr(),
            pts[9..].as_ptr(),
            ts.as_ptr(),
            n,
            pos.as_mut_ptr(),
            n,
            der.as_mut_ptr(),
            n,
        )
    };
    assert_eq!(s, WfStatus::Ok, "wf_hermite_segment_eval on valid input");
    let (p0, p1, m0, m1) = (v(&pts[0..3]), v(&pts[3..6]), v(&pts[6..9]), v(&pts[9..12]));
    let scale: f64 = [p0, p1, m0, m1]
        .iter()
        .map(|a| a.iter().map(|x| x.abs()).fold(0.0, f64::max))
        .sum();
    let tol = 16.0 * EPS * scale + 1e-37;
    for (i, &t) in ts.iter().enumerate() {
        let t = (t as f64).clamp(0.0, 1.0);
        let (t2, t3) = (t * t, t * t * t);
        let h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
        let h10 = t3 - 2.0 * t2 + t;
        let h01 = -2.0 * t3 + 3.0 * t2;
        let h11 = t3 - t2;
        let want = add(
            add(mul(p0, h00), mul(m0, h10)),
            add(mul(p1, h01), mul(m1, h11)),
        );
        assert_close(&pos[3 * i..3 * i + 3], want, tol, "hermite position");
        let d00 = 6.0 * t2 - 6.0 * t;
        let d10 = 3.0 * t2 - 4.0 * t + 1.0;
        let d01 = -6.0 * t2 + 6.0 * t;
        let d11 = 3.0 * t2 - 2.0 * t;
        let want = add(
            add(mul(p0, d00), mul(m0, d10)),
            add(mul(p1, d01), mul(m1, d11)),
        );
        assert_close(&der[3 * i..3 * i + 3], want, tol, "hermite derivative");
    }
}

fn bezier(inp: &mut Input) {
    let count = if inp.chance(24) {
        40 + inp.upto(25)
    } else {
        2 + inp.upto(10)
    };
    let pts = coords(inp, 3 * count);
    let n = inp.upto(32);
    let ts: Vec<f32> = (0..n).map(|_| inp.u16() as f32 / 65535.0).collect();
    let mut pos = vec![0.0f32; 3 * n];
    let mut der = vec![0.0f32; 3 * n];
    // SAFETY: pts holds `count` points, ts n floats, the outputs n points each.
    let s = unsafe {
        wf_bezier_eval(
            pts.as_ptr(),
            count,
            ts.as_ptr(),
            n,
            pos.as_mut_ptr(),
            n,
            der.as_mut_ptr(),
            n,
        )
    };
    assert_eq!(s, WfStatus::Ok, "wf_bezier_eval on valid input");
    let cps: Vec<V> = pts.chunks(3).map(v).collect();
    let deg = (count - 1) as f64;
    let m = max_abs(&pts);
    for (i, &t) in ts.iter().enumerate() {
        let t = t as f64;
        let tol = 4.0 * (deg + 1.0) * EPS * m + 1e-37;
        assert_close(
            &pos[3 * i..3 * i + 3],
            bernstein(&cps, t),
            tol,
            "bezier position",
        );
        let tol = 8.0 * deg * (deg + 1.0) * EPS * m + 1e-37;
        assert_close(
            &der[3 * i..3 * i + 3],
            bezier_derivative(&cps, t),
            tol,
            "bezier derivative",
        );
    }
}

fn polyline(inp: &mut Input) {
    let count = 2 + inp.upto(30);
    let pts = coords(inp, 3 * count);
    let cps: Vec<V> = pts.chunks(3).map(v).collect();
    let seg: Vec<f64> = cps.windows(2).map(|w| norm(sub(w[1], w[0]))).collect();
    let total: f64 = seg.iter().sum();
    let m = max_abs(&pts);
    let k = (count - 1) as f64;
    let mut len = 0.0f32;
    // SAFETY: pts holds `count` points; len is one float.
    let s = unsafe { wf_polyline_length(pts.as_ptr(), count, &mut len) };
    assert_eq!(s, WfStatus::Ok, "wf_polyline_length on valid input");
    let tol = 4.0 * EPS * total + 4.0 * k * EPS * m + 1e-37;
    assert!(
        (len as f64 - total).abs() <= tol,
        "polyline length {len} vs {total} (bound {tol:e})"
    );

    let n = 2 + inp.upto(64);
    let mut out = vec![0.0f32; 3 * n];
    // SAFETY: pts holds `count` points, out n points.
    let s = unsafe { wf_polyline_sample(pts.as_ptr(), count, n, 1, out.as_mut_ptr(), n) };
    assert_eq!(s, WfStatus::Ok, "wf_polyline_sample on valid input");
    let tol = 1e-5 * total + 8.0 * k * EPS * m + 1e-37;
    for i in 0..n {
        let d = total * i as f64 / (n - 1) as f64;
        // The point at distance d along the polyline (zero-length segments skipped).
        let mut acc = 0.0;
        let mut want = *cps.last().unwrap();
        for (j, &l) in seg.iter().enumerate() {
            if l > 0.0 && d <= acc + l {
                want = add(
                    cps[j],
                    mul(sub(cps[j + 1], cps[j]), ((d - acc) / l).clamp(0.0, 1.0)),
                );
                break;
            }
            acc += l;
        }
        assert_close(
            &out[3 * i..3 * i + 3],
            want,
            tol,
            "polyline arc-length sample",
        );
    }
}

/// 8-point Gauss–Legendre nodes (positive half) and weights on [-1, 1].
const GL8_X: [f64; 4] = [
    0.183_434_642_495_649_8,
    0.525_532_409_916_329,
    0.796_666_477_413_626_7,
    0.960_289_856_497_536_3,
];
const GL8_W: [f64; 4] = [
    0.362_683_783_378_362,
    0.313_706_645_877_887_3,
    0.222_381_034_453_374_5,
    0.101_228_536_290_376_3,
];

/// Length of one Bézier piece: 8-point Gauss–Legendre on 128 sub-intervals of the f64
/// hodograph (evaluated by de Casteljau on the control-point differences).
fn bezier_length_f64(cps: &[V]) -> f64 {
    const SUB: usize = 128;
    let n = cps.len() - 1;
    let diffs: Vec<V> = cps
        .windows(2)
        .map(|w| mul(sub(w[1], w[0]), n as f64))
        .collect();
    let mut buf = diffs.clone();
    let mut speed = |t: f64| {
        buf.copy_from_slice(&diffs);
        for level in (1..buf.len()).rev() {
            for i in 0..level {
                buf[i] = add(mul(buf[i], 1.0 - t), mul(buf[i + 1], t));
            }
        }
        norm(buf[0])
    };
    let mut total = 0.0;
    for j in 0..SUB {
        let (a, b) = (j as f64 / SUB as f64, (j + 1) as f64 / SUB as f64);
        let (c, h) = ((a + b) / 2.0, (b - a) / 2.0);
        for k in 0..4 {
            total += GL8_W[k] * h * (speed(c - h * GL8_X[k]) + speed(c + h * GL8_X[k]));
        }
    }
    total
}

fn chain_length(inp: &mut Input) {
    let pieces = 1 + inp.upto(3);
    let degrees: Vec<u32> = (0..pieces).map(|_| 1 + inp.upto(6) as u32).collect();
    let count = 1 + degrees.iter().sum::<u32>() as usize;
    let pts = coords(inp, 3 * count);
    let cps: Vec<V> = pts.chunks(3).map(v).collect();
    let mut want = 0.0;
    let mut start = 0;
    for &d in &degrees {
        want += bezier_length_f64(&cps[start..=start + d as usize]);
        start += d as usize;
    }
    let mut len = 0.0f32;
    // SAFETY: pts holds `count` points, degrees `pieces` values; len is one float.
    let s =
        unsafe { wf_bezier_chain_length(pts.as_ptr(), count, degrees.as_ptr(), pieces, &mut len) };
    assert_eq!(s, WfStatus::Ok, "wf_bezier_chain_length on valid input");
    let tol = 1e-4 * want + 64.0 * (count as f64) * EPS * max_abs(&pts) + 1e-37;
    assert!(
        (len as f64 - want).abs() <= tol,
        "bezier chain length {len} vs {want} (bound {tol:e})"
    );
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    // The chain-length reference (1 024 f64 evaluations per piece) is the slow one: 1 in 8.
    match inp.byte() % 8 {
        0..=2 => hermite(&mut inp),
        3..=4 => bezier(&mut inp),
        5..=6 => polyline(&mut inp),
        _ => chain_length(&mut inp),
    }
});
