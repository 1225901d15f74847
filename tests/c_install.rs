//! `packaging/install-c.sh` installs wayfarer like a C library: into a temporary prefix, then the
//! C quick start (`examples/c/`) is built against the installed copy and run, once through
//! `pkg-config wayfarer` and once through CMake's `find_package(wayfarer)` (shared and static).
//!
//! Needs `cc`, `readelf`, `pkg-config` and `cmake` (skipped without them, unless `CI` is set).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("could not run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed ({})\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn have(tool: &str, arg: &str) -> bool {
    Command::new(tool)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// False (after saying why) when a tool is missing outside CI.
fn tools(list: &[(&str, &str)]) -> bool {
    let missing: Vec<&str> = list
        .iter()
        .filter(|(t, a)| !have(t, a))
        .map(|(t, _)| *t)
        .collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set but {missing:?} are not installed"
    );
    eprintln!("{missing:?} not installed: skipped (.ci/test-all installs them)");
    false
}

fn base() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_install")
}

/// Installs once into `<tmp>/c_install/prefix` and returns the prefix.
fn prefix() -> &'static Path {
    static PREFIX: OnceLock<PathBuf> = OnceLock::new();
    PREFIX.get_or_init(|| {
        let _ = std::fs::remove_dir_all(base());
        let prefix = base().join("prefix");
        run(Command::new("bash")
            .arg(root().join("packaging/install-c.sh"))
            .arg("--prefix")
            .arg(&prefix));
        prefix
    })
}

/// The quick start's output: the library version and the curve at t = 0, 0.5, 1.
fn expected_output() -> String {
    format!(
        "wayfarer {}\nt=0.0: 0.000 0.000 0.000\nt=0.5: 2.125 0.000 0.625\nt=1.0: 4.000 0.000 2.000\n",
        env!("CARGO_PKG_VERSION")
    )
}

fn dynamic_section(file: &Path) -> String {
    run(Command::new("readelf").arg("-d").arg(file))
}

#[test]
fn c_install_gives_header_versioned_shared_library_static_library_pc_and_cmake_files() {
    if !tools(&[("readelf", "--version")]) {
        return;
    }
    let p = prefix();
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(
        std::fs::read(p.join("include/wayfarer/wayfarer.h")).unwrap(),
        std::fs::read(root().join("include/wayfarer.h")).unwrap(),
        "the installed header is the generated one"
    );
    let lib = p.join("lib");
    let real = lib.join(format!("libwayfarer.so.{version}"));
    assert!(real.is_file() && !real.is_symlink());
    assert_eq!(
        std::fs::read_link(lib.join("libwayfarer.so.0")).unwrap(),
        PathBuf::from(format!("libwayfarer.so.{version}"))
    );
    assert_eq!(
        std::fs::read_link(lib.join("libwayfarer.so")).unwrap(),
        PathBuf::from("libwayfarer.so.0")
    );
    assert!(
        dynamic_section(&real).contains("Library soname: [libwayfarer.so.0]"),
        "soname libwayfarer.so.0"
    );
    let archive = std::fs::read(lib.join("libwayfarer.a")).unwrap();
    assert!(
        archive.starts_with(b"!<arch>\n"),
        "libwayfarer.a is an ar archive"
    );
    let pc = std::fs::read_to_string(lib.join("pkgconfig/wayfarer.pc")).unwrap();
    assert!(pc.contains(&format!("\nVersion: {version}\n")), "{pc}");
    assert!(pc.contains(&format!("prefix={}\n", p.display())), "{pc}");
    for f in ["wayfarerConfig.cmake", "wayfarerConfigVersion.cmake"] {
        assert!(lib.join("cmake/wayfarer").join(f).is_file(), "{f}");
    }
}

#[test]
fn c_install_quick_start_builds_and_runs_through_pkg_config() {
    if !tools(&[
        ("cc", "--version"),
        ("pkg-config", "--version"),
        ("readelf", "--version"),
    ]) {
        return;
    }
    let p = prefix();
    let pkgconfig = p.join("lib/pkgconfig");
    let pkg = |args: &[&str]| -> Vec<String> {
        run(Command::new("pkg-config")
            .env("PKG_CONFIG_PATH", &pkgconfig)
            .args(args)
            .arg("wayfarer"))
        .split_whitespace()
        .map(String::from)
        .collect()
    };
    assert_eq!(
        pkg(&["--modversion"]),
        [env!("CARGO_PKG_VERSION").to_string()]
    );
    let exe = base().join("quickstart-pkg-config");
    run(Command::new("cc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"])
        .args(pkg(&["--cflags"]))
        .arg(root().join("examples/c/quickstart.c"))
        .args(pkg(&["--libs"]))
        .arg("-o")
        .arg(&exe));
    assert!(
        dynamic_section(&exe).contains("Shared library: [libwayfarer.so.0]"),
        "linked against the versioned name"
    );
    let out = run(Command::new(&exe).env("LD_LIBRARY_PATH", p.join("lib")));
    assert_eq!(out, expected_output());
}

#[test]
fn c_install_quick_start_builds_and_runs_through_cmake_find_package() {
    if !tools(&[
        ("cc", "--version"),
        ("cmake", "--version"),
        ("readelf", "--version"),
    ]) {
        return;
    }
    let p = prefix();
    let build = base().join("cmake-build");
    run(Command::new("cmake")
        .arg("-S")
        .arg(root().join("examples/c"))
        .arg("-B")
        .arg(&build)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", p.display()))
        .arg("-DCMAKE_C_FLAGS=-Wall -Wextra -Werror"));
    run(Command::new("cmake").arg("--build").arg(&build));
    // The shared build finds libwayfarer.so.0 through the run path CMake records.
    let shared = build.join("quickstart");
    let dynamic = dynamic_section(&shared);
    assert!(
        dynamic.contains("Shared library: [libwayfarer.so.0]"),
        "{dynamic}"
    );
    assert_eq!(run(&mut Command::new(&shared)), expected_output());
    let fixed = build.join("quickstart_static");
    assert!(
        !dynamic_section(&fixed).contains("libwayfarer"),
        "the static build needs no libwayfarer at run time"
    );
    assert_eq!(run(&mut Command::new(&fixed)), expected_output());
}

/// The CMake package finds the library relative to itself: a copied install tree still works.
#[test]
fn c_install_cmake_package_is_relocatable() {
    if !tools(&[("cc", "--version"), ("cmake", "--version")]) {
        return;
    }
    let moved = base().join("moved-prefix");
    let _ = std::fs::remove_dir_all(&moved);
    run(Command::new("cp").arg("-a").arg(prefix()).arg(&moved));
    let build = base().join("cmake-build-moved");
    let _ = std::fs::remove_dir_all(&build);
    run(Command::new("cmake")
        .arg("-S")
        .arg(root().join("examples/c"))
        .arg("-B")
        .arg(&build)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", moved.display())));
    let cache = std::fs::read_to_string(build.join("CMakeCache.txt")).unwrap();
    let dir = moved.join("lib/cmake/wayfarer");
    assert!(
        cache.contains(&format!("wayfarer_DIR:PATH={}", dir.display())),
        "found the moved package"
    );
    run(Command::new("cmake").arg("--build").arg(&build));
    assert_eq!(
        run(&mut Command::new(build.join("quickstart_static"))),
        expected_output()
    );
}
