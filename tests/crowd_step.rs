//! Behaviour of the step: determinism across runs and thread counts, sub-stepping, bad input,
//! arrival and settling, priority, layers, waypoints, hits, NaN isolation.

use glam::{Vec2, Vec3};
use wayfarer::crowd::scenario::Scenario;
use wayfarer::crowd::{
    AgentId, AgentState, Crowd, CrowdError, HitKind, Obstacle, ObstacleId, RouteMode, Simd,
};

fn bits(c: &Crowd) -> Vec<(u32, u32, u32, u32)> {
    c.agents()
        .map(|(_, a)| {
            (
                a.position.x.to_bits(),
                a.position.y.to_bits(),
                a.position.z.to_bits(),
                a.yaw.to_bits(),
            )
        })
        .collect()
}

#[test]
fn same_bits_for_any_thread_count_and_any_run() {
    let base = Scenario::circle(600, 60.0, 0.4, 1.4);
    let mut runs = Vec::new();
    for threads in [1usize, 2, 3, 1] {
        let mut c = base.crowd.clone();
        for _ in 0..60 {
            c.step(0.1, threads).unwrap();
        }
        runs.push(bits(&c));
    }
    let moved = base
        .crowd
        .agents()
        .zip(runs[0].iter())
        .filter(|((_, a), b)| a.position.x.to_bits() != b.0)
        .count();
    assert!(moved > 500, "the agents should have moved");
    for r in &runs[1..] {
        assert_eq!(r, &runs[0]);
    }
}

#[test]
fn a_large_dt_equals_its_sub_steps() {
    let base = Scenario::obstacle_field(20, 10, 3);
    let mut a = base.crowd.clone();
    let mut b = base.crowd.clone();
    a.step(1.0, 1).unwrap();
    for _ in 0..10 {
        b.step(0.1, 1).unwrap();
    }
    assert_eq!(bits(&a), bits(&b));
    assert_eq!(a.step(6.5, 1), Err(CrowdError::InvalidArgument));
    assert!(a.step(6.4, 1).is_ok());
}

#[test]
fn bad_input_is_refused() {
    let mut c = Crowd::new(2).unwrap();
    assert_eq!(c.step(0.0, 1), Err(CrowdError::InvalidArgument));
    assert_eq!(c.step(-1.0, 1), Err(CrowdError::InvalidArgument));
    assert_eq!(c.step(f32::NAN, 1), Err(CrowdError::NonFinite));
    assert_eq!(c.step(f32::INFINITY, 1), Err(CrowdError::NonFinite));
    assert_eq!(
        c.add_agent(Vec3::ZERO, 0.0, 1.0, 0.0),
        Err(CrowdError::InvalidArgument)
    );
    assert_eq!(
        c.add_agent(Vec3::ZERO, 0.0, 1.0, -0.5),
        Err(CrowdError::InvalidArgument)
    );
    assert_eq!(
        c.add_agent(Vec3::new(f32::NAN, 0.0, 0.0), 0.0, 1.0, 0.5),
        Err(CrowdError::NonFinite)
    );
    let a = c.add_agent(Vec3::ZERO, 0.0, 1.0, 0.5).unwrap();
    let b = c.add_agent(Vec3::X * 3.0, 0.0, 1.0, 0.5).unwrap();
    // A full crowd grows.
    let extra = c.add_agent(Vec3::ZERO, 0.0, 1.0, 0.5).unwrap();
    assert!(c.capacity() > 2);
    c.remove_agent(extra).unwrap();
    c.remove_agent(b).unwrap();
    assert_eq!(c.remove_agent(b), Err(CrowdError::UnknownId));
    assert_eq!(c.set_target(b, Vec3::ZERO, 1.0), Err(CrowdError::UnknownId));
    assert_eq!(c.agent(AgentId(0)).err(), Some(CrowdError::UnknownId));
    let b2 = c.add_agent(Vec3::X * 3.0, 0.0, 1.0, 0.5).unwrap();
    assert_ne!(b, b2, "a reused slot gets a new id");
    assert_eq!(
        c.set_steering(a, 1.0, 1.0, 4.0, 1.0),
        Err(CrowdError::InvalidArgument)
    );
    assert_eq!(
        c.set_target(a, Vec3::ZERO, -1.0),
        Err(CrowdError::InvalidArgument)
    );
    assert_eq!(
        c.add_obstacle(Obstacle::Circle {
            center: Vec3::ZERO,
            radius: -1.0
        }),
        Err(CrowdError::InvalidArgument)
    );
    assert_eq!(
        c.remove_obstacle(ObstacleId(12345)),
        Err(CrowdError::UnknownId)
    );
    assert_eq!(
        Crowd::new(usize::MAX).err(),
        Some(CrowdError::CapacityExceeded)
    );
}

#[test]
fn a_nan_agent_is_flagged_and_the_others_do_not_notice() {
    let mut with = Crowd::new(3).unwrap();
    let mut without = Crowd::new(3).unwrap();
    for c in [&mut with, &mut without] {
        let a = c.add_agent(Vec3::ZERO, 0.0, 1.2, 0.4).unwrap();
        c.set_target(a, Vec3::new(0.0, 0.0, 10.0), 0.3).unwrap();
    }
    let bad = with
        .add_agent(Vec3::new(0.0, 0.0, 5.0), 0.0, 1.0, 0.4)
        .unwrap();
    assert_eq!(
        with.set_position(bad, Vec3::new(f32::NAN, 0.0, 0.0), 0.0),
        Err(CrowdError::NonFinite)
    );
    assert_eq!(with.agent(bad).unwrap().state(), AgentState::Invalid);
    for _ in 0..40 {
        with.step(0.1, 1).unwrap();
        without.step(0.1, 1).unwrap();
    }
    assert_eq!(with.agent(bad).unwrap().state(), AgentState::Invalid);
    let first = |c: &Crowd| c.agents().next().unwrap().1.position;
    assert_eq!(first(&with), first(&without));
    // A finite position revives it.
    with.set_position(bad, Vec3::new(5.0, 0.0, 5.0), 0.0)
        .unwrap();
    with.step(0.1, 1).unwrap();
    assert_ne!(with.agent(bad).unwrap().state(), AgentState::Invalid);
}

#[test]
fn many_agents_sharing_a_destination_settle() {
    let mut c = Crowd::new(40).unwrap();
    let goal = Vec3::new(0.0, 0.0, 0.0);
    let mut ids = Vec::new();
    for i in 0..40 {
        let a = i as f32 * core::f32::consts::TAU / 40.0;
        let p = Vec3::new(a.cos() * 15.0 + (i % 3) as f32, 0.0, a.sin() * 15.0);
        let id = c.add_agent(p, 0.0, 1.3, 0.3).unwrap();
        c.set_target(id, goal, 0.5).unwrap();
        ids.push(id);
    }
    for _ in 0..600 {
        c.step(0.1, 1).unwrap();
    }
    assert!(ids
        .iter()
        .all(|&id| c.agent(id).unwrap().state() == AgentState::Arrived));
    let before: Vec<Vec3> = ids
        .iter()
        .map(|&id| c.agent(id).unwrap().position)
        .collect();
    for _ in 0..50 {
        c.step(0.1, 1).unwrap();
    }
    let drift = ids
        .iter()
        .zip(&before)
        .map(|(&id, p)| c.agent(id).unwrap().position.distance(*p))
        .fold(0.0f32, f32::max);
    assert!(drift < 1e-3, "the settled blob still moves by {drift}");
}

fn head_on(priority_b: f32) -> (f32, f32) {
    let mut c = Crowd::new(2).unwrap();
    let a = c
        .add_agent(Vec3::new(0.0, 0.0, -8.0), 0.0, 1.3, 0.4)
        .unwrap();
    let b = c
        .add_agent(Vec3::new(0.0, 0.0, 8.0), core::f32::consts::PI, 1.3, 0.4)
        .unwrap();
    c.set_target(a, Vec3::new(0.0, 0.0, 8.0), 0.3).unwrap();
    c.set_target(b, Vec3::new(0.0, 0.0, -8.0), 0.3).unwrap();
    c.set_priority(b, priority_b, 1, u32::MAX).unwrap();
    let (mut da, mut db) = (0.0f32, 0.0f32);
    for _ in 0..200 {
        c.step(0.1, 1).unwrap();
        da = da.max(c.agent(a).unwrap().position.x.abs());
        db = db.max(c.agent(b).unwrap().position.x.abs());
        let gap = c
            .agent(a)
            .unwrap()
            .position
            .distance(c.agent(b).unwrap().position);
        assert!(gap >= 0.8 * 0.95, "they collided: {gap}");
    }
    assert_eq!(c.agent(a).unwrap().state(), AgentState::Arrived);
    assert_eq!(c.agent(b).unwrap().state(), AgentState::Arrived);
    (da, db)
}

#[test]
fn head_on_pairs_pass_and_the_lower_priority_yields() {
    let (da, db) = head_on(0.0);
    assert!(da > 0.1 && db > 0.1, "both step aside: {da} {db}");
    let (da, db) = head_on(5.0);
    assert!(da > db, "a (lower) should deviate more: {da} vs {db}");
}

#[test]
fn agents_that_mask_each_other_out_walk_through() {
    let mut c = Crowd::new(2).unwrap();
    let a = c
        .add_agent(Vec3::new(0.0, 0.0, -5.0), 0.0, 1.0, 0.4)
        .unwrap();
    let b = c
        .add_agent(Vec3::new(0.0, 0.0, 5.0), core::f32::consts::PI, 1.0, 0.4)
        .unwrap();
    c.set_target(a, Vec3::new(0.0, 0.0, 5.0), 0.2).unwrap();
    c.set_target(b, Vec3::new(0.0, 0.0, -5.0), 0.2).unwrap();
    c.set_priority(a, 0.0, 1, 0).unwrap();
    c.set_priority(b, 0.0, 2, 0).unwrap();
    let mut closest = f32::INFINITY;
    for _ in 0..150 {
        c.step(0.1, 1).unwrap();
        let d = c
            .agent(a)
            .unwrap()
            .position
            .distance(c.agent(b).unwrap().position);
        closest = closest.min(d);
    }
    assert!(
        closest < 0.2,
        "ghosts should pass through each other: {closest}"
    );
    assert!(c.agent(a).unwrap().position.x.abs() < 1e-4);
}

#[test]
fn waypoints_are_walked_in_order() {
    let mut c = Crowd::new(1).unwrap();
    let a = c.add_agent(Vec3::ZERO, 0.0, 1.5, 0.3).unwrap();
    let corners = [Vec3::new(0.0, 0.0, 5.0), Vec3::new(5.0, 0.0, 5.0)];
    c.set_waypoints(a, &corners).unwrap();
    c.set_route_mode(a, RouteMode::Waypoints).unwrap();
    c.set_target(a, Vec3::new(5.0, 0.0, 0.0), 0.2).unwrap();
    let mut near = [f32::INFINITY; 2];
    for _ in 0..200 {
        c.step(0.1, 1).unwrap();
        let p = c.agent(a).unwrap().position;
        for (n, w) in near.iter_mut().zip(&corners) {
            *n = n.min(p.distance(*w));
        }
    }
    assert!(near.iter().all(|&n| n <= 0.6 + 1e-3), "{near:?}");
    assert_eq!(c.agent(a).unwrap().state(), AgentState::Arrived);
    assert!(
        c.agent(a)
            .unwrap()
            .position
            .distance(Vec3::new(5.0, 0.0, 0.0))
            <= 0.2
    );
}

#[test]
fn a_wall_ahead_is_reported_as_the_hit_and_never_entered() {
    let mut c = Crowd::new(1).unwrap();
    let wall = c
        .add_obstacle(Obstacle::Wall {
            a: Vec3::new(-3.0, 0.0, 4.0),
            b: Vec3::new(3.0, 0.0, 4.0),
        })
        .unwrap();
    let a = c
        .add_agent(Vec3::new(0.5, 2.0, 0.0), 0.0, 1.3, 0.4)
        .unwrap();
    c.set_target(a, Vec3::new(0.5, 2.0, 9.0), 0.3).unwrap();
    let mut saw = false;
    for _ in 0..300 {
        c.step(0.1, 1).unwrap();
        let ag = c.agent(a).unwrap();
        let h = ag.hit();
        if h.kind == HitKind::Obstacle {
            assert_eq!(h.id, wall.0);
            assert!((h.normal.length() - 1.0).abs() < 1e-4);
            if ag.position.z < 4.0 && ag.position.x.abs() < 3.0 {
                assert!(
                    h.normal.z < -0.5,
                    "the wall's near side faces the agent: {h:?}"
                );
                saw = true;
            }
        }
        // Never closer to the segment than its radius.
        let p = Vec2::new(ag.position.x, ag.position.z);
        let q = Vec2::new(p.x.clamp(-3.0, 3.0), 4.0);
        assert!(p.distance(q) >= 0.4 - 1e-3);
        assert_eq!(ag.position.y, 2.0, "y is carried through");
    }
    assert!(saw);
    assert_eq!(c.agent(a).unwrap().state(), AgentState::Arrived);
}

#[test]
fn a_fast_agent_never_passes_through_a_thin_wall() {
    // Agents at 5–44 m/s (0.5–4.4 m a step, up to 15 radii) walk at a target behind a wall
    // segment (no thickness) or a box 0.1 m thick, 5 m away, from 40 starts along it. The
    // projection pushes a disc out of an obstacle the nearest way: once a step carried the
    // centre past the wall's line, that was out the far side: 22 of the 40 went through the
    // segment (from 23 m/s on) and 20 through the box. Now a path through an obstacle stops
    // where the disc first touches it: none goes through, and every one walks round the end and
    // arrives.
    for thin in [
        Obstacle::Wall {
            a: Vec3::new(-3.0, 0.0, 0.0),
            b: Vec3::new(3.0, 0.0, 0.0),
        },
        Obstacle::Box {
            min: Vec3::new(-3.0, 0.0, -0.05),
            max: Vec3::new(3.0, 0.0, 0.05),
        },
    ] {
        for k in 0..40 {
            let mut c = Crowd::new(1).unwrap();
            c.add_obstacle(thin).unwrap();
            let x = -2.0 + 0.1 * k as f32;
            let speed = 5.0 + k as f32;
            let a = c
                .add_agent(Vec3::new(x, 0.0, -5.0), 0.0, speed, 0.3)
                .unwrap();
            c.set_target(a, Vec3::new(0.5 * x, 0.0, 5.0), 0.3).unwrap();
            let mut before = c.agent(a).unwrap().position;
            let mut arrived = false;
            for _ in 0..400 {
                c.step(0.1, 1).unwrap();
                let p = c.agent(a).unwrap().position;
                if before.z < 0.0 && p.z >= 0.0 {
                    let x = before.x + (p.x - before.x) * -before.z / (p.z - before.z);
                    assert!(
                        x.abs() >= 3.0,
                        "{thin:?}, {speed} m/s: {before} -> {p} passes through the wall at x {x}"
                    );
                }
                before = p;
                if c.agent(a).unwrap().state() == AgentState::Arrived {
                    arrived = true;
                    break;
                }
            }
            assert!(arrived, "{thin:?}, {speed} m/s from x {x}: not arrived");
        }
    }
}

/// The closest the centres of two discs come over one step when each moves in a straight line
/// from `a0` to `a1` and `b0` to `b1`.
fn closest_approach(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> f32 {
    let (x, v) = (a0 - b0, (a1 - a0) - (b1 - b0));
    let t = if v.length_squared() > 0.0 {
        (-x.dot(v) / v.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (x + v * t).length()
}

#[test]
fn fast_agents_never_pass_through_one_another() {
    // Agents at 10–50 m/s (1–5 m a step, 3–17 radii): 40 swapping places across a 15 m circle,
    // and two flows of 50 crossing at right angles. Two discs apart before and after a step
    // could cross in between: before the sweep up to 35 pairs a run passed so
    // (the straight lines between their positions bringing their centres within a quarter
    // of the radius sum, some within 6 mm). Now a body faster than its radius per step stops
    // where its centre first comes within half the radius sum of another's: none passes, every
    // agent arrives, and two threads give the same bits.
    for speed in [10.0f32, 20.0, 30.0, 50.0] {
        for scene in 0..2 {
            let mut c = Crowd::new(100).unwrap();
            let add = |c: &mut Crowd, from: Vec3, to: Vec3| {
                let yaw = (to.x - from.x).atan2(to.z - from.z);
                let id = c.add_agent(from, yaw, speed, 0.3).unwrap();
                c.set_target(id, to, 0.3).unwrap();
                id
            };
            let ids: Vec<AgentId> = if scene == 0 {
                (0..40)
                    .map(|k| {
                        let th = k as f32 / 40.0 * core::f32::consts::TAU + 0.01 * (k % 3) as f32;
                        let p = Vec3::new(th.cos(), 0.0, th.sin()) * 15.0;
                        add(&mut c, p, -p)
                    })
                    .collect()
            } else {
                (0..50)
                    .flat_map(|k| {
                        let (x, z) = (-20.0 - (k / 5) as f32 * 1.5, (k % 5) as f32 * 1.2 - 2.4);
                        [
                            add(&mut c, Vec3::new(x, 0.0, z), Vec3::new(-x, 0.0, z)),
                            add(&mut c, Vec3::new(z, 0.0, x), Vec3::new(z, 0.0, -x)),
                        ]
                    })
                    .collect()
            };
            let mut twin = c.clone();
            let at = |c: &Crowd| -> Vec<Vec2> {
                ids.iter()
                    .map(|&i| {
                        let p = c.agent(i).unwrap().position;
                        Vec2::new(p.x, p.z)
                    })
                    .collect()
            };
            let mut arrived = false;
            for step in 0..(800.0 / speed) as usize + 100 {
                let before = at(&c);
                c.step(0.1, 1).unwrap();
                twin.step(0.1, 2).unwrap();
                let after = at(&c);
                assert_eq!(after, at(&twin), "{speed} m/s, scene {scene}: two threads");
                for i in 0..ids.len() {
                    for j in i + 1..ids.len() {
                        if before[i].distance(before[j]) < 0.3 {
                            continue;
                        }
                        let d = closest_approach(before[i], after[i], before[j], after[j]);
                        assert!(
                            d >= 0.15,
                            "{speed} m/s, scene {scene}, step {step}: agents {i} and {j} pass \
                             through each other ({} -> {}, {} -> {}: centres {d} apart)",
                            before[i],
                            after[i],
                            before[j],
                            after[j]
                        );
                    }
                }
                if ids
                    .iter()
                    .all(|&i| c.agent(i).unwrap().state() == AgentState::Arrived)
                {
                    arrived = true;
                    break;
                }
            }
            assert!(
                arrived,
                "{speed} m/s, scene {scene}: not every agent arrived"
            );
        }
    }
}

#[test]
fn a_single_file_stream_settles_into_a_blob_not_a_line() {
    // 30 agents in single file walk to one point. Stopping at the first arrived agent met
    // would string them out along their own way (30 × 0.6 m = 18 m); settling needs two
    // arrived neighbours (or one blocking the way), so they wrap round into a blob.
    let mut c = Crowd::new(30).unwrap();
    let ids: Vec<AgentId> = (0..30)
        .map(|i| {
            let id = c
                .add_agent(
                    Vec3::new(0.0, 0.0, 5.0 + 0.9 * i as f32),
                    core::f32::consts::PI,
                    1.3,
                    0.3,
                )
                .unwrap();
            c.set_target(id, Vec3::ZERO, 0.3).unwrap();
            id
        })
        .collect();
    for _ in 0..1200 {
        c.step(0.1, 1).unwrap();
    }
    let states: Vec<AgentState> = ids.iter().map(|&id| c.agent(id).unwrap().state()).collect();
    assert!(
        states.iter().all(|&s| s == AgentState::Arrived),
        "{states:?}"
    );
    let farthest = ids
        .iter()
        .map(|&id| c.agent(id).unwrap().position.length())
        .fold(0.0f32, f32::max);
    // A hexagonal disc of 30 discs of radius 0.3 has a radius of about 1.8 m (settling at the
    // first arrived neighbour met left them strung out to 7.4 m). The blob keeps a short tail
    // along the way in: its farthest agent stands 3.55 m out when neighbours are predicted
    // from their last step's velocity, 4.12 m from its smoothed velocity.
    assert!(
        farthest < 4.5,
        "the blob reaches {farthest} m from the goal"
    );
}

/// Deepest overlap between any two agents, as a fraction of the smaller radius (f64).
fn deepest_overlap(c: &Crowd) -> f64 {
    let a: Vec<_> = c
        .agents()
        .map(|(_, a)| (a.position.as_dvec3(), a.radius as f64))
        .collect();
    let mut worst = 0.0f64;
    for i in 0..a.len() {
        for j in i + 1..a.len() {
            let d = (a[i].0 - a[j].0).length();
            worst = worst.max((a[i].1 + a[j].1 - d) / a[i].1.min(a[j].1));
        }
    }
    worst
}

#[test]
fn a_crush_at_a_doorway_never_overlaps_past_the_guard() {
    // 240 agents packed behind a 1.6 m door, all pushing to one point beyond it: the
    // projection alone cannot converge in such a crush (SteerSuite bottleneck-squeeze reached
    // 14.8 % of a radius); the guard holds every pair that started apart to 2 %.
    let mut c = Crowd::new(240).unwrap();
    for (lo, hi) in [(-30.0, -0.8), (0.8, 30.0)] {
        c.add_obstacle(Obstacle::Box {
            min: Vec3::new(lo, 0.0, -0.25),
            max: Vec3::new(hi, 0.0, 0.25),
        })
        .unwrap();
    }
    for i in 0..240 {
        let (x, z) = ((i % 20) as f32 * 0.9 - 8.55, -1.2 - (i / 20) as f32 * 0.9);
        let id = c.add_agent(Vec3::new(x, 0.0, z), 0.0, 1.4, 0.4).unwrap();
        c.set_target(id, Vec3::new(0.0, 0.0, 12.0), 0.3).unwrap();
        c.set_route_mode(id, RouteMode::Planned).unwrap();
    }
    assert!(deepest_overlap(&c) <= 0.0);
    let mut worst = 0.0f64;
    let mut through = 0;
    for _ in 0..400 {
        c.step(0.1, 2).unwrap();
        worst = worst.max(deepest_overlap(&c));
        through = c.agents().filter(|(_, a)| a.position.z > 0.5).count();
    }
    assert!(
        worst <= 0.02 + 1e-4,
        "deepest overlap {:.2} % of a radius",
        100.0 * worst
    );
    // About one agent a second through the door, as many as without the guard (44 in 40 s;
    // without it the deepest overlap is 5.8 % of a radius).
    assert!(through > 35, "the crowd should flow through: {through}");
}

#[test]
fn a_crowd_spawned_packed_spreads_out_instead_of_freezing() {
    // Pairs placed deeper than the guard are left to the projection (the guard would
    // otherwise freeze them where they stand).
    let mut c = Crowd::new(40).unwrap();
    for i in 0..40 {
        let a = i as f32 * 0.7;
        let id = c
            .add_agent(Vec3::new(0.3 * a.cos(), 0.0, 0.3 * a.sin()), a, 1.0, 0.4)
            .unwrap();
        c.set_target(id, Vec3::new(20.0 * a.cos(), 0.0, 20.0 * a.sin()), 0.3)
            .unwrap();
    }
    let start = deepest_overlap(&c);
    assert!(start > 1.0, "spawned overlapping: {start}");
    for _ in 0..300 {
        c.step(0.1, 1).unwrap();
    }
    assert!(deepest_overlap(&c) <= 0.02 + 1e-4);
    assert!(c.agents().all(|(_, a)| a.state() == AgentState::Arrived));
}

#[test]
fn an_agent_wedged_into_a_concave_corner_finds_its_way_out() {
    // SteerSuite forest: two boxes form a corner with a crack (0.45 m, narrower than the
    // agent) that points at the goal. On a coarse planning grid (0.81 m cells over the
    // 200 m world) the line of sight used to skip its first 1.5 cells, so the agent saw its
    // goal through the crack and pushed into the corner for ever.
    let mut c = Crowd::new(1).unwrap();
    for (min, max) in [
        ((-100.0, -100.0), (-99.0, 100.0)),
        ((99.1, -100.0), (100.0, 100.0)),
        ((-100.0, -100.0), (100.0, -99.0)),
        ((-100.0, 99.1), (100.0, 100.0)),
        ((60.448, 51.926), (61.428, 52.906)),
        ((60.025, 53.355), (61.005, 54.335)),
    ] {
        c.add_obstacle(Obstacle::Box {
            min: Vec3::new(min.0, 0.0, min.1),
            max: Vec3::new(max.0, 0.0, max.1),
        })
        .unwrap();
    }
    let a = c
        .add_agent(Vec3::new(61.505, 0.0, 53.406), 4.0, 1.3, 0.5)
        .unwrap();
    c.set_target(a, Vec3::new(40.0, 0.0, 35.0), 0.5).unwrap();
    c.set_route_mode(a, RouteMode::Planned).unwrap();
    for _ in 0..400 {
        c.step(0.1, 1).unwrap();
    }
    let p = c.agent(a).unwrap().position;
    assert_eq!(
        c.agent(a).unwrap().state(),
        AgentState::Arrived,
        "stuck at {p:?}"
    );
}

#[test]
fn an_obstacle_beyond_the_goal_does_not_hold_the_agent_off_it() {
    // SteerSuite forest, seed 4: a goal 1.16 m in front of a box, with a wall 1.85 m behind it
    // and a second box beside the way in. The agent stops at its goal, so it never reaches
    // the box or the wall; but its rays looked the full 4 m range past the goal, and the two
    // pushes (back, and sideways toward either edge of the box as it crossed the box's
    // centre line) outweighed the pull of the goal: pressed against the side box, it turned
    // on the spot 0.67 m short of the goal until the end of the run.
    for (start, yaw) in [
        (Vec2::new(-2.2, 2.66), 2.415),
        (Vec2::new(-4.0, 4.0), 2.4),
        (Vec2::new(0.15, 4.0), std::f32::consts::PI),
        (Vec2::new(0.15, 0.53), 1.6),
    ] {
        let mut c = Crowd::new(1).unwrap();
        for (min, max) in [
            ((0.335, 0.991), (1.315, 1.971)),
            ((-0.342, -2.293), (0.638, -1.313)),
            ((-11.0, -3.0), (9.0, -2.0)),
        ] {
            c.add_obstacle(Obstacle::Box {
                min: Vec3::new(min.0, 0.0, min.1),
                max: Vec3::new(max.0, 0.0, max.1),
            })
            .unwrap();
        }
        let a = c
            .add_agent(Vec3::new(start.x, 0.0, start.y), yaw, 1.3, 0.5)
            .unwrap();
        c.set_target(a, Vec3::new(0.167, 0.0, -0.148), 0.5).unwrap();
        c.set_route_mode(a, RouteMode::Planned).unwrap();
        for _ in 0..100 {
            c.step(0.1, 1).unwrap();
        }
        let ag = c.agent(a).unwrap();
        assert_eq!(
            ag.state(),
            AgentState::Arrived,
            "from {start:?}: stuck at {:?}",
            ag.position
        );
    }
}

#[test]
fn fast_agents_far_past_the_grid_cells_are_still_guarded_and_thread_independent() {
    // 40 m/s agents of radius 0.3 move 4 m per sub-step, far more than the projection grid's
    // cells (5 radii): the guard then rebuilds its grid over the final positions. Two
    // head-on columns must still never overlap past the guard, with the same bits on any
    // thread count.
    let mut base = Crowd::new(80).unwrap();
    for i in 0..40 {
        let x = (i % 8) as f32 * 0.7 - 2.45;
        let z = (i / 8) as f32 * 0.7;
        let a = base
            .add_agent(Vec3::new(x, 0.0, -30.0 - z), 0.0, 40.0, 0.3)
            .unwrap();
        base.set_target(a, Vec3::new(x, 0.0, 30.0 + z), 0.3)
            .unwrap();
        let b = base
            .add_agent(
                Vec3::new(x + 0.2, 0.0, 30.0 + z),
                core::f32::consts::PI,
                40.0,
                0.3,
            )
            .unwrap();
        base.set_target(b, Vec3::new(x + 0.2, 0.0, -30.0 - z), 0.3)
            .unwrap();
    }
    let mut runs = Vec::new();
    for threads in [1usize, 2] {
        let mut c = base.clone();
        let mut worst = 0.0f64;
        for _ in 0..60 {
            c.step(0.1, threads).unwrap();
            worst = worst.max(deepest_overlap(&c));
        }
        assert!(
            worst <= 0.02 + 1e-4,
            "deepest overlap {:.2} % of a radius",
            100.0 * worst
        );
        runs.push(bits(&c));
    }
    assert_eq!(runs[0], runs[1]);
}

/// Every agent's full state (positions, yaw, velocity, state, hit) as text: `{:?}` of an f32
/// is its shortest round-trip form, so equal text means equal bits (signed zeros included).
fn full_state(c: &Crowd) -> Vec<String> {
    c.agents().map(|(id, a)| format!("{id:?} {a:?}")).collect()
}

/// `n` agents on a ring 20–26 m round a 4 m box, all sent to its centre: they settle round
/// it in a blob, those coming late held off its gaps by the arrived agents ahead.
fn crowd_round_a_box(n: usize) -> Crowd {
    let mut c = Crowd::new(n).unwrap();
    c.add_obstacle(Obstacle::Box {
        min: Vec3::new(-2.0, 0.0, -2.0),
        max: Vec3::new(2.0, 0.0, 2.0),
    })
    .unwrap();
    for i in 0..n {
        let a = i as f32 / n as f32 * core::f32::consts::TAU;
        let r = 20.0 + (i % 7) as f32;
        let id = c
            .add_agent(Vec3::new(a.cos() * r, 0.0, a.sin() * r), 0.0, 1.3, 0.3)
            .unwrap();
        c.set_target(id, Vec3::ZERO, 0.3).unwrap();
    }
    c
}

#[test]
fn the_lane_kernels_give_the_portable_bits() {
    // Scenes with every kind of neighbour the step's cull and batched turns see: symmetric
    // head-on traffic, a crush at a door (close walkers, settling at goals), walls, random
    // obstacles, mixed priorities and layers, planned routes, a crowd settling round a box
    // (agents held off by the arrived ones ahead).
    let mut scenes = vec![
        (Scenario::circle(120, 20.0, 0.4, 1.4), 260),
        (Scenario::bottleneck(90, 1.6), 260),
        (Scenario::hallway(40, 4.0), 200),
        (Scenario::crossing(40), 200),
        (Scenario::obstacle_field(150, 60, 3), 200),
        (Scenario::benchmark(1500), 40),
    ];
    {
        let (s, _) = &mut scenes[3];
        for (k, &id) in s.agents.clone().iter().enumerate() {
            let mask = if k % 5 == 0 { 1 } else { u32::MAX };
            s.crowd
                .set_priority(id, (k % 3) as f32, 1 << (k % 2), mask)
                .unwrap();
        }
        let (s, _) = &mut scenes[4];
        for &id in s.agents.clone().iter().step_by(2) {
            s.crowd.set_route_mode(id, RouteMode::Planned).unwrap();
        }
    }
    let crowds = scenes
        .into_iter()
        .map(|(s, steps)| (s.crowd, steps))
        .chain([(crowd_round_a_box(150), 500)]);
    for (i, (crowd, steps)) in crowds.enumerate() {
        let mut portable = crowd;
        portable.set_simd(Simd::Portable);
        assert_eq!(portable.simd(), Simd::Portable);
        // Each build this CPU has, capped in turn (AVX-512 where present, then AVX2).
        let mut builds: Vec<Crowd> = [Simd::Avx512, Simd::Avx2]
            .into_iter()
            .map(|cap| {
                let mut c = portable.clone();
                c.set_simd(cap);
                assert!(c.simd() <= cap);
                c
            })
            .collect();
        for step in 0..steps {
            portable.step(0.1, 1).unwrap();
            for c in &mut builds {
                c.step(0.1, 1).unwrap();
            }
            if step % 20 == 0 || step + 1 == steps {
                for c in &builds {
                    assert_eq!(
                        full_state(c),
                        full_state(&portable),
                        "scene {i}, step {step}, {:?}",
                        c.simd()
                    );
                }
            }
        }
    }
}

/// 40 agents from a ring of 15 m sent to one point (as in
/// `many_agents_sharing_a_destination_settle`), with their ids.
fn ring_to_one_point() -> (Crowd, Vec<AgentId>) {
    let mut c = Crowd::new(40).unwrap();
    let mut ids = Vec::new();
    for i in 0..40 {
        let a = i as f32 * core::f32::consts::TAU / 40.0;
        let p = Vec3::new(a.cos() * 15.0 + (i % 3) as f32, 0.0, a.sin() * 15.0);
        let id = c.add_agent(p, 0.0, 1.3, 0.3).unwrap();
        c.set_target(id, Vec3::ZERO, 0.5).unwrap();
        ids.push(id);
    }
    (c, ids)
}

#[test]
fn re_sending_the_same_targets_every_step_changes_nothing() {
    // A game that sends every agent's target every frame gets the very run of one that sends
    // them once: the blob settles and stays settled.
    let (mut once, ids) = ring_to_one_point();
    let mut every = once.clone();
    let targets = vec![Vec3::ZERO; ids.len()];
    for step in 0..650 {
        once.step(0.1, 1).unwrap();
        every.set_targets(&ids, &targets, &[]).unwrap();
        if step % 2 == 0 {
            for &id in &ids {
                every.set_target(id, Vec3::ZERO, 0.5).unwrap();
            }
        }
        every.step(0.1, 1).unwrap();
    }
    assert!(ids
        .iter()
        .all(|&id| every.agent(id).unwrap().state() == AgentState::Arrived));
    assert_eq!(full_state(&every), full_state(&once));
    // A new target (or arrival radius) does restart an arrived agent.
    let a = ids[0];
    every.set_target(a, Vec3::ZERO, 0.6).unwrap();
    assert_eq!(every.agent(a).unwrap().state(), AgentState::Moving);
    every
        .set_targets(&[ids[1]], &[Vec3::new(0.0, 0.0, 1e-3)], &[])
        .unwrap();
    assert_eq!(every.agent(ids[1]).unwrap().state(), AgentState::Moving);
    assert_eq!(every.agent(ids[1]).unwrap().arrival_radius, 0.5, "kept");
}

/// A refused `set_targets` call: its ids, targets and radii, and the error.
type Refusal<'a> = (&'a [AgentId], &'a [Vec3], &'a [f32], CrowdError);

#[test]
fn set_targets_equals_set_target_in_order_and_refuses_all_or_nothing() {
    let (base, ids) = ring_to_one_point();
    // Targets across the ring, radii of their own; the third agent listed twice (its last
    // entry holds).
    let mut list: Vec<AgentId> = ids.clone();
    list.push(ids[2]);
    let targets: Vec<Vec3> = (0..list.len())
        .map(|i| Vec3::new((i % 7) as f32 - 3.0, 0.25, (i % 5) as f32 * 2.0 - 4.0))
        .collect();
    let radii: Vec<f32> = (0..list.len())
        .map(|i| 0.2 + 0.05 * (i % 4) as f32)
        .collect();
    let mut batch = base.clone();
    let mut single = base.clone();
    batch.set_targets(&list, &targets, &radii).unwrap();
    for ((&id, &t), &r) in list.iter().zip(&targets).zip(&radii) {
        single.set_target(id, t, r).unwrap();
    }
    assert_eq!(batch.agent(ids[2]).unwrap().target, targets[list.len() - 1]);
    for _ in 0..80 {
        batch.step(0.1, 1).unwrap();
        single.step(0.1, 1).unwrap();
    }
    assert_eq!(full_state(&batch), full_state(&single));

    // Every refusal leaves every agent as it was (the first entries are good ones).
    let before = full_state(&batch);
    let good = Vec3::new(5.0, 0.0, 5.0);
    let mut gone = base.clone();
    gone.remove_agent(ids[5]).unwrap();
    let refusals: [Refusal; 6] = [
        (&ids[..2], &[good], &[], CrowdError::InvalidArgument),
        (
            &ids[..2],
            &[good, good],
            &[0.3],
            CrowdError::InvalidArgument,
        ),
        (
            &[ids[0], AgentId(12345)],
            &[good, good],
            &[],
            CrowdError::UnknownId,
        ),
        (&ids[..2], &[good, Vec3::NAN], &[], CrowdError::NonFinite),
        (
            &ids[..2],
            &[good, good],
            &[0.3, f32::INFINITY],
            CrowdError::NonFinite,
        ),
        (
            &ids[..2],
            &[good, good],
            &[0.3, -0.1],
            CrowdError::InvalidArgument,
        ),
    ];
    for (list, targets, radii, err) in refusals {
        assert_eq!(batch.set_targets(list, targets, radii), Err(err));
        assert_eq!(full_state(&batch), before);
    }
    let gone_before = full_state(&gone);
    assert_eq!(
        gone.set_targets(&[ids[0], ids[5]], &[good, good], &[]),
        Err(CrowdError::UnknownId),
        "a removed agent's id"
    );
    assert_eq!(full_state(&gone), gone_before);
    assert_eq!(batch.set_targets(&[], &[], &[]), Ok(()));
}
