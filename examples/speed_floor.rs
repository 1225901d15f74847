//! The speed goal's floor: not wayfarer's crowd step, but a measurement of what the seed's
//! bare model costs on this machine when every part of it runs in AVX2 lanes over
//! structure-of-arrays state kept in cell order (see the README's *Speed* and
//! `docs/crowd.md`, *The speed goal*).
//!
//! `cargo run --release --example speed_floor -- [agents] [steps] [sort every]` (defaults
//! 10000, 100, 1) steps the speed benchmark's agents (16 m² each, walking to the antipode at
//! 1.3 m/s, radius 0.3 m; its obstacles left out) with only: the field-of-view cone (4 m,
//! ±100°), the time-to-collision push along the hit normal plus the side bias, the turn at
//! most 2π rad/s, the walk with braking at the target, one overlap projection round (skipped
//! for agents farther from everyone than two steps' walk), and positions written out by id.
//! None of wayfarer's other rules (obstacles, arrival and settling, priorities, layers, hits,
//! holds, detours, the sweep) and no multi-round projection. The third argument re-sorts the
//! state by cell only every that many steps (the cells grown by the walk in between). It
//! prints the best and mean step, the best of each phase, and a hash of the positions.

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
        fn cell_of(&self, x: f32, z: f32) -> (usize, usize) {
            let cx = ((x - self.x0) * self.inv) as usize;
            let cz = ((z - self.z0) * self.inv) as usize;
            (cx.clamp(1, self.nx - 2), cz.clamp(1, self.nz - 2))
        }

        /// The agents (in cell order) of the three cells of row `rz` centred on column `cx`.
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
        // The speed benchmark's agents as they start (its obstacles are not used).
        let bench = Scenario::benchmark(n);
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
        };
        let (mut best, mut tot) = (f64::INFINITY, 0.0);
        let (mut bs, mut bst, mut btw, mut bp, mut bw) = (
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
            // SAFETY: `main` checked AVX2 and FMA (the same for the two calls below).
            unsafe { w.steer() };
            let t2 = Instant::now();
            unsafe { w.turn_walk(DT) };
            let t3 = Instant::now();
            unsafe { w.project() };
            let t4 = Instant::now();
            w.write_out();
            let t5 = Instant::now();
            if k >= 3 {
                let ms = (t5 - t0).as_secs_f64() * 1e3;
                best = best.min(ms);
                tot += ms;
                bs = bs.min((t1 - t0).as_secs_f64() * 1e3);
                bst = bst.min((t2 - t1).as_secs_f64() * 1e3);
                btw = btw.min((t3 - t2).as_secs_f64() * 1e3);
                bp = bp.min((t4 - t3).as_secs_f64() * 1e3);
                bw = bw.min((t5 - t4).as_secs_f64() * 1e3);
            }
        }
        let h = w.out_x.iter().zip(&w.out_z).fold(0u64, |h, (x, z)| {
            (h ^ ((x.to_bits() as u64) << 32 | z.to_bits() as u64)).wrapping_mul(0x100000001b3)
        });
        println!(
            "{n}: best {best:.3} ms mean {:.3} | sort {bs:.3} steer {bst:.3} turn {btw:.3} project {bp:.3} out {bw:.3} | {h:016x}",
            tot / steps as f64
        );
    }
}
