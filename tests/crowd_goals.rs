//! Goal queues: agents walk their goals in order, wait where told, and at the last goal stop,
//! leave the crowd (despawn) or start again (loop); the step reports each goal reached and
//! each agent that left. Growth: a crowd takes more agents and obstacles than it was made for.

use glam::Vec3;
use wayfarer::crowd::{AgentId, AgentState, Crowd, CrowdEvent, EventKind, Goal, OnArrival};

const DT: f32 = 0.05;

fn at(x: f32, z: f32) -> Vec3 {
    Vec3::new(x, 0.0, z)
}

/// Steps `seconds`, collecting every event.
fn run(c: &mut Crowd, seconds: f32) -> Vec<CrowdEvent> {
    let mut all = vec![];
    for _ in 0..(seconds / DT) as usize {
        c.step(DT, 1).unwrap();
        all.extend_from_slice(c.events());
    }
    all
}

#[test]
fn an_agent_walks_its_goals_in_order_and_stops_at_the_last() {
    let mut c = Crowd::new(1).unwrap();
    let id = c.add_agent(at(0.0, 0.0), 0.0, 2.0, 0.3).unwrap();
    let goals = [
        Goal::new(at(0.0, 5.0), 0.2),
        Goal::new(at(5.0, 5.0), 0.2).waiting(1.0),
        Goal::new(at(5.0, 0.0), 0.2),
    ];
    c.set_goals(id, &goals, OnArrival::Stop).unwrap();
    assert_eq!(c.goals_left(id), Ok(2));
    let events = run(&mut c, 20.0);
    let reached: Vec<_> = events
        .iter()
        .filter(|e| e.kind == EventKind::GoalReached)
        .collect();
    assert_eq!(reached.len(), 3, "{events:?}");
    for (k, (e, g)) in reached.iter().zip(&goals).enumerate() {
        assert_eq!(e.agent, id);
        assert_eq!(e.goal, k as u32);
        assert!(
            e.position.distance(g.target) <= g.arrival_radius + 1e-4,
            "goal {k} reported at {:?}",
            e.position
        );
    }
    let a = c.agent(id).unwrap();
    assert_eq!(a.state(), AgentState::Arrived);
    assert!(a.position.distance(goals[2].target) <= 0.2 + 1e-4);
    assert_eq!(c.goals_left(id), Ok(0));
}

#[test]
fn a_wait_holds_the_agent_at_its_goal() {
    let mut c = Crowd::new(1).unwrap();
    let id = c.add_agent(at(0.0, 0.0), 0.0, 2.0, 0.3).unwrap();
    let goals = [
        Goal::new(at(0.0, 2.0), 0.2).waiting(3.0),
        Goal::new(at(0.0, 6.0), 0.2),
    ];
    c.set_goals(id, &goals, OnArrival::Stop).unwrap();
    let mut reached_first = None;
    let mut left_first = None;
    for k in 0..400 {
        c.step(DT, 1).unwrap();
        let t = (k + 1) as f32 * DT;
        if reached_first.is_none()
            && c.events()
                .iter()
                .any(|e| e.kind == EventKind::GoalReached && e.goal == 0)
        {
            reached_first = Some(t);
        }
        if reached_first.is_some()
            && left_first.is_none()
            && c.agent(id).unwrap().position.distance(goals[0].target) > 0.25
        {
            left_first = Some(t);
        }
    }
    let (r, l) = (reached_first.unwrap(), left_first.unwrap());
    assert!(l - r >= 3.0 - 1e-3, "waited {} s", l - r);
    assert!(l - r <= 3.0 + 0.5, "waited {} s", l - r);
}

#[test]
fn despawned_agents_leave_with_an_event_and_their_ids_die() {
    let mut c = Crowd::new(4).unwrap();
    let ids: Vec<AgentId> = (0..4)
        .map(|k| c.add_agent(at(k as f32 * 2.0, 0.0), 0.0, 1.5, 0.3).unwrap())
        .collect();
    for (k, &id) in ids.iter().enumerate() {
        let goals = [
            Goal::new(at(k as f32 * 2.0, 3.0), 0.2),
            Goal::new(at(k as f32 * 2.0, 6.0), 0.2),
        ];
        c.set_goals(id, &goals, OnArrival::Despawn).unwrap();
    }
    let events = run(&mut c, 15.0);
    assert_eq!(c.agent_count(), 0);
    for &id in &ids {
        assert!(c.agent(id).is_err(), "a despawned id names nothing");
        let gone: Vec<_> = events
            .iter()
            .filter(|e| e.agent == id && e.kind == EventKind::Despawned)
            .collect();
        assert_eq!(gone.len(), 1);
        assert_eq!(gone[0].goal, 1, "left at its second goal");
        let reached = events
            .iter()
            .filter(|e| e.agent == id && e.kind == EventKind::GoalReached)
            .count();
        assert_eq!(reached, 2);
    }
    // Freed slots are reused under new ids.
    let again = c.add_agent(at(0.0, 0.0), 0.0, 1.0, 0.3).unwrap();
    assert!(!ids.contains(&again));
    assert_eq!(c.goals_left(again), Ok(0));
}

#[test]
fn a_loop_patrols_its_goals() {
    let mut c = Crowd::new(1).unwrap();
    let id = c.add_agent(at(0.0, 0.0), 0.0, 3.0, 0.3).unwrap();
    let goals = [Goal::new(at(0.0, 4.0), 0.2), Goal::new(at(4.0, 4.0), 0.2)];
    c.set_goals(id, &goals, OnArrival::Loop).unwrap();
    let events = run(&mut c, 20.0);
    let order: Vec<f32> = events
        .iter()
        .filter(|e| e.kind == EventKind::GoalReached)
        .map(|e| e.position.x.round())
        .collect();
    assert!(order.len() >= 6, "{order:?}");
    for (k, x) in order.iter().enumerate() {
        assert_eq!(*x, if k % 2 == 0 { 0.0 } else { 4.0 }, "{order:?}");
    }
    assert_eq!(c.goals_left(id), Ok(1));
}

#[test]
fn push_goal_extends_a_queue_and_set_target_replaces_the_current_goal() {
    let mut c = Crowd::new(1).unwrap();
    let id = c.add_agent(at(0.0, 0.0), 0.0, 2.0, 0.3).unwrap();
    c.set_target(id, at(0.0, 3.0), 0.2).unwrap();
    c.push_goal(id, Goal::new(at(3.0, 3.0), 0.2)).unwrap();
    assert_eq!(c.goals_left(id), Ok(1));
    // The current goal moves; the queue after it stays.
    c.set_target(id, at(-3.0, 3.0), 0.2).unwrap();
    let events = run(&mut c, 12.0);
    let reached: Vec<Vec3> = events
        .iter()
        .filter(|e| e.kind == EventKind::GoalReached)
        .map(|e| e.position)
        .collect();
    assert_eq!(reached.len(), 2, "{reached:?}");
    assert!(reached[0].distance(at(-3.0, 3.0)) <= 0.21);
    assert!(reached[1].distance(at(3.0, 3.0)) <= 0.21);
    // An empty queue drops it: the agent keeps its target.
    c.set_goals(id, &[], OnArrival::Despawn).unwrap();
    run(&mut c, 1.0);
    assert!(c.agent(id).is_ok());
}

#[test]
fn bad_goals_change_nothing() {
    let mut c = Crowd::new(1).unwrap();
    let id = c.add_agent(at(0.0, 0.0), 0.0, 2.0, 0.3).unwrap();
    let good = Goal::new(at(0.0, 3.0), 0.2);
    let nan = Goal::new(at(f32::NAN, 0.0), 0.2);
    use wayfarer::crowd::CrowdError::*;
    assert_eq!(
        c.set_goals(id, &[good, nan], OnArrival::Stop),
        Err(NonFinite)
    );
    assert_eq!(
        c.set_goals(id, &[good, Goal::new(at(1.0, 1.0), -1.0)], OnArrival::Stop),
        Err(InvalidArgument)
    );
    assert_eq!(
        c.set_goals(id, &[good.waiting(-1.0)], OnArrival::Stop),
        Err(InvalidArgument)
    );
    assert_eq!(
        c.set_goals(id, &[good.waiting(f32::INFINITY)], OnArrival::Stop),
        Err(NonFinite)
    );
    assert_eq!(c.push_goal(id, nan), Err(NonFinite));
    assert_eq!(c.agent(id).unwrap().target, at(0.0, 0.0), "unchanged");
    assert_eq!(c.goals_left(id), Ok(0));
    assert_eq!(c.goals_left(AgentId(12345)), Err(UnknownId));
    assert_eq!(
        c.set_on_arrival(AgentId(12345), OnArrival::Loop),
        Err(UnknownId)
    );
}

#[test]
fn a_crowd_grows_past_the_room_it_was_made_with() {
    let mut c = Crowd::new(2).unwrap();
    let ids: Vec<AgentId> = (0..300)
        .map(|k| {
            c.add_agent(
                at((k % 20) as f32 * 1.5, (k / 20) as f32 * 1.5),
                0.0,
                1.0,
                0.3,
            )
            .unwrap()
        })
        .collect();
    assert_eq!(c.agent_count(), 300);
    assert!(c.capacity() >= 300);
    for k in 0..3_000 {
        c.add_obstacle(wayfarer::crowd::Obstacle::Circle {
            center: at(-10.0 - (k % 50) as f32, (k / 50) as f32),
            radius: 0.2,
        })
        .unwrap();
    }
    assert_eq!(c.obstacles().count(), 3_000);
    for &id in &ids {
        c.set_target(id, c.agent(id).unwrap().position + at(0.0, 5.0), 0.2)
            .unwrap();
    }
    for _ in 0..40 {
        c.step(DT, 1).unwrap();
    }
    assert!(c.agents().all(|(_, a)| a.position.is_finite()));
}

/// `n` agents in files of ten west of the origin, each passing the origin on its way to its own
/// goal east of it, leaving there; returns how many left within `seconds`.
fn through_one_point(n: usize, seconds: f32) -> usize {
    let mut c = Crowd::new(n).unwrap();
    for k in 0..n {
        let (row, col) = ((k / 10) as f32, (k % 10) as f32);
        let id = c
            .add_agent(at(-15.0 - row * 1.2, (col - 4.5) * 1.2), 0.0, 1.3, 0.3)
            .unwrap();
        let goals = [
            Goal::new(at(0.0, 0.0), 0.25),
            Goal::new(at(15.0 + row * 1.2, (col - 4.5) * 1.2), 0.25),
        ];
        c.set_goals(id, &goals, OnArrival::Despawn).unwrap();
    }
    leave(&mut c, n, seconds).0
}

/// Steps `c` (0.1 s a step) until `n` agents have left it or `limit` s have passed: how many
/// left, and the simulated time (s) at which the last of all `n` did.
fn leave(c: &mut Crowd, n: usize, limit: f32) -> (usize, Option<f32>) {
    let mut gone = 0;
    for step in 1..=(limit / 0.1) as usize {
        c.step(0.1, 1).unwrap();
        gone += c
            .events()
            .iter()
            .filter(|e| e.kind == EventKind::Despawned)
            .count();
        if gone == n {
            return (gone, Some(step as f32 * 0.1));
        }
    }
    (gone, None)
}

#[test]
fn a_crowd_passing_one_shared_point_does_not_gridlock_there() {
    // Every agent must reach the point itself (within 0.25 m) before it walks on: those that
    // left it have the right of way over those still bound for it, and of those bound for it
    // the nearest goes first.
    assert_eq!(through_one_point(60, 600.0), 60);
}

#[test]
fn a_ring_sent_to_its_centre_leaves_there_one_by_one() {
    let n = 60;
    let mut c = Crowd::new(n).unwrap();
    for k in 0..n {
        let a = k as f32 / n as f32 * core::f32::consts::TAU;
        let id = c
            .add_agent(at(15.0 * a.sin(), 15.0 * a.cos()), 0.0, 1.3, 0.3)
            .unwrap();
        c.set_goals(id, &[Goal::new(at(0.0, 0.0), 0.25)], OnArrival::Despawn)
            .unwrap();
    }
    let events = run(&mut c, 300.0);
    let gone = events
        .iter()
        .filter(|e| e.kind == EventKind::Despawned)
        .inspect(|e| {
            assert!(
                e.position.length() <= 0.25 + 1e-4,
                "left at {:?}",
                e.position
            )
        })
        .count();
    assert_eq!(gone, n);
}

/// `n` agents on a ring of radius `ring` m sent to its centre, leaving there; returns the
/// simulated time (s) at which the last left, or `None` when some had not after `limit` s.
fn ring_to_centre(n: usize, ring: f32, limit: f32) -> Option<f32> {
    let mut c = Crowd::new(n).unwrap();
    for k in 0..n {
        let a = k as f32 / n as f32 * core::f32::consts::TAU;
        let id = c
            .add_agent(at(ring * a.sin(), ring * a.cos()), 0.0, 1.3, 0.3)
            .unwrap();
        c.set_goals(id, &[Goal::new(at(0.0, 0.0), 0.25)], OnArrival::Despawn)
            .unwrap();
    }
    leave(&mut c, n, limit).1
}

#[test]
fn the_right_of_way_is_whole_so_a_crowd_on_one_point_streams_in_instead_of_milling() {
    // The agent nearest the point (the right of way) does not steer for those behind it, so it
    // walks straight in; when it still took half a push, the crowd milled round the point: the
    // ring took 113 s and the files 338 s (now 99 s and 255 s).
    let t = ring_to_centre(100, 20.0, 300.0).expect("all 100 leave at the centre");
    assert!(t <= 105.0, "the last left after {t:.1} s");
    assert_eq!(through_one_point(100, 290.0), 100);
}

#[test]
fn a_refused_step_reports_no_events() {
    let mut c = Crowd::new(1).unwrap();
    let id = c.add_agent(at(0.0, 0.0), 0.0, 2.0, 0.3).unwrap();
    c.set_goals(id, &[Goal::new(at(0.0, 1.0), 0.2)], OnArrival::Despawn)
        .unwrap();
    let mut seen = false;
    for _ in 0..40 {
        c.step(DT, 1).unwrap();
        if !c.events().is_empty() {
            seen = true;
            break;
        }
    }
    assert!(seen, "the agent left");
    assert!(c.step(-1.0, 1).is_err());
    assert!(
        c.events().is_empty(),
        "the last call was refused: nothing happened"
    );
}
