//! Agent emitters: each places a copy of its agent at its position, at most one every
//! `interval` seconds and only while no agent stands within the two bodies' radii of the spot,
//! until it has placed its `count`.

use glam::Vec2;
use wayfarer::crowd::Crowd;

use super::program::Program;
use super::scene::EmitterSpec;

/// The emitters of a run.
pub struct Emitters {
    specs: Vec<EmitterSpec>,
    /// Per emitter: run time of its next emission, agents emitted.
    state: Vec<(f32, usize)>,
}

impl Emitters {
    /// The emitters of a scene, none emitted yet.
    pub fn new(specs: &[EmitterSpec]) -> Self {
        Self {
            state: specs.iter().map(|e| (e.start, 0)).collect(),
            specs: specs.to_vec(),
        }
    }

    /// Whether every emitter has placed all its agents.
    pub fn done(&self) -> bool {
        self.specs
            .iter()
            .zip(&self.state)
            .all(|(e, s)| s.1 >= e.count)
    }

    /// Places every agent due at run time `now` whose spot is free.
    pub fn emit(
        &mut self,
        crowd: &mut Crowd,
        program: &mut Program,
        now: f32,
    ) -> Result<(), String> {
        for (k, e) in self.specs.iter().enumerate() {
            let (next, emitted) = self.state[k];
            if emitted >= e.count || now < next {
                continue;
            }
            let at = e.agent.position;
            let r = e.agent.radius;
            let free = crowd
                .agents()
                .all(|(_, a)| Vec2::new(a.position.x, a.position.z).distance(at) >= a.radius + r);
            if free {
                program
                    .spawn(crowd, &e.agent, now)
                    .map_err(|m| format!("<agentEmitter> #{k}: {m}"))?;
                self.state[k] = (now + e.interval, emitted + 1);
            }
        }
        Ok(())
    }
}
