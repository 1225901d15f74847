//! The batch loop of [`ScheduleSet`] in lanes: one chunk of NPCs at a time, as columns on the
//! stack, in passes that alternate between *lane passes* (straight-line arithmetic over every
//! lane of the chunk, no branches, no indexing: loops the compiler turns into SIMD, several
//! NPCs per instruction) and *scalar passes* (the searches and table look-ups, which branch and
//! index per NPC, copying what they find into the columns).
//!
//! 1. lanes (f64): the wrap step, world time `t` → local time `τ` and direction
//!    ([`local_time_lane`]); lanes that need the scalar code are flagged;
//! 2. scalar: for schedules with several legs, the leg holding `τ` (hinted or searched),
//!    patched into the leg lanes (every other lane reads its first leg from the per-NPC
//!    columns, in place); flagged lanes run [`super::schedule::KeysView::sample`] whole;
//! 3. lanes (f64): `x = clamp((τ − tᵢ)/Δtᵢ, 0, 1)`, the easing ([`ease_lane`]), distance
//!    `dᵢ + Δdᵢ·u(x)` and speed `dir·Δdᵢ·u'(x)/Δtᵢ` rounded to f32, facing and state;
//! 4. the arc-length span holding each distance (hinted or from the grid): in the AVX-512
//!    build a lane pass ([`span_lanes`]: the hinted span or the next one, or the grid cell's
//!    span or the next one, the starts read by gathers; the rare lane that moved further
//!    walks, scalar), elsewhere scalar per lane;
//! 5. the span's cubic `t(x)`: in the AVX-512 build each lane's 32-byte span is read with one
//!    load and 16 of them are transposed into columns (`transpose`), then a lane pass;
//!    elsewhere scalar per lane;
//! 6. position `a + t(b + t(c + t·d))` and derivative `b + t(2c + t·3d)` of the segment's
//!    power form by Horner's rule: in the AVX-512 build from 64-byte rows transposed into
//!    columns, then a lane pass; elsewhere scalar per lane in 16-byte vectors (x, y and z in
//!    one operation); Bézier chains are evaluated by the curve itself;
//! 7. lanes (f32): `1/|C'|`, the unit tangent, forward and velocity; tangents too short for
//!    f32 take the chord fallback, lane by lane;
//! 8. output ([`Emit`]): straight into flat arrays ([`SampleArrays`]; fixed-length loops over
//!    a full chunk, interleaving x, y, z with vector shuffles) or one callback per NPC.
//!
//! Every lane performs exactly the IEEE operations of the scalar functions
//! ([`ScheduleSet::sample`]), in the same order (Rust never fuses or reorders floating-point
//! operations; transposes and gathers only move bits), so results are bit-identical to them
//! whatever the lane width. On x86-64 the chunk is compiled three times, for baseline SSE2,
//! with AVX2 (4 f64 / 8 f32 lanes per instruction) and with AVX-512 (8 / 16 lanes, table
//! reads by gathers and transposes), chosen at run time up to the set's [`super::Simd`] cap;
//! FMA is never enabled, since fused multiply-adds round differently.

use super::path::{clean, unit_recip_xyz, Path, Span, ACCURATE_RECIP};
use super::schedule::{ease_lane, local_time_lane, Key, Leg, NpcState, ScheduleSample, Wrap};
use super::set::{NpcSample, SampleArrays, ScheduleSet, Times, CHUNK};
use crate::curve::CurveParam;
use glam::Vec3;

/// One leg as the lanes read it: start time `tᵢ`, `1/Δtᵢ`, start distance `dᵢ` and distance
/// covered `Δdᵢ` (the values [`super::schedule::KeysView::sample`] reads).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
pub(super) struct LegLane {
    t: f64,
    inv_dt: f64,
    d0: f64,
    delta: f64,
}

/// A leg's easing coefficients ([`super::schedule::Ease::coefficients`]) and facing signs as
/// f32: `[a₁, a₂, a₃, facing forwards, facing backwards]`.
type LegMeta = [f32; 5];

/// The set's data as the lanes read it: per NPC, the wrap step's inputs and its *first* leg
/// as columns (a full chunk reads them in place, no per-NPC look-up: an NPC on its first leg,
/// every NPC of a one-leg schedule, needs nothing else); per leg, the same values as records,
/// for NPCs on a later leg.
#[derive(Clone, Debug, Default)]
pub(super) struct Columns {
    t0: Vec<f64>,
    span: Vec<f64>,
    end: Vec<f64>,
    wrap: Vec<u64>,
    inv_dt: Vec<f64>,
    d0: Vec<f64>,
    delta: Vec<f64>,
    ease: [Vec<f32>; 3],
    face: [Vec<f32>; 2],
    /// More than one leg (the leg must be searched).
    multi: Vec<bool>,
    path: Vec<u32>,
    /// Per chunk of `CHUNK` NPCs: some NPC has several legs; the path every NPC is on
    /// ([`MIXED`] when they differ).
    chunk_multi: Vec<bool>,
    chunk_path: Vec<u32>,
    /// Per leg (parallel to the set's legs).
    legs: Vec<LegLane>,
    meta: Vec<LegMeta>,
}

impl Columns {
    /// Appends an NPC with validated `keys`, their `legs`, `wrap` and path index.
    pub(super) fn push(&mut self, keys: &[Key], legs: &[Leg], wrap: Wrap, path: u32) {
        let last = keys[keys.len() - 1].time;
        self.t0.push(keys[0].time);
        self.span.push(last - keys[0].time);
        self.end.push(last);
        self.wrap.push(wrap as u64);
        for (leg, key) in legs.iter().zip(keys) {
            self.legs.push(LegLane {
                t: key.time,
                inv_dt: leg.inv_dt,
                d0: leg.d0,
                delta: leg.delta,
            });
            let [a1, a2, a3] = leg.ease.coefficients();
            let [fwd, back] = leg.face;
            self.meta.push([a1, a2, a3, fwd as f32, back as f32]);
        }
        let first = &legs[0];
        self.inv_dt.push(first.inv_dt);
        self.d0.push(first.d0);
        self.delta.push(first.delta);
        for (col, v) in self.ease.iter_mut().zip(first.ease.coefficients()) {
            col.push(v);
        }
        for (col, v) in self.face.iter_mut().zip(first.face) {
            col.push(v as f32);
        }
        let multi = legs.len() > 1;
        if self.multi.len().is_multiple_of(CHUNK) {
            self.chunk_multi.push(multi);
            self.chunk_path.push(path);
        } else if let (Some(m), Some(p)) = (self.chunk_multi.last_mut(), self.chunk_path.last_mut())
        {
            *m |= multi;
            if *p != path {
                *p = MIXED;
            }
        }
        self.multi.push(multi);
        self.path.push(path);
    }
}

/// [`Columns`]' chunk path when the chunk's NPCs are on different paths.
const MIXED: u32 = u32::MAX;

/// Copies of the columns for a chunk that cannot read them in place (the last, partial chunk;
/// legs patched for lanes past their first leg), reused for every chunk.
pub(super) struct Inputs {
    t: [f64; CHUNK],
    t0: [f64; CHUNK],
    span: [f64; CHUNK],
    end: [f64; CHUNK],
    wrap: [u64; CHUNK],
    multi: [bool; CHUNK],
    path: [u32; CHUNK],
    leg_t: [f64; CHUNK],
    inv_dt: [f64; CHUNK],
    d0: [f64; CHUNK],
    delta: [f64; CHUNK],
    ease: [[f32; CHUNK]; 3],
    face: [[f32; CHUNK]; 2],
}

impl Inputs {
    pub(super) fn new() -> Self {
        Self {
            t: [0.0; CHUNK],
            t0: [0.0; CHUNK],
            span: [1.0; CHUNK],
            end: [1.0; CHUNK],
            wrap: [0; CHUNK],
            multi: [false; CHUNK],
            path: [0; CHUNK],
            leg_t: [0.0; CHUNK],
            inv_dt: [0.0; CHUNK],
            d0: [0.0; CHUNK],
            delta: [0.0; CHUNK],
            ease: [[0.0; CHUNK]; 3],
            face: [[1.0; CHUNK]; 2],
        }
    }
}

/// Lanes `start..start + m` of `col` as a full chunk: in place when there are `CHUNK` of
/// them, else copied into `buf` (the spare lanes keep whatever `buf` held).
#[inline(always)]
fn chunk_of<'a, T: Copy>(
    col: &'a [T],
    start: usize,
    m: usize,
    buf: &'a mut [T; CHUNK],
) -> &'a [T; CHUNK] {
    match col.get(start..start + CHUNK) {
        Some(s) if m == CHUNK => s.try_into().expect("CHUNK lanes"),
        _ => {
            buf[..m].copy_from_slice(&col[start..start + m]);
            buf
        }
    }
}

/// The leg inputs of pass 3 (one chunk).
struct LegIn<'a> {
    t: &'a [f64; CHUNK],
    inv_dt: &'a [f64; CHUNK],
    d0: &'a [f64; CHUNK],
    delta: &'a [f64; CHUNK],
    ease: [&'a [f32; CHUNK]; 3],
    face: [&'a [f32; CHUNK]; 2],
}

/// One chunk's intermediate columns (see the module docs), reused for every chunk.
pub(super) struct Lanes {
    // Pass 1 outputs (f64).
    tau: [f64; CHUNK],
    dir: [f64; CHUNK],
    scalar: [bool; CHUNK],
    // Pass 3 outputs.
    dist: [f32; CHUNK],
    /// `clean(dist)`, the distance the span search takes.
    d: [f32; CHUNK],
    speed: [f32; CHUNK],
    facing: [f32; CHUNK],
    state: [NpcState; CHUNK],
    /// Lanes sampled by the scalar code in pass 2: lane and sample.
    fixed: [(u8, ScheduleSample); CHUNK],
    // Pass 4 → 5: the span's index; pass 5 → 6: segment and curve parameter.
    idx: [u32; CHUNK],
    /// The lane search did not settle the span (a walk or a binary search is needed).
    slow: [bool; CHUNK],
    seg: [u32; CHUNK],
    param: [f32; CHUNK],
    /// AVX-512 build: each lane's span fields and power-form values as columns (bits), read
    /// from the tables by `transpose`.
    span_cols: [[u32; CHUNK]; 8],
    power_cols: [[u32; CHUNK]; 12],
    // Pass 6 outputs: position and derivative.
    pos: [[f32; CHUNK]; 3],
    der: [[f32; CHUNK]; 3],
    // Pass 7 outputs.
    recip: [f32; CHUNK],
    /// The tangent needs the scalar fallback (`1/|C'|` not finite, not positive or too big).
    bad: [bool; CHUNK],
    fwd: [[f32; CHUNK]; 3],
    vel: [[f32; CHUNK]; 3],
}

impl Lanes {
    pub(super) fn new() -> Self {
        Self {
            tau: [0.0; CHUNK],
            dir: [1.0; CHUNK],
            scalar: [false; CHUNK],
            dist: [0.0; CHUNK],
            d: [0.0; CHUNK],
            speed: [0.0; CHUNK],
            facing: [1.0; CHUNK],
            state: [NpcState::Moving; CHUNK],
            fixed: [(0, ScheduleSample::default()); CHUNK],
            idx: [0; CHUNK],
            slow: [false; CHUNK],
            seg: [0; CHUNK],
            span_cols: [[0; CHUNK]; 8],
            power_cols: [[0; CHUNK]; 12],
            param: [0.0; CHUNK],
            pos: [[0.0; CHUNK]; 3],
            der: [[0.0; CHUNK]; 3],
            recip: [0.0; CHUNK],
            bad: [false; CHUNK],
            fwd: [[0.0; CHUNK]; 3],
            vel: [[0.0; CHUNK]; 3],
        }
    }
}

/// `x.clamp(0.0, 1.0)` (the same comparisons, without the bounds assertion).
#[inline(always)]
fn unit_clamp_f64(x: f64) -> f64 {
    let x = if x < 0.0 { 0.0 } else { x };
    if x > 1.0 {
        1.0
    } else {
        x
    }
}

/// `x.clamp(lo, hi)` for f32 (the same comparisons, without the bounds assertion: spare
/// lanes hold arbitrary values).
#[inline(always)]
fn clamp_f32(x: f32, lo: f32, hi: f32) -> f32 {
    let x = if x < lo { lo } else { x };
    if x > hi {
        hi
    } else {
        x
    }
}

/// Pass 1 (lanes): local times, directions and the scalar flags, for world times `time(j)`;
/// whether any lane (spare lanes included) is flagged.
#[inline(always)]
fn local_times<const ROUND: bool>(
    time: impl Fn(usize) -> f64,
    t0: &[f64; CHUNK],
    span: &[f64; CHUNK],
    end: &[f64; CHUNK],
    wrap: &[u64; CHUNK],
    l: &mut Lanes,
) -> bool {
    let mut any = false;
    for j in 0..CHUNK {
        let (tau, dir, scalar) = local_time_lane::<ROUND>(time(j), t0[j], span[j], end[j], wrap[j]);
        l.tau[j] = tau;
        l.dir[j] = dir;
        l.scalar[j] = scalar;
        any |= scalar;
    }
    any
}

/// Pass 3 (lanes): position on the leg, easing, distance, speed, facing and state.
#[inline(always)]
fn legs(g: &LegIn<'_>, l: &mut Lanes) {
    for j in 0..CHUNK {
        let (inv_dt, delta, dir) = (g.inv_dt[j], g.delta[j], l.dir[j]);
        let x = unit_clamp_f64((l.tau[j] - g.t[j]) * inv_dt);
        let (a1, a2, a3) = (g.ease[0][j], g.ease[1][j], g.ease[2][j]);
        let (u, du) = ease_lane(a1 as f64, a2 as f64, a3 as f64, x);
        let dist = (g.d0[j] + delta * u) as f32;
        l.dist[j] = dist;
        l.d[j] = clean(dist);
        l.speed[j] = (dir * delta * du * inv_dt) as f32;
        // `back` on the way back of a ping-pong, else `fwd`; both are ±1, so this is exact
        // (and a select of two loads would not vectorise).
        let (fwd, back) = (g.face[0][j], g.face[1][j]);
        l.facing[j] = fwd * if dir < 0.0 { fwd * back } else { 1.0 };
        l.state[j] = if delta == 0.0 {
            NpcState::Holding
        } else {
            NpcState::Moving
        };
    }
}

/// [`Path::param_in_span`]'s arithmetic, without its branch (the sentinel span of an empty
/// table gives `t = 0`), on a span's fields: start, `1/Δs`, segment, `hi`, `c₀ … c₃`.
#[inline(always)]
fn param_from(start: f32, inv_ds: f32, segment: u32, hi: f32, c: [f32; 4], d: f32) -> (u32, f32) {
    let x = clamp_f32((d - start) * inv_ds, 0.0, 1.0);
    let t = c[0] + x * (c[1] + x * (c[2] + x * c[3]));
    let t = clamp_f32(t, c[0], hi);
    (segment, if start == f32::INFINITY { 0.0 } else { t })
}

/// The segment and parameter at cleaned distance `d` in span `i` of `spans`.
#[inline(always)]
fn param_of(spans: &[Span], i: u32, d: f32) -> (u32, f32) {
    let sp = spans.get(i as usize).unwrap_or(&Span::SENTINEL);
    param_from(sp.start, sp.inv_ds, sp.segment, sp.hi, sp.c, d)
}

/// Pass 5 (lanes) in the AVX-512 build: [`param_from`] on the span fields in
/// `l.span_cols`.
#[inline(always)]
fn params_from_columns(l: &mut Lanes) {
    for j in 0..CHUNK {
        let f = |k: usize| f32::from_bits(l.span_cols[k][j]);
        let c = [f(4), f(5), f(6), f(7)];
        (l.seg[j], l.param[j]) = param_from(f(0), f(1), l.span_cols[2][j], f(3), c, l.d[j]);
    }
}

/// Pass 6 (lanes) in the AVX-512 build: position `a + t(b + t(c + t·d))` and derivative
/// `b + t(2c + t·3d)` ([`Path::position_derivative_a`]'s operations, component by
/// component) from the power-form values in `l.power_cols`.
#[inline(always)]
fn curves_from_columns(l: &mut Lanes) {
    for j in 0..CHUNK {
        let t = clamp_f32(l.param[j], 0.0, 1.0);
        let f = |k: usize| f32::from_bits(l.power_cols[k][j]);
        for k in 0..3 {
            let (a, b, c, d) = (f(k), f(3 + k), f(6 + k), f(9 + k));
            // `2c` and `3d` as `Power` stores them (the same single roundings).
            let (c2, d3) = (2.0 * c, 3.0 * d);
            l.pos[k][j] = a + t * (b + t * (c + t * d));
            l.der[k][j] = b + t * (c2 + t * d3);
        }
    }
}

/// Pass 7 (lanes): `1/|C'|`, forward and velocity; whether any lane (spare lanes included)
/// needs the fallback.
#[inline(always)]
fn frames(l: &mut Lanes) -> bool {
    let mut any = false;
    for j in 0..CHUNK {
        let (x, y, z) = (l.der[0][j], l.der[1][j], l.der[2][j]);
        let r = unit_recip_xyz(x, y, z);
        l.recip[j] = r;
        // `r.is_finite() && r > 0 && r <= ACCURATE_RECIP` (the last two imply the first).
        l.bad[j] = !((r > 0.0) & (r <= ACCURATE_RECIP));
        any |= l.bad[j];
        let (tx, ty, tz) = (x * r, y * r, z * r);
        let (f, v) = (l.facing[j], l.speed[j]);
        l.fwd[0][j] = tx * f;
        l.fwd[1][j] = ty * f;
        l.fwd[2][j] = tz * f;
        l.vel[0][j] = tx * v;
        l.vel[1][j] = ty * v;
        l.vel[2][j] = tz * v;
    }
    any
}

/// Hint `k` as a `usize` (0 without hints).
#[inline(always)]
fn hint_of(hints: &Option<&mut [u32]>, k: usize) -> usize {
    hints.as_deref().map_or(0, |h| h[k] as usize)
}

/// `s[i]`, or `+∞` past the end (never, for the indexes below; a select, not a panic, so the
/// loops vectorise, reading by index with gathers where the CPU has them).
#[inline(always)]
fn start_at(s: &[f32], i: usize) -> f32 {
    s.get(i).copied().unwrap_or(f32::INFINITY)
}

/// Pass 4 (lanes, then scalar for the rare lanes that need a walk) for lanes `0..m` on
/// `path`: the span holding each `l.d[j]`, into `l.idx` ([`Path::span_index`]: with hints,
/// the hinted span or the next one; without, the grid cell's span or the next one; the
/// answer is unique, so any search gives the same index). `hs` is this chunk's hints, read
/// and updated (`hs[2j + 1]`) unless the table is empty.
#[inline(always)]
fn span_lanes(path: &Path, l: &mut Lanes, m: usize, hs: &mut Option<&mut [u32]>) {
    let st = path.starts();
    let n = st.len() - 1;
    if n == 0 {
        // Only the sentinel: an empty table, every distance at span 0; hints untouched.
        l.idx = [0; CHUNK];
        return;
    }
    match hs.as_deref() {
        Some(h) => {
            if let Ok(full) = <&[u32; 2 * CHUNK]>::try_from(h) {
                for j in 0..CHUNK {
                    l.idx[j] = full[2 * j + 1];
                }
            } else {
                for j in 0..m {
                    l.idx[j] = h[2 * j + 1];
                }
            }
            let last = (n - 1) as u32;
            for j in 0..CHUNK {
                let d = l.d[j];
                let i = l.idx[j].min(last) as usize;
                let (a, b, c) = (start_at(st, i), start_at(st, i + 1), start_at(st, i + 2));
                let here = ((i == 0) | (a <= d)) & (b > d);
                let next = (b <= d) & (c > d);
                l.idx[j] = if here { i as u32 } else { i as u32 + 1 };
                l.slow[j] = !(here | next);
            }
        }
        None => {
            let (grid, scale) = path.grid();
            let top = grid.len() - 1;
            for j in 0..CHUNK {
                let d = l.d[j];
                let cell = ((d * scale) as usize).min(top);
                let g = grid.get(cell).copied().unwrap_or(0) as usize;
                let i = g + (start_at(st, g + 1) <= d) as usize;
                let here = ((i == 0) | (start_at(st, i) <= d)) & (start_at(st, i + 1) > d);
                l.idx[j] = i as u32;
                l.slow[j] = !here;
            }
        }
    }
    if l.slow[..m].contains(&true) {
        for j in 0..m {
            if l.slow[j] {
                // From the lane's starting span (the walk clamps it): the hint, or the grid's.
                l.idx[j] = path.walk_from(l.idx[j] as usize, l.d[j]) as u32;
            }
        }
    }
    if let Some(h) = hs.as_deref_mut() {
        if let Ok(full) = <&mut [u32; 2 * CHUNK]>::try_from(&mut *h) {
            for j in 0..CHUNK {
                full[2 * j + 1] = l.idx[j];
            }
        } else {
            for j in 0..m {
                h[2 * j + 1] = l.idx[j];
            }
        }
    }
}

/// Pass 4 for lane `j` on `path`, when the chunk's lanes are on several paths:
/// [`Path::span_index`], from the lane's hint (updated) when there are hints.
#[inline(always)]
fn span_lane(path: &Path, l: &mut Lanes, j: usize, hs: &mut Option<&mut [u32]>) {
    let d = l.d[j];
    let i = match hs.as_deref_mut() {
        None => path.span_index(d, None),
        Some(h) => {
            let mut iv = h[2 * j + 1] as usize;
            let i = path.span_index(d, Some(&mut iv));
            h[2 * j + 1] = iv.min(u32::MAX as usize) as u32;
            i
        }
    };
    l.idx[j] = i as u32;
}

/// Pass 6 for lane `j` on `path`: position and derivative (16-byte vectors: x, y and z in
/// one operation).
#[inline(always)]
fn curve_lane(path: &Path, l: &mut Lanes, j: usize) {
    let p = CurveParam {
        segment: l.seg[j] as usize,
        t: l.param[j],
    };
    let (pos, der) = path.position_derivative_a(p);
    for k in 0..3 {
        (l.pos[k][j], l.der[k][j]) = (pos[k], der[k]);
    }
}

/// Passes 5 and 6 for a chunk on `path` in the AVX-512 build: each lane's span and segment
/// read with one load and transposed into columns (`transpose`), then the lane passes.
///
/// # Safety
/// The CPU must support AVX-512F.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn params_curves_avx512(path: &Path, l: &mut Lanes) {
    // SAFETY: AVX-512F (this function's contract).
    unsafe { super::transpose::span_fields(path.spans(), &l.idx, &mut l.span_cols) };
    params_from_columns(l);
    if path.power().is_empty() {
        for j in 0..CHUNK {
            curve_lane(path, l, j);
        }
    } else {
        // SAFETY: as above.
        unsafe { super::transpose::power_values(path.power_rows(), &l.seg, &mut l.power_cols) };
        curves_from_columns(l);
    }
}

/// Where a chunk's results go (pass 8): a per-NPC callback ([`Sink`]) or flat arrays
/// ([`SampleArrays`]).
pub(super) trait Emit {
    /// Hands over lanes `0..m` of `l`, NPCs `start..start + m` (`frame`: forwards and
    /// velocities were computed).
    fn emit(&mut self, start: usize, m: usize, l: &Lanes, frame: bool);
}

/// A callback `f(npc, sample)`, called in NPC order.
pub(super) struct Sink<F>(pub(super) F);

impl<F: FnMut(usize, &NpcSample)> Emit for Sink<F> {
    #[inline(always)]
    fn emit(&mut self, start: usize, m: usize, l: &Lanes, frame: bool) {
        for j in 0..m {
            let (forward, velocity) = if frame {
                (
                    Vec3::new(l.fwd[0][j], l.fwd[1][j], l.fwd[2][j]),
                    Vec3::new(l.vel[0][j], l.vel[1][j], l.vel[2][j]),
                )
            } else {
                (Vec3::ZERO, Vec3::ZERO)
            };
            (self.0)(
                start + j,
                &NpcSample {
                    position: Vec3::new(l.pos[0][j], l.pos[1][j], l.pos[2][j]),
                    forward,
                    velocity,
                    state: l.state[j],
                },
            );
        }
    }
}

/// Lanes `0..out.len()` of the three columns `c` as points, into `out` (a full chunk as a
/// fixed-length loop).
#[inline(always)]
fn put_points(out: &mut [Vec3], c: &[[f32; CHUNK]; 3]) {
    if let Ok(full) = <&mut [Vec3; CHUNK]>::try_from(&mut *out) {
        for j in 0..CHUNK {
            full[j] = Vec3::new(c[0][j], c[1][j], c[2][j]);
        }
        return;
    }
    for (j, o) in out.iter_mut().enumerate().take(CHUNK) {
        *o = Vec3::new(c[0][j], c[1][j], c[2][j]);
    }
}

impl<S: From<NpcState> + Copy> Emit for SampleArrays<'_, S> {
    #[inline(always)]
    fn emit(&mut self, start: usize, m: usize, l: &Lanes, frame: bool) {
        let range = start..start + m;
        if let Some(o) = self.positions.as_deref_mut() {
            put_points(&mut o[range.clone()], &l.pos);
        }
        if frame {
            if let Some(o) = self.forwards.as_deref_mut() {
                put_points(&mut o[range.clone()], &l.fwd);
            }
            if let Some(o) = self.velocities.as_deref_mut() {
                put_points(&mut o[range.clone()], &l.vel);
            }
        }
        if let Some(o) = self.states.as_deref_mut() {
            for (o, s) in o[range].iter_mut().zip(&l.state) {
                *o = S::from(*s);
            }
        }
    }
}

impl ScheduleSet {
    /// One chunk of the batch (NPCs `start..start + m`, `m ≤ CHUNK`) through the passes of
    /// the module docs, the results handed to `out`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn chunk<const ROUND: bool, const GATHER: bool>(
        &self,
        l: &mut Lanes,
        inp: &mut Inputs,
        start: usize,
        m: usize,
        times: Times<'_>,
        hints: &mut Option<&mut [u32]>,
        frame: bool,
        out: &mut impl Emit,
    ) {
        let m = m.min(CHUNK);
        debug_assert_eq!(start % CHUNK, 0, "chunks start at multiples of CHUNK");
        let end = start + m;
        // This chunk's hints: `hs[2j]` and `hs[2j + 1]` for lane `j`.
        let mut hs = hints.as_deref_mut().map(|h| &mut h[2 * start..2 * end]);
        let c = &self.lanes;
        let t0 = chunk_of(&c.t0, start, m, &mut inp.t0);
        let span = chunk_of(&c.span, start, m, &mut inp.span);
        let t_end = chunk_of(&c.end, start, m, &mut inp.end);
        let wrap = chunk_of(&c.wrap, start, m, &mut inp.wrap);
        let multi = chunk_of(&c.multi, start, m, &mut inp.multi);
        let paths = chunk_of(&c.path, start, m, &mut inp.path);
        let (ts, any_scalar) = match times {
            Times::One(t) => (None, local_times::<ROUND>(|_| t, t0, span, t_end, wrap, l)),
            Times::PerNpc(ts) => {
                let ts = chunk_of(ts, start, m, &mut inp.t);
                (
                    Some(ts),
                    local_times::<ROUND>(|j| ts[j], t0, span, t_end, wrap, l),
                )
            }
        };
        let time = |j: usize| match (times, ts) {
            (Times::One(t), _) => t,
            (_, Some(ts)) => ts[j],
            (Times::PerNpc(_), None) => unreachable!(),
        };

        // Pass 2: legs. Lanes on their first leg read it from the columns (leg hint 0).
        // Lanes flagged in pass 1 are sampled whole here and patched in after pass 3
        // (`fixed` remembers them); other lanes of schedules with several legs look their
        // leg up and patch a copy of the leg columns.
        let mut n_fixed = 0;
        let hinted = hs.is_some();
        let patch = c.chunk_multi[start / CHUNK];
        // With lanes to patch, the leg columns are filled lane by lane (the columns for lanes
        // on their first leg, the leg records for the others): no column is read in vain.
        let mut copies = patch.then(|| {
            (
                &mut inp.leg_t,
                &mut inp.inv_dt,
                &mut inp.d0,
                &mut inp.delta,
                inp.ease.each_mut(),
                inp.face.each_mut(),
            )
        });
        // The common chunk has every lane on its first leg: leg hints 0, nothing else to do.
        let lanes = if patch || any_scalar {
            0..m
        } else {
            if let Some(h) = hs.as_deref_mut() {
                for j in 0..m {
                    h[2 * j] = 0;
                }
            }
            0..0
        };
        for j in lanes {
            if !(l.scalar[j] | multi[j]) {
                if let Some(h) = hs.as_deref_mut() {
                    h[2 * j] = 0;
                }
                if let Some((lt, inv_dt, d0, delta, ease, face)) = copies.as_mut() {
                    let n = start + j;
                    (lt[j], inv_dt[j], d0[j], delta[j]) =
                        (c.t0[n], c.inv_dt[n], c.d0[n], c.delta[n]);
                    for (lane, col) in ease.iter_mut().zip(&c.ease) {
                        lane[j] = col[n];
                    }
                    for (lane, col) in face.iter_mut().zip(&c.face) {
                        lane[j] = col[n];
                    }
                }
                continue;
            }
            let npc = start + j;
            let mut leg = hint_of(&hs, 2 * j);
            let view = self.view(npc);
            if l.scalar[j] {
                let s = view.sample(time(j), hinted.then_some(&mut leg));
                l.fixed[n_fixed] = (j as u8, s);
                n_fixed += 1;
            } else if let Some((lt, inv_dt, d0, delta, ease, face)) = copies.as_mut() {
                let i = view.leg_of(l.tau[j], hinted.then_some(&mut leg));
                let k = self.npcs[npc].key as usize - npc + i;
                let g = c.legs[k];
                let [a1, a2, a3, fwd, back] = c.meta[k];
                (lt[j], inv_dt[j], d0[j], delta[j]) = (g.t, g.inv_dt, g.d0, g.delta);
                (ease[0][j], ease[1][j], ease[2][j]) = (a1, a2, a3);
                (face[0][j], face[1][j]) = (fwd, back);
            }
            if let Some(h) = hs.as_deref_mut() {
                h[2 * j] = leg as u32;
            }
        }
        let g = match copies {
            Some((t, inv_dt, d0, delta, [e0, e1, e2], [f0, f1])) => LegIn {
                t: &*t,
                inv_dt: &*inv_dt,
                d0: &*d0,
                delta: &*delta,
                ease: [e0, e1, e2],
                face: [f0, f1],
            },
            None => LegIn {
                t: t0,
                inv_dt: chunk_of(&c.inv_dt, start, m, &mut inp.inv_dt),
                d0: chunk_of(&c.d0, start, m, &mut inp.d0),
                delta: chunk_of(&c.delta, start, m, &mut inp.delta),
                ease: {
                    let [b0, b1, b2] = inp.ease.each_mut();
                    [
                        chunk_of(&c.ease[0], start, m, b0),
                        chunk_of(&c.ease[1], start, m, b1),
                        chunk_of(&c.ease[2], start, m, b2),
                    ]
                },
                face: {
                    let [b0, b1] = inp.face.each_mut();
                    [
                        chunk_of(&c.face[0], start, m, b0),
                        chunk_of(&c.face[1], start, m, b1),
                    ]
                },
            },
        };
        legs(&g, l);
        for k in 0..n_fixed {
            let (j, s) = l.fixed[k];
            let j = j as usize;
            l.dist[j] = s.distance as f32;
            l.d[j] = clean(l.dist[j]);
            l.speed[j] = s.speed as f32;
            l.facing[j] = s.facing;
            l.state[j] = s.state;
        }

        // Passes 4–6, with the path looked up once when the whole chunk shares it.
        let p0 = c.chunk_path[start / CHUNK];
        if p0 != MIXED {
            let path = &self.paths[p0 as usize];
            if GATHER {
                span_lanes(path, l, m, &mut hs);
                #[cfg(target_arch = "x86_64")]
                // SAFETY: `GATHER` is set only by `run_avx512`, whose caller checked the CPU.
                unsafe {
                    params_curves_avx512(path, l)
                };
            } else {
                for j in 0..m {
                    span_lane(path, l, j, &mut hs);
                    (l.seg[j], l.param[j]) = param_of(path.spans(), l.idx[j], l.d[j]);
                    curve_lane(path, l, j);
                }
            }
        } else {
            for (j, &p) in paths[..m].iter().enumerate() {
                let path = &self.paths[p as usize];
                span_lane(path, l, j, &mut hs);
                (l.seg[j], l.param[j]) = param_of(path.spans(), l.idx[j], l.d[j]);
            }
            for (j, &p) in paths[..m].iter().enumerate() {
                curve_lane(&self.paths[p as usize], l, j);
            }
        }

        if frame && frames(l) {
            for (j, &p) in paths[..m].iter().enumerate() {
                if l.bad[j] {
                    let path = &self.paths[p as usize];
                    let der = Vec3::new(l.der[0][j], l.der[1][j], l.der[2][j]);
                    let tangent = path.unit_or_chord(der, l.recip[j], l.dist[j]);
                    let (f, v) = (tangent * l.facing[j], tangent * l.speed[j]);
                    for k in 0..3 {
                        (l.fwd[k][j], l.vel[k][j]) = (f[k], v[k]);
                    }
                }
            }
        }
        out.emit(start, m, l, frame);
    }

    /// The whole batch in chunks (see [`ScheduleSet::run`]), with `ROUND` as in
    /// [`super::schedule::wrap_mod_lane`].
    #[inline(always)]
    pub(super) fn run_lanes<const ROUND: bool, const GATHER: bool>(
        &self,
        times: Times<'_>,
        mut hints: Option<&mut [u32]>,
        frame: bool,
        out: &mut impl Emit,
    ) {
        let n = self.npc_count();
        let mut l = Lanes::new();
        let mut inp = Inputs::new();
        let mut start = 0;
        while start < n {
            let m = CHUNK.min(n - start);
            self.chunk::<ROUND, GATHER>(&mut l, &mut inp, start, m, times, &mut hints, frame, out);
            start += m;
        }
    }

    /// [`ScheduleSet::run_lanes`] compiled with AVX2 (not FMA: see the module docs).
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn run_avx2(
        &self,
        times: Times<'_>,
        hints: Option<&mut [u32]>,
        frame: bool,
        out: &mut impl Emit,
    ) {
        self.run_lanes::<true, false>(times, hints, frame, out);
    }

    /// [`ScheduleSet::run_lanes`] compiled with AVX-512 (F, VL, BW, DQ; not FMA): 8 f64 / 16
    /// f32 lanes, the span search as a lane pass (gathers), table rows read with one load per
    /// lane and transposed (`transpose`).
    ///
    /// # Safety
    /// The CPU must support AVX2 and AVX-512 F, VL, BW and DQ.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
    pub(super) unsafe fn run_avx512(
        &self,
        times: Times<'_>,
        hints: Option<&mut [u32]>,
        frame: bool,
        out: &mut impl Emit,
    ) {
        self.run_lanes::<true, true>(times, hints, frame, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::{Ease, Key, Wrap};

    /// Random schedules of every kind (holds, easing, all wraps, reversed and huge times,
    /// NaN, zero-length and Bézier paths), evaluated by the portable lanes, the AVX2 lanes
    /// (when the CPU has them) and NPC by NPC: bit for bit the same.
    #[test]
    fn lanes_agree_with_the_scalar_code_bit_for_bit() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let pts: Vec<Vec3> = (0..40)
            .map(|i| {
                let a = i as f32 * 0.5;
                Vec3::new(a.cos() * 6.0 + i as f32, (a * 0.3).sin(), a.sin() * 6.0)
            })
            .collect();
        let mut set = ScheduleSet::new();
        let paths = [
            set.add_path(Path::catmull_rom(&pts, 0.5, 0.0).unwrap()),
            set.add_path(Path::polyline(&[Vec3::ONE, Vec3::ONE]).unwrap()),
            set.add_path(
                Path::bezier_chain(
                    &[
                        Vec3::ZERO,
                        Vec3::ZERO,
                        Vec3::new(1.0, 0.0, 1.0),
                        Vec3::X * 2.0,
                    ],
                    &[3],
                )
                .unwrap(),
            ),
            set.add_path(Path::catmull_rom(&pts[..5], 0.5, 1.0).unwrap()),
        ];
        for k in 0..700 {
            let p = paths[k % paths.len()];
            let len = set.path(p).unwrap().length() as f64;
            let wrap = Wrap::from_u32((k / 4 % 3) as u32).unwrap();
            let n = 2 + (rnd() * 7.0) as usize;
            let mut t = -50.0 + rnd() * 100.0;
            let mut keys = Vec::new();
            for i in 0..n {
                let hold = i > 0 && rnd() < 0.3;
                let distance = if hold {
                    keys.last().map_or(0.0, |k: &Key| k.distance)
                } else {
                    (rnd() * len).min(len)
                };
                keys.push(Key { time: t, distance });
                t += if rnd() < 0.1 {
                    1e-3
                } else {
                    0.5 + rnd() * 20.0
                };
            }
            let ease: Vec<Ease> = (0..n - 1)
                .map(|_| Ease::from_u32((rnd() * 4.0) as u32).unwrap())
                .collect();
            set.add_npc(p, &keys, &ease, wrap).unwrap();
        }
        // Then whole chunks of one-leg schedules (read from the columns in place), and a
        // partial one (copied).
        for k in 0..150 {
            let p = paths[k % paths.len()];
            let t0 = -100.0 + rnd() * 50.0;
            let wrap = Wrap::from_u32((k % 3) as u32).unwrap();
            set.add_npc_simple(p, t0, t0 + 1.0 + rnd() * 100.0, wrap)
                .unwrap();
        }
        // Standing at distance 0 where the tangent vanishes (tension-1 Catmull-Rom knot,
        // Bézier with coincident first points): the chord fallback, lane by lane.
        for (k, &p) in [paths[3], paths[2], paths[3]].iter().enumerate() {
            let keys = [0.0, 10.0, 20.0].map(|time| Key {
                time,
                distance: 0.0,
            });
            set.add_npc(p, &keys, &[], Wrap::from_u32(k as u32).unwrap())
                .unwrap();
        }
        let n = set.npc_count();
        let mut times: Vec<f64> = (0..n).map(|_| -300.0 + rnd() * 600.0).collect();
        times[3] = f64::NAN;
        times[10] = f64::MAX;
        times[11] = -f64::MAX;
        times[12] = f64::INFINITY;
        times[13] = -0.0;
        // 0: the portable build; 1: AVX2; 2: AVX-512 (each when the CPU has it).
        let collect = |mode: u8, times: Times<'_>, hints: Option<&mut [u32]>, frame: bool| {
            let mut out = Vec::new();
            let mut sink = Sink(|i: usize, s: &NpcSample| out.push((i, *s)));
            match mode {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: AVX2 was detected by the caller.
                1 => unsafe { set.run_avx2(times, hints, frame, &mut sink) },
                #[cfg(target_arch = "x86_64")]
                // SAFETY: AVX-512 was detected by the caller.
                2 => unsafe { set.run_avx512(times, hints, frame, &mut sink) },
                _ => set.run_lanes::<false, false>(times, hints, frame, &mut sink),
            }
            out
        };
        let bits = |v: &[(usize, NpcSample)]| format!("{v:?}");
        let mut modes = vec![0u8];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                modes.push(1);
            }
            if super::super::set::has_avx512() {
                modes.push(2);
            }
        }
        // Arbitrary starting hints (any value is allowed).
        let mut hints: Vec<Vec<u32>> = modes
            .iter()
            .map(|_| {
                (0..2 * n as u32)
                    .map(|i| i.wrapping_mul(2_654_435_761))
                    .collect()
            })
            .collect();
        for step in 0..40 {
            for t in times.iter_mut() {
                *t += if step % 10 == 9 { -37.0 } else { 1.0 / 60.0 };
            }
            let reference: Vec<(usize, NpcSample)> = (0..n)
                .map(|i| (i, set.sample(i, times[i]).unwrap()))
                .collect();
            for (m, &avx) in modes.iter().enumerate() {
                let per = Times::PerNpc(&times);
                assert_eq!(bits(&collect(avx, per, None, true)), bits(&reference));
                let hinted = collect(avx, per, Some(&mut hints[m]), true);
                assert_eq!(bits(&hinted), bits(&reference));
                let pos = collect(avx, per, Some(&mut hints[m]), false);
                for ((_, a), (_, b)) in pos.iter().zip(&reference) {
                    assert_eq!(
                        a.position.to_array().map(f32::to_bits),
                        b.position.to_array().map(f32::to_bits)
                    );
                    assert_eq!(a.state, b.state);
                }
                let one = Times::One(times[0]);
                let r1: Vec<(usize, NpcSample)> = (0..n)
                    .map(|i| (i, set.sample(i, times[0]).unwrap()))
                    .collect();
                assert_eq!(bits(&collect(avx, one, None, true)), bits(&r1));
            }
        }
    }
}
