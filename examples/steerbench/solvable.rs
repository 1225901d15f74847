//! Whether a scene can be solved at all: on a grid of [`CELL`]-metre cells over the world,
//! each cell's clearance (distance from its centre to the nearest obstacle), and a shortest
//! 8-connected path between two points through cells with clearance of at least the agent's
//! radius (a diagonal move needs both side cells open too). Its length is the agent's ideal
//! route: the time limits of generated scenes are taken from it.
//!
//! With cells smaller than the smallest body, two neighbouring centres both a radius clear of
//! every obstacle cannot lie on two sides of one, so an open path is a collision-free path for
//! a disc of that radius (up to the cell size at its ends). Its length, along grid moves, is at
//! most about 8 % longer than the shortest route (and never shorter than the straight line).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::Vec2;
use wayfarer::crowd::Obstacle;

/// Grid cell side, metres.
pub const CELL: f32 = 0.2;

/// The clearance grid of a world.
pub struct Clearance {
    origin: Vec2,
    width: usize,
    height: usize,
    clear: Vec<f32>,
}

impl Clearance {
    /// The clearance of every cell of `world` among `obstacles`, capped at `cap` metres.
    pub fn new(world: (Vec2, Vec2), obstacles: &[Obstacle], cap: f32) -> Self {
        let size = world.1 - world.0;
        let width = (size.x / CELL).ceil().max(1.0) as usize;
        let height = (size.y / CELL).ceil().max(1.0) as usize;
        let mut clear = vec![cap; width * height];
        for o in obstacles {
            let Some(s) = o.shape() else { continue };
            // Only the cells within `cap` of the obstacle's bounds can change.
            let lo = ((s.center - s.extent() - Vec2::splat(cap) - world.0) / CELL).floor();
            let hi = ((s.center + s.extent() + Vec2::splat(cap) - world.0) / CELL).ceil();
            let (x0, z0) = (lo.x.max(0.0) as usize, lo.y.max(0.0) as usize);
            let (x1, z1) = (
                (hi.x.max(0.0) as usize).min(width),
                (hi.y.max(0.0) as usize).min(height),
            );
            for z in z0..z1 {
                for x in x0..x1 {
                    let c = world.0 + Vec2::new(x as f32 + 0.5, z as f32 + 0.5) * CELL;
                    let d = s.contact(c).distance;
                    let k = z * width + x;
                    clear[k] = clear[k].min(d);
                }
            }
        }
        Self {
            origin: world.0,
            width,
            height,
            clear,
        }
    }

    fn cell(&self, p: Vec2) -> Option<usize> {
        let q = ((p - self.origin) / CELL).floor();
        (q.x >= 0.0 && q.y >= 0.0 && (q.x as usize) < self.width && (q.y as usize) < self.height)
            .then(|| q.y as usize * self.width + q.x as usize)
    }

    /// The length of the shortest open path from `a` to `b` for a disc of `radius`, if any.
    pub fn path(&self, a: Vec2, b: Vec2, radius: f32) -> Option<f32> {
        let (start, goal) = (self.cell(a)?, self.cell(b)?);
        let open = |k: usize| self.clear[k] >= radius;
        if !open(start) || !open(goal) {
            return None;
        }
        let w = self.width as i64;
        let h = self.height as i64;
        let goal_xy = ((goal % self.width) as i64, (goal / self.width) as i64);
        // A* in millimetre units (integer keys: the same search on every machine).
        let estimate = |k: usize| {
            let (x, z) = ((k % self.width) as i64, (k / self.width) as i64);
            let (dx, dz) = ((x - goal_xy.0).abs(), (z - goal_xy.1).abs());
            let (lo, hi) = (dx.min(dz), dx.max(dz));
            (hi - lo) * 200 + lo * 283
        };
        let mut cost = vec![i64::MAX; self.clear.len()];
        let mut heap = BinaryHeap::new();
        cost[start] = 0;
        heap.push(Reverse((estimate(start), start)));
        while let Some(Reverse((_, k))) = heap.pop() {
            if k == goal {
                let straight = (a.distance(b) * 1000.0) as i64;
                return Some(cost[k].max(straight) as f32 / 1000.0);
            }
            let (x, z) = ((k % self.width) as i64, (k / self.width) as i64);
            for (dx, dz) in [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ] {
                let (nx, nz) = (x + dx, z + dz);
                if nx < 0 || nz < 0 || nx >= w || nz >= h {
                    continue;
                }
                let n = (nz * w + nx) as usize;
                if !open(n) {
                    continue;
                }
                let step = if dx != 0 && dz != 0 {
                    let side_a = (z * w + nx) as usize;
                    let side_b = (nz * w + x) as usize;
                    if !open(side_a) || !open(side_b) {
                        continue;
                    }
                    283
                } else {
                    200
                };
                let c = cost[k] + step;
                if c < cost[n] {
                    cost[n] = c;
                    heap.push(Reverse((c + estimate(n), n)));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::Clearance;
    use glam::{Vec2, Vec3};
    use wayfarer::crowd::Obstacle;

    #[test]
    fn a_wall_with_a_gap_is_passable_only_for_bodies_that_fit() {
        let world = (Vec2::splat(-10.0), Vec2::splat(10.0));
        // A wall across x = 0 with a 1 m gap around z = 0.
        let wall = |z0: f32, z1: f32| Obstacle::Box {
            min: Vec3::new(-0.1, 0.0, z0),
            max: Vec3::new(0.1, 0.0, z1),
        };
        let obstacles = [wall(-10.0, -0.5), wall(0.5, 10.0)];
        let c = Clearance::new(world, &obstacles, 2.0);
        let (a, b) = (Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0));
        let len = c.path(a, b, 0.3).expect("a 0.6 m body fits a 1 m gap");
        assert!((10.0..10.6).contains(&len), "{len}");
        assert!(c.path(a, b, 0.6).is_none(), "a 1.2 m body does not");
        // From far off the gap, through it: about 2 × √(5² + 8²) = 18.9 m (not 10), up to 8 %
        // more along grid moves.
        let far = c
            .path(Vec2::new(-5.0, 8.0), Vec2::new(5.0, 8.0), 0.3)
            .unwrap();
        assert!((18.5..18.9 * 1.1).contains(&far), "{far}");
    }
}
