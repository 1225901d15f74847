//! CPU-time driver for the timeline batch (the bench's workload without criterion), for
//! `perf stat -e task-clock` or callgrind: `timeline_cpu <mode> <calls> [npcs [keys]]`, mode
//! `hinted`, `stateless`, `hinted-positions` or `stateless-positions` (written straight into
//! the arrays by `evaluate_into`; add `-sink` for the per-NPC callback API); 0 calls measures the
//! setup alone (subtract it). 100 000 (default) whole-path NPCs (or, with `keys`, the bench's
//! 12-key schedules) on a Catmull-Rom path of 1 000 waypoints, times advancing by 1/60 s (hinted) or 7.3 s (stateless) per call, all
//! outputs or positions and states only. `WF_SIMD=avx2` (or `portable`) caps the instruction
//! sets ([`wayfarer::timeline::Simd`]).

use std::hint::black_box;
use wayfarer::timeline::{NpcState, SampleArrays, Simd, Times};
use wayfarer::Vec3;

#[path = "../benches/common/timeline_scene.rs"]
mod scene;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("hinted", String::as_str);
    let hinted = mode.starts_with("hinted");
    let sink = mode.ends_with("-sink");
    let mode = mode.trim_end_matches("-sink");
    let frame = !mode.ends_with("positions");
    let calls: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    let npcs: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let keys = args.get(4).map(String::as_str) == Some("keys");
    let mut set = scene::set(npcs, keys);
    if let Ok(cap) = std::env::var("WF_SIMD") {
        set.set_simd(match cap.as_str() {
            "portable" => Simd::Portable,
            "avx2" => Simd::Avx2,
            _ => Simd::Avx512,
        });
    }
    let mut pos = vec![Vec3::ZERO; npcs];
    let mut fwd = vec![Vec3::ZERO; npcs];
    let mut vel = vec![Vec3::ZERO; npcs];
    let mut state = vec![NpcState::Before; npcs];
    let mut hints = vec![0u32; 2 * npcs];
    let mut t = 1234.5;
    for _ in 0..calls {
        t += if hinted { 1.0 / 60.0 } else { 7.3 };
        let times = Times::One(black_box(t));
        let hints = hinted.then_some(&mut hints[..]);
        if sink {
            // The per-NPC callback API, writing the same arrays.
            let f = |i: usize, s: &wayfarer::timeline::NpcSample| {
                pos[i] = s.position;
                fwd[i] = s.forward;
                vel[i] = s.velocity;
                state[i] = s.state;
            };
            match (hints, frame) {
                (Some(h), true) => set.evaluate_hinted(times, h, f),
                (None, true) => set.evaluate(times, f),
                (h, false) => set.evaluate_positions(times, h, f),
            }
        } else {
            set.evaluate_into(
                times,
                hints,
                &mut SampleArrays {
                    positions: Some(&mut pos),
                    forwards: frame.then_some(&mut fwd[..]),
                    velocities: frame.then_some(&mut vel[..]),
                    states: Some(&mut state),
                },
            );
        }
    }
    black_box((&pos, &fwd, &vel, &state));
}
