//! Arc length: total length, distance → parameter (constant-speed motion) and parameter →
//! distance, for any [`ParamCurve`].
//!
//! ## Baking
//! Each segment's length `L = ∫₀¹ |C'(t)| dt` is integrated by adaptive 5-point Gauss–Legendre
//! quadrature in f64: an interval `[a, b]` is accepted when the 5-point estimate over `[a, b]`
//! and the sum of the estimates over its two halves agree to `rel_tol` (the difference is the
//! error estimate, summed into [`ArcLengthTable::error_estimate`]); the two halves then become
//! table intervals.
//!
//! ## Inversion
//! Within an interval the parameter is a smooth function of distance, `t(s)`, whose derivative
//! is known exactly at both ends: `dt/ds = 1 / |C'(t)|`. The table stores, per interval, the
//! cubic Hermite interpolant of `t(s)` from those ends. An interval is accepted only if that
//! interpolant also tracks `t(s)` closely enough. Its error has the shape `e(x) ≈ K·x²(1−x)²`
//! on `x ∈ [0, 1]`, so the value error at the interval's split point (where the true `t` is
//! known, at a known distance) bounds the slope error — the speed ripple — by
//! `3.08·|e(½)|/(b − a)` relative. Because `e'(½) = 0` in that asymptotic regime, the slope at
//! the split point is a second, independent check that catches intervals too large for it. An
//! interval is split until both are within [`RIPPLE_CHECK`]; it is then stored as its two
//! halves, each better (the slope error falls as `h³`). Measured speed ripple: 0.054 %
//! (`tests/curve_arclength.rs`).
//!
//! ## Queries
//! A coarse grid over distance (one cell per interval) narrows the search to a few intervals;
//! then one cubic and one curve evaluation: no iteration, no allocation. Intervals are stored
//! as one array of structs so a query touches one cache line of the table.
//!
//! Where the curve's speed is (nearly) zero, `dt/ds` is unbounded; there the secant slope is
//! used and subdivision stops at [`MAX_DEPTH`]. Zero-length segments get no interval and are
//! skipped by distance queries (a curve of length zero maps every distance to its start).

use super::ParamCurve;
use glam::Vec3;

/// Relative tolerance of the per-interval length estimate used by [`ArcLengthTable::new`].
pub const DEFAULT_REL_TOL: f64 = 2.5e-7;
/// Largest accepted estimated relative error of the interpolated `dt/ds` over an interval
/// before it is split in two (the halves then do ~8× better).
pub const RIPPLE_CHECK: f64 = 1e-3;
/// For a cubic Hermite interpolant the error is `e(x) ≈ K·x²(1−x)²`: its largest slope error,
/// `K·max|2x(1−x)(1−2x)| = K·0.19245`, is `3.079·e(½)` (x in interval units).
const SLOPE_PER_VALUE_ERROR: f64 = 3.079;
/// Longest walk over the table's `starts` before a query falls back to a binary search.
const WALK: usize = 8;
/// Deepest subdivision of one segment (intervals no narrower than `2^-MAX_DEPTH` in `t`).
pub const MAX_DEPTH: u32 = 14;

/// 5-point Gauss–Legendre nodes on [-1, 1] (positive half) and weights.
const GL5_X: [f64; 3] = [0.0, 0.538_469_310_105_683_1, 0.906_179_845_938_664];
const GL5_W: [f64; 3] = [
    0.568_888_888_888_888_9,
    0.478_628_670_499_366_5,
    0.236_926_885_056_189_1,
];

/// A point on a curve: segment index and local parameter `t ∈ [0, 1]`.
///
/// ```
/// use wayfarer::curve::CurveParam;
///
/// // Global parameter 2.25 on a curve of 4 segments: segment 2, t = 0.25.
/// let p = CurveParam::from_global(2.25, 4);
/// assert_eq!((p.segment, p.t), (2, 0.25));
/// assert_eq!(p.global(), 2.25);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurveParam {
    /// Segment index.
    pub segment: usize,
    /// Local parameter in `[0, 1]`.
    pub t: f32,
}

impl CurveParam {
    /// Splits a global parameter `u ∈ [0, segments]` (clamped; NaN → 0) into segment and `t`.
    pub fn from_global(u: f32, segments: usize) -> Self {
        Self::from_global_f64(u as f64, segments)
    }

    /// [`CurveParam::from_global`] for an f64 global parameter.
    pub fn from_global_f64(u: f64, segments: usize) -> Self {
        let segments = segments.max(1);
        let u = if u.is_nan() {
            0.0
        } else {
            u.clamp(0.0, segments as f64)
        };
        let seg = (u.floor() as usize).min(segments - 1);
        Self {
            segment: seg,
            t: ((u - seg as f64) as f32).clamp(0.0, 1.0),
        }
    }

    /// The global parameter `segment + t`.
    pub fn global(&self) -> f64 {
        self.segment as f64 + self.t as f64
    }
}

/// One interval of the table: the cubic Hermite of `t(x)`, `x = (s − s0)/ds ∈ [0, 1]`.
/// Everything a query needs sits in these 28 bytes (one cache line at most).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Interval {
    /// Distance at the interval's start (f32, rounded from an f64 running sum).
    pub(crate) start: f32,
    /// `1 / ds`, the interval's length in f32.
    pub(crate) inv_ds: f32,
    /// The curve segment.
    pub(crate) segment: u32,
    /// Parameter at the start and the end.
    pub(crate) t0: f32,
    pub(crate) t1: f32,
    /// `dt/dx` at `x = 0` and `x = 1` (that is `ds · dt/ds`).
    pub(crate) m0: f32,
    pub(crate) m1: f32,
}

/// The baked arc-length table of one curve: see the module docs for the method.
///
/// ```
/// use wayfarer::curve::{ArcLengthTable, CubicSpline};
/// use wayfarer::Vec3;
///
/// let line = CubicSpline::polyline(&[Vec3::ZERO, Vec3::new(3.0, 0.0, 0.0), Vec3::new(3.0, 0.0, 4.0)]).unwrap();
/// let table = ArcLengthTable::new(&line); // bake once
/// assert!((table.total_length() - 7.0).abs() < 1e-5);
/// let p = table.position_at_distance(&line, 5.0); // then query by distance
/// assert!((p - Vec3::new(3.0, 0.0, 2.0)).length() < 1e-4);
/// ```
///
/// The table does not borrow the curve; pass the same curve to the queries that evaluate it.
#[derive(Clone, Debug)]
pub struct ArcLengthTable {
    intervals: Vec<Interval>,
    /// `intervals[i].start` as its own column, plus `+∞` at the end: the search reads only
    /// this (16 starts per cache line) and needs no end test.
    starts: Vec<f32>,
    /// Coarse index: `grid[k]` is the interval holding distance `k / grid_scale`; the answer
    /// for a distance in cell `k` lies in `grid[k]..=grid[k + 1]`.
    grid: Vec<u32>,
    /// Grid cells per unit of distance.
    grid_scale: f32,
    /// First interval index of each segment, plus the total interval count at the end.
    segment_first: Vec<u32>,
    /// Distance at each segment's start (f64), plus the total length at the end.
    segment_start: Vec<f64>,
    total: f64,
    error: f64,
}

/// An interval waiting on the baking stack: `[a, b]`, its length, depth and end speeds.
struct Pending {
    a: f64,
    b: f64,
    len: f64,
    depth: u32,
    va: f64,
    vb: f64,
}

/// Length of `[a, b]` by 5-point Gauss–Legendre on the curve's speed.
fn gl5<C: ParamCurve + ?Sized>(curve: &C, segment: usize, a: f64, b: f64) -> f64 {
    let half = 0.5 * (b - a);
    let mid = 0.5 * (a + b);
    let speed = |x: f64| curve.derivative(segment, (mid + half * x) as f32).length() as f64;
    let mut sum = GL5_W[0] * speed(0.0);
    for k in 1..3 {
        sum += GL5_W[k] * (speed(GL5_X[k]) + speed(-GL5_X[k]));
    }
    sum * half
}

/// Cubic Hermite on [0, 1] of values `y0`, `y1` and slopes `m0`, `m1` (all f64).
fn hermite_f64(y0: f64, y1: f64, m0: f64, m1: f64, x: f64) -> (f64, f64) {
    let (x2, x3) = (x * x, x * x * x);
    let y = (2.0 * x3 - 3.0 * x2 + 1.0) * y0
        + (x3 - 2.0 * x2 + x) * m0
        + (-2.0 * x3 + 3.0 * x2) * y1
        + (x3 - x2) * m1;
    let dy = (6.0 * x2 - 6.0 * x) * (y0 - y1)
        + (3.0 * x2 - 4.0 * x + 1.0) * m0
        + (3.0 * x2 - 2.0 * x) * m1;
    (y, dy)
}

/// The speed `|C'(t)|` (evaluated in f32 like every query, widened to f64).
#[inline]
fn speed<C: ParamCurve + ?Sized>(curve: &C, segment: usize, t: f64) -> f64 {
    curve.derivative(segment, t as f32).length() as f64
}

/// `dt/ds = 1/v` for the speed `v`, or the secant slope `dt_ds_secant` where the speed is too
/// small to invert.
#[inline]
fn slope(v: f64, secant: f64) -> f64 {
    if v > 1e-3 / secant {
        1.0 / v
    } else {
        secant
    }
}

impl ArcLengthTable {
    /// Bakes the table with [`DEFAULT_REL_TOL`].
    pub fn new<C: ParamCurve + ?Sized>(curve: &C) -> Self {
        Self::with_tolerance(curve, DEFAULT_REL_TOL)
    }

    /// Bakes the table; `rel_tol` is the relative length tolerance per interval (clamped to
    /// `[1e-9, 1e-2]`).
    pub fn with_tolerance<C: ParamCurve + ?Sized>(curve: &C, rel_tol: f64) -> Self {
        let rel_tol = if rel_tol.is_nan() {
            DEFAULT_REL_TOL
        } else {
            rel_tol.clamp(1e-9, 1e-2)
        };
        let segs = curve.segment_count();
        let mut table = ArcLengthTable {
            intervals: Vec::new(),
            starts: Vec::new(),
            grid: Vec::new(),
            grid_scale: 0.0,
            segment_first: Vec::with_capacity(segs + 1),
            segment_start: Vec::with_capacity(segs + 1),
            total: 0.0,
            error: 0.0,
        };
        // Explicit stack of intervals; they pop in order of t. The speeds at the ends are
        // carried along (each is evaluated once, then shared by both neighbours).
        let mut stack: Vec<Pending> = Vec::with_capacity(2 * MAX_DEPTH as usize + 2);
        let mut s = 0.0f64;
        for seg in 0..segs {
            table.segment_first.push(table.intervals.len() as u32);
            table.segment_start.push(s);
            let whole = gl5(curve, seg, 0.0, 1.0);
            stack.clear();
            stack.push(Pending {
                a: 0.0,
                b: 1.0,
                len: whole,
                depth: 0,
                va: speed(curve, seg, 0.0),
                vb: speed(curve, seg, 1.0),
            });
            while let Some(Pending {
                a,
                b,
                len,
                depth,
                va,
                vb,
            }) = stack.pop()
            {
                if len <= 0.0 || !len.is_finite() {
                    continue; // zero-length piece: nothing to walk
                }
                let m = 0.5 * (a + b);
                let vm = speed(curve, seg, m);
                let left = gl5(curve, seg, a, m);
                let right = gl5(curve, seg, m, b);
                let diff = (left + right - len).abs();
                let mut accept = depth >= MAX_DEPTH;
                if !accept && diff <= rel_tol * (left + right) {
                    // How well does the Hermite of t(s) over [a, b] track t(s)? Its value
                    // error at the split point bounds its slope error (see the module docs).
                    let fine = left + right;
                    let secant = (b - a) / fine;
                    let ma = slope(va, secant) * fine;
                    let mb = slope(vb, secant) * fine;
                    let (t_mid, dtdx) = hermite_f64(a, b, ma, mb, left / fine);
                    let ripple = SLOPE_PER_VALUE_ERROR * (t_mid - m).abs() / (b - a);
                    // The slope at the split point catches errors that are not yet of the
                    // asymptotic shape (large intervals, where e(½) may vanish by chance).
                    let truth = slope(vm, secant);
                    let slope_err = (dtdx / fine / truth - 1.0).abs();
                    accept = ripple.max(slope_err) <= RIPPLE_CHECK;
                }
                if accept {
                    table.error += diff;
                    table.push_interval(seg, (a, va), (m, vm), s, left);
                    s += left;
                    table.push_interval(seg, (m, vm), (b, vb), s, right);
                    s += right;
                } else {
                    // Right first so the left half pops first.
                    let depth = depth + 1;
                    stack.push(Pending {
                        a: m,
                        b,
                        len: right,
                        depth,
                        va: vm,
                        vb,
                    });
                    stack.push(Pending {
                        a,
                        b: m,
                        len: left,
                        depth,
                        va,
                        vb: vm,
                    });
                }
            }
        }
        table.segment_first.push(table.intervals.len() as u32);
        table.segment_start.push(s);
        table.total = s;
        table.starts = table.intervals.iter().map(|iv| iv.start).collect();
        table.starts.push(f32::INFINITY);
        table.build_grid();
        table
    }

    /// One grid cell per interval (the intervals are roughly equally long where it matters).
    fn build_grid(&mut self) {
        let n = self.intervals.len();
        if n == 0 || self.total <= 0.0 {
            return;
        }
        self.grid_scale = (n as f64 / self.total) as f32;
        self.grid.reserve(n + 1);
        let mut i = 0usize;
        for k in 0..=n {
            let d = k as f32 / self.grid_scale;
            while i + 1 < n && self.intervals[i + 1].start <= d {
                i += 1;
            }
            self.grid.push(i as u32);
        }
    }

    /// The last interval `i` with `start ≤ d` (0 if none; `d` not NaN): the grid cell of `d`
    /// gives a first guess (one cell per interval, so usually the answer or its neighbour),
    /// then a short walk over the `starts` column; a binary search is the fallback after
    /// [`WALK`] steps (many tiny intervals in one cell).
    #[inline]
    fn interval_at(&self, d: f32) -> usize {
        let cells = self.grid.len().saturating_sub(1);
        let i = if cells > 0 {
            let k = ((d * self.grid_scale) as usize).min(cells - 1);
            self.grid[k] as usize
        } else {
            0
        };
        self.walk_from(i, d)
    }

    /// The answer of [`interval_at`](Self::interval_at) found by walking from `i` (any index
    /// below the interval count): at most [`WALK`] steps each way, then a binary search.
    #[inline]
    fn walk_from(&self, mut i: usize, d: f32) -> usize {
        let starts = &self.starts;
        let n = starts.len() - 1; // the +∞ sentinel ends the forward walk
        let mut steps = 0;
        while starts[i + 1] <= d {
            i += 1;
            steps += 1;
            if steps == WALK {
                return self.search(d);
            }
        }
        while i > 0 && starts[i] > d {
            i -= 1;
            steps += 1;
            if steps == WALK {
                return self.search(d);
            }
        }
        debug_assert!(i < n);
        i
    }

    /// Binary search over the whole `starts` column (the same answer as the walks).
    #[cold]
    fn search(&self, d: f32) -> usize {
        let n = self.intervals.len();
        self.starts[..n]
            .partition_point(|&s| s <= d)
            .saturating_sub(1)
    }

    /// Appends the interval `[a, b]` (parameters with the speeds there) starting at distance
    /// `s0`, of length `len`.
    fn push_interval(
        &mut self,
        seg: usize,
        (a, va): (f64, f64),
        (b, vb): (f64, f64),
        s0: f64,
        len: f64,
    ) {
        let start = s0 as f32;
        let ds = (s0 + len) as f32 - start;
        if ds <= 0.0 || !(1.0 / ds).is_finite() {
            return; // below f32 resolution at this distance: never the answer of a query
        }
        let secant = (b - a) / len;
        let m0 = slope(va, secant) * len;
        let m1 = slope(vb, secant) * len;
        self.intervals.push(Interval {
            start,
            inv_ds: 1.0 / ds,
            segment: seg as u32,
            t0: a as f32,
            t1: b as f32,
            m0: m0 as f32,
            m1: m1 as f32,
        });
    }

    /// Total arc length.
    pub fn total_length(&self) -> f32 {
        self.total as f32
    }

    /// Total arc length in f64 (the unrounded sum of the quadrature).
    pub fn total_length_f64(&self) -> f64 {
        self.total
    }

    /// Sum over all intervals of |coarse − fine| quadrature estimates: an upper estimate of the
    /// absolute error of [`total_length`](Self::total_length).
    pub fn error_estimate(&self) -> f64 {
        self.error
    }

    /// The intervals, in order of distance.
    pub(crate) fn intervals(&self) -> &[Interval] {
        &self.intervals
    }

    /// Number of table intervals (memory is ~32 bytes each).
    pub fn interval_count(&self) -> usize {
        self.intervals.len()
    }

    /// Length of segment `segment` (0 past the end).
    pub fn segment_length(&self, segment: usize) -> f64 {
        match (
            self.segment_start.get(segment),
            self.segment_start.get(segment + 1),
        ) {
            (Some(a), Some(b)) => b - a,
            _ => 0.0,
        }
    }

    /// The curve parameter at arc-length distance `d` from the start (clamped to
    /// `[0, total_length]`; NaN → 0, infinities clamp too). A zero-length curve maps everything to `(0, 0)`.
    #[inline]
    pub fn param_at_distance(&self, d: f32) -> CurveParam {
        if self.intervals.is_empty() {
            return CurveParam { segment: 0, t: 0.0 };
        }
        let d = if d.is_nan() { 0.0 } else { d.min(f32::MAX) };
        self.param_in_interval(self.interval_at(d), d)
    }

    /// Like [`param_at_distance`](Self::param_at_distance), but starts the search from the
    /// interval index in `hint` (the last answer for this caller) and updates it: for queries
    /// that move little between calls this walks a step or two instead of a binary search.
    /// The result is bit-identical to `param_at_distance`.
    #[inline]
    pub fn param_at_distance_hinted(&self, d: f32, hint: &mut usize) -> CurveParam {
        let n = self.intervals.len();
        if n == 0 {
            return CurveParam { segment: 0, t: 0.0 };
        }
        let d = if d.is_nan() { 0.0 } else { d.min(f32::MAX) };
        let i = (*hint).min(n - 1);
        // Same answer as param_at_distance: the last interval i with start <= d (0 if none).
        let i = if (i == 0 || self.starts[i] <= d) && self.starts[i + 1] > d {
            i
        } else {
            self.walk_from(i, d)
        };
        *hint = i;
        self.param_in_interval(i, d)
    }

    #[inline]
    fn param_in_interval(&self, i: usize, d: f32) -> CurveParam {
        let iv = &self.intervals[i];
        let x = ((d - iv.start) * iv.inv_ds).clamp(0.0, 1.0);
        let (x2, x3) = (x * x, x * x * x);
        let h00 = 2.0 * x3 - 3.0 * x2 + 1.0;
        let h10 = x3 - 2.0 * x2 + x;
        let h01 = 3.0 * x2 - 2.0 * x3;
        let h11 = x3 - x2;
        let t = h00 * iv.t0 + h10 * iv.m0 + h01 * iv.t1 + h11 * iv.m1;
        CurveParam {
            segment: iv.segment as usize,
            t: t.clamp(iv.t0, iv.t1),
        }
    }

    /// Position at arc-length distance `d` on `curve` (the curve this table was baked from).
    #[inline]
    pub fn position_at_distance<C: ParamCurve + ?Sized>(&self, curve: &C, d: f32) -> Vec3 {
        let p = self.param_at_distance(d);
        curve.position(p.segment, p.t)
    }

    /// Arc-length distance from the start to the point `param` (the inverse of
    /// [`param_at_distance`](Self::param_at_distance)), by 5-point Gauss–Legendre inside the
    /// table interval that holds it.
    pub fn distance_at_param<C: ParamCurve + ?Sized>(&self, curve: &C, param: CurveParam) -> f64 {
        let segs = self.segment_first.len().saturating_sub(1);
        if segs == 0 {
            return 0.0;
        }
        let seg = param.segment.min(segs - 1);
        let t = param.t.clamp(0.0, 1.0) as f64;
        let lo = self.segment_first[seg] as usize;
        let hi = self.segment_first[seg + 1] as usize;
        if lo == hi {
            return self.segment_start[seg];
        }
        let k = lo
            + self.intervals[lo..hi]
                .partition_point(|iv| (iv.t0 as f64) <= t)
                .saturating_sub(1);
        let iv = &self.intervals[k];
        let start = iv.start as f64;
        let t0 = iv.t0 as f64;
        (start + gl5(curve, seg, t0, t.max(t0))).min(self.total)
    }

    /// Fills `out` with positions evenly spaced in arc length, both ends included (constant
    /// speed). One sample is the start point.
    pub fn sample_even<C: ParamCurve + ?Sized>(&self, curve: &C, out: &mut [Vec3]) {
        let n = out.len();
        if n == 0 {
            return;
        }
        let last = (n.max(2) - 1) as f64;
        let mut hint = 0usize;
        super::fill_at_params(curve, out, |i| {
            let d = if i + 1 == n && n > 1 {
                self.total as f32
            } else {
                (self.total * i as f64 / last) as f32
            };
            self.param_at_distance_hinted(d, &mut hint)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::CubicSpline;

    #[test]
    fn polyline_length_is_exact_and_queries_land_on_it() {
        let pts = [
            Vec3::ZERO,
            Vec3::new(3.0, 0.0, 4.0),
            Vec3::new(3.0, 0.0, 4.0),
            Vec3::new(3.0, 10.0, 4.0),
        ];
        let c = CubicSpline::polyline(&pts).unwrap();
        let t = ArcLengthTable::new(&c);
        assert!((t.total_length_f64() - 15.0).abs() < 1e-5);
        let p = t.position_at_distance(&c, 2.5);
        assert!((p - Vec3::new(1.5, 0.0, 2.0)).length() < 1e-5);
        let p = t.position_at_distance(&c, 10.0);
        assert!((p - Vec3::new(3.0, 5.0, 4.0)).length() < 1e-5);
        assert_eq!(t.position_at_distance(&c, 100.0), pts[3]);
        assert_eq!(t.position_at_distance(&c, -1.0), pts[0]);
        assert_eq!(t.position_at_distance(&c, f32::INFINITY), pts[3]);
        assert_eq!(t.position_at_distance(&c, f32::NEG_INFINITY), pts[0]);
        let mut hint = 1;
        assert_eq!(
            t.param_at_distance_hinted(f32::INFINITY, &mut hint),
            t.param_at_distance(100.0)
        );
    }

    #[test]
    fn zero_length_curve_maps_to_its_point() {
        let p = Vec3::new(1.0, 2.0, 3.0);
        let c = CubicSpline::polyline(&[p, p, p]).unwrap();
        let t = ArcLengthTable::new(&c);
        assert_eq!(t.total_length(), 0.0);
        assert_eq!(t.position_at_distance(&c, 0.5), p);
    }

    #[test]
    fn hinted_queries_equal_stateless_ones() {
        let pts: Vec<Vec3> = (0..20)
            .map(|i| Vec3::new(i as f32, (i as f32 * 0.7).sin() * 3.0, 0.0))
            .collect();
        let tan: Vec<Vec3> = (0..20)
            .map(|i| Vec3::new(1.0, (i as f32).cos(), 0.5))
            .collect();
        let c = CubicSpline::hermite(&pts, &tan).unwrap();
        let t = ArcLengthTable::new(&c);
        let mut hint = 0;
        for k in 0..2000 {
            let d = ((k * 7919) % 2000) as f32 / 2000.0 * t.total_length() * 1.1 - 0.5;
            assert_eq!(
                t.param_at_distance_hinted(d, &mut hint),
                t.param_at_distance(d)
            );
        }
    }
}
