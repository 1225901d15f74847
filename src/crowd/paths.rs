//! A* over the planner's grid, for a planned agent whose goal has no distance field to
//! descend this sub-step (none cached, the field budget spent): the search finds the way from
//! where the agent stands, and the agent aims along it as it would along a field's descent,
//! until its next route update searches again from wherever it then is (no path is kept, so
//! an agent pushed off its way is never drawn back to it).
//!
//! A distance field costs a search of the whole grid and pays off when agents share its goal;
//! a crowd whose agents have goals of their own (schedules, wanderers) needs one route each,
//! which A* finds visiting a fraction of the cells. The search runs backward, over the field's
//! own moves: it starts from the cells a field of that goal would be seeded at, with their
//! seed values, and spreads over the moves open to the agent's clearance exactly as the field
//! would, so the cells it settles hold the field's values (up to the order f32 sums are taken
//! in), and the path it finds is a descent of that field.
//!
//! With g(c) the cost from the seeds and h(c) the octile distance from c to the agent's cell,
//!
//! ```text
//! h(c) = max(|Δx|, |Δz|) + (√2 − 1)·min(|Δx|, |Δz|)   (cells)
//! ```
//!
//! h is the exact cost of the cheapest 8-connected way without obstacles, so it never
//! overestimates, and it is consistent (h(c) ≤ w(c, n) + h(n) for each move of cost w ∈ {1, √2}).
//! But between two cells of an open grid every cell of a whole parallelogram lies on a
//! shortest way (the octile metric's many equal paths), so f = g + h is flat over it, up to
//! the f32 rounding of the sums, and A* widened over all of it (10 to 30 × the cells of the
//! path on the 10 k benchmark). So the search orders cells by g + (1 + 2⁻¹⁰)·h, then by the
//! larger g: on a plateau it runs down one way. A weight 1 + ε on a consistent heuristic
//! costs at most a factor 1 + ε on the path (a path found is within 0.1 % of the shortest),
//! and a cell taken from the queue is not taken again. The path is read back through each
//! cell's parent, from the agent's cell to a seed: the order the agent walks it in.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// √2 − 1, the octile heuristic's diagonal surcharge.
const DIAGONAL_EXTRA: f32 = core::f32::consts::SQRT_2 - 1.0;
/// The heuristic's weight above 1 (see the module docs).
const TIE_BREAK: f32 = 1.0 / 1024.0;

/// No parent: a seed.
const NO_PARENT: u32 = u32::MAX;

/// What a search knows of one cell (one record, so a cell reached costs one cache line).
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Cost from the seeds, valid where `seen` is the search's generation.
    g: f32,
    parent: u32,
    /// The search that last touched the cell; its top bit marks the cell taken (final).
    seen: u32,
}

/// Reusable buffers of the search (allocated once for the grid's cells, then kept).
#[derive(Clone, Debug, Default)]
pub(crate) struct Search {
    nodes: Vec<Node>,
    generation: u32,
    /// Open cells by [`key`] (then the cell, so ties break the same way every run).
    queue: BinaryHeap<Reverse<(u64, u32)>>,
}

/// The queue's order: f = g + h first (the bits of a non-negative f32 order as the value),
/// then the larger g (on the plateaus of equal f an open grid is full of, the cell farthest
/// along is taken first: the search runs down one way instead of widening over them all).
fn key(f: f32, g: f32) -> u64 {
    (f.to_bits() as u64) << 32 | (u32::MAX - g.to_bits()) as u64
}

/// Top bit of `Search::seen`: the cell was taken.
const TAKEN: u32 = 1 << 31;

/// The grid a search runs over.
pub(crate) struct Graph<'a> {
    /// Bit k of `open(c)`: the field's move from c over the k-th neighbour is open (the
    /// neighbour is on the grid).
    pub open: &'a dyn Fn(usize) -> u8,
    pub nx: usize,
    pub nz: usize,
    /// The eight neighbours (Δx, Δz, cost), in the bits' order.
    pub neighbours: &'a [(i64, i64, f32); 8],
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// The path, from the agent's cell to a seed, is in the output.
    Path,
    /// No open way from the seeds reaches the agent's cell.
    Unreachable,
    /// The search took its most cells without reaching the agent's cell.
    GaveUp,
}

impl Search {
    /// Searches `graph` from `seeds` (cell, starting cost) for the way to cell `to`, never
    /// entering the cells `closed`, taking at most `max_taken` cells; writes the path (from
    /// `to` to a seed) into `path`. Returns what it found and the cells it took.
    pub(crate) fn run(
        &mut self,
        graph: &Graph,
        seeds: &[(u32, f32)],
        to: usize,
        closed: &[u32],
        max_taken: u64,
        path: &mut Vec<u32>,
    ) -> (Found, u64) {
        let cells = graph.nx * graph.nz;
        path.clear();
        if self.nodes.len() != cells {
            let fresh = Node {
                g: f32::INFINITY,
                parent: NO_PARENT,
                seen: 0,
            };
            self.nodes = vec![fresh; cells];
            self.generation = 0;
        }
        // Generations count up below TAKEN; at the wrap every mark is cleared once.
        self.generation += 1;
        if self.generation >= TAKEN {
            self.nodes.iter_mut().for_each(|n| n.seen = 0);
            self.generation = 1;
        }
        let generation = self.generation;
        self.queue.clear();
        let nx = graph.nx as i64;
        let (tx, tz) = (to as i64 % nx, to as i64 / nx);
        // The heuristic at column x, row z (a cell's column and row are found once, when it is
        // taken; its neighbours' follow from the move).
        let h = |x: i64, z: i64| {
            let dx = (x - tx).unsigned_abs() as f32;
            let dz = (z - tz).unsigned_abs() as f32;
            (dx.max(dz) + DIAGONAL_EXTRA * dx.min(dz)) * (1.0 + TIE_BREAK)
        };
        for &(c, d) in seeds {
            let node = &mut self.nodes[c as usize];
            if node.seen & !TAKEN == generation && node.g <= d {
                continue;
            }
            *node = Node {
                g: d,
                parent: NO_PARENT,
                seen: generation,
            };
            let at = h(c as i64 % nx, c as i64 / nx);
            self.queue.push(Reverse((key(d + at, d), c)));
        }
        let step = graph
            .neighbours
            .map(|(dx, dz, _)| dx as isize + dz as isize * nx as isize);
        let mut taken = 0u64;
        while let Some(Reverse((_, c))) = self.queue.pop() {
            let ci = c as usize;
            if self.nodes[ci].seen & TAKEN != 0 {
                continue;
            }
            if taken == max_taken {
                return (Found::GaveUp, taken);
            }
            self.nodes[ci].seen |= TAKEN;
            taken += 1;
            if ci == to {
                let mut at = c;
                while at != NO_PARENT {
                    path.push(at);
                    at = self.nodes[at as usize].parent;
                }
                return (Found::Path, taken);
            }
            let gc = self.nodes[ci].g;
            let (x, z) = (c as i64 % nx, c as i64 / nx);
            let mut bits = (graph.open)(ci);
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                // An open move's other end is on the grid.
                let n = ci.wrapping_add_signed(step[k]);
                let (dx, dz, w) = graph.neighbours[k];
                let gn = gc + w;
                let node = &mut self.nodes[n];
                if node.seen & !TAKEN == generation && (node.seen & TAKEN != 0 || node.g <= gn) {
                    continue;
                }
                if closed.contains(&(n as u32)) {
                    continue;
                }
                *node = Node {
                    g: gn,
                    parent: c,
                    seen: generation,
                };
                let f = gn + h(x + dx, z + dz);
                self.queue.push(Reverse((key(f, gn), n as u32)));
            }
        }
        (Found::Unreachable, taken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crowd::planner::NEIGHBOURS as N8;

    /// Open bits of a grid whose cells marked `#` are closed: a move is open when both ends
    /// are open and on the grid (and a diagonal's two side cells too).
    fn graph_bits(rows: &[&str]) -> (Vec<u8>, usize, usize) {
        let (nx, nz) = (rows[0].len(), rows.len());
        let free = |x: i64, z: i64| {
            x >= 0
                && z >= 0
                && (x as usize) < nx
                && (z as usize) < nz
                && rows[z as usize].as_bytes()[x as usize] != b'#'
        };
        let mut open = vec![0u8; nx * nz];
        for z in 0..nz as i64 {
            for x in 0..nx as i64 {
                for (k, &(dx, dz, _)) in N8.iter().enumerate() {
                    let ok =
                        free(x, z) && free(x + dx, z + dz) && free(x + dx, z) && free(x, z + dz);
                    open[(x + z * nx as i64) as usize] |= u8::from(ok) << k;
                }
            }
        }
        (open, nx, nz)
    }

    /// Dijkstra from the seeds over the same moves, in f64.
    fn dijkstra(open: &[u8], nx: usize, seeds: &[(u32, f32)]) -> Vec<f64> {
        let mut d = vec![f64::INFINITY; open.len()];
        let mut done = vec![false; open.len()];
        for &(c, v) in seeds {
            d[c as usize] = d[c as usize].min(v as f64);
        }
        loop {
            let Some(c) = (0..d.len())
                .filter(|&c| !done[c] && d[c].is_finite())
                .min_by(|&a, &b| d[a].total_cmp(&d[b]))
            else {
                return d;
            };
            done[c] = true;
            for (k, &(dx, dz, _)) in N8.iter().enumerate() {
                if open[c] >> k & 1 == 0 {
                    continue;
                }
                let n = (c as i64 + dx + dz * nx as i64) as usize;
                let w = if dx != 0 && dz != 0 { 2f64.sqrt() } else { 1.0 };
                d[n] = d[n].min(d[c] + w);
            }
        }
    }

    fn check_path(open: &[u8], nx: usize, seeds: &[(u32, f32)], to: usize, path: &[u32]) -> f64 {
        assert_eq!(path[0] as usize, to);
        let last = *path.last().unwrap();
        let start = seeds
            .iter()
            .find(|s| s.0 == last)
            .expect("ends at a seed")
            .1 as f64;
        let mut cost = start;
        for w in path.windows(2) {
            let (c, n) = (w[1] as usize, w[0] as usize);
            let (dx, dz) = (
                (n % nx) as i64 - (c % nx) as i64,
                (n / nx) as i64 - (c / nx) as i64,
            );
            let k = N8
                .iter()
                .position(|&(x, z, _)| (x, z) == (dx, dz))
                .expect("neighbours");
            assert!(open[c] >> k & 1 != 0, "the field's move {c} → {n} is open");
            cost += if dx != 0 && dz != 0 { 2f64.sqrt() } else { 1.0 };
        }
        cost
    }

    #[test]
    fn paths_are_shortest_field_moves_round_walls() {
        let rows = [
            "..........#.........",
            "..........#.........",
            "..####....#....###..",
            ".....#....#......#..",
            ".....#..........##..",
            ".....######.........",
            "..........#...#.....",
            "..#.......#...#.....",
            "..#...........#.....",
            "....................",
        ];
        let (open, nx, nz) = graph_bits(&rows);
        let seeds = [(0u32, 0.0f32), (1, 0.0), (nx as u32, 0.5)];
        let exact = dijkstra(&open, nx, &seeds);
        let mut s = Search::default();
        let mut path = Vec::new();
        for (to, &want) in exact.iter().enumerate() {
            let g = Graph {
                open: &|c| open[c],
                nx,
                nz,
                neighbours: &N8,
            };
            let (found, taken) = s.run(&g, &seeds, to, &[], u64::MAX, &mut path);
            assert!(taken as usize <= nx * nz);
            if want.is_finite() {
                assert_eq!(found, Found::Path, "cell {to}");
                let cost = check_path(&open, nx, &seeds, to, &path);
                assert!(cost >= want - 1e-4, "cell {to}: {cost} {want}");
                let bound = want * (1.0 + TIE_BREAK as f64) + 1e-4;
                assert!(cost <= bound, "cell {to}: {cost} {want}");
            } else {
                assert_eq!(found, Found::Unreachable, "cell {to}");
                assert!(path.is_empty());
            }
        }
    }

    #[test]
    fn a_search_takes_few_cells_in_the_open_and_buffers_survive_many_runs() {
        let rows = vec![".".repeat(64); 64];
        let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
        let (open, nx, nz) = graph_bits(&rows);
        let g = Graph {
            open: &|c| open[c],
            nx,
            nz,
            neighbours: &N8,
        };
        let mut s = Search::default();
        let mut path = Vec::new();
        // Corner to corner: the straight diagonal, 64 cells, taking barely more.
        let (found, taken) = s.run(&g, &[(0, 0.0)], nx * nz - 1, &[], u64::MAX, &mut path);
        assert_eq!(found, Found::Path);
        assert_eq!(path.len(), 64);
        assert!(taken < 200, "took {taken} of {}", nx * nz);
        // Generations: many searches reuse the marks without clearing them.
        s.generation = TAKEN - 2;
        for to in [5usize, 700, 4000] {
            let (found, _) = s.run(&g, &[(0, 0.0)], to, &[], u64::MAX, &mut path);
            assert_eq!(found, Found::Path);
            assert_eq!(path[0] as usize, to);
            assert_eq!(*path.last().unwrap(), 0);
        }
        assert!(s.generation < 10);
        // A cap on the cells taken: the search gives up, writing no path.
        let (found, taken) = s.run(&g, &[(0, 0.0)], nx * nz - 1, &[], 10, &mut path);
        assert_eq!((found, taken), (Found::GaveUp, 10));
        assert!(path.is_empty());
    }
}
