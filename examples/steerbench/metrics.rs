//! The SteerBench measures of one run: collisions (agent–agent and agent–obstacle overlaps
//! deeper than 1 mm, counted once per pair and episode), deepest penetrations, time to goal,
//! path length against the straight route, Σ|Δv| and the least-effort energy
//! ∫(2.23 + 1.26·|v|²)dt (Guy et al. 2010), and the arrival rate; and, not a SteerBench
//! measure, how often an agent zig-zags (reverses a turn of more than half its turn-rate cap
//! two steps running), per step of an agent on its way.

use std::collections::{HashMap, HashSet};

use glam::Vec2;
use wayfarer::crowd::{AgentState, Obstacle};

use super::loader::Case;

/// Overlaps shallower than this (metres) are not collisions.
const TOLERANCE: f32 = 1e-3;

/// What a run measured (per-agent quantities are means over agents).
#[derive(Debug, Default)]
pub struct Metrics {
    pub agents: usize,
    pub arrived: usize,
    pub agent_collisions: usize,
    pub obstacle_collisions: usize,
    /// Deepest agent–agent overlap, fraction of the smaller radius.
    pub max_agent_penetration: f32,
    /// Deepest agent–obstacle overlap, metres.
    pub max_obstacle_penetration: f32,
    pub mean_time: f32,
    pub max_time: f32,
    /// Mean of arrival time / ideal time (straight route at desired speed).
    pub time_ratio: f32,
    pub path_ratio: f32,
    pub sum_dv: f32,
    pub energy: f32,
    /// Mean energy / least possible energy for the straight route (3.35 J/kg per metre).
    pub energy_ratio: f32,
    /// Zig-zags per agent-step of the agents on their way (see the module doc).
    pub zig_zag: f32,
    pub simulated: f32,
    /// Agents not finished whose goal sequence, walked straight at their desired speed, takes
    /// longer than the simulated time.
    pub unreachable: usize,
    /// Agents not finished, by state at the end: moving, blocked, other.
    pub unfinished: [usize; 3],
    pub steps: usize,
    pub wall_ms: f64,
}

/// Steps `case` at `dt` until every agent reaches its last goal or the time limit passes,
/// advancing goal sequences as agents arrive. `trace` receives every agent's positions.
pub fn run(
    case: &mut Case,
    dt: f32,
    threads: usize,
    max_time: f32,
    mut trace: Option<&mut Vec<Vec<Vec2>>>,
) -> Metrics {
    let n = case.agents.len();
    let shapes: Vec<_> = case
        .crowd
        .obstacles()
        .filter_map(|(_, o): (_, &Obstacle)| o.shape())
        .collect();
    // Obstacle buckets (4 m cells) for the overlap checks.
    let cell = 4.0f32;
    let mut buckets: HashMap<(i32, i32), Vec<usize>> = HashMap::new();
    for (i, s) in shapes.iter().enumerate() {
        let (lo, hi) = (s.center - s.extent(), s.center + s.extent());
        for x in (lo.x / cell).floor() as i32..=(hi.x / cell).floor() as i32 {
            for z in (lo.y / cell).floor() as i32..=(hi.y / cell).floor() as i32 {
                buckets.entry((x, z)).or_default().push(i);
            }
        }
    }
    let mut goal_index = vec![0usize; n];
    let mut finished: Vec<Option<f32>> = vec![None; n];
    let mut path = vec![0.0f32; n];
    let mut dv = vec![0.0f32; n];
    let mut energy = vec![0.0f32; n];
    let mut prev_v = vec![Vec2::ZERO; n];
    // Each agent's yaw after the last step and its last turn; zig-zags and agent-steps counted.
    let yaw_of = |case: &Case, i: usize| case.crowd.agent(case.agents[i].id).expect("live").yaw;
    let mut prev_yaw: Vec<f32> = (0..n).map(|i| yaw_of(case, i)).collect();
    let mut prev_turn = vec![0.0f32; n];
    let (mut zig_zags, mut walking) = (0usize, 0usize);
    let pos_of = |case: &Case, i: usize| {
        let p = case.crowd.agent(case.agents[i].id).expect("live").position;
        Vec2::new(p.x, p.z)
    };
    let mut prev: Vec<Vec2> = (0..n).map(|i| pos_of(case, i)).collect();
    let mut pairs_before: HashSet<(usize, usize)> = HashSet::new();
    let mut obstacle_before: HashSet<(usize, usize)> = HashSet::new();
    let mut m = Metrics {
        agents: n,
        ..Metrics::default()
    };
    if let Some(t) = trace.as_deref_mut() {
        *t = prev.iter().map(|p| vec![*p]).collect();
    }
    let r_max = case.agents.iter().map(|a| a.radius).fold(0.0f32, f32::max);
    let start = std::time::Instant::now();
    let mut time = 0.0f32;
    while time < max_time && finished.iter().any(Option::is_none) {
        case.crowd.step(dt, threads).expect("valid step");
        time += dt;
        m.steps += 1;
        let now: Vec<Vec2> = (0..n).map(|i| pos_of(case, i)).collect();
        for i in 0..n {
            if finished[i].is_some() {
                continue;
            }
            let (yaw, cap, arrived) = {
                let a = case.crowd.agent(case.agents[i].id).expect("live");
                (a.yaw, a.max_turn_rate, a.state() == AgentState::Arrived)
            };
            let turn = (yaw - prev_yaw[i] + core::f32::consts::PI)
                .rem_euclid(core::f32::consts::TAU)
                - core::f32::consts::PI;
            let half_cap = 0.5 * cap * dt;
            if !arrived {
                walking += 1;
                if turn * prev_turn[i] < 0.0
                    && turn.abs() > half_cap
                    && prev_turn[i].abs() > half_cap
                {
                    zig_zags += 1;
                }
            }
            (prev_turn[i], prev_yaw[i]) = (turn, yaw);
            let v = (now[i] - prev[i]) / dt;
            path[i] += now[i].distance(prev[i]);
            dv[i] += (v - prev_v[i]).length();
            energy[i] += (2.23 + 1.26 * v.length_squared()) * dt;
            prev_v[i] = v;
            let a = &case.agents[i];
            if arrived {
                if goal_index[i] + 1 < a.goals.len() {
                    goal_index[i] += 1;
                    case.crowd
                        .set_target(a.id, a.goals[goal_index[i]], a.radius)
                        .expect("valid goal");
                } else {
                    finished[i] = Some(time);
                }
            }
            if let Some(t) = trace.as_deref_mut() {
                if m.steps.is_multiple_of(5) {
                    t[i].push(now[i]);
                }
            }
        }
        // Agent–agent overlaps: sweep along x.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| now[a].x.total_cmp(&now[b].x));
        let mut pairs = HashSet::new();
        for (k, &i) in order.iter().enumerate() {
            for &j in &order[k + 1..] {
                if now[j].x - now[i].x > 2.0 * r_max {
                    break;
                }
                let (ri, rj) = (case.agents[i].radius, case.agents[j].radius);
                let pen = ri + rj - now[i].distance(now[j]);
                if pen > TOLERANCE {
                    m.max_agent_penetration = m.max_agent_penetration.max(pen / ri.min(rj));
                    let key = (i.min(j), i.max(j));
                    if !pairs_before.contains(&key) {
                        m.agent_collisions += 1;
                    }
                    pairs.insert(key);
                }
            }
        }
        pairs_before = pairs;
        let mut touching = HashSet::new();
        for (i, p) in now.iter().enumerate() {
            let key = ((p.x / cell).floor() as i32, (p.y / cell).floor() as i32);
            let mut seen = HashSet::new();
            for dx in -1..=1 {
                for dz in -1..=1 {
                    for &o in buckets.get(&(key.0 + dx, key.1 + dz)).into_iter().flatten() {
                        if !seen.insert(o) {
                            continue;
                        }
                        let pen = case.agents[i].radius - shapes[o].contact(*p).distance;
                        if pen > TOLERANCE {
                            m.max_obstacle_penetration = m.max_obstacle_penetration.max(pen);
                            if !obstacle_before.contains(&(i, o)) {
                                m.obstacle_collisions += 1;
                            }
                            touching.insert((i, o));
                        }
                    }
                }
            }
        }
        obstacle_before = touching;
        prev = now;
    }
    m.wall_ms = start.elapsed().as_secs_f64() * 1e3;
    m.simulated = time;
    let mut t_sum = 0.0;
    let mut ratio_sum = 0.0;
    let mut path_sum = 0.0;
    let mut e_ratio = 0.0;
    for (i, a) in case.agents.iter().enumerate() {
        let mut ideal = 0.0;
        let mut from = Vec2::new(a.start.x, a.start.z);
        for g in &a.goals {
            let g = Vec2::new(g.x, g.z);
            ideal += from.distance(g);
            from = g;
        }
        let ideal = (ideal - a.radius).max(1e-3);
        if finished[i].is_none() {
            if ideal / a.speed > time {
                m.unreachable += 1;
            } else {
                let k = match case.crowd.agent(a.id).expect("live").state() {
                    AgentState::Moving => 0,
                    AgentState::Blocked => 1,
                    _ => 2,
                };
                m.unfinished[k] += 1;
            }
        }
        if let Some(t) = finished[i] {
            m.arrived += 1;
            t_sum += t;
            m.max_time = m.max_time.max(t);
            ratio_sum += t / (ideal / a.speed);
            path_sum += path[i] / ideal;
            e_ratio += energy[i] / (ideal * 2.0 * (2.23f32 * 1.26).sqrt());
        }
        m.sum_dv += dv[i] / n as f32;
        m.energy += energy[i] / n as f32;
    }
    let k = m.arrived.max(1) as f32;
    m.mean_time = t_sum / k;
    m.time_ratio = ratio_sum / k;
    m.path_ratio = path_sum / k;
    m.energy_ratio = e_ratio / k;
    m.zig_zag = zig_zags as f32 / walking.max(1) as f32;
    m
}
