//! A schedule set: many NPCs, each with a schedule on a shared path, evaluated in one call.
//!
//! Structure of arrays: per NPC a path index, a key range, a leg range and a wrap mode; the
//! keys and legs of all NPCs live in flat columns. Evaluation walks the NPCs in chunks of 64
//! through the passes of the `lanes` module (SIMD across NPCs for the arithmetic, scalar
//! passes for the searches, over stack arrays) and hands each result to a caller sink in NPC
//! order (the FFI writes it to flat arrays): no allocation.
//!
//! Coherent queries: [`ScheduleSet::evaluate_hinted`] takes two caller-owned `u32` per NPC
//! (the leg found last time, the arc-length interval found last time) and starts both
//! searches there. Results are bit-identical to the stateless [`ScheduleSet::evaluate`]; the
//! set itself is never written, so any number of threads may evaluate it at once.

use super::lanes::{Columns, Emit, Sink};
use super::schedule::{
    build_legs, clamp_distances, simple_keys, Crossing, Ease, Key, KeysView, Leg,
};
use super::{NpcState, Path, Schedule, ScheduleSample, TimelineError, Wrap};
use crate::curve::CurveParam;
pub use crate::simd::Simd;
use glam::Vec3;

/// The CPU has what [`ScheduleSet::run_avx512`] needs: AVX2 and AVX-512 F, VL, BW and DQ.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) fn has_avx512() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512dq")
}

/// NPCs per pass of the batch loop (see `ScheduleSet::run`).
pub(super) const CHUNK: usize = 64;

/// Position, facing and velocity of one NPC from its schedule sample and curve parameter
/// (`frame == false`: the position only, forward and velocity zero).
#[inline(always)]
fn finish(path: &Path, s: &ScheduleSample, param: CurveParam, frame: bool) -> NpcSample {
    if !frame {
        return NpcSample {
            position: path.position_at_param(param),
            forward: Vec3::ZERO,
            velocity: Vec3::ZERO,
            state: s.state,
        };
    }
    let (position, tangent) = path.at_param(param, s.distance as f32);
    NpcSample {
        position,
        forward: tangent * s.facing,
        velocity: tangent * s.speed as f32,
        state: s.state,
    }
}

/// The world time of each NPC for one evaluation.
///
/// ```
/// use wayfarer::timeline::{Path, ScheduleSet, Times, Wrap};
/// use wayfarer::Vec3;
///
/// let mut set = ScheduleSet::new();
/// let p = set.add_path(Path::polyline(&[Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0)]).unwrap());
/// set.add_npc_simple(p, 0.0, 10.0, Wrap::Clamp).unwrap();
/// set.add_npc_simple(p, 0.0, 10.0, Wrap::Clamp).unwrap();
/// let mut xs = Vec::new();
/// set.evaluate(Times::PerNpc(&[2.0, 7.0]), |_, s| xs.push(s.position.x)); // a time per NPC
/// assert!((xs[0] - 2.0).abs() < 1e-4 && (xs[1] - 7.0).abs() < 1e-4);
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Times<'a> {
    /// Every NPC at the same time.
    One(f64),
    /// `times[i]` for NPC `i` (at least one per NPC).
    PerNpc(&'a [f64]),
}

/// One NPC at one time.
///
/// ```
/// use wayfarer::timeline::{NpcState, Path, ScheduleSet, Wrap};
/// use wayfarer::Vec3;
///
/// let mut set = ScheduleSet::new();
/// let p = set.add_path(Path::polyline(&[Vec3::ZERO, Vec3::new(0.0, 0.0, 10.0)]).unwrap());
/// let npc = set.add_npc_simple(p, 0.0, 5.0, Wrap::Clamp).unwrap();
/// let s = set.sample(npc as usize, 2.5).unwrap();
/// assert_eq!(s.state, NpcState::Moving);
/// assert!((s.velocity - Vec3::new(0.0, 0.0, 2.0)).length() < 1e-4); // 10 m in 5 s
/// assert!((s.forward - Vec3::Z).length() < 1e-5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NpcSample {
    /// Position on the path.
    pub position: Vec3,
    /// Unit facing: the path tangent, reversed when walking the path backwards (on holds and
    /// when standing: the direction of the last move; see [`ScheduleSample::facing`]).
    pub forward: Vec3,
    /// Velocity in m/s (zero when holding or standing).
    pub velocity: Vec3,
    /// The state.
    pub state: NpcState,
}

/// Flat per-NPC output arrays for [`ScheduleSet::evaluate_into`], each optional (`None`: not
/// wanted, not computed) and indexed by NPC. `S` is the state type: [`NpcState`], or `u32`
/// for its code (as the C ABI writes it).
///
/// ```
/// use wayfarer::timeline::{Path, SampleArrays, ScheduleSet, Times, Wrap};
/// use wayfarer::Vec3;
///
/// let mut set = ScheduleSet::new();
/// let p = set.add_path(Path::polyline(&[Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0)]).unwrap());
/// for i in 0..4 {
///     set.add_npc_simple(p, i as f64, 10.0 + i as f64, Wrap::Loop).unwrap();
/// }
/// let mut positions = vec![Vec3::ZERO; 4];
/// let mut arrays: SampleArrays = SampleArrays { positions: Some(&mut positions[..]), ..Default::default() };
/// set.evaluate_into(Times::One(5.0), None, &mut arrays); // positions only
/// assert!((positions[0].x - 5.0).abs() < 1e-4);
/// ```
#[derive(Debug, Default)]
pub struct SampleArrays<'a, S = NpcState> {
    /// Positions on the path.
    pub positions: Option<&'a mut [Vec3]>,
    /// Unit facings (see [`NpcSample::forward`]).
    pub forwards: Option<&'a mut [Vec3]>,
    /// Velocities in m/s.
    pub velocities: Option<&'a mut [Vec3]>,
    /// States.
    pub states: Option<&'a mut [S]>,
}

impl<S> SampleArrays<'_, S> {
    /// The shortest requested array's length (`usize::MAX` when none is requested).
    fn min_len(&self) -> usize {
        [
            self.positions.as_deref().map(<[Vec3]>::len),
            self.forwards.as_deref().map(<[Vec3]>::len),
            self.velocities.as_deref().map(<[Vec3]>::len),
            self.states.as_deref().map(<[S]>::len),
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(usize::MAX)
    }
}

/// One NPC's entry: its keys are `key_*[key..end]`, its legs `legs[key - i..end - i - 1]`
/// (NPC `i`).
#[derive(Clone, Copy, Debug)]
pub(super) struct NpcRecord {
    /// First key time and the keys' time span (`t_N − t₀`).
    pub(super) t0: f64,
    pub(super) span: f64,
    pub(super) key: u32,
    pub(super) end: u32,
    pub(super) path: u32,
    pub(super) wrap: Wrap,
}

/// Many NPCs with their schedules on shared paths (see the module docs).
///
/// ```
/// use wayfarer::timeline::{Path, ScheduleSet, Times, Wrap};
/// use wayfarer::Vec3;
///
/// let mut set = ScheduleSet::new();
/// let street = set.add_path(Path::catmull_rom(&[Vec3::ZERO, Vec3::new(20.0, 0.0, 5.0), Vec3::new(40.0, 0.0, 0.0)], 0.5, 0.0).unwrap());
/// for i in 0..100 {
///     set.add_npc_simple(street, -(i as f64), 60.0 - i as f64, Wrap::PingPong).unwrap();
/// }
/// let mut hints = vec![0u32; 2 * set.npc_count()]; // frame-to-frame coherence, optional
/// let mut count = 0;
/// set.evaluate_hinted(Times::One(30.0), &mut hints, |_, _| count += 1);
/// assert_eq!(count, 100);
/// ```
#[derive(Clone, Debug, Default)]
pub struct ScheduleSet {
    pub(super) paths: Vec<Path>,
    /// Per NPC, everything needed to find its columns (one 16-byte load).
    pub(super) npcs: Vec<NpcRecord>,
    pub(super) key_time: Vec<f64>,
    pub(super) key_distance: Vec<f64>,
    pub(super) legs: Vec<Leg>,
    /// The same data as the batch's lanes read it.
    pub(super) lanes: Columns,
    /// The widest instruction set the batch may use.
    simd: Simd,
}

impl ScheduleSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Caps the instruction sets the batch evaluation may use (see [`Simd`]).
    pub fn set_simd(&mut self, cap: Simd) {
        self.simd = cap;
    }

    /// The cap set by [`ScheduleSet::set_simd`].
    pub fn simd(&self) -> Simd {
        self.simd
    }

    /// Adds a copy of `path`; returns its index.
    pub fn add_path(&mut self, path: Path) -> u32 {
        self.paths.push(path);
        (self.paths.len() - 1) as u32
    }

    /// Path `index`, if any.
    pub fn path(&self, index: u32) -> Option<&Path> {
        self.paths.get(index as usize)
    }

    /// Number of paths.
    pub fn path_count(&self) -> usize {
        self.paths.len()
    }

    /// Number of NPCs.
    pub fn npc_count(&self) -> usize {
        self.npcs.len()
    }

    /// Adds an NPC following `keys` (with optional per-leg `ease`) on path `path_index`;
    /// returns its index. Errors as [`Schedule::new`], or [`TimelineError::OutOfRange`].
    pub fn add_npc(
        &mut self,
        path_index: u32,
        keys: &[Key],
        ease: &[Ease],
        wrap: Wrap,
    ) -> Result<u32, TimelineError> {
        let path = self
            .paths
            .get(path_index as usize)
            .ok_or(TimelineError::OutOfRange)?;
        let keys = &clamp_distances(keys, path.length() as f64)?[..];
        let legs = build_legs(keys, ease, path.length() as f64)?;
        if self.key_time.len() + keys.len() > u32::MAX as usize {
            return Err(TimelineError::BadCount);
        }
        let key = self.key_time.len() as u32;
        self.key_time.extend(keys.iter().map(|k| k.time));
        self.key_distance.extend(keys.iter().map(|k| k.distance));
        self.lanes.push(keys, &legs, wrap, path_index);
        self.legs.extend(legs);
        self.npcs.push(NpcRecord {
            t0: keys[0].time,
            span: keys[keys.len() - 1].time - keys[0].time,
            key,
            end: self.key_time.len() as u32,
            path: path_index,
            wrap,
        });
        Ok((self.npcs.len() - 1) as u32)
    }

    /// Adds an NPC walking the whole path from `t_start` to `t_end` at constant speed.
    pub fn add_npc_simple(
        &mut self,
        path_index: u32,
        t_start: f64,
        t_end: f64,
        wrap: Wrap,
    ) -> Result<u32, TimelineError> {
        let len = self
            .paths
            .get(path_index as usize)
            .ok_or(TimelineError::OutOfRange)?
            .length() as f64;
        self.add_npc(path_index, &simple_keys(t_start, t_end, len), &[], wrap)
    }

    /// Adds an NPC with an existing schedule (checked against the path's length).
    pub fn add_schedule(&mut self, path_index: u32, s: &Schedule) -> Result<u32, TimelineError> {
        let keys: Vec<Key> = s.keys().collect();
        let v = s.view();
        let ease: Vec<Ease> = v.legs.iter().map(|l| l.ease()).collect();
        self.add_npc(path_index, &keys, &ease, s.wrap())
    }

    #[inline]
    pub(super) fn view(&self, npc: usize) -> KeysView<'_> {
        let r = self.npcs[npc];
        let (a, b) = (r.key as usize, r.end as usize);
        KeysView {
            t0: r.t0,
            span: r.span,
            times: &self.key_time[a..b],
            distances: &self.key_distance[a..b],
            legs: &self.legs[a - npc..b - npc - 1],
            wrap: r.wrap,
        }
    }

    /// NPC `npc`'s schedule at time `t` (distance, speed, facing, state).
    pub fn schedule_sample(&self, npc: usize, t: f64) -> Option<ScheduleSample> {
        (npc < self.npc_count()).then(|| self.view(npc).sample(t, None))
    }

    /// NPC `npc` at world time `t`, or `None` if there is no such NPC.
    pub fn sample(&self, npc: usize, t: f64) -> Option<NpcSample> {
        (npc < self.npc_count()).then(|| {
            let path = &self.paths[self.npcs[npc].path as usize];
            let s = self.view(npc).sample(t, None);
            finish(path, &s, path.param_at(s.distance as f32), true)
        })
    }

    /// The batch loop: NPCs in chunks of [`CHUNK`] through the passes of the `lanes` module
    /// (lane passes the compiler vectorises, several NPCs per instruction, between scalar
    /// searches), with AVX2 when the CPU has it. Every NPC goes through the same IEEE
    /// operations as [`ScheduleSet::sample`]: results are bit-identical to it.
    #[inline]
    fn run(&self, times: Times<'_>, hints: Option<&mut [u32]>, frame: bool, out: &mut impl Emit) {
        let n = self.npc_count();
        if let Times::PerNpc(ts) = times {
            assert!(ts.len() >= n, "one time per NPC");
        }
        if let Some(h) = hints.as_deref() {
            assert!(h.len() >= 2 * n, "two hints per NPC");
        }
        #[cfg(target_arch = "x86_64")]
        if self.simd >= Simd::Avx512 && has_avx512() {
            // SAFETY: the CPU supports AVX-512 F, VL, BW, DQ and AVX2 (just checked).
            unsafe { self.run_avx512(times, hints, frame, out) };
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if self.simd >= Simd::Avx2 && std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (just checked).
            unsafe { self.run_avx2(times, hints, frame, out) };
            return;
        }
        self.run_lanes::<false, false>(times, hints, frame, out);
    }

    /// Evaluates every NPC at `times`, calling `sink(npc, sample)` in NPC order.
    /// Panics if `Times::PerNpc` holds fewer times than NPCs.
    #[inline]
    pub fn evaluate(&self, times: Times<'_>, sink: impl FnMut(usize, &NpcSample)) {
        self.run(times, None, true, &mut Sink(sink));
    }

    /// [`ScheduleSet::evaluate`] with two caller-owned hints per NPC (`hints.len() ≥ 2 ×
    /// npc_count`; any values are safe, zeros to start): bit-identical results, faster for
    /// times that move little between calls. Panics if `hints` or `times` is too short.
    #[inline]
    pub fn evaluate_hinted(
        &self,
        times: Times<'_>,
        hints: &mut [u32],
        sink: impl FnMut(usize, &NpcSample),
    ) {
        self.run(times, Some(hints), true, &mut Sink(sink));
    }

    /// [`ScheduleSet::evaluate`] (`hints` `None`) or [`ScheduleSet::evaluate_hinted`]
    /// computing positions and states only: the samples' `forward` and `velocity` are zero
    /// (no derivative, no normalisation), positions and states are bit-identical to the full
    /// evaluation. For callers that do not need the frame (C calls with NULL forward and
    /// velocity outputs). Panics if `hints` or `times` is too short.
    #[inline]
    pub fn evaluate_positions(
        &self,
        times: Times<'_>,
        hints: Option<&mut [u32]>,
        sink: impl FnMut(usize, &NpcSample),
    ) {
        self.run(times, hints, false, &mut Sink(sink));
    }

    /// Evaluates every NPC at `times` straight into flat arrays (the fastest way: no per-NPC
    /// callback), stateless (`hints` `None`) or hinted (as [`ScheduleSet::evaluate_hinted`]).
    /// Only the requested outputs are computed: without forwards and velocities, no
    /// derivative and no normalisation. Every value is bit-identical to
    /// [`ScheduleSet::sample`]. Panics if `times`, `hints` or a requested array is too short.
    #[inline]
    pub fn evaluate_into<S: From<NpcState> + Copy>(
        &self,
        times: Times<'_>,
        hints: Option<&mut [u32]>,
        out: &mut SampleArrays<'_, S>,
    ) {
        assert!(out.min_len() >= self.npc_count(), "one output per NPC");
        let frame = out.forwards.is_some() || out.velocities.is_some();
        self.run(times, hints, frame, out);
    }

    /// Total key crossings of every NPC between `from` and `to` (saturating).
    pub fn crossing_count(&self, from: f64, to: f64) -> usize {
        (0..self.npc_count())
            .map(|i| self.view(i).crossing_count(from, to))
            .fold(0, usize::saturating_add)
    }

    /// Calls `f(npc, crossing)` for every key crossing between `from` and `to` (either order),
    /// NPC by NPC, each in order of occurrence (see [`crate::timeline::Schedule`]'s module
    /// docs for the semantics), until `f` returns `false`.
    pub fn for_each_crossing(&self, from: f64, to: f64, mut f: impl FnMut(u32, Crossing) -> bool) {
        let mut go = true;
        for npc in 0..self.npc_count() {
            self.view(npc).for_each_crossing(from, to, |c| {
                go = f(npc as u32, c);
                go
            });
            if !go {
                return;
            }
        }
    }
}
