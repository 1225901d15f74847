//! Crowd step cost at fixed density (one agent per 16 m², one obstacle per ten agents):
//! 1 k / 10 k / 100 k agents on one thread, and 10 k on two threads.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use glam::{Vec2, Vec3};
use wayfarer::crowd::scenario::SplitMix;
use wayfarer::crowd::{Crowd, Obstacle};

/// `n` agents crossing a square to the mirrored point, among `n / 10` small obstacles.
fn field(n: usize) -> Crowd {
    let half = (n as f32 * 16.0).sqrt() / 2.0;
    let mut rng = SplitMix(42);
    let mut c = Crowd::new(n).unwrap();
    for i in 0..n / 10 {
        let p = Vec3::new(rng.range(-half, half), 0.0, rng.range(-half, half));
        let ob = if i % 2 == 0 {
            Obstacle::Circle {
                center: p,
                radius: rng.range(0.3, 1.0),
            }
        } else {
            Obstacle::OrientedBox {
                center: p,
                half_x: rng.range(0.3, 1.0),
                half_z: rng.range(0.3, 1.0),
                yaw: rng.range(0.0, 3.0),
            }
        };
        c.add_obstacle(ob).unwrap();
    }
    for _ in 0..n {
        let p = Vec2::new(rng.range(-half, half), rng.range(-half, half));
        let id = c
            .add_agent(Vec3::new(p.x, 0.0, p.y), rng.range(-3.1, 3.1), 1.3, 0.3)
            .unwrap();
        c.set_target(id, Vec3::new(-p.x, 0.0, -p.y), 0.3).unwrap();
    }
    // Warm-up: obstacle index, first grid builds.
    for _ in 0..3 {
        c.step(0.1, 1).unwrap();
    }
    c
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("crowd_step");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_secs(1));
    for n in [1_000usize, 10_000, 100_000] {
        let mut crowd = field(n);
        g.bench_with_input(BenchmarkId::new("1 thread", n), &n, |b, _| {
            b.iter(|| crowd.step(0.1, 1).unwrap())
        });
    }
    let mut crowd = field(10_000);
    g.bench_with_input(BenchmarkId::new("2 threads", 10_000), &10_000, |b, _| {
        b.iter(|| crowd.step(0.1, 2).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
