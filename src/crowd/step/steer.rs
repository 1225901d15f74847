//! Steer: every body is built once, straight into the cell order of a grid over the
//! look-ahead, and steered from that read-only snapshot (see [`steer`]), in blocks whose
//! pending turns are then made in lanes ([`finish_turns`]); each body steps to
//! `pos + vel · dt`. Returns the fastest speed, which sizes the sweep and the projection.

use core::sync::atomic::{AtomicU32, Ordering};

use glam::Vec2;

use crate::crowd::agent::{right_of, Agent, AgentState, HitKind, RouteMode};
use crate::crowd::grid::AgentGrid;
use crate::crowd::par::{
    one_thread, par_chunks2, par_update2, prefetch_write, MIN_AGENTS_PER_THREAD,
    MIN_LIGHT_PER_THREAD, SCATTER_AHEAD,
};
use crate::crowd::planner::Approach;
use crate::crowd::slots::SLOT_MASK;
use crate::crowd::steering::{finish_turns, steer, Body, Decision, World};
use crate::crowd::Crowd;

use super::gather::Gathered;

/// Agents steered before the turns they left pending are finished, with where they step to
/// (a multiple of the turn's lanes; their records are then still in cache).
const STEER_BLOCK: usize = 128;

/// The step's record of agent `a` (gathered as `g`, at `pos`).
#[inline]
fn body_of(a: &Agent, g: &Gathered, pos: Vec2) -> Body {
    // The obstacle it slid along last step, and the way it slid.
    let (last_obstacle, last_slide) = if a.hit.kind == HitKind::Obstacle {
        let tangent = right_of(Vec2::new(a.hit.normal.x, a.hit.normal.z));
        (a.hit.id & SLOT_MASK, tangent * f32::from(a.slide))
    } else {
        (u32::MAX, Vec2::ZERO)
    };
    Body {
        pos,
        vel: a.velocity,
        radius: a.radius,
        speed: a.speed,
        yaw: a.yaw,
        fwd: a.heading2(),
        max_turn_rate: a.max_turn_rate,
        fov_range: a.fov_range,
        cos_half_fov: g.cos_half_fov,
        repel_force: a.repel_force,
        steer_to: g.steer_to,
        target: Vec2::new(a.target.x, a.target.z),
        final_leg: g.final_leg,
        arrival_radius: a.arrival_radius,
        priority: a.priority,
        layer: a.layer,
        mask: a.mask,
        arrived: a.state == AgentState::Arrived,
        blocked: a.state == AgentState::Blocked,
        recheck: g.recheck,
        settled_at: a.settled_at,
        slot: g.slot,
        last_hit: if a.hit.kind == HitKind::Agent {
            a.hit.id & SLOT_MASK
        } else {
            u32::MAX
        },
        last_obstacle,
        last_slide,
        direct: a.route_mode == RouteMode::Direct && !a.detour,
        last_stretch: g.final_leg || a.approaching != Approach::Off,
        passed: g.passed,
    }
}

impl Crowd {
    /// Steers every body (built straight into the look-ahead grid's cell order); returns the
    /// fastest speed.
    #[inline(never)]
    pub(super) fn steer_all(
        &mut self,
        dt: f32,
        threads: usize,
        max_radius: f32,
        max_look: f32,
    ) -> f32 {
        let n = self.gathered.len();
        let light = (threads, MIN_LIGHT_PER_THREAD);
        // Obstacle halo lists covering every look-ahead (listed again only when it grows).
        self.obstacle_grid.ensure_halo(max_look);

        // Steer: grid over the look-ahead, each body built once, straight into cell order.
        // (`resize` only fills what the buffers grow by; every element is overwritten.)
        let cell = AgentGrid::cell_for(max_look + max_radius, 2.0 * max_radius);
        self.grid.build(&self.gathered_pos, cell);
        self.sorted.resize(n, Body::default());
        self.pos.resize(n, Vec2::ZERO);
        {
            let (agents, gathered) = (&self.agents.items, &self.gathered);
            let (gathered_pos, order) = (&self.gathered_pos, self.grid.order());
            let body = |i: usize| {
                let g = &gathered[i];
                let a = agents[g.slot as usize].as_ref().expect("live slot");
                body_of(a, g, gathered_pos[i])
            };
            if one_thread(light, n) {
                // In slot order (the agents read in sequence), each body written to its
                // place in cell order: at 100 k agents a quarter faster than reading the
                // agents in cell order.
                self.inverse.resize(n, 0);
                for (s, &i) in order.iter().enumerate() {
                    self.inverse[i as usize] = s as u32;
                }
                for (i, &s) in self.inverse.iter().enumerate() {
                    // The record written SCATTER_AHEAD bodies from now (its two lines).
                    if let Some(&ahead) = self.inverse.get(i + SCATTER_AHEAD) {
                        prefetch_write(self.sorted.as_ptr().wrapping_add(ahead as usize), 2);
                    }
                    let b = body(i);
                    self.pos[s as usize] = b.pos;
                    self.sorted[s as usize] = b;
                }
            } else {
                par_update2(light, &mut self.sorted, &mut self.pos, |s, b, p| {
                    *b = body(order[s] as usize);
                    *p = b.pos;
                });
            }
        }
        self.decisions.resize(n, Decision::default());
        self.stepped.resize(n, Vec2::ZERO);
        {
            let world = World {
                bodies: &self.sorted,
                pos: &self.pos,
                grid: &self.grid,
                shapes: &self.shapes,
                rings: &self.rings,
                obstacles: &self.obstacle_grid,
                max_radius,
                dt,
                kernels: self.kernels,
                agents: &self.agents.items,
            };
            // Blocks of STEER_BLOCK agents: each block's steers, then the turns they left
            // pending and where each body steps to, while its records are still in cache.
            let kernels = self.kernels;
            // The largest speed, as the bits of a non-negative f32 (ordered as integers).
            let fastest = AtomicU32::new(0);
            par_chunks2(
                (threads, MIN_AGENTS_PER_THREAD),
                &mut self.decisions,
                &mut self.stepped,
                |start, decisions, stepped| {
                    let blocks = decisions
                        .chunks_mut(STEER_BLOCK)
                        .zip(stepped.chunks_mut(STEER_BLOCK));
                    for (i, (ds, ss)) in blocks.enumerate() {
                        let first = start + i * STEER_BLOCK;
                        for (k, d) in (first..).zip(ds.iter_mut()) {
                            *d = steer(&world, k);
                        }
                        let bodies = &world.bodies[first..first + ds.len()];
                        finish_turns(bodies, ds, dt, kernels);
                        for ((s, b), d) in ss.iter_mut().zip(bodies).zip(ds.iter()) {
                            *s = b.pos + d.vel * dt;
                        }
                        // (`f32::max` skips NaN: the block's largest speed is ≥ 0, not NaN.)
                        let top = ds.iter().fold(0.0f32, |m, d| m.max(d.vel.length()));
                        fastest.fetch_max(top.to_bits(), Ordering::Relaxed);
                    }
                },
            );
            f32::from_bits(fastest.into_inner())
        }
    }
}
