//! Timeline speed: 100 000 NPC queries on a path of 1 000 waypoints, stateless and hinted
//! (coherent frame-to-frame times), with all outputs (position, forward, velocity, state) and
//! with positions and states only, written straight into flat arrays (`evaluate_into`, as
//! the C ABI does) with the best instruction set the CPU has and capped at AVX2, and through
//! the per-NPC callback; beside the seed's approach (a linear scan over all
//! waypoints per query, reimplemented here) measured in the same run; plus nearest-point
//! queries. Run: `cargo bench --bench timeline`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use wayfarer::timeline::{NpcState, Path, SampleArrays, ScheduleSet, Simd, Times};
use wayfarer::Vec3;

#[path = "common/timeline_scene.rs"]
mod scene;
use scene::{offset, waypoints, DAY};

const NPCS: usize = 100_000;

fn set(keys: bool) -> ScheduleSet {
    scene::set(NPCS, keys)
}

/// The seed's approach, in our words: spread the length evenly over the *points* (L/n per
/// point), scan every point to find the last one whose share is behind the target, then lerp
/// towards the next point. (Wrong on uneven spacing; shown only for its cost.)
struct SeedPath {
    points: Vec<Vec3>,
    length: f32,
}

impl SeedPath {
    fn new(points: Vec<Vec3>) -> Self {
        let length = points.windows(2).map(|w| w[0].distance(w[1])).sum();
        Self { points, length }
    }

    fn position(&self, t: f32, t_start: f32, t_end: f32) -> Vec3 {
        let n = self.points.len();
        let along = self.length * ((t - t_start) / (t_end - t_start));
        let share = self.length / n as f32;
        let mut found = 0;
        for i in 0..n {
            if along >= share * (i + 1) as f32 {
                found = i;
            }
        }
        let found = found.min(n - 2);
        let lo = share * (found + 1) as f32;
        let f = (along - lo) / (share * (found + 2) as f32 - lo);
        self.points[found].lerp(self.points[found + 1], f)
    }
}

struct Out {
    pos: Vec<Vec3>,
    fwd: Vec<Vec3>,
    vel: Vec<Vec3>,
    state: Vec<NpcState>,
}

impl Out {
    fn new() -> Self {
        Self {
            pos: vec![Vec3::ZERO; NPCS],
            fwd: vec![Vec3::ZERO; NPCS],
            vel: vec![Vec3::ZERO; NPCS],
            state: vec![NpcState::Before; NPCS],
        }
    }

    /// The arrays to fill: all four, or positions and states only.
    fn arrays(&mut self, frame: bool) -> SampleArrays<'_> {
        SampleArrays {
            positions: Some(&mut self.pos),
            forwards: frame.then_some(&mut self.fwd[..]),
            velocities: frame.then_some(&mut self.vel[..]),
            states: Some(&mut self.state),
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("timeline");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(NPCS as u64));
    let mut out = Out::new();
    let mut hints = vec![0u32; 2 * NPCS];
    for (name, keys) in [("simple", false), ("12 keys", true)] {
        let mut set = set(keys);
        // The best instruction set the CPU has, then (simple schedules) capped at AVX2.
        let caps: &[(&str, Simd)] = if keys {
            &[("", Simd::Avx512)]
        } else {
            &[("", Simd::Avx512), (", AVX2", Simd::Avx2)]
        };
        for &(cap_name, cap) in caps {
            set.set_simd(cap);
            // Stateless: a different time each call (no reuse between calls); hinted: 60 fps.
            for (query, hinted, step) in [
                ("stateless", false, 7.3),
                ("hinted 60 fps", true, 1.0 / 60.0),
            ] {
                for (what, frame) in [("", true), (" positions only", false)] {
                    let id = BenchmarkId::new(format!("{query}{what}{cap_name}"), name);
                    let mut t = 1234.5;
                    g.bench_function(id, |b| {
                        b.iter(|| {
                            t += step;
                            let hints = hinted.then_some(&mut hints[..]);
                            set.evaluate_into(
                                Times::One(black_box(t)),
                                hints,
                                &mut out.arrays(frame),
                            );
                        })
                    });
                }
            }
        }
        set.set_simd(Simd::Avx512);
        if !keys {
            // The per-NPC callback API, writing the same four arrays.
            let mut t = 1234.5;
            g.bench_function(BenchmarkId::new("hinted 60 fps, callback", name), |b| {
                b.iter(|| {
                    t += 1.0 / 60.0;
                    set.evaluate_hinted(Times::One(black_box(t)), &mut hints, |i, s| {
                        out.pos[i] = s.position;
                        out.fwd[i] = s.forward;
                        out.vel[i] = s.velocity;
                        out.state[i] = s.state;
                    });
                })
            });
        }
        black_box(&out.pos);
    }
    let seed = SeedPath::new(waypoints());
    let mut pos = vec![Vec3::ZERO; NPCS];
    let mut t = 1234.5f32;
    g.bench_function("seed linear scan", |b| {
        b.iter(|| {
            t += 1.0 / 60.0;
            for (i, p) in pos.iter_mut().enumerate() {
                let t0 = -(offset(i, NPCS) as f32);
                let local = t0 + (black_box(t) - t0).rem_euclid(DAY as f32);
                *p = seed.position(local, t0, t0 + DAY as f32);
            }
        })
    });
    black_box(&pos);
    g.finish();

    let mut g = c.benchmark_group("timeline nearest");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(1000));
    let path = Path::catmull_rom(&waypoints(), 0.5, 0.0).unwrap();
    let queries: Vec<Vec3> = (0..1000)
        .map(|i| {
            let p = path.position(path.length() * ((i * 389) % 1000) as f32 / 1000.0);
            p + Vec3::new((i % 7) as f32 - 3.0, 0.5, (i % 5) as f32 - 2.0)
        })
        .collect();
    g.bench_function("1000 waypoints", |b| {
        b.iter(|| {
            for &q in &queries {
                black_box(path.nearest(black_box(q)));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
