//! Crowd step cost at fixed density (one agent per 16 m², one obstacle per ten agents):
//! 1 k / 10 k / 100 k agents on one thread, and 10 k on two threads. The scene is
//! [`Scenario::benchmark`]; `examples/crowd_timer.rs` times the same scene step by step.
//! `crowd_rebuild` times a step after an obstacle changes (the obstacle index is rebuilt and
//! the route planner's grid updated) on the 1 k and 10 k scenes, each iteration on a fresh
//! copy of one warm crowd: against the plain step on the same copies, the rebuild's cost; and
//! a step after a disc moved among 40 planned agents (their cached routes repaired).
//! `crowd_planned` times planned routes where they cost most: the 1 k scene with every agent
//! planning its way to a goal of its own (four new distance fields per step; each iteration on
//! a fresh copy of the crowd after 30 steps), one new distance field per step (one planned
//! agent among the 1 k scene's obstacles, given a new goal before each step), and a disc
//! driving off past the obstacles, moved 0.1 m further out before each step (the planning grid
//! outgrown), among the 1 k scene's agents walking straight and among 40 planned agents.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use glam::Vec3;
use wayfarer::crowd::scenario::Scenario;
use wayfarer::crowd::{Crowd, Obstacle, RouteMode};

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
    g.sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    for n in [1_000usize, 10_000] {
        // Every iteration steps a fresh copy of one warm crowd (the copy is not timed), so
        // both cases time the same step and their difference is the rebuild.
        let crowd = field(n);
        let (id, ob) = crowd.obstacles().map(|(i, o)| (i, *o)).next().unwrap();
        g.bench_with_input(BenchmarkId::new("step", n), &n, |b, _| {
            b.iter_batched(
                || crowd.clone(),
                |mut c| {
                    c.step(0.1, 1).unwrap();
                    c
                },
                BatchSize::LargeInput,
            )
        });
        g.bench_with_input(BenchmarkId::new("obstacle change + step", n), &n, |b, _| {
            b.iter_batched(
                || crowd.clone(),
                |mut c| {
                    // The same obstacle taken away and put back: a change, the same scene.
                    c.remove_obstacle(id).unwrap();
                    c.add_obstacle(ob).unwrap();
                    c.step(0.1, 1).unwrap();
                    c
                },
                BatchSize::LargeInput,
            )
        });
    }
    // Planned agents (40, ~20 goal blocks) in the obstacle field, a 2 m disc in their midst
    // moved 0.1 m before each step: the planner's grid is updated and its fields repaired
    // (4 per step at most), against the plain step.
    let mut s = Scenario::obstacle_field(40, 60, 5);
    let disc = |x: f32| Obstacle::Circle {
        center: Vec3::new(x, 0.0, 0.0),
        radius: 1.0,
    };
    let id = s.crowd.add_obstacle(disc(0.0)).unwrap();
    for _ in 0..20 {
        s.crowd.step(0.1, 1).unwrap();
    }
    let crowd = s.crowd;
    let planned = "40 planned in a field";
    g.bench_function(BenchmarkId::new("step", planned), |b| {
        b.iter_batched(
            || crowd.clone(),
            |mut c| {
                c.step(0.1, 1).unwrap();
                c
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function(BenchmarkId::new("obstacle moved + step", planned), |b| {
        b.iter_batched(
            || crowd.clone(),
            |mut c| {
                c.remove_obstacle(id).unwrap();
                c.add_obstacle(disc(0.1)).unwrap();
                c.step(0.1, 1).unwrap();
                c
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();

    let mut g = c.benchmark_group("crowd_planned");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    let mut s = Scenario::benchmark(1_000);
    for &a in &s.agents {
        s.crowd.set_route_mode(a, RouteMode::Planned).unwrap();
    }
    // Each iteration steps a fresh copy of the crowd after 30 steps (not timed): every step
    // computes its budget of new fields then, and the copies keep the workload fixed.
    for _ in 0..30 {
        s.crowd.step(0.1, 1).unwrap();
    }
    let crowd = s.crowd;
    g.bench_function("1 k planned, goals of their own", |b| {
        b.iter_batched(
            || crowd.clone(),
            |mut c| {
                c.step(0.1, 1).unwrap();
                c
            },
            BatchSize::LargeInput,
        )
    });
    // One planned agent among the 1 k scene's obstacles, walled in a 6 m square with a 1 m
    // door (so no goal outside is in sight and every step needs its field), put back at the
    // centre with a new goal before each step (64 goals round a 50 m circle, in turn) and a
    // cache of one field: each step computes one distance field over the 65 780-cell grid.
    let mut c1 = Scenario::benchmark(1_000).crowd;
    let ids: Vec<_> = c1.agents().map(|(id, _)| id).collect();
    for &id in &ids[1..] {
        c1.remove_agent(id).unwrap();
    }
    let walker = ids[0];
    let wall = |x0: f32, z0: f32, x1: f32, z1: f32| Obstacle::Wall {
        a: Vec3::new(x0, 0.0, z0),
        b: Vec3::new(x1, 0.0, z1),
    };
    for w in [
        wall(-3.0, -3.0, 3.0, -3.0),
        wall(-3.0, 3.0, 3.0, 3.0),
        wall(-3.0, -3.0, -3.0, 3.0),
        wall(3.0, -3.0, 3.0, -0.5),
        wall(3.0, 0.5, 3.0, 3.0),
    ] {
        c1.add_obstacle(w).unwrap();
    }
    c1.set_route_mode(walker, RouteMode::Planned).unwrap();
    c1.set_route_cache(1).unwrap();
    let mut turn = 0u32;
    let before = c1.planner().fields_computed();
    let mut one_field = |c: &mut Crowd| {
        turn += 1;
        let a = turn as f32 * core::f32::consts::TAU / 64.0;
        let goal = Vec3::new(50.0 * a.cos(), 0.0, 50.0 * a.sin());
        c.set_position(walker, Vec3::ZERO, 0.0).unwrap();
        c.set_target(walker, goal, 0.3).unwrap();
        c.step(0.1, 1).unwrap();
    };
    for _ in 0..64 {
        one_field(&mut c1);
    }
    assert_eq!(
        c1.planner().fields_computed() - before,
        64,
        "a field per step"
    );
    g.bench_function("one new field (1 k scene's obstacles)", |b| {
        b.iter(|| one_field(&mut c1))
    });
    // A disc driving off along +x from just outside the obstacles, 0.1 m per step.
    let driving_off = |crowd: &mut Crowd, from: f32| {
        let disc = |x: f32| Obstacle::Circle {
            center: Vec3::new(x, 0.0, 0.0),
            radius: 1.0,
        };
        let mut x = from;
        let mut id = crowd.add_obstacle(disc(x)).unwrap();
        move |c: &mut Crowd| {
            x += 0.1;
            c.remove_obstacle(id).unwrap();
            id = c.add_obstacle(disc(x)).unwrap();
            c.step(0.1, 1).unwrap();
        }
    };
    let mut crowd = field(1_000);
    let half = (1_000.0f32 * 16.0).sqrt() / 2.0;
    let mut drive = driving_off(&mut crowd, half + 2.0);
    g.bench_function("disc driving off, 1 k walking straight", |b| {
        b.iter(|| drive(&mut crowd))
    });
    let mut crowd = Scenario::obstacle_field(40, 60, 5).crowd;
    let mut drive = driving_off(&mut crowd, 20.0);
    for _ in 0..20 {
        drive(&mut crowd);
    }
    g.bench_function("disc driving off, 40 planned", |b| {
        b.iter(|| drive(&mut crowd))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
