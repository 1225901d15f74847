//! The steer's agent pass: every agent within reach of the one steered (candidates scanned in
//! lanes, then culled to those that can change the decision) pushes its walking direction
//! along the hit normal and the side bias, weighted by urgency and the right of way
//! ([`outranks`]); the pass counts the arrived neighbours it settles against or is held off
//! by, and keeps the close walkers that bound its step. A swerve is held past a near miss
//! ([`near_miss`]).

use glam::Vec2;

use crate::crowd::agent::{right_of, AgentState, HitKind};
use crate::crowd::cull::LANES as CULL_LANES;
#[cfg(target_arch = "x86_64")]
use crate::crowd::cull::{survivors_avx2, Looker};
use crate::crowd::grid::MAX_QUERY_RUNS;
use crate::crowd::scan::LANES;

use super::{
    urgency, Aim, Body, Decision, HitOut, World, ARRIVED_SHARE, CANDIDATES, CLOSE, QUERY_ROWS,
    SETTLE_GAP, SIDE_BIAS,
};

/// One side of a right-of-way contest: priority, position, route point, target (NaN: not on
/// the last stretch to it) and the goal it last left (NaN: none).
#[derive(Clone, Copy)]
pub(super) struct Claim {
    pub priority: f32,
    pub pos: Vec2,
    pub steer_to: Vec2,
    pub target: Vec2,
    pub passed: Vec2,
}

impl Claim {
    /// The way left to the target: to the route point, then straight on to the target (as
    /// the crow flies when the route point is the target).
    #[inline(always)]
    fn way_left(self) -> f32 {
        self.pos.distance(self.steer_to) + self.steer_to.distance(self.target)
    }
}

/// Whether `a` has the right of way over `b` (1; −1: `b` has it, 0: neither): the higher
/// priority; of equal priorities contending for one goal, who came to it first — the one that
/// already left it (its queue's last goal passed is the other's target), else, both on the
/// last stretch to it, the one with less of its way left. A crowd pressing into one goal
/// point lets its front in instead of pressing symmetrically round the empty point, and those
/// leaving it are let out.
#[inline]
pub(super) fn outranks(a: Claim, b: Claim) -> i8 {
    if a.priority != b.priority {
        return if a.priority > b.priority { 1 } else { -1 };
    }
    if a.target == b.target {
        let (d, e) = (a.way_left(), b.way_left());
        return (d < e) as i8 - (d > e) as i8;
    }
    (a.passed == b.target) as i8 - (b.passed == a.target) as i8
}

/// What the agent pass found besides the pushes and the hit it writes: arrived neighbours to
/// settle against (and whether one touches the goal's arrival circle) or held off by, the
/// close walkers ahead (offset, radius sum), the nearest candidate visited and the nearest
/// the cull dropped (squared distances).
pub(super) struct Met {
    pub(super) settle_by: u32,
    pub(super) settle_near: bool,
    pub(super) held_by: u32,
    pub(super) close: [(Vec2, f32); CLOSE],
    pub(super) n_close: usize,
    pub(super) nearest2: f32,
    pub(super) nearest_culled: f32,
}

/// The agent pass of `bodies[k]` aiming as `aim` says: adds each agent's push to `dir`, and
/// writes the most urgent hit (time `min_t`) to `d`.
#[inline(always)]
pub(super) fn meet(
    w: &World,
    k: usize,
    aim: &Aim,
    dir: &mut Vec2,
    min_t: &mut f32,
    d: &mut Decision,
) -> Met {
    let b = &w.bodies[k];
    let fwd = b.fwd;
    let Aim {
        goal_dist,
        dist,
        g,
        horizon,
        look,
        v_i,
        ..
    } = *aim;
    // Arrived neighbours (same goal, closer to it) this agent touches; whether one of them
    // touches the goal's own arrival circle.
    let mut settle_by = 0u32;
    let mut settle_near = false;
    // Arrived agents of its own target ahead of it that push it (see HELD_FRACTION).
    let mut held_by = 0u32;
    let near = 2.0 * b.speed * w.dt + 0.5 * b.radius;
    let mut close = [(Vec2::ZERO, 0.0f32); CLOSE];
    let mut n_close = 0;
    let same_goal2 = b.arrival_radius.max(b.radius) * b.arrival_radius.max(b.radius);

    let settle_gap = SETTLE_GAP * b.radius;
    let mut nearest2 = f32::INFINITY;
    #[cfg(target_arch = "x86_64")]
    let me = Looker {
        pos: b.pos,
        mask: b.mask,
        look,
        radius: b.radius,
        settle_gap,
        near,
        fwd,
        g,
        cos_half_fov: b.cos_half_fov,
        v: v_i,
        horizon,
    };
    let visit = |j: usize| {
        let x = w.pos[j] - b.pos;
        let d2 = x.length_squared();
        nearest2 = nearest2.min(d2);
        let o = &w.bodies[j];
        if b.mask & o.layer == 0 {
            return;
        }
        let reach = look + o.radius;
        if d2 > reach * reach {
            return;
        }
        let r = b.radius + o.radius;
        let dd = d2.sqrt();
        // An arrived agent it touches, nearer its target: of the same target, or (on the final
        // leg) any, right at the target. Short of the final leg, only one of the same target
        // that stands nearer its route point too, in its way. (Settling on the final leg
        // alone, a planned crowd sent to a point inside a box, whose route points lay beside
        // the box, pushed for good at those arrived there. Counting there any arrived agent
        // right at the target as on the final leg, SteerSuite `random`'s last arrival came
        // 313.0 s instead of 279.7 s, with 7 856 agent–agent collisions instead of 4 945.)
        // `ahead`: an arrived agent of its own target nearer that target (and, short of the
        // final leg, nearer its route point): one to settle against, or held off by (see
        // HELD_FRACTION).
        let ahead = |o: &Body| {
            o.arrived
                && o.pos.distance_squared(b.target) < goal_dist * goal_dist
                && o.target.distance_squared(b.target) <= same_goal2
                && (b.final_leg || o.pos.distance_squared(b.steer_to) < dist * dist)
        };
        let near_goal = goal_dist <= b.arrival_radius + 2.0 * r;
        if o.arrived
            && dd <= r + settle_gap
            && (ahead(o)
                || (b.final_leg
                    && near_goal
                    && o.pos.distance_squared(b.target) < goal_dist * goal_dist))
        {
            settle_by += 1;
            settle_near |= near_goal;
        }
        // Close moving neighbours limit how far the agent may walk this step (arrived ones
        // are pushed aside instead).
        if !o.arrived && dd < r + near && n_close < CLOSE {
            close[n_close] = (x, r);
            n_close += 1;
        }
        if dd > r && fwd.dot(x).max(g.dot(x)) < dd * b.cos_half_fov {
            return;
        }
        let v = v_i - o.vel;
        let Some((t, n)) = contact(x, d2, dd, r, v, horizon, fwd) else {
            return;
        };
        let Some(share) = share(b, o) else {
            return;
        };
        let side = v.try_normalize().map_or(Vec2::ZERO, right_of);
        *dir += (n + side * SIDE_BIAS) * (b.repel_force * urgency(t, horizon) * share);
        // Counted where it pushes, past every early exit, so the count does not depend on
        // the cull (which drops only what those exits drop). (Tested again here rather than
        // kept from above: the closure is hot and tight on registers.)
        if o.arrived && ahead(o) {
            held_by += 1;
        }
        if t < *min_t {
            *min_t = t;
            d.hit = HitOut {
                kind: HitKind::Agent,
                index: o.slot,
                point: o.pos + (b.pos - o.pos) * (o.radius / r) + (v_i * t) * (o.radius / r),
                normal: n,
            };
        }
    };
    let nearest_culled = for_candidates(
        w,
        k,
        look,
        #[cfg(target_arch = "x86_64")]
        &me,
        visit,
    );
    Met {
        settle_by,
        settle_near,
        held_by,
        close,
        n_close,
        nearest2,
        nearest_culled,
    }
}

/// When and along which normal the agent meets a neighbour at offset `x` (`d2` = |x|², `dd` =
/// |x|) with `r` the sum of their radii, closing at relative velocity `v`: already touching
/// (`dd < r`): at once, pushed straight off it (to its right, `fwd` turned, when the centres
/// coincide); else the first root t of |x − v t| = r (the stable form c / (b + √disc), with
/// b = x·v, c = |x|² − r²), when they close (b > 0) and it comes within `horizon`, with the
/// normal from the neighbour's centre at contact to the agent's.
#[inline(always)]
fn contact(
    x: Vec2,
    d2: f32,
    dd: f32,
    r: f32,
    v: Vec2,
    horizon: f32,
    fwd: Vec2,
) -> Option<(f32, Vec2)> {
    if dd < r {
        let n = if dd > 1e-6 { -x / dd } else { right_of(fwd) };
        return Some((0.0, n));
    }
    let a = v.length_squared();
    let bq = x.dot(v);
    if bq <= 0.0 || a < 1e-12 {
        return None;
    }
    let c = d2 - r * r;
    let disc = bq * bq - a * c;
    if disc <= 0.0 {
        return None;
    }
    let t = c / (bq + disc.sqrt());
    if t > horizon {
        return None;
    }
    Some((t, ((v * t - x) / r).try_normalize().unwrap_or(-x / dd)))
}

/// Calls `visit` for each agent within `look` + the largest radius of `bodies[k]` that can
/// change its decision (see `cull`; `me` is what the cull knows of the agent), in query order;
/// returns the nearest squared distance among the candidates the cull dropped.
///
/// Candidates within reach (tested LANES at a time by the scan, so the many rejections and
/// the short runs' ends cost no mispredictions) are collected, in query order, until the
/// buffer could not take another LANES, then visited in that order. One call site, so `visit`
/// inlines.
#[inline(always)]
fn for_candidates(
    w: &World,
    k: usize,
    look: f32,
    #[cfg(target_arch = "x86_64")] me: &Looker,
    mut visit: impl FnMut(usize),
) -> f32 {
    let b = &w.bodies[k];
    let look_max2 = (look + w.max_radius) * (look + w.max_radius);
    #[cfg(target_arch = "x86_64")]
    let cull = w.kernels.avx2();
    // The nearest candidate among those the cull dropped.
    let mut nearest_culled = f32::INFINITY;
    // One spare entry, so the loop below may read the start of the run after the last.
    let mut runs = [(0u32, 0u32); MAX_QUERY_RUNS + 1];
    let mut n_runs = 0;
    w.grid.query_runs(b.pos, look + w.max_radius, |run| {
        runs[n_runs] = (run.start as u32, run.end as u32);
        n_runs += 1;
    });
    // At least QUERY_ROWS runs are walked (those missing are empty), so the usual query, a
    // run of at most LANES agents in each of its three rows, takes one scan per run in a loop
    // of fixed length (its exit, and the step from run to run, are then predicted).
    let n_iter = n_runs.max(QUERY_ROWS);
    let mut cand = [0u32; CANDIDATES];
    let mut r = 0;
    let mut j = runs[0].0 as usize;
    loop {
        let mut n_cand = 0usize;
        while r < n_iter && n_cand + LANES <= CANDIDATES {
            let e = runs[r].1 as usize;
            let end = e.min(j + LANES);
            let out: &mut [u32; LANES] = (&mut cand[n_cand..n_cand + LANES])
                .try_into()
                .expect("LANES entries");
            n_cand += w
                .kernels
                .within(&w.pos[j..end], j as u32, b.pos, look_max2, k as u32, out);
            j = end;
            if j >= e {
                r += 1;
                j = runs[r].0 as usize;
            }
        }
        // Only the candidates that can change the decision are visited (see `cull`), in
        // query order.
        for chunk in cand[..n_cand].chunks(CULL_LANES) {
            let mut keep = (1u32 << chunk.len()) - 1;
            #[cfg(target_arch = "x86_64")]
            if cull {
                // SAFETY: `Kernels::detect` found AVX2 (at either level).
                let (k, near) = unsafe { survivors_avx2(me, w.bodies, chunk) };
                keep = k;
                nearest_culled = nearest_culled.min(near);
            }
            while keep != 0 {
                let i = keep.trailing_zeros() as usize;
                keep &= keep - 1;
                visit(chunk[i] as usize);
            }
        }
        if r >= n_runs {
            break;
        }
    }
    nearest_culled
}

/// The hold of agent `b` (see `steer`, *Holding a swerve*) for the walker it steered away
/// from last step, which `b` sees (its mask, its reach, its field of view) and did not find on
/// a collision course walking along `g` at `v_i`: the share of its heading to hold — 1 for a
/// miss by one radius sum or less, 0 at two — and the near miss as a hit, or `None`. The walker
/// is read from its agent record (its body, somewhere in the steer's order, holds the same
/// position, velocity, radius, layer and state).
#[inline(never)]
pub(super) fn near_miss(
    w: &World,
    b: &Body,
    look: f32,
    g: Vec2,
    v_i: Vec2,
    horizon: f32,
) -> Option<(f32, HitOut)> {
    let o = w.agents.get(b.last_hit as usize)?.as_ref()?;
    if matches!(o.state, AgentState::Arrived | AgentState::Invalid) || b.mask & o.layer == 0 {
        return None;
    }
    let x = Vec2::new(o.position.x, o.position.z) - b.pos;
    let d2 = x.length_squared();
    let reach = look + o.radius;
    let r = b.radius + o.radius;
    let dd = d2.sqrt();
    if d2 > reach * reach || dd < r || (dd > r && b.fwd.dot(x).max(g.dot(x)) < dd * b.cos_half_fov)
    {
        return None;
    }
    // Coming closer, and passing clear of the disc of both radii (else the steer pushed).
    let v = v_i - o.velocity;
    let (a, bq) = (v.length_squared(), x.dot(v));
    if bq <= 0.0 || a < 1e-12 || bq * bq - a * (d2 - r * r) > 0.0 {
        return None;
    }
    let ts = bq / a;
    let miss = (d2 - bq * ts).max(0.0).sqrt();
    if miss >= 2.0 * r || ts >= horizon {
        return None;
    }
    let n = (v * ts - x).try_normalize().unwrap_or(-x / dd);
    let hit = HitOut {
        kind: HitKind::Agent,
        index: b.last_hit,
        point: b.pos + v_i * ts - n * (miss - o.radius),
        normal: n,
    };
    Some((((2.0 * r - miss) / r).min(1.0), hit))
}

/// The share w of the push of walker `o` on `b` (see *Right of way* in the steering rules):
/// [`ARRIVED_SHARE`] from an arrived agent; else 1.5 when `o` has the right of way, 1 between
/// equals; when `b` has it, 0.5 from an agent of lower priority, and `None` (no push, not
/// its hit) from an equal it outranks in a contest for one goal: there the right of way is
/// whole, its holder does not steer for the other at all, and the other steers for both. (A
/// priority keeps both steering: two of different priorities blocked head on in a passage one
/// agent wide then stay each other's hit, which is how the lower one learns to give way.)
#[inline(always)]
fn share(b: &Body, o: &Body) -> Option<f32> {
    if o.arrived {
        return Some(ARRIVED_SHARE);
    }
    // (Contending for a target only on the last stretch to it: only that near is less of the
    // way left a measure of who is ahead. With the target in sight, the route point is the
    // target, and the way left is as the crow flies.)
    let claim = |x: &Body| Claim {
        priority: x.priority,
        target: if x.last_stretch { x.target } else { Vec2::NAN },
        pos: x.pos,
        steer_to: x.steer_to,
        passed: x.passed,
    };
    match outranks(claim(o), claim(b)) {
        1 => Some(1.5),
        -1 if b.priority == o.priority => None,
        -1 => Some(0.5),
        _ => Some(1.0),
    }
}
