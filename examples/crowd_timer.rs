//! Times the crowd step on the speed benchmark's scene ([`Scenario::benchmark`]), step by step:
//! `cargo run --release --example crowd_timer -- [agents] [steps] [threads] [simd] [planned|moving]`
//! (defaults 10000, 100, 1; a fourth argument `portable` or `avx2` caps the lane kernels, and a
//! fifth, `planned`, has every agent plan its route to its goal, or `moving` moves a 2 m disc
//! 0.1 m through the scene before every step, as a dynamic obstacle does: removed and added).
//! Prints the best and mean step and a hash of the final positions (equal hashes: equal bits,
//! e.g. across thread counts or with the lane kernels on and off).

use std::time::Instant;

use glam::Vec3;
use wayfarer::crowd::scenario::Scenario;
use wayfarer::crowd::{Obstacle, RouteMode, Simd};

#[path = "common/args.rs"]
mod args;
use args::arg;

fn main() {
    let (n, steps, threads) = (arg(1, 10_000), arg(2, 100).max(1), arg(3, 1));
    let s = Scenario::benchmark(n);
    let mut c = s.crowd;
    let mode = std::env::args().nth(5);
    if mode.as_deref() == Some("planned") {
        for &a in &s.agents {
            c.set_route_mode(a, RouteMode::Planned).unwrap();
        }
    }
    let disc = |x: f32| Obstacle::Circle {
        center: Vec3::new(x, 0.0, 0.0),
        radius: 2.0,
    };
    let moving = mode.as_deref() == Some("moving");
    let mut disc_id = moving.then(|| c.add_obstacle(disc(0.0)).unwrap());
    c.set_simd(match std::env::args().nth(4).as_deref() {
        Some("portable") => Simd::Portable,
        Some("avx2") => Simd::Avx2,
        _ => Simd::Avx512,
    });
    // Warm-up, as in benches/crowd.rs: obstacle index, first grid builds.
    for _ in 0..3 {
        c.step(0.1, 1).unwrap();
    }
    let (mut best, mut total) = (f64::INFINITY, 0.0);
    for i in 0..steps {
        let t = Instant::now();
        if let Some(id) = disc_id {
            c.remove_obstacle(id).unwrap();
            disc_id = Some(c.add_obstacle(disc(0.1 * (i + 1) as f32)).unwrap());
        }
        c.step(0.1, threads).unwrap();
        let ms = t.elapsed().as_secs_f64() * 1e3;
        best = best.min(ms);
        total += ms;
    }
    let hash = c.agents().fold(0u64, |h, (_, a)| {
        let bits = (a.position.x.to_bits() as u64) << 32 | a.position.z.to_bits() as u64;
        (h ^ bits).wrapping_mul(0x0100_0000_01b3)
    });
    println!(
        "{n} agents, {threads} thread(s), simd {:?}, {steps} steps: best {best:.3} ms, mean {:.3} ms, hash {hash:016x}",
        c.simd(),
        total / steps as f64
    );
}
