//! Obstacle changes among planned agents, through the crate's Rust API: a world of fuzzed obstacles
//! (circles, boxes, oriented boxes, walls) inside four posts, so that most changes stay on the
//! planning grid and the route planner updates locally; planned agents of fuzzed sizes and goals;
//! then fuzzed moves, adds, removals, route-cache caps, posts moved in or out (the grid outgrown,
//! kept or re-laid), agents switched between planned and straight routes (the planner left stale,
//! then brought up to date), given new goals or replaced by new agents in their slots, and steps.
//! The fuzz build has debug assertions on, under which the planner checks every local update
//! against a rebuild and every repaired distance field against one computed afresh (bit for bit),
//! so a wrong update or repair is a panic here. After every step each agent is finite or flagged
//! invalid.
#![no_main]

use arbitrary::{Result, Unstructured};
use glam::Vec3;
use libfuzzer_sys::fuzz_target;
use wayfarer::crowd::{AgentState, Crowd, Obstacle, ObstacleId, RouteMode};

/// A coordinate in [-span, span] (16-bit resolution).
fn coord(u: &mut Unstructured, span: f32) -> Result<f32> {
    Ok((u.arbitrary::<u16>()? as f32 / 65_535.0 * 2.0 - 1.0) * span)
}

/// A size in [lo, hi].
fn size(u: &mut Unstructured, lo: f32, hi: f32) -> Result<f32> {
    Ok(lo + (hi - lo) * u.arbitrary::<u8>()? as f32 / 255.0)
}

/// An obstacle inside the posts.
fn obstacle(u: &mut Unstructured) -> Result<Obstacle> {
    let c = Vec3::new(coord(u, 15.0)?, 0.0, coord(u, 15.0)?);
    Ok(match u.arbitrary::<u8>()? % 4 {
        0 => Obstacle::Circle {
            center: c,
            radius: size(u, 0.05, 3.0)?,
        },
        1 => {
            let h = Vec3::new(size(u, 0.05, 3.0)?, 0.0, size(u, 0.05, 3.0)?);
            Obstacle::Box {
                min: c - h,
                max: c + h,
            }
        }
        2 => Obstacle::OrientedBox {
            center: c,
            half_x: size(u, 0.05, 3.0)?,
            half_z: size(u, 0.05, 3.0)?,
            yaw: size(u, 0.0, 6.3)?,
        },
        _ => Obstacle::Wall {
            a: c,
            b: c + Vec3::new(coord(u, 4.0)?, 0.0, coord(u, 4.0)?),
        },
    })
}

fn run(u: &mut Unstructured) -> Result<()> {
    let mut c = Crowd::new(32).expect("a crowd of 32");
    let post = |x: f32, z: f32| Obstacle::Circle {
        center: Vec3::new(x, 0.0, z),
        radius: 0.5,
    };
    let mut posts = Vec::new();
    for (x, z) in [(-20.0, -20.0), (20.0, -20.0), (-20.0, 20.0), (20.0, 20.0)] {
        posts.push(c.add_obstacle(post(x, z)).expect("a post"));
    }
    let mut ids: Vec<ObstacleId> = Vec::new();
    for _ in 0..u.int_in_range(1..=10)? {
        ids.push(c.add_obstacle(obstacle(u)?).expect("a valid obstacle"));
    }
    let mut agents = Vec::new();
    for _ in 0..u.int_in_range(1..=12)? {
        let p = Vec3::new(coord(u, 18.0)?, 0.0, coord(u, 18.0)?);
        let id = c
            .add_agent(p, 0.0, size(u, 0.5, 3.0)?, size(u, 0.05, 2.0)?)
            .expect("room for the agent");
        let goal = Vec3::new(coord(u, 18.0)?, 0.0, coord(u, 18.0)?);
        c.set_target(id, goal, 0.3).expect("a live agent");
        c.set_route_mode(id, RouteMode::Planned)
            .expect("a live agent");
        agents.push(id);
    }
    c.step(0.1, 1).expect("a valid step");
    for _ in 0..u.int_in_range(1..=24)? {
        match u.arbitrary::<u8>()? % 11 {
            0..=2 if !ids.is_empty() => {
                // Moved: removed and added where it now is.
                let k = u.choose_index(ids.len())?;
                c.remove_obstacle(ids[k]).expect("a live obstacle");
                ids[k] = c.add_obstacle(obstacle(u)?).expect("a valid obstacle");
            }
            3 => ids.push(c.add_obstacle(obstacle(u)?).expect("a valid obstacle")),
            4 if !ids.is_empty() => {
                let k = u.choose_index(ids.len())?;
                c.remove_obstacle(ids.swap_remove(k))
                    .expect("a live obstacle");
            }
            5 => {
                let cap = u.int_in_range(1..=8)?;
                c.set_route_cache(cap).expect("a cap in range");
            }
            6 => {
                let k = u.choose_index(posts.len())?;
                c.remove_obstacle(posts[k]).expect("a live post");
                let moved = post(coord(u, 40.0)?, coord(u, 40.0)?);
                posts[k] = c.add_obstacle(moved).expect("a valid post");
            }
            7 => {
                let k = u.choose_index(agents.len())?;
                let mode = if u.arbitrary()? {
                    RouteMode::Planned
                } else {
                    RouteMode::Direct
                };
                c.set_route_mode(agents[k], mode).expect("a live agent");
            }
            8 => {
                // A new goal, or the agent replaced by another in its slot.
                let k = u.choose_index(agents.len())?;
                let goal = Vec3::new(coord(u, 18.0)?, 0.0, coord(u, 18.0)?);
                if u.arbitrary()? {
                    c.set_target(agents[k], goal, 0.3).expect("a live agent");
                } else {
                    c.remove_agent(agents[k]).expect("a live agent");
                    let p = Vec3::new(coord(u, 18.0)?, 0.0, coord(u, 18.0)?);
                    let id = c
                        .add_agent(p, 0.0, size(u, 0.5, 3.0)?, size(u, 0.05, 2.0)?)
                        .expect("room for the agent");
                    c.set_target(id, goal, 0.3).expect("a live agent");
                    c.set_route_mode(id, RouteMode::Planned)
                        .expect("a live agent");
                    agents[k] = id;
                }
            }
            _ => {
                c.step(0.1, 1).expect("a valid step");
                for &id in &agents {
                    let a = c.agent(id).expect("a live agent");
                    assert!(
                        a.position.is_finite() || a.state() == AgentState::Invalid,
                        "agent at {:?}",
                        a.position
                    );
                }
            }
        }
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
