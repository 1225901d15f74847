//! Command-line arguments shared by the examples.

/// The `i`-th command-line argument as a whole number, or `default` when it is missing
/// (panics on one that is not a whole number).
pub fn arg(i: usize, default: usize) -> usize {
    std::env::args()
        .nth(i)
        .map(|s| s.parse().expect("a whole number"))
        .unwrap_or(default)
}
