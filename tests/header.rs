//! The checked-in `include/wayfarer.h` must equal what cbindgen generates from `src/ffi/`.
//! Regenerate it with `WF_BLESS=1 cargo test --test header`.

use std::path::Path;

#[test]
fn header_matches_cbindgen_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(root)
        .with_config(config)
        .generate()
        .expect("cbindgen could not parse the crate")
        .write(&mut generated);
    let generated = String::from_utf8(generated).unwrap();
    let path = root.join("include/wayfarer.h");
    if std::env::var_os("WF_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current != generated {
        let line = current
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .map_or(
                current.lines().count().min(generated.lines().count()),
                |i| i,
            );
        panic!(
            "include/wayfarer.h is out of date (first difference near line {}).\n\
             Regenerate it with: WF_BLESS=1 cargo test --test header",
            line + 1
        );
    }
}
