//! Probe: agents sharing one goal point (despawn there), and agents passing through one shared
//! point on the way to goals beyond it. Prints how many reach, over time.
use glam::Vec3;
use wayfarer::crowd::{Crowd, EventKind, Goal, OnArrival};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let arrive: f32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0.25);
    for scene in ["ring-to-center", "through-a-point"] {
        let mut c = Crowd::new(n).unwrap();
        let mut ids = vec![];
        for k in 0..n {
            let a = k as f32 / n as f32 * std::f32::consts::TAU;
            let (p, goals) = if scene == "ring-to-center" {
                (
                    Vec3::new(20.0 * a.sin(), 0.0, 20.0 * a.cos()),
                    vec![Goal::new(Vec3::ZERO, arrive)],
                )
            } else {
                let row = (k / 10) as f32;
                let col = (k % 10) as f32;
                (
                    Vec3::new(-15.0 - row * 1.2, 0.0, (col - 4.5) * 1.2),
                    vec![
                        Goal::new(Vec3::ZERO, arrive),
                        Goal::new(Vec3::new(15.0 + row * 1.2, 0.0, (col - 4.5) * 1.2), arrive),
                    ],
                )
            };
            let id = c.add_agent(p, 0.0, 1.3, 0.3).unwrap();
            c.set_goals(id, &goals, OnArrival::Despawn).unwrap();
            ids.push(id);
        }
        let mut gone = 0;
        let mut t = 0.0;
        let t0 = std::time::Instant::now();
        while t < 900.0 && gone < n {
            c.step(0.1, 1).unwrap();
            t += 0.1;
            gone += c
                .events()
                .iter()
                .filter(|e| e.kind == EventKind::Despawned)
                .count();
        }
        let left: Vec<f32> = c.agents().map(|(_, a)| a.position.length()).collect();
        let mut states = [0usize; 4];
        for (_, a) in c.agents() {
            states[a.state() as usize] += 1;
        }
        println!("states moving/arrived/blocked/invalid: {states:?}");
        let mut near: Vec<_> = c
            .agents()
            .map(|(id, a)| {
                (
                    a.position.length(),
                    id,
                    a.position,
                    a.target,
                    a.state(),
                    a.hit().kind,
                    a.hit().id,
                )
            })
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        for n in near.iter().take(16) {
            println!(
                "  {:.2} {:?} at ({:.2},{:.2}) -> ({:.1},{:.1}) {:?} hit {:?} {}",
                n.0, n.1, n.2.x, n.2.z, n.3.x, n.3.z, n.4, n.5, n.6
            );
        }
        println!(
            "{scene}: {gone}/{n} reached in {t:.0} s ({:.2} s wall); left at {:?}",
            t0.elapsed().as_secs_f32(),
            &left[..left.len().min(12)]
        );
    }
}
