//! The move clearances: one table for every radius, opening exactly the moves the per-move
//! test opens, and routes that keep every agent's clearance.

use super::*;
use crate::crowd::paths::{Found, Graph, Search};

/// Planners over random obstacles of every kind (walls, boxes, circles), some overlapping.
fn random_planners() -> Vec<(Planner, Vec<Option<Shape>>)> {
    (0..4)
        .map(|seed| {
            let mut rng = SplitMix(100 + seed);
            let shapes: Vec<Option<Shape>> = (0..40)
                .map(|_| random_obstacle(&mut rng, 12.0).shape())
                .collect();
            let mut p = Planner::default();
            p.rebuild(&shapes);
            (p, shapes)
        })
        .collect()
}

/// The moves from `c` open to `pass`, one `can_move` at a time (the table of open moves kept
/// per radius before the move clearances).
fn open_moves_one_by_one(p: &Planner, c: usize, pass: f32) -> u8 {
    let mut bits = 0;
    for (k, &(dx, dz, _)) in NEIGHBOURS.iter().enumerate() {
        if let Some(n) = p.neighbour(c, dx, dz) {
            bits |= u8::from(p.can_move(c, n, dx, dz, pass)) << k;
        }
    }
    bits
}

#[test]
fn the_move_clearances_open_exactly_the_moves_the_move_test_opens() {
    let mut rng = SplitMix(9);
    let mut open = 0u64;
    for (p, _) in random_planners() {
        // Continuous radii, the class edges, no radius and the cap.
        let mut passes: Vec<f32> = (0..24)
            .map(|_| Planner::pass(rng.range(0.0, 1.2)))
            .collect();
        passes.extend([0.05, 0.3, 0.35, 0.350_000_02, 0.55, CLEARANCE_CAP]);
        for pass in passes {
            for c in 0..p.cells() {
                let want = open_moves_one_by_one(&p, c, pass);
                assert_eq!(p.open_moves(c, pass), want, "cell {c}, pass {pass}");
                if p.rep_clear[c] >= pass {
                    assert_eq!(reach_bits_scalar(&p.move_reach(c), pass), want);
                }
                open += u64::from(want.count_ones());
            }
        }
    }
    // (Most moves are open: the bits are not trivially equal.)
    assert!(open > 1_000_000, "{open}");
}

#[test]
fn a_local_update_sets_the_move_clearances_a_rebuild_sets() {
    for (mut p, mut shapes) in random_planners() {
        let mut rng = SplitMix(p.cells() as u64);
        for _ in 0..6 {
            let i = (rng.next_u64() % shapes.len() as u64) as usize;
            let old = shapes[i].take().unwrap();
            let new = random_obstacle(&mut rng, 12.0).shape().unwrap();
            shapes[i] = Some(new);
            p.update(&shapes, &[old, new]);
            let fresh = rebuilt_like(&p, &shapes);
            let bits = |q: &Planner| {
                (0..q.cells())
                    .flat_map(|c| q.move_reach(c))
                    .map(|x| x.to_bits())
                    .collect::<Vec<_>>()
            };
            assert_eq!(bits(&p), bits(&fresh));
            assert_eq!(p.reach_level, fresh.reach_level);
            assert_eq!(p.point_level, fresh.point_level);
        }
    }
}

#[test]
fn levels_order_clearances_as_the_values_do() {
    let mut rng = SplitMix(23);
    let mut values: Vec<f32> = (0..4000).map(|_| rng.range(-1.0, 3.5)).collect();
    values.extend([
        0.0,
        -0.0,
        CLEARANCE_CAP,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ]);
    // Neighbours of the level edges, where rounding decides.
    for k in 0..=255u16 {
        let edge = f32::from(k) / LEVELS_PER_METRE;
        values.extend([edge.next_down(), edge, edge.next_up()]);
    }
    for &x in &values {
        // (A clearance asked is never NaN.)
        for &p in values.iter().step_by(7).filter(|p| !p.is_nan()) {
            if level(x) > level(p) {
                assert!(x > p, "{x} {p}");
            }
            if level(x) < level(p) {
                assert!(x < p || x.is_nan(), "{x} {p}");
            }
        }
    }
}

/// The exact clearance of `a` and of the segment `a → b` from every obstacle (capped).
fn exact(shapes: &[Option<Shape>], a: Vec2, b: Vec2) -> (f32, f32) {
    const ALL: [u32; 40] = {
        let mut all = [0; 40];
        let mut i = 0;
        while i < 40 {
            all[i] = i as u32;
            i += 1;
        }
        all
    };
    (
        clearance_at(shapes, &ALL[..shapes.len()], a, CLEARANCE_CAP),
        segment_clearance(shapes, &ALL[..shapes.len()], a, b, CLEARANCE_CAP),
    )
}

#[test]
fn routes_keep_the_clearance_of_every_radius_of_their_class() {
    // Agents of radii spread continuously share the fields of their radius class, each field
    // computed for whichever agent of the class asked first: here the least radius of the
    // class. Every route an agent takes, the descent of that field over moves open to its
    // own clearance (as `Planner::descend` walks it) and its own A* search, keeps its radius
    // plus `PASS_SKIN` from every obstacle, at every point and along every segment, measured
    // exactly against every obstacle.
    let mut rng = SplitMix(17);
    let (mut steps, mut searched) = (0, 0);
    for (mut p, shapes) in random_planners() {
        p.budget = u32::MAX;
        for _ in 0..12 {
            let radius = rng.range(0.2, 0.6);
            let pass = Planner::pass(radius);
            let class = Planner::class(pass);
            // The least pass of the class (the first asker's, at worst).
            let mut first = pass;
            while Planner::class(first - 1e-4) == class {
                first -= 1e-4;
            }
            let goal = p.goal_block(Vec2::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0)));
            let mut f = Vec::new();
            p.compute(&mut f, goal, first);
            // (From every fifth cell: the descents cover most of the grid.)
            for start in (0..p.cells()).step_by(5) {
                if !(f[start].is_finite() && p.rep_clear[start] >= pass) {
                    continue;
                }
                let mut cur = start;
                while f[cur] > 0.0 {
                    let mut next = cur;
                    for (dx, dz, _) in NEIGHBOURS {
                        let Some(n) = p.neighbour(cur, dx, dz) else {
                            continue;
                        };
                        if f[n] < f[next] && p.can_move(n, cur, -dx, -dz, pass) {
                            next = n;
                        }
                    }
                    if next == cur || p.rep_clear[next] < pass {
                        // (Stopped, or at a closed seed: the goal has no open cell near it.)
                        break;
                    }
                    let (point, segment) = exact(&shapes, p.rep[next], p.rep[cur]);
                    assert!(point >= pass && segment >= pass, "{point} {segment} {pass}");
                    cur = next;
                    steps += 1;
                }
            }
            // An A* search over the moves open to the agent's own clearance.
            let mut seeds = Vec::new();
            p.seeds_into(goal, pass, &mut seeds);
            let open = OpenMoves::new(&p, pass);
            let graph = Graph {
                open: &|c| open.at(c),
                nx: p.nx,
                nz: p.nz,
                neighbours: &NEIGHBOURS,
            };
            let (mut search, mut path) = (Search::default(), Vec::new());
            for _ in 0..8 {
                let to = (rng.next_u64() % p.cells() as u64) as usize;
                if p.rep_clear[to] < pass {
                    continue;
                }
                let (found, _) = search.run(&graph, &seeds, to, &[], u64::MAX, &mut path);
                if found != Found::Path {
                    continue;
                }
                searched += 1;
                for w in path.windows(2) {
                    let (a, b) = (w[0] as usize, w[1] as usize);
                    if p.rep_clear[b] < pass {
                        // (A closed seed: the goal has no open cell near it.)
                        continue;
                    }
                    let (point, segment) = exact(&shapes, p.rep[a], p.rep[b]);
                    assert!(point >= pass && segment >= pass, "{point} {segment} {pass}");
                }
            }
        }
    }
    assert!(
        steps > 2_000 && searched > 50,
        "{steps} steps, {searched} searches"
    );
}
