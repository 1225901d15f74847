//! The clearance grid and the fields over it: stored clearances, local updates and repairs
//! against rebuilds and textbook computations.

use super::*;

#[test]
fn cell_points_and_segments_have_the_clearance_stored() {
    // Against every obstacle (not the per-cell lists), in f32 with a sampled check of
    // the segments: the lists miss nothing that matters and the stored values are exact.
    let s = Scenario::obstacle_field(10, 60, 11);
    let mut p = Planner::default();
    let shapes = shapes_of(&s.crowd);
    p.rebuild(&shapes);
    let clear = |q: Vec2| {
        shapes
            .iter()
            .flatten()
            .fold(CLEARANCE_CAP, |b, s| b.min(s.contact(q).distance))
    };
    let mut checked = 0;
    for c in (0..p.cells()).step_by(7) {
        assert_eq!(p.clearance[c], clear(p.center(c)));
        assert_eq!(p.rep_clear[c], clear(p.rep[c]));
        // The point is the clearest sample: at least the centre's clearance, in the cell.
        assert!(p.rep_clear[c] >= p.clearance[c]);
        assert!((p.rep[c] - p.center(c)).abs().max_element() <= 0.5 * p.cell);
        let (x, z) = ((c % p.nx) as i64, (c / p.nx) as i64);
        for (k, (dx, dz)) in EDGES.into_iter().enumerate() {
            let (x2, z2) = (x + dx, z + dz);
            if x2 < 0 || z2 < 0 || x2 >= p.nx as i64 || z2 >= p.nz as i64 {
                continue;
            }
            let (a, b) = (p.rep[c], p.rep[(x2 + z2 * p.nx as i64) as usize]);
            let exact = shapes
                .iter()
                .flatten()
                .fold(CLEARANCE_CAP, |m, s| m.min(s.segment_distance(a, b)));
            let e = p.edge[c][k];
            assert!(
                e == exact || (e <= 0.0 && exact <= 0.0),
                "cell {c} edge {k}: {e} vs {exact}"
            );
            let sampled = (0..=64).fold(f32::INFINITY, |m, i| {
                m.min(clear(a.lerp(b, i as f32 / 64.0)))
            });
            // (Crossing an obstacle, the sampled depth goes below the stored ≤ 0.)
            let (e0, s0) = (e.max(0.0), sampled.max(0.0));
            assert!(e0 <= s0 + 1e-5, "cell {c} edge {k}: {e} vs {sampled}");
            checked += 1;
        }
    }
    assert!(checked > 1000);
}

#[test]
fn listing_in_runs_gives_the_same_grid() {
    let s = Scenario::obstacle_field(10, 60, 5);
    let shapes = shapes_of(&s.crowd);
    let (mut one, mut many) = (Planner::default(), Planner::default());
    one.rebuild(&shapes);
    many.rebuild_in_runs(&shapes, 64, Planner::layout(&shapes));
    assert!(one.cells() > 1000);
    assert_eq!(grid_bits(&one), grid_bits(&many));
}

#[test]
fn lines_of_sight_that_skip_clear_blocks_answer_as_every_sample_would() {
    // Random lines over an obstacle field (and from far off it), with needs around the
    // clearances found, on a grid near the origin and on one 30 km out (where f32 spacing
    // is 2 mm): the same answer as taking every sample, and many lines both ways.
    for offset in [Vec2::ZERO, Vec2::new(30_000.0, -21_000.0)] {
        let mut shapes = shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd);
        for s in shapes.iter_mut().flatten() {
            s.center += offset;
        }
        let mut p = Planner::default();
        p.rebuild(&shapes);
        let mut rng = SplitMix(21);
        let mut coord = |span: f32| (rng.next_u64() % 2_000_001) as f32 / 1e6 * span - span;
        let (mut clear, mut blocked) = (0, 0);
        for k in 0..20_000 {
            let span = if k % 10 == 0 { 60.0 } else { 25.0 };
            let a = offset + Vec2::new(coord(span), coord(span));
            let b = if k % 3 == 0 {
                // Short lines, often within one block.
                a + Vec2::new(coord(3.0), coord(3.0))
            } else {
                offset + Vec2::new(coord(span), coord(span))
            };
            let need = 0.05 + (k % 16) as f32 * 0.1;
            let want = clear_line_every_sample(&p, a, b, need);
            let got = p.clear_line(a, b, need, 1.0, &|_| true);
            assert_eq!(got, want, "{a} → {b}, need {need}");
            clear += usize::from(want);
            blocked += usize::from(!want);
        }
        assert!(
            clear > 2_000 && blocked > 2_000,
            "{clear} clear, {blocked} blocked"
        );
    }
}

#[test]
fn fields_equal_the_textbook_dijkstra_bit_for_bit() {
    // Goals all over an obstacle field (in the open, beside and inside obstacles, on the
    // border), for three agent radii, the open moves read from the move clearances.
    let shapes = shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd);
    let mut p = Planner::default();
    p.rebuild(&shapes);
    let cells = p.nx * p.nz;
    let mut rng = SplitMix(3);
    let mut dist = Vec::new();
    let mut reached = 0;
    for radius in [0.0, 0.3, 0.9] {
        let pass = Planner::pass(radius);
        for g in 0..12 {
            let goal = match g {
                0 => 0,
                1 => cells - 1,
                _ => (rng.next_u64() % cells as u64) as usize,
            };
            p.compute(&mut dist, goal, pass);
            let want = textbook_field(&p, goal, pass);
            assert!(
                dist.iter()
                    .zip(&want)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "goal {goal}, radius {radius}"
            );
            reached += dist.iter().filter(|d| d.is_finite()).count();
        }
    }
    // (Most of the grid is reached: the fields are not trivially equal.)
    assert!(reached > 36 * cells / 2, "{reached} of {}", 36 * cells);
}

#[test]
fn a_local_update_gives_the_grid_a_rebuild_gives() {
    // Obstacles taken away, added (in the slots freed first, as the crowd does) and
    // moved, a few at a time: after each round the updated grid covers the obstacles and
    // equals a grid rebuilt from scratch on it, bit for bit. Most rounds update locally;
    // those that take an obstacle past the grid (a wall reaching out) or touch a quarter
    // of the grid rebuild.
    let mut rng = SplitMix(17);
    let mut shapes = shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd);
    let mut p = Planner::default();
    p.rebuild(&shapes);
    let (mut local, mut rounds) = (0, 0);
    for round in 0..40 {
        let mut changed = Vec::new();
        for _ in 0..1 + round % 4 {
            let live: Vec<usize> = (0..shapes.len()).filter(|&i| shapes[i].is_some()).collect();
            if !rng.next_u64().is_multiple_of(3) && !live.is_empty() {
                let i = live[(rng.next_u64() % live.len() as u64) as usize];
                changed.push(shapes[i].take().unwrap());
            }
            if !rng.next_u64().is_multiple_of(3) {
                let s = random_obstacle(&mut rng, 18.0).shape().unwrap();
                match shapes.iter().position(Option::is_none) {
                    Some(free) => shapes[free] = Some(s),
                    None => shapes.push(Some(s)),
                }
                changed.push(s);
            }
        }
        rounds += 1;
        local += usize::from(p.update(&shapes, &changed));
        assert!(p.cells() > 10_000);
        assert!(covers(&p, &shapes), "round {round}");
        let fresh = rebuilt_like(&p, &shapes);
        assert_eq!(grid_bits(&p), grid_bits(&fresh), "round {round}");
    }
    assert!(local * 2 > rounds, "{local} of {rounds} rounds local");
}

#[test]
fn the_lane_neighbour_test_matches_the_scalar_one() {
    // Random distances (with infinities, NaN, ties at exactly dc + 1 and dc + √2) on a
    // 7-wide grid: every inside cell, every centre value.
    let mut rng = SplitMix(5);
    let nx = 7;
    for round in 0..2_000 {
        let dc = rng.range(0.0, 50.0).floor() + [0.0, 0.5, 0.25][round % 3];
        let dist: Vec<f32> = (0..nx * 5)
            .map(|_| match (rng.range(0.0, 8.0)) as u32 {
                0 => f32::INFINITY,
                1 => f32::NAN,
                2 => dc + 1.0,
                3 => dc + core::f32::consts::SQRT_2,
                _ => dc + rng.range(-1.0, 3.0),
            })
            .collect();
        for c in nx + 1..dist.len() - nx - 2 {
            assert_eq!(
                lowered_inside(&dist, c, nx, dc),
                lowered_scalar(&dist, c, nx, dc),
                "cell {c}, dc {dc}, {dist:?}"
            );
        }
    }
}

#[test]
fn a_local_update_keeps_exact_fields_and_marks_the_others_stale() {
    let mut shapes = shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd);
    let mut p = Planner::default();
    p.rebuild(&shapes);
    let goals = [
        Vec2::new(-15.0, -15.0),
        Vec2::new(12.0, 3.0),
        Vec2::new(0.0, 16.0),
    ];
    let wanted: Vec<(usize, f32)> = goals
        .iter()
        .flat_map(|&g| [0.3, 0.6, 1.2].map(|r| (p.goal_block(g), r)))
        .collect();
    let ask = |p: &mut Planner, budget: u32| -> Vec<Option<Vec<u32>>> {
        p.budget = budget;
        wanted
            .iter()
            .map(|&(goal, r)| {
                let pass = Planner::pass(r);
                let i = p.field(goal, Planner::class(pass), pass)?;
                p.settle(i, None);
                Some(p.fields[i].dist.iter().map(|d| d.to_bits()).collect())
            })
            .collect()
    };
    ask(&mut p, u32::MAX);
    assert_eq!((p.fields_cached(), p.fields_stale()), (9, 0));

    // A box nudged by 1 mm: no cell or move changes between open and closed, and every
    // field is kept as it is, equal to one computed afresh.
    let i = shapes.iter().position(|s| s.is_some()).unwrap();
    let old = shapes[i].unwrap();
    shapes[i] = Some(Shape {
        center: old.center + Vec2::new(1e-3, 0.0),
        ..old
    });
    assert!(p.update(&shapes, &[old, shapes[i].unwrap()]));
    assert_eq!((p.fields_cached(), p.fields_stale()), (9, 0));
    let now: Vec<Vec<u32>> = ask(&mut p, 0).into_iter().map(Option::unwrap).collect();
    assert_eq!(now, fresh_fields(&p, &shapes, &wanted));
    assert_eq!(p.fields_computed(), 9);

    // A wall across open ground: the fields go stale, are used as they are while the
    // budget is spent, and repaired within it equal fresh ones.
    let wall = Obstacle::Wall {
        a: Vec3::new(-6.0, 0.0, -1.0),
        b: Vec3::new(6.0, 0.0, 1.0),
    };
    shapes.push(wall.shape());
    assert!(p.update(&shapes, &[wall.shape().unwrap()]));
    assert_eq!((p.fields_cached(), p.fields_stale()), (9, 9));
    let waiting = ask(&mut p, 0);
    assert!(waiting.iter().all(Option::is_some));
    assert_eq!((p.fields_stale(), p.fields_computed()), (9, 9));
    let now: Vec<Vec<u32>> = ask(&mut p, 4).into_iter().map(Option::unwrap).collect();
    assert_eq!((p.fields_stale(), p.fields_repaired()), (5, 4));
    let now_all: Vec<Vec<u32>> = ask(&mut p, u32::MAX)
        .into_iter()
        .map(Option::unwrap)
        .collect();
    assert_eq!(
        (p.fields_stale(), p.fields_repaired(), p.fields_computed()),
        (0, 9, 9)
    );
    let fresh = fresh_fields(&p, &shapes, &wanted);
    assert_eq!(now_all, fresh);
    assert_eq!(now[..4], fresh[..4]);
    assert_ne!(waiting[0].as_ref(), Some(&fresh[0]));
}

#[test]
fn repaired_fields_equal_fields_computed_afresh() {
    // Obstacles moved round after round (for six rounds without an ask, so a repair covers
    // many changes), two of them round goals set on them (the
    // goal block closed, then open: the seeds change): every field asked for equals one
    // computed afresh over the obstacles of the moment, and stale fields are repaired,
    // never computed again. Four posts far out fix the grid.
    let mut rng = SplitMix(23);
    let mut shapes = shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd);
    for (x, z) in [(-30.0, -30.0), (30.0, -30.0), (-30.0, 30.0), (30.0, 30.0)] {
        let post = Obstacle::Circle {
            center: Vec3::new(x, 0.0, z),
            radius: 0.5,
        };
        shapes.push(post.shape());
    }
    let moving = shapes.len() - 4;
    let mut p = Planner::default();
    p.rebuild(&shapes);
    let home = [shapes[0].unwrap(), shapes[1].unwrap()];
    let goals = [
        home[0].center,
        home[1].center,
        Vec2::new(12.0, 3.0),
        Vec2::new(17.0, -17.0),
    ];
    let wanted: Vec<(usize, f32)> = goals
        .iter()
        .flat_map(|&g| [0.25, 0.6, 1.3].map(|r| (p.goal_block(g), r)))
        .collect();
    let mut seeds_changed = 0;
    for round in 0..40 {
        let mut changed = Vec::new();
        for k in 0..[1, 2, 4][round % 3] {
            let i = if k < 2 {
                k
            } else {
                (rng.next_u64() % moving as u64) as usize
            };
            let old = shapes[i].unwrap();
            let step = Vec2::new(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5));
            let centre = if i < 2 {
                home[i].center + step
            } else {
                (old.center + step).clamp(Vec2::splat(-24.0), Vec2::splat(24.0))
            };
            shapes[i] = Some(Shape {
                center: centre,
                ..old
            });
            changed.extend([old, shapes[i].unwrap()]);
        }
        assert!(p.update(&shapes, &changed), "round {round}");
        if (10..16).contains(&round) {
            continue;
        }
        p.budget = u32::MAX;
        let now: Vec<Vec<u32>> = wanted
            .iter()
            .map(|&(goal, r)| {
                let pass = Planner::pass(r);
                let class = Planner::class(pass);
                let i = p
                    .fields
                    .iter()
                    .position(|f| f.goal == goal && f.class == class);
                let before = i.map(|i| p.fields[i].seeds.clone());
                let i = p.field(goal, class, pass).unwrap();
                p.settle(i, None);
                seeds_changed += usize::from(before.is_some_and(|b| b != p.fields[i].seeds));
                p.fields[i].dist.iter().map(|d| d.to_bits()).collect()
            })
            .collect();
        assert_eq!(now, fresh_fields(&p, &shapes, &wanted), "round {round}");
    }
    assert_eq!(p.fields_computed(), 12);
    assert!(
        p.fields_repaired() >= 200,
        "{} repaired",
        p.fields_repaired()
    );
    assert!(seeds_changed >= 20, "seeds changed {seeds_changed} times");
}

#[test]
fn an_update_past_the_list_limit_rebuilds_in_runs() {
    let shapes = shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd);
    let mut p = Planner::default();
    p.rebuild(&shapes);
    let mut moved = shapes.clone();
    let s = moved[7].take().unwrap();
    moved[7] = Some(Shape {
        center: s.center + Vec2::new(0.5, 0.0),
        ..s
    });
    let changed = [s, moved[7].unwrap()];
    let (mut big, mut small) = (p.clone(), p);
    assert!(big.update_listing(&moved, &changed, LIST_ITEMS, false));
    assert!(!small.update_listing(&moved, &changed, 64, false));
    let mut fresh = Planner::default();
    fresh.rebuild(&moved);
    assert_eq!(grid_bits(&big), grid_bits(&fresh));
    assert_eq!(grid_bits(&small), grid_bits(&fresh));
}

#[test]
fn the_crowd_updates_its_planner_as_a_rebuild_would() {
    // Through the crowd: obstacles removed and added between steps (its change list, the
    // removed shapes with the added ones), a change past the tracked count, and one that
    // grows the bounding box; planned agents walk all along.
    let mut s = Scenario::obstacle_field(20, 40, 3);
    let c = &mut s.crowd;
    step(c, 2);
    let mut rng = SplitMix(5);
    let ids: Vec<ObstacleId> = c.obstacles().map(|(id, _)| id).collect();
    for (round, id) in ids.into_iter().take(6).enumerate() {
        c.remove_obstacle(id).unwrap();
        for _ in 0..[1, 2, 80, 1, 0, 3][round] {
            c.add_obstacle(random_obstacle(&mut rng, 15.0)).unwrap();
        }
        if round == 3 {
            c.add_obstacle(Obstacle::Circle {
                center: Vec3::new(40.0, 0.0, 0.0),
                radius: 1.0,
            })
            .unwrap();
        }
        step(c, 1);
        built(c);
        let shapes = shapes_of(c);
        assert!(covers(c.planner(), &shapes), "round {round}");
        let fresh = rebuilt_like(c.planner(), &shapes);
        assert_eq!(grid_bits(c.planner()), grid_bits(&fresh), "round {round}");
    }
}

#[test]
fn an_obstacle_moving_out_past_the_grid_re_lays_it_only_now_and_then() {
    // A disc leaves the obstacle field 0.1 m per round (a vehicle driving off): most
    // rounds are local updates on a grid laid with room to spare; the grid always covers
    // the obstacles, equals a rebuild on it, and never covers more than twice the area
    // of the grid the obstacles alone would get. Taking the disc away (the field alone
    // again: a grid far larger than it needs) re-lays the grid.
    let mut shapes = shapes_of(&Scenario::obstacle_field(0, 60, 5).crowd);
    let area = |(_, cell, nx, nz): Layout| (nx * nz) as f32 * cell * cell;
    let spare = |p: &Planner, shapes: &[Option<Shape>]| {
        area(p.current_layout().unwrap()) / area(Planner::layout(shapes).unwrap())
    };
    let disc = |x: f32| {
        let center = Vec3::new(x, 0.0, 3.0);
        Obstacle::Circle {
            center,
            radius: 1.0,
        }
        .shape()
        .unwrap()
    };
    shapes.push(Some(disc(0.0)));
    let mut p = Planner::default();
    p.rebuild(&shapes);
    let (mut relays, rounds) = (0, 400);
    for round in 1..=rounds {
        let old = shapes
            .last_mut()
            .unwrap()
            .replace(disc(0.1 * round as f32))
            .unwrap();
        let now = shapes.last().unwrap().unwrap();
        relays += usize::from(!p.update(&shapes, &[old, now]));
        assert!(covers(&p, &shapes), "round {round}");
        assert!(spare(&p, &shapes) <= KEEP_AREA, "round {round}");
        if round % 50 == 0 {
            assert_eq!(grid_bits(&p), grid_bits(&rebuilt_like(&p, &shapes)));
        }
    }
    assert!((1..=rounds / 20).contains(&relays), "{relays} re-lays");
    let old = shapes.pop().unwrap().unwrap();
    assert!(!p.update(&shapes, &[old]));
    assert!(spare(&p, &shapes) <= KEEP_AREA);
}

/// With a route budget of 1, the first step (its first grid built at once), then an obstacle
/// placed off the grid, which re-lays it: the next step starts a rebuild in slices. The
/// obstacle's id and the fields computed before it.
fn relaid(c: &mut Crowd) -> (ObstacleId, u64) {
    c.set_route_budget(1).unwrap();
    step(c, 1);
    assert!(!c.planner().building(), "a first grid is built at once");
    let computed = c.planner().fields_computed();
    let far = c
        .add_obstacle(Obstacle::Circle {
            center: Vec3::new(60.0, 0.0, 0.0),
            radius: 1.0,
        })
        .unwrap();
    step(c, 1);
    assert!(c.planner().building());
    (far, computed)
}

#[test]
fn a_bake_finishes_a_rebuild_under_way_at_once() {
    // A rebuild in slices under way: `bake_routes` (as at a level's load) ends it at once,
    // with the grid a rebuild over the obstacles as they are then gives.
    let mut s = Scenario::obstacle_field(20, 40, 3);
    let c = &mut s.crowd;
    relaid(c);
    c.bake_routes();
    assert!(!c.planner().building());
    assert_eq!(
        grid_bits(c.planner()),
        grid_bits(&rebuilt_like(c.planner(), &shapes_of(c)))
    );
}

#[test]
fn a_rebuild_runs_in_slices_and_applies_the_changes_made_meanwhile() {
    // A crowd builds its first grid at once. An obstacle placed off it re-lays it: with a
    // route budget of 1 the rebuild runs over several sub-steps (a share of the cells each,
    // no field computed), while obstacles are removed and added (slots freed and taken again
    // among them). When it ends, the grid is the one a rebuild over the obstacles as they are
    // then gives, and fields come again.
    let mut s = Scenario::obstacle_field(20, 40, 3);
    let c = &mut s.crowd;
    let (far, computed) = relaid(c);
    assert!(computed > 0);
    let cells_a_step = MAX_PLANNER_CELLS as usize / GRID_FIELDS;
    assert!(
        c.planner().cells() > 2 * cells_a_step,
        "{}",
        c.planner().cells()
    );
    let mut rng = SplitMix(13);
    let mut during = 1;
    while c.planner().building() {
        assert_eq!(c.planner().fields_computed(), computed);
        let ids: Vec<ObstacleId> = c
            .obstacles()
            .map(|(id, _)| id)
            .filter(|&id| id != far)
            .collect();
        let id = ids[(rng.next_u64() % ids.len() as u64) as usize];
        c.remove_obstacle(id).unwrap();
        c.add_obstacle(random_obstacle(&mut rng, 15.0)).unwrap();
        step(c, 1);
        during += 1;
    }
    // (Each sub-step builds the rows of at least `cells_a_step` cells.)
    let rows = cells_a_step.div_ceil(c.planner().nx);
    assert_eq!(
        during,
        (c.planner().nz + 1).div_ceil(rows),
        "{during} steps"
    );
    let shapes = shapes_of(c);
    let fresh = rebuilt_like(c.planner(), &shapes);
    assert_eq!(grid_bits(c.planner()), grid_bits(&fresh));
    step(c, 2);
    assert!(c.planner().fields_computed() > computed);
}
