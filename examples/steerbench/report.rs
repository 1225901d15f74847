//! Judges a run and prints it: per agent and goal whether it was **reached** (within the
//! goal's arrival radius or region), missed, or left open — and, for an open goal, whether the
//! agent **settled short** against others and how far from the goal; the blocked time, the
//! deepest overlaps and the step times; a case's row, and the summary over cases.

use wayfarer::crowd::Crowd;

use super::metrics::{Measures, GRIDLOCK};
use super::program::{settled_short, Arrival, Outcome, Program, Walker};
use super::scene::Scene;

/// A settled-short agent counts as arrived (in `--stay` runs only) within this of its goal.
pub const SETTLED_COUNTS: f32 = 3.0;
/// Deepest agent–agent overlap a case may have, fraction of a radius.
pub const AGENT_OVERLAP: f32 = 0.05;
/// Overlaps shallower than this (metres) are not overlaps.
const TOLERANCE: f32 = 1e-3;

/// What a case's run came to.
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    /// Agents the scene holds (placed and emitted, emitted or not).
    pub agents: usize,
    /// Agents that reached every destination goal (settled short within 3 m of the last
    /// counts too in `--stay` runs).
    pub arrived: usize,
    /// Destination goals in all, and reached.
    pub goals: usize,
    /// Destination goals reached.
    pub reached: usize,
    /// Destination goals whose time passed first.
    pub missed: usize,
    /// Agents standing settled short of their goal at the end, and the farthest of them.
    pub settled: usize,
    /// The farthest settled-short agent's distance to its goal, metres.
    pub settled_max: f32,
    /// Agents an emitter never placed.
    pub unemitted: usize,
    /// Agents blocked 60 s or more without a break.
    pub gridlocked: usize,
    /// Mean blocked time per agent, seconds.
    pub blocked_mean: f32,
    /// Mean over agents that reached their last destination of time / ideal time.
    pub time_ratio: f32,
    /// Mean over the same agents of path length / ideal (straight) length.
    pub path_ratio: f32,
    /// Mean Σ|Δv| per agent, m/s.
    pub sum_dv: f32,
    /// Mean least-effort energy per agent, J/kg.
    pub energy: f32,
    /// Zig-zags per agent-step on the way.
    pub zig_zag: f32,
    /// Why it missed its goals (empty: it met them).
    pub failures: Vec<String>,
}

/// Whether `w` met every destination goal (see [`Verdict::arrived`]), with `settled` its
/// settled-short distance if any.
fn met(w: &Walker, settled: Option<f32>, arrival: Arrival) -> bool {
    let missed = w.outcomes.contains(&Outcome::Missed);
    if missed {
        return false;
    }
    let open = w.spec.goals[w.goal.min(w.spec.goals.len())..]
        .iter()
        .filter(|g| g.kind.is_destination())
        .count();
    match open {
        0 => true,
        1 => {
            arrival == Arrival::Stay
                && w.current().is_some_and(|k| k.is_destination())
                && settled.is_some_and(|d| d <= SETTLED_COUNTS)
        }
        _ => false,
    }
}

/// Judges a case's run.
pub fn judge(
    scene: &Scene,
    program: &Program,
    m: &Measures,
    crowd: &Crowd,
    arrival: Arrival,
) -> Verdict {
    let mut v = Verdict {
        agents: scene.total_agents(),
        unemitted: scene.total_agents().saturating_sub(program.walkers.len()),
        ..Verdict::default()
    };
    let (mut ratio, mut ratios, mut path) = (0.0f32, 0usize, 0.0f32);
    let (mut walking, mut zig_zags) = (0usize, 0usize);
    for (k, w) in program.walkers.iter().enumerate() {
        let settled = settled_short(crowd, w);
        if let Some(d) = settled {
            v.settled += 1;
            v.settled_max = v.settled_max.max(d);
        }
        v.goals += w
            .spec
            .goals
            .iter()
            .filter(|g| g.kind.is_destination())
            .count();
        for o in &w.outcomes {
            match o {
                Outcome::Reached(_) => v.reached += 1,
                Outcome::Missed => v.missed += 1,
                Outcome::Timed => {}
            }
        }
        if met(w, settled, arrival) {
            v.arrived += 1;
        }
        let b = &m.bodies[k];
        if b.longest_blocked >= GRIDLOCK {
            v.gridlocked += 1;
        }
        v.blocked_mean += b.blocked;
        v.sum_dv += b.sum_dv;
        v.energy += b.energy;
        walking += b.walking;
        zig_zags += b.zig_zags;
        let last = w.outcomes.iter().rev().find_map(|o| match o {
            Outcome::Reached(t) => Some(*t),
            _ => None,
        });
        if let (Some(t), true) = (last, w.spec.ideal_length > 0.0) {
            ratio += t / (w.spec.ideal_length / w.spec.speed);
            path += b.path / w.spec.ideal_length;
            ratios += 1;
        }
    }
    let n = program.walkers.len().max(1) as f32;
    v.blocked_mean /= n;
    v.sum_dv /= n;
    v.energy /= n;
    v.zig_zag = zig_zags as f32 / walking.max(1) as f32;
    v.time_ratio = ratio / ratios.max(1) as f32;
    v.path_ratio = path / ratios.max(1) as f32;
    if v.arrived < v.agents {
        v.failures.push(format!(
            "{} of {} agents reached every goal ({} goals missed, {} open; {} settled short, \
             farthest {:.2} m; {} never emitted; {} in gridlock)",
            v.arrived,
            v.agents,
            v.missed,
            v.goals.saturating_sub(v.reached + v.missed),
            v.settled,
            v.settled_max,
            v.unemitted,
            v.gridlocked
        ));
    }
    if m.obstacle_collisions > 0 {
        v.failures.push(format!(
            "{} agent-obstacle overlaps, deepest {:.3} m",
            m.obstacle_collisions, m.deepest_obstacle
        ));
    }
    if m.deepest_agent > AGENT_OVERLAP {
        v.failures.push(format!(
            "agent overlap {:.1} % of a radius",
            100.0 * m.deepest_agent
        ));
    }
    v
}

/// The header of the per-case table.
pub fn header() -> &'static str {
    "| case | agents | reached | goals reached | missed | settled short (farthest m) | blocked mean (s) | gridlock | coll a-a | coll a-o | deepest a-a (% r) | deepest a-o (m) | time / ideal | path / ideal | Σ|Δv| (m/s) | energy (J/kg) | zig-zag (%) | ms/step mean / max | steps |\n\
     |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
}

/// The table row of a run.
pub fn row(name: &str, v: &Verdict, m: &Measures) -> String {
    format!(
        "| {name} | {} | {:.1} % | {}/{} | {} | {} ({:.2}) | {:.1} | {} | {} | {} | {:.1} | {:.4} | {:.2} | {:.3} | {:.1} | {:.1} | {:.1} | {:.3} / {:.1} | {} |",
        v.agents,
        100.0 * v.arrived as f32 / v.agents.max(1) as f32,
        v.reached,
        v.goals,
        v.missed,
        v.settled,
        v.settled_max,
        v.blocked_mean,
        v.gridlocked,
        m.agent_collisions,
        m.obstacle_collisions,
        100.0 * m.deepest_agent,
        if m.deepest_obstacle > TOLERANCE { m.deepest_obstacle } else { 0.0 },
        v.time_ratio,
        v.path_ratio,
        v.sum_dv,
        v.energy,
        100.0 * v.zig_zag,
        m.mean_step_ms(),
        m.max_step_ms,
        m.steps
    )
}

/// Sums over the cases of a run of the benchmark.
#[derive(Debug, Default)]
pub struct Summary {
    /// Cases run (per seed).
    pub runs: usize,
    /// Runs that met their goals.
    pub met: usize,
    /// Agents, and those that reached every goal.
    pub agents: usize,
    /// Agents that reached every goal.
    pub arrived: usize,
    /// Agents in gridlock.
    pub gridlocked: usize,
    /// Overlap collisions.
    pub agent_collisions: usize,
    /// Agent–obstacle collisions.
    pub obstacle_collisions: usize,
    /// Deepest agent–agent overlap, fraction of a radius.
    pub deepest_agent: f32,
    /// Steps and their wall time, ms.
    pub steps: usize,
    /// Wall time of the steps, ms.
    pub step_ms: f64,
    /// Per failing run, its label and reasons.
    pub failures: Vec<String>,
}

impl Summary {
    /// Adds run `label`.
    pub fn add(&mut self, label: &str, v: &Verdict, m: &Measures) {
        self.runs += 1;
        self.met += usize::from(v.failures.is_empty());
        self.agents += v.agents;
        self.arrived += v.arrived;
        self.gridlocked += v.gridlocked;
        self.agent_collisions += m.agent_collisions;
        self.obstacle_collisions += m.obstacle_collisions;
        self.deepest_agent = self.deepest_agent.max(m.deepest_agent);
        self.steps += m.steps;
        self.step_ms += m.step_ms;
        for f in &v.failures {
            self.failures.push(format!("{label}: {f}"));
        }
    }

    /// Prints the summary lines.
    pub fn print(&self, arrival: Arrival) {
        println!();
        let rule = match arrival {
            Arrival::Despawn => "agents leave at their final goal (SteerSuite)",
            Arrival::Stay => {
                "agents stay at their final goal (--stay; settled short within 3 m counts)"
            }
        };
        println!(
            "{} runs ({rule}): {} met their goals; {} agents, {:.1} % reached every goal, {} in \
             gridlock; {} agent-agent and {} agent-obstacle collisions; deepest agent overlap \
             {:.1} % of a radius; {:.3} ms a step",
            self.runs,
            self.met,
            self.agents,
            100.0 * self.arrived as f32 / self.agents.max(1) as f32,
            self.gridlocked,
            self.agent_collisions,
            self.obstacle_collisions,
            100.0 * self.deepest_agent,
            self.step_ms / self.steps.max(1) as f64
        );
        if self.failures.is_empty() {
            println!("every case met its goals (every agent reached every goal, no obstacle overlap, agent overlap ≤ 5 %)");
        } else {
            println!("goals missed:");
            for f in &self.failures {
                println!("  {f}");
            }
        }
    }
}
