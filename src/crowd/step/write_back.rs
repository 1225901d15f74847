//! Write-back: the bodies' final positions, velocities, headings, hits and states go back to
//! their agents, with the counts that feed standoffs (see `Crowd::break_standoffs`) and
//! detours (see `pin`).

use core::sync::atomic::Ordering;

use glam::{Vec2, Vec3};

use crate::crowd::agent::{Agent, AgentState, Hit, HitKind, RouteMode};
use crate::crowd::par::{
    one_thread, par_update, prefetch, prefetch_write, MIN_LIGHT_PER_THREAD, SCATTER_AHEAD,
};
use crate::crowd::slots::{Slots, SLOT_BITS};
use crate::crowd::Crowd;

use super::detour::{pin, pin_wedged, HELD_BY_AGENT_RATE, PINNED_GAP};
use super::finish::Final;
use super::standoffs::standoff_limit;

impl Crowd {
    /// Writes the bodies back to their agents: on one thread in body order, each to its slot;
    /// on several in slot order, each slot finding its body by rank.
    /// Returns whether an agent walking straight at its target has been blocked against the same
    /// agent for [`STANDOFF_TIME`](super::standoffs::STANDOFF_TIME), or one planning its route for [`PATIENCE`](super::standoffs::PATIENCE).
    #[inline(never)]
    pub(super) fn write_back(&mut self, dt: f32, threads: usize) -> bool {
        let light = (threads, MIN_LIGHT_PER_THREAD);
        let single = one_thread(light, self.agents.items.len());
        if !single {
            self.rank.clear();
            self.rank.resize(self.agents.items.len(), u32::MAX);
            for (k, b) in self.bodies.iter().enumerate() {
                self.rank[b.slot as usize] = k as u32;
            }
        }
        let Slots {
            items, generations, ..
        } = &mut self.agents;
        let (bodies, decisions, finals) = (&self.bodies, &self.decisions, &self.finals);
        let (rank, obstacle_ids, overlaps) = (&self.rank, &self.obstacle_ids, &self.overlaps);
        let (shapes, og) = (&self.shapes, &self.obstacle_grid);
        // Whether an agent has been blocked against the same agent for its mode's
        // `standoff_limit` (then `break_standoffs` looks for standoffs to end).
        let standoff_seen = &core::sync::atomic::AtomicBool::new(false);
        let now = self.sub_steps;
        let write = |a: &mut Agent, k: usize| {
            let b = &bodies[k];
            let d = &decisions[b.decision as usize];
            let hit_id = match d.hit.kind {
                HitKind::None => 0,
                HitKind::Agent => generations[d.hit.index as usize] << SLOT_BITS | d.hit.index,
                HitKind::Obstacle => obstacle_ids[d.hit.index as usize],
            };
            let Final { pos: p, old, .. } = finals[k];
            if !p.is_finite() {
                a.state = AgentState::Invalid;
                return;
            }
            let (was_agent, was_id) = (a.hit.kind == HitKind::Agent, a.hit.id);
            a.position.x = p.x;
            a.position.z = p.y;
            a.yaw = d.yaw;
            a.heading = d.heading;
            // This step's velocity averaged with the value before (see `Agent::velocity`).
            a.velocity = if finals[k].reverted {
                Vec2::ZERO
            } else {
                (d.vel + a.velocity) * 0.5
            };
            a.settled_at = d.settled_at;
            let progress = (p - old).dot(d.pref_dir);
            a.state = if b.arrived {
                AgentState::Arrived
            } else if d.pref_speed > 1e-6 && progress < 0.1 * d.pref_speed * dt {
                AgentState::Blocked
            } else {
                AgentState::Moving
            };
            let y = a.position.y;
            a.hit = Hit {
                kind: d.hit.kind,
                id: hit_id,
                point: Vec3::new(d.hit.point.x, y, d.hit.point.y),
                normal: Vec3::new(d.hit.normal.x, 0.0, d.hit.normal.y),
            };
            a.slide = if d.hit.kind == HitKind::Obstacle {
                d.slide
            } else {
                0
            };
            // Blocked against the same agent as the sub-step before: the standoff goes on
            // (from a sub-step not blocked so, it starts again).
            if a.state == AgentState::Blocked
                && d.hit.kind == HitKind::Agent
                && was_agent
                && was_id == hit_id
            {
                let on = a.standoff_step + 1 == now;
                a.standoff = if on { a.standoff + dt } else { dt };
                a.standoff_step = now;
                if a.standoff >= standoff_limit(a.route_mode) {
                    standoff_seen.store(true, Ordering::Relaxed);
                }
            }
            // Walking straight, held near obstacles (hitting one, or blocked touching one or
            // within PINNED_GAP radii of one, by the steer's bound): counted (see `pin`), at
            // HELD_BY_AGENT_RATE while its hit is an agent.
            let hitting = d.hit.kind == HitKind::Obstacle;
            if (hitting || a.state == AgentState::Blocked)
                && a.route_mode == RouteMode::Direct
                && !a.detour
                && !b.arrived
                && (hitting || !overlaps[k].2 || d.obstacle_gap < PINNED_GAP * b.radius)
            {
                let by_agent = d.hit.kind == HitKind::Agent;
                let held = if by_agent {
                    HELD_BY_AGENT_RATE * dt
                } else {
                    dt
                };
                pin(a, p, b.radius, now, held);
            } else if hitting
                && a.route_mode == RouteMode::Planned
                && !a.detour
                && !b.arrived
                && a.state == AgentState::Blocked
            {
                pin_wedged(a, p, b.radius, now, dt, shapes, og);
            }
        };
        if single {
            // In body order (the step's arrays read in sequence), each written to its slot.
            for (k, b) in bodies.iter().enumerate() {
                // The agent written SCATTER_AHEAD bodies from now (its first two lines, which
                // the write touches) and the decision it reads.
                if let Some(ahead) = bodies.get(k + SCATTER_AHEAD) {
                    prefetch_write(items.as_ptr().wrapping_add(ahead.slot as usize), 2);
                    prefetch(decisions.as_ptr().wrapping_add(ahead.decision as usize));
                }
                if let Some(a) = items[b.slot as usize].as_mut() {
                    write(a, k);
                }
            }
        } else {
            par_update(light, items, |slot, item| {
                let k = rank[slot] as usize;
                if let (Some(a), true) = (item.as_mut(), k < bodies.len()) {
                    write(a, k);
                }
            });
        }
        standoff_seen.load(Ordering::Relaxed)
    }
}
