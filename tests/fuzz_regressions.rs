//! Regression tests for the defects the fuzz targets (`fuzz/`) found, each replaying the
//! failing call through the C ABI exactly as the fuzzer made it. The failing inputs are also
//! in the seed corpora (`fuzz/corpus/<target>/`), so the bounded fuzz run replays them too.

use wayfarer::ffi::boundary::MAX_MAGNITUDE;
use wayfarer::ffi::curve::*;
use wayfarer::ffi::WfStatus;

/// The f32 bit pattern every output buffer starts with (see `fuzz/src/lib.rs`).
const SENTINEL: f32 = -7.25e-3;

fn untouched(v: &[f32]) -> bool {
    v.iter().all(|x| x.to_bits() == SENTINEL.to_bits())
}

/// `fuzz/curve_ffi`: a finite but huge velocity threw the projectile past the float range and
/// `wf_ballistic_bezier` returned OK with ±Inf control points. Now such a trajectory is
/// `WF_STATUS_INVALID_ARGUMENT` (or `NON_FINITE` for inputs beyond ±1e15) and nothing is
/// written.
#[test]
fn ballistic_trajectory_beyond_the_float_range_is_rejected_untouched() {
    let cases: [([f32; 3], [f32; 3], f32, f32, f32, u32); 3] = [
        // Found by the fuzzer: velocity.z = −f32::MAX.
        (
            [-930.0, -931.6875, -931.6875],
            [0.375, 10.5, -3.402_823_5e38],
            25.125,
            -931.6875,
            0.772_549,
            5,
        ),
        // Inputs inside ±1e15 whose trajectory still leaves the float range: a tiny gravity.
        ([0.0; 3], [1.0e15, 1.0e15, 0.0], 1.0e-30, 0.0, 1.0, 3),
        ([0.0; 3], [0.0, 1.0e15, 0.0], 1.0e-20, 0.0, 0.5, 0),
    ];
    for (start, velocity, gravity, ground, restitution, bounces) in cases {
        let n = 1 + 2 * (bounces as usize + 1);
        let mut out = vec![SENTINEL; 3 * n];
        let mut count = usize::MAX;
        // SAFETY: start/velocity hold 3 floats, out n points, count one usize.
        let s = unsafe {
            wf_ballistic_bezier(
                start.as_ptr(),
                velocity.as_ptr(),
                gravity,
                ground,
                restitution,
                bounces,
                out.as_mut_ptr(),
                n,
                &mut count,
            )
        };
        assert!(
            s == WfStatus::InvalidArgument || s == WfStatus::NonFinite,
            "{velocity:?} g={gravity}: {s:?}"
        );
        assert!(untouched(&out), "output written on failure");
        assert_eq!(count, usize::MAX, "out_count written on failure");
    }
    // A legal throw still works and stays finite.
    let mut out = vec![SENTINEL; 3 * 5];
    let mut count = 0usize;
    // SAFETY: as above.
    let s = unsafe {
        wf_ballistic_bezier(
            [0.0, 1.0, 0.0].as_ptr(),
            [3.0, 4.0, 0.0].as_ptr(),
            9.81,
            0.0,
            0.5,
            1,
            out.as_mut_ptr(),
            5,
            &mut count,
        )
    };
    assert_eq!(s, WfStatus::Ok);
    assert_eq!(count, 5);
    assert!(out.iter().all(|x| x.is_finite()));
}

/// `fuzz/curve_ffi`: a polyline with a coordinate at f32::MAX overflowed while being turned
/// into cubic segments and `wf_polyline_sample` returned OK with NaN positions. Float inputs
/// beyond ±`MAX_MAGNITUDE` (1e15) are now `WF_STATUS_NON_FINITE`, for every export.
#[test]
fn coordinates_beyond_the_magnitude_limit_are_non_finite_untouched() {
    let found = [
        7.6375e31f32,
        -9.28e32,
        3.402_823_5e38,
        0.0,
        -9.15625e32,
        -9.151_250_5e32,
    ];
    let mut out = vec![SENTINEL; 3 * 4];
    // SAFETY: found holds 2 points, out 4.
    let s = unsafe { wf_polyline_sample(found.as_ptr(), 2, 4, 0, out.as_mut_ptr(), 4) };
    assert_eq!(s, WfStatus::NonFinite);
    assert!(untouched(&out));

    // The limit itself is accepted, the next float above it is not.
    let edge = [
        MAX_MAGNITUDE,
        -MAX_MAGNITUDE,
        0.0,
        -MAX_MAGNITUDE,
        MAX_MAGNITUDE,
        1.0,
    ];
    // SAFETY: as above.
    let s = unsafe { wf_polyline_sample(edge.as_ptr(), 2, 4, 1, out.as_mut_ptr(), 4) };
    assert_eq!(s, WfStatus::Ok);
    assert!(out.iter().all(|x| x.is_finite()));
    let above = f32::from_bits(MAX_MAGNITUDE.to_bits() + 1);
    let mut out = vec![SENTINEL; 3 * 4];
    for k in 0..6 {
        let mut pts = edge;
        pts[k] = if k % 2 == 0 { above } else { -above };
        // SAFETY: as above.
        let s = unsafe { wf_polyline_sample(pts.as_ptr(), 2, 4, 1, out.as_mut_ptr(), 4) };
        assert_eq!(s, WfStatus::NonFinite, "coordinate {k} = {}", pts[k]);
        assert!(untouched(&out));
    }

    // The same limit for scalar parameters (Hermite parameters, lengths' outputs untouched).
    let p = [0.0f32, 0.0, 0.0];
    let ts = [0.5f32, 2.0e15];
    let mut pos = vec![SENTINEL; 3 * 2];
    // SAFETY: p holds 3 floats, ts 2, pos 2 points.
    let s = unsafe {
        wf_hermite_segment_sample(
            p.as_ptr(),
            p.as_ptr(),
            p.as_ptr(),
            p.as_ptr(),
            ts.as_ptr(),
            2,
            pos.as_mut_ptr(),
            2,
            core::ptr::null_mut(),
            0,
        )
    };
    assert_eq!(s, WfStatus::NonFinite);
    assert!(untouched(&pos));

    // Inside the limit, the extreme Hermite segment evaluates without overflow.
    let (p0, p1) = ([MAX_MAGNITUDE; 3], [-MAX_MAGNITUDE; 3]);
    let (m0, m1) = ([-MAX_MAGNITUDE; 3], [MAX_MAGNITUDE; 3]);
    let ts: Vec<f32> = (0..=16).map(|i| i as f32 / 16.0).collect();
    let mut pos = vec![SENTINEL; 3 * 17];
    let mut der = vec![SENTINEL; 3 * 17];
    // SAFETY: the points hold 3 floats, ts 17, pos and der 17 points.
    let s = unsafe {
        wf_hermite_segment_sample(
            p0.as_ptr(),
            p1.as_ptr(),
            m0.as_ptr(),
            m1.as_ptr(),
            ts.as_ptr(),
            17,
            pos.as_mut_ptr(),
            17,
            der.as_mut_ptr(),
            17,
        )
    };
    assert_eq!(s, WfStatus::Ok);
    assert!(pos.iter().chain(&der).all(|x| x.is_finite()));
}
