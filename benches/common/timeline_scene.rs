//! The timeline speed scene, shared by `benches/timeline.rs` and `examples/timeline_cpu.rs`:
//! NPCs on one Catmull-Rom path of 1 000 waypoints, each starting at a pseudo-random point of a
//! looping 600 s day, with a whole-path schedule or 12 keys with holds and easing.

use wayfarer::timeline::{Ease, Key, Path, ScheduleSet, Wrap};
use wayfarer::Vec3;

/// Waypoints of the path.
pub const WAYPOINTS: usize = 1000;
/// Length of the looping day, seconds.
pub const DAY: f64 = 600.0;

/// The path's waypoints: a wavy line, 2 m apart along x, curling ±10 m.
pub fn waypoints() -> Vec<Vec3> {
    (0..WAYPOINTS)
        .map(|i| {
            let a = i as f32 * 0.37;
            Vec3::new(
                a.cos() * 10.0 + i as f32 * 2.0,
                (a * 0.3).sin(),
                a.sin() * 10.0,
            )
        })
        .collect()
}

/// NPC `i` of `npcs`' start offset into the day: pseudo-random, so consecutive NPCs are far
/// apart along the path.
pub fn offset(i: usize, npcs: usize) -> f64 {
    ((i * 7919) % npcs) as f64 / npcs as f64 * DAY
}

/// `npcs` schedules on the one shared path: whole-path ones, or (`keys`) 12 keys with holds,
/// easing and loop.
pub fn set(npcs: usize, keys: bool) -> ScheduleSet {
    let path = Path::catmull_rom(&waypoints(), 0.5, 0.0).unwrap();
    let len = path.length() as f64;
    let mut set = ScheduleSet::new();
    let p = set.add_path(path);
    const SHARE: [f64; 12] = [0.0, 0.1, 0.1, 0.3, 0.5, 0.5, 0.6, 0.8, 0.8, 0.9, 0.95, 1.0];
    const EASE: [Ease; 11] = [
        Ease::InOut,
        Ease::None,
        Ease::In,
        Ease::None,
        Ease::None,
        Ease::Out,
        Ease::None,
        Ease::None,
        Ease::InOut,
        Ease::None,
        Ease::None,
    ];
    for i in 0..npcs {
        let t0 = -offset(i, npcs);
        if keys {
            let ks: Vec<Key> = (0..12)
                .map(|k| Key {
                    time: t0 + k as f64 * DAY / 11.0,
                    distance: len * SHARE[k],
                })
                .collect();
            set.add_npc(p, &ks, &EASE, Wrap::Loop).unwrap();
        } else {
            set.add_npc_simple(p, t0, t0 + DAY, Wrap::Loop).unwrap();
        }
    }
    set
}
