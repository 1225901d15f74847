//! SteerBench runner: loads SteerSuite test cases (XML) into a wayfarer crowd, runs them and
//! prints the SteerBench metrics per case.
//!
//! `cargo run --release --example steerbench -- <file-or-folder> [--svg DIR] [--threads N]
//! [--dt S] [--seed N] [--seeds K] [--max-time S]` (simulated seconds per case: the case's own
//! timeDuration, at most `--max-time`, default 1000). `--seeds K` runs every case with the
//! seeds N … N + K − 1 of its random regions and prints, per case, the means over them (with
//! the least and most agent–agent collisions and last arrival): crowded cases are chaotic,
//! and one seed can mislead. The goals are checked on every run.
//!
//! The SteerSuite cases are GPLv3 test data; read them from where they are (e.g.
//! `../shared/steersuite`), do not copy them into this project.

mod loader;
mod metrics;
#[path = "../tour/svg.rs"]
mod svg;

use std::path::{Path, PathBuf};

use glam::Vec2;
use wayfarer::crowd::Obstacle;

struct Options {
    inputs: Vec<PathBuf>,
    svg: Option<PathBuf>,
    threads: usize,
    dt: f32,
    seed: u64,
    seeds: u64,
    max_time: f32,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        inputs: Vec::new(),
        svg: None,
        threads: 1,
        dt: 0.1,
        seed: 1,
        seeds: 1,
        max_time: 1000.0,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--svg" => o.svg = Some(value("--svg")?.into()),
            "--threads" => o.threads = value("--threads")?.parse().map_err(|e| format!("{e}"))?,
            "--dt" => o.dt = value("--dt")?.parse().map_err(|e| format!("{e}"))?,
            "--max-time" => {
                o.max_time = value("--max-time")?.parse().map_err(|e| format!("{e}"))?
            }
            "--seed" => o.seed = value("--seed")?.parse().map_err(|e| format!("{e}"))?,
            "--seeds" => {
                o.seeds = value("--seeds")?.parse().map_err(|e| format!("{e}"))?;
                if o.seeds == 0 {
                    return Err("--seeds needs at least 1".into());
                }
            }
            _ => o.inputs.push(a.into()),
        }
    }
    if o.inputs.is_empty() {
        return Err(
            "usage: steerbench <file-or-folder>... [--svg DIR] [--threads N] [--dt S] [--seed N] \
             [--seeds K] [--max-time S]"
                .into(),
        );
    }
    Ok(o)
}

fn files(inputs: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in inputs {
        if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(p)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "xml"))
                .collect();
            v.sort();
            out.extend(v);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn draw(case: &loader::Case, trace: &[Vec<Vec2>], path: &Path) -> std::io::Result<()> {
    let mut s = svg::Svg::new(
        &format!("SteerSuite {} — wayfarer crowd", case.name),
        900.0,
        700.0,
    );
    for (_, o) in case.crowd.obstacles() {
        match *o {
            Obstacle::Circle { center, radius } => {
                s.circle((center.x, center.z), radius, "#bbb", "#777")
            }
            _ => {
                if let Some(sh) = o.shape() {
                    let axis = sh.axis;
                    let perp = Vec2::new(-axis.y, axis.x);
                    let corner = |a: f32, b: f32| {
                        let p = sh.center + axis * (a * sh.half.x) + perp * (b * sh.half.y);
                        (p.x, p.y)
                    };
                    let pts = [
                        corner(-1.0, -1.0),
                        corner(1.0, -1.0),
                        corner(1.0, 1.0),
                        corner(-1.0, 1.0),
                        corner(-1.0, -1.0),
                    ];
                    s.polyline(&pts, "#777", 2.0);
                }
            }
        }
    }
    let colors = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
    ];
    for (i, t) in trace.iter().enumerate() {
        let pts: Vec<(f32, f32)> = t.iter().map(|p| (p.x, p.y)).collect();
        s.polyline(&pts, colors[i % colors.len()], 1.0);
        if let Some(p) = t.last() {
            s.dot((p.x, p.y), 1.5, "#000");
        }
    }
    s.save(path)
}

fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let files = match files(&o.inputs) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("cannot read inputs: {e}");
            std::process::exit(2);
        }
    };
    if let Some(dir) = &o.svg {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("cannot create {}: {e}", dir.display());
            std::process::exit(2);
        }
    }
    println!(
        "| case | agents | arrived | coll a-a | coll a-o | max pen a-a (% r) | max pen a-o (m) | time to goal mean / max (s) | time / ideal | path / ideal | Σ|Δv| (m/s) | energy (J/kg) | energy / least | zig-zag (%) | steps | ms/step |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut failures = Vec::new();
    let (mut total_agents, mut total_arrived) = (0, 0);
    let (mut total_aa, mut total_ao) = (0, 0);
    let mut worst_pen: f32 = 0.0;
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{}: {e}", f.display());
                failures.push(format!("{}: unreadable", f.display()));
                continue;
            }
        };
        let name = f.file_stem().map_or("case".into(), |s| s.to_string_lossy());
        let mut runs = Vec::new();
        for seed in o.seed..=o.seed.saturating_add(o.seeds - 1) {
            let mut case = match loader::load(&text, &name, seed) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("{}: {e}", f.display());
                    failures.push(format!("{}: {e}", f.display()));
                    break;
                }
            };
            let mut trace = Vec::new();
            let limit = case.time_limit.min(o.max_time);
            // (The trajectories of the first seed only.)
            let draw_it = o.svg.is_some() && runs.is_empty();
            let m = metrics::run(
                &mut case,
                o.dt,
                o.threads,
                limit,
                draw_it.then_some(&mut trace),
            );
            let label = if o.seeds > 1 {
                format!("{} (seed {seed})", case.name)
            } else {
                case.name.clone()
            };
            check(&label, &m, &mut failures);
            total_agents += m.agents;
            total_arrived += m.arrived;
            total_aa += m.agent_collisions;
            total_ao += m.obstacle_collisions;
            worst_pen = worst_pen.max(m.max_agent_penetration);
            if let (true, Some(dir)) = (draw_it, &o.svg) {
                let path = dir.join(format!("{}.svg", case.name));
                if let Err(e) = draw(&case, &trace, &path) {
                    eprintln!("{}: {e}", path.display());
                }
            }
            runs.push(m);
        }
        if !runs.is_empty() {
            println!("{}", row(&name, &runs));
        }
    }
    println!();
    if o.seeds > 1 {
        println!(
            "(each row: means over seeds {}–{}; agent-agent collisions and the last arrival also \
             least–most)",
            o.seed,
            o.seed.saturating_add(o.seeds - 1)
        );
    }
    let runs = if o.seeds > 1 {
        format!(
            "{} cases × {} seeds, {} agent runs",
            files.len(),
            o.seeds,
            total_agents
        )
    } else {
        format!("{} cases, {} agents", files.len(), total_agents)
    };
    println!(
        "{runs}: {:.1} % arrived, {} agent-agent and {} agent-obstacle collisions, deepest agent overlap {:.1} % of a radius",
        100.0 * total_arrived as f32 / total_agents.max(1) as f32,
        total_aa,
        total_ao,
        100.0 * worst_pen
    );
    if failures.is_empty() {
        println!(
            "every case met the goals (100 % arrive, no obstacle overlap, agent overlap ≤ 5 %)"
        );
    } else {
        println!("goals missed:");
        for f in &failures {
            println!("  {f}");
        }
    }
}

/// Notes in `failures` every goal run `m` of case `label` missed.
fn check(label: &str, m: &metrics::Metrics, failures: &mut Vec<String>) {
    if m.arrived < m.agents {
        failures.push(format!(
            "{label}: {} of {} arrived ({} could not have in {:.0} s even walking straight; \
             {} still moving, {} blocked, {} other)",
            m.arrived,
            m.agents,
            m.unreachable,
            m.simulated,
            m.unfinished[0],
            m.unfinished[1],
            m.unfinished[2]
        ));
    }
    if m.obstacle_collisions > 0 {
        failures.push(format!(
            "{label}: {} agent-obstacle overlaps",
            m.obstacle_collisions
        ));
    }
    if m.max_agent_penetration > 0.05 {
        failures.push(format!(
            "{label}: agent overlap {:.1} % of a radius",
            100.0 * m.max_agent_penetration
        ));
    }
}

/// The table row of case `name` over its runs (one per seed): a run's own figures, or the
/// means over the runs, with the least and most agent–agent collisions and last arrival, the
/// deepest overlaps and the most agent–obstacle collisions.
fn row(name: &str, runs: &[metrics::Metrics]) -> String {
    let k = runs.len() as f64;
    let mean = |f: &dyn Fn(&metrics::Metrics) -> f64| runs.iter().map(f).sum::<f64>() / k;
    let most = |f: &dyn Fn(&metrics::Metrics) -> f64| runs.iter().map(f).fold(f64::MIN, f64::max);
    let least = |f: &dyn Fn(&metrics::Metrics) -> f64| runs.iter().map(f).fold(f64::MAX, f64::min);
    let collisions = |m: &metrics::Metrics| m.agent_collisions as f64;
    let last = |m: &metrics::Metrics| m.max_time as f64;
    let (aa, time_max) = if runs.len() == 1 {
        (
            format!("{}", runs[0].agent_collisions),
            format!("{:.1}", runs[0].max_time),
        )
    } else {
        (
            format!(
                "{:.0} ({:.0}–{:.0})",
                mean(&collisions),
                least(&collisions),
                most(&collisions)
            ),
            format!(
                "{:.1} ({:.1}–{:.1})",
                mean(&last),
                least(&last),
                most(&last)
            ),
        )
    };
    let steps = mean(&|m| m.steps as f64);
    format!(
        "| {} | {} | {:.1} % | {} | {} | {:.1} | {:.4} | {:.1} / {} | {:.2} | {:.3} | {:.1} | {:.1} | {:.3} | {:.1} | {:.0} | {:.3} |",
        name,
        runs[0].agents,
        100.0 * mean(&|m| m.arrived as f64 / m.agents.max(1) as f64),
        aa,
        most(&|m| m.obstacle_collisions as f64),
        100.0 * most(&|m| m.max_agent_penetration as f64),
        most(&|m| m.max_obstacle_penetration as f64),
        mean(&|m| m.mean_time as f64),
        time_max,
        mean(&|m| m.time_ratio as f64),
        mean(&|m| m.path_ratio as f64),
        mean(&|m| m.sum_dv as f64),
        mean(&|m| m.energy as f64),
        mean(&|m| m.energy_ratio as f64),
        100.0 * mean(&|m| m.zig_zag as f64),
        steps,
        mean(&|m| m.wall_ms) / steps.max(1.0),
    )
}
