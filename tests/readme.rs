//! The README is the front door, and its quick starts must work as printed. This test takes
//! every fenced code block of the README (and of the user guide pages in `docs/` that carry
//! quick starts) and
//!
//! - compiles and runs each `c` block as a C99 program (`-Wall -Wextra -Werror -pedantic`)
//!   against `include/wayfarer.h` and the static library, as `tests/c_harness.rs` does;
//! - compiles each `csharp` block with Mono's `mcs -langversion:7.2 -warnaserror` against the
//!   Unity package's runtime sources and the UnityEngine stand-in, as `tests/csharp/run.sh`
//!   does, and runs it under `mono` against the real library;
//! - checks that the `rust` blocks are doctests (`src/lib.rs` includes these pages under
//!   `cfg(doctest)`, so `cargo test --doc` compiles and runs them).
//!
//! A block is a program's body: its `#include` (C) or `using …;` (C#) lines are lifted to the
//! top and the rest is wrapped in `main`. Without `mcs`/`mono` the C# check is skipped with a
//! message, unless `WF_REQUIRE_MONO=1` (the README's test command installs Mono).

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "common/native.rs"]
mod native;
use native::{build_lib, root, run, static_lib, STRICT};

/// The pages whose code blocks are checked. The README and the guide pages written here;
/// `docs/c-abi.md` shows fragments of declarations, not programs.
const PAGES: [&str; 5] = [
    "README.md",
    "docs/curves.md",
    "docs/timeline.md",
    "docs/crowd.md",
    "docs/unity.md",
];

/// One fenced block: page, first line number, language tag, text.
struct Block {
    page: &'static str,
    line: usize,
    lang: String,
    text: String,
}

fn blocks() -> Vec<Block> {
    let mut out = Vec::new();
    for page in PAGES {
        let text = std::fs::read_to_string(root().join(page))
            .unwrap_or_else(|e| panic!("reading {page}: {e}"));
        let mut open: Option<Block> = None;
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            if let Some(rest) = trimmed.strip_prefix("```") {
                match open.take() {
                    Some(b) => out.push(b),
                    None => {
                        open = Some(Block {
                            page,
                            line: i + 2,
                            lang: rest.trim().to_string(),
                            text: String::new(),
                        })
                    }
                }
            } else if let Some(b) = open.as_mut() {
                b.text.push_str(line);
                b.text.push('\n');
            }
        }
        assert!(open.is_none(), "{page}: a code block is not closed");
    }
    out
}

fn of(lang: &str) -> Vec<Block> {
    blocks().into_iter().filter(|b| b.lang == lang).collect()
}

/// Splits a block into its lifted header lines (those `is_header` accepts) and its body.
fn split(text: &str, is_header: impl Fn(&str) -> bool) -> (String, String) {
    let (mut head, mut body) = (String::new(), String::new());
    for line in text.lines() {
        let target = if is_header(line) {
            &mut head
        } else {
            &mut body
        };
        target.push_str(line);
        target.push('\n');
    }
    (head, body)
}

fn tmp() -> &'static Path {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
}

#[test]
fn readme_is_a_front_door() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= 300, "README.md has {lines} lines; keep it to 300");
    for command in [
        "cargo run --release --example tour",
        "bash .ci/test-all",
        "cargo run --release --example figures",
    ] {
        assert!(readme.contains(command), "README.md lacks `{command}`");
    }
    for lang in ["rust", "c", "csharp"] {
        assert!(
            blocks()
                .iter()
                .any(|b| b.page == "README.md" && b.lang == lang),
            "README.md has no `{lang}` quick start"
        );
    }
    // Every page the README links to exists (docs/install.md and docs/c-abi.md may come from
    // other branches; they are checked once present).
    for link in readme.split("](").skip(1) {
        let target = link.split(')').next().unwrap_or_default();
        let file = target.split('#').next().unwrap_or_default();
        if file.is_empty() || file.contains("://") {
            continue;
        }
        if matches!(file, "docs/install.md" | "docs/c-abi.md") {
            continue;
        }
        assert!(
            root().join(file).exists(),
            "README.md links to missing {file}"
        );
    }
}

#[test]
fn rust_blocks_are_doctests() {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    for page in PAGES {
        let rust = blocks()
            .iter()
            .filter(|b| b.page == page && b.lang == "rust")
            .count();
        if rust > 0 {
            let include = format!("include_str!(\"../{page}\")");
            assert!(
                lib.contains(&include),
                "{page} has {rust} rust block(s) but src/lib.rs does not `{include}` under \
                 cfg(doctest), so `cargo test --doc` would not run them"
            );
        }
    }
    // Untagged blocks would be taken for Rust by rustdoc: tag every block.
    for b in blocks() {
        assert!(
            !b.lang.is_empty(),
            "{}:{}: tag the code block with its language",
            b.page,
            b.line
        );
    }
}

#[test]
fn c_blocks_compile_and_run() {
    let blocks = of("c");
    assert!(!blocks.is_empty(), "no c blocks found");
    let lib = static_lib();
    for (k, b) in blocks.iter().enumerate() {
        let (head, body) = split(&b.text, |l| l.trim_start().starts_with("#include"));
        let src = tmp().join(format!("readme_block_{k}.c"));
        let exe = tmp().join(format!("readme_block_{k}"));
        let program = format!(
            "{head}\n/* {}:{} */\nint main(void) {{\n{body}\n    return 0;\n}}\n",
            b.page, b.line
        );
        std::fs::write(&src, program).unwrap();
        run(Command::new("cc")
            .arg("-std=c99")
            .args(STRICT)
            .arg("-I")
            .arg(root().join("include"))
            .arg(&src)
            .arg(&lib)
            .args(["-lpthread", "-ldl", "-lm", "-o"])
            .arg(&exe));
        let out = run(&mut Command::new(&exe));
        println!(
            "{}:{}: {}",
            b.page,
            b.line,
            String::from_utf8_lossy(&out.stdout).trim()
        );
    }
}

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

/// Every `.cs` file under `dir`, sorted.
fn cs_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "cs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn csharp_blocks_compile_and_run_under_mono() {
    let blocks = of("csharp");
    assert!(!blocks.is_empty(), "no csharp blocks found");
    if !(have("mcs") && have("mono")) {
        assert!(
            std::env::var_os("WF_REQUIRE_MONO").is_none(),
            "WF_REQUIRE_MONO is set but mcs/mono are not installed"
        );
        eprintln!("mcs or mono not installed: C# blocks skipped (the README's test command installs Mono)");
        return;
    }
    let lib_dir = build_lib();
    let out = tmp().join("readme_cs");
    std::fs::create_dir_all(&out).unwrap();
    let mcs = |args: &[&str]| {
        let mut cmd = Command::new("mcs");
        cmd.args(["-langversion:7.2", "-unsafe", "-warnaserror", "-nologo"])
            .args(args);
        cmd
    };
    let engine = out.join("UnityEngine.dll");
    let runtime = out.join("Wayfarer.Runtime.dll");
    run(mcs(&["-target:library", "-nowarn:1591"])
        .arg(format!("-out:{}", engine.display()))
        .args(cs_files(&root().join("tests/csharp/UnityStandIn"))));
    run(mcs(&["-target:library"])
        .arg(format!("-r:{}", engine.display()))
        .arg(format!("-out:{}", runtime.display()))
        .args(cs_files(&root().join("unity/Runtime"))));
    for (k, b) in blocks.iter().enumerate() {
        let (head, body) = split(&b.text, |l| {
            l.starts_with("using ") && !l.starts_with("using (") && l.trim_end().ends_with(';')
        });
        let src = out.join(format!("ReadmeBlock{k}.cs"));
        let exe = out.join(format!("ReadmeBlock{k}.exe"));
        let program = format!(
            "{head}\n// {}:{}\npublic static class ReadmeBlock{k}\n{{\n    public static void Main()\n    {{\n{body}\n    }}\n}}\n",
            b.page, b.line
        );
        std::fs::write(&src, program).unwrap();
        run(mcs(&["-target:exe"])
            .arg(format!("-r:{}", engine.display()))
            .arg(format!("-r:{}", runtime.display()))
            .arg(format!("-out:{}", exe.display()))
            .arg(&src));
        let ld = match std::env::var("LD_LIBRARY_PATH") {
            Ok(p) if !p.is_empty() => format!("{}:{p}", lib_dir.display()),
            _ => lib_dir.display().to_string(),
        };
        run(Command::new("mono")
            .arg("--debug")
            .arg(&exe)
            .current_dir(&out)
            .env("LD_LIBRARY_PATH", ld));
        println!("{}:{}: ran under mono", b.page, b.line);
    }
}

#[test]
fn figures_are_generated_between_markers() {
    // `cargo run --release --example figures` rewrites what lies between these markers; the
    // pages must keep them (and hand edits inside them are overwritten).
    for (page, begin, end) in [
        (
            "docs/performance.md",
            "<!-- BEGIN GENERATED by `cargo run --release --example figures`",
            "<!-- END GENERATED -->",
        ),
        (
            "README.md",
            "<!-- BEGIN GENERATED headline by `cargo run --release --example figures` -->",
            "<!-- END GENERATED headline -->",
        ),
    ] {
        let text = std::fs::read_to_string(root().join(page)).unwrap();
        let (a, b) = (text.find(begin), text.find(end));
        assert!(
            matches!((a, b), (Some(a), Some(b)) if a < b),
            "{page}: the generated markers are missing or out of order"
        );
        assert_eq!(text.matches(begin).count(), 1, "{page}: one begin marker");
        let inside = &text[a.unwrap()..b.unwrap()];
        assert!(
            inside.contains("| ---"),
            "{page}: no generated table between the markers (run the figures command)"
        );
    }
    let perf = std::fs::read_to_string(root().join("docs/performance.md")).unwrap();
    assert!(
        perf.contains("Measured on: "),
        "docs/performance.md does not say where it was measured"
    );
    assert!(root().join("examples/figures.rs").exists());
}
