//! Schedules and schedule sets: purity (same time → same bits, whatever came before, hinted or
//! not), exact arrivals, continuity, wrap periodicity, easing, and key crossings against an
//! independent reference that enumerates passes in unfolded phase `(t − t₀)/P`.

use proptest::prelude::*;
use wayfarer::timeline::{Crossing, Ease, Key, NpcState, Path, Schedule, ScheduleSet, Times, Wrap};
use wayfarer::Vec3;

/// Strictly increasing times and distances in `[0, len]` (holds allowed when `holds`).
fn keys_strategy(len: f64, holds: bool) -> impl Strategy<Value = Vec<Key>> {
    prop::collection::vec((0.5f64..20.0, 0.0f64..1.0, prop::bool::ANY), 2..8).prop_map(move |v| {
        let mut t = -30.0;
        v.into_iter()
            .map(|(dt, u, hold)| {
                t += dt;
                (t, u, hold)
            })
            .scan(None::<f64>, |prev, (time, u, hold)| {
                let distance = match *prev {
                    Some(p) if holds && hold => p,
                    _ => (u * len).min(len),
                };
                *prev = Some(distance);
                Some(Key { time, distance })
            })
            .collect()
    })
}

fn ease_strategy() -> impl Strategy<Value = Ease> {
    (0u32..4).prop_map(|e| Ease::from_u32(e).unwrap())
}

fn wrap_strategy() -> impl Strategy<Value = Wrap> {
    (0u32..3).prop_map(|w| Wrap::from_u32(w).unwrap())
}

fn winding_path() -> Path {
    let pts: Vec<Vec3> = (0..30)
        .map(|i| {
            let a = i as f32 * 0.6;
            Vec3::new(a.cos() * 8.0 + i as f32, 0.0, a.sin() * 8.0)
        })
        .collect();
    Path::catmull_rom(&pts, 0.5, 0.0).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn evaluation_is_a_pure_function_of_time(
        keys in keys_strategy(80.0, true),
        ease in prop::collection::vec(ease_strategy(), 8),
        wrap in wrap_strategy(),
        times in prop::collection::vec(-200.0f64..200.0, 1..40),
    ) {
        let path = winding_path();
        let len = path.length() as f64;
        let keys: Vec<Key> = keys.into_iter().map(|k| Key { distance: k.distance.min(len), ..k }).collect();
        let mut set = ScheduleSet::new();
        let p = set.add_path(path);
        let legs = keys.len() - 1;
        set.add_npc(p, &keys, &ease[..legs], wrap).unwrap();
        set.add_npc_simple(p, keys[0].time, keys[legs].time, wrap).unwrap();
        let mut hints = vec![0u32; 4];
        for &t in &times {
            let fresh = set.sample(0, t).unwrap();
            let mut hinted = Vec::new();
            set.evaluate_hinted(Times::One(t), &mut hints, |_, s| hinted.push(*s));
            let mut plain = Vec::new();
            set.evaluate(Times::One(t), |_, s| plain.push(*s));
            // Bit-identical, whatever was queried before.
            prop_assert_eq!(format!("{:?}", fresh), format!("{:?}", plain[0]));
            prop_assert_eq!(format!("{:?}", hinted), format!("{:?}", plain));
            prop_assert!(fresh.position.is_finite() && fresh.forward.is_finite() && fresh.velocity.is_finite());
            prop_assert!((fresh.forward.length() - 1.0).abs() < 1e-4);
        }
    }

    #[test]
    fn arrivals_are_exact_and_distance_is_continuous(
        keys in keys_strategy(50.0, true),
        ease in prop::collection::vec(ease_strategy(), 8),
        probes in prop::collection::vec(0.0f64..1.0, 20),
    ) {
        let s = Schedule::new(&keys, &ease[..keys.len() - 1], Wrap::Clamp, 50.0).unwrap();
        for k in &keys {
            prop_assert!((s.sample(k.time).distance - k.distance).abs() <= 1e-9);
        }
        let (t0, t1) = (keys[0].time, keys[keys.len() - 1].time);
        // Max speed: eased legs peak at 2× their average.
        let vmax = keys.windows(2).map(|w| 2.0 * (w[1].distance - w[0].distance).abs() / (w[1].time - w[0].time)).fold(0.0, f64::max);
        let h = 1e-4;
        for u in probes {
            let t = t0 + u * (t1 - t0);
            let a = s.sample(t - h).distance;
            let b = s.sample(t + h).distance;
            prop_assert!((b - a).abs() <= vmax * 2.0 * h + 1e-9);
            // Reported speed matches the finite difference (away from leg ends).
            let near_key = keys.iter().any(|k| (k.time - t).abs() < 2.0 * h);
            if !near_key {
                let fd = (b - a) / (2.0 * h);
                prop_assert!((fd - s.sample(t).speed).abs() <= 1e-3 * (1.0 + vmax));
            }
        }
    }

    #[test]
    fn wraps_are_periodic_and_ping_pong_mirrors(
        keys in keys_strategy(50.0, false),
        u in 0.0f64..1.0,
        k in -5i32..5,
    ) {
        let (t0, t1) = (keys[0].time, keys[keys.len() - 1].time);
        let p = t1 - t0;
        let t = t0 + u * p;
        let looped = Schedule::new(&keys, &[], Wrap::Loop, 50.0).unwrap();
        let a = looped.sample(t);
        let b = looped.sample(t + k as f64 * p);
        prop_assert!((a.distance - b.distance).abs() <= 1e-6 * (1.0 + t.abs()));
        let pp = Schedule::new(&keys, &[], Wrap::PingPong, 50.0).unwrap();
        let f = pp.sample(t);
        let m = pp.sample(2.0 * t1 - t + 2.0 * k as f64 * p);
        prop_assert!((f.distance - m.distance).abs() <= 1e-6 * (1.0 + t.abs()));
        prop_assert!((f.speed + m.speed).abs() <= 1e-6 * (1.0 + f.speed.abs()));
        let clamped = Schedule::new(&keys, &[], Wrap::Clamp, 50.0).unwrap();
        prop_assert_eq!(clamped.sample(t0 - 1.0).state, NpcState::Before);
        prop_assert_eq!(clamped.sample(t1 + 1.0).state, NpcState::After);
        prop_assert_eq!(clamped.sample(t1 + 1.0).distance, keys[keys.len() - 1].distance);
    }

    #[test]
    fn crossings_match_a_phase_reference_both_ways(
        keys in keys_strategy(50.0, true),
        wrap in wrap_strategy(),
        a in -120.0f64..120.0,
        span in 0.0f64..150.0,
    ) {
        let s = Schedule::new(&keys, &[], wrap, 50.0).unwrap();
        let b = a + span;
        let fwd = collect(&s, a, b);
        prop_assert_eq!(fwd.len(), s.crossing_count(a, b));
        prop_assert_eq!(&fwd, &reference(&keys, wrap, a, b));
        // Backwards: the same events, reversed, with opposite directions.
        let back = collect(&s, b, a);
        let mirrored: Vec<Crossing> = fwd.iter().rev().map(|c| Crossing { direction: -c.direction, ..*c }).collect();
        prop_assert_eq!(back, mirrored);
        // Additivity over a split point.
        let m = a + span * 0.37;
        let mut joined = collect(&s, a, m);
        joined.extend(collect(&s, m, b));
        prop_assert_eq!(joined, fwd);
    }
}

fn collect(s: &Schedule, from: f64, to: f64) -> Vec<Crossing> {
    let mut v = Vec::new();
    s.for_each_crossing(from, to, |c| {
        v.push(c);
        true
    });
    v
}

/// Independent reference (a < b): in unfolded phase `u = (t − t₀)/P`, walk every pass (loop)
/// or half period (ping-pong) touching `(u(a), u(b)]` and report the keys whose phase falls
/// inside: forwards (`+1`) or on a ping-pong's way back (`−1`), including loop jumps (last
/// key, then first key) and ping-pong turns.
fn reference(keys: &[Key], wrap: Wrap, a: f64, b: f64) -> Vec<Crossing> {
    let n = keys.len() - 1;
    let (t0, tn) = (keys[0].time, keys[n].time);
    let p = tn - t0;
    // Unfolded phase: u(t) = (t - t0) / p, continuous and increasing.
    let mut out = Vec::new();
    let push = |out: &mut Vec<Crossing>, k: usize, d: i32| {
        out.push(Crossing {
            key: k as u32,
            direction: d,
        })
    };
    // Key i's phase inside one period, in [0, 1].
    let phase = |i: usize| (keys[i].time - t0) / p;
    match wrap {
        Wrap::Clamp => {
            for (i, k) in keys.iter().enumerate() {
                if a < k.time && k.time <= b {
                    push(&mut out, i, 1);
                }
            }
        }
        Wrap::Loop | Wrap::PingPong => {
            // Walk whole units of phase: each unit [j, j+1) is one pass (loop) or one half
            // period (ping-pong, even j forwards, odd j backwards).
            let ua = (a - t0) / p;
            let ub = (b - t0) / p;
            let in_range = |u: f64| ua < u && u <= ub;
            let first = ua.floor() as i64 - 1;
            let last = ub.floor() as i64 + 1;
            for j in first..=last {
                let base = j as f64;
                match wrap {
                    Wrap::Loop => {
                        // Pass j: keys at base + phase(i); the last key lands at base + 1
                        // together with the next pass's first key (reported before it).
                        for i in 0..n {
                            if i == 0 && in_range(base) {
                                // The previous pass's last key, then this pass's first.
                                push(&mut out, n, 1);
                            }
                            if in_range(base + phase(i)) {
                                push(&mut out, i, 1);
                            }
                        }
                    }
                    _ => {
                        let forwards = j.rem_euclid(2) == 0;
                        if forwards {
                            // Key 0 at the turn starting this half (arrived walking back).
                            if in_range(base) {
                                push(&mut out, 0, -1);
                            }
                            for i in 1..=n {
                                if in_range(base + phase(i)) {
                                    push(&mut out, i, 1);
                                }
                            }
                        } else {
                            for i in (1..n).rev() {
                                if in_range(base + 1.0 - phase(i)) {
                                    push(&mut out, i, -1);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn easing_keeps_arrival_times_and_stops_on_the_eased_side() {
    let keys = [
        Key {
            time: 0.0,
            distance: 0.0,
        },
        Key {
            time: 10.0,
            distance: 20.0,
        },
        Key {
            time: 20.0,
            distance: 20.0,
        },
        Key {
            time: 30.0,
            distance: 0.0,
        },
    ];
    let s = Schedule::new(
        &keys,
        &[Ease::In, Ease::None, Ease::InOut],
        Wrap::Clamp,
        20.0,
    )
    .unwrap();
    assert_eq!(s.sample(0.0).speed, 0.0);
    assert!((s.sample(10.0 - 1e-9).speed - 4.0).abs() < 1e-6); // x²: ends at 2× average
    assert_eq!(s.sample(10.0).distance, 20.0);
    assert_eq!(s.sample(15.0).state, NpcState::Holding);
    assert_eq!(s.sample(20.0).speed, 0.0);
    assert!((s.sample(25.0).speed + 3.0).abs() < 1e-9); // smoothstep peak 1.5× average
    assert!(s.sample(30.0).distance.abs() < 1e-12);
    assert!(s.sample(30.0 - 1e-6).speed.abs() < 1e-5);
}

#[test]
fn the_seed_formula_is_wrong_and_ours_walks_the_real_arc_length() {
    // Uneven polyline: 1 m, then 9 m. The seed spreads L over n = 3 points (L/n per point) and
    // starts its first lerp at d = L/n: at 10 % of the time it is still at the first point.
    let pts = [Vec3::ZERO, Vec3::X, Vec3::new(10.0, 0.0, 0.0)];
    let path = Path::polyline(&pts).unwrap();
    let s = Schedule::simple(0.0, 10.0, Wrap::Clamp, path.length() as f64).unwrap();
    for i in 0..=100 {
        let t = i as f64 * 0.1;
        let d = s.sample(t).distance as f32;
        // Constant speed of 1 m/s along the real length: x = t.
        assert!((path.position(d).x - t as f32).abs() < 1e-5);
    }
}
