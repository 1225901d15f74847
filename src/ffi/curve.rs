//! C ABI for [`crate::curve`]: Hermite segments and splines, Catmull-Rom, polylines, Bézier
//! curves and chains, the ballistic Bézier chain, arc length and even sampling.
//!
//! Every function here is stateless: it validates, builds the curve, and writes its outputs.
//! Spacing values are `uint32_t` ([`WfSpacing`] names them) and are validated.

use super::boundary::{
    finite, float_len, floats_in, guard, in_domain, point_in, points_in, points_out, slice_in,
    write_opt, FfiResult, WfStatus,
};
use crate::curve::{
    self, BezierChain, BezierCurve, CubicSpline, HermiteSegment, ParamCurve, Projectile, Spacing,
};

/// How `wf_*_sample` functions spread their samples (passed as `uint32_t`; any other value is
/// `WF_STATUS_INVALID_ARGUMENT`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WfSpacing {
    /// Evenly in the curve parameter (segment index + local t).
    Parameter = 0,
    /// Evenly in arc length: constant speed along the curve.
    ArcLength = 1,
}

impl WfSpacing {
    /// The spacing named by a C `uint32_t`, or `WF_STATUS_INVALID_ARGUMENT`.
    pub fn from_u32(value: u32) -> FfiResult<Spacing> {
        match value {
            v if v == WfSpacing::Parameter as u32 => Ok(Spacing::Parameter),
            v if v == WfSpacing::ArcLength as u32 => Ok(Spacing::ArcLength),
            _ => Err(WfStatus::InvalidArgument),
        }
    }
}

/// Checks a sample count: at least 2 (both ends), and `n * 3` floats addressable.
fn sample_count_ok(n: usize) -> FfiResult<usize> {
    if n < 2 {
        return Err(WfStatus::InvalidCount);
    }
    float_len(n)?;
    Ok(n)
}

/// Validates the output buffer for `sample_count` points, then samples `curve` into it.
///
/// # Safety
/// `out` must be NULL or valid for `capacity` points.
unsafe fn sample_out<C: ParamCurve>(
    curve: &C,
    sample_count: usize,
    spacing: Spacing,
    out: *mut f32,
    capacity: usize,
) -> FfiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { points_out(out, capacity, sample_count)? };
    curve::sample(curve, spacing, out);
    Ok(())
}

/// Writes a length through a required out-pointer.
///
/// # Safety
/// `out` must be NULL or valid for one aligned float write.
unsafe fn length_out<C: ParamCurve>(curve: &C, out: *mut f32) -> FfiResult {
    if out.is_null() {
        return Err(WfStatus::NullPointer);
    }
    // SAFETY: forwarded contract.
    unsafe { write_opt(out, curve::length(curve) as f32) }
}

/// Builds a Hermite spline from C arrays.
///
/// # Safety
/// Pointers must be NULL or valid for their counts.
unsafe fn hermite_in(
    points: *const f32,
    point_count: usize,
    tangents: *const f32,
    tangent_count: usize,
) -> FfiResult<CubicSpline> {
    // SAFETY: forwarded contract.
    let (p, m) = unsafe {
        (
            points_in(points, point_count)?,
            points_in(tangents, tangent_count)?,
        )
    };
    Ok(CubicSpline::hermite(p, m)?)
}

/// Builds a Catmull-Rom spline from C arrays.
///
/// # Safety
/// `points` must be NULL or valid for `point_count` points.
unsafe fn catmull_rom_in(
    points: *const f32,
    point_count: usize,
    alpha: f32,
    tension: f32,
) -> FfiResult<CubicSpline> {
    // SAFETY: forwarded contract.
    let p = unsafe { points_in(points, point_count)? };
    Ok(CubicSpline::catmull_rom(
        p,
        finite(alpha)?,
        finite(tension)?,
    )?)
}

/// Builds a polyline from a C array.
///
/// # Safety
/// `points` must be NULL or valid for `point_count` points.
unsafe fn polyline_in(points: *const f32, point_count: usize) -> FfiResult<CubicSpline> {
    // SAFETY: forwarded contract.
    let p = unsafe { points_in(points, point_count)? };
    Ok(CubicSpline::polyline(p)?)
}

/// Builds a Bézier chain from shared control points and per-piece degrees.
///
/// # Safety
/// Pointers must be NULL or valid for their counts.
unsafe fn bezier_chain_in(
    control_points: *const f32,
    control_count: usize,
    degrees: *const u32,
    piece_count: usize,
) -> FfiResult<BezierChain> {
    // SAFETY: forwarded contract.
    let (p, d) = unsafe {
        (
            points_in(control_points, control_count)?,
            slice_in(degrees, piece_count)?,
        )
    };
    Ok(BezierChain::from_shared_points(p, d)?)
}

/// Evaluates the cubic Hermite segment (`p0`, `p1`, `m0`, `m1`, each 3 floats) at `count`
/// parameters `ts` (clamped to [0, 1]). Writes `count` positions to `out_positions` and, if
/// `out_derivatives` is not NULL, `count` first derivatives to it; both capacities are in
/// points. Uses the SIMD batch path (`HermiteSegment::eval`), bit-identical to the scalar one.
/// Formerly `wf_hermite_segment_sample`.
///
/// # Safety
/// Pointers must be NULL or valid for the counts given; outputs must not overlap inputs.
#[no_mangle]
pub unsafe extern "C" fn wf_hermite_segment_eval(
    p0: *const f32,
    p1: *const f32,
    m0: *const f32,
    m1: *const f32,
    ts: *const f32,
    count: usize,
    out_positions: *mut f32,
    out_positions_capacity: usize,
    out_derivatives: *mut f32,
    out_derivatives_capacity: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: each pointer is checked by the boundary helpers; validity is the caller's.
        unsafe {
            let seg =
                HermiteSegment::new(point_in(p0)?, point_in(p1)?, point_in(m0)?, point_in(m1)?);
            let ts = floats_in(ts, count)?;
            let pos = points_out(out_positions, out_positions_capacity, count)?;
            let der = if out_derivatives.is_null() {
                None
            } else {
                Some(points_out(
                    out_derivatives,
                    out_derivatives_capacity,
                    count,
                )?)
            };
            seg.eval(ts, pos);
            if let Some(der) = der {
                seg.eval_derivatives(ts, der);
            }
        }
        Ok(())
    })
}

/// Samples the Hermite spline through `points` with velocities `tangents` (one per point,
/// `tangent_count == point_count >= 2`): `sample_count >= 2` points, both ends included,
/// spread by `spacing` (`WF_SPACING_PARAMETER` or `WF_SPACING_ARC_LENGTH`).
///
/// # Safety
/// Pointers must be NULL or valid for their counts; the output must not overlap inputs.
#[no_mangle]
pub unsafe extern "C" fn wf_hermite_spline_sample(
    points: *const f32,
    point_count: usize,
    tangents: *const f32,
    tangent_count: usize,
    sample_count: usize,
    spacing: u32,
    out_positions: *mut f32,
    out_capacity: usize,
) -> WfStatus {
    guard(|| {
        let n = sample_count_ok(sample_count)?;
        let spacing = WfSpacing::from_u32(spacing)?;
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = hermite_in(points, point_count, tangents, tangent_count)?;
            sample_out(&c, n, spacing, out_positions, out_capacity)
        }
    })
}

/// Samples the Catmull-Rom spline through `points` (`>= 2`) with knot exponent `alpha` (0
/// uniform, 0.5 centripetal, 1 chordal) and `tension` (both in [0, 1]): `sample_count >= 2`
/// points, both ends included, spread by `spacing`. Duplicate points are allowed.
///
/// # Safety
/// Pointers must be NULL or valid for their counts; the output must not overlap inputs.
#[no_mangle]
pub unsafe extern "C" fn wf_catmull_rom_sample(
    points: *const f32,
    point_count: usize,
    alpha: f32,
    tension: f32,
    sample_count: usize,
    spacing: u32,
    out_positions: *mut f32,
    out_capacity: usize,
) -> WfStatus {
    guard(|| {
        let n = sample_count_ok(sample_count)?;
        let spacing = WfSpacing::from_u32(spacing)?;
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = catmull_rom_in(points, point_count, alpha, tension)?;
            sample_out(&c, n, spacing, out_positions, out_capacity)
        }
    })
}

/// Samples the polyline through `points` (`>= 2`): `sample_count >= 2` points, both ends
/// included, spread by `spacing` (parameter spacing is even per segment).
///
/// # Safety
/// Pointers must be NULL or valid for their counts; the output must not overlap inputs.
#[no_mangle]
pub unsafe extern "C" fn wf_polyline_sample(
    points: *const f32,
    point_count: usize,
    sample_count: usize,
    spacing: u32,
    out_positions: *mut f32,
    out_capacity: usize,
) -> WfStatus {
    guard(|| {
        let n = sample_count_ok(sample_count)?;
        let spacing = WfSpacing::from_u32(spacing)?;
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = polyline_in(points, point_count)?;
            sample_out(&c, n, spacing, out_positions, out_capacity)
        }
    })
}

/// Samples the Bézier curve of degree `control_count - 1` (1..=64): `sample_count >= 2`
/// points, both ends included, spread by `spacing`. With `WF_SPACING_PARAMETER` sample `i` is
/// at `t = i / (sample_count - 1)`: unlike the paper's `GetBezierList(points, count)`, which
/// samples `t = i / count` for `i = 1..count` and skips `t = 0`, the start point is included.
///
/// # Safety
/// Pointers must be NULL or valid for their counts; the output must not overlap inputs.
#[no_mangle]
pub unsafe extern "C" fn wf_bezier_sample(
    control_points: *const f32,
    control_count: usize,
    sample_count: usize,
    spacing: u32,
    out_positions: *mut f32,
    out_capacity: usize,
) -> WfStatus {
    guard(|| {
        let n = sample_count_ok(sample_count)?;
        let spacing = WfSpacing::from_u32(spacing)?;
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = BezierCurve::new(points_in(control_points, control_count)?.to_vec())?;
            sample_out(&c, n, spacing, out_positions, out_capacity)
        }
    })
}

/// Evaluates the Bézier curve of degree `control_count - 1` (1..=64) at `count` parameters
/// `ts` (clamped to [0, 1]): positions to `out_positions` and, if `out_derivatives` is not
/// NULL, first derivatives d/dt to it (capacities in points).
///
/// # Safety
/// Pointers must be NULL or valid for their counts; outputs must not overlap inputs.
#[no_mangle]
pub unsafe extern "C" fn wf_bezier_eval(
    control_points: *const f32,
    control_count: usize,
    ts: *const f32,
    count: usize,
    out_positions: *mut f32,
    out_positions_capacity: usize,
    out_derivatives: *mut f32,
    out_derivatives_capacity: usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = BezierCurve::new(points_in(control_points, control_count)?.to_vec())?;
            let ts = floats_in(ts, count)?;
            let pos = points_out(out_positions, out_positions_capacity, count)?;
            let der = if out_derivatives.is_null() {
                None
            } else {
                Some(points_out(
                    out_derivatives,
                    out_derivatives_capacity,
                    count,
                )?)
            };
            c.eval(ts, pos);
            if let Some(der) = der {
                c.eval_derivatives(ts, der);
            }
        }
        Ok(())
    })
}

/// Samples a chain of Bézier pieces joined end to end. Shared end points are given once:
/// piece `k` has degree `degrees[k]` (1..=64) and `control_count == 1 + sum(degrees)`.
/// Writes `sample_count >= 2` points, both ends included, spread by `spacing` (parameter
/// spacing gives every piece the same share of samples).
///
/// # Safety
/// Pointers must be NULL or valid for their counts; the output must not overlap inputs.
#[no_mangle]
pub unsafe extern "C" fn wf_bezier_chain_sample(
    control_points: *const f32,
    control_count: usize,
    degrees: *const u32,
    piece_count: usize,
    sample_count: usize,
    spacing: u32,
    out_positions: *mut f32,
    out_capacity: usize,
) -> WfStatus {
    guard(|| {
        let n = sample_count_ok(sample_count)?;
        let spacing = WfSpacing::from_u32(spacing)?;
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = bezier_chain_in(control_points, control_count, degrees, piece_count)?;
            sample_out(&c, n, spacing, out_positions, out_capacity)
        }
    })
}

/// The exact trajectory of a projectile thrown from `start` with `velocity` under gravity
/// `(0, -gravity, 0)` (`gravity > 0`), bouncing `bounces` times on the plane `y = ground_y`
/// with `restitution` in [0, 1], as a chain of `bounces + 1` quadratic Béziers. Writes
/// `1 + 2 * (bounces + 1)` control points (shared end points once, as
/// `wf_bezier_chain_sample` takes them, every degree 2) and, if `out_count` is not NULL, that
/// number to `*out_count`. `start` must not be below the ground. With `restitution = 0`, or a
/// start on the ground moving down, arcs of zero duration are three copies of one point.
/// Every float input, `gravity`, `ground_y` and `restitution` included, must be within ±1e15
/// (else `WF_STATUS_NON_FINITE`); a trajectory whose control points leave that domain (a huge
/// velocity, a tiny gravity) is `WF_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// Pointers must be NULL or valid (3 floats for `start` and `velocity`, `out_capacity`
/// points for the output, one `size_t` for `out_count`).
#[no_mangle]
pub unsafe extern "C" fn wf_ballistic_bezier(
    start: *const f32,
    velocity: *const f32,
    gravity: f32,
    ground_y: f32,
    restitution: f32,
    bounces: u32,
    out_control_points: *mut f32,
    out_capacity: usize,
    out_count: *mut usize,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let projectile = Projectile {
                start: point_in(start)?,
                velocity: point_in(velocity)?,
                gravity: finite(gravity)?,
                ground_y: finite(ground_y)?,
                restitution: finite(restitution)?,
            };
            projectile.validate()?;
            let n = Projectile::control_point_count(bounces).ok_or(WfStatus::InvalidCount)?;
            float_len(n)?;
            if !out_count.is_null() && !(out_count as usize).is_multiple_of(align_of::<usize>()) {
                return Err(WfStatus::Misaligned);
            }
            let out = points_out(out_control_points, out_capacity, n)?;
            // Inputs in the domain can still throw the projectile past it (a huge velocity, a
            // tiny gravity): check every point against the domain before writing any.
            if !projectile
                .control_points(bounces)
                .all(|p| in_domain(p.x) && in_domain(p.y) && in_domain(p.z))
            {
                return Err(WfStatus::InvalidArgument);
            }
            for (o, p) in out.iter_mut().zip(projectile.control_points(bounces)) {
                *o = p;
            }
            write_opt(out_count, n)
        }
    })
}

/// Total arc length of the Hermite spline (as `wf_hermite_spline_sample`) to `*out_length`.
///
/// # Safety
/// Pointers must be NULL or valid for their counts; `out_length` must be valid.
#[no_mangle]
pub unsafe extern "C" fn wf_hermite_spline_length(
    points: *const f32,
    point_count: usize,
    tangents: *const f32,
    tangent_count: usize,
    out_length: *mut f32,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = hermite_in(points, point_count, tangents, tangent_count)?;
            length_out(&c, out_length)
        }
    })
}

/// Total arc length of the Catmull-Rom spline (as `wf_catmull_rom_sample`) to `*out_length`.
///
/// # Safety
/// Pointers must be NULL or valid for their counts; `out_length` must be valid.
#[no_mangle]
pub unsafe extern "C" fn wf_catmull_rom_length(
    points: *const f32,
    point_count: usize,
    alpha: f32,
    tension: f32,
    out_length: *mut f32,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = catmull_rom_in(points, point_count, alpha, tension)?;
            length_out(&c, out_length)
        }
    })
}

/// Total length of the polyline through `points` (`>= 2`) to `*out_length`.
///
/// # Safety
/// Pointers must be NULL or valid for their counts; `out_length` must be valid.
#[no_mangle]
pub unsafe extern "C" fn wf_polyline_length(
    points: *const f32,
    point_count: usize,
    out_length: *mut f32,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = polyline_in(points, point_count)?;
            length_out(&c, out_length)
        }
    })
}

/// Total arc length of the Bézier chain (as `wf_bezier_chain_sample`) to `*out_length`.
///
/// # Safety
/// Pointers must be NULL or valid for their counts; `out_length` must be valid.
#[no_mangle]
pub unsafe extern "C" fn wf_bezier_chain_length(
    control_points: *const f32,
    control_count: usize,
    degrees: *const u32,
    piece_count: usize,
    out_length: *mut f32,
) -> WfStatus {
    guard(|| {
        // SAFETY: checked by the boundary helpers; validity is the caller's.
        unsafe {
            let c = bezier_chain_in(control_points, control_count, degrees, piece_count)?;
            length_out(&c, out_length)
        }
    })
}
