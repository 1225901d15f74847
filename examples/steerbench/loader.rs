//! Reads a SteerSuite test case (`SteerBenchTestCase` XML, see `TestCaseSchema.xsd`, and the
//! elements SteerSuite's reader accepts beyond it) into a [`Scene`]:
//!
//! - agents (`agent`, position and direction given or random), agent regions (`agentRegion`,
//!   random free spots in the region) and `agentEmitter`s;
//! - goal sequences with every goal type: `seekStaticTarget` (or `groupTarget`),
//!   `fleeStaticTarget`, `seekDynamicTarget`, `fleeDynamicTarget`, `flowStaticDirection`,
//!   `flowDynamicDirection`, `idle`, `seekAxisAlignedBoxRegion`; each with its `timeDuration`
//!   (100 000 s when absent) and `desiredSpeed`; a random target (`targetLocation` or
//!   `targetDirection` with `<random>true</random>`, or `<random>true</random>` /
//!   `<targetIsRandom>true</targetIsRandom>` in the goal) is drawn once when the case loads;
//! - obstacles, any number and every kind: `obstacle` (an axis-aligned box; one of zero
//!   thickness is a wall), `obstacleRegion` (random square boxes), `circleObstacle`,
//!   `orientedBoxObstacle`, `orientedWallObstacle` (with an optional `doorway`: a gap of
//!   `doorRadius` each side of `value` metres along it from its centre), `polygonObstacle`
//!   (its outline as walls).
//!
//! An emitter places a copy of its agent at its position every [`EMIT_INTERVAL`] seconds
//! while the spot is free, [`EMIT_COUNT`] in all (SteerSuite's files give neither).
//!
//! Every random choice comes from one [`Pcg32`] seeded by the run's seed, in file order.
//! Errors name the element and the value; the caller adds the file.

use glam::{Vec2, Vec3};
use wayfarer::crowd::Obstacle;

use super::rng::Pcg32;
use super::scene::{AgentSpec, EmitterSpec, Goal, GoalKind, Scene, NO_DURATION};
use super::xml::{parse, Node, Tuple};

/// Seconds between two agents of an emitter.
pub const EMIT_INTERVAL: f32 = 2.0;
/// Agents an emitter places in all.
pub const EMIT_COUNT: usize = 50;
/// Walking speed when a case gives no `desiredSpeed` (SteerSuite's default).
const DEFAULT_SPEED: f32 = 1.33;
/// Body radius when a case gives none.
const DEFAULT_RADIUS: f32 = 0.5;
/// A goal time counts at most this much toward the case's run time.
const LONGEST_GOAL: f32 = 1000.0;
/// Tries for a random free spot before an agent is placed where the last try fell.
const TRIES: usize = 1000;

/// What the reader has placed so far (for free spots).
struct World {
    bounds: (Vec2, Vec2),
    obstacles: Vec<Obstacle>,
    placed: Vec<(Vec2, f32)>,
}

impl World {
    fn clear_of_obstacles(&self, p: Vec2, clearance: f32) -> bool {
        self.obstacles
            .iter()
            .all(|o| o.shape().is_none_or(|s| s.contact(p).distance >= clearance))
    }

    fn clear_of_agents(&self, p: Vec2, radius: f32) -> bool {
        self.placed
            .iter()
            .all(|&(q, r)| q.distance(p) >= r + radius)
    }

    /// A random spot in `area` shrunk by `radius`, clear of obstacles by `clearance` (and of
    /// the agents placed, when `agents`); after [`TRIES`] the last try.
    fn free_spot(
        &self,
        rng: &mut Pcg32,
        area: (Vec2, Vec2),
        radius: f32,
        clearance: f32,
        agents: bool,
    ) -> Vec2 {
        let mut p = 0.5 * (area.0 + area.1);
        for _ in 0..TRIES {
            p = Vec2::new(
                rng.range(area.0.x + radius, area.1.x - radius),
                rng.range(area.0.y + radius, area.1.y - radius),
            );
            if self.clear_of_obstacles(p, clearance) && (!agents || self.clear_of_agents(p, radius))
            {
                break;
            }
        }
        p
    }
}

/// Loads a case from XML text; `seed` drives every random choice.
pub fn load(xml: &str, name: &str, seed: u64) -> Result<Scene, String> {
    let root = parse(xml)?;
    let bounds = match root.child("header").and_then(|h| h.child("worldBounds")) {
        Some(b) => b.bounds().map_err(|e| format!("<header>{e}"))?,
        None => (Vec2::splat(-100.0), Vec2::splat(100.0)),
    };
    let mut rng = Pcg32::new(seed, 0x5EED);
    let mut world = World {
        bounds,
        obstacles: Vec::new(),
        placed: Vec::new(),
    };
    // Obstacles first (agents are placed clear of them), in file order.
    for (k, n) in root.children.iter().enumerate() {
        obstacle(n, &mut world, &mut rng).map_err(|e| format!("element #{k} {e}"))?;
    }
    let mut agents = Vec::new();
    let mut emitters = Vec::new();
    let mut declared = 0usize;
    let mut time_limit: f32 = 0.0;
    for (k, n) in root.children.iter().enumerate() {
        let at = |e: String| format!("element #{k} <{}>: {e}", n.name);
        match n.name.as_str() {
            "agent" | "agentEmitter" => {
                declared += 1;
                let a = agent(n, None, &mut world, &mut rng).map_err(at)?;
                time_limit = time_limit.max(run_time(&a.goals));
                if n.name == "agent" {
                    agents.push(a);
                } else {
                    emitters.push(EmitterSpec {
                        agent: a,
                        interval: EMIT_INTERVAL,
                        count: EMIT_COUNT,
                        start: 0.0,
                    });
                }
            }
            "agentRegion" => {
                let count = n.need("numAgents").map_err(at)?;
                if count < 0.0 || count.fract() != 0.0 {
                    return Err(at(format!("<numAgents> {count} is not a count")));
                }
                declared += count as usize;
                let area = n
                    .child("regionBounds")
                    .ok_or("lacks <regionBounds>".to_string())
                    .and_then(Node::bounds)
                    .map_err(at)?;
                for _ in 0..count as usize {
                    let a = agent(n, Some(area), &mut world, &mut rng).map_err(at)?;
                    time_limit = time_limit.max(run_time(&a.goals));
                    agents.push(a);
                }
            }
            _ => {}
        }
    }
    let scene = Scene {
        name: name.to_string(),
        world: bounds,
        obstacles: world.obstacles,
        agents,
        emitters,
        time_limit: if time_limit > 0.0 { time_limit } else { 300.0 },
    };
    let names: Vec<&str> = (scene.agents.iter())
        .chain(scene.emitters.iter().map(|e| &e.agent))
        .filter_map(|a| a.name.as_deref())
        .collect();
    for a in scene
        .agents
        .iter()
        .chain(scene.emitters.iter().map(|e| &e.agent))
    {
        for g in &a.goals {
            if let GoalKind::SeekAgent(n) | GoalKind::FleeAgent(n) = &g.kind {
                if !names.contains(&n.as_str()) {
                    return Err(format!("<targetName> \"{n}\": no agent has that <name>"));
                }
            }
        }
    }
    if declared > 0 && scene.total_agents() == 0 {
        return Err(format!(
            "declares {declared} agents but loads none (agent regions with <numAgents> 0?)"
        ));
    }
    Ok(scene)
}

/// Seconds an agent's goals take at most (each goal counted up to [`LONGEST_GOAL`]).
fn run_time(goals: &[Goal]) -> f32 {
    goals.iter().map(|g| g.duration.min(LONGEST_GOAL)).sum()
}

/// Reads an agent (`area`: the agent region it is placed in at random).
fn agent(
    n: &Node,
    area: Option<(Vec2, Vec2)>,
    world: &mut World,
    rng: &mut Pcg32,
) -> Result<AgentSpec, String> {
    let ic = n
        .child("initialConditions")
        .ok_or("lacks <initialConditions>")?;
    let radius = ic.num("radius")?.unwrap_or(DEFAULT_RADIUS);
    if radius <= 0.0 {
        return Err(format!("<initialConditions><radius> {radius} is not > 0"));
    }
    let position = match (area, ic.child("position").map(Node::tuple).transpose()?) {
        (None, Some(Tuple::At(p))) => p,
        (None, None) => return Err("<initialConditions> lacks <position>".into()),
        (Some(a), _) => world.free_spot(rng, a, radius, radius, true),
        (None, Some(Tuple::Random)) => world.free_spot(rng, world.bounds, radius, radius, true),
    };
    let yaw = match ic.child("direction").map(Node::tuple).transpose()? {
        Some(Tuple::At(d)) if d.length_squared() > 0.0 => d.x.atan2(d.y),
        Some(Tuple::At(_)) => return Err("<direction> is (0, 0, 0)".into()),
        Some(Tuple::Random) => rng.angle(),
        None => 0.0,
    };
    world.placed.push((position, radius));
    let seq = n.child("goalSequence");
    let goals = match seq {
        Some(s) => goals(s, position, radius, world, rng)?,
        None => Vec::new(),
    };
    let speed = goals
        .iter()
        .find_map(|g| g.speed)
        .or(ic.num("speed")?.filter(|&s| s > 0.0))
        .unwrap_or(DEFAULT_SPEED);
    let name = n
        .child("name")
        .map(|c| c.text.trim().to_string())
        .filter(|s| !s.is_empty());
    Ok(AgentSpec {
        name,
        position,
        yaw,
        radius,
        speed,
        goals,
        ideal_length: 0.0,
        deadline: None,
    }
    .with_ideal_length())
}

/// Reads a goal sequence for an agent starting at `start`.
fn goals(
    seq: &Node,
    start: Vec2,
    radius: f32,
    world: &World,
    rng: &mut Pcg32,
) -> Result<Vec<Goal>, String> {
    let mut out = Vec::new();
    for (k, g) in seq.children.iter().enumerate() {
        let at = |e: String| format!("<goalSequence> goal #{k} <{}>: {e}", g.name);
        let random = g.flag("random").map_err(at)? || g.flag("targetIsRandom").map_err(at)?;
        let location = g
            .child("targetLocation")
            .map(Node::tuple)
            .transpose()
            .map_err(at)?;
        let direction = g
            .child("targetDirection")
            .map(Node::tuple)
            .transpose()
            .map_err(at)?;
        let mut point = || match location {
            Some(Tuple::At(p)) if !random => Ok(p),
            Some(_) | None if random || location == Some(Tuple::Random) => {
                let inner = (world.bounds.0 + Vec2::ONE, world.bounds.1 - Vec2::ONE);
                Ok(world.free_spot(rng, inner, 0.0, 2.0 * radius, false))
            }
            _ => Err(at("lacks <targetLocation>".into())),
        };
        let kind = match g.name.as_str() {
            "seekStaticTarget" | "groupTarget" => GoalKind::Seek(point()?),
            "fleeStaticTarget" => GoalKind::Flee(point()?),
            "seekDynamicTarget" | "fleeDynamicTarget" => {
                let target = g
                    .child("targetName")
                    .map(|c| c.text.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .ok_or_else(|| at("lacks <targetName>".into()))?;
                if g.name == "seekDynamicTarget" {
                    GoalKind::SeekAgent(target)
                } else {
                    GoalKind::FleeAgent(target)
                }
            }
            "flowStaticDirection" | "flowDynamicDirection" => {
                let d = match direction {
                    Some(Tuple::At(d)) if !random => d,
                    Some(_) if random || direction == Some(Tuple::Random) => {
                        let a = rng.angle();
                        Vec2::new(a.sin(), a.cos())
                    }
                    None if random => {
                        let a = rng.angle();
                        Vec2::new(a.sin(), a.cos())
                    }
                    _ => return Err(at("lacks <targetDirection>".into())),
                };
                let d = d.try_normalize().ok_or_else(|| {
                    at(format!(
                        "<targetDirection> ({}, {}) has no length",
                        d.x, d.y
                    ))
                })?;
                GoalKind::Flow(d)
            }
            "idle" => GoalKind::Idle,
            "seekAxisAlignedBoxRegion" => {
                let b = g
                    .child("goalRegionBounds")
                    .ok_or("lacks <goalRegionBounds>".to_string())
                    .and_then(Node::bounds)
                    .map_err(at)?;
                GoalKind::Region(b.0, b.1)
            }
            other => return Err(at(format!("unknown goal type <{other}>"))),
        };
        let duration = g.num("timeDuration").map_err(at)?.unwrap_or(NO_DURATION);
        if duration < 0.0 {
            return Err(at(format!("<timeDuration> {duration} is negative")));
        }
        let speed = g.num("desiredSpeed").map_err(at)?;
        if let Some(s) = speed.filter(|&s| s <= 0.0) {
            return Err(at(format!("<desiredSpeed> {s} is not > 0")));
        }
        out.push(Goal {
            kind,
            duration,
            speed,
        });
    }
    let _ = start;
    Ok(out)
}

/// Reads an obstacle element into `world` (other elements: nothing).
fn obstacle(n: &Node, world: &mut World, rng: &mut Pcg32) -> Result<(), String> {
    let at = |e: String| format!("<{}>: {e}", n.name);
    let position = |world: &World, rng: &mut Pcg32| -> Result<Vec2, String> {
        match n
            .child("position")
            .map(Node::tuple)
            .transpose()
            .map_err(at)?
        {
            Some(Tuple::At(p)) => Ok(p),
            Some(Tuple::Random) => Ok(Vec2::new(
                rng.range(world.bounds.0.x, world.bounds.1.x),
                rng.range(world.bounds.0.y, world.bounds.1.y),
            )),
            None => Err(at("lacks <position>".into())),
        }
    };
    let size = |rng: &mut Pcg32| -> Result<Vec2, String> {
        match n.child("size").map(Node::tuple).transpose().map_err(at)? {
            Some(Tuple::At(s)) => Ok(s.abs()),
            Some(Tuple::Random) => Ok(Vec2::new(rng.range(0.5, 4.0), rng.range(0.5, 4.0))),
            None => Err(at("lacks <size>".into())),
        }
    };
    let turned = |c: Vec2, half: Vec2, yaw: f32| oriented(c, half, yaw);
    match n.name.as_str() {
        "obstacle" => {
            let (lo, hi) = n.bounds().map_err(|e| format!("<obstacle>{e}"))?;
            world.obstacles.push(aabb(lo, hi).map_err(at)?);
        }
        "obstacleRegion" => {
            let count = n.need("numObstacles").map_err(at)?;
            if count < 0.0 || count.fract() != 0.0 {
                return Err(at(format!("<numObstacles> {count} is not a count")));
            }
            let size = n.need("obstacleSize").map_err(at)?;
            if size <= 0.0 {
                return Err(at(format!("<obstacleSize> {size} is not > 0")));
            }
            let (lo, hi) = n
                .child("regionBounds")
                .ok_or("lacks <regionBounds>".to_string())
                .and_then(Node::bounds)
                .map_err(at)?;
            for _ in 0..count as usize {
                let c = Vec2::new(rng.range(lo.x, hi.x - size), rng.range(lo.y, hi.y - size));
                world
                    .obstacles
                    .push(aabb(c, c + Vec2::splat(size)).map_err(at)?);
            }
        }
        "circleObstacle" => {
            let c = position(world, rng)?;
            let r = n.need("radius").map_err(at)?;
            if r <= 0.0 {
                return Err(at(format!("<radius> {r} is not > 0")));
            }
            world.obstacles.push(Obstacle::Circle {
                center: Vec3::new(c.x, 0.0, c.y),
                radius: r,
            });
        }
        "orientedBoxObstacle" => {
            let c = position(world, rng)?;
            let s = size(rng)?;
            let yaw = n.num("thetaY").map_err(at)?.unwrap_or(0.0).to_radians();
            world.obstacles.push(turned(c, s * 0.5, yaw).map_err(at)?);
        }
        "orientedWallObstacle" => {
            let c = position(world, rng)?;
            let s = size(rng)?;
            let yaw = n.num("thetaY").map_err(at)?.unwrap_or(0.0).to_radians();
            let door = match n.child("doorway") {
                None => None,
                Some(d) if d.flag("random").map_err(at)? => {
                    let r = d.num("doorRadius").map_err(at)?.unwrap_or(1.0);
                    Some((rng.range(-0.5 * s.x + r, 0.5 * s.x - r), r))
                }
                Some(d) => Some((
                    d.need("value").map_err(at)?,
                    d.num("doorRadius").map_err(at)?.unwrap_or(1.0),
                )),
            };
            match door {
                None => world.obstacles.push(turned(c, s * 0.5, yaw).map_err(at)?),
                Some((v, r)) => {
                    // The wall runs along its local x; the door cuts [v − r, v + r] out of it.
                    let axis = Vec2::new(yaw.cos(), -yaw.sin());
                    let (a, b) = (-0.5 * s.x, 0.5 * s.x);
                    for (from, to) in [(a, (v - r).min(b)), ((v + r).max(a), b)] {
                        if to - from > 1e-3 {
                            let mid = c + axis * (0.5 * (from + to));
                            let half = Vec2::new(0.5 * (to - from), 0.5 * s.y);
                            world.obstacles.push(turned(mid, half, yaw).map_err(at)?);
                        }
                    }
                }
            }
        }
        "polygonObstacle" => {
            let mut vertices = Vec::new();
            for v in n.children.iter().filter(|c| c.name == "vertex") {
                match v.tuple().map_err(at)? {
                    Tuple::At(p) => vertices.push(p),
                    Tuple::Random => return Err(at("a random <vertex>".into())),
                }
            }
            if vertices.len() < 2 {
                return Err(at(format!("{} vertices (needs 2 or more)", vertices.len())));
            }
            for (k, &a) in vertices.iter().enumerate() {
                let b = vertices[(k + 1) % vertices.len()];
                if a.distance(b) > 1e-4 && (vertices.len() > 2 || k == 0) {
                    world.obstacles.push(Obstacle::Wall {
                        a: Vec3::new(a.x, 0.0, a.y),
                        b: Vec3::new(b.x, 0.0, b.y),
                    });
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// An axis-aligned box (min, max); one of zero thickness is a wall along its length.
fn aabb(lo: Vec2, hi: Vec2) -> Result<Obstacle, String> {
    let size = hi - lo;
    if size.x > 0.0 && size.y > 0.0 {
        return Ok(Obstacle::Box {
            min: Vec3::new(lo.x, 0.0, lo.y),
            max: Vec3::new(hi.x, 0.0, hi.y),
        });
    }
    if size.x <= 0.0 && size.y <= 0.0 {
        return Err(format!("box of no area at ({}, {})", lo.x, lo.y));
    }
    Ok(Obstacle::Wall {
        a: Vec3::new(lo.x, 0.0, lo.y),
        b: Vec3::new(hi.x, 0.0, hi.y),
    })
}

/// A box of half extents `half` around `c` turned by `yaw`; one of zero thickness is a wall.
fn oriented(c: Vec2, half: Vec2, yaw: f32) -> Result<Obstacle, String> {
    if half.x > 0.0 && half.y > 0.0 {
        return Ok(Obstacle::OrientedBox {
            center: Vec3::new(c.x, 0.0, c.y),
            half_x: half.x,
            half_z: half.y,
            yaw,
        });
    }
    // Local x is (cos yaw, −sin yaw), local z (sin yaw, cos yaw).
    let along = if half.x > 0.0 {
        Vec2::new(yaw.cos(), -yaw.sin()) * half.x
    } else if half.y > 0.0 {
        Vec2::new(yaw.sin(), yaw.cos()) * half.y
    } else {
        return Err(format!("box of no area at ({}, {})", c.x, c.y));
    };
    let (a, b) = (c - along, c + along);
    Ok(Obstacle::Wall {
        a: Vec3::new(a.x, 0.0, a.y),
        b: Vec3::new(b.x, 0.0, b.y),
    })
}

#[cfg(test)]
mod tests {
    use super::load;
    use crate::scene::GoalKind;
    use glam::Vec2;
    use wayfarer::crowd::Obstacle;

    /// A test case written for these tests (not from SteerSuite's set).
    fn case(body: &str) -> String {
        format!(
            "<SteerBenchTestCase xmlns=\"http://www.magix.ucla.edu/steerbench\">\
             <header><version>1.0</version><name>t</name><worldBounds><xmin>-50</xmin>\
             <xmax>50</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-50</zmin><zmax>50</zmax>\
             </worldBounds></header>{body}</SteerBenchTestCase>"
        )
    }

    const XYZ: &str = "<x>1</x><y>0</y><z>2</z>";

    #[test]
    fn every_goal_type_and_obstacle_kind_loads() {
        let goals = format!(
            "<goalSequence>\
             <seekStaticTarget><targetLocation>{XYZ}</targetLocation><desiredSpeed>1.2</desiredSpeed><timeDuration>30</timeDuration></seekStaticTarget>\
             <fleeStaticTarget><targetLocation>{XYZ}</targetLocation><timeDuration>5</timeDuration></fleeStaticTarget>\
             <seekDynamicTarget><targetName>a</targetName><timeDuration>9</timeDuration></seekDynamicTarget>\
             <flowStaticDirection><targetDirection><x>0</x><y>0</y><z>-3</z></targetDirection><timeDuration>4</timeDuration></flowStaticDirection>\
             <idle><timeDuration>2</timeDuration></idle>\
             <seekStaticTarget><targetLocation><random>true</random></targetLocation></seekStaticTarget>\
             <seekStaticTarget><targetIsRandom>true</targetIsRandom></seekStaticTarget>\
             <seekAxisAlignedBoxRegion><goalRegionBounds><xmin>3</xmin><xmax>5</xmax><ymin>0</ymin><ymax>0</ymax><zmin>3</zmin><zmax>6</zmax></goalRegionBounds></seekAxisAlignedBoxRegion>\
             </goalSequence>"
        );
        let xml = case(&format!(
            "<obstacle><xmin>10</xmin><xmax>12</xmax><ymin>0</ymin><ymax>1</ymax><zmin>10</zmin><zmax>12</zmax></obstacle>\
             <obstacleRegion><numObstacles>3</numObstacles><obstacleSize>1</obstacleSize><obstacleHeight>1</obstacleHeight>\
             <regionBounds><xmin>20</xmin><xmax>30</xmax><ymin>0</ymin><ymax>0</ymax><zmin>20</zmin><zmax>30</zmax></regionBounds></obstacleRegion>\
             <circleObstacle><radius>1</radius><height>1</height><position><x>-10</x><y>0</y><z>-10</z></position></circleObstacle>\
             <orientedBoxObstacle><thetaY>30</thetaY><size><x>2</x><y>1</y><z>1</z></size><position><x>-20</x><y>0</y><z>5</z></position></orientedBoxObstacle>\
             <orientedWallObstacle><thetaY>0</thetaY><size><x>10</x><y>1</y><z>0.2</z></size><position><x>0</x><y>0</y><z>30</z></position>\
             <doorway><value>0</value><doorRadius>1</doorRadius></doorway></orientedWallObstacle>\
             <agent><name>a</name><initialConditions><radius>0.4</radius><position>{XYZ}</position>\
             <direction><random>true</random></direction><speed>1</speed></initialConditions>{goals}</agent>\
             <agent><initialConditions><radius>0.5</radius><position><random>true</random></position>\
             <direction><x>1</x><y>0</y><z>0</z></direction><speed>1</speed></initialConditions>{goals}</agent>\
             <agentRegion><numAgents>5</numAgents><regionBounds><xmin>-5</xmin><xmax>5</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-40</zmin><zmax>-30</zmax></regionBounds>\
             <initialConditions><radius>0.5</radius><direction><random>true</random></direction><speed>1</speed></initialConditions>{goals}</agentRegion>\
             <agentEmitter><initialConditions><radius>0.5</radius><position><x>0</x><y>0</y><z>-20</z></position>\
             <direction><x>1</x><y>0</y><z>0</z></direction><speed>1</speed></initialConditions>{goals}</agentEmitter>"
        ));
        let s = load(&xml, "t", 7).expect("loads");
        // 1 box + 3 region boxes + circle + oriented box + a wall split by its door.
        assert_eq!(s.obstacles.len(), 8);
        assert!(matches!(s.obstacles[4], Obstacle::Circle { .. }));
        assert_eq!(s.agents.len(), 7);
        assert_eq!(s.emitters.len(), 1);
        assert_eq!(s.total_agents(), 7 + s.emitters[0].count);
        let g = &s.agents[0].goals;
        assert_eq!(g.len(), 8);
        assert_eq!(g[0].kind, GoalKind::Seek(Vec2::new(1.0, 2.0)));
        assert_eq!((g[0].duration, g[0].speed), (30.0, Some(1.2)));
        assert_eq!(g[1].kind, GoalKind::Flee(Vec2::new(1.0, 2.0)));
        assert_eq!(g[2].kind, GoalKind::SeekAgent("a".into()));
        assert_eq!(g[3].kind, GoalKind::Flow(Vec2::new(0.0, -1.0)));
        assert_eq!(g[4].kind, GoalKind::Idle);
        assert_eq!(
            g[7].kind,
            GoalKind::Region(Vec2::new(3.0, 3.0), Vec2::new(5.0, 6.0))
        );
        // Random targets: inside the world, different per agent, the same for the same seed.
        let (GoalKind::Seek(p), GoalKind::Seek(q)) = (&g[5].kind, &s.agents[1].goals[5].kind)
        else {
            panic!("random seek targets");
        };
        assert!(p.abs().max_element() < 50.0 && p != q);
        let again = load(&xml, "t", 7).unwrap();
        assert_eq!(again.agents, s.agents);
        assert_ne!(load(&xml, "t", 8).unwrap().agents, s.agents);
        // Region agents are placed in their region, apart.
        for a in &s.agents[2..] {
            assert!(a.position.y > -40.0 && a.position.y < -30.0);
        }
    }

    #[test]
    fn errors_name_the_element_and_the_value() {
        let bad_radius = case(&format!(
            "<agent><initialConditions><radius>big</radius><position>{XYZ}</position>\
             <direction>{XYZ}</direction><speed>1</speed></initialConditions><goalSequence>\
             <idle><timeDuration>1</timeDuration></idle></goalSequence></agent>"
        ));
        let e = load(&bad_radius, "t", 1).unwrap_err();
        assert!(
            e.contains("<agent>") && e.contains("<radius>") && e.contains("big"),
            "{e}"
        );
        let no_agents = case(
            "<agentRegion><numAgents>0</numAgents><regionBounds><xmin>0</xmin><xmax>1</xmax><ymin>0</ymin>\
             <ymax>0</ymax><zmin>0</zmin><zmax>1</zmax></regionBounds><initialConditions><radius>0.5</radius>\
             <direction><random>true</random></direction><speed>1</speed></initialConditions>\
             <goalSequence><idle><timeDuration>1</timeDuration></idle></goalSequence></agentRegion>\
             <agentRegion><numAgents>0</numAgents><regionBounds><xmin>0</xmin><xmax>1</xmax><ymin>0</ymin>\
             <ymax>0</ymax><zmin>0</zmin><zmax>1</zmax></regionBounds><initialConditions><radius>0.5</radius>\
             <direction><random>true</random></direction><speed>1</speed></initialConditions>\
             <goalSequence><idle><timeDuration>1</timeDuration></idle></goalSequence></agentRegion>",
        );
        assert!(load(&no_agents, "t", 1).is_ok(), "declares none: fine");
        let unknown = case(&format!(
            "<agent><initialConditions><radius>0.5</radius><position>{XYZ}</position>\
             <direction>{XYZ}</direction><speed>1</speed></initialConditions><goalSequence>\
             <teleport><timeDuration>1</timeDuration></teleport></goalSequence></agent>"
        ));
        let e = load(&unknown, "t", 1).unwrap_err();
        assert!(e.contains("teleport"), "{e}");
        let chase = unknown.replace(
            "<teleport><timeDuration>1</timeDuration></teleport>",
            "<seekDynamicTarget><targetName>ghost</targetName></seekDynamicTarget>",
        );
        let e = load(&chase, "t", 1).unwrap_err();
        assert!(e.contains("<targetName>") && e.contains("ghost"), "{e}");
    }
}
