//! The one place where the C boundary is crossed: status codes, the panic guard, and the
//! checks that turn raw pointers + counts into slices and handles.
//!
//! Every export is a literal `#[no_mangle] pub extern "C" fn` whose body is
//! `guard(|| { ... })`; inside, inputs are taken with [`points_in`], [`floats_in`],
//! [`handle_ref`] … and outputs with [`points_out`] / [`slice_out`] *after* all inputs are
//! validated, so nothing is written on failure.

use core::ffi::{c_char, c_int};
use core::panic::AssertUnwindSafe;
use glam::Vec3;

use crate::curve::CurveError;

/// Result of every fallible `wf_*` function. `WF_STATUS_OK` (0) is success; anything else
/// means no output was written.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WfStatus {
    /// Success.
    Ok = 0,
    /// A required pointer was NULL (with a non-zero count, or a required handle).
    NullPointer = 1,
    /// A count is too small, too large, or overflows when multiplied by 3.
    InvalidCount = 2,
    /// An input coordinate or parameter is NaN, infinite, or beyond ±1e15 ([`MAX_MAGNITUDE`]).
    NonFinite = 3,
    /// The output buffer's capacity is smaller than what the call writes.
    BufferTooSmall = 4,
    /// An argument is outside its documented range.
    InvalidArgument = 5,
    /// An index or id names nothing (out of range, removed).
    OutOfRange = 6,
    /// A pointer is not aligned for its element type (floats need 4-byte alignment).
    Misaligned = 7,
    /// A Rust panic was caught at the boundary (a bug in wayfarer: please report it).
    Panic = 8,
    /// A schedule key's distance is outside `[0, path length]` (a distance within
    /// `4 * FLT_EPSILON * length` past an end is taken as that end and is not an error).
    DistanceOutOfRange = 9,
    /// Schedule key times do not increase by at least 1e-9 s per leg,
    /// or span more than `DBL_MAX / 2` seconds.
    InvalidKeyTime = 10,
}

/// Every status, in code order (used by tests and by `wf_status_str`).
pub const ALL_STATUSES: [WfStatus; 11] = [
    WfStatus::Ok,
    WfStatus::NullPointer,
    WfStatus::InvalidCount,
    WfStatus::NonFinite,
    WfStatus::BufferTooSmall,
    WfStatus::InvalidArgument,
    WfStatus::OutOfRange,
    WfStatus::Misaligned,
    WfStatus::Panic,
    WfStatus::DistanceOutOfRange,
    WfStatus::InvalidKeyTime,
];

impl WfStatus {
    /// A static, NUL-terminated description.
    pub fn message(self) -> &'static str {
        match self {
            WfStatus::Ok => "ok\0",
            WfStatus::NullPointer => "null pointer\0",
            WfStatus::InvalidCount => "invalid count: too small, too large or overflowing\0",
            WfStatus::NonFinite => "input is NaN, infinite or beyond +-1e15\0",
            WfStatus::BufferTooSmall => "output buffer too small\0",
            WfStatus::InvalidArgument => "argument out of its documented range\0",
            WfStatus::OutOfRange => "index or id out of range\0",
            WfStatus::Misaligned => "pointer not aligned for its element type\0",
            WfStatus::Panic => "internal panic caught at the C boundary (a wayfarer bug)\0",
            WfStatus::DistanceOutOfRange => {
                "distances: a key distance is outside [0, path length] (up to 4 * FLT_EPSILON * length past an end counts as that end)\0"
            }
            WfStatus::InvalidKeyTime => {
                "times: key times must increase by at least 1e-9 s per leg and span at most DBL_MAX / 2 s\0"
            }
        }
    }
}

impl From<CurveError> for WfStatus {
    fn from(e: CurveError) -> Self {
        match e {
            CurveError::TooFewPoints | CurveError::TooManyPoints => WfStatus::InvalidCount,
            CurveError::NonFinite => WfStatus::NonFinite,
            CurveError::LengthMismatch => WfStatus::InvalidCount,
            CurveError::InvalidArgument => WfStatus::InvalidArgument,
        }
    }
}

/// The largest magnitude of a float input (coordinates, distances, scalars) the C ABI accepts:
/// `1e15`. Larger finite values are rejected like NaN and ±Inf ([`WfStatus::NonFinite`]):
/// they are far beyond any usable game coordinate (the f32 spacing there is 1.25e8), and the
/// products the library forms from them (squared distances, derivatives of degree-64 curves,
/// speed × time) would overflow f32 and turn into Inf or NaN outputs.
pub const MAX_MAGNITUDE: f32 = 1.0e15;

/// True when `x` is a usable float input: finite and `|x| ≤ MAX_MAGNITUDE` (false for NaN).
#[inline]
pub fn in_domain(x: f32) -> bool {
    x.abs() <= MAX_MAGNITUDE
}

/// What the boundary functions return inside [`guard`].
pub type FfiResult<T = ()> = Result<T, WfStatus>;

/// Runs an export's body, turning `Err(status)` into that status and a panic into
/// [`WfStatus::Panic`]. Nothing unwinds into the caller.
#[inline]
pub fn guard<F: FnOnce() -> FfiResult>(body: F) -> WfStatus {
    match std::panic::catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => WfStatus::Ok,
        Ok(Err(status)) => status,
        Err(_) => WfStatus::Panic,
    }
}

/// Like [`guard`] for exports that return a value instead of a status (constructors returning
/// a handle, queries returning a number): `fallback` is returned on error or panic.
#[inline]
pub fn guard_value<T, F: FnOnce() -> FfiResult<T>>(fallback: T, body: F) -> T {
    match std::panic::catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(v)) => v,
        _ => fallback,
    }
}

/// `count * 3` floats, or [`WfStatus::InvalidCount`] when that overflows the address space.
#[inline]
pub fn float_len(count: usize) -> FfiResult<usize> {
    count
        .checked_mul(3)
        .filter(|&n| n <= isize::MAX as usize / 4)
        .ok_or(WfStatus::InvalidCount)
}

/// Checks a raw pointer for an array of `len` elements of `T`: `(NULL, 0)` is valid and
/// empty; NULL with `len > 0` is [`WfStatus::NullPointer`]; misaligned is
/// [`WfStatus::Misaligned`]; a byte size past `isize::MAX` is [`WfStatus::InvalidCount`].
#[inline]
fn check_ptr<T>(ptr: *const T, len: usize) -> FfiResult<bool> {
    if len
        .checked_mul(core::mem::size_of::<T>())
        .is_none_or(|b| b > isize::MAX as usize)
    {
        return Err(WfStatus::InvalidCount);
    }
    if ptr.is_null() {
        return if len == 0 {
            Ok(false)
        } else {
            Err(WfStatus::NullPointer)
        };
    }
    if !(ptr as usize).is_multiple_of(core::mem::align_of::<T>()) {
        return Err(WfStatus::Misaligned);
    }
    Ok(true)
}

/// An input slice of `len` elements (no finiteness check).
///
/// # Safety
/// If non-NULL, `ptr` must point to `len` readable, initialised `T` that stay valid and are not
/// written during the returned lifetime.
#[inline]
pub unsafe fn slice_in<'a, T>(ptr: *const T, len: usize) -> FfiResult<&'a [T]> {
    if !check_ptr(ptr, len)? {
        return Ok(&[]);
    }
    // SAFETY: non-null, aligned, size checked above; validity is the caller's contract.
    Ok(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// An output slice of exactly `needed` elements from a buffer of `capacity`:
/// [`WfStatus::BufferTooSmall`] if `capacity < needed`.
///
/// # Safety
/// If non-NULL, `ptr` must point to `capacity` writable `T`, not aliased by any input slice.
#[inline]
pub unsafe fn slice_out<'a, T>(
    ptr: *mut T,
    capacity: usize,
    needed: usize,
) -> FfiResult<&'a mut [T]> {
    if capacity < needed {
        return Err(WfStatus::BufferTooSmall);
    }
    if !check_ptr(ptr as *const T, capacity)? {
        return Ok(&mut []);
    }
    // SAFETY: non-null, aligned, `needed <= capacity` elements checked above.
    Ok(unsafe { core::slice::from_raw_parts_mut(ptr, needed) })
}

/// `count` interleaved xyz points, all finite and within ±[`MAX_MAGNITUDE`].
///
/// # Safety
/// As [`slice_in`], for `count * 3` floats.
#[inline]
pub unsafe fn points_in<'a>(xyz: *const f32, count: usize) -> FfiResult<&'a [Vec3]> {
    float_len(count)?;
    // Vec3 is #[repr(C)] { x, y, z: f32 }: 12 bytes, 4-byte aligned, the layout of float[3].
    // SAFETY: forwarded contract.
    let pts = unsafe { slice_in(xyz as *const Vec3, count)? };
    if !pts
        .iter()
        .all(|p| in_domain(p.x) && in_domain(p.y) && in_domain(p.z))
    {
        return Err(WfStatus::NonFinite);
    }
    Ok(pts)
}

/// `count` floats, all finite and within ±[`MAX_MAGNITUDE`].
///
/// # Safety
/// As [`slice_in`].
#[inline]
pub unsafe fn floats_in<'a>(ptr: *const f32, count: usize) -> FfiResult<&'a [f32]> {
    // SAFETY: forwarded contract.
    let v = unsafe { slice_in(ptr, count)? };
    if !v.iter().all(|&x| in_domain(x)) {
        return Err(WfStatus::NonFinite);
    }
    Ok(v)
}

/// An output of `needed` xyz points in a buffer whose capacity is `capacity` points.
///
/// # Safety
/// As [`slice_out`], for `capacity * 3` floats.
#[inline]
pub unsafe fn points_out<'a>(
    xyz: *mut f32,
    capacity: usize,
    needed: usize,
) -> FfiResult<&'a mut [Vec3]> {
    float_len(capacity)?;
    // SAFETY: forwarded contract; Vec3 has the layout of float[3].
    unsafe { slice_out(xyz as *mut Vec3, capacity, needed) }
}

/// A finite scalar argument within ±[`MAX_MAGNITUDE`].
#[inline]
pub fn finite(x: f32) -> FfiResult<f32> {
    if in_domain(x) {
        Ok(x)
    } else {
        Err(WfStatus::NonFinite)
    }
}

/// Writes `value` through an optional out-pointer (NULL: not wanted).
///
/// # Safety
/// If non-NULL, `ptr` must be valid for one aligned write of `T`.
#[inline]
pub unsafe fn write_opt<T>(ptr: *mut T, value: T) -> FfiResult {
    if ptr.is_null() {
        return Ok(());
    }
    if !(ptr as usize).is_multiple_of(core::mem::align_of::<T>()) {
        return Err(WfStatus::Misaligned);
    }
    // SAFETY: non-null and aligned; validity is the caller's contract.
    unsafe { ptr.write(value) };
    Ok(())
}

/// One required xyz point (3 floats): NULL is [`WfStatus::NullPointer`], NaN/Inf
/// [`WfStatus::NonFinite`].
///
/// # Safety
/// `xyz` must be NULL or point to 3 readable floats.
#[inline]
pub unsafe fn point_in(xyz: *const f32) -> FfiResult<Vec3> {
    if xyz.is_null() {
        return Err(WfStatus::NullPointer);
    }
    // SAFETY: forwarded contract.
    Ok(unsafe { points_in(xyz, 1)? }[0])
}

/// One required output element (a length, an id, a handle): NULL is
/// [`WfStatus::NullPointer`], misaligned [`WfStatus::Misaligned`]. Nothing is written here.
///
/// # Safety
/// `ptr` must be NULL or valid for one write of `T`.
#[inline]
pub unsafe fn one_out<'a, T>(ptr: *mut T) -> FfiResult<&'a mut T> {
    if ptr.is_null() {
        return Err(WfStatus::NullPointer);
    }
    // SAFETY: forwarded contract; slice_out checks alignment.
    Ok(&mut unsafe { slice_out(ptr, 1, 1)? }[0])
}

/// An optional single output element (NULL: not wanted).
///
/// # Safety
/// As [`one_out`].
#[inline]
pub unsafe fn opt_one_out<'a, T>(ptr: *mut T) -> FfiResult<Option<&'a mut T>> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded contract.
    Ok(Some(unsafe { one_out(ptr)? }))
}

/// An optional output of `needed` elements (NULL: not wanted, whatever the capacity).
///
/// # Safety
/// As [`slice_out`].
#[inline]
pub unsafe fn opt_slice_out<'a, T>(
    ptr: *mut T,
    capacity: usize,
    needed: usize,
) -> FfiResult<Option<&'a mut [T]>> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded contract.
    Ok(Some(unsafe { slice_out(ptr, capacity, needed)? }))
}

/// An optional output of `needed` xyz points (NULL: not wanted, whatever the capacity).
///
/// # Safety
/// As [`points_out`].
#[inline]
pub unsafe fn opt_points_out<'a>(
    xyz: *mut f32,
    capacity: usize,
    needed: usize,
) -> FfiResult<Option<&'a mut [Vec3]>> {
    if xyz.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded contract.
    Ok(Some(unsafe { points_out(xyz, capacity, needed)? }))
}

/// Moves `value` to the heap and hands ownership to the caller as an opaque pointer.
pub fn handle_new<T>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// Borrows a handle made by [`handle_new`]; NULL is [`WfStatus::NullPointer`].
///
/// # Safety
/// `ptr` must be NULL or a live pointer from `handle_new::<T>` not yet freed.
#[inline]
pub unsafe fn handle_ref<'a, T>(ptr: *const T) -> FfiResult<&'a T> {
    // SAFETY: forwarded contract.
    unsafe { ptr.as_ref() }.ok_or(WfStatus::NullPointer)
}

/// Mutably borrows a handle made by [`handle_new`]; NULL is [`WfStatus::NullPointer`].
///
/// # Safety
/// As [`handle_ref`], and no other reference to it may be live (the caller must not use the
/// handle from another thread during the call).
#[inline]
pub unsafe fn handle_mut<'a, T>(ptr: *mut T) -> FfiResult<&'a mut T> {
    // SAFETY: forwarded contract.
    unsafe { ptr.as_mut() }.ok_or(WfStatus::NullPointer)
}

/// Frees a handle made by [`handle_new`]; NULL is a no-op.
///
/// # Safety
/// `ptr` must be NULL or a live pointer from `handle_new::<T>`, freed once.
pub unsafe fn handle_free<T>(ptr: *mut T) {
    if !ptr.is_null() {
        let _ = std::panic::catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: forwarded contract: the pointer came from Box::into_raw.
            drop(unsafe { Box::from_raw(ptr) });
        }));
    }
}

/// A static, NUL-terminated English description of `status` (any value; unknown codes get
/// "unknown status"). Never NULL; the string lives as long as the library.
#[no_mangle]
pub extern "C" fn wf_status_str(status: c_int) -> *const c_char {
    let msg = ALL_STATUSES
        .iter()
        .find(|s| **s as c_int == status)
        .map_or("unknown status\0", |s| s.message());
    msg.as_ptr() as *const c_char
}

/// The library version as a static, NUL-terminated string (`"MAJOR.MINOR.PATCH"`).
#[no_mangle]
pub extern "C" fn wf_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_a_message_and_unknown_codes_do_too() {
        for s in ALL_STATUSES {
            // SAFETY: wf_status_str returns a static NUL-terminated string.
            let m = unsafe { core::ffi::CStr::from_ptr(wf_status_str(s as c_int)) };
            assert!(!m.to_bytes().is_empty());
        }
        // SAFETY: as above.
        let m = unsafe { core::ffi::CStr::from_ptr(wf_status_str(12345)) };
        assert_eq!(m.to_str().unwrap(), "unknown status");
    }

    #[test]
    fn guard_catches_panics() {
        assert_eq!(guard(|| panic!("boom")), WfStatus::Panic);
        assert_eq!(guard(|| Err(WfStatus::NonFinite)), WfStatus::NonFinite);
        assert_eq!(guard(|| Ok(())), WfStatus::Ok);
    }

    #[test]
    fn counts_that_overflow_are_rejected() {
        assert_eq!(float_len(usize::MAX / 2), Err(WfStatus::InvalidCount));
        // SAFETY: the checks fail before any dereference.
        unsafe {
            assert_eq!(points_in(core::ptr::null(), 0).map(|s| s.len()), Ok(0));
            assert_eq!(
                points_in(core::ptr::null(), 1).err(),
                Some(WfStatus::NullPointer)
            );
            let x = [0.0f32; 4];
            let odd = (x.as_ptr() as *const u8).add(1) as *const f32;
            assert_eq!(points_in(odd, 1).err(), Some(WfStatus::Misaligned));
        }
    }
}
