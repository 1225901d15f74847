//! The wayfarer tour: runs each feature on a built-in scene and writes SVG pictures to
//! `target/tour/`. Run with `cargo run --release --example tour`.

mod crowd;
mod curves;
mod svg;
mod timeline;

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/tour");
    std::fs::create_dir_all(&out)?;
    println!(
        "wayfarer {} tour -> {}",
        env!("CARGO_PKG_VERSION"),
        out.display()
    );
    curves::run(&out)?;
    timeline::run(&out)?;
    crowd::run(&out)?;
    Ok(())
}
