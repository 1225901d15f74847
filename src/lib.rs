//! # wayfarer
//!
//! Moves game characters: curves ([`curve`]), NPC positions as a pure function of world time
//! ([`timeline`]) and a batched crowd-avoidance step ([`crowd`]).
//!
//! The three modules are safe Rust on [`glam`] and are usable directly from Rust (take the
//! `rlib`). The [`ffi`] module exposes the same nouns as a C ABI (`wf_*` functions on flat float
//! arrays) for Unity (C# P/Invoke) and C/C++ engines; `include/wayfarer.h` is generated from it.
#![deny(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod crowd;
pub mod curve;
pub mod ffi;
pub mod simd;
pub mod timeline;

pub use glam::Vec3;
