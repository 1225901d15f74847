//! Probe: how many agents a passage lets through. The generated floor plans' jams
//! (`steerbench --large`), reduced to three scenes of planned agents (radii 0.25–0.4 m, speeds
//! 1.1–1.5 m/s, leaving at their last goal), each run with several seeds of their random
//! placement:
//!
//! - `one-way`: a crowd packed into the first 30 m of a 4 m × 80 m corridor walks out of its
//!   far end. Prints the agents a second that left the corridor (between the tenth and the
//!   ninetieth percentile of the crossings) and when the last crossed.
//! - `two-way`: two such crowds, one at each end, walk out of the opposite ends. Prints when
//!   the first crossed and when the last did.
//! - `room`: a crowd spread along a 4 m corridor visits the centre of an 8 m room whose 2 m door
//!   opens onto the corridor, then leaves by the corridor's end on the side it came from (a
//!   floor plan's hub room). Prints the visits by 300 s and when the last left (or, after
//!   600 s, how many had not).
//!
//! `cargo run --release --example passages -- [agents] [seeds] [first seed]` (defaults 200, 6,
//! 1; the two-way corridor holds twice as many).

use glam::Vec3;
use wayfarer::crowd::scenario::SplitMix;
use wayfarer::crowd::{Crowd, EventKind, Goal, Obstacle, OnArrival, RouteMode};

#[path = "common/args.rs"]
mod args;
use args::arg;

/// Step, s; the longest run, s.
const DT: f32 = 0.1;
const LIMIT: f32 = 600.0;
/// Corridor width and length, m.
const WIDTH: f32 = 4.0;
const LENGTH: f32 = 80.0;

/// Uniform in [0, 1) from `seed` and `k`: the crate's [`SplitMix`] drawn once from a state
/// mixed of both (its draw adds the golden-ratio step back), so each number stands alone and
/// a placement is the same on every machine.
fn unit(seed: u64, k: u64) -> f32 {
    const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
    let state = seed
        .wrapping_mul(GOLDEN)
        .wrapping_add(k.wrapping_mul(0xBF58_476D_1CE4_E5B9))
        .wrapping_sub(GOLDEN);
    SplitMix(state).range(0.0, 1.0)
}

/// A crowd of planned agents with the scene's walls `(x0, z0, x1, z1)`.
fn crowd(capacity: usize, walls: &[(f32, f32, f32, f32)]) -> Crowd {
    let mut c = Crowd::new(capacity).expect("a crowd");
    let mut d = c.agent_defaults();
    d.route_mode = RouteMode::Planned;
    c.set_agent_defaults(d).expect("defaults");
    for &(x0, z0, x1, z1) in walls {
        let (a, b) = (Vec3::new(x0, 0.0, z0), Vec3::new(x1, 0.0, z1));
        c.add_obstacle(Obstacle::Wall { a, b }).expect("a wall");
    }
    c
}

/// `n` discs (x, z, radius) in x ∈ `xs`, z ∈ `zs`, 5 cm apart, drawn with `seed`.
fn place(n: usize, seed: u64, xs: (f32, f32), zs: (f32, f32)) -> Vec<(f32, f32, f32)> {
    let mut placed: Vec<(f32, f32, f32)> = Vec::with_capacity(n);
    let mut k = 0;
    while placed.len() < n && k < 1_000_000 {
        let r = 0.25 + 0.15 * unit(seed, k);
        let x = xs.0 + r + (xs.1 - xs.0 - 2.0 * r) * unit(seed, k + 1);
        let z = zs.0 + r + (zs.1 - zs.0 - 2.0 * r) * unit(seed, k + 2);
        k += 3;
        let clear = placed
            .iter()
            .all(|&(px, pz, pr)| (px - x).hypot(pz - z) > pr + r + 0.05);
        if clear {
            placed.push((x, z, r));
        }
    }
    placed
}

/// Adds an agent at `(x, z)` of radius `r` with `goals`, leaving at the last.
fn add(c: &mut Crowd, seed: u64, k: usize, (x, z, r): (f32, f32, f32), goals: &[Goal]) {
    let speed = 1.1 + 0.4 * unit(seed ^ 0x5EED, k as u64);
    let id = c
        .add_agent(Vec3::new(x, 0.0, z), 0.0, speed, r)
        .expect("an agent");
    c.set_goals(id, goals, OnArrival::Despawn).expect("goals");
}

/// The corridor scenes: the agents, and the times each first stood outside the corridor.
fn corridor(n: usize, seed: u64, two_way: bool) -> (usize, Vec<f32>) {
    let half = 0.5 * WIDTH;
    let walls = [(-half, 0.0, -half, LENGTH), (half, 0.0, half, LENGTH)];
    let mut c = crowd(2 * n, &walls);
    let xs = (-half + 0.05, half - 0.05);
    let up = place(n, seed, xs, (1.0, 31.0));
    let down = if two_way {
        place(n, seed ^ 0xD0, xs, (LENGTH - 31.0, LENGTH - 1.0))
    } else {
        Vec::new()
    };
    // Goals far beyond each end, with a wide arrival circle: the corridor, not the goal,
    // is the passage measured.
    let beyond = 25.0;
    for (k, &p) in up.iter().enumerate() {
        add(
            &mut c,
            seed,
            k,
            p,
            &[Goal::new(Vec3::new(0.0, 0.0, LENGTH + beyond), 6.0)],
        );
    }
    for (k, &p) in down.iter().enumerate() {
        add(
            &mut c,
            seed,
            n + k,
            p,
            &[Goal::new(Vec3::new(0.0, 0.0, -beyond), 6.0)],
        );
    }
    let total = up.len() + down.len();
    let mut out = std::collections::HashSet::new();
    let mut times = Vec::with_capacity(total);
    let mut t = 0.0;
    while t < LIMIT && times.len() < total {
        c.step(DT, 1).expect("a step");
        t += DT;
        for (id, a) in c.agents() {
            let z = a.position.z;
            if !(0.0..=LENGTH).contains(&z) && out.insert(id) {
                times.push(t);
            }
        }
    }
    (total, times)
}

/// The room scene: visits by 300 s, and when the last agent left (or how many had not).
fn room(n: usize, seed: u64) -> (usize, Result<f32, usize>) {
    let walls = [
        (-40.0, 0.0, 40.0, 0.0),
        (-40.0, 4.0, -1.0, 4.0),
        (1.0, 4.0, 40.0, 4.0),
        (-4.0, 4.0, -4.0, 12.0),
        (4.0, 4.0, 4.0, 12.0),
        (-4.0, 12.0, 4.0, 12.0),
    ];
    let mut c = crowd(n, &walls);
    let spots = place(3 * n, seed, (-38.0, 38.0), (0.05, WIDTH - 0.05));
    let centre = Vec3::new(0.0, 0.0, 8.0);
    let mut k = 0;
    // Agents clear of the door's 6 m, a side's end beyond the corridor's.
    for &(x, z, r) in spots.iter().filter(|s| s.0.abs() >= 3.0).take(n) {
        let out = Vec3::new(45.0f32.copysign(x), 0.0, 2.0);
        add(
            &mut c,
            seed,
            k,
            (x, z, r),
            &[Goal::new(centre, r), Goal::new(out, 1.5)],
        );
        k += 1;
    }
    let (mut visits, mut gone, mut by_300) = (0, 0, 0);
    let mut t = 0.0;
    while t < LIMIT && gone < k {
        c.step(DT, 1).expect("a step");
        t += DT;
        for e in c.events() {
            match e.kind {
                EventKind::Despawned => gone += 1,
                EventKind::GoalReached => visits += 1,
            }
        }
        if t <= 300.0 {
            // Every agent reaches the centre first: of its goals reached, one is a visit.
            by_300 = visits - gone;
        }
    }
    (by_300, if gone == k { Ok(t) } else { Err(k - gone) })
}

fn main() {
    let (n, seeds, first) = (arg(1, 200).max(1), arg(2, 6).max(1), arg(3, 1) as u64);
    println!("| seed | one-way: agents/s, last out (s) | two-way: first / last out (s) | room: visits by 300 s, last out (s) |");
    println!("|---:|---:|---:|---:|");
    for seed in first..first + seeds as u64 {
        let (total, one) = corridor(n, seed, false);
        let rate = match (one.get(total / 10), one.get(total * 9 / 10)) {
            (Some(a), Some(b)) if b > a => format!("{:.2}", (total * 8 / 10) as f32 / (b - a)),
            _ => "–".into(),
        };
        let last = |(total, v): &(usize, Vec<f32>)| match v.last() {
            Some(t) if v.len() == *total => format!("{t:.0}"),
            _ => format!("{} not out at {LIMIT:.0}", total - v.len()),
        };
        let one = (total, one);
        let two = corridor(n, seed, true);
        let first_out = two.1.first().map_or("–".into(), |t| format!("{t:.0}"));
        let (visits, left) = room(n, seed);
        let left = match left {
            Ok(t) => format!("{t:.0}"),
            Err(k) => format!("{k} not out at {LIMIT:.0}"),
        };
        println!(
            "| {seed} | {rate}, {} | {first_out} / {} | {visits}, {left} |",
            last(&one),
            last(&two)
        );
    }
}
