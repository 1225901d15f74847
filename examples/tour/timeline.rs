//! Tour, part 2: a day in the life of three NPCs (timed paths).

use crate::svg::Svg;
use std::path::Path as FsPath;
use wayfarer::timeline::{Ease, Key, NpcState, Path, ScheduleSet, Times, Wrap};
use wayfarer::Vec3;

const HOUR: f64 = 3600.0;

/// Three NPCs with schedules over a day; positions every two hours, then the same day run
/// backwards (time reversed) landing on the very same points.
pub fn run(out: &FsPath) -> std::io::Result<()> {
    let mut set = ScheduleSet::new();
    // The baker: home -> bakery -> market -> home, Catmull-Rom through the town.
    let town = [
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(12.0, 0.0, 6.0),
        Vec3::new(26.0, 0.0, 4.0),
        Vec3::new(38.0, 0.0, 14.0),
        Vec3::new(30.0, 0.0, 28.0),
        Vec3::new(14.0, 0.0, 30.0),
        Vec3::new(4.0, 0.0, 18.0),
    ];
    let baker_path = Path::catmull_rom(&town, 0.5, 0.0).expect("town path");
    let l = baker_path.length() as f64;
    let baker = set.add_path(baker_path);
    let bakery = l * 0.35;
    let market = l * 0.7;
    let keys = [
        (5.0, 0.0),
        (6.0, bakery),
        (13.0, bakery),
        (14.0, market),
        (18.0, market),
        (20.0, l),
    ];
    let keys: Vec<Key> = keys
        .iter()
        .map(|&(h, d)| Key {
            time: h * HOUR,
            distance: d,
        })
        .collect();
    let ease = [Ease::InOut, Ease::None, Ease::InOut, Ease::None, Ease::Out];
    set.add_npc(baker, &keys, &ease, Wrap::Clamp)
        .expect("baker");

    // The guard: a Hermite loop round the square, four rounds a day (loop wrap).
    let square = [
        Vec3::new(44.0, 0.0, 0.0),
        Vec3::new(56.0, 0.0, 4.0),
        Vec3::new(56.0, 0.0, 18.0),
        Vec3::new(44.0, 0.0, 20.0),
        Vec3::new(44.0, 0.0, 0.0),
    ];
    let tangents = [
        Vec3::new(14.0, 0.0, -4.0),
        Vec3::new(6.0, 0.0, 12.0),
        Vec3::new(-6.0, 0.0, 12.0),
        Vec3::new(-10.0, 0.0, -10.0),
        Vec3::new(14.0, 0.0, -4.0),
    ];
    let guard_path = Path::hermite(&square, &tangents).expect("guard path");
    let guard = set.add_path(guard_path);
    set.add_npc_simple(guard, 0.0, 6.0 * HOUR, Wrap::Loop)
        .expect("guard");

    // The child: a polyline (with a duplicate point, skipped) to the well and back, ping-pong.
    let lane = [
        Vec3::new(0.0, 0.0, 36.0),
        Vec3::new(20.0, 0.0, 40.0),
        Vec3::new(20.0, 0.0, 40.0),
        Vec3::new(40.0, 0.0, 34.0),
        Vec3::new(56.0, 0.0, 38.0),
    ];
    let child = set.add_path(Path::polyline(&lane).expect("lane"));
    set.add_npc_simple(child, 7.0 * HOUR, 10.0 * HOUR, Wrap::PingPong)
        .expect("child");

    let colors = ["#d1495b", "#00798c", "#edae49"];
    let names = [
        "baker (clamp, holds at bakery and market, eased)",
        "guard (loop, 6 h a round)",
        "child (ping-pong, 3 h each way)",
    ];
    let xz = |p: Vec3| (p.x, p.z);
    let mut svg = Svg::new(
        "A day: positions every 2 h (dots) and the same day run backwards (rings)",
        760.0,
        560.0,
    );
    for (i, (color, name)) in colors.iter().zip(names).enumerate() {
        let path = set.path(i as u32).expect("path");
        let pts: Vec<(f32, f32)> = (0..=300)
            .map(|k| xz(path.position(path.length() * k as f32 / 300.0)))
            .collect();
        svg.polyline(&pts, color, 2.0);
        svg.legend(name, color);
    }
    // Waypoints: the baker's keys.
    for k in &keys {
        let p = set.path(baker).expect("path").position(k.distance as f32);
        svg.dot(xz(p), 6.0, "#333");
    }

    // Forwards through the day, one sample per simulated minute, recording every 2 h.
    let n = set.npc_count();
    let mut pos = vec![Vec3::ZERO; n];
    let mut state = vec![NpcState::Before; n];
    let mut hints = vec![0u32; 2 * n];
    let marks: Vec<f64> = (0..=12).map(|h| 2.0 * h as f64 * HOUR).collect();
    let mut forward_marks = Vec::new();
    let minutes = 24 * 60;
    for m in 0..=minutes {
        let t = m as f64 * 60.0;
        set.evaluate_hinted(Times::One(t), &mut hints, |i, s| {
            pos[i] = s.position;
            state[i] = s.state;
        });
        if marks.contains(&t) {
            forward_marks.push((t, pos.clone(), state.clone()));
        }
    }
    // Backwards: from midnight to midnight in reverse, same hints (now walking backwards).
    let mut backward_marks = Vec::new();
    for m in (0..=minutes).rev() {
        let t = m as f64 * 60.0;
        set.evaluate_hinted(Times::One(t), &mut hints, |i, s| pos[i] = s.position);
        if marks.contains(&t) {
            backward_marks.push((t, pos.clone()));
        }
    }
    backward_marks.reverse();
    let mut worst = 0.0f32;
    // Hour labels for the baker, grouped where he stands still.
    let mut labels: Vec<(Vec3, Vec<u32>)> = Vec::new();
    for ((t, fwd, st), (_, back)) in forward_marks.iter().zip(&backward_marks) {
        for i in 0..n {
            worst = worst.max(fwd[i].distance(back[i]));
            svg.dot(xz(fwd[i]), 4.0, colors[i]);
            svg.circle(xz(back[i]), 0.9, "none", "#333");
        }
        if st[0] == NpcState::Before || st[0] == NpcState::After {
            continue;
        }
        let hour = (t / HOUR) as u32;
        match labels.iter_mut().find(|(p, _)| p.distance(fwd[0]) < 0.5) {
            Some((_, hours)) => hours.push(hour),
            None => labels.push((fwd[0], vec![hour])),
        }
    }
    for (p, hours) in &labels {
        let text: Vec<String> = hours.iter().map(|h| format!("{h}h")).collect();
        svg.text((p.x + 1.2, p.z + 1.2), &text.join(" "), 11.0, colors[0]);
    }
    println!("  3 NPCs over a day; max |forward − reversed| position at the marks: {worst} m");

    // The baker's waypoint crossings over the day, and rewinding the evening.
    let mut events = Vec::new();
    set.for_each_crossing(0.0, 24.0 * HOUR, |npc, c| {
        if npc == baker {
            events.push(format!("key {} ({:+})", c.key, c.direction));
        }
        true
    });
    println!("  baker, 0h → 24h: {}", events.join(", "));
    let mut rewind = Vec::new();
    set.for_each_crossing(19.0 * HOUR, 12.0 * HOUR, |npc, c| {
        if npc == baker {
            rewind.push(format!("key {} ({:+})", c.key, c.direction));
        }
        true
    });
    println!("  baker, rewinding 19h → 12h: {}", rewind.join(", "));

    let file = out.join("timeline_day.svg");
    svg.save(&file)?;
    println!("  wrote {}", file.display());
    Ok(())
}
