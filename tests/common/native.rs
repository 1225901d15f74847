//! Helpers shared by the tests that build native programs against the library (the C harness,
//! the README's code blocks): the repository root, a fresh static and shared library, and
//! running a command with its output shown on failure.

#![allow(dead_code)] // each test crate uses its own subset

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The profile directory this test was built in (`target/debug` or `target/release`).
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    // target/<profile>/deps/<test>-<hash>
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// Builds the library in this test's profile and returns the profile directory, holding a
/// fresh `libwayfarer.a` and shared library: `cargo test` builds the library's native forms in
/// `deps/` but does not copy them up, so build the lib target the way `cargo build` would.
pub fn build_lib() -> PathBuf {
    let dir = profile_dir();
    let release = dir.file_name().is_some_and(|n| n == "release");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root()).args(["build", "--lib", "--quiet"]);
    if release {
        cmd.arg("--release");
    }
    let status = cmd.status().expect("cargo build --lib");
    assert!(status.success(), "cargo build --lib failed");
    dir
}

/// The fresh static library (see [`build_lib`]).
pub fn static_lib() -> PathBuf {
    let lib = build_lib().join("libwayfarer.a");
    assert!(lib.exists(), "{} missing", lib.display());
    lib
}

/// Runs `cmd`, panicking with its output when it fails.
pub fn run(cmd: &mut Command) -> std::process::Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("could not run {cmd:?}: {e}"));
    if !out.status.success() {
        panic!(
            "{cmd:?} failed ({})\nstdout:\n{}\nstderr:\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    out
}

/// The warning flags every C and C++ program here is built with.
pub const STRICT: [&str; 4] = ["-Wall", "-Wextra", "-Werror", "-pedantic"];
