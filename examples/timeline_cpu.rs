//! CPU-time driver for the timeline batch (the bench's workload without criterion), for
//! `perf stat -e task-clock` or callgrind: `timeline_cpu <mode> <calls> [npcs [keys]]`, mode
//! `hinted`, `stateless`, `hinted-positions` or `stateless-positions`; 0 calls measures the
//! setup alone (subtract it). 100 000 (default) whole-path NPCs (or, with `keys`, the bench's
//! 12-key schedules) on a Catmull-Rom path of 1 000 waypoints, times advancing by 1/60 s (hinted) or 7.3 s (stateless) per call, all
//! outputs or positions and states only.

use std::hint::black_box;
use wayfarer::timeline::{Ease, Key, NpcState, Path, ScheduleSet, Times, Wrap};
use wayfarer::Vec3;

const DAY: f64 = 600.0;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("hinted", String::as_str);
    let hinted = mode.starts_with("hinted");
    let frame = !mode.ends_with("positions");
    let calls: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    let npcs: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let keys = args.get(4).map(String::as_str) == Some("keys");
    let pts: Vec<Vec3> = (0..1000)
        .map(|i| {
            let a = i as f32 * 0.37;
            Vec3::new(
                a.cos() * 10.0 + i as f32 * 2.0,
                (a * 0.3).sin(),
                a.sin() * 10.0,
            )
        })
        .collect();
    let mut set = ScheduleSet::new();
    let p = set.add_path(Path::catmull_rom(&pts, 0.5, 0.0).unwrap());
    let len = set.path(p).unwrap().length() as f64;
    for i in 0..npcs {
        let t0 = -(((i * 7919) % npcs) as f64 / npcs as f64 * DAY);
        if keys {
            // The bench's 12 keys: holds, easing, loop.
            let fr = [0.0, 0.1, 0.1, 0.3, 0.5, 0.5, 0.6, 0.8, 0.8, 0.9, 0.95, 1.0];
            let ks: Vec<Key> = (0..12)
                .map(|k| Key {
                    time: t0 + k as f64 * DAY / 11.0,
                    distance: len * fr[k],
                })
                .collect();
            use Ease::*;
            let ease = [
                InOut, None, In, None, None, Out, None, None, InOut, None, None,
            ];
            set.add_npc(p, &ks, &ease, Wrap::Loop).unwrap();
        } else {
            set.add_npc_simple(p, t0, t0 + DAY, Wrap::Loop).unwrap();
        }
    }
    let mut pos = vec![Vec3::ZERO; npcs];
    let mut fwd = vec![Vec3::ZERO; npcs];
    let mut vel = vec![Vec3::ZERO; npcs];
    let mut state = vec![NpcState::Before; npcs];
    let mut hints = vec![0u32; 2 * npcs];
    let mut t = 1234.5;
    for _ in 0..calls {
        t += if hinted { 1.0 / 60.0 } else { 7.3 };
        let sink = |i: usize, s: &wayfarer::timeline::NpcSample| {
            pos[i] = s.position;
            fwd[i] = s.forward;
            vel[i] = s.velocity;
            state[i] = s.state;
        };
        let times = Times::One(black_box(t));
        match (hinted, frame) {
            (true, true) => set.evaluate_hinted(times, &mut hints, sink),
            (false, true) => set.evaluate(times, sink),
            (true, false) => set.evaluate_positions(times, Some(&mut hints), sink),
            (false, false) => set.evaluate_positions(times, None, sink),
        }
    }
    black_box((&pos, &fwd, &vel, &state));
}
