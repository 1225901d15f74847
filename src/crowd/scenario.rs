//! Built-in scenes and what a run of one measures.
//!
//! Scenes: circle-N antipodal swap ([`Scenario::circle`], positions exactly on the circle, so
//! a perfectly symmetric scene for a symmetric rule), two crossing flows, a doorway
//! (bottleneck), a two-way hallway and a seeded random obstacle field. [`Scenario::run`]
//! steps a scene and measures, by brute force in f64 independent of the step's grid: arrival
//! times against the ideal (straight distance / speed), the deepest agent–agent and
//! agent–obstacle penetrations and the fastest turn.

use glam::{Vec2, Vec3};

use super::agent::{AgentState, RouteMode};
use super::obstacle::Obstacle;
use super::simulator::{AgentId, Crowd};

/// The least distance between neighbouring agents' starts in [`Scenario::obstacle_field`],
/// metres (radius 0.3: a gap of 0.05 m).
const FIELD_SPACING: f32 = 0.65;

/// A tiny deterministic generator (splitmix64) for seeded scenes.
///
/// ```
/// use wayfarer::crowd::scenario::SplitMix;
///
/// let mut a = SplitMix(7);
/// let mut b = SplitMix(7);
/// assert_eq!(a.next_u64(), b.next_u64()); // the same seed, the same numbers
/// let x = a.range(-1.0, 1.0);
/// assert!((-1.0..1.0).contains(&x));
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }
}

/// A crowd set up for a test, with the ideal time of each agent.
///
/// ```
/// use wayfarer::crowd::scenario::Scenario;
///
/// let mut scene = Scenario::circle(8, 10.0, 0.3, 1.5); // 8 agents swap across a 10 m circle
/// let report = scene.run(60.0, 1, None);
/// assert_eq!(report.arrived, 1.0);
/// ```
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Scene name.
    pub name: String,
    /// The crowd.
    pub crowd: Crowd,
    /// The agents, in creation order.
    pub agents: Vec<AgentId>,
    /// Straight-line distance / speed for each agent, seconds.
    pub ideal: Vec<f32>,
    /// Time step to run it at, seconds.
    pub dt: f32,
}

/// What [`Scenario::run`] measured.
///
/// ```
/// use wayfarer::crowd::scenario::Scenario;
///
/// let report = Scenario::crossing(10).run(120.0, 1, None);
/// assert_eq!(report.obstacle_penetrations, 0);
/// assert!(report.max_turn_ratio <= 1.0 + 1e-4); // the turn-rate cap held
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Simulated seconds.
    pub time: f32,
    /// Steps taken.
    pub steps: usize,
    /// Fraction of agents arrived at the end.
    pub arrived: f32,
    /// Arrival time of each agent (`None`: not arrived).
    pub arrival: Vec<Option<f32>>,
    /// 95th percentile of arrival time / ideal time (infinite if any of that 95 % never
    /// arrived).
    pub p95_ratio: f32,
    /// Deepest agent–agent overlap over the run, as a fraction of the smaller radius.
    pub max_agent_penetration: f32,
    /// Deepest agent–obstacle overlap over the run, metres.
    pub max_obstacle_penetration: f32,
    /// Agent–obstacle overlaps deeper than 1 mm, counted per step and agent.
    pub obstacle_penetrations: usize,
    /// Fastest turn over the run / the agent's cap (≤ 1 when the cap holds).
    pub max_turn_ratio: f32,
}

impl Scenario {
    fn empty(name: &str, capacity: usize) -> Self {
        Self {
            name: name.into(),
            crowd: Crowd::new(capacity).expect("capacity in range"),
            agents: Vec::new(),
            ideal: Vec::new(),
            dt: 0.1,
        }
    }

    /// Adds an agent walking from `from` to `to`, facing its target.
    pub fn walker(&mut self, from: Vec2, to: Vec2, speed: f32, radius: f32) -> AgentId {
        let d = to - from;
        let yaw = d.x.atan2(d.y);
        let id = self
            .crowd
            .add_agent(Vec3::new(from.x, 0.0, from.y), yaw, speed, radius)
            .expect("valid agent");
        self.crowd
            .set_target(id, Vec3::new(to.x, 0.0, to.y), radius)
            .expect("valid target");
        self.agents.push(id);
        self.ideal.push(((d.length() - radius).max(0.0)) / speed);
        id
    }

    /// `n` agents evenly on a circle of radius `circle`, each walking to the antipode
    /// (RVO2's Circle example is `circle(250, 200.0, 1.5, 2.0)`). Exact positions: the scene
    /// is symmetric up to float rounding.
    pub fn circle(n: usize, circle: f32, radius: f32, speed: f32) -> Self {
        let mut s = Self::empty(&format!("circle-{n}"), n);
        s.dt = 0.25;
        let mut d = s.crowd.agent_defaults();
        d.fov_range = 4.0 * radius + 2.0 * speed;
        s.crowd.set_agent_defaults(d).expect("valid defaults");
        for i in 0..n {
            let a = i as f32 * core::f32::consts::TAU / n as f32;
            let p = Vec2::new(a.cos(), a.sin()) * circle;
            s.walker(p, -p, speed, radius);
        }
        s
    }

    /// Two perpendicular flows of `n` agents each crossing at the origin.
    pub fn crossing(n: usize) -> Self {
        let mut s = Self::empty("crossing", 2 * n);
        let cols = (n as f32).sqrt().ceil() as usize;
        for i in 0..n {
            let (row, col) = ((i / cols) as f32, (i % cols) as f32);
            let lateral = (col - cols as f32 / 2.0) * 1.2 + 0.1 * (row % 2.0);
            let back = 12.0 + row * 1.2;
            s.walker(
                Vec2::new(-back, lateral),
                Vec2::new(30.0 - back, lateral),
                1.3,
                0.3,
            );
            s.walker(
                Vec2::new(lateral, -back),
                Vec2::new(lateral, 30.0 - back),
                1.3,
                0.3,
            );
        }
        s
    }

    /// `n` agents walking through a doorway `width` metres wide in a wall along x = 0.
    pub fn bottleneck(n: usize, width: f32) -> Self {
        let mut s = Self::empty("bottleneck", n);
        s.crowd
            .add_obstacle(Obstacle::Box {
                min: Vec3::new(-0.5, 0.0, width / 2.0),
                max: Vec3::new(0.5, 0.0, 30.0),
            })
            .expect("valid box");
        s.crowd
            .add_obstacle(Obstacle::Box {
                min: Vec3::new(-0.5, 0.0, -30.0),
                max: Vec3::new(0.5, 0.0, -width / 2.0),
            })
            .expect("valid box");
        let mut d = s.crowd.agent_defaults();
        d.route_mode = RouteMode::Planned;
        s.crowd.set_agent_defaults(d).expect("valid defaults");
        let cols = 8;
        for i in 0..n {
            let (row, col) = ((i / cols) as f32, (i % cols) as f32);
            let from = Vec2::new(-4.0 - row * 1.0, (col - 3.5) * 1.0 + 0.05 * row);
            let to = Vec2::new(12.0 + row * 0.9, (col - 3.5) * 1.0);
            s.walker(from, to, 1.3, 0.3);
        }
        s
    }

    /// A corridor `width` wide along x with walls as segments; `n` agents each way, in rows
    /// 1 m apart from 30 m out, every row inside the walls (80 m long, longer when the rows
    /// reach past 39 m).
    pub fn hallway(n: usize, width: f32) -> Self {
        let mut s = Self::empty("hallway", 2 * n);
        let lanes = ((width - 0.8) / 0.9).floor().max(1.0) as usize;
        let rows = n.div_ceil(lanes);
        let half = (31.0 + rows.saturating_sub(1) as f32).max(40.0);
        for z in [-width / 2.0, width / 2.0] {
            s.crowd
                .add_obstacle(Obstacle::Wall {
                    a: Vec3::new(-half, 0.0, z),
                    b: Vec3::new(half, 0.0, z),
                })
                .expect("valid wall");
        }
        for i in 0..n {
            let (row, lane) = ((i / lanes) as f32, (i % lanes) as f32);
            let z = -width / 2.0 + 0.6 + lane * 0.9;
            s.walker(
                Vec2::new(-30.0 - row * 1.0, z),
                Vec2::new(30.0 - row * 1.0, z),
                1.3,
                0.3,
            );
            s.walker(
                Vec2::new(30.0 + row * 1.0, -z),
                Vec2::new(-30.0 + row * 1.0, -z),
                1.3,
                0.3,
            );
        }
        s
    }

    /// `n` agents crossing a square field of `obstacles` random circles and boxes (seeded).
    pub fn obstacle_field(n: usize, obstacles: usize, seed: u64) -> Self {
        let mut s = Self::empty("obstacle-field", n);
        let mut rng = SplitMix(seed);
        let half = 20.0;
        let mut placed: Vec<(Vec2, f32)> = Vec::new();
        while placed.len() < obstacles {
            let c = Vec2::new(rng.range(-half + 4.0, half - 4.0), rng.range(-half, half));
            let r = rng.range(0.4, 1.5);
            if placed.iter().any(|(p, q)| p.distance(c) < r + q + 1.4) {
                continue;
            }
            placed.push((c, r));
            let ob = if rng.next_u64().is_multiple_of(2) {
                Obstacle::Circle {
                    center: Vec3::new(c.x, 0.0, c.y),
                    radius: r,
                }
            } else {
                Obstacle::OrientedBox {
                    center: Vec3::new(c.x, 0.0, c.y),
                    half_x: r * 0.7,
                    half_z: r * 0.5,
                    yaw: rng.range(0.0, 3.1),
                }
            };
            s.crowd.add_obstacle(ob).expect("valid obstacle");
        }
        let mut d = s.crowd.agent_defaults();
        d.route_mode = RouteMode::Planned;
        s.crowd.set_agent_defaults(d).expect("valid defaults");
        // One column each side while its agents stand at least FIELD_SPACING apart; more
        // columns, 0.8 m apart outward, when they would not (before, 150 agents started 0.53 m
        // apart, overlapping by 22 % of a radius).
        let per_side = n.div_ceil(2);
        let columns = ((per_side as f32 * FIELD_SPACING / (2.0 * half)).ceil() as usize).max(1);
        let rows = per_side.div_ceil(columns);
        for i in 0..n {
            let z = if columns == 1 {
                -half + (i as f32 + 0.5) * 2.0 * half / n as f32
            } else {
                -half + ((i / 2 / columns) as f32 + 0.5) * 2.0 * half / rows as f32
            };
            let x = half + 2.0 + ((i / 2) % columns) as f32 * 0.8;
            let (from, to) = if i % 2 == 0 {
                (Vec2::new(-x, z), Vec2::new(half + 2.0, -z * 0.5))
            } else {
                (Vec2::new(x, z), Vec2::new(-half - 2.0, -z * 0.5))
            };
            s.walker(from, to, 1.3, 0.3);
        }
        s
    }

    /// The speed benchmark's scene (`benches/crowd.rs`, `examples/crowd_timer.rs`): `n`
    /// agents (r 0.3 m, 1.3 m/s, random headings) at one per 16 m² of a square, each crossing
    /// to its mirror point through the centre, among `n / 10` random circles and oriented boxes
    /// (0.3–1 m), direct routes, seed 42.
    pub fn benchmark(n: usize) -> Self {
        let mut s = Self::empty("benchmark", n);
        let half = (n as f32 * 16.0).sqrt() / 2.0;
        let mut rng = SplitMix(42);
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
            s.crowd.add_obstacle(ob).expect("valid obstacle");
        }
        for _ in 0..n {
            let p = Vec2::new(rng.range(-half, half), rng.range(-half, half));
            let yaw = rng.range(-3.1, 3.1);
            let id = s
                .crowd
                .add_agent(Vec3::new(p.x, 0.0, p.y), yaw, 1.3, 0.3)
                .expect("valid agent");
            s.crowd
                .set_target(id, Vec3::new(-p.x, 0.0, -p.y), 0.3)
                .expect("valid target");
            s.agents.push(id);
            s.ideal.push(2.0 * p.length() / 1.3);
        }
        s
    }

    /// Steps until every agent has arrived or `max_time` passes, measuring as it goes.
    /// `trace`, if given, receives every agent's position after every step.
    pub fn run(
        &mut self,
        max_time: f32,
        threads: usize,
        mut trace: Option<&mut Vec<Vec<Vec2>>>,
    ) -> Report {
        let n = self.agents.len();
        let mut arrival = vec![None; n];
        let mut max_pen = 0.0f64;
        let mut max_obs = 0.0f64;
        let mut obs_count = 0;
        let mut max_turn = 0.0f32;
        let shapes: Vec<_> = self
            .crowd
            .obstacles()
            .filter_map(|(_, o)| o.shape())
            .collect();
        let mut time = 0.0f32;
        let mut steps = 0;
        if let Some(t) = trace.as_deref_mut() {
            t.clear();
            t.resize(n, Vec::new());
        }
        while time < max_time {
            let before: Vec<f32> = self
                .agents
                .iter()
                .map(|&id| self.crowd.agent(id).expect("live").yaw)
                .collect();
            self.crowd.step(self.dt, threads).expect("valid step");
            time += self.dt;
            steps += 1;
            let mut all = true;
            let snap: Vec<(glam::DVec2, f64)> = self
                .agents
                .iter()
                .map(|&id| {
                    let a = self.crowd.agent(id).expect("live");
                    (
                        glam::DVec2::new(a.position.x as f64, a.position.z as f64),
                        a.radius as f64,
                    )
                })
                .collect();
            for (i, &id) in self.agents.iter().enumerate() {
                let a = self.crowd.agent(id).expect("live");
                if a.state() == AgentState::Arrived {
                    arrival[i].get_or_insert(time);
                } else {
                    all = false;
                }
                let turn = (a.yaw - before[i]).abs();
                let turn = turn.min(core::f32::consts::TAU - turn);
                max_turn = max_turn.max(turn / (a.max_turn_rate * self.dt));
                for sh in &shapes {
                    let c = sh.contact(Vec2::new(a.position.x, a.position.z));
                    let pen = a.radius as f64 - c.distance as f64;
                    if pen > 1e-3 {
                        obs_count += 1;
                    }
                    max_obs = max_obs.max(pen);
                }
                if let Some(t) = trace.as_deref_mut() {
                    t[i].push(Vec2::new(a.position.x, a.position.z));
                }
            }
            for i in 0..n {
                for j in i + 1..n {
                    let (pi, ri) = snap[i];
                    let (pj, rj) = snap[j];
                    let pen = ri + rj - pi.distance(pj);
                    if pen > 0.0 {
                        max_pen = max_pen.max(pen / ri.min(rj));
                    }
                }
            }
            if all {
                break;
            }
        }
        let mut ratios: Vec<f32> = arrival
            .iter()
            .zip(&self.ideal)
            .map(|(a, &ideal)| a.map_or(f32::INFINITY, |t| t / ideal.max(self.dt)))
            .collect();
        ratios.sort_by(f32::total_cmp);
        let p95 = ratios
            .get(((n as f32 * 0.95).ceil() as usize).saturating_sub(1))
            .copied()
            .unwrap_or(0.0);
        Report {
            time,
            steps,
            arrived: arrival.iter().filter(|a| a.is_some()).count() as f32 / n.max(1) as f32,
            arrival,
            p95_ratio: p95,
            max_agent_penetration: max_pen as f32,
            max_obstacle_penetration: max_obs.max(0.0) as f32,
            obstacle_penetrations: obs_count,
            max_turn_ratio: max_turn,
        }
    }
}
