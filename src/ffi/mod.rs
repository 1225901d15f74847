//! The C ABI: `extern "C"` functions on flat float arrays, mirroring the safe modules one file
//! per concept. Each export validates its inputs through [`boundary`], converts, and calls the
//! safe API; nothing else lives here.
//!
//! Contract (see `docs/c-abi.md`): every symbol starts `wf_`; fallible functions
//! return a [`WfStatus`] (`WF_STATUS_OK` = 0); outputs come last as caller-allocated buffers with
//! their capacity and are written only on success; points are interleaved xyz `float`;
//! `(NULL, 0)` is a valid empty array; no panic crosses the boundary.

pub mod boundary;
pub mod crowd;
pub mod curve;
pub mod goals;
pub mod timeline;

pub use boundary::WfStatus;
