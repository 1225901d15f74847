//! Curves: cubic Hermite splines, Catmull-Rom, polylines, Bézier curves of any degree and
//! chains of them, the exact ballistic (bouncing) Bézier chain, with arc length and
//! constant-speed sampling ([`sample`], [`length`], [`ArcLengthTable`]).
//!
//! Every curve is a chain of *segments*; segment `i` is parametrised by a local `t ∈ [0, 1]`.
//! The [`ParamCurve`] trait is all the arc-length machinery ([`ArcLengthTable`]) needs, so a new
//! curve kind is one new file implementing it.
//!
//! Conventions: positions are [`Vec3`] (12 bytes, the layout of Unity's `Vector3`), `t` outside
//! `[0, 1]` is clamped, and a curve never produces NaN from finite input (degenerate segments
//! of zero length evaluate to their start point).

mod arclength;
mod ballistic;
mod bezier;
mod catmull_rom;
mod cubic;
mod hermite;

pub use arclength::{ArcLengthTable, CurveParam, DEFAULT_REL_TOL, MAX_DEPTH, RIPPLE_CHECK};
pub use ballistic::{BallisticArc, Projectile};
pub use bezier::{BezierChain, BezierCurve, MAX_BEZIER_DEGREE};
pub use cubic::CubicSpline;
pub use hermite::HermiteSegment;

use glam::Vec3;

/// Why a curve could not be built or sampled.
///
/// ```
/// use wayfarer::curve::{CubicSpline, CurveError};
/// use wayfarer::Vec3;
///
/// assert_eq!(CubicSpline::polyline(&[Vec3::ZERO]).unwrap_err(), CurveError::TooFewPoints);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CurveError {
    /// Fewer points than the curve kind needs (2 for splines and Bézier curves).
    TooFewPoints,
    /// More control points than supported (a Bézier degree above [`MAX_BEZIER_DEGREE`]).
    TooManyPoints,
    /// A coordinate or parameter is NaN or infinite.
    NonFinite,
    /// Two inputs that must have the same length do not (points and tangents).
    LengthMismatch,
    /// An argument is out of its documented range.
    InvalidArgument,
}

impl core::fmt::Display for CurveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            CurveError::TooFewPoints => "too few points for this curve",
            CurveError::TooManyPoints => "too many control points (Bézier degree above 64)",
            CurveError::NonFinite => "a coordinate or parameter is NaN or infinite",
            CurveError::LengthMismatch => "inputs that must have the same length differ",
            CurveError::InvalidArgument => "an argument is out of its documented range",
        })
    }
}

impl std::error::Error for CurveError {}

/// Any curve kind of this module behind one type (what a path or an FFI handle stores):
/// cubic splines (Hermite, Catmull-Rom, polyline) or Bézier chains of any degree.
///
/// ```
/// use wayfarer::curve::{self, AnyCurve, CubicSpline};
/// use wayfarer::Vec3;
///
/// let any: AnyCurve = CubicSpline::polyline(&[Vec3::ZERO, Vec3::X]).unwrap().into();
/// assert!((curve::length(&any) - 1.0).abs() < 1e-6);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum AnyCurve {
    /// A chain of cubic segments (Hermite, Catmull-Rom or polyline).
    Cubic(CubicSpline),
    /// A chain of Bézier pieces of any degree 1..=64.
    Bezier(BezierChain),
}

impl From<CubicSpline> for AnyCurve {
    fn from(c: CubicSpline) -> Self {
        AnyCurve::Cubic(c)
    }
}

impl From<BezierChain> for AnyCurve {
    fn from(c: BezierChain) -> Self {
        AnyCurve::Bezier(c)
    }
}

impl ParamCurve for AnyCurve {
    #[inline]
    fn segment_count(&self) -> usize {
        match self {
            AnyCurve::Cubic(c) => c.segment_count(),
            AnyCurve::Bezier(c) => c.segment_count(),
        }
    }

    #[inline]
    fn position(&self, segment: usize, t: f32) -> Vec3 {
        match self {
            AnyCurve::Cubic(c) => c.position(segment, t),
            AnyCurve::Bezier(c) => c.position(segment, t),
        }
    }

    #[inline]
    fn derivative(&self, segment: usize, t: f32) -> Vec3 {
        match self {
            AnyCurve::Cubic(c) => c.derivative(segment, t),
            AnyCurve::Bezier(c) => c.derivative(segment, t),
        }
    }

    fn positions(&self, segment: usize, ts: &[f32], out: &mut [Vec3]) {
        match self {
            AnyCurve::Cubic(c) => c.positions(segment, ts, out),
            AnyCurve::Bezier(c) => c.positions(segment, ts, out),
        }
    }

    fn sample_uniform(&self, out: &mut [Vec3]) {
        match self {
            AnyCurve::Cubic(c) => c.sample_uniform(out),
            AnyCurve::Bezier(c) => c.sample_uniform(out),
        }
    }
}

/// How samples are spread along a curve.
///
/// ```
/// use wayfarer::curve::{self, CubicSpline, Spacing};
/// use wayfarer::Vec3;
///
/// // Two segments of very different lengths.
/// let line = CubicSpline::polyline(&[Vec3::ZERO, Vec3::X, Vec3::new(9.0, 0.0, 0.0)]).unwrap();
/// let mut by_t = [Vec3::ZERO; 3];
/// let mut by_s = [Vec3::ZERO; 3];
/// curve::sample(&line, Spacing::Parameter, &mut by_t);
/// curve::sample(&line, Spacing::ArcLength, &mut by_s);
/// assert!((by_t[1].x - 1.0).abs() < 1e-5); // the middle parameter: the end of segment 0
/// assert!((by_s[1].x - 4.5).abs() < 1e-3); // the middle distance
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spacing {
    /// Evenly in the curve parameter (the global `u = segment + t`): cheap, but the spacing in
    /// space follows the curve's speed.
    Parameter,
    /// Evenly in arc length: constant speed along the curve (bakes an [`ArcLengthTable`]).
    ArcLength,
}

/// Fills `out` with `out.len()` samples of `curve` spread by `spacing`, both ends included
/// (`out[0]` is the start, `out[n−1]` the end; one sample is the start point).
///
/// Unlike the Bézier paper's `GetBezierList(points, count)`, which samples `t = i/count` for
/// `i = 1..=count` and so skips the start point `t = 0`, this includes both ends: `n` samples
/// are `t = i/(n − 1)` for `i = 0..n` (with [`Spacing::Parameter`] on a single Bézier curve).
/// A curve of length zero gives copies of its point with [`Spacing::ArcLength`].
/// Allocates only the arc-length table (for [`Spacing::ArcLength`]).
pub fn sample<C: ParamCurve + ?Sized>(curve: &C, spacing: Spacing, out: &mut [Vec3]) {
    match spacing {
        Spacing::Parameter => curve.sample_uniform(out),
        Spacing::ArcLength => ArcLengthTable::new(curve).sample_even(curve, out),
    }
}

/// Total arc length of `curve` (adaptive Gauss–Legendre, see [`ArcLengthTable`]).
pub fn length<C: ParamCurve + ?Sized>(curve: &C) -> f64 {
    ArcLengthTable::new(curve).total_length_f64()
}

/// A piecewise-parametric curve: `segment_count()` pieces, each evaluated at a local
/// parameter `t ∈ [0, 1]` (values outside are clamped by implementors).
///
/// ```
/// use wayfarer::curve::{CubicSpline, ParamCurve};
/// use wayfarer::Vec3;
///
/// let line = CubicSpline::polyline(&[Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0)]).unwrap();
/// assert_eq!(line.segment_count(), 2);
/// assert_eq!(line.position(1, 0.0), Vec3::X);
/// assert_eq!(line.position_at(1.0), Vec3::X); // global parameter = segment + t
/// ```
///
/// Consecutive segments are expected to join (`position(i, 1) == position(i + 1, 0)`), which
/// every constructor in this module guarantees.
pub trait ParamCurve {
    /// Number of segments (≥ 1 for every constructed curve).
    fn segment_count(&self) -> usize;

    /// Position on segment `segment` at local parameter `t`.
    fn position(&self, segment: usize, t: f32) -> Vec3;

    /// First derivative d position / dt on segment `segment` at local parameter `t`.
    fn derivative(&self, segment: usize, t: f32) -> Vec3;

    /// Position at a *global* parameter `u ∈ [0, segment_count()]`: segment `⌊u⌋`, local
    /// `t = u − ⌊u⌋` (the last segment takes `u = segment_count()` at `t = 1`).
    fn position_at(&self, u: f32) -> Vec3 {
        let p = CurveParam::from_global(u, self.segment_count());
        self.position(p.segment, p.t)
    }

    /// Positions on segment `segment` at every `ts[i]` into `out[i]`
    /// (`min(ts.len(), out.len())` of them). The default evaluates one point at a time; a
    /// curve with a batch kernel (Bézier curves and chains) overrides it with the kernel,
    /// which must give the same bits as [`position`](Self::position).
    fn positions(&self, segment: usize, ts: &[f32], out: &mut [Vec3]) {
        for (o, &t) in out.iter_mut().zip(ts) {
            *o = self.position(segment, t);
        }
    }

    /// Fills `out` with positions at global parameters evenly spaced from the start to the end
    /// of the curve, both ends included (`out.len()` must be ≥ 2 to include both, a single
    /// sample is the start point). The default runs through [`positions`](Self::positions), so a
    /// curve's batch kernel serves it; a Bézier curve (or a chain of one piece) overrides it
    /// with its kernel making the parameters as it goes, with the same bits as
    /// [`positions`](Self::positions) at `t = i / (n − 1)` and no slower.
    fn sample_uniform(&self, out: &mut [Vec3]) {
        sample_uniform_blocks(self, out);
    }
}

/// [`ParamCurve::sample_uniform`]'s default: the parameters of a block of [`PARAM_BLOCK`]
/// points first, then [`ParamCurve::positions`] on them.
pub(crate) fn sample_uniform_blocks<C: ParamCurve + ?Sized>(curve: &C, out: &mut [Vec3]) {
    let n = out.len();
    if n == 0 {
        return;
    }
    let segs = curve.segment_count();
    if n == 1 {
        out[0] = curve.position(0, 0.0);
        return;
    }
    let last = (n - 1) as f64;
    if segs == 1 {
        // What `from_global_f64(i / last, 1)` gives, without its floor (a libm call on
        // baseline x86-64): segment 0, t = i / last.
        let mut ts = [0.0f32; PARAM_BLOCK];
        for (block, chunk) in out.chunks_mut(PARAM_BLOCK).enumerate() {
            let ts = &mut ts[..chunk.len()];
            let base = (block * PARAM_BLOCK) as i64;
            for (j, t) in ts.iter_mut().enumerate() {
                // Through i64 (one signed conversion; `usize as f64` is a longer sequence).
                *t = ((base + j as i64) as f64 / last) as f32;
            }
            curve.positions(0, ts, chunk);
        }
        return;
    }
    // f64 keeps i / (n-1) * segs exact enough for huge n and many segments.
    fill_at_params(curve, out, |i| {
        CurveParam::from_global_f64(i as f64 / last * segs as f64, segs)
    });
}

/// How many parameters [`fill_at_params`] gathers before it evaluates them.
const PARAM_BLOCK: usize = 256;

/// `out[i] = curve.position(param(i))` for every `i`, evaluated in blocks of consecutive
/// parameters on one segment through [`ParamCurve::positions`] (the batch kernel when the
/// curve has one). The results are those of the point-by-point loop.
pub(crate) fn fill_at_params<C: ParamCurve + ?Sized>(
    curve: &C,
    out: &mut [Vec3],
    mut param: impl FnMut(usize) -> CurveParam,
) {
    let mut ts = [0.0f32; PARAM_BLOCK];
    let mut segs = [0usize; PARAM_BLOCK];
    for (block, chunk) in out.chunks_mut(PARAM_BLOCK).enumerate() {
        let base = block * PARAM_BLOCK;
        for j in 0..chunk.len() {
            let p = param(base + j);
            (segs[j], ts[j]) = (p.segment, p.t);
        }
        let mut start = 0;
        while start < chunk.len() {
            let seg = segs[start];
            let end = segs[start..chunk.len()]
                .iter()
                .position(|&s| s != seg)
                .map_or(chunk.len(), |k| start + k);
            curve.positions(seg, &ts[start..end], &mut chunk[start..end]);
            start = end;
        }
    }
}
