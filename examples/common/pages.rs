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
