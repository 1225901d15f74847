//! Shared pieces of the fuzz targets: an input decoder that turns fuzzer bytes into the values a
//! hostile C caller can pass (counts, capacities, floats including NaN, ±Inf, subnormals and
//! huge values, NULL / misaligned / exact-size pointers), and sentinel-filled buffers that
//! check the boundary contract after each call:
//!
//! - a failing status leaves every output bit for bit as it was (sentinel fill);
//! - `WF_STATUS_OK` writes exactly the documented number of elements, every written float is
//!   finite, and nothing past that is touched;
//! - no call ever reports `WF_STATUS_PANIC` (libFuzzer's panic hook aborts on any panic, even
//!   one the boundary would catch, so a caught panic is a crash here too).
//!
//! Every buffer is allocated with exactly the size the call is told about, so AddressSanitizer
//! reports any read or write past it.

use arbitrary::Unstructured;
use wayfarer::ffi::WfStatus;

/// The f32 bit pattern that fills every output buffer before a call (a signalling NaN with a
/// payload no computation produces).
pub const SENTINEL_F32: u32 = 0x7FA5_5A5A;
/// The sentinel of integer outputs.
pub const SENTINEL_U32: u32 = 0xDEAD_BEEF;

/// Floats a C caller can pass that are not ordinary numbers.
pub const SPECIAL_F32: [f32; 16] = [
    f32::NAN,
    -f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    f32::MIN,
    f32::MIN_POSITIVE,
    -f32::MIN_POSITIVE,
    1.0e-45, // smallest subnormal
    -1.0e-45,
    0.0,
    -0.0,
    f32::EPSILON,
    1.0e30,
    -1.0e30,
    16_777_217.0,
];

/// Doubles a C caller can pass that are not ordinary numbers.
pub const SPECIAL_F64: [f64; 14] = [
    f64::NAN,
    -f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::MAX,
    f64::MIN,
    f64::MIN_POSITIVE,
    5.0e-324,
    0.0,
    -0.0,
    f64::EPSILON,
    1.0e300,
    -1.0e300,
    259_200.0, // three days in seconds
];

/// Counts that overflow `n * 3`, `n * 4` or `n * 12`, or name more memory than exists.
pub const HUGE_COUNTS: [usize; 6] = [
    usize::MAX,
    usize::MAX / 2 + 1,
    usize::MAX / 3 + 1,
    usize::MAX / 12 + 1,
    1 << 40,
    u32::MAX as usize + 1,
];

/// Decodes fuzzer bytes into call arguments. Running out of bytes yields zeros, so every input
/// decodes to something.
pub struct Input<'a> {
    u: Unstructured<'a>,
}

impl<'a> Input<'a> {
    /// Wraps the fuzzer's data.
    pub fn new(data: &'a [u8]) -> Self {
        Self {
            u: Unstructured::new(data),
        }
    }

    /// True when every byte has been consumed.
    pub fn is_empty(&self) -> bool {
        self.u.is_empty()
    }

    /// One byte (0 when exhausted).
    pub fn byte(&mut self) -> u8 {
        self.u.arbitrary().unwrap_or(0)
    }

    /// A little-endian u16 (0 when exhausted).
    pub fn u16(&mut self) -> u16 {
        self.u.arbitrary().unwrap_or(0)
    }

    /// A u32 (0 when exhausted).
    pub fn u32(&mut self) -> u32 {
        self.u.arbitrary().unwrap_or(0)
    }

    /// A bool.
    pub fn bool(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// An integer in `0..=max` (biased toward small values by the fuzzer's mutations).
    pub fn upto(&mut self, max: usize) -> usize {
        self.u.int_in_range(0..=max).unwrap_or(0)
    }

    /// A "probability" roll: true with chance `k / 256`.
    pub fn chance(&mut self, k: u8) -> bool {
        self.byte() < k
    }

    /// A count: usually `0..=max`, sometimes one of [`HUGE_COUNTS`] when `allow_huge`.
    pub fn count(&mut self, max: usize, allow_huge: bool) -> usize {
        if allow_huge && self.chance(8) {
            HUGE_COUNTS[self.upto(HUGE_COUNTS.len() - 1)]
        } else {
            self.upto(max)
        }
    }

    /// A finite float of moderate size: a 16-bit fixed-point value in about ±2048 with a step
    /// of 1/16, times the current scale.
    pub fn nice_f32(&mut self, scale: f32) -> f32 {
        (self.u16() as i16) as f32 / 16.0 * scale
    }

    /// Any float: mostly [`Input::nice_f32`], sometimes a special value or raw bits.
    pub fn any_f32(&mut self) -> f32 {
        match self.byte() {
            0..=11 => SPECIAL_F32[self.upto(SPECIAL_F32.len() - 1)],
            12..=15 => f32::from_bits(self.u32()),
            _ => self.nice_f32(1.0),
        }
    }

    /// A parameter documented in [0, 1]: mostly a multiple of 1/255 in it, sometimes
    /// [`Input::any_f32`].
    pub fn unit_f32(&mut self) -> f32 {
        if self.chance(224) {
            self.byte() as f32 / 255.0
        } else {
            self.any_f32()
        }
    }

    /// A scale for a whole array: usually 1, sometimes tiny (subnormal results) or huge
    /// (overflow in intermediate products).
    pub fn scale(&mut self) -> f32 {
        const SCALES: [f32; 10] = [
            1.0, 1.0, 1.0, 1.0e-3, 1.0e3, 1.0e-38, 1.0e-44, 1.0e15, 1.0e30, 1.0e34,
        ];
        match self.byte() {
            0..=191 => 1.0,
            b => SCALES[b as usize % SCALES.len()],
        }
    }

    /// `n` floats at one [`Input::scale`], with an occasional poisoned element (a special
    /// value at a fuzzer-chosen index).
    pub fn floats(&mut self, n: usize) -> Vec<f32> {
        let scale = self.scale();
        let mut v: Vec<f32> = (0..n).map(|_| self.nice_f32(scale)).collect();
        self.poison(&mut v);
        v
    }

    /// Replaces one element of `v` by a special float with chance 1/8.
    pub fn poison(&mut self, v: &mut [f32]) {
        if !v.is_empty() && self.chance(32) {
            let i = self.upto(v.len() - 1);
            v[i] = SPECIAL_F32[self.upto(SPECIAL_F32.len() - 1)];
        }
    }

    /// A double: mostly a multiple of 1/64 s in about ±1 day, sometimes special.
    pub fn any_f64(&mut self) -> f64 {
        match self.byte() {
            0..=9 => SPECIAL_F64[self.upto(SPECIAL_F64.len() - 1)],
            10..=12 => f64::from_bits(self.u.arbitrary().unwrap_or(0)),
            _ => (self.u32() as i32) as f64 / 65_536.0,
        }
    }

    /// How to pass a pointer argument.
    pub fn mode(&mut self) -> Mode {
        match self.byte() {
            0..=5 => Mode::Null,
            6..=9 => Mode::Misaligned,
            _ => Mode::Valid,
        }
    }
}

/// How a buffer's pointer is passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The buffer itself (exact size, aligned).
    Valid,
    /// NULL, with whatever count or capacity the call is told.
    Null,
    /// A pointer 1..3 bytes past an aligned allocation (valid memory, wrong alignment).
    Misaligned,
}

/// Backing store with room for a 1..3-byte misalignment; 8-byte aligned.
struct Store {
    words: Vec<u64>,
    offset: usize,
}

impl Store {
    fn new(bytes: usize, misaligned: bool) -> Self {
        let offset = if misaligned { 1 + bytes % 3 } else { 0 };
        Self {
            words: vec![0u64; (bytes + offset).div_ceil(8)],
            offset,
        }
    }
    fn ptr(&mut self) -> *mut u8 {
        // SAFETY: offset ≤ 3 < 8 ≤ allocation size whenever bytes > 0; for bytes == 0 and
        // offset 0 this is the (dangling but aligned) start of an empty Vec.
        unsafe { (self.words.as_mut_ptr() as *mut u8).add(self.offset) }
    }
}

/// A plain-old-data element type of an FFI buffer.
pub trait Elem: Copy + PartialEq + core::fmt::Debug {
    /// The value the buffer is filled with before the call.
    fn sentinel() -> Self;
    /// Same bits as the sentinel.
    fn is_sentinel(&self) -> bool;
    /// For floats: finite; integers: always true.
    fn is_finite_value(&self) -> bool;
}

impl Elem for f32 {
    fn sentinel() -> Self {
        f32::from_bits(SENTINEL_F32)
    }
    fn is_sentinel(&self) -> bool {
        self.to_bits() == SENTINEL_F32
    }
    fn is_finite_value(&self) -> bool {
        self.is_finite()
    }
}

impl Elem for u32 {
    fn sentinel() -> Self {
        SENTINEL_U32
    }
    fn is_sentinel(&self) -> bool {
        *self == SENTINEL_U32
    }
    fn is_finite_value(&self) -> bool {
        true
    }
}

impl Elem for i32 {
    fn sentinel() -> Self {
        SENTINEL_U32 as i32
    }
    fn is_sentinel(&self) -> bool {
        *self == SENTINEL_U32 as i32
    }
    fn is_finite_value(&self) -> bool {
        true
    }
}

impl Elem for f64 {
    fn sentinel() -> Self {
        f64::from_bits(0x7FF4_A5A5_5A5A_A5A5)
    }
    fn is_sentinel(&self) -> bool {
        self.to_bits() == 0x7FF4_A5A5_5A5A_A5A5
    }
    fn is_finite_value(&self) -> bool {
        self.is_finite()
    }
}

impl Elem for usize {
    fn sentinel() -> Self {
        0xDEAD_BEEF_0BAD_F00D_u64 as usize
    }
    fn is_sentinel(&self) -> bool {
        *self == Self::sentinel()
    }
    fn is_finite_value(&self) -> bool {
        true
    }
}

/// An input array passed as (pointer, count). `count` is what the call is told; the memory
/// behind a non-NULL pointer holds exactly `data.len()` elements.
pub struct InBuf<T: Elem> {
    store: Store,
    len: usize,
    mode: Mode,
    /// The count passed to the call.
    pub count: usize,
    _t: core::marker::PhantomData<T>,
}

impl<T: Elem> InBuf<T> {
    /// A buffer holding `data`, passed per `mode` with count `data.len() / per` (`per` = 3 for
    /// xyz points, 1 for scalars).
    pub fn new(data: &[T], per: usize, mode: Mode) -> Self {
        let size = core::mem::size_of::<T>();
        let mut store = Store::new(core::mem::size_of_val(data), mode == Mode::Misaligned);
        let p = store.ptr();
        for (i, v) in data.iter().enumerate() {
            // SAFETY: the store has room for data.len() elements after its offset;
            // unaligned writes are fine for any offset.
            unsafe { (p.add(i * size) as *mut T).write_unaligned(*v) };
        }
        Self {
            store,
            len: data.len(),
            mode,
            count: data.len() / per.max(1),
            _t: core::marker::PhantomData,
        }
    }

    /// NULL with the given (possibly huge) count: always a legal call.
    pub fn null(count: usize) -> Self {
        Self {
            store: Store::new(0, false),
            len: 0,
            mode: Mode::Null,
            count,
            _t: core::marker::PhantomData,
        }
    }

    /// The values behind the pointer (empty for NULL).
    pub fn values(&mut self) -> Vec<T> {
        let size = core::mem::size_of::<T>();
        let p = self.store.ptr();
        (0..self.len)
            // SAFETY: len elements live after the store's offset.
            .map(|i| unsafe { (p.add(i * size) as *const T).read_unaligned() })
            .collect()
    }

    /// The pointer to pass.
    pub fn ptr(&mut self) -> *const T {
        match self.mode {
            Mode::Null => core::ptr::null(),
            _ if self.len == 0 && self.mode == Mode::Valid => {
                core::ptr::NonNull::dangling().as_ptr()
            }
            _ => self.store.ptr() as *const T,
        }
    }
}

/// An output buffer passed as (pointer, capacity), pre-filled with the sentinel. The memory
/// behind a non-NULL pointer holds exactly `capacity * per` elements.
pub struct OutBuf<T: Elem> {
    store: Store,
    len: usize,
    mode: Mode,
    /// Elements per capacity unit (3 for xyz points).
    pub per: usize,
    /// The capacity passed to the call (points or elements).
    pub capacity: usize,
    _t: core::marker::PhantomData<T>,
}

impl<T: Elem> OutBuf<T> {
    /// A sentinel-filled buffer of `capacity` units of `per` elements, passed per `mode`.
    pub fn new(capacity: usize, per: usize, mode: Mode) -> Self {
        let len = if mode == Mode::Null {
            0
        } else {
            capacity * per
        };
        let size = core::mem::size_of::<T>();
        let mut store = Store::new(len * size, mode == Mode::Misaligned);
        let p = store.ptr();
        for i in 0..len {
            // SAFETY: the store has room for len elements after its offset.
            unsafe { (p.add(i * size) as *mut T).write_unaligned(T::sentinel()) };
        }
        Self {
            store,
            len,
            mode,
            per,
            capacity,
            _t: core::marker::PhantomData,
        }
    }

    /// A NULL output told it has `capacity` (possibly huge): always a legal call.
    pub fn null(capacity: usize, per: usize) -> Self {
        Self::new(capacity, per, Mode::Null).with_capacity(capacity)
    }

    fn with_capacity(mut self, capacity: usize) -> Self {
        self.capacity = capacity;
        self
    }

    /// Decodes a buffer for an output that needs `needed` units: NULL, misaligned, or a
    /// capacity around `needed` (too small, exact, or larger).
    pub fn fuzzed(input: &mut Input, needed: usize, per: usize, max: usize) -> Self {
        let mode = input.mode();
        let capacity = match input.byte() {
            0..=15 => needed.saturating_sub(1 + input.upto(3)),
            16..=31 => input.upto(max),
            32..=63 => needed.saturating_add(input.upto(4)),
            _ => needed,
        };
        if mode == Mode::Null {
            let capacity = if input.chance(16) {
                HUGE_COUNTS[input.upto(HUGE_COUNTS.len() - 1)]
            } else {
                capacity
            };
            return Self::null(capacity, per);
        }
        Self::new(capacity.min(max), per, mode)
    }

    /// True when the pointer passed is NULL.
    pub fn is_null(&self) -> bool {
        self.mode == Mode::Null
    }

    /// The pointer to pass.
    pub fn ptr(&mut self) -> *mut T {
        match self.mode {
            Mode::Null => core::ptr::null_mut(),
            _ if self.len == 0 && self.mode == Mode::Valid => {
                core::ptr::NonNull::dangling().as_ptr()
            }
            _ => self.store.ptr() as *mut T,
        }
    }

    /// The element values (read unaligned).
    pub fn values(&mut self) -> Vec<T> {
        let size = core::mem::size_of::<T>();
        let p = self.store.ptr();
        (0..self.len)
            // SAFETY: len elements live after the store's offset.
            .map(|i| unsafe { (p.add(i * size) as *const T).read_unaligned() })
            .collect()
    }

    fn would_fail(&mut self, units: usize) -> bool {
        let n = units * self.per;
        let vals = self.values();
        n > vals.len()
            || vals[..n].iter().any(|v| !v.is_finite_value())
            || vals[n..].iter().any(|v| !v.is_sentinel())
    }

    /// Panics unless every element still holds the sentinel.
    #[track_caller]
    pub fn assert_untouched(&mut self, what: &str) {
        if let Some(i) = self.values().iter().position(|v| !v.is_sentinel()) {
            panic!("{what}: output element {i} written although the call failed");
        }
    }

    /// Panics unless exactly the first `units` units were written (finite for floats) and the
    /// rest still holds the sentinel. Returns the written values.
    #[track_caller]
    pub fn assert_written(&mut self, units: usize, what: &str) -> Vec<T> {
        self.assert_written_ctx(units, what, &String::new)
    }

    /// [`OutBuf::assert_written`] with a description of the call's inputs in the message.
    #[track_caller]
    pub fn assert_written_ctx(
        &mut self,
        units: usize,
        what: &str,
        ctx: &dyn Fn() -> String,
    ) -> Vec<T> {
        let what = &format!(
            "{what}{}",
            if self.would_fail(units) {
                ctx()
            } else {
                String::new()
            }
        );
        let n = units * self.per;
        let mut vals = self.values();
        assert!(
            n <= vals.len(),
            "{what}: OK with capacity {} < needed {units}",
            self.capacity
        );
        if let Some(i) = vals[..n].iter().position(|v| !v.is_finite_value()) {
            panic!("{what}: non-finite output element {i}: {:?}", vals[i]);
        }
        if let Some(i) = vals[n..].iter().position(|v| !v.is_sentinel()) {
            panic!(
                "{what}: element {} written past the {units} documented",
                n + i
            );
        }
        vals.truncate(n);
        vals
    }
}

/// A single out-value (`T *out`), pre-filled with the sentinel; may be passed as NULL.
pub struct OutOne<T: Elem> {
    cell: Box<T>,
    null: bool,
}

impl<T: Elem> OutOne<T> {
    /// A sentinel-filled cell; `null` passes NULL instead.
    pub fn new(null: bool) -> Self {
        Self {
            cell: Box::new(T::sentinel()),
            null,
        }
    }
    /// The pointer to pass.
    pub fn ptr(&mut self) -> *mut T {
        if self.null {
            core::ptr::null_mut()
        } else {
            &mut *self.cell
        }
    }
    /// The value (the sentinel if untouched).
    pub fn get(&self) -> T {
        *self.cell
    }
    /// Panics unless still the sentinel.
    #[track_caller]
    pub fn assert_untouched(&self, what: &str) {
        assert!(
            self.cell.is_sentinel(),
            "{what}: out-value written although the call failed"
        );
    }
    /// Panics unless written with a finite value (or NULL was passed); returns it.
    #[track_caller]
    pub fn assert_written(&self, what: &str) -> T {
        if !self.null {
            assert!(
                !self.cell.is_sentinel(),
                "{what}: OK but out-value not written"
            );
            assert!(
                self.cell.is_finite_value(),
                "{what}: non-finite out-value {:?}",
                self.cell
            );
        }
        *self.cell
    }
}

/// A handle out-pointer (`WfX **out`), pre-filled with a recognisable dangling value.
pub struct OutHandle<T> {
    cell: Box<*mut T>,
    null: bool,
}

/// The value a handle out-pointer holds before the call.
pub const HANDLE_SENTINEL: usize = 0x5EA7_0000;

impl<T> OutHandle<T> {
    /// A sentinel-filled cell; `null` passes NULL for the out-pointer itself.
    pub fn new(null: bool) -> Self {
        Self {
            cell: Box::new(HANDLE_SENTINEL as *mut T),
            null,
        }
    }
    /// The pointer to pass.
    pub fn ptr(&mut self) -> *mut *mut T {
        if self.null {
            core::ptr::null_mut()
        } else {
            &mut *self.cell
        }
    }
    /// After the call: on failure the cell is untouched; on OK the new handle (non-NULL).
    #[track_caller]
    pub fn take(&self, status: WfStatus, what: &str) -> Option<*mut T> {
        if status == WfStatus::Ok {
            assert!(!self.null, "{what}: OK with a NULL out-pointer");
            assert!(
                !self.cell.is_null() && *self.cell as usize != HANDLE_SENTINEL,
                "{what}: OK but no handle written"
            );
            Some(*self.cell)
        } else {
            assert!(
                *self.cell as usize == HANDLE_SENTINEL,
                "{what}: handle out-pointer written although the call failed"
            );
            None
        }
    }
}

/// An input array of `count` xyz points (or scalars when `per` = 1), passed per a fuzzed
/// mode. Returns the buffer and whether the call must fail because of it (NULL or misaligned
/// with a non-zero count, or a non-finite value).
/// A float input the C ABI accepts: finite and within ±`MAX_MAGNITUDE` (1e15).
pub fn usable(x: f32) -> bool {
    x.abs() <= wayfarer::ffi::boundary::MAX_MAGNITUDE
}

pub fn array_in(inp: &mut Input, count: usize, per: usize) -> (InBuf<f32>, bool) {
    let mode = inp.mode();
    if mode == Mode::Null {
        let count = if inp.chance(32) {
            HUGE_COUNTS[inp.upto(HUGE_COUNTS.len() - 1)]
        } else {
            count
        };
        return (InBuf::null(count), count > 0);
    }
    let data = inp.floats(count * per);
    let bad = data.iter().any(|&x| !usable(x)) || mode == Mode::Misaligned;
    (InBuf::new(&data, per, mode), bad)
}

/// One required xyz point (3 floats); NULL sometimes.
pub fn point_in(inp: &mut Input) -> (InBuf<f32>, bool) {
    if inp.chance(6) {
        return (InBuf::null(0), true);
    }
    let data = inp.floats(3);
    let bad = data.iter().any(|&x| !usable(x));
    (InBuf::new(&data, 3, Mode::Valid), bad)
}

/// Panics on `WF_STATUS_PANIC` or on a value that is not a status at all; returns `status`.
#[track_caller]
pub fn checked(status: WfStatus, what: &str) -> WfStatus {
    let code = status as i32;
    assert!(
        code != WfStatus::Panic as i32
            && wayfarer::ffi::boundary::ALL_STATUSES
                .iter()
                .any(|s| *s as i32 == code),
        "{what}: status {code} ({status:?})"
    );
    status
}

/// The rule for pointer checks that every export shares: a NULL with a non-zero element count
/// cannot succeed; a misaligned non-empty buffer cannot succeed.
#[track_caller]
pub fn assert_not_ok_if(bad: bool, status: WfStatus, what: &str) {
    assert!(
        !(bad && status == WfStatus::Ok),
        "{what}: OK despite an invalid pointer"
    );
}

/// Degrees of `pieces` Bézier pieces: mostly 1..=5, sometimes 0, 64, 65 or any u32. Returns
/// them and whether one is outside 1..=64.
pub fn degrees_in(inp: &mut Input, pieces: usize) -> (Vec<u32>, bool) {
    let mut bad = false;
    let d: Vec<u32> = (0..pieces)
        .map(|_| {
            let v = match inp.byte() {
                0..=3 => inp.u32(),
                4..=7 => 0,
                8..=11 => 65,
                12..=15 => 64,
                b => 1 + (b as u32 % 5),
            };
            bad |= !(1..=64).contains(&v);
            v
        })
        .collect();
    (d, bad)
}

/// Paths built through the four `wf_path_new_*` constructors from fuzzed input.
pub mod path {
    use super::*;
    use wayfarer::ffi::timeline::*;

    /// Largest number of points of a fuzzed path.
    pub const MAX_POINTS: usize = 16;

    /// Calls one of the constructors with fuzzed (mostly valid) input and checks the contract:
    /// no handle on failure (out-pointer untouched), a handle on OK, never OK on invalid input.
    /// Returns the new handle, owned by the caller.
    pub fn new(inp: &mut Input) -> Option<*mut WfPath> {
        let kind = inp.byte() % 4;
        let n = if inp.chance(8) {
            inp.upto(1)
        } else {
            2 + inp.upto(MAX_POINTS - 2)
        };
        let mut out = OutHandle::<WfPath>::new(inp.chance(4));
        let (status, bad, what) = match kind {
            0 => {
                let (mut pts, bp) = array_in(inp, n, 3);
                // SAFETY: every pointer is NULL or valid for the count passed with it.
                let s = unsafe { wf_path_new_polyline(pts.ptr(), pts.count, out.ptr()) };
                (s, bp || pts.count < 2, "wf_path_new_polyline")
            }
            1 => {
                let (mut pts, bp) = array_in(inp, n, 3);
                let tn = if inp.chance(8) {
                    inp.upto(MAX_POINTS)
                } else {
                    n
                };
                let (mut tan, bt) = array_in(inp, tn, 3);
                // SAFETY: as above.
                let s = unsafe {
                    wf_path_new_hermite(pts.ptr(), pts.count, tan.ptr(), tan.count, out.ptr())
                };
                let bad = bp || bt || pts.count < 2 || pts.count != tan.count;
                (s, bad, "wf_path_new_hermite")
            }
            2 => {
                let (mut pts, bp) = array_in(inp, n, 3);
                let alpha = inp.unit_f32();
                let tension = inp.unit_f32();
                // SAFETY: as above.
                let s = unsafe {
                    wf_path_new_catmull_rom(pts.ptr(), pts.count, alpha, tension, out.ptr())
                };
                let bad = bp
                    || pts.count < 2
                    || !(0.0..=1.0).contains(&alpha)
                    || !(0.0..=1.0).contains(&tension);
                (s, bad, "wf_path_new_catmull_rom")
            }
            _ => {
                let pieces = inp.upto(3);
                let (degs, bd) = degrees_in(inp, pieces);
                let total: u64 = 1 + degs.iter().map(|&d| d as u64).sum::<u64>();
                let n = if inp.chance(16) {
                    inp.upto(MAX_POINTS)
                } else {
                    (total as usize).min(4 * 65 + 1)
                };
                let (mut pts, bp) = array_in(inp, n, 3);
                let dmode = inp.mode();
                let mut dbuf: InBuf<u32> = if dmode == Mode::Null {
                    InBuf::null(pieces)
                } else {
                    InBuf::new(&degs, 1, dmode)
                };
                // SAFETY: as above.
                let s = unsafe {
                    wf_path_new_bezier_chain(pts.ptr(), pts.count, dbuf.ptr(), pieces, out.ptr())
                };
                let bad = bd
                    || bp
                    || (dmode != Mode::Valid && pieces > 0)
                    || pieces == 0
                    || total != pts.count as u64;
                (s, bad, "wf_path_new_bezier_chain")
            }
        };
        checked(status, what);
        let handle = out.take(status, what);
        assert!(
            !(bad && handle.is_some()),
            "{what}: OK despite invalid input"
        );
        handle
    }
}

/// Crowd calls from fuzzed input, applied identically to one or more crowds (the thread
/// differential target runs two crowds in lockstep).
pub mod crowd {
    use super::*;
    use wayfarer::ffi::crowd::*;
    use wayfarer::ffi::goals::*;

    /// What the target knows about the crowds it drives: live ids in creation order.
    #[derive(Clone, Default)]
    pub struct Model {
        /// Ids of live agents.
        pub agents: Vec<u32>,
        /// Ids of live obstacles.
        pub obstacles: Vec<u32>,
    }

    /// A live id from `live` or, sometimes, any u32 (probably unknown).
    pub fn id(inp: &mut Input, live: &[u32]) -> u32 {
        if live.is_empty() || inp.chance(16) {
            match inp.byte() {
                0..=127 => inp.u32(),
                b => b as u32 - 128,
            }
        } else {
            live[inp.upto(live.len() - 1)]
        }
    }

    /// Far but legal coordinates (grid cells past i32, the edge of the ±1e15 domain).
    const FAR: [f32; 6] = [1.0e15, -1.0e15, 3.0e9, -3.0e9, 1.0e7, -2.5e12];

    /// A position near the origin (a 40 m square), sometimes far away, sometimes anything.
    pub fn position(inp: &mut Input) -> [f32; 3] {
        if inp.chance(16) {
            [inp.any_f32(), inp.any_f32(), inp.any_f32()]
        } else if inp.chance(8) {
            let far = |inp: &mut Input| FAR[inp.upto(FAR.len() - 1)];
            [far(inp), 0.0, far(inp)]
        } else {
            [
                inp.byte() as f32 / 6.4 - 20.0,
                (inp.byte() % 4) as f32 * 0.25,
                inp.byte() as f32 / 6.4 - 20.0,
            ]
        }
    }

    /// A scalar: mostly `lo + byte × step`, sometimes anything.
    pub fn scalar(inp: &mut Input, lo: f32, step: f32) -> f32 {
        if inp.chance(12) {
            inp.any_f32()
        } else {
            lo + inp.byte() as f32 * step
        }
    }

    /// Applies one mutating call to every crowd in `crowds` (same arguments), checks that all
    /// return the same status and that failures leave out-values untouched, and updates the
    /// model. Returns the call's name and status.
    ///
    /// # Safety
    /// Every crowd must be live and used by no other thread during the call.
    pub unsafe fn mutate(
        inp: &mut Input,
        crowds: &[*mut WfCrowd],
        m: &mut Model,
    ) -> (&'static str, WfStatus) {
        let op = inp.byte() % 18;
        let mut statuses = Vec::with_capacity(crowds.len());
        let mut new_id = None;
        let what: &'static str;
        match op {
            0..=3 => {
                what = "wf_crowd_add_agent";
                let p = position(inp);
                let (yaw, speed, radius) = (
                    scalar(inp, -4.0, 0.05),
                    scalar(inp, 0.0, 0.05),
                    scalar(inp, 0.05, 0.01),
                );
                let null_p = inp.chance(4);
                let null_out = inp.chance(4);
                for &c in crowds {
                    let mut out = OutOne::<u32>::new(null_out);
                    let pp = if null_p {
                        core::ptr::null()
                    } else {
                        p.as_ptr()
                    };
                    // SAFETY: c is live; pp NULL or 3 floats; out NULL or one u32.
                    let s = checked(
                        unsafe { wf_crowd_add_agent(c, pp, yaw, speed, radius, out.ptr()) },
                        what,
                    );
                    if s == WfStatus::Ok {
                        assert!(
                            !null_p
                                && p.iter().all(|&x| usable(x))
                                && usable(yaw)
                                && usable(speed)
                                && speed >= 0.0
                                && usable(radius)
                                && radius > 0.0,
                            "{what}: OK despite invalid input"
                        );
                        new_id = Some(out.get());
                    } else {
                        out.assert_untouched(what);
                    }
                    statuses.push(s);
                }
                if let Some(id) = new_id {
                    assert!(
                        !m.agents.contains(&id),
                        "{what}: id {id} of a live agent reused"
                    );
                    m.agents.push(id);
                }
            }
            4 => {
                what = "wf_crowd_remove_agent";
                let id = id(inp, &m.agents);
                for &c in crowds {
                    // SAFETY: c is live.
                    statuses.push(checked(unsafe { wf_crowd_remove_agent(c, id) }, what));
                }
                if statuses[0] == WfStatus::Ok {
                    assert!(m.agents.contains(&id), "{what}: OK for unknown id {id}");
                    m.agents.retain(|&a| a != id);
                } else {
                    assert!(!m.agents.contains(&id) || statuses[0] != WfStatus::OutOfRange);
                }
            }
            6 => {
                what = "wf_crowd_set_targets";
                let n = inp.upto(m.agents.len().min(8));
                let ids: Vec<u32> = (0..n).map(|_| id(inp, &m.agents)).collect();
                let pts: Vec<f32> = (0..n).flat_map(|_| position(inp)).collect();
                let radii: Vec<f32> = (0..n).map(|_| scalar(inp, 0.0, 0.02)).collect();
                let with_radii = inp.bool();
                let tc = if inp.chance(16) { inp.upto(8) } else { n };
                let pts = &pts[..3 * tc.min(n)];
                let mode = inp.mode();
                for &c in crowds {
                    let mut b = if mode == Mode::Null {
                        InBuf::null(pts.len() / 3)
                    } else {
                        InBuf::new(pts, 3, mode)
                    };
                    // SAFETY: c is live; ids n u32; targets NULL or pc points (pts holds them);
                    // radii n floats or NULL.
                    let s = unsafe {
                        wf_crowd_set_targets(
                            c,
                            ids.as_ptr(),
                            n,
                            b.ptr(),
                            b.count,
                            if with_radii {
                                radii.as_ptr()
                            } else {
                                core::ptr::null()
                            },
                            if with_radii { n } else { 0 },
                        )
                    };
                    statuses.push(checked(s, what));
                }
                if statuses[0] == WfStatus::Ok {
                    let ok = ids.iter().all(|i| m.agents.contains(i))
                        && pts.len() == 3 * n
                        && (n == 0 || mode == Mode::Valid)
                        && pts.iter().all(|&x| usable(x))
                        && (!with_radii || radii.iter().all(|&r| usable(r) && r >= 0.0));
                    assert!(ok, "{what}: OK despite invalid input");
                }
            }
            5 => {
                what = "wf_crowd_set_target";
                let id = id(inp, &m.agents);
                let t = position(inp);
                let r = scalar(inp, 0.0, 0.02);
                let null_t = inp.chance(4);
                for &c in crowds {
                    let tp = if null_t {
                        core::ptr::null()
                    } else {
                        t.as_ptr()
                    };
                    // SAFETY: c is live; tp NULL or 3 floats.
                    statuses.push(checked(unsafe { wf_crowd_set_target(c, id, tp, r) }, what));
                }
                if statuses[0] == WfStatus::Ok {
                    let ok = !null_t && t.iter().all(|&x| usable(x)) && usable(r) && r >= 0.0;
                    assert!(ok, "{what}: OK despite invalid input");
                }
            }
            7 => {
                what = "wf_crowd_set_steering";
                let id = id(inp, &m.agents);
                let a = [
                    scalar(inp, 0.0, 0.05),
                    scalar(inp, 0.0, 0.05),
                    scalar(inp, 0.0, 0.0125),
                    scalar(inp, 0.0, 0.02),
                ];
                for &c in crowds {
                    // SAFETY: c is live.
                    statuses.push(checked(
                        unsafe { wf_crowd_set_steering(c, id, a[0], a[1], a[2], a[3]) },
                        what,
                    ));
                }
                if statuses[0] == WfStatus::Ok {
                    assert!(a.iter().all(|&x| usable(x)), "{what}: OK for {a:?}");
                }
            }
            8 => {
                what = "wf_crowd_set_priority";
                let id = id(inp, &m.agents);
                let p = scalar(inp, -8.0, 0.125);
                let (layer, mask) = if inp.chance(64) {
                    (inp.u32(), inp.u32())
                } else {
                    (1, u32::MAX)
                };
                for &c in crowds {
                    // SAFETY: c is live.
                    statuses.push(checked(
                        unsafe { wf_crowd_set_priority(c, id, p, layer, mask) },
                        what,
                    ));
                }
            }
            9 => {
                what = "wf_crowd_set_speed";
                let id = id(inp, &m.agents);
                let (speed, radius) = (scalar(inp, 0.0, 0.05), scalar(inp, 0.0, 0.01));
                for &c in crowds {
                    // SAFETY: c is live.
                    statuses.push(checked(
                        unsafe { wf_crowd_set_speed(c, id, speed, radius) },
                        what,
                    ));
                }
                if statuses[0] == WfStatus::Ok {
                    let ok = usable(speed) && speed >= 0.0 && usable(radius) && radius > 0.0;
                    assert!(ok, "{what}: OK for speed {speed}, radius {radius}");
                }
            }
            10 => {
                what = "wf_crowd_set_waypoints";
                let id = id(inp, &m.agents);
                let n = inp.upto(6);
                let pts: Vec<f32> = (0..n).flat_map(|_| position(inp)).collect();
                let mode = inp.mode();
                for &c in crowds {
                    let mut b = if mode == Mode::Null {
                        InBuf::null(n)
                    } else {
                        InBuf::new(&pts, 3, mode)
                    };
                    // SAFETY: c is live; b NULL or n points.
                    statuses.push(checked(
                        unsafe { wf_crowd_set_waypoints(c, id, b.ptr(), n) },
                        what,
                    ));
                }
            }
            11 => {
                what = "wf_crowd_set_route_mode";
                let id = id(inp, &m.agents);
                let mode = if inp.chance(16) {
                    inp.u32()
                } else {
                    inp.byte() as u32 % 3
                };
                for &c in crowds {
                    // SAFETY: c is live.
                    statuses.push(checked(
                        unsafe { wf_crowd_set_route_mode(c, id, mode) },
                        what,
                    ));
                }
                if statuses[0] == WfStatus::Ok {
                    assert!(mode <= 2, "{what}: OK for mode {mode}");
                }
            }
            12 => {
                what = "wf_crowd_set_positions";
                let n = inp.upto(m.agents.len().min(8));
                let ids: Vec<u32> = (0..n).map(|_| id(inp, &m.agents)).collect();
                let pos: Vec<f32> = (0..n).flat_map(|_| position(inp)).collect();
                let yaws: Vec<f32> = (0..n).map(|_| scalar(inp, -4.0, 0.05)).collect();
                let with_yaws = inp.bool();
                let pc = if inp.chance(16) { inp.upto(8) } else { n };
                let pos = &pos[..3 * pc.min(n)];
                for &c in crowds {
                    // SAFETY: c is live; ids n u32; positions pc points (pos holds them);
                    // yaws n floats or NULL.
                    let s = unsafe {
                        wf_crowd_set_positions(
                            c,
                            ids.as_ptr(),
                            n,
                            pos.as_ptr(),
                            pos.len() / 3,
                            if with_yaws {
                                yaws.as_ptr()
                            } else {
                                core::ptr::null()
                            },
                            if with_yaws { n } else { 0 },
                        )
                    };
                    statuses.push(checked(s, what));
                }
            }
            13 | 14 => {
                let kind = inp.byte() % 4;
                let (a, b) = (position(inp), position(inp));
                let (r1, r2, r3) = (
                    scalar(inp, 0.0, 0.02),
                    scalar(inp, 0.0, 0.02),
                    scalar(inp, -4.0, 0.05),
                );
                let null_out = inp.chance(4);
                what = [
                    "wf_crowd_add_circle",
                    "wf_crowd_add_box",
                    "wf_crowd_add_oriented_box",
                    "wf_crowd_add_wall",
                ][kind as usize];
                for &c in crowds {
                    let mut out = OutOne::<u32>::new(null_out);
                    // SAFETY: c is live; a, b 3 floats; out NULL or one u32.
                    let s = unsafe {
                        match kind {
                            0 => wf_crowd_add_circle(c, a.as_ptr(), r1, out.ptr()),
                            1 => wf_crowd_add_box(c, a.as_ptr(), b.as_ptr(), out.ptr()),
                            2 => wf_crowd_add_oriented_box(c, a.as_ptr(), r1, r2, r3, out.ptr()),
                            _ => wf_crowd_add_wall(c, a.as_ptr(), b.as_ptr(), out.ptr()),
                        }
                    };
                    checked(s, what);
                    if s == WfStatus::Ok {
                        new_id = Some(out.get());
                    } else {
                        out.assert_untouched(what);
                    }
                    statuses.push(s);
                }
                if let Some(id) = new_id {
                    assert!(
                        !m.obstacles.contains(&id),
                        "{what}: id {id} of a live obstacle reused"
                    );
                    m.obstacles.push(id);
                }
            }
            16 => {
                what = "wf_crowd_set_goals";
                let id = id(inp, &m.agents);
                let n = inp.upto(4);
                let pts: Vec<f32> = (0..n).flat_map(|_| position(inp)).collect();
                let radii: Vec<f32> = (0..n).map(|_| scalar(inp, 0.0, 0.02)).collect();
                let waits: Vec<f32> = (0..n).map(|_| scalar(inp, -0.5, 0.02)).collect();
                let (with_radii, with_waits) = (inp.bool(), inp.bool());
                let on_arrival = if inp.chance(8) {
                    inp.u32()
                } else {
                    inp.upto(2) as u32
                };
                let null_targets = n > 0 && inp.chance(8);
                for &c in crowds {
                    let opt =
                        |on: bool, v: &Vec<f32>| if on { v.as_ptr() } else { core::ptr::null() };
                    // SAFETY: c is live; every array NULL or n entries (pts 3n floats).
                    let s = unsafe {
                        wf_crowd_set_goals(
                            c,
                            id,
                            if null_targets {
                                core::ptr::null()
                            } else {
                                pts.as_ptr()
                            },
                            opt(with_radii, &radii),
                            opt(with_waits, &waits),
                            n,
                            on_arrival,
                        )
                    };
                    statuses.push(checked(s, what));
                }
                if statuses[0] == WfStatus::Ok {
                    let ok = m.agents.contains(&id)
                        && on_arrival <= 2
                        && (n == 0 || !null_targets)
                        && pts.iter().all(|&x| usable(x))
                        && (!with_radii || radii.iter().all(|&r| usable(r) && r >= 0.0))
                        && (!with_waits || waits.iter().all(|&w| usable(w) && w >= 0.0));
                    assert!(ok, "{what}: OK despite invalid input");
                }
            }
            17 => {
                let id = id(inp, &m.agents);
                match inp.byte() % 3 {
                    0 => {
                        what = "wf_crowd_push_goal";
                        let t = position(inp);
                        let (r, w) = (scalar(inp, 0.0, 0.02), scalar(inp, -0.5, 0.02));
                        for &c in crowds {
                            // SAFETY: c is live; t 3 floats.
                            statuses.push(checked(
                                unsafe { wf_crowd_push_goal(c, id, t.as_ptr(), r, w) },
                                what,
                            ));
                        }
                        if statuses[0] == WfStatus::Ok {
                            let ok = m.agents.contains(&id)
                                && t.iter().all(|&x| usable(x))
                                && usable(r)
                                && r >= 0.0
                                && usable(w)
                                && w >= 0.0;
                            assert!(ok, "{what}: OK despite invalid input");
                        }
                    }
                    1 => {
                        what = "wf_crowd_set_on_arrival";
                        let on = if inp.chance(4) {
                            inp.u32()
                        } else {
                            inp.upto(2) as u32
                        };
                        for &c in crowds {
                            // SAFETY: c is live.
                            statuses
                                .push(checked(unsafe { wf_crowd_set_on_arrival(c, id, on) }, what));
                        }
                        if statuses[0] == WfStatus::Ok {
                            assert!(m.agents.contains(&id) && on <= 2, "{what}: OK for {on}");
                        }
                    }
                    _ => {
                        what = "wf_crowd_goals_left";
                        for &c in crowds {
                            let mut out = OutOne::<usize>::new(false);
                            // SAFETY: c is live; out one usize.
                            let s = unsafe { wf_crowd_goals_left(c, id, out.ptr()) };
                            if s != WfStatus::Ok {
                                out.assert_untouched(what);
                            }
                            statuses.push(checked(s, what));
                        }
                        if statuses[0] == WfStatus::Ok {
                            assert!(m.agents.contains(&id), "{what}: OK for unknown id");
                        }
                    }
                }
            }
            _ => {
                what = "wf_crowd_remove_obstacle";
                let id = id(inp, &m.obstacles);
                for &c in crowds {
                    // SAFETY: c is live.
                    statuses.push(checked(unsafe { wf_crowd_remove_obstacle(c, id) }, what));
                }
                if statuses[0] == WfStatus::Ok {
                    assert!(m.obstacles.contains(&id), "{what}: OK for unknown id {id}");
                    m.obstacles.retain(|&a| a != id);
                }
            }
        }
        assert!(
            statuses.windows(2).all(|w| w[0] == w[1]),
            "{what}: crowds disagree: {statuses:?}"
        );
        (what, statuses[0])
    }

    /// A time step: mostly 1/60 .. 1/4 s, sometimes long (many sub-steps), zero, negative or
    /// hostile.
    pub fn dt(inp: &mut Input) -> f32 {
        match inp.byte() {
            0..=7 => inp.any_f32(),
            8..=11 => [0.0, -0.016, 1.0, 6.4, 100.0, 1e-7, 1e15, f32::MIN_POSITIVE][inp.upto(7)],
            b => (b as f32 - 11.0) / 960.0,
        }
    }

    /// Reads the last step's events (`wf_crowd_read_events`: the count first, then every
    /// field), checks them against the model and removes the agents that left. Returns the
    /// events as bits (kind, agent, goal, position) for comparing crowds.
    ///
    /// # Safety
    /// `c` must be a live crowd, not mutated by another thread during the call.
    pub unsafe fn drain_events(c: *const WfCrowd, m: &mut Model) -> Vec<u32> {
        let mut n = <usize as Elem>::sentinel();
        let (null, nullf) = (core::ptr::null_mut::<u32>(), core::ptr::null_mut::<f32>());
        // SAFETY: c is live; every array NULL; n one usize.
        let s = unsafe { wf_crowd_read_events(c, null, 0, null, 0, null, 0, nullf, 0, &mut n) };
        assert_eq!(s, WfStatus::Ok, "wf_crowd_read_events: count");
        let (mut kinds, mut agents, mut goals, mut pos) = (
            vec![0u32; n],
            vec![0u32; n],
            vec![0u32; n],
            vec![0.0f32; 3 * n],
        );
        if n > 0 {
            let mut short = <usize as Elem>::sentinel();
            // SAFETY: as above; kinds holds n, the capacity says n - 1.
            let s = unsafe {
                wf_crowd_read_events(
                    c,
                    kinds.as_mut_ptr(),
                    n - 1,
                    null,
                    0,
                    null,
                    0,
                    nullf,
                    0,
                    &mut short,
                )
            };
            assert_eq!(
                s,
                WfStatus::BufferTooSmall,
                "wf_crowd_read_events: short buffer"
            );
            assert_eq!(short, n, "wf_crowd_read_events: the count needed");
        }
        let mut again = <usize as Elem>::sentinel();
        // SAFETY: as above; each array holds n entries (positions 3n floats).
        let s = unsafe {
            wf_crowd_read_events(
                c,
                kinds.as_mut_ptr(),
                n,
                agents.as_mut_ptr(),
                n,
                goals.as_mut_ptr(),
                n,
                pos.as_mut_ptr(),
                n,
                &mut again,
            )
        };
        assert_eq!(s, WfStatus::Ok, "wf_crowd_read_events");
        assert_eq!(again, n);
        for (k, &a) in kinds.iter().zip(&agents) {
            assert!(*k <= 1, "event kind {k}");
            assert!(
                m.agents.contains(&a),
                "event for agent {a} not in the model"
            );
            if *k == WfEvent::Despawned as u32 {
                m.agents.retain(|&x| x != a);
            }
        }
        assert!(pos.iter().all(|x| x.is_finite()), "event position");
        let mut all = kinds;
        all.extend(&agents);
        all.extend(&goals);
        all.extend(pos.iter().map(|x| x.to_bits()));
        all
    }

    /// Everything the read calls report for `ids`, as bits (positions, yaws, states, hit kinds,
    /// hit ids, points, normals), after checking the values are valid.
    ///
    /// # Safety
    /// `c` must be a live crowd, not mutated by another thread during the call.
    pub unsafe fn read_all(c: *const WfCrowd, ids: &[u32]) -> Vec<u32> {
        let n = ids.len();
        let (mut pos, mut yaw, mut st) = (vec![0.0f32; 3 * n], vec![0.0f32; n], vec![0u32; n]);
        // SAFETY: c is live; ids n u32; outputs hold n each.
        let s = unsafe {
            wf_crowd_read_agents(
                c,
                ids.as_ptr(),
                n,
                pos.as_mut_ptr(),
                n,
                yaw.as_mut_ptr(),
                n,
                st.as_mut_ptr(),
                n,
            )
        };
        assert_eq!(s, WfStatus::Ok, "wf_crowd_read_agents of live agents");
        let (mut kinds, mut hid, mut pts, mut nrm) = (
            vec![0u32; n],
            vec![0u32; n],
            vec![0.0f32; 3 * n],
            vec![0.0f32; 3 * n],
        );
        // SAFETY: as above.
        let s = unsafe {
            wf_crowd_read_hits(
                c,
                ids.as_ptr(),
                n,
                kinds.as_mut_ptr(),
                n,
                hid.as_mut_ptr(),
                n,
                pts.as_mut_ptr(),
                n,
                nrm.as_mut_ptr(),
                n,
            )
        };
        assert_eq!(s, WfStatus::Ok, "wf_crowd_read_hits of live agents");
        let mut vel = vec![0.0f32; 3 * n];
        // SAFETY: as above.
        let s = unsafe { wf_crowd_read_velocities(c, ids.as_ptr(), n, vel.as_mut_ptr(), n) };
        assert_eq!(s, WfStatus::Ok, "wf_crowd_read_velocities of live agents");
        for v in [&pos, &yaw, &pts, &nrm, &vel] {
            assert!(
                v.iter().all(|x| x.is_finite()),
                "crowd read: non-finite value in {v:?}"
            );
        }
        assert!(
            st.iter().all(|&x| x <= 3),
            "agent state outside 0..=3: {st:?}"
        );
        assert!(
            kinds.iter().all(|&x| x <= 2),
            "hit kind outside 0..=2: {kinds:?}"
        );
        let mut all: Vec<u32> = pos.iter().chain(&yaw).map(|x| x.to_bits()).collect();
        all.extend(&st);
        all.extend(&kinds);
        all.extend(&hid);
        all.extend(pts.iter().chain(&nrm).map(|x| x.to_bits()));
        all
    }
}
