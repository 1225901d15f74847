//! The planned-radii scene: planned agents with per-agent radii among circle obstacles, stepped
//! on one thread (used by `examples/planned_radii` and the `figures` page).

use std::time::Instant;

use glam::Vec3;
use wayfarer::crowd::{AgentState, Crowd, Obstacle, ObstacleId, RouteMode};

/// Circle obstacles in the scene.
pub const OBSTACLES: usize = 200;

/// The spreads of radii: one radius (0.4 m), nine radii (0.20, 0.25, …, 0.60 m), and radii
/// spread continuously over 0.2–0.6 m.
pub const SPREADS: [&str; 3] = ["one", "nine", "spread"];

/// A small deterministic generator (SplitMix64), so every run builds the same scene.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
}

/// The radius of agent `i` for a spread.
fn radius(spread: &str, i: usize, rng: &mut Rng) -> f32 {
    match spread {
        "one" => 0.4,
        "nine" => 0.2 + 0.05 * (i % 9) as f32,
        _ => rng.range(0.2, 0.6),
    }
}

/// The scene for a spread of radii: `n` planned agents, [`OBSTACLES`] circles, a route budget
/// of `budget` fields a step. Each agent walks from a random point to the point mirrored
/// through the centre; agents, obstacles and radii are the same on every run (a fixed seed),
/// so the spreads differ only in the radii.
pub fn scene(n: usize, spread: &str, budget: usize) -> Crowd {
    let mut crowd = Crowd::new(n).expect("a crowd");
    crowd.set_route_budget(budget).expect("a budget in 1..=64");
    let half = (n as f32 * 16.0).sqrt() / 2.0;
    let mut rng = Rng(7);
    for _ in 0..OBSTACLES {
        let center = Vec3::new(rng.range(-half, half), 0.0, rng.range(-half, half));
        let radius = rng.range(0.3, 1.0);
        crowd
            .add_obstacle(Obstacle::Circle { center, radius })
            .expect("a valid obstacle");
    }
    let mut radii = Rng(11);
    for i in 0..n {
        let (x, z) = (rng.range(-half, half), rng.range(-half, half));
        let r = radius(spread, i, &mut radii);
        let id = crowd
            .add_agent(Vec3::new(x, 0.0, z), rng.range(-3.1, 3.1), 1.3, r)
            .expect("a valid agent");
        crowd.set_route_mode(id, RouteMode::Planned).unwrap();
        crowd
            .set_target(id, Vec3::new(-x, 0.0, -z), 0.3)
            .expect("a valid target");
    }
    crowd
}

/// A run of a scene: the mean and worst step (ms) and a hash of the final positions.
pub struct Timed {
    /// Mean step, milliseconds.
    pub mean: f64,
    /// Worst step, milliseconds (the first holds the planning grid's build).
    pub worst: f64,
    /// Hash of the agents' final positions (equal hashes: equal bits).
    pub hash: u64,
    /// Agents arrived at their targets at the end.
    pub arrived: usize,
    /// Seconds the agents spent walking, summed over agents (an agent not arrived at the
    /// end counts the whole run): how good the routes are, beside how fast they come.
    pub walking: f64,
}

/// The step, seconds.
const DT: f32 = 0.1;

/// Steps `crowd` `steps` times ([`DT`], one thread), timing each step.
pub fn run(crowd: &mut Crowd, steps: usize) -> Timed {
    let (mut total, mut worst) = (0.0f64, 0.0f64);
    // Agents not arrived after the last step, and their sum over the steps.
    let (mut left, mut walking) = (crowd.agent_count(), 0usize);
    for _ in 0..steps {
        let t = Instant::now();
        crowd.step(DT, 1).expect("a step");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        total += ms;
        worst = worst.max(ms);
        left = crowd
            .agents()
            .filter(|(_, a)| a.state() != AgentState::Arrived)
            .count();
        walking += left;
    }
    let hash = crowd.agents().fold(0u64, |h, (_, a)| {
        let bits = (a.position.x.to_bits() as u64) << 32 | a.position.z.to_bits() as u64;
        (h ^ bits).wrapping_mul(0x0100_0000_01b3)
    });
    Timed {
        mean: total / steps.max(1) as f64,
        worst,
        hash,
        arrived: crowd.agent_count() - left,
        walking: walking as f64 * f64::from(DT),
    }
}

/// The scene of `n` agents with radii `spread` and route budget `budget`, its planning grid
/// baked at load ([`Crowd::bake_routes`]), stepped `steps` times as [`run`] does: the bake's
/// time in milliseconds and the run. `unbaked`: the same scene's run without the bake, whose
/// bits the baked run must walk with (checked by the final positions' hash).
pub fn run_baked(
    n: usize,
    spread: &str,
    budget: usize,
    steps: usize,
    unbaked: &Timed,
) -> (f64, Timed) {
    let mut crowd = scene(n, spread, budget);
    let t = Instant::now();
    crowd.bake_routes();
    let bake = t.elapsed().as_secs_f64() * 1e3;
    let run = run(&mut crowd, steps);
    assert_eq!(
        run.hash, unbaked.hash,
        "a baked crowd walks with the same bits"
    );
    (bake, run)
}

/// Moves every obstacle of `crowd` 0.1 m along x (each removed and added: more changes in one
/// step than the crowd tracks, so its planner builds the grid again) and steps `steps` times
/// ([`DT`], one thread): the worst of those steps, milliseconds (a rebuild while the crowd
/// runs: the planner builds the grid in slices within the route budget).
pub fn rebuild_worst(crowd: &mut Crowd, steps: usize) -> f64 {
    let moved: Vec<(ObstacleId, Obstacle)> = crowd.obstacles().map(|(id, o)| (id, *o)).collect();
    for (id, o) in moved {
        let Obstacle::Circle { center, radius } = o else {
            unreachable!("the scene holds circles only")
        };
        crowd.remove_obstacle(id).expect("a live obstacle");
        let center = center + Vec3::new(0.1, 0.0, 0.0);
        crowd
            .add_obstacle(Obstacle::Circle { center, radius })
            .expect("a valid obstacle");
    }
    let mut worst = 0.0f64;
    for _ in 0..steps {
        let t = Instant::now();
        crowd.step(DT, 1).expect("a step");
        worst = worst.max(t.elapsed().as_secs_f64() * 1e3);
    }
    worst
}
