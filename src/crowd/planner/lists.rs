//! The obstacles listed per planning cell (those near enough to lower a clearance stored for
//! it), built in runs so memory stays bounded.

use super::super::obstacle::Shape;
use super::Planner;
use glam::Vec2;

/// Most entries of one run of [`CellLists`] (16 MiB).
pub(super) const LIST_ITEMS: usize = 1 << 22;

/// Cells of the planning grid: those of the range `c0..c1` (in row-major order) whose column
/// lies in `x0..=x1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Area {
    pub(super) c0: usize,
    pub(super) c1: usize,
    pub(super) x0: usize,
    pub(super) x1: usize,
}

impl Area {
    /// Every cell.
    pub(super) fn all(p: &Planner) -> Self {
        Self::run(p, 0, p.nx * p.nz)
    }

    /// The cells `c0..c1`, every column.
    pub(super) fn run(p: &Planner, c0: usize, c1: usize) -> Self {
        Self {
            c0,
            c1,
            x0: 0,
            x1: p.nx - 1,
        }
    }

    /// The rectangle of cells with corners (column, row) `lo` and `hi` (whole numbers on the
    /// grid, `lo` ≤ `hi`).
    pub(super) fn of(p: &Planner, lo: Vec2, hi: Vec2) -> Self {
        let (x0, z0, x1, z1) = (lo.x as usize, lo.y as usize, hi.x as usize, hi.y as usize);
        Self {
            c0: x0 + z0 * p.nx,
            c1: x1 + z1 * p.nx + 1,
            x0,
            x1,
        }
    }

    /// The rectangle bounding two rectangles.
    pub(super) fn bounds(self, other: &Self, nx: usize) -> Self {
        let (x0, x1) = (self.x0.min(other.x0), self.x1.max(other.x1));
        let z0 = (self.c0 / nx).min(other.c0 / nx);
        let z1 = ((self.c1 - 1) / nx).max((other.c1 - 1) / nx);
        Self {
            c0: x0 + z0 * nx,
            c1: x1 + z1 * nx + 1,
            x0,
            x1,
        }
    }

    /// Whether cell `c` (in `c0..c1`) is in the area.
    pub(super) fn holds(&self, nx: usize, c: usize) -> bool {
        (self.x0..=self.x1).contains(&(c % nx))
    }

    /// The cells, ascending.
    pub(super) fn iter(self, nx: usize) -> impl Iterator<Item = usize> {
        (self.c0..self.c1).filter(move |&c| self.holds(nx, c))
    }

    /// How many cells.
    pub(super) fn cells(&self, nx: usize) -> usize {
        let rows = (self.c1 - 1) / nx - self.c0 / nx + 1;
        rows * (self.x1 - self.x0 + 1)
    }
}

/// For an area of planning cells, the obstacles that come within some distance of each cell's
/// centre, obstacles ascending within a cell.
#[derive(Clone, Debug, Default)]
pub(super) struct CellLists {
    /// The area's first cell.
    pub(super) first: usize,
    /// Where each cell's obstacles start in `items` (one more entry: the end).
    pub(super) start: Vec<u32>,
    /// The obstacles' indices, cell after cell.
    pub(super) items: Vec<u32>,
}

impl CellLists {
    /// Calls `f(cell, obstacle)`, obstacle by obstacle, for every cell of `area` whose centre
    /// may lie within `far` of the obstacle: within `far` of its bounding circle, and for an
    /// obstacle larger than `far` (a long wall) within `far` of the obstacle itself.
    pub(super) fn scatter(
        p: &Planner,
        shapes: &[Option<Shape>],
        far: f32,
        area: Area,
        mut f: impl FnMut(usize, u32),
    ) {
        let (z0, z1) = ((area.c0 / p.nx) as f32, ((area.c1 - 1) / p.nx) as f32);
        let (x0, x1) = (area.x0 as f32, area.x1 as f32);
        for (i, s) in shapes.iter().enumerate() {
            let Some(s) = s else { continue };
            let Some((lo, hi)) = p.reach_cells(s, far) else {
                continue;
            };
            let (xa, xb) = (lo.x.max(x0), hi.x.min(x1));
            let (za, zb) = (lo.y.max(z0), hi.y.min(z1));
            if !(xa <= xb && za <= zb) {
                continue;
            }
            let reach = far + s.bounding_radius();
            for z in za as usize..=zb as usize {
                for x in xa as usize..=xb as usize {
                    let (c, at) = (x + z * p.nx, p.center_xz(x, z));
                    if (area.c0..area.c1).contains(&c)
                        && at.distance(s.center) <= reach
                        && (s.bounding_radius() <= far || s.distance(at) <= far)
                    {
                        f(c, i as u32);
                    }
                }
            }
        }
    }

    /// Lists the cells of `area`, given their counts (`Ok`, indexed from `area.c0`) or
    /// counting them (`Err(limit)`: returns false, listing nothing, past `limit` entries).
    pub(super) fn build(
        &mut self,
        p: &Planner,
        shapes: &[Option<Shape>],
        far: f32,
        counts: Result<&[u32], usize>,
        area: Area,
    ) -> bool {
        let (c0, c1) = (area.c0, area.c1);
        self.first = c0;
        self.start.clear();
        self.start.push(0);
        let limit = match counts {
            Ok(counts) => {
                self.start.extend_from_slice(counts);
                usize::MAX
            }
            Err(limit) => {
                self.start.resize(c1 - c0 + 1, 0);
                let start = &mut self.start;
                Self::scatter(p, shapes, far, area, |c, _| start[c - c0 + 1] += 1);
                limit
            }
        };
        let mut total = 0u64;
        for k in 0..c1 - c0 {
            total += u64::from(self.start[k + 1]);
            self.start[k + 1] += self.start[k];
        }
        self.items.clear();
        if total > limit as u64 {
            return false;
        }
        self.items.resize(self.start[c1 - c0] as usize, 0);
        // Fill: each cell's start advances to its end, the next cell's start; shift back.
        Self::scatter(p, shapes, far, area, |c, i| {
            let k = c - c0;
            self.items[self.start[k] as usize] = i;
            self.start[k] += 1;
        });
        self.start.rotate_right(1);
        self.start[0] = 0;
        true
    }

    /// The obstacles listed for cell `c` (in the area last built).
    pub(super) fn get(&self, c: usize) -> &[u32] {
        let k = c - self.first;
        &self.items[self.start[k] as usize..self.start[k + 1] as usize]
    }
}
