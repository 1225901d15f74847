//! The scenario-space sampler, after Kapadia et al. 2011, *Scenario Space*: each scene is a
//! bounded region with random obstacles (boxes and walls), a reference agent with a random
//! start and goal, and 0–20 other agents whose starts and goals cross its way (timed to meet
//! it where they cross). Only solvable scenes count: a draw in which some agent has no
//! collision-free path for its radius ([`super::solvable`]) is dropped and the next drawn from
//! the same generator. Seed `s` gives the same scene on every machine.
//!
//! A scene is **solved** when every agent reaches its goal within 4 × its ideal time (its
//! shortest open path at its speed) + 20 s, with no agent–obstacle overlap and agent–agent
//! overlap at most 5 % of a radius. Agents leave at their goal (SteerSuite's rule).

use std::collections::BTreeMap;
use std::path::Path;

use glam::{Vec2, Vec3};
use wayfarer::crowd::{AgentState, Obstacle};

use super::draw;
use super::metrics::GRIDLOCK;
use super::program::{Arrival, Outcome};
use super::report::AGENT_OVERLAP;
use super::rng::Pcg32;
use super::run::{play, Settings};
use super::scene::{AgentSpec, Goal, GoalKind, Scene, NO_DURATION};
use super::solvable::Clearance;

/// Draws per seed before the seed is given up as unsolvable.
const DRAWS: usize = 200;
/// Most agents besides the reference one.
const MAX_OTHERS: u32 = 20;
/// Most obstacles.
const MAX_OBSTACLES: u32 = 12;
/// Wall thickness, metres.
const WALL: f32 = 0.2;

/// The time limit for an agent walking `length` metres at `speed`: 4 × ideal + 20 s.
pub fn deadline(length: f32, speed: f32) -> f32 {
    4.0 * length / speed + 20.0
}

/// A thin box from `a` to `b` (a wall of [`WALL`] thickness).
pub fn wall(a: Vec2, b: Vec2) -> Obstacle {
    let d = b - a;
    let c = 0.5 * (a + b);
    // Local x is (cos yaw, −sin yaw): the yaw that turns local x onto d.
    let yaw = (-d.y).atan2(d.x);
    Obstacle::OrientedBox {
        center: Vec3::new(c.x, 0.0, c.y),
        half_x: 0.5 * d.length(),
        half_z: 0.5 * WALL,
        yaw,
    }
}

/// The walls round `world`, just outside it.
pub fn enclosure(world: (Vec2, Vec2)) -> Vec<Obstacle> {
    let (lo, hi) = (
        world.0 - Vec2::splat(0.5 * WALL),
        world.1 + Vec2::splat(0.5 * WALL),
    );
    vec![
        wall(Vec2::new(lo.x, lo.y), Vec2::new(hi.x, lo.y)),
        wall(Vec2::new(hi.x, lo.y), Vec2::new(hi.x, hi.y)),
        wall(Vec2::new(hi.x, hi.y), Vec2::new(lo.x, hi.y)),
        wall(Vec2::new(lo.x, hi.y), Vec2::new(lo.x, lo.y)),
    ]
}

/// One draw of a scene (maybe unsolvable).
fn draw(rng: &mut Pcg32) -> (Scene, Vec<(Vec2, Vec2, f32, f32)>) {
    let half = Vec2::new(rng.range(6.0, 12.0), rng.range(6.0, 12.0));
    let world = (-half, half);
    let mut obstacles = enclosure(world);
    for _ in 0..rng.int(0, MAX_OBSTACLES) {
        let c = Vec2::new(rng.range(-half.x, half.x), rng.range(-half.y, half.y));
        let yaw = rng.angle();
        if rng.unit() < 0.5 {
            let (hx, hz) = (rng.range(0.25, 2.0), rng.range(0.25, 2.0));
            obstacles.push(if rng.unit() < 0.5 {
                Obstacle::Box {
                    min: Vec3::new(c.x - hx, 0.0, c.y - hz),
                    max: Vec3::new(c.x + hx, 0.0, c.y + hz),
                }
            } else {
                Obstacle::OrientedBox {
                    center: Vec3::new(c.x, 0.0, c.y),
                    half_x: hx,
                    half_z: hz,
                    yaw,
                }
            });
        } else {
            let d = Vec2::new(yaw.cos(), yaw.sin()) * (0.5 * rng.range(2.0, 10.0));
            obstacles.push(wall(c - d, c + d));
        }
    }
    let inner = |r: f32| {
        (
            world.0 + Vec2::splat(r + 0.3),
            world.1 - Vec2::splat(r + 0.3),
        )
    };
    let clear = |p: Vec2, r: f32| {
        obstacles
            .iter()
            .all(|o| o.shape().is_none_or(|s| s.contact(p).distance >= r + 0.05))
    };
    let random_in = |rng: &mut Pcg32, r: f32| {
        let (lo, hi) = inner(r);
        Vec2::new(rng.range(lo.x, hi.x), rng.range(lo.y, hi.y))
    };
    // The reference agent: start and goal at least 40 % of the region's width apart.
    let r0 = rng.range(0.3, 0.5);
    let v0 = rng.range(1.0, 1.6);
    let mut start = random_in(rng, r0);
    let mut goal = random_in(rng, r0);
    for _ in 0..100 {
        if clear(start, r0) && clear(goal, r0) && start.distance(goal) >= 0.8 * half.min_element() {
            break;
        }
        start = random_in(rng, r0);
        goal = random_in(rng, r0);
    }
    let mut walks = vec![(start, goal, r0, v0)];
    let way = goal - start;
    let dir = way.normalize_or(Vec2::X);
    for _ in 0..rng.int(0, MAX_OTHERS) {
        let r = rng.range(0.3, 0.5);
        let v = rng.range(1.0, 1.6);
        for _ in 0..20 {
            let t = rng.range(0.15, 0.85);
            let meet = start + way * t;
            let turn = rng.range(0.25, 1.75) * core::f32::consts::PI;
            let (s, c) = turn.sin_cos();
            let d = Vec2::new(dir.x * c - dir.y * s, dir.x * s + dir.y * c);
            // Timed to be where the ways cross when the reference agent is.
            let before = (way.length() * t * v / v0 * rng.range(0.8, 1.2)).max(1.5);
            let after = rng.range(3.0, 12.0);
            let (lo, hi) = inner(r);
            let a = (meet - d * before).clamp(lo, hi);
            let b = (meet + d * after).clamp(lo, hi);
            let apart = walks
                .iter()
                .all(|w| w.0.distance(a) >= w.2 + r + 0.1 && w.1.distance(b) >= 0.1);
            if a.distance(b) > 2.0 && clear(a, r) && clear(b, r) && apart {
                walks.push((a, b, r, v));
                break;
            }
        }
    }
    let scene = Scene {
        name: String::new(),
        world,
        obstacles,
        agents: Vec::new(),
        emitters: Vec::new(),
        time_limit: 0.0,
    };
    (scene, walks)
}

/// The solvable scene of `seed` and how many draws were dropped, or `None` when none of
/// [`DRAWS`] draws was solvable.
pub fn scene(seed: u64) -> (Option<Scene>, usize) {
    let mut rng = Pcg32::new(seed, 0x5CE7E);
    for dropped in 0..DRAWS {
        let (mut scene, walks) = draw(&mut rng);
        let grid = Clearance::new(scene.world, &scene.obstacles, 1.0);
        let mut agents = Vec::new();
        for &(a, b, r, v) in &walks {
            let Some(len) = grid.path(a, b, r) else { break };
            let dir = (b - a).normalize_or(Vec2::Y);
            agents.push(AgentSpec {
                name: None,
                position: a,
                yaw: dir.x.atan2(dir.y),
                radius: r,
                speed: v,
                goals: vec![Goal {
                    kind: GoalKind::Seek(b),
                    duration: NO_DURATION,
                    speed: None,
                }],
                ideal_length: len,
                deadline: Some(deadline(len, v)),
            });
        }
        if agents.len() == walks.len() {
            scene.time_limit = agents.iter().filter_map(|a| a.deadline).fold(0.0, f32::max);
            scene.agents = agents;
            scene.name = format!("scene {seed}");
            return (Some(scene), dropped);
        }
    }
    (None, DRAWS)
}

/// The ways an agent can fail a scene, worst first.
const KINDS: [&str; 4] = [
    "gridlock (an agent blocked 60 s or more)",
    "late: blocked at the time limit",
    "late: still walking at the time limit",
    "late: arrived after the time limit",
];

/// Why a generated scene was not solved (the first that applies, in this order).
fn failure(scene: &Scene, s: Settings, svg: Option<&Path>) -> Result<Option<&'static str>, String> {
    let p = play(scene, s, svg.is_some())?;
    let mut late = None;
    for (k, w) in p.program.walkers.iter().enumerate() {
        let ok = matches!(w.outcomes.first(), Some(Outcome::Reached(t))
            if *t <= w.spec.deadline.unwrap_or(f32::INFINITY) + 1e-3);
        if ok {
            continue;
        }
        let blocked_now =
            w.id.and_then(|id| p.crowd.agent(id).ok())
                .is_some_and(|a| a.state() == AgentState::Blocked);
        let kind = if p.measures.bodies[k].longest_blocked >= GRIDLOCK {
            KINDS[0]
        } else if blocked_now {
            KINDS[1]
        } else if w.finished.is_some() {
            KINDS[3]
        } else {
            KINDS[2]
        };
        // The worst kind any agent shows names the scene's failure.
        let rank = |k: &str| KINDS.iter().position(|&x| x == k).unwrap_or(KINDS.len());
        late = Some(late.map_or(
            kind,
            |l: &'static str| if rank(kind) < rank(l) { kind } else { l },
        ));
    }
    if let Some(kind) = late {
        if let Some(dir) = svg {
            let path = dir.join(format!("{}.svg", scene.name.replace(' ', "-")));
            draw::draw(&scene.name, &scene.obstacles, &p.trace, &path)
                .map_err(|e| e.to_string())?;
            for (k, w) in p.program.walkers.iter().enumerate() {
                let ok = matches!(w.outcomes.first(), Some(Outcome::Reached(t))
                    if *t <= w.spec.deadline.unwrap_or(f32::INFINITY) + 1e-3);
                if ok {
                    continue;
                }
                println!(
                    "  {}: agent {k} r {:.2} from {} to {:?}: ideal {:.1} m, {:?}, now at {}",
                    scene.name,
                    w.spec.radius,
                    w.spec.position,
                    w.spec.goals[0].kind.point(),
                    w.spec.ideal_length,
                    w.outcomes.first(),
                    w.position
                );
            }
        }
        return Ok(Some(kind));
    }
    if p.measures.obstacle_collisions > 0 {
        return Ok(Some("agent-obstacle overlap"));
    }
    if p.measures.deepest_agent > AGENT_OVERLAP {
        return Ok(Some("agent-agent overlap above 5 % of a radius"));
    }
    Ok(None)
}

/// What a run of generated scenes gave.
pub struct Coverage {
    /// The first seed, and the number of scenes.
    pub first: u64,
    /// Scenes run.
    pub n: usize,
    /// Scenes solved.
    pub solved: usize,
    /// Agents in the scenes.
    pub agents: usize,
    /// Unsolvable draws dropped.
    pub dropped: usize,
    /// The failed seeds, by failure kind.
    pub by_kind: BTreeMap<&'static str, Vec<u64>>,
    /// Scenes that could not be built or run.
    pub errors: Vec<String>,
    /// Wall time, seconds.
    pub secs: f32,
}

impl Coverage {
    /// The share of scenes solved, in percent.
    pub fn share(&self) -> f32 {
        100.0 * self.solved as f32 / self.n.max(1) as f32
    }

    /// The failures as text: each kind, its count and its seeds.
    pub fn failures(&self) -> String {
        let kinds: Vec<String> = self
            .by_kind
            .iter()
            .map(|(kind, seeds)| {
                let list: Vec<String> = seeds.iter().map(u64::to_string).collect();
                format!("{kind} {} ({})", seeds.len(), list.join(", "))
            })
            .collect();
        if kinds.is_empty() {
            "none".into()
        } else {
            kinds.join("; ")
        }
    }
}

/// Runs scenes for seeds `first` … `first + n − 1`. With `svg`, each failed scene is also
/// drawn there (`scene-<seed>.svg`) and its agents listed.
pub fn run_coverage(n: usize, first: u64, settings: Settings, svg: Option<&Path>) -> Coverage {
    let s = Settings {
        arrival: Arrival::Despawn,
        max_time: f32::INFINITY,
        ..settings
    };
    let mut c = Coverage {
        first,
        n,
        solved: 0,
        agents: 0,
        dropped: 0,
        by_kind: BTreeMap::new(),
        errors: Vec::new(),
        secs: 0.0,
    };
    let started = std::time::Instant::now();
    for seed in first..first + n as u64 {
        let (scene, d) = scene(seed);
        c.dropped += d;
        let Some(scene) = scene else {
            c.by_kind.entry("no solvable draw").or_default().push(seed);
            continue;
        };
        c.agents += scene.agents.len();
        match failure(&scene, s, svg) {
            Ok(None) => c.solved += 1,
            Ok(Some(kind)) => c.by_kind.entry(kind).or_default().push(seed),
            Err(e) => c.errors.push(format!("seed {seed}: {e}")),
        }
    }
    c.secs = started.elapsed().as_secs_f32();
    c
}

/// Runs scenes for seeds `first` … `first + n − 1` and prints the coverage and the failed
/// seeds by kind; returns the exit status (1 when a scene cannot be built or run).
///
/// With `svg`, each failed scene is also drawn there (`scene-<seed>.svg`) and its agents listed.
/// With `min`, a coverage below `min` % is exit status 1 too.
pub fn coverage(
    n: usize,
    first: u64,
    settings: Settings,
    svg: Option<&Path>,
    min: Option<f32>,
) -> i32 {
    let c = run_coverage(n, first, settings, svg);
    println!(
        "scenario space, seeds {first}..={}: coverage {} of {n} scenes solved ({:.1} %); \
         {} agents; {} unsolvable draws dropped; {:.1} s",
        first + n as u64 - 1,
        c.solved,
        c.share(),
        c.agents,
        c.dropped,
        c.secs
    );
    if !c.by_kind.is_empty() {
        println!("failed seeds by kind:");
        for (kind, seeds) in &c.by_kind {
            let list: Vec<String> = seeds.iter().map(u64::to_string).collect();
            println!("  {kind} ({}): {}", seeds.len(), list.join(" "));
        }
    }
    let share = c.share();
    let short = min.is_some_and(|m| share < m);
    if let (true, Some(m)) = (short, min) {
        println!("coverage {share:.1} % is below the required {m} %");
    }
    if c.errors.is_empty() {
        i32::from(short)
    } else {
        println!("scenes that could not be run:");
        for e in &c.errors {
            println!("  {e}");
        }
        1
    }
}

#[cfg(test)]
mod tests {
    use super::scene;

    #[test]
    fn a_seed_gives_the_same_solvable_scene_each_time() {
        for seed in 1..20 {
            let (a, _) = scene(seed);
            let (b, _) = scene(seed);
            let (a, b) = (a.expect("solvable"), b.expect("solvable"));
            assert_eq!(a.agents, b.agents);
            assert_eq!(a.obstacles, b.obstacles);
            assert!((1..=21).contains(&a.agents.len()));
            assert!(a.time_limit > 20.0);
        }
        assert_ne!(scene(1).0.unwrap().agents, scene(2).0.unwrap().agents);
    }
}
