//! Crowd step cost at fixed density (one agent per 16 m², one obstacle per ten agents):
//! 1 k / 10 k / 100 k agents on one thread, and 10 k on two threads. The scene is
//! [`Scenario::benchmark`]; `examples/crowd_timer.rs` times the same scene step by step.
//! `crowd_rebuild` times a step after an obstacle changes (the obstacle index and the route
//! planner's grid are rebuilt) on the 1 k and 10 k scenes: against the plain step, the
//! rebuild's cost.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use wayfarer::crowd::scenario::Scenario;
use wayfarer::crowd::Crowd;

/// The benchmark scene after three warm-up steps (obstacle index, first grid builds).
fn field(n: usize) -> Crowd {
    let mut c = Scenario::benchmark(n).crowd;
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

    let mut g = c.benchmark_group("crowd_rebuild");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    for n in [1_000usize, 10_000] {
        let mut crowd = field(n);
        let (mut id, ob) = crowd.obstacles().map(|(i, o)| (i, *o)).next().unwrap();
        g.bench_with_input(BenchmarkId::new("obstacle change + step", n), &n, |b, _| {
            b.iter(|| {
                // The same obstacle taken away and put back: a change, the same scene.
                crowd.remove_obstacle(id).unwrap();
                id = crowd.add_obstacle(ob).unwrap();
                crowd.step(0.1, 1).unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
