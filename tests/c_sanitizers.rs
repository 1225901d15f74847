//! The C harness in `tests/c/` once more, compiled with AddressSanitizer and
//! UndefinedBehaviorSanitizer (`-fsanitize=address,undefined -fno-sanitize-recover=all`) and
//! linked against a static library that is itself built with `-Zsanitizer=address`: any
//! out-of-bounds access, use after free, leak or undefined behaviour on either side of the
//! boundary (a library write past a buffer's stated capacity included) aborts the run.
//!
//! Same approach as `tests/c_harness.rs` (which also runs the harness under valgrind). Skipped
//! with a message when the C compiler has no sanitizer runtime, unless `WF_REQUIRE_SANITIZERS=1`
//! (set by `.ci/test-all`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The host target triple (`rustc -vV`).
fn host_triple() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = must_succeed(Command::new(rustc).arg("-vV"));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .trim()
        .to_string()
}

/// Builds `libwayfarer.a` with AddressSanitizer instrumentation (`-Zsanitizer=address`, allowed
/// on a stable toolchain by `RUSTC_BOOTSTRAP=1`) in its own target directory, so that the
/// library's own reads and writes through the caller's pointers are checked too, not only the
/// C code's. The static library carries no sanitizer runtime; the C compiler's libasan
/// provides it at link time.
fn instrumented_static_lib() -> PathBuf {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    LIB.get_or_init(build_instrumented_static_lib).clone()
}

fn build_instrumented_static_lib() -> PathBuf {
    let target_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("asan-lib");
    let triple = host_triple();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    must_succeed(
        Command::new(cargo)
            .current_dir(root())
            .args(["build", "--lib", "--quiet", "--target", &triple])
            .arg("--target-dir")
            .arg(&target_dir)
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env(
                "RUSTFLAGS",
                "-Zsanitizer=address -Cforce-frame-pointers=yes",
            )
            .env("RUSTC_BOOTSTRAP", "1"),
    );
    let lib = target_dir.join(triple).join("debug/libwayfarer.a");
    assert!(lib.exists(), "{} missing", lib.display());
    lib
}

fn output(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("could not run {cmd:?}: {e}"))
}

#[track_caller]
fn must_succeed(cmd: &mut Command) -> Output {
    let out = output(cmd);
    assert!(
        out.status.success(),
        "{cmd:?} failed ({})\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

const SANITIZE: [&str; 3] = [
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
];

/// True when `cc` can build and run a sanitized program here (probed once per run).
fn sanitizers_available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(probe_sanitizers)
}

fn probe_sanitizers() -> bool {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let src = tmp.join("san_probe.c");
    let exe = tmp.join("san_probe");
    std::fs::write(&src, "int main(void) { return 0; }\n").unwrap();
    let built = output(
        Command::new("cc")
            .args(SANITIZE)
            .arg(&src)
            .arg("-o")
            .arg(&exe),
    );
    built.status.success() && output(&mut Command::new(&exe)).status.success()
}

fn c_sources() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/c"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    v.sort();
    v
}

fn sanitized_env(cmd: &mut Command) -> &mut Command {
    cmd.env(
        "ASAN_OPTIONS",
        "detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1",
    )
    .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
}

#[test]
fn c_sanitizers_harness_passes_under_asan_and_ubsan() {
    if !sanitizers_available() {
        assert!(
            std::env::var_os("WF_REQUIRE_SANITIZERS").is_none(),
            "WF_REQUIRE_SANITIZERS is set but cc cannot build -fsanitize=address,undefined"
        );
        eprintln!("cc has no ASan/UBSan runtime here: skipped");
        return;
    }
    let lib = instrumented_static_lib();
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_harness_asan_ubsan");
    must_succeed(
        Command::new("cc")
            .args([
                "-std=c99",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-pedantic",
                "-g",
                "-O1",
            ])
            .args(SANITIZE)
            .arg("-I")
            .arg(root().join("include"))
            .args(c_sources())
            .arg(&lib)
            .args(["-lpthread", "-ldl", "-lm", "-o"])
            .arg(&exe),
    );
    let out = must_succeed(sanitized_env(&mut Command::new(&exe)));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stdout.lines().last().unwrap_or_default();
    assert!(
        last.ends_with(" 0 failed") && !last.starts_with("0 passed"),
        "unexpected harness summary: {last}\n{stdout}\n{stderr}"
    );
    assert!(
        !stderr.contains("runtime error") && !stderr.contains("Sanitizer"),
        "sanitizer report:\n{stderr}"
    );
    println!("{stdout}");
}

/// The instrumentation is live on the Rust side: a C caller that lies about a capacity (a
/// 1-point buffer passed as 2 points) makes the library write past the allocation, and ASan
/// reports it inside wayfarer. Without `-Zsanitizer=address` on the library this goes unseen,
/// so this proves a green harness run checks the library's accesses too.
#[test]
fn c_sanitizers_catch_an_overflow_when_linked_like_the_harness() {
    if !sanitizers_available() {
        eprintln!("cc has no ASan/UBSan runtime here: skipped");
        return;
    }
    let lib = instrumented_static_lib();
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let src = tmp.join("san_overflow.c");
    let exe = tmp.join("san_overflow");
    std::fs::write(
        &src,
        "#include <stdlib.h>\n#include \"wayfarer.h\"\n\
         int main(void) {\n\
           float *p = malloc(3 * sizeof(float));\n\
           const float a[3] = {0, 0, 0}, b[3] = {1, 1, 1};\n\
           /* A buffer of 3 floats passed with a capacity of 2 points: the library writes the\n\
              2nd point past the allocation, which ASan must report. */\n\
           float two_ts[2] = {0.0f, 1.0f};\n\
           wf_hermite_segment_eval(a, b, a, b, two_ts, 2, p, 2, NULL, 0);\n\
           free(p);\n\
           return 0;\n\
         }\n",
    )
    .unwrap();
    must_succeed(
        Command::new("cc")
            .args(["-std=c99", "-g", "-O1"])
            .args(SANITIZE)
            .arg("-I")
            .arg(root().join("include"))
            .arg(&src)
            .arg(&lib)
            .args(["-lpthread", "-ldl", "-lm", "-o"])
            .arg(&exe),
    );
    let out = output(sanitized_env(&mut Command::new(&exe)));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("heap-buffer-overflow"),
        "ASan did not catch a write past a lying capacity: {}\n{stderr}",
        out.status
    );
}
