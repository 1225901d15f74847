//! The speed goal's floor: not wayfarer's crowd step, but a measurement of what the seed's
//! bare model costs on this machine when every part of it runs in AVX2 lanes over
//! structure-of-arrays state kept in cell order (see `docs/crowd.md`, *Decisions*, on the
//! speed goal).
//!
//! `cargo run --release --example speed_floor -- [agents] [steps] [sort every] [obstacles]`
//! (defaults 10000, 100, 1) steps the speed benchmark's agents (16 m² each, walking to the
//! antipode at 1.3 m/s, radius 0.3 m) with only: the field-of-view cone (4 m, ±100°), the
//! time-to-collision push along the hit normal plus the side bias, the turn at most 2π rad/s,
//! the walk with braking at the target, one overlap projection round (skipped for agents
//! farther from everyone than two steps' walk), and positions written out by id. With
//! `obstacles`, the benchmark's obstacles too: range, cone, the walk line, the push along the
//! normal and a tangent, and one push-out pass. None of wayfarer's other rules (arrival and
//! settling, priorities, layers, hits, holds, detours, the sweep) and no multi-round
//! projection. The third argument re-sorts the state by cell only every that many steps (the
//! cells grown by the walk in between). It prints the best and mean step, the best of each
//! phase, a hash of the positions, and how many agents end more than a centimetre inside an
//! obstacle.

#[path = "common/args.rs"]
mod args;

fn main() {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        floor::run();
        return;
    }
    println!("speed_floor measures AVX2 lanes: it needs an x86-64 CPU with AVX2 and FMA");
}

/// The probe (x86-64 with AVX2 and FMA only: `main` checks).
#[cfg(target_arch = "x86_64")]
mod floor {
    use super::args::arg;
    use std::arch::x86_64::*;
    use std::time::Instant;
    use wayfarer::crowd::agent::{
        DEFAULT_FOV_HALF_ANGLE, DEFAULT_FOV_RANGE, DEFAULT_MAX_TURN_RATE, DEFAULT_REPEL_FORCE,
    };
    use wayfarer::crowd::scenario::Scenario;
    use wayfarer::crowd::steering::{BRAKE_TIME, SIDE_BIAS};
    use wayfarer::crowd::Obstacle;

    /// Lanes of f32 in an AVX2 register.
    const W: usize = 8;
    /// The benchmark's agents: all of radius 0.3 m, walking at 1.3 m/s, stepped by 0.1 s.
    const MAX_RADIUS: f32 = 0.3;
    const MAX_SPEED: f32 = 1.3;
    const DT: f32 = 0.1;

    /// The agents' state, one array per field, each padded by `W` entries, so that a lane
    /// run past the last agent still reads inside the array (lanes past a run's end are
    /// masked out).
    struct Soa {
        px: Vec<f32>,
        pz: Vec<f32>,
        vx: Vec<f32>,
        vz: Vec<f32>,
        hx: Vec<f32>,
        hz: Vec<f32>,
        tx: Vec<f32>,
        tz: Vec<f32>,
        r: Vec<f32>,
        speed: Vec<f32>,
        id: Vec<u32>,
    }
    impl Soa {
        fn with_len(n: usize) -> Self {
            let f = || vec![1e9f32; n + W];
            Soa {
                px: f(),
                pz: f(),
                vx: vec![0.0; n + W],
                vz: vec![0.0; n + W],
                hx: f(),
                hz: f(),
                tx: f(),
                tz: f(),
                r: vec![0.3; n + W],
                speed: f(),
                id: vec![0; n + W],
            }
        }
    }

    /// The state in cell order (`s`; `t` is the sort's other buffer), its cells, and the
    /// phases' outputs.
    struct World {
        n: usize,
        s: Soa,
        t: Soa,
        cell: f32,
        /// `1 / cell`.
        inv: f32,
        nx: usize,
        nz: usize,
        x0: f32,
        z0: f32,
        start: Vec<u32>,
        ci: Vec<u32>,
        fill: Vec<u32>,
        // outputs by id
        out_x: Vec<f32>,
        out_z: Vec<f32>,
        out_heading_x: Vec<f32>,
        // steer outputs
        dx: Vec<f32>,
        dz: Vec<f32>,
        ox: Vec<f32>,
        gap: Vec<f32>,
        oz: Vec<f32>,
        /// The direction to the target and the preferred speed (from the steer, for the
        /// obstacle pass).
        gx: Vec<f32>,
        gz: Vec<f32>,
        vp: Vec<f32>,
        /// The nearest obstacle surface less the radius (from the obstacle pass).
        ogap: Vec<f32>,
        obstacles: Obstacles,
    }

    /// The obstacles as rounded boxes (a circle is a box of no extent rounded by its radius),
    /// each copied into every cell of a fixed grid from which an agent could reach it within
    /// its look-ahead, so that an agent reads one contiguous run (padded by `W` far-away
    /// entries).
    #[derive(Default)]
    struct Obstacles {
        x0: f32,
        z0: f32,
        inv: f32,
        nx: usize,
        nz: usize,
        start: Vec<u32>,
        /// Centre, local x axis (the local z axis is (−uz, ux)), half extents, rounding.
        cx: Vec<f32>,
        cz: Vec<f32>,
        ux: Vec<f32>,
        uz: Vec<f32>,
        hx: Vec<f32>,
        hz: Vec<f32>,
        round: Vec<f32>,
    }

    impl Obstacles {
        /// Lists `shapes` (centre x, z, local x axis, half extents, rounding) in cells of
        /// `cell` metres, each in every cell within `reach` of its bounding circle.
        fn new(shapes: &[[f32; 7]], cell: f32, reach: f32) -> Self {
            let mut o = Obstacles {
                inv: 1.0 / cell,
                ..Obstacles::default()
            };
            if shapes.is_empty() {
                o.start = vec![0];
                return o;
            }
            let bound = |sh: &[f32; 7]| (sh[4] * sh[4] + sh[5] * sh[5]).sqrt() + sh[6] + reach;
            let (mut x0, mut z0, mut x1, mut z1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
            for sh in shapes {
                let b = bound(sh);
                x0 = x0.min(sh[0] - b);
                x1 = x1.max(sh[0] + b);
                z0 = z0.min(sh[1] - b);
                z1 = z1.max(sh[1] + b);
            }
            o.x0 = x0;
            o.z0 = z0;
            o.nx = ((x1 - x0) * o.inv) as usize + 1;
            o.nz = ((z1 - z0) * o.inv) as usize + 1;
            let mut lists = vec![Vec::new(); o.nx * o.nz];
            for (k, sh) in shapes.iter().enumerate() {
                let b = bound(sh);
                let (ax, bx) = (
                    ((sh[0] - b - x0) * o.inv) as usize,
                    ((sh[0] + b - x0) * o.inv) as usize,
                );
                let (az, bz) = (
                    ((sh[1] - b - z0) * o.inv) as usize,
                    ((sh[1] + b - z0) * o.inv) as usize,
                );
                for cz in az..=bz.min(o.nz - 1) {
                    for cx in ax..=bx.min(o.nx - 1) {
                        // The nearest point of the cell to the centre.
                        let px = sh[0].clamp(x0 + cx as f32 * cell, x0 + (cx + 1) as f32 * cell);
                        let pz = sh[1].clamp(z0 + cz as f32 * cell, z0 + (cz + 1) as f32 * cell);
                        if (px - sh[0]).powi(2) + (pz - sh[1]).powi(2) <= b * b {
                            lists[cz * o.nx + cx].push(k);
                        }
                    }
                }
            }
            o.start.push(0);
            for list in &lists {
                for &k in list {
                    let sh = &shapes[k];
                    o.cx.push(sh[0]);
                    o.cz.push(sh[1]);
                    o.ux.push(sh[2]);
                    o.uz.push(sh[3]);
                    o.hx.push(sh[4]);
                    o.hz.push(sh[5]);
                    o.round.push(sh[6]);
                }
                o.start.push(o.cx.len() as u32);
            }
            for v in [&mut o.cx, &mut o.cz] {
                v.extend([1e9; W]);
            }
            for v in [&mut o.ux, &mut o.uz, &mut o.hx, &mut o.hz, &mut o.round] {
                v.extend([0.0; W]);
            }
            o
        }

        /// The run of obstacles listed in the cell of (x, z) (empty outside the grid).
        #[inline(always)]
        fn run(&self, x: f32, z: f32) -> (usize, usize) {
            let fx = (x - self.x0) * self.inv;
            let fz = (z - self.z0) * self.inv;
            if !(fx >= 0.0 && fz >= 0.0) || fx as usize >= self.nx || fz as usize >= self.nz {
                return (0, 0);
            }
            let c = fz as usize * self.nx + fx as usize;
            (self.start[c] as usize, self.start[c + 1] as usize)
        }
    }

    /// Eight rounded boxes seen from a point.
    struct BoxLanes {
        /// The signed distance from the point to the surface.
        dist: __m256,
        /// The outward unit normal at the nearest surface point.
        nx: __m256,
        nz: __m256,
        /// The point in the box's frame, the frame's x axis, the half extents and rounding.
        lx: __m256,
        lz: __m256,
        ux: __m256,
        uz: __m256,
        hx: __m256,
        hz: __m256,
        round: __m256,
    }

    /// The eight rounded boxes starting at `j` seen from (x, z).
    #[inline(always)]
    unsafe fn rounded_box(o: &Obstacles, j: usize, x: __m256, z: __m256) -> BoxLanes {
        let (cx, cz) = (
            _mm256_loadu_ps(o.cx.as_ptr().add(j)),
            _mm256_loadu_ps(o.cz.as_ptr().add(j)),
        );
        let (ux, uz) = (
            _mm256_loadu_ps(o.ux.as_ptr().add(j)),
            _mm256_loadu_ps(o.uz.as_ptr().add(j)),
        );
        let (hx, hz) = (
            _mm256_loadu_ps(o.hx.as_ptr().add(j)),
            _mm256_loadu_ps(o.hz.as_ptr().add(j)),
        );
        let round = _mm256_loadu_ps(o.round.as_ptr().add(j));
        let (dx, dz) = (_mm256_sub_ps(x, cx), _mm256_sub_ps(z, cz));
        let lx = _mm256_fmadd_ps(dx, ux, _mm256_mul_ps(dz, uz));
        let lz = _mm256_fmsub_ps(dz, ux, _mm256_mul_ps(dx, uz));
        let sign = _mm256_set1_ps(-0.0);
        let (sx, sz) = (_mm256_and_ps(lx, sign), _mm256_and_ps(lz, sign));
        let zero = _mm256_setzero_ps();
        let qx = _mm256_sub_ps(_mm256_andnot_ps(sign, lx), hx);
        let qz = _mm256_sub_ps(_mm256_andnot_ps(sign, lz), hz);
        let (ox, oz) = (_mm256_max_ps(qx, zero), _mm256_max_ps(qz, zero));
        let ol = _mm256_sqrt_ps(_mm256_fmadd_ps(ox, ox, _mm256_mul_ps(oz, oz)));
        let dist = _mm256_sub_ps(
            _mm256_add_ps(ol, _mm256_min_ps(_mm256_max_ps(qx, qz), zero)),
            round,
        );
        // Outside the core box: along the offset; inside: out of the nearer face.
        let outside = _mm256_cmp_ps(ol, zero, _CMP_GT_OQ);
        let iol = _mm256_div_ps(
            _mm256_set1_ps(1.0),
            _mm256_max_ps(ol, _mm256_set1_ps(1e-30)),
        );
        let x_face = _mm256_cmp_ps(qx, qz, _CMP_GE_OQ);
        let one = _mm256_set1_ps(1.0);
        let nlx = _mm256_blendv_ps(_mm256_and_ps(one, x_face), _mm256_mul_ps(ox, iol), outside);
        let nlz = _mm256_blendv_ps(
            _mm256_andnot_ps(x_face, one),
            _mm256_mul_ps(oz, iol),
            outside,
        );
        let (nlx, nlz) = (_mm256_or_ps(nlx, sx), _mm256_or_ps(nlz, sz));
        let nx = _mm256_fnmadd_ps(nlz, uz, _mm256_mul_ps(nlx, ux));
        let nz = _mm256_fmadd_ps(nlz, ux, _mm256_mul_ps(nlx, uz));
        BoxLanes {
            dist,
            nx,
            nz,
            lx,
            lz,
            ux,
            uz,
            hx,
            hz,
            round,
        }
    }

    /// The sum of the lanes.
    #[inline(always)]
    unsafe fn hsum(v: __m256) -> f32 {
        let lo = _mm256_castps256_ps128(v);
        let hi = _mm256_extractf128_ps(v, 1);
        let s = _mm_add_ps(lo, hi);
        let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        let s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
        _mm_cvtss_f32(s)
    }

    /// The least of the lanes.
    #[inline(always)]
    unsafe fn hmin(v: __m256) -> f32 {
        let s = _mm_min_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        let s = _mm_min_ps(s, _mm_movehl_ps(s, s));
        _mm_cvtss_f32(_mm_min_ss(s, _mm_shuffle_ps(s, s, 1)))
    }

    /// The lanes of agents `j..j + W` that come before `e` and are not agent `me`.
    #[inline(always)]
    unsafe fn others(j: usize, e: usize, me: __m256) -> __m256 {
        let idx = _mm256_add_ps(
            _mm256_set1_ps(j as f32),
            _mm256_setr_ps(0., 1., 2., 3., 4., 5., 6., 7.),
        );
        _mm256_and_ps(
            _mm256_cmp_ps(idx, _mm256_set1_ps(e as f32), _CMP_LT_OQ),
            _mm256_cmp_ps(idx, me, _CMP_NEQ_OQ),
        )
    }

    impl World {
        /// The cell of a position, clamped so that its 3 × 3 block lies inside the grid
        /// (rounding may put an agent on the margin's edge).
        #[inline(always)]
        fn cell_of(&self, x: f32, z: f32) -> (usize, usize) {
            let cx = ((x - self.x0) * self.inv) as usize;
            let cz = ((z - self.z0) * self.inv) as usize;
            (cx.clamp(1, self.nx - 2), cz.clamp(1, self.nz - 2))
        }

        /// The agents (in cell order) of the three cells of row `rz` centred on column `cx`.
        #[inline(always)]
        fn row_run(&self, rz: usize, cx: usize) -> (usize, usize) {
            let row = rz * self.nx;
            (
                self.start[row + cx - 1] as usize,
                self.start[row + cx + 2] as usize,
            )
        }

        /// Sorts the state by cell (a counting sort over a grid covering every agent, with a
        /// margin of one cell).
        fn sort(&mut self) {
            let n = self.n;
            // bounds
            let (mut x0, mut z0, mut x1, mut z1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
            for i in 0..n {
                x0 = x0.min(self.s.px[i]);
                x1 = x1.max(self.s.px[i]);
                z0 = z0.min(self.s.pz[i]);
                z1 = z1.max(self.s.pz[i]);
            }
            let inv = 1.0 / self.cell;
            self.inv = inv;
            self.nx = ((x1 - x0) * inv) as usize + 3;
            self.nz = ((z1 - z0) * inv) as usize + 3;
            self.x0 = x0 - self.cell;
            self.z0 = z0 - self.cell;
            self.start.clear();
            self.start.resize(self.nx * self.nz + 1, 0);
            self.ci.resize(n, 0);
            for i in 0..n {
                let cx = ((self.s.px[i] - self.x0) * inv) as usize;
                let cz = ((self.s.pz[i] - self.z0) * inv) as usize;
                let c = cz * self.nx + cx;
                self.ci[i] = c as u32;
                self.start[c + 1] += 1;
            }
            for c in 0..self.nx * self.nz {
                self.start[c + 1] += self.start[c];
            }
            self.fill.clear();
            self.fill.extend_from_slice(&self.start);
            let fill = &mut self.fill;
            for i in 0..n {
                let c = self.ci[i] as usize;
                let d = fill[c] as usize;
                fill[c] += 1;
                let (s, t) = (&self.s, &mut self.t);
                t.px[d] = s.px[i];
                t.pz[d] = s.pz[i];
                t.vx[d] = s.vx[i];
                t.vz[d] = s.vz[i];
                t.hx[d] = s.hx[i];
                t.hz[d] = s.hz[i];
                t.tx[d] = s.tx[i];
                t.tz[d] = s.tz[i];
                t.r[d] = s.r[i];
                t.speed[d] = s.speed[i];
                t.id[d] = s.id[i];
            }
            std::mem::swap(&mut self.s, &mut self.t);
        }

        /// Each agent's wanted direction (`dx`, `dz`) and nearest gap (`gap`).
        ///
        /// # Safety
        /// The CPU has AVX2 and FMA.
        #[target_feature(enable = "avx2,fma")]
        unsafe fn steer(&mut self) {
            let n = self.n;
            let s = &self.s;
            let look = DEFAULT_FOV_RANGE;
            let cosf = DEFAULT_FOV_HALF_ANGLE.cos();
            let repel = DEFAULT_REPEL_FORCE;
            for i in 0..n {
                let (pix, piz) = (s.px[i], s.pz[i]);
                let (gx0, gz0) = (s.tx[i] - pix, s.tz[i] - piz);
                let dist = (gx0 * gx0 + gz0 * gz0).sqrt();
                let (gx, gz) = if dist > 1e-6 {
                    (gx0 / dist, gz0 / dist)
                } else {
                    (s.hx[i], s.hz[i])
                };
                let vp = s.speed[i].min(dist / BRAKE_TIME);
                self.gx[i] = gx;
                self.gz[i] = gz;
                self.vp[i] = vp;
                let (vix, viz) = (gx * vp, gz * vp);
                let ri = s.r[i];
                let horizon = look / s.speed[i].max(0.05);
                let reach = look + ri + MAX_RADIUS;
                let (cx, cz) = self.cell_of(pix, piz);
                let (bx, bz, bu, bfx, bfz) = (
                    _mm256_set1_ps(pix),
                    _mm256_set1_ps(piz),
                    _mm256_set1_ps(1.0 / horizon),
                    _mm256_set1_ps(s.hx[i]),
                    _mm256_set1_ps(s.hz[i]),
                );
                let (bgx, bgz) = (_mm256_set1_ps(gx), _mm256_set1_ps(gz));
                let (bvx, bvz) = (_mm256_set1_ps(vix), _mm256_set1_ps(viz));
                let reach2 = _mm256_set1_ps(reach * reach);
                let bri = _mm256_set1_ps(ri);
                let zero = _mm256_setzero_ps();
                let one = _mm256_set1_ps(1.0);
                let bcos = _mm256_set1_ps(cosf);
                let me = _mm256_set1_ps(i as f32);
                let (mut sx, mut sz) = (zero, zero);
                let mut mind2 = _mm256_set1_ps(f32::INFINITY);
                for rz in cz - 1..=cz + 1 {
                    let (mut j, e) = self.row_run(rz, cx);
                    while j < e {
                        let valid = others(j, e, me);
                        let xx = _mm256_sub_ps(_mm256_loadu_ps(s.px.as_ptr().add(j)), bx);
                        let xz = _mm256_sub_ps(_mm256_loadu_ps(s.pz.as_ptr().add(j)), bz);
                        let rj = _mm256_loadu_ps(s.r.as_ptr().add(j));
                        let d2 = _mm256_fmadd_ps(xx, xx, _mm256_mul_ps(xz, xz));
                        let m = _mm256_and_ps(valid, _mm256_cmp_ps(d2, reach2, _CMP_LT_OQ));
                        mind2 = _mm256_min_ps(
                            mind2,
                            _mm256_blendv_ps(_mm256_set1_ps(f32::INFINITY), d2, valid),
                        );
                        if _mm256_movemask_ps(m) != 0 {
                            let dd = _mm256_sqrt_ps(d2);
                            let r = _mm256_add_ps(bri, rj);
                            let fw = _mm256_max_ps(
                                _mm256_fmadd_ps(bfx, xx, _mm256_mul_ps(bfz, xz)),
                                _mm256_fmadd_ps(bgx, xx, _mm256_mul_ps(bgz, xz)),
                            );
                            let overlap = _mm256_cmp_ps(dd, r, _CMP_LT_OQ);
                            let cone = _mm256_or_ps(
                                overlap,
                                _mm256_cmp_ps(fw, _mm256_mul_ps(dd, bcos), _CMP_GE_OQ),
                            );
                            let vx = _mm256_sub_ps(bvx, _mm256_loadu_ps(s.vx.as_ptr().add(j)));
                            let vz = _mm256_sub_ps(bvz, _mm256_loadu_ps(s.vz.as_ptr().add(j)));
                            let av = _mm256_fmadd_ps(vx, vx, _mm256_mul_ps(vz, vz));
                            let bq = _mm256_fmadd_ps(xx, vx, _mm256_mul_ps(xz, vz));
                            let c = _mm256_fnmadd_ps(r, r, d2);
                            let disc = _mm256_fmsub_ps(bq, bq, _mm256_mul_ps(av, c));
                            let t = _mm256_div_ps(
                                c,
                                _mm256_add_ps(bq, _mm256_sqrt_ps(_mm256_max_ps(disc, zero))),
                            );
                            let t = _mm256_blendv_ps(t, zero, overlap);
                            let coll = _mm256_and_ps(
                                _mm256_and_ps(
                                    _mm256_cmp_ps(bq, zero, _CMP_GT_OQ),
                                    _mm256_cmp_ps(disc, zero, _CMP_GT_OQ),
                                ),
                                _mm256_cmp_ps(t, _mm256_set1_ps(horizon), _CMP_LE_OQ),
                            );
                            let hit =
                                _mm256_and_ps(_mm256_and_ps(m, cone), _mm256_or_ps(overlap, coll));
                            if _mm256_movemask_ps(hit) != 0 {
                                // normal: (v t - x) / |.|  (overlap: -x/dd)
                                let nx0 = _mm256_fmsub_ps(vx, t, xx);
                                let nz0 = _mm256_fmsub_ps(vz, t, xz);
                                let nl = _mm256_sqrt_ps(_mm256_fmadd_ps(
                                    nx0,
                                    nx0,
                                    _mm256_mul_ps(nz0, nz0),
                                ));
                                let inl =
                                    _mm256_div_ps(one, _mm256_max_ps(nl, _mm256_set1_ps(1e-12)));
                                let nx = _mm256_mul_ps(nx0, inl);
                                let nz = _mm256_mul_ps(nz0, inl);
                                let vl = _mm256_sqrt_ps(av);
                                let ivl =
                                    _mm256_div_ps(one, _mm256_max_ps(vl, _mm256_set1_ps(1e-12)));
                                // right_of(v) = (v.z, -v.x)
                                let sdx = _mm256_mul_ps(vz, ivl);
                                let sdz = _mm256_sub_ps(zero, _mm256_mul_ps(vx, ivl));
                                let u0 =
                                    _mm256_max_ps(_mm256_sub_ps(one, _mm256_mul_ps(t, bu)), zero);
                                let u = _mm256_mul_ps(_mm256_mul_ps(u0, u0), _mm256_set1_ps(repel));
                                let u = _mm256_and_ps(u, hit);
                                sx = _mm256_fmadd_ps(
                                    _mm256_fmadd_ps(sdx, _mm256_set1_ps(SIDE_BIAS), nx),
                                    u,
                                    sx,
                                );
                                sz = _mm256_fmadd_ps(
                                    _mm256_fmadd_ps(sdz, _mm256_set1_ps(SIDE_BIAS), nz),
                                    u,
                                    sz,
                                );
                            }
                        }
                        j += W;
                    }
                }
                self.gap[i] = hmin(mind2).sqrt() - ri - MAX_RADIUS;
                let dirx = gx + hsum(sx);
                let dirz = gz + hsum(sz);
                self.dx[i] = dirx;
                self.dz[i] = dirz;
            }
        }

        /// The obstacle pass: for each agent, the obstacles listed in its cell, eight at a
        /// time: the nearest surface (the gap the push-out's skip needs), range and cone, the
        /// walk line against the box grown by the agent's radius and the rounding (a slab
        /// test), and the push along the normal and the tangent toward the walk, by urgency.
        ///
        /// # Safety
        /// The CPU has AVX2 and FMA.
        #[target_feature(enable = "avx2,fma")]
        unsafe fn avoid_obstacles(&mut self) {
            let o = &self.obstacles;
            let s = &self.s;
            let cosf = DEFAULT_FOV_HALF_ANGLE.cos();
            let zero = _mm256_setzero_ps();
            let one = _mm256_set1_ps(1.0);
            let inf = _mm256_set1_ps(f32::INFINITY);
            for i in 0..self.n {
                let (pix, piz) = (s.px[i], s.pz[i]);
                let (mut j, e) = o.run(pix, piz);
                if j == e {
                    self.ogap[i] = f32::INFINITY;
                    continue;
                }
                let ri = s.r[i];
                let (gx, gz) = (self.gx[i], self.gz[i]);
                let horizon = DEFAULT_FOV_RANGE / s.speed[i].max(0.05);
                let (bx, bz) = (_mm256_set1_ps(pix), _mm256_set1_ps(piz));
                let (bgx, bgz) = (_mm256_set1_ps(gx), _mm256_set1_ps(gz));
                let (bfx, bfz) = (_mm256_set1_ps(s.hx[i]), _mm256_set1_ps(s.hz[i]));
                let bri = _mm256_set1_ps(ri);
                let fov = _mm256_set1_ps(DEFAULT_FOV_RANGE);
                let inv_v = _mm256_set1_ps(1.0 / self.vp[i].max(0.05));
                let bu = _mm256_set1_ps(1.0 / horizon);
                let (mut sx, mut sz) = (zero, zero);
                let mut gap_min = inf;
                while j < e {
                    let valid = others(j, e, _mm256_set1_ps(-1.0));
                    let b = rounded_box(o, j, bx, bz);
                    let (nx, nz) = (b.nx, b.nz);
                    let gap = _mm256_sub_ps(b.dist, bri);
                    gap_min = _mm256_min_ps(gap_min, _mm256_blendv_ps(inf, gap, valid));
                    let near = _mm256_and_ps(valid, _mm256_cmp_ps(gap, fov, _CMP_LE_OQ));
                    if _mm256_movemask_ps(near) == 0 {
                        j += W;
                        continue;
                    }
                    // Cone: toward the contact point (−n), when not touching.
                    let fw = _mm256_min_ps(
                        _mm256_fmadd_ps(bfx, nx, _mm256_mul_ps(bfz, nz)),
                        _mm256_fmadd_ps(bgx, nx, _mm256_mul_ps(bgz, nz)),
                    );
                    let seen = _mm256_or_ps(
                        _mm256_cmp_ps(gap, zero, _CMP_LE_OQ),
                        _mm256_cmp_ps(fw, _mm256_set1_ps(-cosf), _CMP_LE_OQ),
                    );
                    // The walk line in the box's frame, against the box grown by r + rounding.
                    let (lx, lz, ux, uz) = (b.lx, b.lz, b.ux, b.uz);
                    let grow = _mm256_add_ps(bri, b.round);
                    let (hx, hz) = (_mm256_add_ps(b.hx, grow), _mm256_add_ps(b.hz, grow));
                    let glx = _mm256_fmadd_ps(bgx, ux, _mm256_mul_ps(bgz, uz));
                    let glz = _mm256_fmsub_ps(bgz, ux, _mm256_mul_ps(bgx, uz));
                    let (ix, iz) = (_mm256_div_ps(one, glx), _mm256_div_ps(one, glz));
                    let (ax, bx2) = (
                        _mm256_mul_ps(_mm256_sub_ps(_mm256_sub_ps(zero, hx), lx), ix),
                        _mm256_mul_ps(_mm256_sub_ps(hx, lx), ix),
                    );
                    let (az, bz2) = (
                        _mm256_mul_ps(_mm256_sub_ps(_mm256_sub_ps(zero, hz), lz), iz),
                        _mm256_mul_ps(_mm256_sub_ps(hz, lz), iz),
                    );
                    let t_near = _mm256_max_ps(_mm256_min_ps(ax, bx2), _mm256_min_ps(az, bz2));
                    let t_far = _mm256_min_ps(_mm256_max_ps(ax, bx2), _mm256_max_ps(az, bz2));
                    let hit = _mm256_and_ps(
                        _mm256_and_ps(
                            _mm256_cmp_ps(t_near, t_far, _CMP_LE_OQ),
                            _mm256_cmp_ps(t_far, zero, _CMP_GE_OQ),
                        ),
                        _mm256_cmp_ps(t_near, fov, _CMP_LE_OQ),
                    );
                    let s_hit = _mm256_max_ps(t_near, zero);
                    // Touching but walking away: no push.
                    let away = _mm256_and_ps(
                        _mm256_cmp_ps(s_hit, zero, _CMP_EQ_OQ),
                        _mm256_cmp_ps(
                            _mm256_fmadd_ps(bgx, nx, _mm256_mul_ps(bgz, nz)),
                            zero,
                            _CMP_GE_OQ,
                        ),
                    );
                    let push =
                        _mm256_andnot_ps(away, _mm256_and_ps(_mm256_and_ps(near, seen), hit));
                    if _mm256_movemask_ps(push) == 0 {
                        j += W;
                        continue;
                    }
                    let t = _mm256_mul_ps(s_hit, inv_v);
                    let u0 = _mm256_max_ps(_mm256_fnmadd_ps(t, bu, one), zero);
                    let u = _mm256_and_ps(
                        _mm256_mul_ps(_mm256_mul_ps(u0, u0), _mm256_set1_ps(DEFAULT_REPEL_FORCE)),
                        push,
                    );
                    // The tangent right_of(n) = (nz, −nx), turned toward the walk.
                    let (tx, tz) = (nz, _mm256_sub_ps(zero, nx));
                    let back = _mm256_and_ps(
                        _mm256_cmp_ps(
                            _mm256_fmadd_ps(tx, bgx, _mm256_mul_ps(tz, bgz)),
                            zero,
                            _CMP_LT_OQ,
                        ),
                        _mm256_set1_ps(-0.0),
                    );
                    let (tx, tz) = (_mm256_xor_ps(tx, back), _mm256_xor_ps(tz, back));
                    sx = _mm256_fmadd_ps(_mm256_add_ps(nx, tx), u, sx);
                    sz = _mm256_fmadd_ps(_mm256_add_ps(nz, tz), u, sz);
                    j += W;
                }
                self.ogap[i] = hmin(gap_min);
                self.dx[i] += hsum(sx);
                self.dz[i] += hsum(sz);
            }
        }

        /// Pushes each agent that may have reached an obstacle (its gap before the step
        /// under two steps' walk) out of every one it overlaps, along the normal.
        ///
        /// # Safety
        /// The CPU has AVX2 and FMA.
        #[target_feature(enable = "avx2,fma")]
        unsafe fn push_out(&mut self) {
            let o = &self.obstacles;
            let s = &mut self.s;
            let zero = _mm256_setzero_ps();
            for i in 0..self.n {
                if self.ogap[i] > 2.0 * MAX_SPEED * DT {
                    continue;
                }
                let (pix, piz) = (s.px[i], s.pz[i]);
                let (mut j, e) = o.run(pix, piz);
                let (bx, bz, bri) = (
                    _mm256_set1_ps(pix),
                    _mm256_set1_ps(piz),
                    _mm256_set1_ps(s.r[i]),
                );
                let (mut sx, mut sz) = (zero, zero);
                while j < e {
                    let valid = others(j, e, _mm256_set1_ps(-1.0));
                    let b = rounded_box(o, j, bx, bz);
                    let depth =
                        _mm256_and_ps(_mm256_max_ps(_mm256_sub_ps(bri, b.dist), zero), valid);
                    sx = _mm256_fmadd_ps(b.nx, depth, sx);
                    sz = _mm256_fmadd_ps(b.nz, depth, sz);
                    j += W;
                }
                s.px[i] = pix + hsum(sx);
                s.pz[i] = piz + hsum(sz);
            }
        }

        /// Agents left overlapping an obstacle by more than a centimetre (a check, untimed).
        fn inside(&self) -> usize {
            let o = &self.obstacles;
            (0..self.n)
                .filter(|&i| {
                    let (x, z) = (self.s.px[i], self.s.pz[i]);
                    let (a, e) = o.run(x, z);
                    (a..e).any(|k| {
                        let (dx, dz) = (x - o.cx[k], z - o.cz[k]);
                        let lx = (dx * o.ux[k] + dz * o.uz[k]).abs() - o.hx[k];
                        let lz = (dz * o.ux[k] - dx * o.uz[k]).abs() - o.hz[k];
                        let out = (lx.max(0.0).powi(2) + lz.max(0.0).powi(2)).sqrt();
                        out + lx.max(lz).min(0.0) - o.round[k] < self.s.r[i] - 0.01
                    })
                })
                .count()
        }

        /// Turns each heading toward its wanted direction by at most the turn cap (a rotation
        /// by the cap's cosine and sine, no trigonometry per agent) and walks along it,
        /// braking at the target; eight agents at a time.
        ///
        /// # Safety
        /// The CPU has AVX2 and FMA.
        #[target_feature(enable = "avx2,fma")]
        unsafe fn turn_walk(&mut self, dt: f32) {
            let n = self.n;
            let maxt = DEFAULT_MAX_TURN_RATE * dt;
            let (cm, sm) = (maxt.cos(), maxt.sin());
            let s = &mut self.s;
            let mut i = 0;
            let one = _mm256_set1_ps(1.0);
            let zero = _mm256_setzero_ps();
            while i < n {
                let dx = _mm256_loadu_ps(self.dx.as_ptr().add(i));
                let dz = _mm256_loadu_ps(self.dz.as_ptr().add(i));
                let l = _mm256_sqrt_ps(_mm256_fmadd_ps(dx, dx, _mm256_mul_ps(dz, dz)));
                let il = _mm256_div_ps(one, _mm256_max_ps(l, _mm256_set1_ps(1e-12)));
                let wx = _mm256_mul_ps(dx, il);
                let wz = _mm256_mul_ps(dz, il);
                let hx = _mm256_loadu_ps(s.hx.as_ptr().add(i));
                let hz = _mm256_loadu_ps(s.hz.as_ptr().add(i));
                let c = _mm256_fmadd_ps(hx, wx, _mm256_mul_ps(hz, wz));
                let cr = _mm256_fmsub_ps(hx, wz, _mm256_mul_ps(hz, wx));
                let within = _mm256_cmp_ps(c, _mm256_set1_ps(cm), _CMP_GE_OQ);
                let sgn = _mm256_blendv_ps(
                    _mm256_set1_ps(sm),
                    _mm256_set1_ps(-sm),
                    _mm256_cmp_ps(cr, zero, _CMP_LT_OQ),
                );
                let cmv = _mm256_set1_ps(cm);
                let rx = _mm256_fnmadd_ps(sgn, hz, _mm256_mul_ps(cmv, hx));
                let rz = _mm256_fmadd_ps(sgn, hx, _mm256_mul_ps(cmv, hz));
                let nx = _mm256_blendv_ps(rx, wx, within);
                let nz = _mm256_blendv_ps(rz, wz, within);
                let align = _mm256_max_ps(_mm256_fmadd_ps(nx, wx, _mm256_mul_ps(nz, wz)), zero);
                let px = _mm256_loadu_ps(s.px.as_ptr().add(i));
                let pz = _mm256_loadu_ps(s.pz.as_ptr().add(i));
                let gx = _mm256_sub_ps(_mm256_loadu_ps(s.tx.as_ptr().add(i)), px);
                let gz = _mm256_sub_ps(_mm256_loadu_ps(s.tz.as_ptr().add(i)), pz);
                let dist = _mm256_sqrt_ps(_mm256_fmadd_ps(gx, gx, _mm256_mul_ps(gz, gz)));
                let sp = _mm256_loadu_ps(s.speed.as_ptr().add(i));
                let sp = _mm256_min_ps(
                    _mm256_mul_ps(sp, align),
                    _mm256_mul_ps(dist, _mm256_set1_ps(1.0 / dt)),
                );
                let vx = _mm256_mul_ps(nx, sp);
                let vz = _mm256_mul_ps(nz, sp);
                _mm256_storeu_ps(s.hx.as_mut_ptr().add(i), nx);
                _mm256_storeu_ps(s.hz.as_mut_ptr().add(i), nz);
                _mm256_storeu_ps(s.vx.as_mut_ptr().add(i), vx);
                _mm256_storeu_ps(s.vz.as_mut_ptr().add(i), vz);
                _mm256_storeu_ps(
                    s.px.as_mut_ptr().add(i),
                    _mm256_fmadd_ps(vx, _mm256_set1_ps(dt), px),
                );
                _mm256_storeu_ps(
                    s.pz.as_mut_ptr().add(i),
                    _mm256_fmadd_ps(vz, _mm256_set1_ps(dt), pz),
                );
                i += W;
            }
        }

        /// One overlap round (Jacobi: each agent moved by half of every overlap), over the
        /// same cells, skipping agents whose nearest gap before the walk exceeds two steps'
        /// walk (no overlap can have formed).
        ///
        /// # Safety
        /// The CPU has AVX2 and FMA.
        #[target_feature(enable = "avx2,fma")]
        unsafe fn project(&mut self) {
            let n = self.n;
            let s = &self.s;
            for i in 0..n {
                self.ox[i] = 0.0;
                self.oz[i] = 0.0;
                if self.gap[i] > 2.0 * MAX_SPEED * DT {
                    continue;
                }
                let (pix, piz) = (s.px[i], s.pz[i]);
                let (cx, cz) = self.cell_of(pix, piz);
                let (bx, bz) = (_mm256_set1_ps(pix), _mm256_set1_ps(piz));
                let bri = _mm256_set1_ps(s.r[i]);
                let me = _mm256_set1_ps(i as f32);
                let zero = _mm256_setzero_ps();
                let (mut sx, mut sz) = (zero, zero);
                for rz in cz - 1..=cz + 1 {
                    let (mut j, e) = self.row_run(rz, cx);
                    while j < e {
                        let valid = others(j, e, me);
                        let xx = _mm256_sub_ps(bx, _mm256_loadu_ps(s.px.as_ptr().add(j)));
                        let xz = _mm256_sub_ps(bz, _mm256_loadu_ps(s.pz.as_ptr().add(j)));
                        let r = _mm256_add_ps(bri, _mm256_loadu_ps(s.r.as_ptr().add(j)));
                        let d2 = _mm256_fmadd_ps(xx, xx, _mm256_mul_ps(xz, xz));
                        let m = _mm256_and_ps(
                            valid,
                            _mm256_cmp_ps(d2, _mm256_mul_ps(r, r), _CMP_LT_OQ),
                        );
                        if _mm256_movemask_ps(m) != 0 {
                            let dd = _mm256_sqrt_ps(d2);
                            let k = _mm256_div_ps(
                                _mm256_mul_ps(_mm256_sub_ps(r, dd), _mm256_set1_ps(0.5)),
                                _mm256_max_ps(dd, _mm256_set1_ps(1e-6)),
                            );
                            let k = _mm256_and_ps(k, m);
                            sx = _mm256_fmadd_ps(xx, k, sx);
                            sz = _mm256_fmadd_ps(xz, k, sz);
                        }
                        j += W;
                    }
                }
                self.ox[i] = hsum(sx);
                self.oz[i] = hsum(sz);
            }
            let s = &mut self.s;
            for i in 0..n {
                s.px[i] += self.ox[i];
                s.pz[i] += self.oz[i];
            }
        }

        /// Positions and headings, written out by id (the caller's arrays).
        fn write_out(&mut self) {
            let s = &self.s;
            for i in 0..self.n {
                let id = s.id[i] as usize;
                self.out_x[id] = s.px[i];
                self.out_z[id] = s.pz[i];
                self.out_heading_x[id] = s.hx[i];
            }
        }
    }

    /// Builds the agents, steps them and prints the timings.
    pub fn run() {
        let (n, steps, every) = (arg(1, 10_000).max(1), arg(2, 100).max(1), arg(3, 1).max(1));
        let with_obstacles = std::env::args().nth(4).as_deref() == Some("obstacles");
        // The speed benchmark's agents as they start, and (with `obstacles`) its obstacles.
        let bench = Scenario::benchmark(n);
        let mut shapes = Vec::new();
        for (_, ob) in bench.crowd.obstacles().filter(|_| with_obstacles) {
            shapes.push(match *ob {
                Obstacle::Circle { center, radius } => {
                    [center.x, center.z, 1.0, 0.0, 0.0, 0.0, radius]
                }
                Obstacle::OrientedBox {
                    center,
                    half_x,
                    half_z,
                    yaw,
                } => [
                    center.x,
                    center.z,
                    yaw.cos(),
                    -yaw.sin(),
                    half_x,
                    half_z,
                    0.0,
                ],
                _ => unreachable!("the benchmark has circles and oriented boxes"),
            });
        }
        let mut s = Soa::with_len(n);
        for (i, (_, a)) in bench.crowd.agents().enumerate() {
            s.px[i] = a.position.x;
            s.pz[i] = a.position.z;
            s.hx[i] = a.yaw.sin();
            s.hz[i] = a.yaw.cos();
            s.tx[i] = a.target.x;
            s.tz[i] = a.target.z;
            s.r[i] = a.radius;
            s.speed[i] = a.speed;
            s.vx[i] = 0.0;
            s.vz[i] = 0.0;
            s.id[i] = i as u32;
        }
        let mut w = World {
            n,
            t: Soa::with_len(n),
            s,
            // The query's reach (look-ahead 4 m + both radii), grown by the walk between sorts.
            cell: DEFAULT_FOV_RANGE + 2.0 * MAX_RADIUS + (every - 1) as f32 * MAX_SPEED * DT,
            inv: 0.0,
            nx: 0,
            nz: 0,
            x0: 0.0,
            z0: 0.0,
            start: vec![],
            ci: vec![],
            fill: vec![],
            out_x: vec![0.0; n],
            out_z: vec![0.0; n],
            out_heading_x: vec![0.0; n],
            dx: vec![0.0; n + W],
            dz: vec![0.0; n + W],
            ox: vec![0.0; n + W],
            gap: vec![0.0; n + W],
            oz: vec![0.0; n + W],
            gx: vec![0.0; n],
            gz: vec![0.0; n],
            vp: vec![0.0; n],
            ogap: vec![f32::INFINITY; n],
            // Listed within an agent's look-ahead and radius of each cell (an agent looks its
            // obstacles up where it stands, so the walk between sorts needs no margin here).
            obstacles: Obstacles::new(
                &shapes,
                DEFAULT_FOV_RANGE + 2.0 * MAX_RADIUS,
                DEFAULT_FOV_RANGE + MAX_RADIUS,
            ),
        };
        let (mut best, mut tot) = (f64::INFINITY, 0.0);
        let (mut bs, mut bst, mut bo, mut btw, mut bp, mut bw) = (
            f64::INFINITY,
            f64::INFINITY,
            f64::INFINITY,
            f64::INFINITY,
            f64::INFINITY,
            f64::INFINITY,
        );
        for k in 0..steps + 3 {
            let t0 = Instant::now();
            if k % every == 0 {
                w.sort();
            }
            let t1 = Instant::now();
            // SAFETY: `main` checked AVX2 and FMA (the same for the calls below).
            unsafe { w.steer() };
            let t1b = Instant::now();
            if with_obstacles {
                unsafe { w.avoid_obstacles() };
            }
            let t2 = Instant::now();
            unsafe { w.turn_walk(DT) };
            let t3 = Instant::now();
            unsafe { w.project() };
            if with_obstacles {
                unsafe { w.push_out() };
            }
            let t4 = Instant::now();
            w.write_out();
            let t5 = Instant::now();
            if k >= 3 {
                let ms = (t5 - t0).as_secs_f64() * 1e3;
                best = best.min(ms);
                tot += ms;
                bs = bs.min((t1 - t0).as_secs_f64() * 1e3);
                bst = bst.min((t1b - t1).as_secs_f64() * 1e3);
                bo = bo.min((t2 - t1b).as_secs_f64() * 1e3);
                btw = btw.min((t3 - t2).as_secs_f64() * 1e3);
                bp = bp.min((t4 - t3).as_secs_f64() * 1e3);
                bw = bw.min((t5 - t4).as_secs_f64() * 1e3);
            }
        }
        let h = w.out_x.iter().zip(&w.out_z).fold(0u64, |h, (x, z)| {
            (h ^ ((x.to_bits() as u64) << 32 | z.to_bits() as u64)).wrapping_mul(0x100000001b3)
        });
        println!(
            "{n}: best {best:.3} ms mean {:.3} | sort {bs:.3} steer {bst:.3} obstacles {bo:.3} turn {btw:.3} project {bp:.3} out {bw:.3} | {h:016x} | {} in obstacles",
            tot / steps as f64,
            w.inside()
        );
    }
}
