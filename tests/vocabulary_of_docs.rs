//! Keeps one word out of the project: it names nothing a user of the library has, so no tracked
//! text file (code, docs, tests, scripts, data) may contain it, in any case.
//!
//! The word is assembled from pieces below, so this file does not trip its own check.

use std::path::Path;
use std::process::Command;

/// The forbidden word, lower case, built at run time.
fn word() -> String {
    ["ses", "si", "on"].concat()
}

#[test]
fn no_tracked_text_file_contains_the_word() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = match Command::new("git")
        .current_dir(root)
        .args(["ls-files", "-z"])
        .output()
    {
        Ok(out) if out.status.success() => out,
        Ok(out) => {
            eprintln!(
                "skipped: `git ls-files` failed (not a git checkout?): {}",
                String::from_utf8_lossy(&out.stderr).trim()
            );
            return;
        }
        Err(e) => {
            eprintln!("skipped: git is not available ({e})");
            return;
        }
    };
    let word = word();
    let mut hits = Vec::new();
    let mut checked = 0usize;
    for name in out.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = String::from_utf8_lossy(name);
        if name.to_lowercase().contains(&word) {
            hits.push(format!("{name} (its path)"));
        }
        let Ok(bytes) = std::fs::read(root.join(name.as_ref())) else {
            continue; // listed but deleted in the working tree
        };
        // Binary files (a NUL byte early on) are not text.
        if bytes.iter().take(8192).any(|&b| b == 0) {
            continue;
        }
        checked += 1;
        let text = String::from_utf8_lossy(&bytes).to_lowercase();
        for (i, line) in text.lines().enumerate() {
            if line.contains(&word) {
                hits.push(format!("{name}:{}", i + 1));
            }
        }
    }
    assert!(checked > 0, "git ls-files listed no readable text file");
    assert!(
        hits.is_empty(),
        "the word \"{word}\" appears in tracked files (reword it):\n{}",
        hits.join("\n")
    );
}
