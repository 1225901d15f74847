//! Reads a SteerSuite test case (`SteerBenchTestCase` XML, see TestCaseSchema.xsd) into a
//! crowd: agents, agent regions (seeded RNG), boxes, circles, oriented boxes, obstacle regions
//! and goal sequences (static targets; a direction goal becomes a target far along it).

use glam::{Vec2, Vec3};
use quick_xml::events::Event;
use quick_xml::Reader;
use wayfarer::crowd::scenario::SplitMix;
use wayfarer::crowd::{AgentId, Crowd, Obstacle, RouteMode};

/// One XML element: local name, text, children.
#[derive(Debug, Default)]
struct Node {
    name: String,
    text: String,
    children: Vec<Node>,
}

impl Node {
    fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }
    fn num(&self, name: &str) -> Option<f32> {
        self.child(name)?.text.trim().parse().ok()
    }
    fn is_random(&self) -> bool {
        self.child("random")
            .is_some_and(|r| r.text.trim() == "true")
    }
    fn vec(&self) -> Option<Vec3> {
        Some(Vec3::new(self.num("x")?, self.num("y")?, self.num("z")?))
    }
    fn bounds(&self) -> Option<(Vec2, Vec2)> {
        Some((
            Vec2::new(self.num("xmin")?, self.num("zmin")?),
            Vec2::new(self.num("xmax")?, self.num("zmax")?),
        ))
    }
}

fn parse(xml: &str) -> Result<Node, String> {
    let mut reader = Reader::from_str(xml);
    reader.config_mut().trim_text(true);
    let mut stack = vec![Node::default()];
    loop {
        match reader.read_event().map_err(|e| e.to_string())? {
            Event::Start(e) => stack.push(Node {
                name: e.local_name().as_ref().to_string(),
                ..Node::default()
            }),
            Event::Empty(e) => {
                let n = Node {
                    name: e.local_name().as_ref().to_string(),
                    ..Node::default()
                };
                stack.last_mut().ok_or("unbalanced")?.children.push(n);
            }
            Event::Text(t) => {
                stack
                    .last_mut()
                    .ok_or("unbalanced")?
                    .text
                    .push_str(&t.into_inner());
            }
            Event::End(_) => {
                let n = stack.pop().ok_or("unbalanced")?;
                stack.last_mut().ok_or("unbalanced")?.children.push(n);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let root = stack.pop().ok_or("empty")?;
    root.children
        .into_iter()
        .find(|n| n.name == "SteerBenchTestCase")
        .ok_or_else(|| "no SteerBenchTestCase element".into())
}

/// An agent of a case: its id, its goals in order, and its walking speed.
pub struct CaseAgent {
    pub id: AgentId,
    pub goals: Vec<Vec3>,
    pub speed: f32,
    pub radius: f32,
    pub start: Vec3,
}

/// A loaded case.
pub struct Case {
    pub name: String,
    pub crowd: Crowd,
    pub agents: Vec<CaseAgent>,
    pub time_limit: f32,
}

struct Spec {
    position: Vec3,
    direction: Vec3,
    radius: f32,
    goals: Vec<Vec3>,
    speed: f32,
}

fn inside_obstacle(obstacles: &[Obstacle], p: Vec2, clearance: f32) -> bool {
    obstacles
        .iter()
        .any(|o| o.shape().is_some_and(|s| s.contact(p).distance < clearance))
}

fn goals(
    seq: Option<&Node>,
    start: Vec3,
    world: (Vec2, Vec2),
    rng: &mut SplitMix,
    obstacles: &[Obstacle],
    radius: f32,
) -> (Vec<Vec3>, f32) {
    let mut out = Vec::new();
    let mut speed: f32 = 1.33;
    let mut from = start;
    if let Some(seq) = seq {
        for g in &seq.children {
            if let Some(s) = g.num("desiredSpeed") {
                speed = s;
            }
            let target = g.child("targetLocation");
            let p = match target {
                Some(t) if t.is_random() => loop {
                    let p = Vec2::new(
                        rng.range(world.0.x + 1.0, world.1.x - 1.0),
                        rng.range(world.0.y + 1.0, world.1.y - 1.0),
                    );
                    if !inside_obstacle(obstacles, p, 2.0 * radius) {
                        break Vec3::new(p.x, from.y, p.y);
                    }
                },
                Some(t) if t.vec().is_some() => t.vec().unwrap_or(from),
                _ => {
                    // A direction goal: walk along it to 30 m away (inside the world).
                    let d = g
                        .child("targetDirection")
                        .and_then(Node::vec)
                        .unwrap_or(Vec3::X);
                    let d = Vec3::new(d.x, 0.0, d.z).normalize_or(Vec3::X);
                    let p = from + d * 30.0;
                    Vec3::new(
                        p.x.clamp(world.0.x + 1.0, world.1.x - 1.0),
                        from.y,
                        p.z.clamp(world.0.y + 1.0, world.1.y - 1.0),
                    )
                }
            };
            out.push(p);
            from = p;
        }
    }
    if out.is_empty() {
        out.push(start);
    }
    (out, speed)
}

/// Loads a case from XML text; `seed` drives every random choice.
pub fn load(xml: &str, name: &str, seed: u64) -> Result<Case, String> {
    let root = parse(xml)?;
    let name = name.to_string();
    let world = root
        .child("header")
        .and_then(|h| h.child("worldBounds"))
        .and_then(Node::bounds)
        .unwrap_or((Vec2::splat(-100.0), Vec2::splat(100.0)));
    let mut rng = SplitMix(seed);
    let mut obstacles = Vec::new();
    for n in &root.children {
        match n.name.as_str() {
            "obstacle" => {
                let (lo, hi) = n.bounds().ok_or("obstacle without bounds")?;
                obstacles.push(Obstacle::Box {
                    min: Vec3::new(lo.x, 0.0, lo.y),
                    max: Vec3::new(hi.x, 0.0, hi.y),
                });
            }
            "circleObstacle" => obstacles.push(Obstacle::Circle {
                center: n
                    .child("position")
                    .and_then(Node::vec)
                    .ok_or("circle position")?,
                radius: n.num("radius").ok_or("circle radius")?,
            }),
            "orientedBoxObstacle" => {
                let size = n.child("size").and_then(Node::vec).ok_or("box size")?;
                obstacles.push(Obstacle::OrientedBox {
                    center: n
                        .child("position")
                        .and_then(Node::vec)
                        .ok_or("box position")?,
                    half_x: size.x / 2.0,
                    half_z: size.z / 2.0,
                    yaw: n.num("thetaY").unwrap_or(0.0).to_radians(),
                });
            }
            "obstacleRegion" => {
                let count = n.num("numObstacles").unwrap_or(0.0) as usize;
                let size = n.num("obstacleSize").unwrap_or(1.0);
                let (lo, hi) = n
                    .child("regionBounds")
                    .and_then(Node::bounds)
                    .ok_or("obstacleRegion bounds")?;
                for _ in 0..count {
                    let c = Vec2::new(rng.range(lo.x, hi.x - size), rng.range(lo.y, hi.y - size));
                    obstacles.push(Obstacle::Box {
                        min: Vec3::new(c.x, 0.0, c.y),
                        max: Vec3::new(c.x + size, 0.0, c.y + size),
                    });
                }
            }
            _ => {}
        }
    }
    let mut specs = Vec::new();
    let mut time_limit: f32 = 0.0;
    for n in &root.children {
        let time = |seq: Option<&Node>| {
            seq.map_or(0.0, |s| {
                s.children
                    .iter()
                    .filter_map(|g| g.num("timeDuration"))
                    .fold(0.0f32, |a, b| a + b.min(1000.0))
            })
        };
        match n.name.as_str() {
            "agent" => {
                let ic = n
                    .child("initialConditions")
                    .ok_or("agent without conditions")?;
                let position = ic.child("position").and_then(Node::vec).ok_or("position")?;
                let radius = ic.num("radius").unwrap_or(0.5);
                let direction = ic.child("direction").and_then(Node::vec).unwrap_or(Vec3::Z);
                let seq = n.child("goalSequence");
                time_limit = time_limit.max(time(seq));
                let (goals, speed) = goals(seq, position, world, &mut rng, &obstacles, radius);
                specs.push(Spec {
                    position,
                    direction,
                    radius,
                    goals,
                    speed,
                });
            }
            "agentRegion" => {
                let count = n.num("numAgents").unwrap_or(0.0) as usize;
                let (lo, hi) = n
                    .child("regionBounds")
                    .and_then(Node::bounds)
                    .ok_or("agentRegion bounds")?;
                let ic = n
                    .child("initialConditions")
                    .ok_or("region without conditions")?;
                let radius = ic.num("radius").unwrap_or(0.5);
                let seq = n.child("goalSequence");
                time_limit = time_limit.max(time(seq));
                for _ in 0..count {
                    // Rejection-sample a free spot (give up after many tries: overlap allowed).
                    let mut p = Vec2::ZERO;
                    for _attempt in 0..1000 {
                        p = Vec2::new(
                            rng.range(lo.x + radius, hi.x - radius),
                            rng.range(lo.y + radius, hi.y - radius),
                        );
                        let free_of_agents = specs.iter().all(|s: &Spec| {
                            Vec2::new(s.position.x, s.position.z).distance(p) >= s.radius + radius
                        });
                        if free_of_agents && !inside_obstacle(&obstacles, p, radius) {
                            break;
                        }
                    }
                    let position = Vec3::new(p.x, 0.0, p.y);
                    let direction = match ic.child("direction") {
                        Some(d) if d.is_random() => {
                            let a = rng.range(0.0, core::f32::consts::TAU);
                            Vec3::new(a.sin(), 0.0, a.cos())
                        }
                        Some(d) => d.vec().unwrap_or(Vec3::Z),
                        None => Vec3::Z,
                    };
                    let (goals, speed) = goals(seq, position, world, &mut rng, &obstacles, radius);
                    specs.push(Spec {
                        position,
                        direction,
                        radius,
                        goals,
                        speed,
                    });
                }
            }
            _ => {}
        }
    }
    let mut crowd = Crowd::new(specs.len()).map_err(|e| e.to_string())?;
    let mut d = crowd.agent_defaults();
    d.route_mode = RouteMode::Planned;
    crowd.set_agent_defaults(d).map_err(|e| e.to_string())?;
    for o in &obstacles {
        crowd.add_obstacle(*o).map_err(|e| format!("{o:?}: {e}"))?;
    }
    let mut agents = Vec::new();
    for s in specs {
        let id = crowd
            .add_agent(
                s.position,
                s.direction.x.atan2(s.direction.z),
                s.speed,
                s.radius,
            )
            .map_err(|e| e.to_string())?;
        crowd
            .set_target(id, s.goals[0], s.radius)
            .map_err(|e| e.to_string())?;
        agents.push(CaseAgent {
            id,
            goals: s.goals,
            speed: s.speed,
            radius: s.radius,
            start: s.position,
        });
    }
    Ok(Case {
        name,
        crowd,
        agents,
        time_limit: if time_limit > 0.0 { time_limit } else { 300.0 },
    })
}
