//! Builds the C harness in `tests/c/` against `include/wayfarer.h` and the static library,
//! runs it (and under valgrind when it is installed, or required by `WF_REQUIRE_VALGRIND=1`),
//! and checks that the header compiles as C99 and C++11 with `-Wall -Wextra -Werror -pedantic`.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "common/native.rs"]
mod native;
use native::{root, run, static_lib, STRICT};

fn c_sources() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/c"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    v.sort();
    v
}

/// Compiles the harness with `extra` flags into `name` and returns its path.
fn build_harness(name: &str, extra: &[&str]) -> PathBuf {
    let lib = static_lib();
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let mut cmd = Command::new("cc");
    cmd.arg("-std=c99")
        .args(STRICT)
        .args(["-g", "-O1"])
        .args(extra)
        .arg("-I")
        .arg(root().join("include"))
        .args(c_sources())
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe);
    run(&mut cmd);
    exe
}

fn check_summary(out: &std::process::Output) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    assert!(
        last.ends_with(" 0 failed") && !last.starts_with("0 passed"),
        "unexpected harness summary: {last}\n{stdout}"
    );
    println!("{stdout}");
}

#[test]
fn header_compiles_as_c99_and_cpp11() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let src = tmp.join("header_only.cpp");
    std::fs::write(
        &src,
        "#include \"wayfarer.h\"\nint main() { return wf_version() ? 0 : 1; }\n",
    )
    .unwrap();
    run(Command::new("c++")
        .arg("-std=c++11")
        .args(STRICT)
        .arg("-fsyntax-only")
        .arg("-I")
        .arg(root().join("include"))
        .arg(&src));
    let csrc = tmp.join("header_only.c");
    std::fs::write(
        &csrc,
        "#include \"wayfarer.h\"\nint main(void) { return wf_version() ? 0 : 1; }\n",
    )
    .unwrap();
    run(Command::new("cc")
        .arg("-std=c99")
        .args(STRICT)
        .arg("-fsyntax-only")
        .arg("-I")
        .arg(root().join("include"))
        .arg(&csrc));
}

#[test]
fn c_harness_passes() {
    let exe = build_harness("c_harness", &[]);
    let out = run(&mut Command::new(&exe));
    check_summary(&out);
}

#[test]
fn c_harness_passes_under_valgrind() {
    let required = std::env::var_os("WF_REQUIRE_VALGRIND").is_some();
    let have = Command::new("valgrind").arg("--version").output().is_ok();
    if !have {
        assert!(
            !required,
            "WF_REQUIRE_VALGRIND is set but valgrind is not installed"
        );
        eprintln!("valgrind not installed: skipped (the README's test command installs it)");
        return;
    }
    let exe = build_harness("c_harness_vg", &[]);
    let out = run(Command::new("valgrind")
        .args([
            "--quiet",
            "--error-exitcode=99",
            "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect",
            "--show-leak-kinds=definite,indirect",
        ])
        .arg(&exe));
    check_summary(&out);
}
