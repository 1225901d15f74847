//! Unit tests of the planner, by concern; shared scenes and reference computations here.

use super::fields::WHOLE_BLOCK;
use super::grid::*;
use super::lanes::{bin, BINS};
use super::lists::*;
use super::route::*;
use super::search::*;
use super::spread::*;
use super::*;
use crate::crowd::obstacle::Shape;
use crate::crowd::scenario::{Scenario, SplitMix};
use crate::crowd::{Crowd, CrowdError, Obstacle, ObstacleId, RouteMode};
use glam::Vec3;

mod cache;
mod clearance;
mod grid;
mod routes;
mod ways;

/// An obstacle field whose 40 planned agents head for ~20 distinct goal blocks.
fn field_scene() -> Scenario {
    Scenario::obstacle_field(40, 40, 7)
}

fn bytes_of(p: &Planner, fields: usize) -> usize {
    fields * p.cells() * core::mem::size_of::<f32>()
}

fn step(c: &mut Crowd, steps: usize) {
    for _ in 0..steps {
        c.step(0.1, 1).unwrap();
    }
}

/// Steps until the planner's grid build under way, if any, has ended (a crowd builds the grid
/// in slices over its sub-steps).
fn built(c: &mut Crowd) {
    for _ in 0..GRID_FIELDS {
        if !c.planner().building() {
            return;
        }
        step(c, 1);
    }
    assert!(
        !c.planner().building(),
        "a build ends within GRID_FIELDS steps"
    );
}

/// A wall across x = 0 (boxes 1 m thick reaching 30 m to each side) with a door `width`
/// wide centred on z = `z0`, and one planned agent of radius 0.3 walking at 1.3 m/s from
/// x = −6 to x = 6 along the door's line: the seconds it takes to arrive (`None`: not in
/// 120 s), its ideal time, and the planning cell.
fn door_time(width: f32, z0: f32) -> (Option<f32>, f32, f32) {
    use crate::crowd::{AgentState, Obstacle, RouteMode};
    use glam::Vec3;
    let mut c = Crowd::new(4).unwrap();
    let mut d = c.agent_defaults();
    d.route_mode = RouteMode::Planned;
    c.set_agent_defaults(d).unwrap();
    for (lo, hi) in [(z0 + width / 2.0, 30.0), (-30.0, z0 - width / 2.0)] {
        let (min, max) = (Vec3::new(-0.5, 0.0, lo), Vec3::new(0.5, 0.0, hi));
        c.add_obstacle(Obstacle::Box { min, max }).unwrap();
    }
    let id = c
        .add_agent(
            Vec3::new(-6.0, 0.0, z0),
            core::f32::consts::FRAC_PI_2,
            1.3,
            0.3,
        )
        .unwrap();
    c.set_target(id, Vec3::new(6.0, 0.0, z0), 0.3).unwrap();
    let ideal = (12.0 - 0.3) / 1.3;
    for k in 1..=1200 {
        c.step(0.1, 1).unwrap();
        let a = c.agent(id).unwrap();
        for (_, o) in c.obstacles() {
            let at = glam::Vec2::new(a.position.x, a.position.z);
            assert!(o.shape().unwrap().contact(at).distance > 0.3 - 1e-3);
        }
        if a.state() == AgentState::Arrived {
            return (Some(k as f32 * 0.1), ideal, c.planner().cell_size());
        }
    }
    (None, ideal, c.planner().cell_size())
}

/// The obstacles of a crowd as the planner sees them.
fn shapes_of(c: &Crowd) -> Vec<Option<Shape>> {
    c.obstacles().map(|(_, o)| o.shape()).collect()
}

/// A planner built over the 60 obstacles of `Scenario::obstacle_field(0, 60, 5)`.
fn field_planner() -> Planner {
    let mut p = Planner::default();
    p.rebuild(&shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd));
    p
}

/// Whether `p`'s grid covers the obstacles and their margin.
fn covers(p: &Planner, shapes: &[Option<Shape>]) -> bool {
    let (lo, hi) = Planner::bounds(shapes).unwrap();
    let (origin, cell, nx, nz) = p.current_layout().unwrap();
    let end = origin + Vec2::new(nx as f32, nz as f32) * cell;
    lo.cmpge(origin).all() && hi.cmple(end).all()
}

/// A planner rebuilt over `shapes` on `p`'s grid.
fn rebuilt_like(p: &Planner, shapes: &[Option<Shape>]) -> Planner {
    let mut fresh = Planner::default();
    fresh.rebuild_in_runs(shapes, LIST_ITEMS, p.current_layout());
    fresh
}

/// Every stored clearance, point, segment and move level, as bits.
fn grid_bits(p: &Planner) -> Vec<u32> {
    let mut v = vec![p.nx as u32, p.nz as u32, p.cell.to_bits()];
    v.extend([p.origin.x.to_bits(), p.origin.y.to_bits()]);
    v.extend(p.clearance.iter().map(|x| x.to_bits()));
    v.extend(p.rep_clear.iter().map(|x| x.to_bits()));
    v.extend(p.rep.iter().flat_map(|q| [q.x.to_bits(), q.y.to_bits()]));
    v.extend(p.edge.iter().flatten().map(|x| x.to_bits()));
    v.extend(
        p.reach_level
            .iter()
            .flat_map(|&l| [l as u32, (l >> 32) as u32]),
    );
    v.extend(p.point_level.iter().map(|&l| u32::from(l)));
    v
}

/// A random obstacle of any kind inside the square of half-width `half`.
fn random_obstacle(rng: &mut SplitMix, half: f32) -> Obstacle {
    let c = Vec3::new(rng.range(-half, half), 0.0, rng.range(-half, half));
    let r = rng.range(0.2, 2.0);
    match rng.next_u64() % 4 {
        0 => Obstacle::Circle {
            center: c,
            radius: r,
        },
        1 => Obstacle::Box {
            min: c - Vec3::new(r, 0.0, 0.5 * r),
            max: c + Vec3::new(0.5 * r, 0.0, r),
        },
        2 => Obstacle::OrientedBox {
            center: c,
            half_x: r,
            half_z: 0.3 * r,
            yaw: rng.range(0.0, 3.1),
        },
        _ => Obstacle::Wall {
            a: c,
            b: c + Vec3::new(rng.range(-4.0, 4.0), 0.0, rng.range(-4.0, 4.0)),
        },
    }
}

/// Dijkstra's algorithm as in the textbook (a binary heap, every move tested with
/// `can_move`, its own neighbour indexing): the reference for the bucket queue and the
/// move clearances.
fn textbook_field(p: &Planner, goal: usize, pass: f32) -> Vec<f32> {
    use std::collections::BinaryHeap;
    let (nx, nz) = (p.nx as i64, p.nz as i64);
    let mut dist = vec![f32::INFINITY; p.nx * p.nz];
    let mut heap = BinaryHeap::new();
    for (c, d) in p.seeds(goal, pass) {
        dist[c as usize] = d;
        heap.push(Reverse((d.to_bits(), c as usize)));
    }
    while let Some(Reverse((bits, c))) = heap.pop() {
        let d = f32::from_bits(bits);
        if d > dist[c] {
            continue;
        }
        let (x, z) = (c as i64 % nx, c as i64 / nx);
        for (dx, dz, w) in NEIGHBOURS {
            if !(0..nx).contains(&(x + dx)) || !(0..nz).contains(&(z + dz)) {
                continue;
            }
            let n = (x + dx + (z + dz) * nx) as usize;
            if p.can_move(c, n, dx, dz, pass) && d + w < dist[n] {
                dist[n] = d + w;
                heap.push(Reverse(((d + w).to_bits(), n)));
            }
        }
    }
    dist
}

/// `Planner::clear_line` as it was before blocks: every sample taken.
fn clear_line_every_sample(p: &Planner, a: Vec2, b: Vec2, need: f32) -> bool {
    let skip = 1.5 * p.cell;
    let Some((a2, b2)) = p.clip(a, b) else {
        return true;
    };
    let (before, len) = (a.distance(a2), a2.distance(b2));
    let n = (len / (0.5 * p.cell)).ceil().max(1.0) as usize;
    (0..=n).all(|i| {
        let f = i as f32 / n as f32;
        before + f * len < skip
            || p.column_row(a2.lerp(b2, f))
                .is_none_or(|(x, z)| p.clearance[x + z * p.nx] >= need)
    })
}

/// The fields for these goals and radii, computed as a fresh planner over `shapes` on
/// `like`'s grid would.
fn fresh_fields(
    like: &Planner,
    shapes: &[Option<Shape>],
    wanted: &[(usize, f32)],
) -> Vec<Vec<u32>> {
    let mut p = rebuilt_like(like, shapes);
    p.budget = u32::MAX;
    let mut out = Vec::new();
    for &(goal, r) in wanted {
        let pass = Planner::pass(r);
        let i = p.field(goal, Planner::class(pass), pass).unwrap();
        p.settle(i, None);
        out.push(p.fields[i].dist.iter().map(|d| d.to_bits()).collect());
    }
    out
}
