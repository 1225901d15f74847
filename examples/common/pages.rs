//! Writing measured figures into the project's pages, between generated markers.

use std::path::Path;

/// Replaces the text from `begin` to the first `end` after it (both markers included) in
/// `file` with `text` (which carries the markers again).
pub fn replace_between(file: &Path, begin: &str, end: &str, text: &str) -> Result<(), String> {
    let page = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let a = page.find(begin);
    let b = a.and_then(|a| page[a..].find(end).map(|b| a + b));
    let (Some(a), Some(b)) = (a, b) else {
        return Err(format!("{} lacks the generated markers", file.display()));
    };
    let new = format!("{}{text}{}", &page[..a], &page[b + end.len()..]);
    std::fs::write(file, new).map_err(|e| format!("{}: {e}", file.display()))?;
    eprintln!("wrote {}", file.display());
    Ok(())
}

/// An integer with thin groups of three digits ("100 000"), as the pages write numbers.
pub fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// The CPU's model name (from `/proc/cpuinfo`; "unknown CPU" elsewhere) and the logical CPUs.
pub fn cpu() -> (String, usize) {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split(':').nth(1))
        .map_or("unknown CPU".to_string(), |m| m.trim().to_string());
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    (model, cpus)
}
