//! The way out of a pocket for an agent walking straight at its target (see *Detours* in
//! [`RouteMode::Direct`](super::RouteMode::Direct)): a small search round the agent, not the
//! route planner.
//!
//! A square of (2H + 1)² cells of edge h = r/2 ([`HALF`] = H = 20, [`CELL`]) is laid with the
//! agent's centre p at the middle of its middle cell. A cell is open where a disc of the
//! agent's radius r at its centre clears every obstacle (the least signed distance from the
//! centre to the obstacles near is at least r); the agent's own cell is open whatever it
//! touches. Cells are tested as the search reaches them.
//!
//! An exit is a cell c whose straight way to the target is open across the square (sampled
//! every half cell, up to where it leaves the square, or to r + h short of the target, which
//! may lie closer to an obstacle than r). The search is A* from the agent's cell over the
//! 8-connected open cells (moves of h and √2·h; a diagonal move only where both cells beside
//! it are open, so no move cuts a corner) with the straight distance to the target as its
//! estimate, and stops at the first exit it takes: the exit of least
//!
//! ```text
//!     e(c) = d(c) + |target − c|     (d: the walk from the agent's cell)
//! ```
//!
//! (the estimate never overstates a move, so A* takes the exits in order of e; ties go to the
//! lower cell index). From the agent's own cell the first hop may go to any open cell within
//! [`FIRST_HOP`] along a segment on which the disc goes no deeper into an obstacle than it
//! stands (to within a thousandth of its radius): a disc pushed into a slot narrower than
//! itself has its way out along the slot, which may lie between the eight moves' directions,
//! and every cell next to its own closed. When that search reaches no exit, it runs once more
//! allowing the first hop a hundredth of the radius deeper (a disc touching two obstacles off
//! the line between them goes a little deeper into one or the other whichever way it leaves),
//! and then once more letting the first hop go to any open cell of the square (a disc at the
//! narrow end of a slot barely wider than itself, whose way out runs back up the slot where no
//! cell centre has a full radius of clearance).
//!
//! When the agent's own cell is an exit (or no exit is reached), walking straight is the way:
//! [`WayOut::Straight`]. Else the agent walks to the farthest cell of the way to the exit that
//! it sees along open cells (string pulling), unless that is the exit itself, straight ahead
//! on its way to the target (within [`STRAIGHT`]): then walking straight goes there too.
//!
//! At most 1 681 cells, each tested against the few obstacles near, for the few agents held
//! in pockets, every [`REPLAN_STEPS`](super::planner::REPLAN_STEPS) sub-steps or on reaching
//! the point they made for. The buffers are kept between calls: no allocation after the first.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::Vec2;

use super::grid::ObstacleGrid;
use super::obstacle::Shape;
use super::planner::NEIGHBOURS;

/// Cells from the middle cell to the edge of the square, each way.
pub(crate) const HALF: usize = 20;
/// Cells along an edge of the square.
const SIDE: usize = 2 * HALF + 1;
/// Cells the first hop out of the agent's own cell may go, each way.
const FIRST_HOP: usize = 3;
/// The cell edge, in radii.
pub(crate) const CELL: f32 = 0.5;
/// Cosine of the largest angle between the way to the cell to make for and the way to the
/// target at which walking straight goes there (about 14°).
pub(crate) const STRAIGHT: f32 = 0.97;

/// A cell not tested yet.
const UNTESTED: u8 = 0;
/// An open cell.
const OPEN: u8 = 1;
/// A closed cell.
const CLOSED: u8 = 2;
/// An open cell the search has taken (its moves made).
const EXPANDED: u8 = OPEN | 4;

/// What [`Escape::way_out`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum WayOut {
    /// Walk to this point (the way out of the pocket).
    Via(Vec2),
    /// Walking straight at the target goes the way out (or no cell is better than where the
    /// agent stands).
    Straight,
}

/// The search's buffers, kept between calls.
#[derive(Clone, Debug, Default)]
pub(crate) struct Escape {
    /// The obstacles near the square.
    near: Vec<u32>,
    /// Per cell: [`UNTESTED`], [`OPEN`], [`CLOSED`] or [`EXPANDED`].
    open: Vec<u8>,
    /// Per cell: its walking distance from the agent's, metres (∞: not reached).
    dist: Vec<f32>,
    /// Per cell: the cell it is reached from.
    prev: Vec<u32>,
    /// Cells to expand by estimate (≥ 0: the bits order as the values), then index.
    heap: BinaryHeap<Reverse<(u32, u32)>>,
}

/// The index of cell (`i`, `j`) of the square, if it lies on it.
fn cell(i: i32, j: i32) -> Option<usize> {
    let side = SIDE as i32;
    ((0..side).contains(&i) && (0..side).contains(&j)).then(|| (j * side + i) as usize)
}

/// The square round one agent: where its cells lie, and which are open.
struct Square<'a> {
    pos: Vec2,
    radius: f32,
    /// Cell edge.
    h: f32,
    near: &'a [u32],
    shapes: &'a [Option<Shape>],
}

impl Square<'_> {
    /// The centre of cell `c`.
    fn centre(&self, c: usize) -> Vec2 {
        let (i, j) = ((c % SIDE) as f32, (c / SIDE) as f32);
        self.pos + Vec2::new(i - HALF as f32, j - HALF as f32) * self.h
    }

    /// The cell holding `p`, if the square does.
    fn cell_of(&self, p: Vec2) -> Option<usize> {
        let q = (p - self.pos) / self.h + Vec2::splat(HALF as f32);
        cell(q.x.round() as i32, q.y.round() as i32)
    }

    /// The least signed distance from `p` to the obstacles near.
    fn clearance(&self, p: Vec2) -> f32 {
        self.near
            .iter()
            .filter_map(|&i| self.shapes[i as usize].as_ref())
            .map(|s| s.distance(p))
            .fold(f32::INFINITY, f32::min)
    }

    /// Whether the clearance stays at least `depth` along the segment from `a` to `b`
    /// (sampled every half cell).
    fn fits(&self, a: Vec2, b: Vec2, depth: f32) -> bool {
        let steps = ((b - a).length() / (0.5 * self.h)).ceil().max(1.0) as usize;
        (1..=steps).all(|k| self.clearance(a.lerp(b, k as f32 / steps as f32)) >= depth)
    }

    /// Whether cell `c` is open (tested once, then remembered in `open`).
    fn is_open(&self, open: &mut [u8], c: usize) -> bool {
        if open[c] == UNTESTED {
            let p = self.centre(c);
            let clear = self.near.iter().all(|&i| {
                self.shapes[i as usize]
                    .as_ref()
                    .is_none_or(|s| s.distance(p) >= self.radius)
            });
            open[c] = if clear { OPEN } else { CLOSED };
        }
        open[c] & OPEN != 0
    }

    /// Whether the segment from `a` to `b` passes through open cells only (sampled every
    /// half cell) up to `b` or to where it leaves the square.
    fn clear(&self, open: &mut [u8], a: Vec2, b: Vec2) -> bool {
        // A segment from a point of the square leaves it within its diagonal: the samples stop
        // there (a few hundred at most, whatever the distance to `b`).
        let across = 2.0 * core::f32::consts::SQRT_2 * (HALF as f32 + 1.0) * self.h;
        let b = a + (b - a).clamp_length_max(across);
        let steps = ((b - a).length() / (0.5 * self.h)).ceil().max(1.0) as usize;
        for k in 0..=steps {
            match self.cell_of(a.lerp(b, k as f32 / steps as f32)) {
                Some(c) if !self.is_open(open, c) => return false,
                Some(_) => {}
                None => return true,
            }
        }
        true
    }
}

impl Escape {
    /// The way out for an agent of `radius` at `pos` walking to `target`, among `shapes`
    /// (indexed by `grid`).
    pub(crate) fn way_out(
        &mut self,
        pos: Vec2,
        target: Vec2,
        radius: f32,
        shapes: &[Option<Shape>],
        grid: &ObstacleGrid,
    ) -> WayOut {
        let h = CELL * radius;
        // The obstacles that may come within a radius of a cell centre.
        self.near.clear();
        let reach = (HALF as f32 + 1.0) * h + radius;
        grid.query(pos, reach, |i| self.near.push(i as u32));
        let sq = Square {
            pos,
            radius,
            h,
            near: &self.near,
            shapes,
        };
        let n = SIDE * SIDE;
        let start = HALF * SIDE + HALF;
        let open = &mut self.open;
        open.clear();
        open.resize(n, UNTESTED);
        // The agent's own cell is open, whatever it touches.
        open[start] = OPEN;
        // The search, with the first hop going at most a thousandth of a radius deeper than
        // the agent stands, to the cells within FIRST_HOP; when that reaches no exit, once more
        // allowing a hundredth; then once more letting the first hop go to any cell of the
        // square. (A disc touching two discs beside it, a slot narrower than itself ahead, goes
        // deeper into one or the other, by less than a millimetre, whichever way it leaves:
        // with a thousandth alone it found no way out and stood there for good. Allowing a
        // hundredth from the first, the agents walking straight in the speed benchmark's
        // scene, at 24 sizes from 500 to 2 800, left 9 short against 3. And a disc at the
        // narrow end of a slot barely wider than itself has its way out back up the slot,
        // where no cell centre has a full radius of clearance: only a long first hop, straight
        // up the slot, reaches an open cell.)
        let mut exit = None;
        for (slack, hop) in [(1e-3, FIRST_HOP), (1e-2, FIRST_HOP), (1e-2, HALF)] {
            if exit.is_some() {
                break;
            }
            // (Whether a cell is open does not change: only the search starts again.)
            for o in open.iter_mut().filter(|o| **o == EXPANDED) {
                *o = OPEN;
            }
            self.dist.clear();
            self.dist.resize(n, f32::INFINITY);
            self.prev.clear();
            self.prev.resize(n, u32::MAX);
            self.heap.clear();
            self.dist[start] = 0.0;
            let estimate = |c: usize, d: f32| (d + sq.centre(c).distance(target)).to_bits();
            self.heap
                .push(Reverse((estimate(start, 0.0), start as u32)));
            // A* toward the exits (cells whose straight way to the target is clear across the
            // square): the first taken is the one of least estimated route.
            while let Some(Reverse((_, c))) = self.heap.pop() {
                let c = c as usize;
                if open[c] == EXPANDED {
                    // Queued again since with a shorter walk, and taken then.
                    continue;
                }
                let d = self.dist[c];
                let p = sq.centre(c);
                // (Up to a radius and a cell short of the target, which may lie closer to an
                // obstacle than the radius: the steer's arrival rules take the last stretch.)
                let short = (target - p).length() - radius - h;
                if short <= 0.0 || sq.clear(open, p, p + (target - p).normalize() * short) {
                    exit = Some(c);
                    break;
                }
                open[c] = EXPANDED;
                let (i, j) = ((c % SIDE) as i32, (c / SIDE) as i32);
                if c == start {
                    // Out of the agent's own cell, to any open cell within the pass's hop
                    // (FIRST_HOP, or the whole square) along a segment on which the disc goes
                    // no deeper than it stands, to within the pass's slack (wedged in a slot
                    // narrower than itself, the way out runs along the slot, between the eight
                    // moves' directions, and the cells next to it are all closed).
                    let depth = sq.clearance(pos).min(radius) - slack * radius;
                    let hop = hop as i32;
                    for dj in -hop..=hop {
                        for di in -hop..=hop {
                            let Some(m) = cell(i + di, j + dj).filter(|&m| m != start) else {
                                continue;
                            };
                            if !sq.is_open(open, m) || !sq.fits(pos, sq.centre(m), depth) {
                                continue;
                            }
                            let nd = sq.centre(m).distance(pos);
                            if nd < self.dist[m] {
                                self.dist[m] = nd;
                                self.prev[m] = c as u32;
                                self.heap.push(Reverse((estimate(m, nd), m as u32)));
                            }
                        }
                    }
                    continue;
                }
                for &(di, dj, w) in &NEIGHBOURS {
                    let (di, dj) = (di as i32, dj as i32);
                    let mut is_open = |i: i32, j: i32| cell(i, j).filter(|&m| sq.is_open(open, m));
                    let Some(m) = is_open(i + di, j + dj) else {
                        continue;
                    };
                    if di != 0
                        && dj != 0
                        && (is_open(i + di, j).is_none() || is_open(i, j + dj).is_none())
                    {
                        continue;
                    }
                    let nd = d + w * h;
                    if nd < self.dist[m] {
                        self.dist[m] = nd;
                        self.prev[m] = c as u32;
                        self.heap.push(Reverse((estimate(m, nd), m as u32)));
                    }
                }
            }
        }
        let Some(goal) = exit.filter(|&c| c != start) else {
            // Walking straight is the way (or there is none out of the square).
            return WayOut::Straight;
        };
        // The farthest cell of the way that the agent sees along open cells; failing any (a
        // rounding of the samples), the way's first cell.
        let mut via = goal;
        while !sq.clear(open, pos, sq.centre(via)) {
            let before = self.prev[via] as usize;
            if before == start {
                break;
            }
            via = before;
        }
        let (to, way) = (sq.centre(via) - pos, target - pos);
        if via == goal && to.dot(way) >= STRAIGHT * to.length() * way.length() {
            return WayOut::Straight;
        }
        WayOut::Via(sq.centre(via))
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::crowd::Obstacle;

    /// The shapes of `obstacles` and their grid.
    fn scene(obstacles: &[Obstacle]) -> (Vec<Option<Shape>>, ObstacleGrid) {
        let shapes: Vec<Option<Shape>> = obstacles.iter().map(|o| o.shape()).collect();
        let boxes: Vec<_> = shapes
            .iter()
            .map(|s| s.map(|s| (s.center - s.extent(), s.center + s.extent())))
            .collect();
        let mut grid = ObstacleGrid::default();
        grid.build(&boxes);
        (shapes, grid)
    }

    fn circle(x: f32, z: f32, radius: f32) -> Obstacle {
        Obstacle::Circle {
            center: Vec3::new(x, 0.0, z),
            radius,
        }
    }

    /// The least distance from `p` to the surfaces of `shapes`.
    fn clearance(shapes: &[Option<Shape>], p: Vec2) -> f32 {
        shapes
            .iter()
            .flatten()
            .map(|s| s.distance(p))
            .fold(f32::INFINITY, f32::min)
    }

    /// Where an agent of radius 0.3 at `pos` ends up walking straight at `target`, having
    /// walked toward each way out found (0.1 m at a time, asking again after each), every one
    /// of them open; panics if it is still not walking straight after 200 of them.
    fn walk_out(
        e: &mut Escape,
        pos: Vec2,
        target: Vec2,
        shapes: &[Option<Shape>],
        grid: &ObstacleGrid,
    ) -> Vec2 {
        let mut p = pos;
        for _ in 0..200 {
            match e.way_out(p, target, 0.3, shapes, grid) {
                WayOut::Via(v) => {
                    assert!(clearance(shapes, v) >= 0.3, "{v} is not open");
                    p += (v - p).clamp_length_max(0.1);
                }
                WayOut::Straight => return p,
            }
        }
        panic!("still not straight at {p}");
    }

    #[test]
    fn in_the_open_or_with_a_clear_way_it_walks_straight() {
        let mut e = Escape::default();
        let (shapes, grid) = scene(&[]);
        let (pos, target) = (Vec2::new(1.0, 2.0), Vec2::new(-30.0, 5.0));
        assert_eq!(
            e.way_out(pos, target, 0.3, &shapes, &grid),
            WayOut::Straight
        );
        // A box beside the way does not send it round.
        let (shapes, grid) = scene(&[circle(0.0, 3.5, 1.0)]);
        assert_eq!(
            e.way_out(pos, target, 0.3, &shapes, &grid),
            WayOut::Straight
        );
    }

    #[test]
    fn wedged_in_the_notch_of_two_circles_it_walks_out_and_round() {
        // Two overlapping circles make a notch on the side the agent came from; its target
        // lies straight behind them. The way out starts back out of the notch, to one side.
        let (shapes, grid) = scene(&[circle(-0.6, 0.0, 0.9), circle(0.6, 0.0, 0.75)]);
        let target = Vec2::new(0.0, -3.0);
        let mut e = Escape::default();
        // Where a disc of radius 0.3 stands pressed into the notch: on the axis, touching both.
        let mut z = 2.0f32;
        while clearance(&shapes, Vec2::new(0.0, z - 0.01)) >= 0.3 {
            z -= 0.01;
        }
        let pos = Vec2::new(0.0, z);
        let WayOut::Via(via) = e.way_out(pos, target, 0.3, &shapes, &grid) else {
            panic!("no way out of the notch");
        };
        // Away from the circles and sideways: not deeper into the notch.
        assert!(via.y > pos.y - 1e-3, "{via} from {pos}");
        assert!((via - pos).length() > 0.1, "{via} from {pos}");
        assert!(clearance(&shapes, via) >= 0.3, "{via} is not open");
        // Walking there and asking again, step by step, it comes round the pair and then
        // walks straight.
        let p = walk_out(&mut e, pos, target, &shapes, &grid);
        assert!(
            p.y < 0.5 && p.x.abs() > 1.0,
            "went straight from {p}, not round the pair"
        );
    }

    #[test]
    fn wedged_in_a_slot_narrower_than_itself_it_backs_out_along_the_slot() {
        // Two circles of radius 0.7 whose surfaces come 0.56 m apart, for a disc of diameter
        // 0.6, the slot turned 17° off the grid's axes; its target lies through the slot. The
        // agent stands where it was pushed out, touching both. Every cell next to its own
        // goes deeper into one circle; the first hop backs out along the slot.
        let t = 17f32.to_radians();
        let across = Vec2::new(t.cos(), t.sin());
        let along = across.perp();
        let (a, b) = (across * 0.98, -across * 0.98);
        let (shapes, grid) = scene(&[circle(a.x, a.y, 0.7), circle(b.x, b.y, 0.7)]);
        let pos = along * (1.0f32 - 0.98 * 0.98).sqrt();
        let target = -along * 3.0;
        assert!((clearance(&shapes, pos) - 0.3).abs() < 1e-4);
        for (di, dj, _) in NEIGHBOURS {
            let next = pos + Vec2::new(di as f32, dj as f32) * (CELL * 0.3);
            assert!(clearance(&shapes, next) < 0.3, "{next} is open");
        }
        let mut e = Escape::default();
        let WayOut::Via(via) = e.way_out(pos, target, 0.3, &shapes, &grid) else {
            panic!("no way out of the slot");
        };
        assert!(clearance(&shapes, via) >= 0.3, "{via} is not open");
        // Out the way it came, not through.
        assert!((via - pos).dot(along) > 0.0, "{via} from {pos}");
    }

    #[test]
    fn touching_two_circles_off_their_axis_it_still_finds_its_way_out() {
        // Two circles whose surfaces come 0.593 m apart on the line between their centres, for
        // a disc of diameter 0.6; the agent stands 0.1 m off that line, touching both, its
        // target straight ahead through the gap. (The speed benchmark's scene at 2 500 agents,
        // walking straight: this agent stood there for good.) Every way out first goes a little
        // deeper into one circle or the other (under a millimetre: more than a thousandth of a
        // radius), so a search holding the first hop to a thousandth found none.
        let (c1, r1) = (Vec2::new(-31.819954, -22.653137), 0.9467628);
        let (c2, r2) = (Vec2::new(-34.278595, -22.937897), 0.93634176);
        let (shapes, grid) = scene(&[circle(c1.x, c1.y, r1), circle(c2.x, c2.y, r2)]);
        let pos = Vec2::new(-33.066, -22.6968);
        let target = Vec2::new(88.13, -52.33);
        assert!((clearance(&shapes, pos) - 0.3).abs() < 1e-3);
        let gap = c1.distance(c2) - r1 - r2;
        assert!(gap < 0.6, "{gap}");
        // Straight on, past the gap, the disc does not fit; every first hop goes deeper.
        let depth = clearance(&shapes, pos) - 1e-3 * 0.3;
        let dips =
            |to: Vec2| (1..=16).any(|k| clearance(&shapes, pos.lerp(to, k as f32 / 16.0)) < depth);
        for (di, dj, _) in NEIGHBOURS {
            assert!(dips(pos + Vec2::new(di as f32, dj as f32) * (CELL * 0.3)));
        }
        let mut e = Escape::default();
        let WayOut::Via(via) = e.way_out(pos, target, 0.3, &shapes, &grid) else {
            panic!("no way out");
        };
        assert!(clearance(&shapes, via) >= 0.3, "{via} is not open");
        // Walking there and asking again, step by step, it comes round a circle and then
        // walks straight, clear of both.
        let p = walk_out(&mut e, pos, target, &shapes, &grid);
        assert!(
            p.distance(pos) > 0.5,
            "went straight from {p}, where it stood"
        );
    }

    #[test]
    fn at_the_end_of_a_slot_no_cell_fits_it_backs_up_the_slot() {
        // Two boxes, and between them a slot barely wider than the disc that narrows below its
        // width; the agent walked 3 m down it toward its target beyond and stands where it
        // narrows, touching both walls. (The speed benchmark's scene at 2 800 agents, walking
        // straight: this agent stood there for good.) No cell centre within the first hop's
        // reach, nor anywhere up the slot, has a full radius of clearance.
        let obstacles = [
            Obstacle::OrientedBox {
                center: Vec3::new(39.99241, 0.0, 96.79751),
                half_x: 0.3511376,
                half_z: 0.7198714,
                yaw: 1.859457,
            },
            Obstacle::OrientedBox {
                center: Vec3::new(38.24897, 0.0, 97.63694),
                half_x: 0.7182071,
                half_z: 0.57218117,
                yaw: 1.821161,
            },
        ];
        let (shapes, grid) = scene(&obstacles);
        let pos = Vec2::new(38.9771, 96.9613);
        let target = Vec2::new(-39.99, -99.99);
        assert!((clearance(&shapes, pos) - 0.3).abs() < 1e-3);
        let mut e = Escape::default();
        let WayOut::Via(via) = e.way_out(pos, target, 0.3, &shapes, &grid) else {
            panic!("no way out of the slot");
        };
        assert!(clearance(&shapes, via) >= 0.3, "{via} is not open");
        // Up the slot, the way it came (north), a metre and more.
        assert!(via.y - pos.y > 1.0, "{via} from {pos}");
        // The disc goes no deeper than it stands on the way there (to within the slack).
        let depth = clearance(&shapes, pos) - 1e-2 * 0.3;
        assert!((1..=64).all(|k| clearance(&shapes, pos.lerp(via, k as f32 / 64.0)) >= depth));
    }

    #[test]
    fn with_no_way_out_of_the_square_it_walks_straight() {
        // Ringed by a wall of circles: nothing to search its way to.
        let ring: Vec<Obstacle> = (0..24)
            .map(|k| {
                let t = k as f32 * core::f32::consts::TAU / 24.0;
                circle(1.5 * t.cos(), 1.5 * t.sin(), 0.3)
            })
            .collect();
        let (shapes, grid) = scene(&ring);
        let mut e = Escape::default();
        let out = e.way_out(Vec2::ZERO, Vec2::new(10.0, 0.0), 0.3, &shapes, &grid);
        assert_eq!(out, WayOut::Straight);
    }
}
