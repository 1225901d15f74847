//! The field cache: its cap, its budget per sub-step, what it replaces.

use super::*;

#[test]
fn the_default_cap_is_max_fields() {
    let s = field_scene();
    assert_eq!(s.crowd.route_cache(), MAX_FIELDS);
    assert_eq!(Planner::default().max_fields(), MAX_FIELDS);
    assert_eq!(Planner::default().field_bytes(), 0);
}

#[test]
fn the_cap_bounds_the_fields_cached_and_their_bytes() {
    let mut free = field_scene().crowd;
    let mut capped = free.clone();
    capped.set_route_cache(4).unwrap();
    assert_eq!(capped.route_cache(), 4);
    let mut most = 0;
    for _ in 0..100 {
        step(&mut free, 1);
        let before = capped.planner().fields.clone();
        step(&mut capped, 1);
        let p = capped.planner();
        // A field is dropped for another only when unused for FIELD_HOT_STEPS sub-steps.
        for f in &before {
            if !p
                .fields
                .iter()
                .any(|g| (g.goal, g.class) == (f.goal, f.class))
            {
                assert!(
                    f.used_step + FIELD_HOT_STEPS <= p.sub_steps,
                    "dropped a field used at sub-step {} in sub-step {}",
                    f.used_step,
                    p.sub_steps
                );
            }
        }
        assert!(p.fields_cached() <= 4, "{} fields", p.fields_cached());
        assert_eq!(p.field_bytes(), bytes_of(p, p.fields_cached()));
        assert!(p.field_bytes() <= 4 * p.cells() * 4);
        most = most.max(p.fields_cached());
    }
    assert_eq!(most, 4, "the cap is reached");
    let p = free.planner();
    assert!(p.cells() > 0);
    assert!(
        p.fields_cached() > 4,
        "uncapped: {} fields",
        p.fields_cached()
    );
    assert_eq!(p.field_bytes(), bytes_of(p, p.fields_cached()));
    // No thrashing: the capped cache does not drop fields in use to compute others, so it
    // computes fewer than the uncapped one (its other agents search their ways).
    assert!(
        capped.planner().fields_computed() < p.fields_computed(),
        "{} vs {}",
        capped.planner().fields_computed(),
        p.fields_computed()
    );
    assert!(capped.planner().paths_searched() > p.paths_searched());
}

#[test]
fn a_full_cache_replaces_only_a_field_gone_unused() {
    // A cache of two, full of fields asked for this sub-step: a third goal is refused (no
    // budget spent, none dropped) until one of the two has gone unused for
    // FIELD_HOT_STEPS sub-steps; then that one, and only that one, makes room.
    let mut p = field_planner();
    p.set_max_fields(2);
    let pass = Planner::pass(0.3);
    let class = Planner::class(pass);
    let [a, b, c] =
        [(-15.0, -15.0), (12.0, 3.0), (0.0, 16.0)].map(|(x, z)| p.goal_block(Vec2::new(x, z)));
    p.begin_step();
    assert!(p.field(a, class, pass).is_some());
    assert!(p.field(b, class, pass).is_some());
    assert!(p.field_ready(b, pass), "cached");
    assert!(!p.field_ready(c, pass), "both in use");
    assert!(p.field(c, class, pass).is_none());
    assert_eq!((p.budget, p.fields_computed()), (FIELDS_PER_STEP - 2, 2));
    // `b` stays in use (asked every REPLAN_STEPS sub-steps), `a` is not asked again.
    for k in 1..=FIELD_HOT_STEPS {
        p.begin_step();
        if k % u64::from(REPLAN_STEPS) == 0 {
            assert!(p.field(b, class, pass).is_some());
        }
        let cold = k >= FIELD_HOT_STEPS;
        assert_eq!(p.field_ready(c, pass), cold, "sub-step {k}");
    }
    assert!(p.field(c, class, pass).is_some());
    let goals: Vec<_> = p.fields.iter().map(|f| f.goal).collect();
    assert!(goals.contains(&b) && goals.contains(&c) && !goals.contains(&a));
    // Now `b` and `c` are both in use: `a` waits again.
    assert!(!p.field_ready(a, pass));
    assert!(p.field(a, class, pass).is_none());
    assert_eq!(p.fields_computed(), 3);
}

#[test]
fn lowering_the_cap_drops_the_least_recently_used_now() {
    let mut c = field_scene().crowd;
    step(&mut c, 60);
    let before = c.planner().fields.clone();
    assert!(before.len() > 3, "{} fields", before.len());
    let mut newest: Vec<_> = before.iter().map(|f| f.used).collect();
    newest.sort_unstable_by(|a, b| b.cmp(a));
    newest.truncate(3);
    let computed = c.planner().fields_computed();

    c.set_route_cache(3).unwrap();
    let p = c.planner();
    assert_eq!(p.fields_cached(), 3);
    assert_eq!(p.field_bytes(), bytes_of(p, 3));
    assert!(p.fields.capacity() <= 3, "the cache's Vec shrank");
    assert_eq!(p.fields_computed(), computed, "nothing recomputed");
    for f in &p.fields {
        assert!(newest.contains(&f.used), "kept a field used at {}", f.used);
        let old = before.iter().find(|g| g.used == f.used).unwrap();
        assert_eq!((old.goal, old.class), (f.goal, f.class));
        assert_eq!(old.dist, f.dist, "kept fields are untouched");
    }

    // Stepping on keeps within the cap; raising it lets the cache grow again.
    step(&mut c, 20);
    assert!(c.planner().fields_cached() <= 3);
    c.set_route_cache(MAX_FIELDS).unwrap();
    step(&mut c, 40);
    assert!(c.planner().fields_cached() > 3);
}

#[test]
fn the_route_budget_bounds_the_fields_made_per_step() {
    // ~20 goal blocks wanted at once (most by two agents or more: the first agent to ask
    // for a goal searches a way of its own, the next one asks for the field): with a budget
    // of b, each step computes or repairs at most b fields, and a larger budget gets the
    // fields sooner. Bad budgets are refused and change nothing.
    let made = |p: &Planner| p.fields_computed() + p.fields_repaired();
    let mut first_all = Vec::new();
    for budget in [1, FIELDS_PER_STEP as usize, MAX_FIELDS_PER_STEP as usize] {
        let mut c = field_scene().crowd;
        assert_eq!(c.route_budget(), FIELDS_PER_STEP as usize);
        c.set_route_budget(budget).unwrap();
        assert_eq!(c.route_budget(), budget);
        for bad in [0, MAX_FIELDS_PER_STEP as usize + 1, usize::MAX] {
            assert_eq!(c.set_route_budget(bad), Err(CrowdError::InvalidArgument));
            assert_eq!(c.route_budget(), budget);
        }
        let mut all_at = None;
        for k in 1..=40 {
            let before = made(c.planner());
            step(&mut c, 1);
            let now = made(c.planner());
            assert!(
                now - before <= budget as u64,
                "budget {budget}: {}",
                now - before
            );
            if all_at.is_none() && now >= 16 {
                all_at = Some(k);
            }
        }
        first_all.push(all_at.expect("the fields come"));
    }
    assert!(
        first_all[0] > first_all[1] && first_all[1] > first_all[2],
        "{first_all:?}"
    );
}

#[test]
fn bad_caps_are_refused_and_change_nothing() {
    let mut c = field_scene().crowd;
    step(&mut c, 30);
    c.set_route_cache(100).unwrap();
    let (cached, bytes) = (c.planner().fields_cached(), c.planner().field_bytes());
    assert!(cached > 1);
    for bad in [0, MAX_FIELDS + 1, usize::MAX] {
        assert_eq!(c.set_route_cache(bad), Err(CrowdError::InvalidArgument));
        assert_eq!(c.route_cache(), 100);
        assert_eq!(c.planner().fields_cached(), cached);
        assert_eq!(c.planner().field_bytes(), bytes);
    }
    c.set_route_cache(1).unwrap();
    assert_eq!((c.route_cache(), c.planner().fields_cached()), (1, 1));
    c.set_route_cache(MAX_FIELDS).unwrap();
    assert_eq!(c.route_cache(), MAX_FIELDS);
}

#[test]
fn the_cap_survives_an_obstacle_rebuild_and_a_clone() {
    let mut c = field_scene().crowd;
    c.set_route_cache(2).unwrap();
    step(&mut c, 20);
    c.add_obstacle(crate::crowd::Obstacle::Circle {
        center: glam::Vec3::new(0.0, 0.0, 30.0),
        radius: 1.0,
    })
    .unwrap();
    step(&mut c, 20);
    assert_eq!(c.route_cache(), 2);
    assert!(c.planner().fields_cached() <= 2);
    assert_eq!(c.clone().route_cache(), 2);
}

#[test]
fn fields_run_as_far_as_read_walk_agents_as_whole_fields_do() {
    // The obstacle field's planned agents with a disc moved among them every third step (a
    // local update of the grid each time, the stale fields repaired), stepped twice: with the
    // fields run as far as agents read them, and with every field finished after each step.
    // The same positions, bit for bit, at every step.
    let run = |finish: bool| {
        let mut c = field_scene().crowd;
        let disc = |x: f32| Obstacle::Circle {
            center: Vec3::new(x, 0.0, 1.0),
            radius: 1.5,
        };
        let mut id = c.add_obstacle(disc(-12.0)).unwrap();
        let (mut trace, mut partial) = (Vec::new(), 0);
        for k in 0..150 {
            if k % 3 == 0 {
                c.remove_obstacle(id).unwrap();
                id = c.add_obstacle(disc(-12.0 + 0.1 * k as f32)).unwrap();
            }
            c.step(0.1, 1).unwrap();
            let fields = &c.planner.fields;
            partial += fields.iter().filter(|f| f.floor < f32::INFINITY).count();
            if finish {
                for i in 0..fields.len() {
                    c.planner.settle(i, None);
                }
            }
            let at = c
                .agents()
                .map(|(_, a)| (a.position.x.to_bits(), a.position.z.to_bits()));
            trace.push(at.collect::<Vec<_>>());
        }
        (trace, partial, c.planner().fields_repaired())
    };
    let (lazy, partial, repaired) = run(false);
    let (whole, _, _) = run(true);
    assert!(partial > 20, "{partial} fields left part way");
    assert!(repaired > 10, "{repaired} fields repaired");
    assert!(lazy == whole, "the same walk");
}
