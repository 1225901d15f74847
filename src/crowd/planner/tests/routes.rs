//! Routes agents take: doors, searches while waiting for a field, goals inside obstacles,
//! agents off the grid.

use super::*;

#[test]
fn doors_a_little_wider_than_the_agent_are_used_wherever_the_grid_lies() {
    // 0.8 m ≥ 2 × (0.3 + PASS_SKIN) + a third of the 0.25 m cell: open at every offset
    // of the door against the grid (centre sampling alone closed doors under 1.1 m here).
    for k in 0..6 {
        let z0 = k as f32 * 0.25 / 6.0;
        let (t, ideal, cell) = door_time(0.8, z0);
        assert_eq!(cell, MIN_PLANNER_CELL);
        let t = t.unwrap_or_else(|| panic!("door at {z0}: never arrived"));
        // Through the door, not round the 30 m wall (about 5 × ideal).
        assert!(t < 1.4 * ideal, "door at {z0}: {t} s against {ideal} s");
    }
}

#[test]
fn doors_narrower_than_the_agent_are_walked_round() {
    let (t, ideal, _) = door_time(0.55, 0.1);
    let t = t.expect("arrives round the wall");
    assert!(
        t > 3.0 * ideal,
        "{t} s against {ideal} s: through a 0.55 m door?"
    );
}

#[test]
fn an_agent_waiting_for_a_field_searches_in_its_turn_or_walks_straight() {
    // Agents all over an obstacle field ask for a far goal while no field can come (none
    // cached, the field budget spent). Out of search budget, or out of turn, each walks
    // straight at the target and no line of sight is tested. In its turn it searches, and
    // its aim, like the goal's field's, lies on a shortest way (the search is a descent of
    // that field; where equal ways tie, the two may take different ones).
    let mut p = field_planner();
    let mut fielded = p.clone();
    let tests = core::cell::Cell::new(0u32);
    let fits = |_: Vec2| {
        tests.set(tests.get() + 1);
        true
    };
    let target = Vec2::new(14.0, 15.0);
    let mut routed = 0;
    for i in 0..64 {
        let pos = Vec2::new(-16.0 + (i % 8) as f32 * 2.3, -16.0 + (i / 8) as f32 * 2.1);
        p.budget = 0;
        p.search_cells = 0;
        tests.set(0);
        assert_eq!(
            p.next_point(pos, target, 0.3, i, None, false, &mut Approach::Off, fits),
            (target, false)
        );
        // At most one point is tested: whether the agent fits at its target (which names
        // the goal's field); a line of sight 30 m long would test many.
        assert!(tests.get() <= 1, "no line tested without searches left");
        p.search_cells = u64::MAX;
        tests.set(0);
        (p.stride, p.sub_steps) = (2, u64::from(i) + 1);
        assert_eq!(
            p.next_point(pos, target, 0.3, i, None, false, &mut Approach::Off, fits),
            (target, false)
        );
        assert!(tests.get() <= 1, "no line tested out of turn");
        p.stride = 1;
        tests.set(0);
        let searched = p.next_point(pos, target, 0.3, i, None, false, &mut Approach::Off, fits);
        assert!(tests.get() > 3, "lines tested in its turn");
        fielded.budget = 1;
        let by_field =
            fielded.next_point(pos, target, 0.3, i, None, false, &mut Approach::Off, fits);
        routed += usize::from(by_field.0 != target);
        // Both aims lie on a shortest way: the field's value where the aim is, plus the
        // straight walk to it, is the value where the agent is (to within a cell or two:
        // the aim is a cell's point, the agent anywhere in its cell).
        let d = &fielded.fields[0].dist;
        let via = |aim: Vec2| d[p.clamped_cell(aim)] + aim.distance(pos) / p.cell;
        let here = d[p.clamped_cell(pos)];
        for (aim, by) in [(searched.0, "search"), (by_field.0, "field")] {
            assert!(
                via(aim) <= here + 1.0,
                "{pos}: {by} {aim}, {} > {here}",
                via(aim)
            );
        }
    }
    assert_eq!((p.fields_computed(), fielded.fields_computed()), (0, 1));
    assert!(routed > 10, "{routed} of 64 walk round obstacles");
    assert_eq!(
        p.paths_searched() as usize,
        routed,
        "a search per blocked line"
    );
}

#[test]
fn the_turns_to_search_widen_when_searches_run_out_and_narrow_again() {
    let mut p = field_planner();
    p.begin_step();
    assert_eq!(p.stride, 1);
    // 100 asked, 10 searched before the cells ran out: turns every 10 sub-steps.
    (p.asked, p.granted, p.search_cells) = (100, 10, 0);
    p.begin_step();
    assert_eq!(p.stride, 10);
    assert!(p.search_cells > 0);
    // Searches to spare: turns twice as often, down to every sub-step.
    for want in [5, 2, 1, 1] {
        (p.asked, p.granted) = (3, 3);
        p.begin_step();
        assert_eq!(p.stride, want);
    }
    (p.asked, p.granted, p.search_cells) = (u64::MAX / 2, 1, 0);
    p.begin_step();
    assert_eq!(p.stride, MAX_STRIDE);
}

#[test]
fn the_planner_waits_for_an_agent_that_plans() {
    // Agents that walk straight: the planner is never built, whatever the obstacles do.
    // The first step with a planned agent brings it up to date (a rebuild; later, with
    // the changes noted meanwhile, a local update); removing or switching the last
    // planned agent stops the updates again.
    let mut s = Scenario::obstacle_field(20, 40, 3);
    let c = &mut s.crowd;
    let agents: Vec<_> = c.agents().map(|(id, _)| id).collect();
    for &a in &agents {
        c.set_route_mode(a, RouteMode::Direct).unwrap();
    }
    let mut rng = SplitMix(9);
    let mut moved = |c: &mut Crowd, rounds: usize| {
        for _ in 0..rounds {
            let ids: Vec<ObstacleId> = c.obstacles().map(|(id, _)| id).collect();
            let id = ids[(rng.next_u64() % ids.len() as u64) as usize];
            c.remove_obstacle(id).unwrap();
            c.add_obstacle(random_obstacle(&mut rng, 15.0)).unwrap();
            step(c, 1);
        }
    };
    let fresh = |c: &Crowd| grid_bits(&rebuilt_like(c.planner(), &shapes_of(c)));
    moved(c, 10);
    assert_eq!((c.planner().cells(), c.planner().fields_computed()), (0, 0));
    c.set_route_mode(agents[0], RouteMode::Planned).unwrap();
    step(c, 1);
    assert!(c.planner().cells() > 0);
    assert!(!c.planner().building(), "a first grid is built at once");
    assert_eq!(grid_bits(c.planner()), fresh(c));
    // Switched back: the changes are noted, not applied; a new planned agent applies them.
    c.set_route_mode(agents[0], RouteMode::Waypoints).unwrap();
    moved(c, 5);
    assert_ne!(grid_bits(c.planner()), fresh(c));
    c.remove_agent(agents[1]).unwrap(); // (the crowd is full)
    let id = c.add_agent(Vec3::ZERO, 0.0, 1.3, 0.3).unwrap();
    c.set_route_mode(id, RouteMode::Planned).unwrap();
    step(c, 1);
    built(c);
    assert_eq!(grid_bits(c.planner()), fresh(c));
    // (Its goal its own: a way of its own, or a field.)
    assert!(c.planner().fields_computed() + c.planner().paths_searched() > 0);
    // Removed: no planned agent is left.
    c.remove_agent(id).unwrap();
    moved(c, 3);
    assert_ne!(grid_bits(c.planner()), fresh(c));
    // Agents added planned (the defaults) count too.
    let mut d = c.agent_defaults();
    d.route_mode = RouteMode::Planned;
    c.set_agent_defaults(d).unwrap();
    c.add_agent(Vec3::new(1.0, 0.0, 1.0), 0.0, 1.3, 0.3)
        .unwrap();
    step(c, 1);
    built(c);
    assert_eq!(grid_bits(c.planner()), fresh(c));
}

#[test]
fn obstacles_whose_span_rounds_to_zero_or_overflows_leave_no_grid() {
    // Found by fuzz/crowd_ffi: a point-sized box at 1e15, where the 4 m margin rounds
    // away, gave a span of 0 and 0 cells, and listing obstacles per cell divided by zero.
    // Boxes 6e38 apart (beyond the C ABI's domain) overflow the span: 0 cells too.
    use crate::crowd::Obstacle;
    use glam::Vec3;
    let mut c = Crowd::new(8).unwrap();
    let center = Vec3::new(1e15, 0.0, 1e15);
    let point = Obstacle::OrientedBox {
        center,
        half_x: 0.0,
        half_z: 0.0,
        yaw: 2.0,
    };
    c.add_obstacle(point).unwrap();
    for x in [-3e38f32, 3e38] {
        let (min, max) = (Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1e32, 0.0, 1.0));
        c.add_obstacle(Obstacle::Box { min, max }).unwrap();
    }
    let id = c.add_agent(Vec3::ZERO, 0.0, 1.0, 0.3).unwrap();
    c.set_route_mode(id, RouteMode::Planned).unwrap();
    c.set_target(id, Vec3::new(5.0, 0.0, 0.0), 0.3).unwrap();
    step(&mut c, 3);
    assert_eq!((c.planner().cells(), c.planner().cell_size()), (0, 0.0));
    assert!(c.agent(id).unwrap().position.x > 0.0);
}

#[test]
fn an_agent_far_outside_the_grid_routes_without_sampling_the_way_there() {
    // Found by fuzz/crowd_ffi and crowd_threads: the first hop's straight-slide test from
    // an agent 1e20 m out to the grid's border took 1e20 / step samples (a hang).
    use crate::crowd::{Obstacle, RouteMode};
    use glam::Vec3;
    let mut c = Crowd::new(8).unwrap();
    let (min, max) = (Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, 1.0));
    c.add_obstacle(Obstacle::Box { min, max }).unwrap();
    let id = c
        .add_agent(Vec3::new(1e20, 0.0, 3e19), 0.0, 1.0, 0.3)
        .unwrap();
    c.set_route_mode(id, RouteMode::Planned).unwrap();
    c.set_target(id, Vec3::new(-5.0, 0.0, 0.0), 0.3).unwrap();
    step(&mut c, 3);
    assert!(c.agent(id).unwrap().position.is_finite());
}

#[test]
fn the_field_of_a_goal_inside_an_obstacle_starts_on_every_side_of_it() {
    // A 4 m box round the goal (its block has no open cell), placed across the goal
    // blocks, and a disc 1.5 m off its side (not touching what is closed round the box for
    // an agent of radius 0.3). The seeds are the open cells next to the closed region the
    // block lies in (found here by a flood over the whole grid), at 0: on every side of
    // the box, none round the disc.
    let centre = Vec2::new(0.6, 0.42);
    let mut c = Crowd::new(1).unwrap();
    let c3 = Vec3::new(centre.x, 0.0, centre.y);
    c.add_obstacle(Obstacle::Box {
        min: c3 - Vec3::new(2.0, 0.0, 2.0),
        max: c3 + Vec3::new(2.0, 0.0, 2.0),
    })
    .unwrap();
    c.add_obstacle(Obstacle::Circle {
        center: c3 + Vec3::new(4.5, 0.0, 0.0),
        radius: 0.5,
    })
    .unwrap();
    for (x, z) in [(-20.0, -20.0), (20.0, 20.0)] {
        c.add_obstacle(Obstacle::Circle {
            center: Vec3::new(x, 0.0, z),
            radius: 0.5,
        })
        .unwrap();
    }
    let mut p = Planner::default();
    p.rebuild(&shapes_of(&c));
    let pass = Planner::pass(0.3);
    // The agent does not fit at its target: the goal is the whole block.
    let goal = p.goal_cell(centre, pass, true);
    assert_eq!(goal, p.goal_block(centre) | WHOLE_BLOCK);
    let goal_block = p.goal_block(centre);
    let (nx, nz) = (p.nx as i64, p.nz as i64);
    let bc = p.block_cells() as i64;
    let (bx, bz) = (goal_block as i64 % nx, goal_block as i64 / nx);
    let closed = |x: i64, z: i64| p.rep_clear[(x + z * nx) as usize] < pass;
    // The flood, over the whole grid.
    let mut region = std::collections::HashSet::new();
    let mut todo: Vec<(i64, i64)> = Vec::new();
    for z in bz..bz + bc {
        for x in bx..bx + bc {
            assert!(closed(x, z), "the goal block has an open cell");
            region.insert((x, z));
            todo.push((x, z));
        }
    }
    let mut border = std::collections::BTreeSet::new();
    while let Some((x, z)) = todo.pop() {
        for (dx, dz, _) in NEIGHBOURS {
            let (x, z) = (x + dx, z + dz);
            if x < 0 || z < 0 || x >= nx || z >= nz {
                continue;
            }
            if !closed(x, z) {
                border.insert((x + z * nx) as u32);
            } else if region.insert((x, z)) {
                todo.push((x, z));
            }
        }
    }
    let seeds = p.seeds(goal, pass);
    assert!(seeds.iter().all(|&(_, d)| d == 0.0));
    let got: std::collections::BTreeSet<u32> = seeds.iter().map(|&(c, _)| c).collect();
    assert_eq!(got.len(), seeds.len(), "a cell seeded twice");
    assert_eq!(got, border);
    // Every side of the box, and nothing near the disc.
    let points: Vec<Vec2> = seeds
        .iter()
        .map(|&(c, _)| p.rep[c as usize] - centre)
        .collect();
    for side in [Vec2::X, Vec2::NEG_X, Vec2::Y, Vec2::NEG_Y] {
        let on_side = points
            .iter()
            .filter(|q| q.dot(side) > 2.0 && q.perp_dot(side).abs() < 2.0)
            .count();
        assert!(
            on_side >= 14,
            "{on_side} seeds along the side toward {side}"
        );
    }
    assert!(points.iter().all(|q| q.distance(Vec2::new(4.5, 0.0)) > 1.0));
}

/// A planner over a corridor 1.4 m wide running north from z = −10 (walls at x = ±0.7) to
/// `north`, closed there by a box when `dead_end`.
fn corridor(north: f32, dead_end: bool) -> Planner {
    let mut c = Crowd::new(1).unwrap();
    if dead_end {
        c.add_obstacle(Obstacle::Box {
            min: Vec3::new(-3.0, 0.0, north),
            max: Vec3::new(3.0, 0.0, north + 2.4),
        })
        .unwrap();
    }
    for x in [-0.7f32, 0.7] {
        c.add_obstacle(Obstacle::Wall {
            a: Vec3::new(x, 0.0, -10.0),
            b: Vec3::new(x, 0.0, north),
        })
        .unwrap();
    }
    let mut p = Planner::default();
    p.rebuild(&shapes_of(&c));
    p
}

#[test]
fn an_agent_giving_way_with_no_way_round_backs_off_where_there_is_room_not_into_a_wall() {
    // An agent of radius 0.4 at the corridor's east wall, the other agent north-west of it.
    // Straight away from the other is into the east wall; the retreat goes south, along the
    // corridor, and each step of it is no nearer the other.
    let p = corridor(10.0, false);
    let pass = Planner::pass(0.4);
    let pos = Vec2::new(0.2, 0.0);
    let other = Vec2::new(-0.35, 0.6);
    let from = p.clamped_cell(pos);
    let to = p.retreat(from, other, pass).expect("room to back off");
    assert!(to.y < pos.y - 0.2, "backs off south: {to}");
    assert!(to.distance(other) > pos.distance(other) + 0.2, "{to}");
    assert!(p.rep_clear[p.clamped_cell(to)] >= pass, "{to} is open");
    // Boxed in (the other straight south in a dead end): no retreat.
    let p = corridor(0.6, true);
    let pos = Vec2::new(0.0, 0.0);
    let from = p.clamped_cell(pos);
    let south = Vec2::new(0.0, -0.8);
    let to = p.retreat(from, south, pass);
    assert!(
        to.is_none_or(|t| t.distance(south) <= p.center(from).distance(south) + 0.3),
        "{to:?}"
    );
}

/// A corridor 4 m wide along z (walls at x = ±2, 40 m long), its planner, and the room an
/// agent needing `need(0.3)` has from the middle to either side.
fn wide_corridor() -> (Planner, f32, f32) {
    let mut c = Crowd::new(4).unwrap();
    for x in [-3.0f32, 2.0] {
        c.add_obstacle(Obstacle::Box {
            min: Vec3::new(x, 0.0, -20.0),
            max: Vec3::new(x + 1.0, 0.0, 20.0),
        })
        .unwrap();
    }
    let mut p = Planner::default();
    p.rebuild(&shapes_of(&c));
    let need = p.need(0.3);
    (p, need, 2.0 - need)
}

/// A field over `p` falling along z the way `dir` (±1) points, `end` cells at z = 10·dir.
fn falling(p: &Planner, dir: f32, end: f32) -> Vec<f32> {
    let at = |c: usize| dir * (c / p.nx) as f32;
    let last = at(p.clamped_cell(Vec2::new(0.0, 10.0 * dir)));
    (0..p.nx * p.nz).map(|c| end + last - at(c)).collect()
}

#[test]
fn streams_meeting_head_on_keep_to_their_right_hand_lanes() {
    let (mut p, need, room) = wide_corridor();
    // Walkers both ways all along the middle of the corridor.
    p.clear_flows();
    for k in -16..16 {
        for dir in [1.0f32, -1.0] {
            p.add_flow(Vec2::new(0.0, k as f32), Vec2::new(0.0, dir));
        }
    }
    let fits = |_: Vec2| true;
    // Walking up (+z) the right-hand side is +x, walking down it is −x; from an aim in the
    // middle or hugging either wall, the aim moves to three quarters of the room across.
    for aim_x in [0.0, -room + 0.1, room - 0.1] {
        for dir in [1.0f32, -1.0] {
            let pos = Vec2::new(aim_x, -10.0 * dir);
            let aim = Vec2::new(aim_x, 10.0 * dir);
            let field = falling(&p, dir, 40.0 / p.cell);
            let lane = p.keep_right(pos, aim, &field, need, 0.1, &fits);
            assert_eq!(lane.y, aim.y, "moved across the way only");
            let x = lane.x * dir;
            // Within a cell of three quarters of the room from the left, and clear.
            assert!(
                x > 0.25 * room,
                "{aim} walking {dir}: {lane} not in the right lane"
            );
            assert!((x - 0.5 * room).abs() <= p.cell_size(), "{aim}: {lane}");
            assert!(lane.x.abs() <= room, "{lane} nearer a wall than the radius");
            // Near the end of its way, the lane narrows: at most a quarter of the way left.
            let end = p.keep_right(pos, aim, &falling(&p, dir, 1.0 / p.cell), need, 0.1, &fits);
            assert!(end.distance(aim) <= 0.25 + 1e-5, "{aim}: {end}");
        }
    }
}

#[test]
fn a_stream_alone_in_its_way_keeps_the_whole_way() {
    let (mut p, need, room) = wide_corridor();
    let fits = |_: Vec2| true;
    for dir in [1.0f32, -1.0] {
        let field = falling(&p, dir, 40.0 / p.cell);
        // Everyone walking the same way (a crush at a door), or no one at all.
        p.clear_flows();
        for k in -16..16 {
            for x in [-1.0f32, 0.0, 1.0] {
                p.add_flow(Vec2::new(x, k as f32), Vec2::new(0.0, dir));
            }
        }
        for aim_x in [0.0, -room + 0.1, room - 0.1] {
            let pos = Vec2::new(aim_x, -10.0 * dir);
            let aim = Vec2::new(aim_x, 10.0 * dir);
            assert_eq!(p.keep_right(pos, aim, &field, need, 0.1, &fits), aim);
        }
        p.clear_flows();
        let (pos, aim) = (Vec2::new(0.0, -10.0 * dir), Vec2::new(0.0, 10.0 * dir));
        assert_eq!(p.keep_right(pos, aim, &field, need, 0.1, &fits), aim);
    }
}

#[test]
fn a_walkers_way_falls_in_the_nearest_of_the_eight_bins() {
    // Every tenth of a degree round the circle, at lengths from a crawl to a stride: the bin
    // is the one whose direction lies nearest (the largest dot product, to rounding at the
    // 22.5° edges between bins).
    for k in 0..3600 {
        let a = (k as f64 / 10.0).to_radians();
        for len in [0.01f32, 0.5, 1.0] {
            let h = Vec2::new(a.cos() as f32, a.sin() as f32) * len;
            let best = BINS.iter().map(|u| u.dot(h)).fold(f32::MIN, f32::max);
            let got = BINS[bin(h)].dot(h);
            assert!(
                got >= best - 1e-5 * len,
                "{h}: bin {} ({got} < {best})",
                bin(h)
            );
        }
    }
}
