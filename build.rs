//! Gives the Linux shared library the soname of an installed C library, `libwayfarer.so.<major>`,
//! so programs linked against an installed copy (see `packaging/install-c.sh`) record the
//! versioned name and keep working when a compatible release replaces it. Android and the other
//! targets load the library by path and are left as they are.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap();
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libwayfarer.so.{major}");
    }
}
