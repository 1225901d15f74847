//! A schedule: where along its path an NPC is at world time `t`, as a pure function of `t`.
//!
//! ## Keys and legs
//! Keys `(tᵢ, dᵢ)` say "be at distance `dᵢ` along the path at time `tᵢ`" (times strictly
//! increasing, distances in `[0, L]`). Between keys `i` and `i + 1` (leg `i`) the distance is
//! `d(τ) = dᵢ + (dᵢ₊₁ − dᵢ)·u(x)` with `x = (τ − tᵢ)/(tᵢ₊₁ − tᵢ)`, where `u` is the leg's
//! easing: none `u = x` (constant speed along the real arc length), ease-in `u = x²`, ease-out
//! `u = 2x − x²`, both `u = 3x² − 2x³`. Every `u` has `u(0) = 0`, `u(1) = 1`, so arrival times
//! are exact and the distance is continuous; the eased side starts/ends at speed 0 (peak
//! speed 2× the leg's average for one side, 1.5× for both). Equal distances on consecutive
//! keys make a *hold* (standing still).
//!
//! ## Wrap
//! Outside `[t₀, t_N]` the local time `τ` follows [`Wrap`]: clamp (stand at the first / last
//! key: [`NpcState::Before`] / [`NpcState::After`]), loop (`τ = t₀ + (t − t₀) mod P`, `P =
//! t_N − t₀`: jumps back to `d₀` at each period boundary) or ping-pong (forwards then backwards
//! with period `2P`; velocities flip on the way back).
//!
//! ## Crossings
//! A key is *crossed* when the NPC's local time reaches `tᵢ`. Between world times `a` and `b`
//! (either order), the occurrences counted are those whose world time `w` satisfies
//! `min(a, b) < w ≤ max(a, b)`, so consecutive frames never count one twice, and replaying
//! `b → a` reports exactly the events of `a → b` in reverse order with opposite directions.
//! The direction is `sign(b − a)` times the schedule's own direction at the occurrence
//! (`+1` running forwards, `−1` on the way back of a ping-pong). Per wrap mode:
//!
//! - clamp: key `i` occurs once, at `tᵢ`;
//! - loop: key `i < N` at `tᵢ + kP`; the last key at `t₀ + kP`, the same instant as the first
//!   key of the next period (reported last-key first when time runs forwards);
//! - ping-pong: inner keys twice per `2P` (forwards at `tᵢ`, backwards at `2t_N − tᵢ`), the
//!   last key once at each forward turn (`+1`), the first key once at each backward turn
//!   (`−1`: the NPC arrives there walking its schedule backwards).
//!
//! Events are in the order they happen along the direction of travel.

use super::TimelineError;

/// The fastest leg a schedule accepts, in distance units per second (average over the leg):
/// faster legs (keys a subnormal time apart, say) would give infinite or NaN velocities.
pub const MAX_LEG_SPEED: f64 = 1.0e15;

/// The shortest leg (or hold) a schedule accepts, in seconds: keys closer in time than this
/// are refused ([`TimelineError::InvalidKeyTime`]). Shorter legs give speeds and eased positions that
/// f64 time cannot resolve (a game clock's step is about 1e-3 s).
pub const MIN_LEG_SECONDS: f64 = 1.0e-9;

/// How far past either end of `[0, path_length]` a key distance may lie and still be taken as
/// that end: `4 · f32::EPSILON · path_length`. A length summed by the caller in floats (the
/// seed's way) differs from the path's own by a few ulps of the length; farther is an error
/// ([`TimelineError::DistanceOutOfRange`]).
#[inline]
pub fn distance_tolerance(path_length: f64) -> f64 {
    4.0 * f32::EPSILON as f64 * path_length
}

/// `keys` with every distance within [`distance_tolerance`] of `[0, path_length]` clamped into
/// it; a distance farther out is [`TimelineError::DistanceOutOfRange`].
pub(crate) fn clamp_distances(keys: &[Key], path_length: f64) -> Result<Vec<Key>, TimelineError> {
    let slack = distance_tolerance(path_length);
    keys.iter()
        .map(|k| {
            if !(k.distance >= -slack && k.distance <= path_length + slack) {
                return Err(if k.distance.is_finite() {
                    TimelineError::DistanceOutOfRange
                } else {
                    TimelineError::NonFinite
                });
            }
            Ok(Key {
                time: k.time,
                distance: k.distance.clamp(0.0, path_length),
            })
        })
        .collect()
}

/// The largest period index the crossing search uses exactly (f64 integers are exact there).
const PERIOD_LIMIT: f64 = 9.0e15;

/// What happens outside `[t₀, t_N]`.
///
/// ```
/// use wayfarer::timeline::{Schedule, Wrap};
///
/// // Walk 10 m in 10 s, then loop.
/// let s = Schedule::simple(0.0, 10.0, Wrap::Loop, 10.0).unwrap();
/// assert!((s.sample(13.0).distance - 3.0).abs() < 1e-9);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Wrap {
    /// Stand at the first key before it and at the last key after it.
    Clamp = 0,
    /// Repeat the schedule with period `t_N − t₀`.
    Loop = 1,
    /// Run forwards then backwards, period `2(t_N − t₀)`.
    PingPong = 2,
}

impl Wrap {
    /// The wrap mode for its C value, `None` when out of range.
    pub fn from_u32(v: u32) -> Option<Self> {
        match v {
            0 => Some(Wrap::Clamp),
            1 => Some(Wrap::Loop),
            2 => Some(Wrap::PingPong),
            _ => None,
        }
    }
}

/// Easing of one leg: which ends start or stop at zero speed (flags: 1 = in, 2 = out).
///
/// ```
/// use wayfarer::timeline::Ease;
///
/// // (fraction of the distance, speed factor) at half the leg's time.
/// let (u, _) = Ease::InOut.apply(0.5);
/// assert!((u - 0.5).abs() < 1e-12);
/// assert_eq!(Ease::In.apply(0.0), (0.0, 0.0)); // eased in: starts at rest
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u32)]
pub enum Ease {
    /// Constant speed.
    #[default]
    None = 0,
    /// Starts at speed 0: `u = x²`.
    In = 1,
    /// Stops at speed 0: `u = 2x − x²`.
    Out = 2,
    /// Starts and stops at speed 0: `u = 3x² − 2x³`.
    InOut = 3,
}

impl Ease {
    /// The easing for its C flags, `None` when out of range.
    pub fn from_u32(v: u32) -> Option<Self> {
        match v {
            0 => Some(Ease::None),
            1 => Some(Ease::In),
            2 => Some(Ease::Out),
            3 => Some(Ease::InOut),
            _ => None,
        }
    }

    /// Progress `u(x)` and its derivative `u'(x)` for `x ∈ [0, 1]`.
    ///
    /// Branch-free (NPCs on differently eased legs side by side in a batch would otherwise
    /// mispredict): `u = x(a₁ + x(a₂ + x·a₃))`, `u' = a₁ + x(2a₂ + x·3a₃)` with the easing's
    /// small integer coefficients, so `u(0) = 0` and `u(1) = 1` exactly.
    #[inline]
    pub fn apply(self, x: f64) -> (f64, f64) {
        // [a₁, a₂, a₃, 2a₂, 3a₃] per easing: x; x²; 2x − x²; 3x² − 2x³.
        const K: [[f64; 5]; 4] = [
            [1.0, 0.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 2.0, 0.0],
            [2.0, -1.0, 0.0, -2.0, 0.0],
            [0.0, 3.0, -2.0, 6.0, -6.0],
        ];
        let k = &K[self as usize & 3];
        let u = x * (k[0] + x * (k[1] + x * k[2]));
        let du = k[0] + x * (k[3] + x * k[4]);
        (u, du)
    }
}

/// What an NPC is doing at a time.
///
/// ```
/// use wayfarer::timeline::{NpcState, Schedule, Wrap};
///
/// let s = Schedule::simple(100.0, 200.0, Wrap::Clamp, 50.0).unwrap();
/// assert_eq!(s.sample(50.0).state, NpcState::Before);
/// assert_eq!(s.sample(150.0).state, NpcState::Moving);
/// assert_eq!(s.sample(250.0).state, NpcState::After);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u32)]
pub enum NpcState {
    /// Before the first key (clamp wrap): standing at the first key.
    #[default]
    Before = 0,
    /// On a leg between keys with different distances.
    Moving = 1,
    /// On a hold (consecutive keys with equal distances).
    Holding = 2,
    /// After the last key (clamp wrap): standing at the last key.
    After = 3,
}

impl From<NpcState> for u32 {
    /// The state's code (`Before` 0, `Moving` 1, `Holding` 2, `After` 3).
    #[inline]
    fn from(s: NpcState) -> u32 {
        s as u32
    }
}

/// One key: be at `distance` along the path at `time`.
///
/// ```
/// use wayfarer::timeline::{Key, Schedule, Wrap};
///
/// // At 10 m at 8:00, still there at 9:00 (a hold), at 30 m at 9:30.
/// let keys = [
///     Key { time: 8.0 * 3600.0, distance: 10.0 },
///     Key { time: 9.0 * 3600.0, distance: 10.0 },
///     Key { time: 9.5 * 3600.0, distance: 30.0 },
/// ];
/// let s = Schedule::new(&keys, &[], Wrap::Clamp, 30.0).unwrap();
/// assert_eq!(s.keys().count(), 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key {
    /// World time, seconds.
    pub time: f64,
    /// Distance along the path, metres, in `[0, L]`.
    pub distance: f64,
}

/// One leg's precomputed data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Leg {
    /// Distance at the leg's first key, and the distance covered.
    pub(crate) d0: f64,
    pub(crate) delta: f64,
    pub(crate) inv_dt: f64,
    pub(crate) ease: Ease,
    /// Sign of the path tangent the NPC faces on this leg: running forwards, backwards.
    pub(crate) face: [i8; 2],
}

/// A schedule evaluated at one time.
///
/// ```
/// use wayfarer::timeline::{Schedule, Wrap};
///
/// let s = Schedule::simple(0.0, 20.0, Wrap::PingPong, 10.0).unwrap();
/// let going = s.sample(5.0);
/// let coming = s.sample(35.0); // on the way back
/// assert!((going.distance - coming.distance).abs() < 1e-9);
/// assert!(going.speed > 0.0 && coming.speed < 0.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct ScheduleSample {
    /// Distance along the path.
    pub distance: f64,
    /// `d distance / d world time` (m/s, signed).
    pub speed: f64,
    /// `+1` or `−1`: whether the NPC faces along the path's tangent or against it.
    pub facing: f32,
    /// The state.
    pub state: NpcState,
}

/// A key crossing between two times (see the module docs).
///
/// ```
/// use wayfarer::timeline::{Schedule, Wrap};
///
/// let s = Schedule::simple(0.0, 10.0, Wrap::Clamp, 10.0).unwrap();
/// let mut seen = Vec::new();
/// s.for_each_crossing(-1.0, 11.0, |c| {
///     seen.push((c.key, c.direction));
///     true // keep going
/// });
/// assert_eq!(seen, [(0, 1), (1, 1)]); // left the first key, reached the last
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crossing {
    /// Index of the key crossed.
    pub key: u32,
    /// `+1` or `−1`.
    pub direction: i32,
}

/// Borrowed columns of one schedule (used by [`Schedule`] and [`super::ScheduleSet`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeysView<'a> {
    /// `times[0]` and `times[N] − times[0]`, precomputed.
    pub(crate) t0: f64,
    pub(crate) span: f64,
    pub(crate) times: &'a [f64],
    pub(crate) distances: &'a [f64],
    pub(crate) legs: &'a [Leg],
    pub(crate) wrap: Wrap,
}

/// A validated schedule (see the module docs).
///
/// ```
/// use wayfarer::timeline::{Ease, Key, Schedule, Wrap};
///
/// let keys = [Key { time: 0.0, distance: 0.0 }, Key { time: 10.0, distance: 20.0 }];
/// let s = Schedule::new(&keys, &[Ease::InOut], Wrap::Clamp, 20.0).unwrap();
/// assert!((s.sample(5.0).distance - 10.0).abs() < 1e-9); // halfway at half time
/// assert_eq!(s.sample(0.0).speed, 0.0); // eased: starts at rest
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    times: Vec<f64>,
    distances: Vec<f64>,
    legs: Vec<Leg>,
    wrap: Wrap,
}

/// `(t − t0) mod period` in `[0, period]` (`period` finite and > 0), also when `t − t0`
/// overflows f64 (world times near ±1.8e308 on opposite sides of `t0`).
#[inline]
fn phase(t: f64, t0: f64, period: f64) -> f64 {
    let d = t - t0;
    if d.is_finite() {
        wrap_mod(d, period)
    } else {
        wrap_mod(wrap_mod(t, period) - wrap_mod(t0, period), period)
    }
}

/// Checks keys against a path of length `path_length` and precomputes the legs.
pub(crate) fn build_legs(
    keys: &[Key],
    ease: &[Ease],
    path_length: f64,
) -> Result<Vec<Leg>, TimelineError> {
    if keys.len() < 2 || !(ease.is_empty() || ease.len() == keys.len() - 1) {
        return Err(TimelineError::BadCount);
    }
    if !keys
        .iter()
        .all(|k| k.time.is_finite() && k.distance.is_finite())
    {
        return Err(TimelineError::NonFinite);
    }
    if keys
        .windows(2)
        .any(|w| w[1].time - w[0].time < MIN_LEG_SECONDS)
        || !(2.0 * (keys[keys.len() - 1].time - keys[0].time)).is_finite()
    {
        return Err(TimelineError::InvalidKeyTime);
    }
    if keys
        .iter()
        .any(|k| k.distance < 0.0 || k.distance > path_length)
    {
        return Err(TimelineError::DistanceOutOfRange);
    }
    if keys
        .windows(2)
        .any(|w| (w[1].distance - w[0].distance).abs() > MAX_LEG_SPEED * (w[1].time - w[0].time))
    {
        return Err(TimelineError::InvalidKey);
    }
    let n = keys.len() - 1;
    let sign = |i: usize| -> i8 {
        let d = keys[i + 1].distance - keys[i].distance;
        if d > 0.0 {
            1
        } else if d < 0.0 {
            -1
        } else {
            0
        }
    };
    // Facing on holds: running forwards, the direction of the last move before; backwards,
    // the reverse of the first move after. Fallbacks: the other neighbour, then +1.
    let mut legs = Vec::with_capacity(n);
    for i in 0..n {
        let before = (0..=i).rev().map(sign).find(|&s| s != 0);
        let after = (i..n).map(sign).find(|&s| s != 0);
        let fwd = before.or(after).unwrap_or(1);
        let rev = after.or(before).map_or(-1, |s| -s);
        let dt = keys[i + 1].time - keys[i].time;
        legs.push(Leg {
            d0: keys[i].distance,
            delta: keys[i + 1].distance - keys[i].distance,
            inv_dt: 1.0 / dt,
            ease: ease.get(i).copied().unwrap_or_default(),
            face: [fwd, rev],
        });
    }
    Ok(legs)
}

impl Schedule {
    /// A schedule from its keys, optional per-leg easing (`ease` empty or one per leg) and
    /// wrap mode, for a path of length `path_length`.
    ///
    /// A distance within [`distance_tolerance`] of `[0, path_length]` is taken as the nearer
    /// end.
    ///
    /// Errors: fewer than 2 keys or an easing count mismatch ([`TimelineError::BadCount`]),
    /// NaN/Inf ([`TimelineError::NonFinite`]), a leg shorter than [`MIN_LEG_SECONDS`] or keys
    /// spanning more than `f64::MAX / 2` seconds ([`TimelineError::InvalidKeyTime`]), a distance
    /// farther outside `[0, path_length]` ([`TimelineError::DistanceOutOfRange`]), a leg
    /// faster than [`MAX_LEG_SPEED`] ([`TimelineError::InvalidKey`]).
    pub fn new(
        keys: &[Key],
        ease: &[Ease],
        wrap: Wrap,
        path_length: f64,
    ) -> Result<Self, TimelineError> {
        let keys = &clamp_distances(keys, path_length)?[..];
        let legs = build_legs(keys, ease, path_length)?;
        Ok(Self {
            times: keys.iter().map(|k| k.time).collect(),
            distances: keys.iter().map(|k| k.distance).collect(),
            legs,
            wrap,
        })
    }

    /// The seed's case: the whole path (`0 → path_length`) from `t_start` to `t_end` at
    /// constant speed. Errors as [`Schedule::new`] (`t_end < t_start + MIN_LEG_SECONDS` is
    /// [`TimelineError::InvalidKeyTime`]).
    pub fn simple(
        t_start: f64,
        t_end: f64,
        wrap: Wrap,
        path_length: f64,
    ) -> Result<Self, TimelineError> {
        Self::new(
            &simple_keys(t_start, t_end, path_length),
            &[],
            wrap,
            path_length,
        )
    }

    pub(crate) fn view(&self) -> KeysView<'_> {
        KeysView {
            t0: self.times[0],
            span: self.times[self.times.len() - 1] - self.times[0],
            times: &self.times,
            distances: &self.distances,
            legs: &self.legs,
            wrap: self.wrap,
        }
    }

    /// The keys.
    pub fn keys(&self) -> impl Iterator<Item = Key> + '_ {
        self.times
            .iter()
            .zip(&self.distances)
            .map(|(&time, &distance)| Key { time, distance })
    }

    /// The wrap mode.
    pub fn wrap(&self) -> Wrap {
        self.wrap
    }

    /// Distance, speed, facing and state at world time `t` (NaN is treated as `t₀`).
    pub fn sample(&self, t: f64) -> ScheduleSample {
        self.view().sample(t, None)
    }

    /// [`Schedule::sample`] starting the leg search from `hint` (updated); bit-identical.
    pub fn sample_hinted(&self, t: f64, hint: &mut usize) -> ScheduleSample {
        self.view().sample(t, Some(hint))
    }

    /// Number of key crossings between `from` and `to` (either order), saturating; closed
    /// form (the cost does not grow with the span). Exact while both times are within 9e15
    /// periods of the first key; farther out, where f64 cannot tell the periods apart, it is
    /// the whole periods in the span times the crossings per period.
    pub fn crossing_count(&self, from: f64, to: f64) -> usize {
        self.view().crossing_count(from, to)
    }

    /// Calls `f` for each key crossing between `from` and `to` in order of occurrence, until
    /// `f` returns `false`.
    pub fn for_each_crossing(&self, from: f64, to: f64, f: impl FnMut(Crossing) -> bool) {
        self.view().for_each_crossing(from, to, f);
    }
}

/// The keys of [`Schedule::simple`].
pub(crate) fn simple_keys(t_start: f64, t_end: f64, path_length: f64) -> [Key; 2] {
    [
        Key {
            time: t_start,
            distance: 0.0,
        },
        Key {
            time: t_end,
            distance: path_length,
        },
    ]
}

/// `x mod m` in `[0, m]` for `m > 0`, without libm (`fmod` and `floor` are function calls on
/// baseline x86-64): `q = ⌊x/m⌋` by truncation, `r = x − q·m`, corrected by one period when
/// rounding puts it outside. Deterministic: the same `x` always gives the same bits.
#[inline]
fn wrap_mod(x: f64, m: f64) -> f64 {
    let q = x / m;
    let q = if q.abs() < 4.0e15 {
        let i = q as i64 as f64;
        if i > q {
            i - 1.0
        } else {
            i
        }
    } else {
        q
    };
    let r = x - q * m;
    let r = if r < 0.0 {
        r + m
    } else if r >= m {
        r - m
    } else {
        r
    };
    r.clamp(0.0, m)
}

/// [`wrap_mod`] written for lanes (no branches, so a loop over many NPCs vectorises): the
/// same operations, with `⌊q⌋` taken by truncation either as `q as i64 as f64` (`ROUND ==
/// false`; vectorises on aarch64) or as `trunc(q) + 0` (`ROUND == true`: `roundpd` on x86-64
/// with SSE4.1; the `+ 0` turns `trunc`'s `−0` into the cast's `+0`). For `|q| < 4·10¹⁵` both
/// are the exact integer part of `q`, so the result is bit for bit [`wrap_mod`]'s.
#[inline(always)]
pub(crate) fn wrap_mod_lane<const ROUND: bool>(x: f64, m: f64) -> f64 {
    let q = x / m;
    let i = if ROUND {
        q.trunc() + 0.0
    } else {
        q as i64 as f64
    };
    let i = if i > q { i - 1.0 } else { i };
    let q = if q.abs() < 4.0e15 { i } else { q };
    let r = x - q * m;
    let r = if r < 0.0 {
        r + m
    } else if r >= m {
        r - m
    } else {
        r
    };
    // `r.clamp(0.0, m)` without its assertion (spare lanes hold arbitrary values).
    let r = if r < 0.0 { 0.0 } else { r };
    if r > m {
        m
    } else {
        r
    }
}

/// The local time `τ` and direction (`+1`, or `−1` on a ping-pong's way back) of one lane of
/// the batch, branch-free: [`KeysView::sample`]'s wrap step for an NPC whose first key time is
/// `t0`, key span `span = t_N − t₀`, last key time `t_end` and wrap mode `wrap as u64`.
///
/// The third value is `true` when the lane must take the scalar path instead: a clamp NPC
/// outside `[t₀, t_N]` (standing at an end key), or `t − t₀` not finite (world times near
/// `±f64::MAX`; [`phase`]'s fallback).
#[inline(always)]
pub(crate) fn local_time_lane<const ROUND: bool>(
    t: f64,
    t0: f64,
    span: f64,
    t_end: f64,
    wrap: u64,
) -> (f64, f64, bool) {
    let t = if t.is_nan() { t0 } else { t };
    let clamp = wrap == Wrap::Clamp as u64;
    let pp = wrap == Wrap::PingPong as u64;
    let period = if pp { 2.0 * span } else { span };
    let d = t - t0;
    let phi = wrap_mod_lane::<ROUND>(d, period);
    let ahead = phi <= span; // false for NaN, like the scalar `if`
    let back = pp & !ahead;
    let tau = if clamp {
        t
    } else if back {
        t0 + (2.0 * span - phi)
    } else {
        t0 + phi
    };
    let dir = if back { -1.0 } else { 1.0 };
    let scalar = if clamp {
        (t < t0) | (t > t_end)
    } else {
        !d.is_finite()
    };
    (tau, dir, scalar)
}

impl Ease {
    /// The easing's polynomial coefficients `[a₁, a₂, a₃]`: `u = x(a₁ + x(a₂ + x·a₃))` (see
    /// [`Ease::apply`]; small integers, exact in f32).
    pub(crate) fn coefficients(self) -> [f32; 3] {
        match self {
            Ease::None => [1.0, 0.0, 0.0],
            Ease::In => [0.0, 1.0, 0.0],
            Ease::Out => [2.0, -1.0, 0.0],
            Ease::InOut => [0.0, 3.0, -2.0],
        }
    }
}

/// [`Ease::apply`] for an easing given by its coefficients ([`Ease::coefficients`]), for
/// lanes: `u = x(a₁ + x(a₂ + x·a₃))`, `u' = a₁ + x(2a₂ + x·3a₃)` with `2a₂` and `3a₃` computed
/// (exact, equal to the table's entries), so bit for bit the same `(u, u')`.
#[inline(always)]
pub(crate) fn ease_lane(a1: f64, a2: f64, a3: f64, x: f64) -> (f64, f64) {
    let u = x * (a1 + x * (a2 + x * a3));
    let du = a1 + x * (2.0 * a2 + x * (3.0 * a3));
    (u, du)
}

/// One kind of key occurrence within a period: offset from `t₀`, key, direction.
#[derive(Clone, Copy, Debug)]
struct Occurrence {
    offset: f64,
    key: u32,
    phase: i32,
}

impl Leg {
    /// The leg's easing.
    pub(crate) fn ease(&self) -> Ease {
        self.ease
    }
}

impl KeysView<'_> {
    #[inline]
    fn t0(&self) -> f64 {
        self.t0
    }

    #[inline]
    fn span(&self) -> f64 {
        self.span
    }

    /// The leg holding local time `tau` (last `i` with `tᵢ ≤ τ`, at most `N − 1`; 0 if none).
    /// The answer is unique (times strictly increase), so a hint only changes the work: the
    /// hinted leg is checked first (no search for coherent times), then its successor, then
    /// a binary search.
    #[inline(always)]
    pub(crate) fn leg_of(&self, tau: f64, hint: Option<&mut usize>) -> usize {
        let last = self.legs.len() - 1;
        if last == 0 {
            // One leg: nothing to search (the common whole-path schedule).
            if let Some(h) = hint {
                *h = 0;
            }
            return 0;
        }
        let ts = self.times;
        let holds = |i: usize| (i == 0 || ts[i] <= tau) && (i == last || ts[i + 1] > tau);
        match hint {
            None => Self::search_leg(ts, tau, last),
            Some(h) => {
                let i = (*h).min(last);
                let i = if holds(i) {
                    i
                } else if i < last && holds(i + 1) {
                    i + 1
                } else {
                    Self::search_leg(ts, tau, last)
                };
                *h = i;
                i
            }
        }
    }

    #[inline]
    fn search_leg(ts: &[f64], tau: f64, last: usize) -> usize {
        ts.partition_point(|&x| x <= tau)
            .saturating_sub(1)
            .min(last)
    }

    /// See [`Schedule::sample`].
    #[inline(always)]
    pub(crate) fn sample(&self, t: f64, hint: Option<&mut usize>) -> ScheduleSample {
        let t0 = self.t0();
        let n = self.times.len() - 1;
        let t = if t.is_nan() { t0 } else { t };
        let span = self.span();
        // Local time and the schedule's direction (+1 forwards, −1 on a ping-pong's way back).
        let (tau, dir) = match self.wrap {
            Wrap::Clamp => {
                if t < t0 {
                    return self.standing(0, self.legs[0].face[0], NpcState::Before);
                }
                if t > self.times[n] {
                    return self.standing(n, self.legs[n - 1].face[0], NpcState::After);
                }
                (t, 1.0)
            }
            Wrap::Loop => (t0 + phase(t, t0, span), 1.0),
            Wrap::PingPong => {
                let phi = phase(t, t0, 2.0 * span);
                if phi <= span {
                    (t0 + phi, 1.0)
                } else {
                    (t0 + (2.0 * span - phi), -1.0)
                }
            }
        };
        let i = self.leg_of(tau, hint);
        let leg = &self.legs[i];
        let x = ((tau - self.times[i]) * leg.inv_dt).clamp(0.0, 1.0);
        let (u, du) = leg.ease.apply(x);
        let (d0, delta) = (leg.d0, leg.delta);
        let state = if delta == 0.0 {
            NpcState::Holding
        } else {
            NpcState::Moving
        };
        ScheduleSample {
            distance: d0 + delta * u,
            speed: dir * delta * du * leg.inv_dt,
            facing: leg.face[(dir < 0.0) as usize] as f32,
            state,
        }
    }

    #[inline]
    fn standing(&self, key: usize, face: i8, state: NpcState) -> ScheduleSample {
        ScheduleSample {
            distance: self.distances[key],
            speed: 0.0,
            facing: face as f32,
            state,
        }
    }

    /// Occurrences per period (period `None` = clamp: one pass).
    fn occurrence_count(&self) -> usize {
        let n = self.times.len() - 1;
        match self.wrap {
            Wrap::Clamp | Wrap::Loop => n + 1,
            Wrap::PingPong => 2 * n,
        }
    }

    /// Occurrence `j` of a period, in increasing offset (ties in order of occurrence).
    #[inline]
    fn occurrence(&self, j: usize) -> Occurrence {
        let n = self.times.len() - 1;
        let t0 = self.t0();
        let off = |k: usize| self.times[k] - t0;
        let occ = |offset: f64, key: usize, phase: i32| Occurrence {
            offset,
            key: key as u32,
            phase,
        };
        match self.wrap {
            Wrap::Clamp => occ(off(j), j, 1),
            // Last key first at offset 0: it ends the previous period at the same instant.
            Wrap::Loop => {
                if j == 0 {
                    occ(0.0, n, 1)
                } else {
                    occ(off(j - 1), j - 1, 1)
                }
            }
            Wrap::PingPong => {
                let span = self.span();
                if j == 0 {
                    occ(0.0, 0, -1)
                } else if j <= n {
                    occ(off(j), j, 1)
                } else {
                    let k = 2 * n - j;
                    occ(2.0 * span - off(k), k, -1)
                }
            }
        }
    }

    /// The period and the range of period indices that can hold occurrences in `(lo, hi]`.
    fn periods(&self, lo: f64, hi: f64) -> (f64, i64, i64) {
        let period = match self.wrap {
            Wrap::Clamp => return (0.0, 0, 0),
            Wrap::Loop => self.span(),
            Wrap::PingPong => 2.0 * self.span(),
        };
        const LIM: f64 = PERIOD_LIMIT;
        let t0 = self.t0();
        let a = ((lo - t0) / period).floor().clamp(-LIM, LIM) as i64 - 1;
        let b = ((hi - t0) / period).floor().clamp(-LIM, LIM) as i64 + 1;
        (period, a, b)
    }

    /// World time of occurrence `o` in period `m` (one expression used everywhere).
    #[inline]
    fn world_time(&self, o: &Occurrence, period: f64, m: i64) -> f64 {
        self.t0() + (m as f64 * period + o.offset)
    }

    /// See [`Schedule::crossing_count`].
    pub(crate) fn crossing_count(&self, from: f64, to: f64) -> usize {
        if from.is_nan() || to.is_nan() || from == to {
            return 0;
        }
        let (lo, hi) = (from.min(to), from.max(to));
        let (period, a, b) = self.periods(lo, hi);
        let occ = self.occurrence_count();
        let far = |t: f64| ((t - self.t0()) / period).abs() >= PERIOD_LIMIT;
        if period > 0.0 && (far(lo) || far(hi)) {
            // Past 9e15 periods the period index is not exact in f64: the count is the number
            // of whole periods in the span times the occurrences per period (saturating).
            return (((hi - lo) / period).floor() * occ as f64) as usize;
        }
        let count_in = |m: i64| -> usize {
            (0..occ)
                .filter(|&j| {
                    let w = self.world_time(&self.occurrence(j), period, m);
                    lo < w && w <= hi
                })
                .count()
        };
        if b - a <= 8 {
            return (a..=b).map(count_in).fold(0usize, usize::saturating_add);
        }
        // Whole periods in the middle hold every occurrence; check the three at each end.
        let ends = (a..a + 3)
            .chain(b - 2..=b)
            .map(count_in)
            .fold(0usize, usize::saturating_add);
        let middle = ((b - a + 1 - 6) as u64).saturating_mul(occ as u64);
        ends.saturating_add(usize::try_from(middle).unwrap_or(usize::MAX))
    }

    /// See [`Schedule::for_each_crossing`].
    pub(crate) fn for_each_crossing(
        &self,
        from: f64,
        to: f64,
        mut f: impl FnMut(Crossing) -> bool,
    ) {
        if from.is_nan() || to.is_nan() || from == to {
            return;
        }
        let forward = to > from;
        let sign = if forward { 1 } else { -1 };
        let (lo, hi) = (from.min(to), from.max(to));
        let (period, a, b) = self.periods(lo, hi);
        let occ = self.occurrence_count();
        let mut visit = |m: i64, j: usize| -> bool {
            let o = self.occurrence(j);
            let w = self.world_time(&o, period, m);
            if lo < w && w <= hi {
                return f(Crossing {
                    key: o.key,
                    direction: o.phase * sign,
                });
            }
            true
        };
        if forward {
            for m in a..=b {
                for j in 0..occ {
                    if !visit(m, j) {
                        return;
                    }
                }
            }
        } else {
            for m in (a..=b).rev() {
                for j in (0..occ).rev() {
                    if !visit(m, j) {
                        return;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(k: &[(f64, f64)]) -> Vec<Key> {
        k.iter()
            .map(|&(time, distance)| Key { time, distance })
            .collect()
    }

    #[test]
    fn holds_and_facing() {
        let s = Schedule::new(
            &keys(&[(0.0, 0.0), (10.0, 5.0), (20.0, 5.0), (30.0, 2.0)]),
            &[],
            Wrap::Clamp,
            5.0,
        )
        .unwrap();
        let a = s.sample(15.0);
        assert_eq!(a.state, NpcState::Holding);
        assert_eq!(a.distance, 5.0);
        assert_eq!(a.speed, 0.0);
        assert_eq!(a.facing, 1.0);
        let b = s.sample(25.0);
        assert_eq!(b.state, NpcState::Moving);
        assert_eq!(b.facing, -1.0);
        assert!((b.speed + 0.3).abs() < 1e-12);
        assert_eq!(s.sample(-1.0).state, NpcState::Before);
        assert_eq!(s.sample(31.0).state, NpcState::After);
        assert_eq!(s.sample(31.0).distance, 2.0);
    }

    #[test]
    fn bad_keys_are_rejected() {
        let l = 10.0;
        let e = |k: &[(f64, f64)]| Schedule::new(&keys(k), &[], Wrap::Clamp, l).err();
        assert_eq!(e(&[(0.0, 0.0)]), Some(TimelineError::BadCount));
        assert_eq!(
            e(&[(0.0, 0.0), (0.0, 1.0)]),
            Some(TimelineError::InvalidKeyTime)
        );
        assert_eq!(
            e(&[(1.0, 0.0), (0.0, 1.0)]),
            Some(TimelineError::InvalidKeyTime)
        );
        assert_eq!(
            e(&[(0.0, 0.0), (1e-10, 0.0)]),
            Some(TimelineError::InvalidKeyTime)
        );
        assert_eq!(
            e(&[(0.0, 0.0), (1.0, 11.0)]),
            Some(TimelineError::DistanceOutOfRange)
        );
        assert_eq!(
            e(&[(0.0, -0.5), (1.0, 1.0)]),
            Some(TimelineError::DistanceOutOfRange)
        );
        assert_eq!(
            Schedule::new(&keys(&[(0.0, 0.0), (1e-9, 2e6)]), &[], Wrap::Clamp, 1e7).err(),
            Some(TimelineError::InvalidKey),
            "faster than MAX_LEG_SPEED"
        );
        assert_eq!(
            e(&[(0.0, 0.0), (f64::NAN, 1.0)]),
            Some(TimelineError::NonFinite)
        );
        assert_eq!(
            Schedule::simple(3.0, 3.0, Wrap::Loop, l).err(),
            Some(TimelineError::InvalidKeyTime)
        );
    }

    #[test]
    fn distances_a_few_ulps_past_the_ends_are_the_ends() {
        let l = 10.0;
        let slack = distance_tolerance(l);
        let s = Schedule::new(
            &keys(&[(0.0, -slack), (1.0, l + slack)]),
            &[],
            Wrap::Clamp,
            l,
        )
        .unwrap();
        let k: Vec<Key> = s.keys().collect();
        assert_eq!((k[0].distance, k[1].distance), (0.0, l));
        assert_eq!(
            Schedule::new(
                &keys(&[(0.0, 0.0), (1.0, l + 2.0 * slack)]),
                &[],
                Wrap::Clamp,
                l
            )
            .err(),
            Some(TimelineError::DistanceOutOfRange)
        );
    }

    #[test]
    fn wrap_mod_matches_rem_euclid_within_rounding() {
        for &(x, m) in &[
            (5.0, 3.0),
            (-5.0, 3.0),
            (0.0, 2.0),
            (1e9 + 0.25, 600.0),
            (-7.5, 2.5),
        ] {
            let a = wrap_mod(x, m);
            let b = f64::rem_euclid(x, m);
            assert!((0.0..=m).contains(&a));
            assert!((a - b).abs() < 1e-9 * (1.0 + x.abs()) || (a - b).abs() > m * 0.999);
        }
    }

    #[test]
    fn lane_helpers_match_the_scalar_code_bit_for_bit() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let specials = [
            0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1e-320, -1e-320, 4.0e15, -4.0e15,
        ];
        for k in 0..20000 {
            let x = if k < 100 {
                specials[k % specials.len()] * (1 + k / 10) as f64
            } else {
                f64::from_bits(next()).clamp(-1e18, 1e18) * if k % 3 == 0 { 1e-12 } else { 1.0 }
            };
            let x = if x.is_nan() { 1.5 } else { x };
            let m = [600.0, 1.0, 1e-300, 3.25, 7e12][k % 5];
            let a = wrap_mod(x, m);
            assert_eq!(
                a.to_bits(),
                wrap_mod_lane::<false>(x, m).to_bits(),
                "{x} {m}"
            );
            assert_eq!(
                a.to_bits(),
                wrap_mod_lane::<true>(x, m).to_bits(),
                "{x} {m}"
            );
        }
        for e in 0..4u32 {
            let ease = Ease::from_u32(e).unwrap();
            for k in 0..=1000 {
                let x = k as f64 / 1000.0;
                let (u, du) = ease.apply(x);
                let [a1, a2, a3] = ease.coefficients().map(f64::from);
                let (v, dv) = ease_lane(a1, a2, a3, x);
                assert_eq!((u.to_bits(), du.to_bits()), (v.to_bits(), dv.to_bits()));
            }
        }
    }

    #[test]
    fn loop_boundary_reports_last_then_first() {
        let s = Schedule::simple(0.0, 10.0, Wrap::Loop, 4.0).unwrap();
        let mut v = Vec::new();
        s.for_each_crossing(5.0, 15.0, |c| {
            v.push((c.key, c.direction));
            true
        });
        assert_eq!(v, vec![(1, 1), (0, 1)]);
        let mut r = Vec::new();
        s.for_each_crossing(15.0, 5.0, |c| {
            r.push((c.key, c.direction));
            true
        });
        assert_eq!(r, vec![(0, -1), (1, -1)]);
        assert_eq!(s.crossing_count(5.0, 15.0), 2);
    }
}
