//! The curve C ABI called from Rust: good input agrees with the safe API, and every kind of
//! bad input gets its status with the output buffer left untouched.

use std::ptr::{null, null_mut};
use wayfarer::curve::{self, BezierCurve, CubicSpline, Spacing};
use wayfarer::ffi::curve::*;
use wayfarer::ffi::WfStatus;
use wayfarer::Vec3;

const S: f32 = -7.0;

/// Runs `call` on a sentinel-filled 32-point buffer; asserts the status and, on failure, that
/// nothing was written. Returns the buffer.
fn run(expected: WfStatus, call: impl FnOnce(*mut f32, usize) -> WfStatus) -> Vec<f32> {
    let mut buf = vec![S; 96];
    let got = call(buf.as_mut_ptr(), 32);
    assert_eq!(got, expected);
    if expected != WfStatus::Ok {
        assert!(buf.iter().all(|&x| x == S), "output written on failure");
    }
    buf
}

fn flat(p: &[Vec3]) -> Vec<f32> {
    p.iter().flat_map(|v| v.to_array()).collect()
}

const PTS: [f32; 12] = [0.0, 0.0, 0.0, 3.0, 0.0, 1.0, 6.0, 1.0, 0.0, 9.0, 0.0, 2.0];
const TAN: [f32; 12] = [2.0, 0.0, 0.0, 2.0, 0.0, 1.0, 1.0, 0.0, -1.0, 3.0, 0.0, 0.0];

#[test]
fn good_input_matches_the_safe_api() {
    let pts: Vec<Vec3> = PTS.chunks(3).map(Vec3::from_slice).collect();
    let tan: Vec<Vec3> = TAN.chunks(3).map(Vec3::from_slice).collect();
    let h = CubicSpline::hermite(&pts, &tan).unwrap();
    for (spacing, sp) in [(0u32, Spacing::Parameter), (1, Spacing::ArcLength)] {
        let mut expect = vec![Vec3::ZERO; 9];
        curve::sample(&h, sp, &mut expect);
        // SAFETY: all pointers valid for the counts given.
        let buf = run(WfStatus::Ok, |o, c| unsafe {
            wf_hermite_spline_sample(PTS.as_ptr(), 4, TAN.as_ptr(), 4, 9, spacing, o, c)
        });
        assert_eq!(&buf[..27], &flat(&expect)[..]);
        assert!(buf[27..].iter().all(|&x| x == S));
    }
    let b = BezierCurve::new(pts.clone()).unwrap();
    let ts = [0.0f32, 0.3, 0.9];
    let mut der = [S; 9];
    // SAFETY: all pointers valid for the counts given.
    let buf = run(WfStatus::Ok, |o, c| unsafe {
        wf_bezier_eval(PTS.as_ptr(), 4, ts.as_ptr(), 3, o, c, der.as_mut_ptr(), 3)
    });
    for (i, &t) in ts.iter().enumerate() {
        assert_eq!(Vec3::from_slice(&buf[3 * i..]), b.position(t));
        assert_eq!(Vec3::from_slice(&der[3 * i..]), b.derivative(t));
    }
    let mut len = S;
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { wf_polyline_length(PTS.as_ptr(), 4, &mut len) },
        WfStatus::Ok
    );
    let poly = CubicSpline::polyline(&pts).unwrap();
    assert_eq!(len, curve::length(&poly) as f32);
    let mut count = 0usize;
    let (start, vel) = ([0.0f32, 1.0, 0.0], [2.0f32, 3.0, 0.0]);
    // SAFETY: valid pointers.
    let buf = run(WfStatus::Ok, |o, c| unsafe {
        wf_ballistic_bezier(
            start.as_ptr(),
            vel.as_ptr(),
            9.81,
            0.0,
            0.5,
            3,
            o,
            c,
            &mut count,
        )
    });
    assert_eq!(count, 9);
    let degrees = [2u32; 4];
    let cps = buf[..27].to_vec();
    // SAFETY: valid pointers.
    run(WfStatus::Ok, |o, c| unsafe {
        wf_bezier_chain_sample(cps.as_ptr(), 9, degrees.as_ptr(), 4, 20, 1, o, c)
    });
    assert_eq!(WfSpacing::ArcLength as u32, 1);
    assert_eq!(WfSpacing::from_u32(2), Err(WfStatus::InvalidArgument));
}

#[test]
fn bad_input_gets_a_status_and_writes_nothing() {
    use WfStatus::*;
    let nan_pts = [0.0f32, 0.0, 0.0, f32::NAN, 1.0, 0.0];
    let same = [1.0f32, 2.0, 3.0, 1.0, 2.0, 3.0];
    let huge = usize::MAX / 2;
    let p = PTS.as_ptr();
    let t = TAN.as_ptr();
    // SAFETY (all blocks below): every pointer is valid for the count passed, or the call is
    // rejected before it is read.
    unsafe {
        // Null pointers with non-zero counts.
        run(NullPointer, |o, c| {
            wf_polyline_sample(null(), 4, 5, 0, o, c)
        });
        run(NullPointer, |o, c| {
            wf_hermite_spline_sample(p, 4, null(), 4, 5, 0, o, c)
        });
        run(NullPointer, |_, c| {
            wf_catmull_rom_sample(p, 4, 0.5, 0.0, 5, 0, null_mut(), c)
        });
        run(NullPointer, |o, c| {
            wf_bezier_chain_sample(p, 4, null(), 1, 5, 0, o, c)
        });
        // Too few points; degree > 64; overflowing counts.
        run(InvalidCount, |o, c| wf_polyline_sample(p, 1, 5, 0, o, c));
        run(InvalidCount, |o, c| wf_bezier_sample(p, 1, 5, 0, o, c));
        let many = vec![0.5f32; 66 * 3];
        run(InvalidCount, |o, c| {
            wf_bezier_sample(many.as_ptr(), 66, 5, 0, o, c)
        });
        run(InvalidCount, |o, c| wf_polyline_sample(p, huge, 5, 0, o, c));
        run(InvalidCount, |o, c| wf_polyline_sample(p, 4, huge, 0, o, c));
        run(InvalidCount, |o, c| {
            wf_hermite_segment_eval(p, p, p, p, t, huge, o, c, null_mut(), 0)
        });
        // NaN / Inf coordinates and parameters.
        run(NonFinite, |o, c| {
            wf_polyline_sample(nan_pts.as_ptr(), 2, 5, 0, o, c)
        });
        let ts = [0.5f32, f32::INFINITY];
        run(NonFinite, |o, c| {
            wf_bezier_eval(p, 4, ts.as_ptr(), 2, o, c, null_mut(), 0)
        });
        run(NonFinite, |o, c| {
            wf_catmull_rom_sample(p, 4, f32::NAN, 0.0, 5, 0, o, c)
        });
        // Output capacity too small.
        run(BufferTooSmall, |o, _| wf_polyline_sample(p, 4, 5, 0, o, 4));
        // Sample count 0 or 1.
        run(InvalidCount, |o, c| wf_polyline_sample(p, 4, 0, 0, o, c));
        run(InvalidCount, |o, c| {
            wf_catmull_rom_sample(p, 4, 0.5, 0.0, 1, 0, o, c)
        });
        // Tangent count != point count.
        run(InvalidCount, |o, c| {
            wf_hermite_spline_sample(p, 4, t, 3, 5, 0, o, c)
        });
        // Degrees not summing to control_count - 1; degree 0 in a chain.
        let d = [1u32, 1];
        run(InvalidCount, |o, c| {
            wf_bezier_chain_sample(p, 4, d.as_ptr(), 2, 5, 0, o, c)
        });
        let d0 = [3u32, 0];
        run(InvalidArgument, |o, c| {
            wf_bezier_chain_sample(p, 4, d0.as_ptr(), 2, 5, 0, o, c)
        });
        // Bad spacing; alpha / tension outside [0, 1].
        run(InvalidArgument, |o, c| wf_polyline_sample(p, 4, 5, 2, o, c));
        run(InvalidArgument, |o, c| {
            wf_catmull_rom_sample(p, 4, -0.1, 0.0, 5, 0, o, c)
        });
        run(InvalidArgument, |o, c| {
            wf_catmull_rom_sample(p, 4, 0.5, 1.1, 5, 1, o, c)
        });
        // Ballistic: below ground, bad gravity / restitution, too many bounces for the buffer.
        let (below, vel) = ([0.0f32, -1.0, 0.0], [1.0f32, 1.0, 0.0]);
        run(InvalidArgument, |o, c| {
            wf_ballistic_bezier(
                below.as_ptr(),
                vel.as_ptr(),
                9.8,
                0.0,
                0.5,
                1,
                o,
                c,
                null_mut(),
            )
        });
        run(InvalidArgument, |o, c| {
            wf_ballistic_bezier(p, vel.as_ptr(), -9.8, 0.0, 0.5, 1, o, c, null_mut())
        });
        run(InvalidArgument, |o, c| {
            wf_ballistic_bezier(p, vel.as_ptr(), 9.8, 0.0, 2.0, 1, o, c, null_mut())
        });
        let mut count = 77usize;
        run(BufferTooSmall, |o, c| {
            wf_ballistic_bezier(p, vel.as_ptr(), 9.8, 0.0, 0.5, 100, o, c, &mut count)
        });
        assert_eq!(count, 77);
        // Lengths: nothing written on failure, NULL output rejected.
        let mut len = S;
        assert_eq!(wf_polyline_length(p, 1, &mut len), InvalidCount);
        assert_eq!(
            wf_catmull_rom_length(p, 4, 2.0, 0.0, &mut len),
            InvalidArgument
        );
        assert_eq!(wf_hermite_spline_length(p, 4, t, 2, &mut len), InvalidCount);
        assert_eq!(
            wf_bezier_chain_length(p, 4, d.as_ptr(), 2, &mut len),
            InvalidCount
        );
        assert_eq!(len, S);
        assert_eq!(wf_polyline_length(p, 4, null_mut()), NullPointer);
        // All control points equal: zero length, arc-length sampling returns the point.
        let buf = run(Ok, |o, c| wf_polyline_sample(same.as_ptr(), 2, 4, 1, o, c));
        assert_eq!(&buf[..12], &[1.0, 2.0, 3.0].repeat(4)[..]);
        let buf = run(Ok, |o, c| wf_bezier_sample(same.as_ptr(), 2, 3, 1, o, c));
        assert_eq!(&buf[..9], &[1.0, 2.0, 3.0].repeat(3)[..]);
    }
}
