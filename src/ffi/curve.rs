//! C ABI for [`crate::curve`]: Hermite segments and splines, Catmull-Rom, polylines, Bézier
//! curves and chains, arc length and even sampling.

use super::boundary::{floats_in, guard, points_in, points_out, FfiResult, WfStatus};
use crate::curve::HermiteSegment;
use glam::Vec3;

/// Reads one xyz point (3 floats) from a required pointer.
///
/// # Safety
/// `xyz` must be NULL or point to 3 readable floats.
unsafe fn point_in(xyz: *const f32) -> FfiResult<Vec3> {
    if xyz.is_null() {
        return Err(WfStatus::NullPointer);
    }
    // SAFETY: forwarded contract.
    Ok(unsafe { points_in(xyz, 1)? }[0])
}

/// Samples the cubic Hermite segment (`p0`, `p1`, `m0`, `m1`, each 3 floats) at `count`
/// parameters `ts` (clamped to [0, 1]). Writes `count` positions to `out_positions` and, if
/// `out_derivatives` is not NULL, `count` first derivatives to it; both capacities are in
/// points.
///
/// # Safety
/// Pointers must be NULL or valid for the counts given; outputs must not overlap inputs.
#[no_mangle]
pub unsafe extern "C" fn wf_hermite_segment_sample(
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
            for (o, &t) in pos.iter_mut().zip(ts) {
                *o = seg.position(t);
            }
            if let Some(der) = der {
                for (o, &t) in der.iter_mut().zip(ts) {
                    *o = seg.derivative(t);
                }
            }
        }
        Ok(())
    })
}
