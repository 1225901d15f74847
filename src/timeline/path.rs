//! A path: one curve of any kind baked once with its arc-length table, queried by distance.
//!
//! Distance `d ∈ [0, L]` (clamped) → curve parameter through [`ArcLengthTable`] → position.
//! The forward is the unit tangent `C'(t)/|C'(t)|`. Where the speed `|C'(t)|` vanishes (a
//! Bézier whose first two control points coincide, a Catmull-Rom with tension 1 at its knots)
//! the forward is the chord direction `C(d + h) − C(d − h)` with `h = 10⁻⁴ L`, then the path's
//! first non-degenerate direction, then `+Z`: always finite and unit length, never NaN.

use super::nearest::{Nearest, NearestIndex};
use crate::curve::{AnyCurve, ArcLengthTable, BezierChain, BezierCurve, CubicSpline, CurveError};
use crate::curve::{CurveParam, ParamCurve};
use glam::{Vec3, Vec3A};

/// Most pieces a curve segment is split into when its arc-length table is baked: long curved
/// segments are baked in pieces so the table stays accurate to ~10⁻⁷ of the path length.
pub const MAX_PIECES: usize = 64;

/// How many equal parameter pieces each segment is baked as: `⌈64 · pᵢ / P⌉` clamped to
/// `1..=64`, where `pᵢ` is the segment's control-polygon length and `P` their sum; 1 for
/// straight segments traversed at constant speed (polyline pieces). Returns the first piece of
/// every segment plus the total.
fn pieces(curve: &AnyCurve) -> Vec<u32> {
    let polys: Vec<(f64, bool)> = match curve {
        AnyCurve::Cubic(c) => c
            .segments()
            .iter()
            .map(|b| {
                let poly = polygon(b);
                let third = (b[3] - b[0]) / 3.0;
                let tol = 1e-6 * (b[3] - b[0]).length();
                let straight = (b[1] - (b[0] + third)).length() <= tol
                    && (b[2] - (b[3] - third)).length() <= tol;
                (poly, straight)
            })
            .collect(),
        AnyCurve::Bezier(c) => c
            .pieces()
            .iter()
            .map(|p| (polygon(p.points()), false))
            .collect(),
    };
    let total: f64 = polys.iter().map(|p| p.0).sum();
    let mut first = Vec::with_capacity(polys.len() + 1);
    let mut n = 0u32;
    for (poly, straight) in polys {
        first.push(n);
        let k = if straight || total.is_nan() || total <= 0.0 {
            1
        } else {
            ((MAX_PIECES as f64 * poly / total).ceil() as usize).clamp(1, MAX_PIECES)
        };
        n += k as u32;
    }
    first.push(n);
    first
}

fn polygon(pts: &[Vec3]) -> f64 {
    pts.windows(2).map(|w| w[0].distance(w[1]) as f64).sum()
}

/// `1 / |v|` with the operations of glam's `length_recip` (so `v · unit_recip(v)` is
/// `v.try_normalize()` bit for bit); written on the components so that a loop over many
/// vectors vectorises.
#[inline(always)]
pub(crate) fn unit_recip_xyz(x: f32, y: f32, z: f32) -> f32 {
    1.0 / ((x * x + y * y) + z * z).sqrt()
}

/// [`unit_recip_xyz`] of a vector.
#[inline(always)]
pub(crate) fn unit_recip(v: Vec3) -> f32 {
    unit_recip_xyz(v.x, v.y, v.z)
}

/// Largest `1/|v|` for which `v · (1/|v|)` is a unit vector to f32 rounding: `|v|²` must be a
/// normal f32 (`1/√f32::MIN_POSITIVE` ≈ 9.22e18); below that the squares are subnormal and
/// lose digits (a tangent of length 1e-20 came out 0.5 % short).
pub(super) const ACCURATE_RECIP: f32 = 9.2e18;

/// `v / |v|`: bit for bit `v.try_normalize()` when `|v|²` is a normal f32, otherwise
/// normalised in f64 (where every f32 is normal); `None` for a zero or non-finite `v`.
#[inline]
fn unit(v: Vec3) -> Option<Vec3> {
    let r = unit_recip(v);
    if r.is_finite() && r > 0.0 && r <= ACCURATE_RECIP {
        Some(v * r)
    } else {
        unit_f64(v)
    }
}

#[cold]
fn unit_f64(v: Vec3) -> Option<Vec3> {
    v.as_dvec3().try_normalize().map(|u| u.as_vec3())
}

/// NaN → 0, `+∞` → the largest finite value (below the sentinel's start); the spans clamp
/// every other distance.
#[inline]
pub(super) fn clean(d: f32) -> f32 {
    // Selects, no branch: a loop over many distances vectorises.
    let d = if d.is_nan() { 0.0 } else { d };
    if d > f32::MAX {
        f32::MAX
    } else {
        d
    }
}

/// The curve with segment `i` seen as `kᵢ` equal parameter pieces (a parameter change only,
/// see [`pieces`]). The arc-length table bakes a cubic of `t(s)` per interval and accepts an
/// interval when that cubic's slope is right at its middle; its position error grows with the
/// interval's width⁴, and on a long strongly curved segment reaches ~10⁻⁵ of the segment's
/// length. Splitting long segments keeps every interval short relative to the whole path, so
/// positions stay within ~10⁻⁷ of the path length of an f64 reference (tested).
#[derive(Clone, Copy)]
struct Refined<'a> {
    curve: &'a AnyCurve,
    /// First piece of each segment, plus the total.
    first: &'a [u32],
    /// Segment of each piece.
    owner: &'a [u32],
}

impl Refined<'_> {
    /// The original curve's parameter for a refined one.
    #[inline]
    fn curve_param(&self, p: CurveParam) -> CurveParam {
        let seg = self.owner[p.segment.min(self.owner.len() - 1)] as usize;
        let k0 = self.first[seg] as usize;
        let n = self.first[seg + 1] as usize - k0;
        if n == 1 {
            return CurveParam {
                segment: seg,
                t: p.t,
            };
        }
        CurveParam {
            segment: seg,
            t: (((p.segment - k0) as f32 + p.t) / n as f32).min(1.0),
        }
    }

    /// The refined parameter for an original one.
    fn piece_param(&self, p: CurveParam) -> CurveParam {
        let seg = p.segment.min(self.first.len() - 2);
        let k0 = self.first[seg] as usize;
        let n = self.first[seg + 1] as usize - k0;
        let x = p.t.clamp(0.0, 1.0) * n as f32;
        let k = (x.floor() as usize).min(n - 1);
        CurveParam {
            segment: k0 + k,
            t: (x - k as f32).clamp(0.0, 1.0),
        }
    }
}

impl ParamCurve for Refined<'_> {
    fn segment_count(&self) -> usize {
        self.owner.len()
    }
    fn position(&self, segment: usize, t: f32) -> Vec3 {
        let p = self.curve_param(CurveParam { segment, t });
        self.curve.position(p.segment, p.t)
    }
    fn derivative(&self, segment: usize, t: f32) -> Vec3 {
        let p = self.curve_param(CurveParam { segment, t });
        let seg = p.segment;
        let n = (self.first[seg + 1] - self.first[seg]) as f32;
        self.curve.derivative(seg, p.t) / n
    }
}

/// A curve with its precomputed arc-length table (see the module docs).
///
/// ```
/// use wayfarer::timeline::Path;
/// use wayfarer::Vec3;
///
/// let path = Path::polyline(&[Vec3::ZERO, Vec3::new(3.0, 0.0, 0.0), Vec3::new(3.0, 0.0, 4.0)]).unwrap();
/// assert!((path.length() - 7.0).abs() < 1e-5);
/// let (position, forward) = path.at_distance(5.0); // 5 m along: on the second leg, facing +Z
/// assert!((position - Vec3::new(3.0, 0.0, 2.0)).length() < 1e-4);
/// assert!((forward - Vec3::Z).length() < 1e-4);
/// ```
#[derive(Clone, Debug)]
pub struct Path {
    curve: AnyCurve,
    table: ArcLengthTable,
    length: f32,
    /// Direction used when neither the tangent nor the local chord is defined.
    fallback_forward: Vec3,
    nearest: NearestIndex,
    /// Baking pieces: first piece of each segment (+ total), and the segment of each piece.
    first: Vec<u32>,
    owner: Vec<u32>,
    /// The table's intervals mapped to the curve's own parameter (see [`Span`]), plus a
    /// sentinel span starting at `+∞` that ends every forward walk.
    spans: Vec<Span>,
    /// Each span's `start` (sentinel's `+∞` included), compact for the batch's lane search.
    starts: Vec<f32>,
    /// Uniform grid over `[0, L]`: the span holding each cell's start, a starting point for
    /// the search (two cells per span: 0–1 steps instead of a binary search).
    grid: Vec<u32>,
    grid_scale: f32,
    /// Cubic segments in power form (see [`Power`]), `C(t) = a + t(b + t(c + t·d))` (empty
    /// for Bézier chains, which evaluate their own way).
    power: Vec<Power>,
    /// [`Path::power_rows`].
    power_rows: Vec<PowerRow>,
}

/// One arc-length table interval, baked for queries: the table's cubic of the piece
/// parameter composed with the piece → segment map (`t = (k + t_piece)/n`, linear) is again a
/// cubic, `t(x) = c₀ + x(c₁ + x(c₂ + x·c₃))` with `x = (d − start)·inv_ds`, clamped to
/// `[c₀, hi]` (`c₀` is the parameter at the span's start); coefficients computed in f64.
/// 32 bytes, aligned: a search step and the evaluation read one span (the next span's
/// `start`, which ends this one, shares its cache line half the time).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(super) struct Span {
    pub(super) start: f32,
    pub(super) inv_ds: f32,
    pub(super) segment: u32,
    pub(super) hi: f32,
    pub(super) c: [f32; 4],
}

impl Span {
    /// The sentinel: starts at `+∞` (ends every forward walk; an empty table's only span).
    pub(super) const SENTINEL: Span = Span {
        start: f32::INFINITY,
        inv_ds: 0.0,
        segment: 0,
        hi: 0.0,
        c: [0.0; 4],
    };
}

/// The spans of `table` (baked over `refined`) in the original curve's parameter.
fn spans(table: &ArcLengthTable, refined: &Refined<'_>) -> Vec<Span> {
    table
        .intervals()
        .iter()
        .map(|iv| {
            let piece = iv.segment as usize;
            let seg = refined.owner[piece] as usize;
            let k0 = refined.first[seg] as usize;
            let n = (refined.first[seg + 1] as usize - k0) as f64;
            let k = (piece - k0) as f64;
            let (t0, t1) = ((k + iv.t0 as f64) / n, (k + iv.t1 as f64) / n);
            let (m0, m1) = (iv.m0 as f64 / n, iv.m1 as f64 / n);
            Span {
                start: iv.start,
                inv_ds: iv.inv_ds,
                segment: seg as u32,
                hi: (t1 as f32).min(1.0),
                c: [
                    t0 as f32,
                    m0 as f32,
                    (3.0 * (t1 - t0) - 2.0 * m0 - m1) as f32,
                    (2.0 * (t0 - t1) + m0 + m1) as f32,
                ],
            }
        })
        .chain(std::iter::once(Span::SENTINEL))
        .collect()
}

/// A cubic segment in power form, `C(t) = a + t(b + t(c + t·d))`, `C'(t) = b + t(2c + t·3d)`,
/// with `2c` and `3d` stored (rounded exactly as computing them per query would), in
/// 16-byte vectors: position and derivative are eight vector operations per query.
#[derive(Clone, Copy, Debug)]
pub(super) struct Power {
    a: Vec3A,
    b: Vec3A,
    c: Vec3A,
    d: Vec3A,
    c2: Vec3A,
    d3: Vec3A,
}

impl Power {
    fn new(p: [Vec3; 4]) -> Self {
        let [a, b, c, d] = p.map(Vec3A::from);
        Self {
            a,
            b,
            c,
            d,
            c2: 2.0 * c,
            d3: 3.0 * d,
        }
    }

    /// Position at `t` (clamped to `[0, 1]`) by Horner's rule.
    #[inline(always)]
    fn position(&self, t: f32) -> Vec3A {
        let t = t.clamp(0.0, 1.0);
        self.a + t * (self.b + t * (self.c + t * self.d))
    }

    /// Position and derivative at `t` (clamped to `[0, 1]`) by Horner's rule.
    #[inline(always)]
    pub(super) fn position_derivative(&self, t: f32) -> (Vec3A, Vec3A) {
        let t = t.clamp(0.0, 1.0);
        let pos = self.a + t * (self.b + t * (self.c + t * self.d));
        let der = self.b + t * (self.c2 + t * self.d3);
        (pos, der)
    }
}

/// A segment's power form as one 64-byte row, `[a, b, c, d]` (each x, y, z), then four
/// zeros: the batch's AVX-512 build reads a lane's row with one load (see `transpose`).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct PowerRow(pub(super) [f32; 16]);

impl PowerRow {
    /// All zeros.
    pub(super) const ZERO: PowerRow = PowerRow([0.0; 16]);

    fn new(p: &Power) -> Self {
        let mut row = [0.0; 16];
        for (k, v) in [p.a, p.b, p.c, p.d].into_iter().enumerate() {
            row[3 * k..3 * k + 3].copy_from_slice(&v.to_array());
        }
        Self(row)
    }
}

/// A cubic Bézier segment in power form (f64 arithmetic, rounded once).
fn power_form(b: &[Vec3; 4]) -> [Vec3; 4] {
    let [p0, p1, p2, p3] = b.map(|p| p.as_dvec3());
    [
        p0,
        3.0 * (p1 - p0),
        3.0 * (p2 - 2.0 * p1 + p0),
        p3 - 3.0 * p2 + 3.0 * p1 - p0,
    ]
    .map(|v| v.as_vec3())
}

impl Path {
    /// Bakes a path from any curve of [`crate::curve`].
    pub fn new(curve: impl Into<AnyCurve>) -> Self {
        let curve = curve.into();
        let first = pieces(&curve);
        let owner: Vec<u32> = (0..first.len() - 1)
            .flat_map(|s| (first[s]..first[s + 1]).map(move |_| s as u32))
            .collect();
        let table = ArcLengthTable::new(&Refined {
            curve: &curve,
            first: &first,
            owner: &owner,
        });
        let nearest = NearestIndex::new(&curve);
        let fallback_forward = nearest.first_direction().unwrap_or(Vec3::Z);
        let length = table.total_length();
        let refined = Refined {
            curve: &curve,
            first: &first,
            owner: &owner,
        };
        let spans = spans(&table, &refined);
        let n = spans.len() - 1;
        let cells = (2 * n).clamp(1, 1 << 22);
        let grid_scale = if length > 0.0 {
            cells as f32 / length
        } else {
            0.0
        };
        let last = n.saturating_sub(1);
        let grid = (0..cells)
            .map(|c| {
                let d = c as f32 * length / cells as f32;
                spans[..=last]
                    .partition_point(|s| s.start <= d)
                    .saturating_sub(1) as u32
            })
            .collect();
        let power = match &curve {
            AnyCurve::Cubic(c) => c
                .segments()
                .iter()
                .map(|b| Power::new(power_form(b)))
                .collect(),
            AnyCurve::Bezier(_) => Vec::new(),
        };
        Self {
            length,
            curve,
            table,
            fallback_forward,
            nearest,
            first,
            owner,
            starts: spans.iter().map(|s| s.start).collect(),
            spans,
            grid,
            grid_scale,
            power_rows: power.iter().map(PowerRow::new).collect(),
            power,
        }
    }

    /// The polyline through `points` (≥ 2; consecutive duplicates are zero-length segments that
    /// distance queries skip).
    pub fn polyline(points: &[Vec3]) -> Result<Self, CurveError> {
        Ok(Self::new(CubicSpline::polyline(points)?))
    }

    /// The Hermite spline through `points` with velocity `tangents[i]` at knot `i`.
    pub fn hermite(points: &[Vec3], tangents: &[Vec3]) -> Result<Self, CurveError> {
        Ok(Self::new(CubicSpline::hermite(points, tangents)?))
    }

    /// The Catmull-Rom spline through `points` (`alpha`, `tension` in `[0, 1]`).
    pub fn catmull_rom(points: &[Vec3], alpha: f32, tension: f32) -> Result<Self, CurveError> {
        Ok(Self::new(CubicSpline::catmull_rom(points, alpha, tension)?))
    }

    /// A chain of Bézier pieces sharing end points: `control_points.len() == 1 + Σ degrees`,
    /// each degree in `1..=64`.
    ///
    /// Errors: no piece or a count mismatch ([`CurveError::TooFewPoints`] /
    /// [`CurveError::LengthMismatch`]), a degree of 0 ([`CurveError::InvalidArgument`]) or
    /// above 64 ([`CurveError::TooManyPoints`]), non-finite points.
    pub fn bezier_chain(control_points: &[Vec3], degrees: &[u32]) -> Result<Self, CurveError> {
        if degrees.is_empty() {
            return Err(CurveError::TooFewPoints);
        }
        if degrees.contains(&0) {
            return Err(CurveError::InvalidArgument);
        }
        if degrees
            .iter()
            .any(|&d| d as usize > crate::curve::MAX_BEZIER_DEGREE)
        {
            return Err(CurveError::TooManyPoints);
        }
        let needed = degrees
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_add(d as usize));
        if needed != Some(control_points.len()) {
            return Err(CurveError::LengthMismatch);
        }
        let mut pieces = Vec::with_capacity(degrees.len());
        let mut first = 0usize;
        for &d in degrees {
            let last = first + d as usize;
            pieces.push(BezierCurve::new(control_points[first..=last].to_vec())?);
            first = last;
        }
        Ok(Self::new(BezierChain::new(pieces)?))
    }

    #[inline]
    fn refined(&self) -> Refined<'_> {
        Refined {
            curve: &self.curve,
            first: &self.first,
            owner: &self.owner,
        }
    }

    /// The curve this path was baked from.
    pub fn curve(&self) -> &AnyCurve {
        &self.curve
    }

    /// The arc-length table (baked over the curve with long segments split into
    /// equal parameter pieces, see [`MAX_PIECES`]; use [`Path::param_at`] for curve
    /// parameters).
    pub fn table(&self) -> &ArcLengthTable {
        &self.table
    }

    /// Total arc length `L` (f32, as distances are given).
    #[inline]
    pub fn length(&self) -> f32 {
        self.length
    }

    /// The curve parameter at distance `d` (clamped to `[0, L]`).
    #[inline]
    pub fn param_at(&self, d: f32) -> CurveParam {
        let d = clean(d);
        self.param_in_span(self.span_index(d, None), d)
    }

    /// [`Path::param_at`] starting from a caller-owned span hint (any value; updated):
    /// checks the hinted span first, so coherent queries do no search. Bit-identical result.
    #[inline]
    pub fn param_at_hinted(&self, d: f32, hint: &mut usize) -> CurveParam {
        let d = clean(d);
        self.param_in_span(self.span_index(d, Some(hint)), d)
    }

    /// The span holding the cleaned distance `d` (see [`clean`]): the grid search, or with a
    /// hint (any value; updated unless the table is empty) the hinted span first. The span is
    /// unique, so both give the same index.
    #[inline(always)]
    pub(super) fn span_index(&self, d: f32, hint: Option<&mut usize>) -> usize {
        let Some(hint) = hint else {
            return self.span_at(d);
        };
        let n = self.spans.len() - 1;
        if n == 0 {
            return 0; // the sentinel: an empty table
        }
        let i = (*hint).min(n - 1);
        let sp = &self.spans[i..i + 2];
        let i = if (i == 0 || sp[0].start <= d) && sp[1].start > d {
            i
        } else {
            self.walk_from(i, d)
        };
        *hint = i;
        i
    }

    /// The spans, sentinel included (never empty).
    #[inline(always)]
    pub(super) fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// Each span's start, the sentinel's `+∞` included (never empty).
    #[inline(always)]
    pub(super) fn starts(&self) -> &[f32] {
        &self.starts
    }

    /// The segments in power form (empty for Bézier chains, which evaluate their own way).
    #[inline(always)]
    pub(super) fn power(&self) -> &[Power] {
        &self.power
    }

    /// [`Path::power`] as 64-byte rows (see [`PowerRow`]).
    #[inline(always)]
    pub(super) fn power_rows(&self) -> &[PowerRow] {
        &self.power_rows
    }

    /// The search grid (see [`Path::span_index`]) and its cells per metre.
    #[inline(always)]
    pub(super) fn grid(&self) -> (&[u32], f32) {
        (&self.grid, self.grid_scale)
    }

    /// The last span with `start ≤ d` (0 if none); `d` is not NaN.
    #[inline]
    fn span_at(&self, d: f32) -> usize {
        // Negative distances give cell 0 (`as` saturates).
        if self.spans.len() < 2 {
            return 0; // only the sentinel: an empty table
        }
        let cell = ((d * self.grid_scale) as usize).min(self.grid.len() - 1);
        let i = self.grid[cell] as usize;
        // Most cells hold at most one span boundary: one branch-free step forward (no
        // misprediction on a coin flip), then a check that is almost always true.
        let i = i + (self.spans[i + 1].start <= d) as usize;
        if (i == 0 || self.spans[i].start <= d) && self.spans[i + 1].start > d {
            i
        } else {
            self.walk_from(i, d)
        }
    }

    /// The last span with `start ≤ d` (0 if none), walking from span `i`; a binary search
    /// after 8 steps. The answer is unique (starts are increasing), whatever `i` was.
    #[inline]
    pub(super) fn walk_from(&self, mut i: usize, d: f32) -> usize {
        let n = self.spans.len() - 1;
        if n == 0 {
            return 0;
        }
        let spans = &self.spans;
        i = i.min(n - 1);
        let mut steps = 0;
        // The sentinel span `spans[n]` starts at `+∞`: it ends the forward walk.
        while spans[i + 1].start <= d {
            i += 1;
            steps += 1;
            if steps == 8 {
                return self.search(d);
            }
        }
        while i > 0 && spans[i].start > d {
            i -= 1;
            steps += 1;
            if steps == 8 {
                return self.search(d);
            }
        }
        i
    }

    #[cold]
    fn search(&self, d: f32) -> usize {
        let n = self.spans.len() - 1;
        self.spans[..n]
            .partition_point(|s| s.start <= d)
            .saturating_sub(1)
    }

    /// The curve parameter at distance `d` inside span `i` (`i` from the search; 0 on an
    /// empty table, whose every distance is the start).
    #[inline]
    pub(super) fn param_in_span(&self, i: usize, d: f32) -> CurveParam {
        let sp = &self.spans[i];
        if sp.start == f32::INFINITY {
            // The sentinel: an empty table, whose every distance is the start.
            return CurveParam { segment: 0, t: 0.0 };
        }
        let x = ((d - sp.start) * sp.inv_ds).clamp(0.0, 1.0);
        let c = &sp.c;
        let t = c[0] + x * (c[1] + x * (c[2] + x * c[3]));
        CurveParam {
            segment: sp.segment as usize,
            t: t.clamp(c[0], sp.hi),
        }
    }

    /// Position only, at a parameter from [`Path::param_at`] (no derivative, no
    /// normalisation).
    #[inline]
    pub fn position_at_param(&self, p: CurveParam) -> Vec3 {
        match self.power.get(p.segment) {
            Some(pw) => pw.position(p.t).into(),
            None => self.curve.position(p.segment, p.t),
        }
    }

    /// Position at distance `d` (clamped to `[0, L]`).
    #[inline]
    pub fn position(&self, d: f32) -> Vec3 {
        self.position_at_param(self.param_at(d))
    }

    /// Unit forward (tangent) at distance `d`; finite everywhere (see the module docs).
    #[inline]
    pub fn forward(&self, d: f32) -> Vec3 {
        self.forward_at(self.param_at(d), d)
    }

    /// Position and unit forward at distance `d` (clamped to `[0, L]`).
    #[inline]
    pub fn at_distance(&self, d: f32) -> (Vec3, Vec3) {
        self.at_param(self.param_at(d), d)
    }

    /// Positions (and unit forwards, when `forwards` is given) at every arc-length distance
    /// `distances[i]` (clamped to `[0, L]`) into `positions[i]`; `min` of the lengths are
    /// written. The batch form of [`position`](Self::position) and
    /// [`at_distance`](Self::at_distance), with the same results. No allocation.
    pub fn at_distances(
        &self,
        distances: &[f32],
        positions: &mut [Vec3],
        forwards: Option<&mut [Vec3]>,
    ) {
        match forwards {
            Some(fwd) => {
                for ((o, f), &d) in positions.iter_mut().zip(fwd.iter_mut()).zip(distances) {
                    (*o, *f) = self.at_distance(d);
                }
            }
            None => {
                for (o, &d) in positions.iter_mut().zip(distances) {
                    *o = self.position(d);
                }
            }
        }
    }

    /// Former name of [`at_distance`](Self::at_distance).
    #[deprecated(note = "renamed to `at_distance` (see also `at_distances`)")]
    #[inline]
    pub fn sample(&self, d: f32) -> (Vec3, Vec3) {
        self.at_distance(d)
    }

    /// Position and unit forward at a parameter already found for distance `d`.
    #[inline(always)]
    pub fn at_param(&self, p: CurveParam, d: f32) -> (Vec3, Vec3) {
        let (pos, der) = self.position_derivative(p);
        (pos, self.unit_or_chord(der, unit_recip(der), d))
    }

    /// Former name of [`at_param`](Self::at_param).
    #[deprecated(note = "renamed to `at_param`")]
    #[inline]
    pub fn sample_param(&self, p: CurveParam, d: f32) -> (Vec3, Vec3) {
        self.at_param(p, d)
    }

    /// Position and derivative `dC/dt` at `p`.
    #[inline(always)]
    pub(crate) fn position_derivative(&self, p: CurveParam) -> (Vec3, Vec3) {
        let (pos, der) = self.position_derivative_a(p);
        (pos.into(), der.into())
    }

    /// [`Path::position_derivative`] in 16-byte vectors.
    #[inline(always)]
    pub(super) fn position_derivative_a(&self, p: CurveParam) -> (Vec3A, Vec3A) {
        match self.power.get(p.segment) {
            Some(pw) => pw.position_derivative(p.t),
            None => {
                let (pos, der) = self.curve_sample(p);
                (pos.into(), der.into())
            }
        }
    }

    /// `der · recip` when `recip` (from [`unit_recip`]) is finite, positive and at most
    /// [`ACCURATE_RECIP`]; a smaller non-zero `der` is normalised in f64; a zero one gives the
    /// chord fallback at distance `d` (see the module docs).
    #[inline(always)]
    pub(crate) fn unit_or_chord(&self, der: Vec3, recip: f32, d: f32) -> Vec3 {
        if recip.is_finite() && recip > 0.0 && recip <= ACCURATE_RECIP {
            der * recip
        } else {
            self.tiny_or_chord(der, d)
        }
    }

    /// A derivative too small for f32 normalisation (normalised in f64), or zero (the chord).
    #[cold]
    fn tiny_or_chord(&self, der: Vec3, d: f32) -> Vec3 {
        unit_f64(der).unwrap_or_else(|| self.chord_forward(d))
    }

    /// Position and derivative from the curve itself (Bézier chains), kept out of line so the
    /// cubic path inlines.
    #[inline(never)]
    fn curve_sample(&self, p: CurveParam) -> (Vec3, Vec3) {
        (
            self.curve.position(p.segment, p.t),
            self.curve.derivative(p.segment, p.t),
        )
    }

    /// Unit tangent at `p` (found for distance `d`), with the fallbacks of the module docs.
    #[inline]
    pub fn forward_at(&self, p: CurveParam, d: f32) -> Vec3 {
        match unit(self.curve.derivative(p.segment, p.t)) {
            Some(f) => f,
            None => self.chord_forward(d),
        }
    }

    #[cold]
    fn chord_forward(&self, d: f32) -> Vec3 {
        let h = self.length * 1e-4;
        let at = |d: f32| {
            let p = self.param_at(d);
            self.curve.position(p.segment, p.t)
        };
        let a = at((d - h).max(0.0));
        let b = at((d + h).min(self.length));
        unit(b - a).unwrap_or(self.fallback_forward)
    }

    /// The global nearest point of the path to `query` (see [`Nearest`] for the guarantee).
    pub fn nearest(&self, query: Vec3) -> Nearest {
        let (segment, t, point) = self.nearest.nearest(query);
        let param = CurveParam {
            segment,
            t: t as f32,
        };
        let distance = self
            .table
            .distance_at_param(&self.refined(), self.refined().piece_param(param))
            .clamp(0.0, self.length as f64) as f32;
        Nearest {
            distance,
            point,
            gap: point.distance(query),
            param,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_points_and_zero_length_paths_are_finite() {
        let p = Vec3::new(1.0, 2.0, 3.0);
        let path = Path::polyline(&[p, p, p]).unwrap();
        assert_eq!(path.length(), 0.0);
        for d in [-1.0, 0.0, 0.5, 10.0] {
            let (pos, fwd) = path.at_distance(d);
            assert_eq!(pos, p);
            assert_eq!(fwd, Vec3::Z);
        }
        let n = path.nearest(Vec3::new(5.0, 5.0, 5.0));
        assert_eq!((n.distance, n.point), (0.0, p));
        let path =
            Path::polyline(&[Vec3::ZERO, Vec3::X, Vec3::X, Vec3::new(1.0, 0.0, 1.0)]).unwrap();
        assert!((path.length() - 2.0).abs() < 1e-6);
        let (pos, fwd) = path.at_distance(1.0);
        assert!((pos - Vec3::X).length() < 1e-6);
        assert!(fwd.is_finite() && (fwd.length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn zero_speed_end_falls_back_to_the_chord() {
        // b1 == b0: the derivative at t = 0 is zero.
        let pts = [
            Vec3::ZERO,
            Vec3::ZERO,
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::X * 2.0,
        ];
        let path = Path::bezier_chain(&pts, &[3]).unwrap();
        let f = path.forward(0.0);
        assert!((f.length() - 1.0).abs() < 1e-5);
        assert!(f.x > 0.0 && f.z > 0.0);
    }

    #[test]
    fn span_queries_match_the_table_and_hints() {
        let pts: Vec<Vec3> = (0..50)
            .map(|i| Vec3::new(i as f32, (i as f32 * 0.9).sin() * 4.0, (i % 3) as f32))
            .collect();
        let path = Path::catmull_rom(&pts, 0.5, 0.0).unwrap();
        let l = path.length();
        for k in 0..5000 {
            let d = (k as f32 / 5000.0) * l * 1.2 - 0.1 * l;
            let p = path
                .refined()
                .curve_param(path.table().param_at_distance(d));
            let q = path.param_at(d);
            assert_eq!(q.segment, p.segment);
            assert!((q.t - p.t).abs() <= 2e-6, "{q:?} vs {p:?}");
            let mut hint = (k * 7919) % (2 * path.spans.len());
            assert_eq!(path.param_at_hinted(d, &mut hint), q);
        }
        assert_eq!(path.param_at(f32::NAN), path.param_at(0.0));
        assert_eq!(path.param_at(f32::INFINITY), path.param_at(2.0 * l));
        assert_eq!(path.param_at(f32::NEG_INFINITY), path.param_at(0.0));
        let mut hint = 3;
        assert_eq!(
            path.param_at_hinted(f32::INFINITY, &mut hint),
            path.param_at(l)
        );
    }

    #[test]
    fn bezier_chain_counts_are_checked() {
        let pts = [Vec3::ZERO, Vec3::X, Vec3::Y];
        assert_eq!(
            Path::bezier_chain(&pts, &[1, 2]).err(),
            Some(CurveError::LengthMismatch)
        );
        assert_eq!(
            Path::bezier_chain(&pts, &[0, 2]).err(),
            Some(CurveError::InvalidArgument)
        );
        assert!(Path::bezier_chain(&pts, &[1, 1]).is_ok());
        assert!(Path::bezier_chain(&pts, &[2]).is_ok());
    }
}
