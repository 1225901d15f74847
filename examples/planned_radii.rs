//! Steps a crowd of planned agents with per-agent radii among circle obstacles, on one thread,
//! and prints the mean and worst step time for three spreads of radii: one radius (0.4 m),
//! nine radii (0.20, 0.25, …, 0.60 m) and radii spread continuously over 0.2–0.6 m:
//! `cargo run --release --example planned_radii -- [agents] [steps] [budget] [one|nine|spread]`
//! (defaults 700, 300, 4, all three). Each agent walks from a random point to the point
//! mirrored through the centre, planning its route ([`RouteMode::Planned`]); 200 circles of
//! radius 0.3–1.0 m stand in the way. Agents, obstacles and radii are the same on every run
//! (a fixed seed), so the spreads differ only in the radii. Each line gives the agents arrived
//! at the end and the mean time each walked (an agent not arrived counts the whole run: how
//! good the routes are, beside how fast they come), and ends with a hash of the
//! agents' final positions (equal hashes: equal bits, e.g. before and after a change to the
//! planner that must not change where agents walk). The same scene is then run with its grid
//! baked at load (`Crowd::bake_routes`, as a navigation mesh is): the bake's time and that
//! run's worst step (the first step then routes without building the grid; the same bits).
//! Then every obstacle moves 0.1 m (more changes in one step than the crowd tracks: the
//! planner builds its grid again, in slices within the route budget) and the line ends with
//! the worst of the next five steps.

#[path = "common/args.rs"]
mod args;
#[path = "common/radii_scene.rs"]
mod radii_scene;
use args::arg;
use radii_scene::{rebuild_worst, run, run_baked, scene, SPREADS};

/// Steps timed after every obstacle moved (the planner's grid rebuilt while the crowd runs).
const REBUILD_STEPS: usize = 5;

fn main() {
    let (n, steps) = (arg(1, 700), arg(2, 300).max(1));
    let budget = arg(3, 4);
    let only = std::env::args().nth(4);
    for spread in SPREADS {
        if only.as_deref().is_some_and(|o| o != spread) {
            continue;
        }
        let mut crowd = scene(n, spread, budget);
        let t = run(&mut crowd, steps);
        let (computed, searched) = (
            crowd.planner().fields_computed(),
            crowd.planner().paths_searched(),
        );
        let rebuilt = rebuild_worst(&mut crowd, REBUILD_STEPS);
        // The same scene with its grid baked at load: the same bits, without the build in
        // the first step.
        let (bake_ms, b) = run_baked(n, spread, budget, steps, &t);
        println!(
            "{:>12}: {n} agents, {steps} steps, budget {budget}: mean {:.2} ms, worst {:.2} ms (fields computed {}, paths searched {}), {} of {n} arrived, {:.1} s walking per agent, hash {:016x}; grid baked at load in {bake_ms:.2} ms: worst {:.2} ms, same bits; every obstacle then moved: worst of the next {REBUILD_STEPS} steps {:.2} ms",
            match spread {
                "one" => "one radius",
                "nine" => "nine radii",
                _ => "radii spread",
            },
            t.mean,
            t.worst,
            computed,
            searched,
            t.arrived,
            t.walking / n.max(1) as f64,
            t.hash,
            b.worst,
            rebuilt,
        );
    }
}
