//! SteerBench runner: loads SteerSuite test cases (XML) into a wayfarer crowd, runs them with
//! SteerSuite's semantics and prints, per case and in sum, honest measures: which agents
//! reached every goal, which settled short and how far, blocked time and gridlock, overlaps
//! and step times. It also generates scenes: `--generate N` samples the scenario space
//! (Kapadia et al. 2011) and prints the coverage; `--large N` runs generated large crowds.
//!
//! ```text
//! cargo run --release --example steerbench -- <file-or-folder>... [--stay] [--require-goals]
//!     [--seed S] [--seeds K] [--svg DIR] [--threads N] [--dt S] [--max-time S]
//! cargo run --release --example steerbench -- --generate N [--seed S] [--svg DIR]
//!     [--min-coverage P]
//! cargo run --release --example steerbench -- --large N [--seed S] [--kind K] [--jobs J]
//!     [--svg DIR]
//! cargo run --release --example steerbench -- --docs
//! ```
//!
//! `--large N` runs floor plans with a field of pillars second; `--kind floors` or
//! `--kind pillars` runs N scenes of that kind instead (seeds S … S + N − 1), to compare
//! models over many scenes of each; `--jobs J` runs J scenes at a time, one a thread (the same
//! results in the same order; only the step times, measured on a busier machine, differ).
//!
//! `--docs` measures the shared cases, three ranges of generated scenes and the large crowds,
//! and writes the figures into `README.md` and `docs/crowd.md` (see `docs.rs`).
//!
//! With `--svg DIR`, each case's trajectories are drawn there; with `--generate`, only the
//! failed scenes, whose failing agents are listed too.
//!
//! Folders are searched recursively for `.xml` files. An agent that ends its goal sequence
//! leaves the world (SteerSuite's rule); `--stay` keeps it standing there instead, and then an
//! agent settled short within 3 m of its last goal counts as arrived. Each case runs for its
//! own goal times (at most `--max-time`, default 1000 s); `--seeds K` runs every case with the
//! seeds S … S + K − 1 of its random choices.
//!
//! Exit status: 2 for bad arguments or unreadable inputs, 1 when a case does not load (or,
//! with `--require-goals`, misses its goals; or a generated scene cannot be built; or, with
//! `--min-coverage P`, fewer than P % of the generated scenes are solved), else 0.
//!
//! The SteerSuite cases are GPLv3 test data; read them from where they are (e.g.
//! `../shared/steersuite`), do not copy them into this project.

mod crowds;
mod docs;
mod draw;
mod emitter;
mod loader;
mod metrics;
#[path = "../common/pages.rs"]
mod pages;
mod program;
mod report;
mod rng;
mod run;
mod sampler;
mod scene;
mod solvable;
mod xml;

use std::path::{Path, PathBuf};

use program::Arrival;
use run::Settings;

/// The command line.
pub struct Options {
    inputs: Vec<PathBuf>,
    svg: Option<PathBuf>,
    settings: Settings,
    seed: u64,
    seeds: u64,
    require_goals: bool,
    generate: Option<usize>,
    min_coverage: Option<f32>,
    large: Option<usize>,
    kind: crowds::Kind,
    jobs: usize,
    docs: bool,
}

const USAGE: &str = "usage: steerbench <file-or-folder>... [--stay] [--require-goals] [--seed S] \
     [--seeds K] [--svg DIR] [--threads N] [--dt S] [--max-time S] | --generate N [--seed S] \
     [--svg DIR] [--min-coverage P] | --large N [--seed S] [--kind mixed|floors|pillars] \
     [--jobs J] [--svg DIR] | --docs";

fn options() -> Result<Options, String> {
    let mut o = Options {
        inputs: Vec::new(),
        svg: None,
        settings: Settings {
            dt: 0.1,
            threads: 1,
            arrival: Arrival::Despawn,
            max_time: 1000.0,
        },
        seed: 1,
        seeds: 1,
        require_goals: false,
        generate: None,
        min_coverage: None,
        large: None,
        kind: crowds::Kind::Mixed,
        jobs: 1,
        docs: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        fn num<T: std::str::FromStr>(name: &str, v: String) -> Result<T, String> {
            v.parse()
                .map_err(|_| format!("{name}: \"{v}\" is not a valid number"))
        }
        match a.as_str() {
            "--svg" => o.svg = Some(value("--svg")?.into()),
            "--threads" => o.settings.threads = num("--threads", value("--threads")?)?,
            "--dt" => o.settings.dt = num("--dt", value("--dt")?)?,
            "--max-time" => o.settings.max_time = num("--max-time", value("--max-time")?)?,
            "--seed" => o.seed = num("--seed", value("--seed")?)?,
            "--seeds" => o.seeds = num("--seeds", value("--seeds")?)?,
            "--generate" => o.generate = Some(num("--generate", value("--generate")?)?),
            "--min-coverage" => {
                o.min_coverage = Some(num("--min-coverage", value("--min-coverage")?)?)
            }
            "--large" => o.large = Some(num("--large", value("--large")?)?),
            "--kind" => o.kind = value("--kind")?.parse()?,
            "--jobs" => o.jobs = num("--jobs", value("--jobs")?)?,
            "--stay" => o.settings.arrival = Arrival::Stay,
            "--require-goals" => o.require_goals = true,
            "--docs" => o.docs = true,
            s if s.starts_with("--") => return Err(format!("unknown option {s}\n{USAGE}")),
            _ => o.inputs.push(a.into()),
        }
    }
    let dt = o.settings.dt;
    if !(dt > 0.0 && dt.is_finite()) {
        return Err(format!("--dt {dt}: needs a positive step"));
    }
    if o.seeds == 0 {
        return Err("--seeds needs at least 1".into());
    }
    if o.inputs.is_empty() && o.generate.is_none() && o.large.is_none() && !o.docs {
        return Err(USAGE.into());
    }
    Ok(o)
}

/// Every `.xml` file under `inputs` (folders searched recursively), sorted per folder.
fn files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out)?;
            } else if p.extension().is_some_and(|e| e == "xml") {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in inputs {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or folder", p.display()));
        }
    }
    Ok(out)
}

fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut status = 0;
    if o.docs {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let settings = o.settings;
        let shared = docs::shared_cases(root).map(|p| {
            let o = Options {
                inputs: vec![p],
                ..o
            };
            let (_, sum, errors) = cases(&o);
            (sum, errors)
        });
        std::process::exit(docs::write(root, settings, shared));
    }
    if !o.inputs.is_empty() {
        status = status.max(cases(&o).0);
    }
    if let Some(n) = o.generate {
        status = status.max(sampler::coverage(
            n,
            o.seed,
            o.settings,
            o.svg.as_deref(),
            o.min_coverage,
        ));
    }
    if let Some(n) = o.large {
        let batch = crowds::Batch {
            n,
            first: o.seed,
            kind: o.kind,
            jobs: o.jobs,
        };
        status = status.max(crowds::large(batch, o.settings, o.svg.as_deref()));
    }
    std::process::exit(status);
}

/// Runs the SteerSuite cases under `o.inputs`; returns the exit status, the sum of the runs
/// and the cases that did not load or run.
fn cases(o: &Options) -> (i32, report::Summary, Vec<String>) {
    let files = match files(&o.inputs) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("cannot read inputs: {e}");
            return (2, report::Summary::default(), vec![e]);
        }
    };
    if let Some(dir) = &o.svg {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("cannot create {}: {e}", dir.display());
            return (2, report::Summary::default(), vec![e.to_string()]);
        }
    }
    println!("{}", report::header());
    let mut sum = report::Summary::default();
    let mut load_errors = Vec::new();
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                load_errors.push(format!("{}: {e}", f.display()));
                continue;
            }
        };
        let name = f.file_stem().map_or("case".into(), |s| s.to_string_lossy());
        for seed in o.seed..o.seed.saturating_add(o.seeds) {
            let played = loader::load(&text, &name, seed).and_then(|scene| {
                let draw_it = o.svg.is_some() && seed == o.seed;
                run::play(&scene, o.settings, draw_it).map(|p| (scene, p))
            });
            let (scene, p) = match played {
                Ok(x) => x,
                Err(e) => {
                    load_errors.push(format!("{}: {e}", f.display()));
                    break;
                }
            };
            let v = report::judge(
                &scene,
                &p.program,
                &p.measures,
                &p.crowd,
                o.settings.arrival,
            );
            let label = if o.seeds > 1 {
                format!("{name} (seed {seed})")
            } else {
                name.to_string()
            };
            println!("{}", report::row(&label, &v, &p.measures));
            sum.add(&label, &v, &p.measures);
            if let (Some(dir), true) = (&o.svg, seed == o.seed) {
                let path = dir.join(format!("{name}.svg"));
                if let Err(e) = draw::draw(&name, &scene.obstacles, &p.trace, &path) {
                    eprintln!("{}: {e}", path.display());
                }
            }
        }
    }
    sum.print(o.settings.arrival);
    let mut status = 0;
    if !load_errors.is_empty() {
        println!("cases that did not load or run:");
        for e in &load_errors {
            println!("  {e}");
        }
        status = 1;
    }
    if o.require_goals && sum.met < sum.runs {
        status = 1;
    }
    (status, sum, load_errors)
}
