//! SteerBench runner: loads SteerSuite test cases (XML) into a wayfarer crowd, runs them and
//! prints the SteerBench metrics per case.
//!
//! `cargo run --release --example steerbench -- <file-or-folder> [--svg DIR] [--threads N]
//! [--dt S] [--seed N] [--max-time S]` (simulated seconds per case: the case's own
//! timeDuration, at most `--max-time`, default 1000).
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
    max_time: f32,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        inputs: Vec::new(),
        svg: None,
        threads: 1,
        dt: 0.1,
        seed: 1,
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
            _ => o.inputs.push(a.into()),
        }
    }
    if o.inputs.is_empty() {
        return Err(
            "usage: steerbench <file-or-folder>... [--svg DIR] [--threads N] [--dt S] [--seed N]"
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
        let mut case = match loader::load(
            &text,
            &f.file_stem().map_or("case".into(), |s| s.to_string_lossy()),
            o.seed,
        ) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{}: {e}", f.display());
                failures.push(format!("{}: {e}", f.display()));
                continue;
            }
        };
        let mut trace = Vec::new();
        let limit = case.time_limit.min(o.max_time);
        let m = metrics::run(
            &mut case,
            o.dt,
            o.threads,
            limit,
            o.svg.as_ref().map(|_| &mut trace),
        );
        println!(
            "| {} | {} | {:.1} % | {} | {} | {:.1} | {:.4} | {:.1} / {:.1} | {:.2} | {:.3} | {:.1} | {:.1} | {:.3} | {:.1} | {} | {:.3} |",
            case.name,
            m.agents,
            100.0 * m.arrived as f32 / m.agents.max(1) as f32,
            m.agent_collisions,
            m.obstacle_collisions,
            100.0 * m.max_agent_penetration,
            m.max_obstacle_penetration,
            m.mean_time,
            m.max_time,
            m.time_ratio,
            m.path_ratio,
            m.sum_dv,
            m.energy,
            m.energy_ratio,
            100.0 * m.zig_zag,
            m.steps,
            m.wall_ms / m.steps.max(1) as f64,
        );
        total_agents += m.agents;
        total_arrived += m.arrived;
        total_aa += m.agent_collisions;
        total_ao += m.obstacle_collisions;
        worst_pen = worst_pen.max(m.max_agent_penetration);
        if m.arrived < m.agents {
            failures.push(format!(
                "{}: {} of {} arrived ({} could not have in {:.0} s even walking straight; \
                 {} still moving, {} blocked, {} other)",
                case.name,
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
                "{}: {} agent-obstacle overlaps",
                case.name, m.obstacle_collisions
            ));
        }
        if m.max_agent_penetration > 0.05 {
            failures.push(format!(
                "{}: agent overlap {:.1} % of a radius",
                case.name,
                100.0 * m.max_agent_penetration
            ));
        }
        if let Some(dir) = &o.svg {
            let path = dir.join(format!("{}.svg", case.name));
            if let Err(e) = draw(&case, &trace, &path) {
                eprintln!("{}: {e}", path.display());
            }
        }
    }
    println!();
    println!(
        "{} cases, {} agents: {:.1} % arrived, {} agent-agent and {} agent-obstacle collisions, deepest agent overlap {:.1} % of a radius",
        files.len(),
        total_agents,
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
