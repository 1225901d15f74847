//! Bézier curves of any degree 1..=64 and chains of them.
//!
//! `B(t) = Σᵢ C(n,i)(1−t)^(n−i) tⁱ Pᵢ`. It is evaluated in Bernstein form, never the power
//! basis (whose coefficients cancel catastrophically at high degree), by Horner's rule in
//! `u = t/(1−t)`:
//!
//! ```text
//! B(t) = (1−t)ⁿ · Σᵢ [C(n,i)·Pᵢ] uⁱ            for t ≤ ½   (u ∈ [0, 1])
//! B(t) = tⁿ     · Σᵢ [C(n,i)·Pᵢ] vⁿ⁻ⁱ, v = (1−t)/t  for t > ½  (mirrored, v ∈ [0, 1))
//! ```
//!
//! in f64 with the scaled points `C(n,i)·Pᵢ` computed once per curve. Every term is a positive
//! Bernstein weight times a control point, so the rounding error is bounded by
//! `≈ 2n·2⁻⁵³·max|Pᵢ|` before the final rounding to f32: the result is the f32 nearest to the
//! exact value (within about one ulp of `max|Pᵢ|` at degree 64). This is `O(n)` per point,
//! against `O(n²)` for de Casteljau's algorithm (the seed paper's recursive "degree
//! reduction"); the ends are exact (`B(0) = P₀`, `B(1) = Pₙ`).
//!
//! The derivative is `n` times the Bézier curve of degree `n − 1` of the differences
//! `Pᵢ₊₁ − Pᵢ` (the hodograph), evaluated the same way.

use super::cubic::check_points;
use super::{CurveError, ParamCurve};
use glam::{DVec3, Vec3};

/// The highest supported degree (65 control points).
pub const MAX_BEZIER_DEGREE: usize = 64;

/// How many parameters [`BezierCurve::eval`] evaluates together (independent Horner chains
/// keep the FPU busy).
const LANES: usize = 4;

/// One Bézier curve of degree `points.len() − 1` (1..=64).
///
/// ```
/// use wayfarer::curve::BezierCurve;
/// use wayfarer::Vec3;
///
/// let curve = BezierCurve::new(vec![Vec3::ZERO, Vec3::new(1.0, 2.0, 0.0), Vec3::new(2.0, 0.0, 0.0)]).unwrap();
/// assert_eq!(curve.degree(), 2);
/// assert!((curve.position(0.5) - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-6);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BezierCurve {
    points: Vec<Vec3>,
    /// `C(n,i)·Pᵢ` in f64.
    scaled: Vec<DVec3>,
    /// `n·C(n−1,i)·(Pᵢ₊₁ − Pᵢ)` in f64 (the hodograph, derivative factor included).
    scaled_diff: Vec<DVec3>,
    /// The two above, reversed (the batch path walks them in either direction per lane).
    scaled_rev: Vec<DVec3>,
    scaled_diff_rev: Vec<DVec3>,
}

/// `C(n, i)` for `i = 0..=n` in f64 (exact while they fit in 53 bits, within a few roundings up to n = 64).
fn binomials(n: usize) -> [f64; MAX_BEZIER_DEGREE + 1] {
    let mut c = [0.0f64; MAX_BEZIER_DEGREE + 1];
    c[0] = 1.0;
    for i in 1..=n {
        // C(n, i) = C(n, i−1)·(n − i + 1)/i, rounded once per step.
        c[i] = c[i - 1] * (n - i + 1) as f64 / i as f64;
    }
    c
}

impl BezierCurve {
    /// A Bézier curve from its 2..=65 control points (end points included).
    ///
    /// Errors: fewer than 2 points ([`CurveError::TooFewPoints`]), more than 65
    /// ([`CurveError::TooManyPoints`]), a non-finite coordinate ([`CurveError::NonFinite`]).
    pub fn new(points: Vec<Vec3>) -> Result<Self, CurveError> {
        check_points(&points, 2)?;
        if points.len() > MAX_BEZIER_DEGREE + 1 {
            return Err(CurveError::TooManyPoints);
        }
        let n = points.len() - 1;
        let c = binomials(n);
        let scaled = points
            .iter()
            .zip(c)
            .map(|(p, c)| p.as_dvec3() * c)
            .collect();
        let cd = binomials(n - 1);
        let scaled_diff = points
            .windows(2)
            .zip(cd)
            .map(|(w, c)| (w[1].as_dvec3() - w[0].as_dvec3()) * (c * n as f64))
            .collect();
        let rev = |v: &Vec<DVec3>| v.iter().rev().copied().collect();
        Ok(Self {
            points,
            scaled_rev: rev(&scaled),
            scaled_diff_rev: rev(&scaled_diff),
            scaled,
            scaled_diff,
        })
    }

    /// The control points.
    pub fn points(&self) -> &[Vec3] {
        &self.points
    }

    /// The degree (control points − 1).
    pub fn degree(&self) -> usize {
        self.points.len() - 1
    }

    /// Position at `t` (clamped to `[0, 1]`).
    pub fn position(&self, t: f32) -> Vec3 {
        eval_one(&self.scaled, t)
    }

    /// First derivative at `t` (clamped to `[0, 1]`).
    pub fn derivative(&self, t: f32) -> Vec3 {
        eval_one(&self.scaled_diff, t)
    }

    /// Positions at every `ts[i]` (clamped to `[0, 1]`) into `out[i]`
    /// (`min(ts.len(), out.len())` of them); the batch form of
    /// [`position`](Self::position), several parameters at once, bit-identical to it. No
    /// allocation. For `n` points spread by parameter or arc length use [`crate::curve::sample`],
    /// which runs this same arithmetic (the same bits at the same parameters).
    pub fn eval(&self, ts: &[f32], out: &mut [Vec3]) {
        eval_many(&self.scaled, &self.scaled_rev, ts, out);
    }

    /// First derivatives at every `ts[i]` into `out[i]`, like [`eval`](Self::eval).
    pub fn eval_derivatives(&self, ts: &[f32], out: &mut [Vec3]) {
        eval_many(&self.scaled_diff, &self.scaled_diff_rev, ts, out);
    }

    /// Former name of [`eval`](Self::eval).
    #[deprecated(note = "renamed to `eval` (positions at these parameters)")]
    pub fn sample(&self, ts: &[f32], out: &mut [Vec3]) {
        self.eval(ts, out);
    }

    /// Former name of [`eval_derivatives`](Self::eval_derivatives).
    #[deprecated(note = "renamed to `eval_derivatives`")]
    pub fn sample_derivatives(&self, ts: &[f32], out: &mut [Vec3]) {
        self.eval_derivatives(ts, out);
    }
}

/// `a[j]ⁿ` for every lane by binary powering: the algorithm of `f64::powi` as compiled here
/// (`__powidf2`, in compiler-builtins and libgcc alike: multiply by `a` at each set bit of `n`
/// from the lowest, squaring `a` between bits), so the same bits, without a library call per
/// lane and with the lanes in step.
#[inline(always)]
fn powers<const L: usize>(mut a: [f64; L], n: u32) -> [f64; L] {
    let mut r = [1.0f64; L];
    let mut b = n;
    loop {
        if b & 1 != 0 {
            for j in 0..L {
                r[j] *= a[j];
            }
        }
        b >>= 1;
        if b == 0 {
            return r;
        }
        for a in &mut a {
            *a *= *a;
        }
    }
}

/// Per-lane setup: clamped `t`; `mirror` (`t > ½`: the sum runs from the first coefficient);
/// the Horner variable `u = t/(1−t)` or `v = (1−t)/t`; and the power of `(1−t)` or `t` that
/// multiplies the sum. One division and one power per lane: the side is chosen first (working
/// out both sides and keeping one, as a branch-free select does, doubled the work).
#[inline(always)]
fn setup<const L: usize, const CLAMP: bool>(
    t: [f32; L],
    n: u32,
) -> ([bool; L], [f64; L], [f64; L]) {
    let mut mirror = [false; L];
    let mut x = [0.0f64; L];
    let mut den = [0.0f64; L];
    for j in 0..L {
        let t = if CLAMP { t[j].clamp(0.0, 1.0) } else { t[j] } as f64;
        let s = 1.0 - t;
        let num;
        (mirror[j], num, den[j]) = if t <= 0.5 {
            (false, t, s)
        } else {
            (true, s, t)
        };
        x[j] = num / den[j];
    }
    (mirror, x, powers(den, n))
}

/// `Σ q[i]·Bernstein(n, i, t)` with `q` pre-scaled by the binomials (`n = q.len() − 1`).
#[inline]
fn eval_one(q: &[DVec3], t: f32) -> Vec3 {
    let n = q.len() - 1;
    let ([mirror], [x], [scale]) = setup::<1, true>([t], n as u32);
    let mut acc = DVec3::ZERO;
    if mirror {
        for &c in q {
            acc = acc * x + c;
        }
    } else {
        for &c in q.iter().rev() {
            acc = acc * x + c;
        }
    }
    (acc * scale).as_vec3()
}

/// [`eval_one`] at [`LANES`] parameters at once (independent accumulators), bit-identical to
/// it at each; `r` is `q` reversed.
#[inline(always)]
fn eval_lanes(q: &[DVec3], r: &[DVec3], t4: [f32; LANES], o4: &mut [Vec3]) {
    let n = q.len() - 1;
    horner_lanes(q, r, setup::<LANES, true>(t4, n as u32), o4);
}

/// The sums of [`eval_lanes`] once [`setup`] is done.
#[inline(always)]
fn horner_lanes(
    q: &[DVec3],
    r: &[DVec3],
    (mirror, x, scale): ([bool; LANES], [f64; LANES], [f64; LANES]),
    o4: &mut [Vec3],
) {
    // Each lane walks the coefficients forwards (mirrored) or backwards (`r` is `q`
    // reversed): four independent Horner chains, no per-step selection.
    let pick = |j: usize| if mirror[j] { q } else { r };
    let mut acc = [DVec3::ZERO; LANES];
    for (((&a, &b), &c), &d) in pick(0).iter().zip(pick(1)).zip(pick(2)).zip(pick(3)) {
        acc[0] = acc[0] * x[0] + a;
        acc[1] = acc[1] * x[1] + b;
        acc[2] = acc[2] * x[2] + c;
        acc[3] = acc[3] * x[3] + d;
    }
    for j in 0..LANES {
        o4[j] = (acc[j] * scale[j]).as_vec3();
    }
}

/// [`eval_one`] over many parameters, [`LANES`] at a time; `r` is `q` reversed.
fn eval_many(q: &[DVec3], r: &[DVec3], ts: &[f32], out: &mut [Vec3]) {
    let len = ts.len().min(out.len());
    let (ts, out) = (&ts[..len], &mut out[..len]);
    let mut tc = ts.chunks_exact(LANES);
    let mut oc = out.chunks_exact_mut(LANES);
    for (t4, o4) in (&mut tc).zip(&mut oc) {
        eval_lanes(q, r, [t4[0], t4[1], t4[2], t4[3]], o4);
    }
    for (o, &t) in oc.into_remainder().iter_mut().zip(tc.remainder()) {
        *o = eval_one(q, t);
    }
}

/// [`horner_lanes`] for `L` lanes all on one side of ½ (`coef` is `q` if all are mirrored,
/// `q` reversed if none is): one coefficient stream serves every lane. The same operations in
/// the same order for each lane, so the same bits.
#[inline(always)]
fn horner_one_side<const L: usize>(coef: &[DVec3], x: [f64; L], scale: [f64; L], o: &mut [Vec3]) {
    let (mut ax, mut ay, mut az) = ([0.0f64; L], [0.0f64; L], [0.0f64; L]);
    for c in coef {
        for j in 0..L {
            ax[j] = ax[j] * x[j] + c.x;
            ay[j] = ay[j] * x[j] + c.y;
            az[j] = az[j] * x[j] + c.z;
        }
    }
    for j in 0..L {
        o[j] = (DVec3::new(ax[j], ay[j], az[j]) * scale[j]).as_vec3();
    }
}

/// `out[i]` = the position at `t = i / (out.len() − 1)` (the f64 quotient rounded to f32, as
/// [`ParamCurve::sample_uniform`] spaces them) for `out.len() ≥ 2`: what [`eval_many`] gives
/// at those parameters, bit for bit, and no slower.
///
/// Making the parameters first and then calling [`eval_many`] cost about 0.85 ns a point more
/// than [`eval_many`] alone at every degree: the block of parameters was made on its own
/// (two f64 divisions per four, the divider busy with nothing else to do) before the kernel
/// ran. Here each group's parameters and setup are made one group ahead, inside the loop (no
/// buffer), so their divisions overlap the sums before them. The parameters also need no
/// clamping, and they rise with `i`, so every group but the one straddling ½ lies on one side
/// of it: one coefficient stream serves the whole group ([`horner_one_side`]), and from
/// degree 4 up six chains run at a time instead of four (measured quicker there, slower below).
fn sample_even(q: &[DVec3], r: &[DVec3], out: &mut [Vec3]) {
    if q.len() <= 4 {
        // Degree 1 to 3: setup outweighs the sums; four lanes are quicker here.
        sample_groups::<LANES>(q, r, out)
    } else {
        sample_groups::<6>(q, r, out)
    }
}

/// [`sample_even`] `G` points at a time.
#[inline(always)]
fn sample_groups<const G: usize>(q: &[DVec3], r: &[DVec3], out: &mut [Vec3]) {
    let n = (q.len() - 1) as u32;
    let last = (out.len() - 1) as f64;
    // Through i64 (one signed conversion; `usize as f64` is a longer sequence).
    let t_at = |i: usize| ((i as i64) as f64 / last) as f32;
    let prepare = |k: usize| setup::<G, false>(core::array::from_fn(|j| t_at(k * G + j)), n);
    let full = out.len() - out.len() % G;
    let (body, rest) = out.split_at_mut(full);
    // One group ahead; past the end for the last group (unused, and harmless: t a little
    // above 1).
    let mut next = prepare(0);
    for (k, og) in body.chunks_exact_mut(G).enumerate() {
        let (mirror, x, scale) = next;
        next = prepare(k + 1);
        if mirror == [false; G] {
            horner_one_side(r, x, scale, og);
        } else if mirror == [true; G] {
            horner_one_side(q, x, scale, og);
        } else if G == LANES {
            let pick = |a: [f64; G]| core::array::from_fn(|j| a[j]);
            let mirror = core::array::from_fn(|j| mirror[j]);
            horner_lanes(q, r, (mirror, pick(x), pick(scale)), og);
        } else {
            // The one group straddling ½.
            for (j, o) in og.iter_mut().enumerate() {
                *o = eval_one(q, t_at(k * G + j));
            }
        }
    }
    for (j, o) in rest.iter_mut().enumerate() {
        *o = eval_one(q, t_at(full + j));
    }
}

/// Bézier curves joined end to end (the paper's two-piece ping-pong trajectory); each piece
/// may have its own degree. Piece `i` is segment `i` of the [`ParamCurve`].
///
/// ```
/// use wayfarer::curve::{self, BezierChain};
/// use wayfarer::Vec3;
///
/// // A quadratic then a cubic, sharing the point (2, 0, 0): 1 + 2 + 3 points.
/// let points = [
///     Vec3::ZERO, Vec3::new(1.0, 2.0, 0.0), Vec3::new(2.0, 0.0, 0.0),
///     Vec3::new(3.0, -1.0, 0.0), Vec3::new(4.0, 1.0, 0.0), Vec3::new(5.0, 0.0, 0.0),
/// ];
/// let chain = BezierChain::from_shared_points(&points, &[2, 3]).unwrap();
/// assert_eq!(chain.pieces().len(), 2);
/// assert!(curve::length(&chain) > 5.0);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BezierChain {
    pieces: Vec<BezierCurve>,
}

impl BezierChain {
    /// A chain from its pieces; each piece must start exactly where the previous one ends.
    ///
    /// Errors: no piece ([`CurveError::TooFewPoints`]), pieces that do not join
    /// ([`CurveError::InvalidArgument`]).
    pub fn new(pieces: Vec<BezierCurve>) -> Result<Self, CurveError> {
        if pieces.is_empty() {
            return Err(CurveError::TooFewPoints);
        }
        if pieces
            .windows(2)
            .any(|w| w[0].points.last() != w[1].points.first())
        {
            return Err(CurveError::InvalidArgument);
        }
        Ok(Self { pieces })
    }

    /// A chain from control points whose shared end points are given once:
    /// `points.len() == 1 + Σ degrees`, piece `k` uses `points[o..=o + degrees[k]]` with `o` the
    /// sum of the earlier degrees (the C ABI's layout).
    ///
    /// Errors: no piece or a degree of 0 ([`CurveError::InvalidArgument`] for the degree,
    /// [`CurveError::TooFewPoints`] for no piece), a degree above [`MAX_BEZIER_DEGREE`]
    /// ([`CurveError::TooManyPoints`]), degrees that do not sum to `points.len() − 1`
    /// ([`CurveError::LengthMismatch`]), a non-finite coordinate ([`CurveError::NonFinite`]).
    pub fn from_shared_points(points: &[Vec3], degrees: &[u32]) -> Result<Self, CurveError> {
        if degrees.is_empty() {
            return Err(CurveError::TooFewPoints);
        }
        if degrees.contains(&0) {
            return Err(CurveError::InvalidArgument);
        }
        if degrees.iter().any(|&d| d as usize > MAX_BEZIER_DEGREE) {
            return Err(CurveError::TooManyPoints);
        }
        let total: u64 = degrees.iter().map(|&d| d as u64).sum();
        if total.checked_add(1) != Some(points.len() as u64) {
            return Err(CurveError::LengthMismatch);
        }
        check_points(points, 2)?;
        let mut o = 0usize;
        let mut pieces = Vec::with_capacity(degrees.len());
        for &d in degrees {
            let d = d as usize;
            pieces.push(BezierCurve::new(points[o..=o + d].to_vec())?);
            o += d;
        }
        Self::new(pieces)
    }

    /// The pieces.
    pub fn pieces(&self) -> &[BezierCurve] {
        &self.pieces
    }
}

impl ParamCurve for BezierCurve {
    fn segment_count(&self) -> usize {
        1
    }
    fn position(&self, _segment: usize, t: f32) -> Vec3 {
        BezierCurve::position(self, t)
    }
    fn derivative(&self, _segment: usize, t: f32) -> Vec3 {
        BezierCurve::derivative(self, t)
    }
    fn positions(&self, _segment: usize, ts: &[f32], out: &mut [Vec3]) {
        self.eval(ts, out);
    }
    fn sample_uniform(&self, out: &mut [Vec3]) {
        match out.len() {
            0 => {}
            1 => out[0] = self.position(0.0),
            _ => sample_even(&self.scaled, &self.scaled_rev, out),
        }
    }
}

impl ParamCurve for BezierChain {
    fn segment_count(&self) -> usize {
        self.pieces.len()
    }
    fn position(&self, segment: usize, t: f32) -> Vec3 {
        self.pieces[segment.min(self.pieces.len() - 1)].position(t)
    }
    fn derivative(&self, segment: usize, t: f32) -> Vec3 {
        self.pieces[segment.min(self.pieces.len() - 1)].derivative(t)
    }
    fn positions(&self, segment: usize, ts: &[f32], out: &mut [Vec3]) {
        self.pieces[segment.min(self.pieces.len() - 1)].eval(ts, out);
    }
    fn sample_uniform(&self, out: &mut [Vec3]) {
        match &self.pieces[..] {
            [one] => one.sample_uniform(out),
            _ => super::sample_uniform_blocks(self, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// de Casteljau in f64: an independent reference.
    fn reference(points: &[Vec3], t: f64) -> DVec3 {
        let mut b: Vec<DVec3> = points.iter().map(|p| p.as_dvec3()).collect();
        for level in (1..b.len()).rev() {
            for i in 0..level {
                b[i] = b[i] * (1.0 - t) + b[i + 1] * t;
            }
        }
        b[0]
    }

    fn wavy(n: usize) -> Vec<Vec3> {
        (0..=n)
            .map(|i| {
                let f = i as f32;
                Vec3::new(f, (f * 1.7).sin() * 5.0, (f * 0.3).cos() * 2.0 - 1.0)
            })
            .collect()
    }

    #[test]
    fn ends_are_exact_and_matches_de_casteljau() {
        for n in [1, 2, 3, 7, 20, 64] {
            let pts = wavy(n);
            let c = BezierCurve::new(pts.clone()).unwrap();
            assert_eq!(c.position(0.0), pts[0]);
            assert_eq!(c.position(1.0), pts[n]);
            let scale = pts
                .iter()
                .map(|p| p.abs().max_element())
                .fold(0.0, f32::max);
            let ts: Vec<f32> = (0..=101).map(|k| k as f32 / 101.0).collect();
            let mut batch = vec![Vec3::ZERO; ts.len()];
            c.eval(&ts, &mut batch);
            for (&t, &b) in ts.iter().zip(&batch) {
                let r = reference(&pts, t as f64);
                let e = (c.position(t).as_dvec3() - r).abs().max_element();
                assert!(e <= 3e-6 * scale as f64, "degree {n} t {t}: {e}");
                assert_eq!(b, c.position(t));
            }
        }
    }

    #[test]
    fn sample_through_the_kernel_matches_point_by_point() {
        use crate::curve::{sample, ArcLengthTable, CurveParam, ParamCurve, Spacing};
        let c = BezierCurve::new(wavy(15)).unwrap();
        let chain = BezierChain::from_shared_points(&wavy(9), &[2, 3, 4]).unwrap();
        // 600 points: two full 256-point blocks and a remainder; chain blocks straddle pieces.
        let n = 600;
        let mut out = vec![Vec3::ZERO; n];
        sample(&c, Spacing::Parameter, &mut out);
        for (i, &o) in out.iter().enumerate() {
            let p = CurveParam::from_global_f64(i as f64 / (n - 1) as f64, 1);
            assert_eq!(o, c.position(p.t), "point {i}");
        }
        for curve in [&c as &dyn ParamCurve, &chain] {
            sample(curve, Spacing::ArcLength, &mut out);
            let table = ArcLengthTable::new(curve);
            let total = table.total_length_f64();
            for (i, &o) in out.iter().enumerate() {
                let d = if i + 1 == n {
                    total as f32
                } else {
                    (total * i as f64 / (n - 1) as f64) as f32
                };
                let p = table.param_at_distance(d);
                assert_eq!(o, curve.position(p.segment, p.t), "arc-length point {i}");
            }
        }
    }

    #[test]
    fn even_sampling_matches_point_by_point_at_every_group_size() {
        use crate::curve::{sample, AnyCurve, Spacing};
        // Degrees on either side of the switch from four to six lanes; counts with and
        // without a remainder, and with the group straddling ½ in different places.
        for degree in [1, 2, 3, 4, 5, 15, 64] {
            let c = BezierCurve::new(wavy(degree)).unwrap();
            let one_piece: AnyCurve = BezierChain::new(vec![c.clone()]).unwrap().into();
            for n in [1, 2, 3, 5, 6, 7, 12, 13, 25, 601] {
                let want: Vec<Vec3> = (0..n)
                    .map(|i| {
                        let t = if n == 1 {
                            0.0
                        } else {
                            (i as f64 / (n - 1) as f64) as f32
                        };
                        c.position(t)
                    })
                    .collect();
                let mut out = vec![Vec3::ZERO; n];
                sample(&c, Spacing::Parameter, &mut out);
                assert_eq!(out, want, "degree {degree}, {n} points");
                sample(&one_piece, Spacing::Parameter, &mut out);
                assert_eq!(out, want, "one-piece chain, degree {degree}, {n} points");
            }
        }
    }

    #[test]
    fn shared_points_layout_and_errors() {
        let pts = wavy(5);
        let chain = BezierChain::from_shared_points(&pts, &[2, 3]).unwrap();
        assert_eq!(chain.pieces()[0].points(), &pts[0..3]);
        assert_eq!(chain.pieces()[1].points(), &pts[2..6]);
        assert_eq!(
            BezierChain::from_shared_points(&pts, &[2, 2]),
            Err(CurveError::LengthMismatch)
        );
        assert_eq!(
            BezierChain::from_shared_points(&pts, &[5, 0]),
            Err(CurveError::InvalidArgument)
        );
        assert_eq!(
            BezierChain::from_shared_points(&pts, &[]),
            Err(CurveError::TooFewPoints)
        );
        assert_eq!(
            BezierChain::from_shared_points(&wavy(65), &[65]),
            Err(CurveError::TooManyPoints)
        );
    }
}
