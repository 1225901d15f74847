//! Curve benches: Hermite batch evaluation (fast path vs a plain scalar loop), Bézier evaluation
//! per point at degree 3/20/64, Bézier `sample` against `eval` at degree 15 (the same points,
//! by count and spacing or by parameters), arc-length baking per cubic segment,
//! distance → position.
//! Short runs (the machine is shared): `cargo bench --bench curves`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use wayfarer::curve::{self, ArcLengthTable, BezierCurve, CubicSpline, HermiteSegment, Spacing};
use wayfarer::Vec3;

/// A small deterministic generator (xorshift) so runs are comparable.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    fn vec(&mut self, scale: f32) -> Vec3 {
        Vec3::new(self.next(), self.next(), self.next()) * scale - Vec3::splat(scale / 2.0)
    }
}

fn hermite_batch(c: &mut Criterion) {
    let seg = HermiteSegment::new(
        Vec3::new(1.0, 2.0, 3.0),
        Vec3::new(-4.0, 5.0, 0.5),
        Vec3::new(0.0, 0.0, 7.0),
        Vec3::new(3.0, -1.0, 2.0),
    );
    for (name, n) in [
        ("hermite_1M", 1_000_000usize),
        ("hermite_4k_in_cache", 4096),
    ] {
        hermite_group(c, &seg, name, n);
    }
}

/// Fast path and scalar loop on `n` parameters evenly spread over [0, 1].
fn hermite_group(c: &mut Criterion, seg: &HermiteSegment, name: &str, n: usize) {
    let ts: Vec<f32> = (0..n).map(|i| i as f32 / (n - 1) as f32).collect();
    let mut out = vec![Vec3::ZERO; n];
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(n as u64));
    g.bench_function("batch", |b| {
        b.iter(|| seg.eval(black_box(&ts), black_box(&mut out)))
    });
    g.bench_function("scalar_loop", |b| {
        b.iter(|| {
            for (o, &t) in out.iter_mut().zip(black_box(&ts)) {
                *o = seg.position(t);
            }
            black_box(&mut out);
        })
    });
    g.finish();
}

fn bezier(c: &mut Criterion) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    const N: usize = 4096;
    let ts: Vec<f32> = (0..N).map(|_| rng.next()).collect();
    let mut out = vec![Vec3::ZERO; N];
    let mut g = c.benchmark_group("bezier_per_point");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(N as u64));
    for degree in [3usize, 20, 64] {
        let curve = BezierCurve::new((0..=degree).map(|_| rng.vec(10.0)).collect()).unwrap();
        g.bench_function(format!("batch_degree_{degree}"), |b| {
            b.iter(|| curve.eval(black_box(&ts), black_box(&mut out)))
        });
        g.bench_function(format!("single_degree_{degree}"), |b| {
            b.iter(|| {
                for (o, &t) in out.iter_mut().zip(black_box(&ts)) {
                    *o = curve.position(t);
                }
                black_box(&mut out);
            })
        });
    }
    g.finish();
}

/// `sample` (a count and a spacing) against `eval` (explicit parameters) on a degree-15 curve:
/// with parameter spacing both give the same 4096 points, `t = i / 4095`, with the same
/// arithmetic, and `sample` (which makes its parameters inside the kernel's loop) should cost
/// no more per point than `eval`. Arc-length spacing is
/// shown beside them (it bakes an arc-length table first).
fn bezier_sample_vs_eval(c: &mut Criterion) {
    let mut rng = Rng(0x51_7cc1_b727_220a);
    const N: usize = 4096;
    let curve = BezierCurve::new((0..=15).map(|_| rng.vec(10.0)).collect()).unwrap();
    let ts: Vec<f32> = (0..N).map(|i| i as f32 / (N - 1) as f32).collect();
    let mut out = vec![Vec3::ZERO; N];
    let mut g = c.benchmark_group("bezier_degree_15");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(N as u64));
    g.bench_function("eval", |b| {
        b.iter(|| curve.eval(black_box(&ts), black_box(&mut out)))
    });
    g.bench_function("sample_parameter", |b| {
        b.iter(|| curve::sample(black_box(&curve), Spacing::Parameter, black_box(&mut out)))
    });
    g.bench_function("sample_arc_length", |b| {
        b.iter(|| curve::sample(black_box(&curve), Spacing::ArcLength, black_box(&mut out)))
    });
    g.finish();
}

/// A Hermite spline of `n` segments with uneven handles: each tangent is the local chord
/// direction scaled by 0.5..3× the half chord, plus a sideways component of up to ±¼ (no
/// cusps: a game path, not a scribble).
fn spline(n: usize) -> CubicSpline {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut pts = Vec::with_capacity(n + 1);
    let mut p = Vec3::ZERO;
    for _ in 0..=n {
        pts.push(p);
        p += Vec3::new(2.0, 0.0, 0.0) + rng.vec(3.0);
    }
    let tan: Vec<Vec3> = (0..=n)
        .map(|i| {
            let chord = pts[(i + 1).min(n)] - pts[i.saturating_sub(1)];
            let len = chord.length() / 2.0;
            chord.normalize() * len * (0.5 + 2.5 * rng.next()) + rng.vec(0.5 * len)
        })
        .collect();
    CubicSpline::hermite(&pts, &tan).unwrap()
}

fn arc_length(c: &mut Criterion) {
    let curve = spline(1000);
    let mut g = c.benchmark_group("arc_length");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Elements(1000));
    g.bench_function("bake_per_segment", |b| {
        b.iter(|| black_box(ArcLengthTable::new(black_box(&curve))))
    });
    let table = ArcLengthTable::new(&curve);
    let mut rng = Rng(7);
    const Q: usize = 4096;
    let ds: Vec<f32> = (0..Q).map(|_| rng.next() * table.total_length()).collect();
    g.throughput(Throughput::Elements(Q as u64));
    g.bench_function("distance_to_position", |b| {
        b.iter_batched_ref(
            || vec![Vec3::ZERO; Q],
            |out| {
                for (o, &d) in out.iter_mut().zip(black_box(&ds)) {
                    *o = table.position_at_distance(&curve, d);
                }
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(
    benches,
    hermite_batch,
    bezier,
    bezier_sample_vs_eval,
    arc_length
);
criterion_main!(benches);
