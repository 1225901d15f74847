//! The step: [`Crowd::step`] splits `dt` into equal sub-steps, and each sub-step runs the
//! phases in order, each in its own module:
//!
//! 1. [`gather`]: the live agents in slot order, with their route points ([`route`], with
//!    [`detour`]s and give-ways in head-on blocks, see [`standoffs`]);
//! 2. [`steer`]: every body steered from a read-only snapshot, and stepped;
//! 3. [`sweep`]: bodies faster than their radius per sub-step stopped before they pass
//!    through one another (only when some body is that fast);
//! 4. [`project`]: the moved bodies pushed out of each other and out of obstacles;
//! 5. [`finish`]: the final positions, then the overlap [`guard`];
//! 6. [`write_back`]: the bodies back to their agents, then the [`standoffs`] that have gone
//!    on too long are ended, and agents steered afresh that walked on are noted as changes;
//!
//! and after each sub-step the goal queues move on ([`programs`]). Every phase gives the same
//! bits for any thread count: the parallel ones write each output from a read-only world,
//! the serial ones run in a fixed order.

use crate::crowd::{Crowd, CrowdError};

mod detour;
mod finish;
mod gather;
mod guard;
mod programs;
mod project;
mod route;
mod standoffs;
mod steer;
mod sweep;
mod write_back;

pub use detour::DETOUR_TIME;
pub(crate) use finish::Final;
pub(crate) use gather::{note_recheck, Gathered};
pub(crate) use guard::Guard;
pub use guard::OVERLAP_GUARD;
pub use project::{CONVERGED, GAUSS_SEIDEL_SWEEPS};
pub(crate) use standoffs::Standoffs;
pub use standoffs::{BACK_OFF_TIME, PATIENCE, STANDOFF_TIME};
pub(crate) use sweep::Sweep;

/// Longest sub-step, seconds: a longer `dt` is split into equal sub-steps no longer than this.
pub const MAX_SUB_STEP: f32 = 0.1;
/// Most sub-steps of one call: `dt` above `MAX_SUB_STEP × MAX_SUB_STEPS` (6.4 s) is refused.
pub const MAX_SUB_STEPS: u32 = 64;

impl Crowd {
    /// Advances every agent by `dt` seconds on up to `threads` threads (0 or 1: this thread).
    /// `dt` must be finite and > 0; a `dt` above [`MAX_SUB_STEP`] is split into equal
    /// sub-steps, and one above `MAX_SUB_STEP × MAX_SUB_STEPS` is refused. The result is the
    /// same, bit for bit, for any `threads`.
    pub fn step(&mut self, dt: f32, threads: usize) -> Result<(), CrowdError> {
        // (A refused step happened too: it reports no events.)
        self.events.clear();
        if !dt.is_finite() {
            return Err(CrowdError::NonFinite);
        }
        if dt <= 0.0 {
            return Err(CrowdError::InvalidArgument);
        }
        let n = (dt / MAX_SUB_STEP).ceil().max(1.0);
        if n > MAX_SUB_STEPS as f32 {
            return Err(CrowdError::InvalidArgument);
        }
        // (The planner only while some agent plans: the changes wait for one.)
        self.apply_obstacle_changes(self.planned > 0);
        let sub = dt / n;
        for _ in 0..n as u32 {
            self.sub_step(sub, threads.max(1));
            if !self.programs.is_empty() {
                self.run_programs(sub);
            }
        }
        Ok(())
    }

    /// One sub-step: gather, steer, project, guard, write back. The phases stay separate
    /// functions (`inline(never)`: each runs once per sub-step) so that profiles attribute
    /// their costs.
    #[inline(never)]
    pub(super) fn sub_step(&mut self, dt: f32, threads: usize) {
        let Some((min_radius, max_radius, max_look)) = self.gather() else {
            return;
        };
        let fastest = self.steer_all(dt, threads, max_radius, max_look);
        // (Only a body moving farther than its radius can pass through another.)
        if fastest * dt > min_radius {
            self.sweep(dt, max_radius, fastest);
        }
        self.project(dt, threads, max_radius, fastest);
        self.finish(threads, max_radius);
        self.standoffs.back_off(dt);
        if self.write_back(dt, threads) {
            self.break_standoffs();
        }
        if self.rechecking {
            self.recheck_around_released();
        }
    }
}
