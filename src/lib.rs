//! # wayfarer
//!
//! Moves game characters: curves, NPCs on timed paths, and crowds that avoid each other and
//! obstacles. This is the Rust reference; the same nouns are a C ABI ([`ffi`],
//! `include/wayfarer.h`) and a Unity package (`unity/`).
//!
//! ## Quick start
//!
//! ```
//! use wayfarer::crowd::{Crowd, Obstacle};
//! use wayfarer::Vec3;
//!
//! // Two agents walk toward each other past a pillar; one call steps the whole crowd.
//! let mut crowd = Crowd::new(16).unwrap();
//! let a = crowd.add_agent(Vec3::new(0.0, 0.0, -10.0), 0.0, 1.3, 0.3).unwrap();
//! let b = crowd.add_agent(Vec3::new(0.0, 0.0, 10.0), std::f32::consts::PI, 1.3, 0.3).unwrap();
//! crowd.set_target(a, Vec3::new(0.0, 0.0, 10.0), 0.3).unwrap();
//! crowd.set_target(b, Vec3::new(0.0, 0.0, -10.0), 0.3).unwrap();
//! crowd.add_obstacle(Obstacle::Circle { center: Vec3::ZERO, radius: 1.0 }).unwrap();
//! for _ in 0..300 {
//!     crowd.step(0.1, 1).unwrap();
//! }
//! assert!(crowd.agent(a).unwrap().position.distance(Vec3::new(0.0, 0.0, 10.0)) < 0.5);
//! ```
//!
//! ## Where to look
//!
//! | you want | start at |
//! | --- | --- |
//! | a spline through points, points along it at constant speed | [`curve::CubicSpline`], [`curve::sample`], [`curve::ArcLengthTable`] |
//! | a Bézier curve of any degree, a chain of them, a bouncing ball's arc | [`curve::BezierCurve`], [`curve::BezierChain`], [`curve::Projectile`] |
//! | where an NPC is at a world time (schedules, holds, easing, loops) | [`timeline::Path`], [`timeline::Schedule`] |
//! | thousands of NPCs on schedules in one call | [`timeline::ScheduleSet`] |
//! | a crowd walking to targets around obstacles and each other | [`crowd::Crowd`], [`crowd::Agent`], [`crowd::Obstacle`] |
//! | the same from C, C++ or C# | [`ffi`] and `include/wayfarer.h` |
//!
//! Conventions everywhere: positions are [`Vec3`] (the layout of Unity's `Vector3`); the
//! ground is the XZ plane with Y up; yaw 0 faces +Z and positive yaw turns clockwise seen from
//! above (Unity's Y rotation); nothing returns NaN from finite input, and bad input is an
//! error value, never a panic.
//!
//! The user guide (one page per area, with the guarantees and their measurements) is in the
//! repository's `docs/` folder; the README has quick starts for Unity and C.

#![deny(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod crowd;
pub mod curve;
pub mod ffi;
pub mod simd;
pub mod timeline;

pub use glam::Vec3;

/// The code blocks of the README and the user guide pages, run as doctests so that what they
/// print keeps compiling (`cargo test --doc`; `tests/readme.rs` checks the C and C# blocks).
#[cfg(doctest)]
mod guide {
    #[doc = include_str!("../README.md")]
    struct Readme;
    #[doc = include_str!("../docs/curves.md")]
    struct Curves;
    #[doc = include_str!("../docs/timeline.md")]
    struct Timeline;
    #[doc = include_str!("../docs/crowd.md")]
    struct CrowdGuide;
}
