//! Generated large crowds (`--large N`): the second scene is a field of 5 000 pillars crossed by 5
//! 000 agents; the others are floor plans of rooms and corridors with doors, holding 1 000–10 000
//! agents (seeded), with shared goals (exits beyond the building, room centres many agents seek),
//! sequential goals (a room, then an exit) and agents emitted over time in the corridors. Agents
//! leave at their last goal. Each scene runs until every agent has left or the latest agent's limit
//! (4 × its straight-line ideal time + 20 s after it appears, at most `--max-time`) passes; it
//! reports the share that reached every goal, gridlock (agents blocked 60 s or more), where the
//! agents not done stood (queued within 5 m of the goal they were on, or elsewhere), how the shared
//! goals took their agents in (see [`Intake`]), and the mean step time. `--kind floors` or `--kind
//! pillars` runs N scenes of one kind, to compare models over many seeds of it.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use glam::{Vec2, Vec3};
use wayfarer::crowd::Obstacle;

use super::draw;
use super::metrics::GRIDLOCK;
use super::program::{Arrival, Outcome};
use super::rng::Pcg32;
use super::run::{play, Settings};
use super::sampler::{deadline, enclosure, wall};
use super::scene::{AgentSpec, EmitterSpec, Goal, GoalKind, Scene, NO_DURATION};

/// Room side, corridor and aisle width, door width, metres.
const ROOM: f32 = 8.0;
const CORRIDOR: f32 = 4.0;
const DOOR: f32 = 2.0;
/// Agents placed per room.
const PER_ROOM: usize = 16;

fn seek(p: Vec2) -> Goal {
    Goal {
        kind: GoalKind::Seek(p),
        duration: NO_DURATION,
        speed: None,
    }
}

fn agent(p: Vec2, rng: &mut Pcg32, goals: Vec<Goal>) -> AgentSpec {
    AgentSpec {
        name: None,
        position: p,
        yaw: rng.angle(),
        radius: rng.range(0.25, 0.4),
        speed: rng.range(1.1, 1.5),
        goals,
        ideal_length: 0.0,
        deadline: None,
    }
    .with_ideal_length()
}

/// A random spot in (lo, hi) clear by `r` of the last 64 of `placed` (positions and radii: the
/// agents of one room are placed one after another, fewer than 64); `None` after a few tries.
fn spot(rng: &mut Pcg32, lo: Vec2, hi: Vec2, r: f32, placed: &[(Vec2, f32)]) -> Option<Vec2> {
    (0..30).find_map(|_| {
        let p = Vec2::new(rng.range(lo.x + r, hi.x - r), rng.range(lo.y + r, hi.y - r));
        placed
            .iter()
            .rev()
            .take(64)
            .all(|&(q, s)| q.distance(p) >= r + s + 0.05)
            .then_some(p)
    })
}

/// 5 000 agents among 5 000 pillars in a walled 160 m square: 60 % seek one of 8 shared points,
/// the others a random point; a third first walk to a random point on the way.
pub fn pillars(seed: u64) -> Scene {
    let mut rng = Pcg32::new(seed, 0x9111A);
    let half = 80.0;
    let world = (Vec2::splat(-half), Vec2::splat(half));
    let mut obstacles = enclosure(world);
    let per_side = 71;
    let spacing = 2.0 * half / per_side as f32;
    let mut cells: Vec<(usize, usize)> = (0..per_side)
        .flat_map(|i| (0..per_side).map(move |j| (i, j)))
        .collect();
    // Drop 41 cells at random: 5 000 pillars.
    for _ in 0..per_side * per_side - 5000 {
        let k = rng.int(0, cells.len() as u32 - 1) as usize;
        cells.swap_remove(k);
    }
    cells.sort_unstable();
    for &(i, j) in &cells {
        let c = world.0 + (Vec2::new(i as f32, j as f32) + 0.5) * spacing;
        let h = Vec2::new(rng.range(0.2, 0.45), rng.range(0.2, 0.45));
        obstacles.push(Obstacle::Box {
            min: Vec3::new(c.x - h.x, 0.0, c.y - h.y),
            max: Vec3::new(c.x + h.x, 0.0, c.y + h.y),
        });
    }
    // Agents and goals stand between pillars: on the lines half-way between pillar centres.
    let lane = |rng: &mut Pcg32| {
        let i = rng.int(1, per_side as u32 - 1) as f32;
        let j = rng.int(0, per_side as u32 - 1) as f32 + 0.5;
        let t = rng.range(0.0, 1.0) - 0.5;
        let p = if rng.unit() < 0.5 {
            Vec2::new(i, j + t)
        } else {
            Vec2::new(j + t, i)
        };
        world.0 + p * spacing
    };
    let shared: Vec<Vec2> = (0..8).map(|_| lane(&mut rng)).collect();
    let mut agents = Vec::new();
    // Agents placed, by 1 m cell: a new one keeps 1 m from every other.
    let mut taken: std::collections::HashMap<(i32, i32), Vec<Vec2>> = Default::default();
    let key = |p: Vec2| (p.x.floor() as i32, p.y.floor() as i32);
    while agents.len() < 5000 {
        let p = lane(&mut rng);
        let (cx, cz) = key(p);
        let near = (-1..=1).any(|dx| {
            (-1..=1).any(|dz| {
                taken
                    .get(&(cx + dx, cz + dz))
                    .is_some_and(|v| v.iter().any(|q| q.distance(p) < 1.0))
            })
        });
        if near {
            continue;
        }
        let last = if rng.unit() < 0.6 {
            shared[rng.int(0, 7) as usize]
        } else {
            lane(&mut rng)
        };
        let mut goals = Vec::new();
        if rng.unit() < 1.0 / 3.0 {
            goals.push(seek(lane(&mut rng)));
        }
        goals.push(seek(last));
        let a = agent(p, &mut rng, goals);
        taken.entry(key(p)).or_default().push(p);
        agents.push(a);
    }
    finish(
        format!("pillars 5000+5000 (seed {seed})"),
        world,
        obstacles,
        agents,
        Vec::new(),
    )
}

/// A floor plan for about `n` agents: bands of rooms (doors onto a corridor) and corridors,
/// open at both ends onto aisles down the sides; the aisles lead out at the top and bottom.
/// 70 % of the agents start in rooms, 30 % are emitted in the corridors over time.
pub fn floor(seed: u64, n: usize) -> Scene {
    let mut rng = Pcg32::new(seed, 0xF1002);
    let rooms_needed = (n * 7 / 10).div_ceil(PER_ROOM);
    let cols = ((rooms_needed as f32 / 2.0).sqrt().ceil() as usize).max(2);
    let units = rooms_needed.div_ceil(2 * cols).max(1);
    let unit = 2.0 * ROOM + CORRIDOR;
    let width = cols as f32 * ROOM;
    let height = units as f32 * unit;
    let world = (
        Vec2::new(-CORRIDOR - 1.0, -6.0),
        Vec2::new(width + CORRIDOR + 1.0, height + 6.0),
    );
    let mut obstacles = Vec::new();
    let h = |x0: f32, x1: f32, y: f32| wall(Vec2::new(x0, y), Vec2::new(x1, y));
    let v = |x: f32, y0: f32, y1: f32| wall(Vec2::new(x, y0), Vec2::new(x, y1));
    // Outer side walls of the aisles.
    obstacles.push(v(-CORRIDOR, 0.0, height));
    obstacles.push(v(width + CORRIDOR, 0.0, height));
    let mut rooms = Vec::new();
    for u in 0..units {
        let y0 = u as f32 * unit;
        // Back walls (shared by back-to-back rows).
        obstacles.push(h(0.0, width, y0));
        if u + 1 == units {
            obstacles.push(h(0.0, width, y0 + unit));
        }
        for (row_lo, door_y) in [
            (y0, y0 + ROOM),
            (y0 + ROOM + CORRIDOR, y0 + ROOM + CORRIDOR),
        ] {
            for c in 0..=cols {
                obstacles.push(v(c as f32 * ROOM, row_lo, row_lo + ROOM));
            }
            for c in 0..cols {
                let x0 = c as f32 * ROOM;
                let d = rng.range(x0 + 1.0, x0 + ROOM - 1.0 - DOOR);
                obstacles.push(h(x0, d, door_y));
                obstacles.push(h(d + DOOR, x0 + ROOM, door_y));
                rooms.push((Vec2::new(x0, row_lo), Vec2::new(x0 + ROOM, row_lo + ROOM)));
            }
        }
    }
    let exits = [
        Vec2::new(-0.5 * CORRIDOR, -4.0),
        Vec2::new(width + 0.5 * CORRIDOR, -4.0),
        Vec2::new(-0.5 * CORRIDOR, height + 4.0),
        Vec2::new(width + 0.5 * CORRIDOR, height + 4.0),
    ];
    let nearest_exit = |p: Vec2| {
        *exits
            .iter()
            .min_by(|a, b| a.distance(p).total_cmp(&b.distance(p)))
            .unwrap_or(&exits[0])
    };
    let exit_goal = |p: Vec2| {
        let e = nearest_exit(p);
        Goal {
            kind: GoalKind::Region(e - Vec2::new(1.5, 1.5), e + Vec2::new(1.5, 1.5)),
            duration: NO_DURATION,
            speed: None,
        }
    };
    let center = |r: (Vec2, Vec2)| 0.5 * (r.0 + r.1);
    // A few rooms many agents visit (shared goals).
    let hubs: Vec<usize> = (0..8)
        .map(|_| rng.int(0, rooms.len() as u32 - 1) as usize)
        .collect();
    let mut agents = Vec::new();
    let placed_n = n * 7 / 10;
    let mut placed: Vec<(Vec2, f32)> = Vec::new();
    'rooms: for (k, r) in rooms.iter().enumerate() {
        for _ in 0..PER_ROOM {
            if agents.len() >= placed_n {
                break 'rooms;
            }
            let rad = 0.4;
            let Some(p) = spot(
                &mut rng,
                r.0 + Vec2::splat(0.3),
                r.1 - Vec2::splat(0.3),
                rad,
                &placed,
            ) else {
                continue;
            };
            let mut goals = Vec::new();
            if rng.unit() < 0.5 {
                let mut visit = hubs[rng.int(0, 7) as usize];
                if visit == k {
                    visit = (k + 1) % rooms.len();
                }
                goals.push(seek(center(rooms[visit])));
            }
            let last = goals.last().and_then(|g| g.kind.point()).unwrap_or(p);
            goals.push(exit_goal(last));
            let a = agent(p, &mut rng, goals);
            placed.push((p, a.radius));
            agents.push(a);
        }
    }
    // Emitters in the corridors: each sends its agents to a room, then out.
    let emitted = n - agents.len();
    let count = emitted.div_ceil(2 * units).max(1);
    let mut emitters = Vec::new();
    let mut left = emitted;
    for u in 0..units {
        for side in [0.25f32, 0.75] {
            if left == 0 {
                break;
            }
            let p = Vec2::new(side * width, u as f32 * unit + ROOM + 0.5 * CORRIDOR);
            let room = rooms[rng.int(0, rooms.len() as u32 - 1) as usize];
            let goals = vec![seek(center(room)), exit_goal(center(room))];
            let a = agent(p, &mut rng, goals);
            let c = count.min(left);
            left -= c;
            emitters.push(EmitterSpec {
                agent: a,
                interval: rng.range(0.7, 1.5),
                count: c,
                start: rng.range(0.0, 5.0),
            });
        }
    }
    finish(
        format!("floor {cols}x{} rooms, {n} agents (seed {seed})", 2 * units),
        world,
        obstacles,
        agents,
        emitters,
    )
}

/// Which generated scenes `--large N` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The second scene a field of pillars, the others floor plans.
    Mixed,
    /// Floor plans only.
    Floors,
    /// Fields of pillars only.
    Pillars,
}

impl std::str::FromStr for Kind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "mixed" => Ok(Self::Mixed),
            "floors" => Ok(Self::Floors),
            "pillars" => Ok(Self::Pillars),
            _ => Err(format!("--kind {s}: mixed, floors or pillars")),
        }
    }
}

impl Kind {
    /// The `k`-th scene of a run starting at seed `first`.
    fn scene(self, k: usize, first: u64) -> Scene {
        let seed = first + k as u64;
        if self == Self::Pillars || (self == Self::Mixed && k == 1) {
            pillars(seed)
        } else {
            let mut rng = Pcg32::new(seed, 0xA6E47);
            floor(seed, rng.int(1000, 10_000) as usize)
        }
    }
}

/// Sets every agent's limit and the scene's run time.
fn finish(
    name: String,
    world: (Vec2, Vec2),
    obstacles: Vec<Obstacle>,
    mut agents: Vec<AgentSpec>,
    mut emitters: Vec<EmitterSpec>,
) -> Scene {
    let mut limit: f32 = 0.0;
    for a in &mut agents {
        let d = deadline(a.ideal_length, a.speed);
        a.deadline = Some(d);
        limit = limit.max(d);
    }
    for e in &mut emitters {
        let d = deadline(e.agent.ideal_length, e.agent.speed);
        e.agent.deadline = Some(d);
        // The last one may wait for its spot: allow twice the emission time.
        limit = limit.max(e.start + 2.0 * e.interval * e.count as f32 + d);
    }
    Scene {
        name,
        world,
        obstacles,
        agents,
        emitters,
        time_limit: limit,
    }
}

/// What one large scene gave.
pub struct LargeRun {
    /// The scene's name.
    pub name: String,
    /// Agents (emitted ones included) and obstacles.
    pub agents: usize,
    /// Obstacles.
    pub obstacles: usize,
    /// Percent of the agents that reached every goal, and that did so on time.
    pub reached: f32,
    /// Percent of the agents that reached every goal within their time limit.
    pub on_time: f32,
    /// Agents blocked for [`GRIDLOCK`] seconds or more at a stretch.
    pub gridlock: usize,
    /// Agents that had not reached every goal when the run ended: within [`NEAR_GOAL`] of the
    /// goal they were on (queued at it), and the rest (held on the way, or never emitted).
    pub short: (usize, usize),
    /// How the shared goals took their agents in.
    pub intake: Intake,
    /// Deepest agent–agent overlap, percent of a radius.
    pub deepest: f32,
    /// Agent–obstacle collisions.
    pub obstacle_collisions: usize,
    /// Mean and longest step, ms.
    pub step_ms: (f64, f64),
    /// Simulated seconds.
    pub simulated: f32,
}

impl LargeRun {
    /// The scene as a row of the table [`TABLE_HEAD`] heads.
    pub fn row(&self) -> String {
        format!(
            "| {} | {} | {} | {:.1} % | {:.1} % | {} | {} / {} | {} / {} | {:.2} ({:.2}–{:.2}) | {:.1} | {} | {:.2} / {:.1} | {:.0} |",
            self.name,
            self.agents,
            self.obstacles,
            self.reached,
            self.on_time,
            self.gridlock,
            self.short.0,
            self.short.1,
            self.intake.jammed,
            self.intake.points,
            self.intake.rate.0,
            self.intake.rate.1,
            self.intake.rate.2,
            self.deepest,
            self.obstacle_collisions,
            self.step_ms.0,
            self.step_ms.1,
            self.simulated
        )
    }
}

/// The head of the table of large scenes.
pub const TABLE_HEAD: &str = "| scene | agents | obstacles | reached | on time | gridlock | not done: at goal / elsewhere | shared goals: jammed / all | intake (agents/s): mean (range) | deepest a-a (% r) | coll a-o | ms/step mean / max | simulated (s) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

/// How near the goal it was on an agent that had not reached every goal when the run ended
/// counts as queued at that goal, metres.
pub const NEAR_GOAL: f32 = 5.0;

/// Agents that must share a final goal point for it to count as a shared goal.
pub const SHARED_MIN: usize = 20;

/// How the shared goals of a run (final goal points of [`SHARED_MIN`] agents or more) took
/// their agents in.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Intake {
    /// Shared goals.
    pub points: usize,
    /// Shared goals that took no agent in over the last [`GRIDLOCK`] seconds of the run while
    /// agents were still bound for them (none in a run shorter than that).
    pub jammed: usize,
    /// Agents each took in per second (the mean over the points, the least and the most): over
    /// the run, or, for a point every agent bound for it reached, until the last arrived.
    pub rate: (f32, f32, f32),
}

/// The [`Intake`] of a run `end` seconds long, given each agent's last goal point (`None`: no
/// point), the run time it reached that goal (`None`: not), and whether it was still bound for
/// it when the run ended.
pub fn intake(agents: impl Iterator<Item = (Option<Vec2>, Option<f32>, bool)>, end: f32) -> Intake {
    // Per point (by its bits, in a fixed order): agents, arrivals, the last arrival, and
    // whether any agent was still bound for it.
    let mut per: BTreeMap<(u32, u32), (usize, usize, f32, bool)> = BTreeMap::new();
    for (point, reached, bound) in agents {
        let Some(p) = point else { continue };
        let e = per
            .entry((p.x.to_bits(), p.y.to_bits()))
            .or_insert((0, 0, 0.0, false));
        e.0 += 1;
        if let Some(t) = reached {
            e.1 += 1;
            e.2 = e.2.max(t);
        }
        e.3 |= bound;
    }
    let mut out = Intake {
        rate: (0.0, f32::INFINITY, 0.0),
        ..Intake::default()
    };
    for &(_, arrived, last, bound) in per.values().filter(|e| e.0 >= SHARED_MIN) {
        out.points += 1;
        // (`last` is 0 for a point none reached: jammed once the run is GRIDLOCK long.)
        if bound && last <= end - GRIDLOCK {
            out.jammed += 1;
        }
        let span = if bound { end } else { last };
        let rate = if span > 0.0 {
            arrived as f32 / span
        } else {
            0.0
        };
        out.rate.0 += rate;
        out.rate.1 = out.rate.1.min(rate);
        out.rate.2 = out.rate.2.max(rate);
    }
    if out.points == 0 {
        out.rate = (0.0, 0.0, 0.0);
    } else {
        out.rate.0 /= out.points as f32;
    }
    out
}

/// Of agents that had not reached every goal, given as (where each stands, the point of the
/// goal it was on): how many stood within [`NEAR_GOAL`] of that point, and how many farther
/// (or on a goal with no point).
pub fn short_of_goals(left: impl Iterator<Item = (Vec2, Option<Vec2>)>) -> (usize, usize) {
    left.fold((0, 0), |(near, far), (p, goal)| {
        if goal.is_some_and(|g| p.distance(g) <= NEAR_GOAL) {
            (near + 1, far)
        } else {
            (near, far + 1)
        }
    })
}

/// Which large scenes to run, and how many at a time.
#[derive(Clone, Copy, Debug)]
pub struct Batch {
    /// Scenes: scene k is of seed `first + k`.
    pub n: usize,
    /// The first scene's seed.
    pub first: u64,
    /// Their kind.
    pub kind: Kind,
    /// Scenes run at a time, each on a thread of its own (the step times are then measured on
    /// a busier machine).
    pub jobs: usize,
}

/// Runs the scenes of `batch`. With `svg`, each scene's trajectories are drawn there too. A
/// scene that cannot be built or run gives an error in its place. The results come in scene
/// order, the same for any number of jobs.
pub fn run_large(
    batch: Batch,
    settings: Settings,
    svg: Option<&Path>,
) -> Vec<Result<LargeRun, String>> {
    let Batch {
        n,
        first,
        kind,
        jobs,
    } = batch;
    let s = Settings {
        arrival: Arrival::Despawn,
        ..settings
    };
    let jobs = jobs.clamp(1, n.max(1));
    // Each thread takes the next scene not yet taken and keeps its results with their scene
    // numbers; put back in scene order.
    let next = AtomicUsize::new(0);
    let mut runs: Vec<(usize, Result<LargeRun, String>)> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= n {
                            return mine;
                        }
                        mine.push((k, run_one(k, first, kind, s, svg)));
                    }
                })
            })
            .collect();
        threads
            .into_iter()
            .flat_map(|t| t.join().expect("a scene's thread panicked"))
            .collect()
    });
    runs.sort_by_key(|r| r.0);
    runs.into_iter().map(|r| r.1).collect()
}

/// Runs scene `k` of [`run_large`] (settings `s`).
fn run_one(
    k: usize,
    first: u64,
    kind: Kind,
    s: Settings,
    svg: Option<&Path>,
) -> Result<LargeRun, String> {
    let seed = first + k as u64;
    let scene = kind.scene(k, first);
    let p = play(&scene, s, svg.is_some()).map_err(|e| format!("{}: {e}", scene.name))?;
    if let Some(dir) = svg {
        let path = dir.join(format!("large-{seed}.svg"));
        if let Err(e) = draw::draw(&scene.name, &scene.obstacles, &p.trace, &path) {
            println!("{}: {e}", path.display());
        }
    }
    let total = scene.total_agents();
    let all_reached = |w: &&super::program::Walker| {
        w.finished.is_some() && w.outcomes.iter().all(|o| matches!(o, Outcome::Reached(_)))
    };
    let walkers = &p.program.walkers;
    let reached = walkers.iter().filter(all_reached).count();
    let on_time = walkers
        .iter()
        .filter(all_reached)
        .filter(|w| {
            w.finished.unwrap_or(0.0) - w.spawned <= w.spec.deadline.unwrap_or(f32::INFINITY)
        })
        .count();
    let m = &p.measures;
    let gridlock = m
        .bodies
        .iter()
        .filter(|b| b.longest_blocked >= GRIDLOCK)
        .count();
    let (near, far) = short_of_goals(
        walkers
            .iter()
            .filter(|w| !all_reached(w))
            .map(|w| (w.position, w.current().and_then(|g| g.point()))),
    );
    // (Agents an emitter had not yet sent when the run ended are short too.)
    let short = (near, far + total.saturating_sub(walkers.len()));
    let intake = intake(
        walkers.iter().map(|w| {
            let last = w.spec.goals.len().checked_sub(1);
            let point = last.and_then(|i| w.spec.goals[i].kind.point());
            let reached = w.finished.filter(|_| {
                matches!(
                    last.and_then(|i| w.outcomes.get(i)),
                    Some(Outcome::Reached(_))
                )
            });
            (point, reached, w.finished.is_none() && Some(w.goal) == last)
        }),
        m.simulated,
    );
    let pct = |k: usize| 100.0 * k as f32 / total.max(1) as f32;
    Ok(LargeRun {
        name: scene.name.clone(),
        agents: total,
        obstacles: scene.obstacles.len(),
        reached: pct(reached),
        on_time: pct(on_time),
        gridlock,
        short,
        intake,
        deepest: 100.0 * m.deepest_agent,
        obstacle_collisions: m.obstacle_collisions,
        step_ms: (m.mean_step_ms(), m.max_step_ms),
        simulated: m.simulated,
    })
}

/// Runs the scenes of `batch` (see [`run_large`]) and prints one line each; returns the exit
/// status (1 when a scene cannot be built or run).
pub fn large(batch: Batch, settings: Settings, svg: Option<&Path>) -> i32 {
    println!("{TABLE_HEAD}");
    let mut status = 0;
    let mut done = Vec::new();
    for r in run_large(batch, settings, svg) {
        match r {
            Ok(r) => {
                println!("{}", r.row());
                done.push(r);
            }
            Err(e) => {
                println!("{e}");
                status = 1;
            }
        }
    }
    if let Some(line) = summary(&done) {
        println!("\n{line}");
    }
    status
}

/// One line over several large scenes (`None` for fewer than two): the share reached, its
/// mean and range, and the agents in gridlock and not done, summed. A single scene's share
/// moves by several points with any change to the model; compare models over many.
pub fn summary(runs: &[LargeRun]) -> Option<String> {
    if runs.len() < 2 {
        return None;
    }
    let reached = runs.iter().map(|r| r.reached);
    let mean = reached.clone().sum::<f32>() / runs.len() as f32;
    let lo = reached.clone().fold(f32::INFINITY, f32::min);
    let hi = reached.fold(f32::NEG_INFINITY, f32::max);
    let gridlock: usize = runs.iter().map(|r| r.gridlock).sum();
    let near: usize = runs.iter().map(|r| r.short.0).sum();
    let far: usize = runs.iter().map(|r| r.short.1).sum();
    Some(format!(
        "{} scenes: reached {mean:.1} % on the mean ({lo:.1}–{hi:.1} %); {gridlock} agents in \
         gridlock; not done: {near} at their goal, {far} elsewhere",
        runs.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::{
        floor, intake, pillars, run_large, short_of_goals, summary, Batch, Intake, Kind, LargeRun,
        NEAR_GOAL, SHARED_MIN,
    };
    use crate::program::Arrival;
    use crate::run::Settings;
    use glam::Vec2;

    #[test]
    fn shared_goals_report_their_intake_and_those_that_stopped_taking_agents_in() {
        let (a, b, c) = (Vec2::ZERO, Vec2::X, Vec2::Y);
        let n = SHARED_MIN;
        let mut agents = Vec::new();
        // a: all reached, the last at 50 s: n agents in 50 s.
        agents.extend((0..n).map(|i| (Some(a), Some(50.0 * (i + 1) as f32 / n as f32), false)));
        // b: half reached by 30 s, half still bound for it at the end of a 100 s run (jammed).
        agents.extend((0..n / 2).map(|_| (Some(b), Some(30.0), false)));
        agents.extend((0..n / 2).map(|_| (Some(b), None, true)));
        // c: too few agents to count; no point: not counted.
        agents.extend((0..n - 1).map(|_| (Some(c), None, true)));
        agents.push((None, None, true));
        let got = intake(agents.into_iter(), 100.0);
        let (ra, rb) = (n as f32 / 50.0, (n / 2) as f32 / 100.0);
        assert_eq!(got.points, 2);
        assert_eq!(got.jammed, 1);
        assert_eq!(got.rate, (0.5 * (ra + rb), rb, ra));
        // An arrival within the last 60 s: still taking agents in, not jammed.
        let late = [(Some(b), Some(41.0), false), (Some(b), None, true)];
        let agents = late.into_iter().cycle().take(n);
        assert_eq!(intake(agents, 100.0).jammed, 0);
        // None reached yet: jammed only once the run is 60 s long.
        let none = || std::iter::repeat_n((Some(b), None, true), n);
        assert_eq!(intake(none(), 59.0).jammed, 0);
        assert_eq!(intake(none(), 60.0).jammed, 1);
        assert_eq!(intake(std::iter::empty(), 10.0), Intake::default());
    }

    #[test]
    fn scenes_run_side_by_side_give_the_same_results_in_the_same_order() {
        let settings = Settings {
            dt: 0.1,
            threads: 1,
            arrival: Arrival::Despawn,
            max_time: 3.0,
        };
        let key = |runs: Vec<Result<LargeRun, String>>| -> Vec<_> {
            runs.into_iter()
                .map(|r| {
                    let r = r.unwrap();
                    // (Everything but the step times.)
                    (
                        r.name, r.agents, r.reached, r.gridlock, r.short, r.intake, r.deepest,
                    )
                })
                .collect()
        };
        // Floor plans of 1 711 and 1 217 agents, their first 3 s.
        let batch = |jobs| Batch {
            n: 2,
            first: 6,
            kind: Kind::Floors,
            jobs,
        };
        let one = key(run_large(batch(1), settings, None));
        let two = key(run_large(batch(2), settings, None));
        assert_eq!(one.len(), 2);
        assert!(one[0].0.contains("1711 agents") && one[1].0.contains("1217 agents"));
        assert_eq!(one, two);
    }

    #[test]
    fn the_kind_picks_the_scenes() {
        let names = |kind: Kind| -> Vec<String> { (0..3).map(|k| kind.scene(k, 5).name).collect() };
        let floors = names(Kind::Floors);
        let pillars = names(Kind::Pillars);
        assert!(floors.iter().all(|n| n.starts_with("floor")));
        assert_eq!(pillars[2], "pillars 5000+5000 (seed 7)");
        assert_eq!(
            names(Kind::Mixed),
            vec![floors[0].clone(), pillars[1].clone(), floors[2].clone()]
        );
        assert_eq!("pillars".parse::<Kind>(), Ok(Kind::Pillars));
        assert!("rooms".parse::<Kind>().is_err());
    }

    #[test]
    fn several_large_scenes_sum_up_in_one_line() {
        let run = |reached: f32, gridlock: usize, short: (usize, usize)| LargeRun {
            name: "s".into(),
            agents: 100,
            obstacles: 0,
            reached,
            on_time: reached,
            gridlock,
            short,
            intake: Intake::default(),
            deepest: 0.0,
            obstacle_collisions: 0,
            step_ms: (1.0, 2.0),
            simulated: 10.0,
        };
        assert_eq!(summary(&[run(90.0, 3, (1, 9))]), None);
        let line = summary(&[run(90.0, 3, (1, 9)), run(70.0, 5, (2, 28))]).unwrap();
        assert_eq!(
            line,
            "2 scenes: reached 80.0 % on the mean (70.0–90.0 %); 8 agents in gridlock; not \
             done: 3 at their goal, 37 elsewhere"
        );
    }

    #[test]
    fn agents_short_of_their_goals_split_at_five_metres_from_the_goal_they_were_on() {
        let g = Some(Vec2::new(10.0, 0.0));
        let left = [
            (Vec2::new(10.0, 0.0), g),
            (Vec2::new(10.0 - NEAR_GOAL, 0.0), g),
            (Vec2::new(10.0 - NEAR_GOAL - 0.01, 0.0), g),
            (Vec2::ZERO, None),
        ];
        assert_eq!(short_of_goals(left.into_iter()), (2, 2));
        assert_eq!(short_of_goals(std::iter::empty()), (0, 0));
    }

    #[test]
    fn the_pillars_scene_holds_5000_agents_apart_among_5000_pillars() {
        let s = pillars(1);
        assert_eq!((s.agents.len(), s.obstacles.len()), (5000, 5004));
        let mut p: Vec<_> = s.agents.iter().map(|a| a.position).collect();
        p.sort_by(|a, b| a.x.total_cmp(&b.x));
        for (i, a) in p.iter().enumerate() {
            for b in p[i + 1..].iter().take_while(|b| b.x - a.x < 1.0) {
                assert!(a.distance(*b) >= 1.0 - 1e-4, "{a} {b}");
            }
        }
        assert_eq!(pillars(1).agents, s.agents);
    }

    #[test]
    fn a_floor_plan_holds_its_agents_clear_of_its_walls() {
        let s = floor(7, 1217);
        assert_eq!(s.total_agents(), 1217);
        assert!(!s.emitters.is_empty());
        for a in s.agents.iter().chain(s.emitters.iter().map(|e| &e.agent)) {
            for o in &s.obstacles {
                let d = o.shape().unwrap().contact(a.position).distance;
                assert!(d >= a.radius - 1e-4, "{} in a wall", a.position);
            }
        }
    }
}
