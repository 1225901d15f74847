//! The package tarball (`unity/Tools~/pack.sh`) installs as Unity's "Add package from tarball…"
//! expects: everything under `package/`, a `package.json` that follows Unity's manifest rules,
//! every imported path with its `.meta` and every `.meta` with its asset, GUIDs unique and the same
//! in every build (the tarball is reproducible byte for byte), the Linux plugin's import settings
//! from its template, and no build tooling (`Tools~`). Then the packed C# is compiled with Mono's
//! `mcs` and loads the packed Linux library under `mono`, as the Editor would. The install routes
//! of docs/install.md that need no Editor are followed too: the tarball's plugins unpacked into a
//! project's `Assets/` (git URL route) and `Packages/com.wayfarer.motion` linked to `unity/`
//! (embedded route).
//!
//! Needs `tar`, and `mcs` + `mono` for the load check (skipped without them, unless `CI` is set).

use std::collections::BTreeMap;
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
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn tarball_name() -> String {
    format!("com.wayfarer.motion-{}.tgz", env!("CARGO_PKG_VERSION"))
}

/// Packs twice into separate folders (the second build reuses the compiled library) and unpacks
/// the first; returns the unpacked `package/` folder.
fn unpacked() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("unity_tarball");
        let _ = std::fs::remove_dir_all(&base);
        let mut tarballs = Vec::new();
        for build in ["a", "b"] {
            let out = base.join(build);
            let log = run(Command::new("bash")
                .arg(root().join("unity/Tools~/pack.sh"))
                .arg("--out")
                .arg(&out));
            let tgz = out.join(tarball_name());
            assert!(tgz.is_file(), "pack.sh wrote no {}:\n{log}", tgz.display());
            tarballs.push(std::fs::read(&tgz).unwrap());
            println!("{build}: {log}");
        }
        assert!(
            tarballs[0] == tarballs[1],
            "two builds of the tarball differ: GUIDs, contents or time stamps are not stable"
        );
        let dir = base.join("unpacked");
        std::fs::create_dir_all(&dir).unwrap();
        run(Command::new("tar")
            .arg("xzf")
            .arg(base.join("a").join(tarball_name()))
            .arg("-C")
            .arg(&dir));
        let entries: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            entries,
            ["package"],
            "the tarball holds package/ at its root"
        );
        dir.join("package")
    })
}

/// Every path under `dir` (relative to `root`), files and folders, sorted.
fn all_paths(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let rel = entry
            .path()
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        out.push(rel);
        if entry.file_type().unwrap().is_dir() {
            all_paths(root, &entry.path(), out);
        }
    }
    out.sort();
}

/// Unity imports a path unless one of its names is hidden or ends in `~`.
fn imported(rel: &str) -> bool {
    rel.split('/')
        .all(|n| !n.starts_with('.') && !n.ends_with('~'))
}

fn guid_of(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix("guid: "))
        .map(|g| g.trim().to_string())
}

#[test]
fn tarball_every_asset_has_its_meta_and_every_meta_its_asset_with_stable_unique_guids() {
    let pkg = unpacked();
    let mut paths = Vec::new();
    all_paths(pkg, pkg, &mut paths);
    assert!(
        !paths.iter().any(|p| p.starts_with("Tools~")),
        "build tooling stays out of the tarball"
    );
    assert!(!paths
        .iter()
        .any(|p| p.split('/').any(|n| n.starts_with('.'))));
    let (metas, assets): (Vec<&String>, Vec<&String>) = paths
        .iter()
        .filter(|p| imported(p))
        .partition(|p| p.ends_with(".meta"));
    assert!(assets.len() > 40, "the package looks empty: {assets:?}");
    for asset in &assets {
        assert!(
            pkg.join(format!("{asset}.meta")).is_file(),
            "{asset} has no .meta"
        );
    }
    let mut guids: BTreeMap<String, String> = BTreeMap::new();
    for meta in &metas {
        assert!(
            pkg.join(meta.strip_suffix(".meta").unwrap()).exists(),
            "{meta} is orphaned"
        );
        let text = std::fs::read_to_string(pkg.join(meta)).unwrap();
        let guid = guid_of(&text).unwrap_or_else(|| panic!("{meta}: no guid"));
        assert!(guid.len() == 32 && guid.bytes().all(|b| b.is_ascii_hexdigit()));
        if let Some(other) = guids.insert(guid.clone(), meta.to_string()) {
            panic!("{meta} and {other} share the guid {guid}");
        }
    }

    // Plugin GUIDs are the fixed ones of the templates (stable across builds and releases), and
    // every committed asset keeps its committed .meta.
    let tools = root().join("unity/Tools~/plugin-metas");
    let meta = "Plugins/Linux/x86_64/libwayfarer.so.meta";
    assert_eq!(
        std::fs::read_to_string(pkg.join(meta)).unwrap(),
        std::fs::read_to_string(tools.join("linux-x64.meta")).unwrap(),
        "{meta} is the linux-x64 template"
    );
    let folders = std::fs::read_to_string(tools.join("folders.txt")).unwrap();
    for folder in ["Plugins", "Plugins/Linux", "Plugins/Linux/x86_64"] {
        let text = std::fs::read_to_string(pkg.join(format!("{folder}.meta"))).unwrap();
        let guid = guid_of(&text).unwrap();
        assert!(
            folders.lines().any(|l| l == format!("{guid} {folder}")),
            "{folder}.meta: guid {guid} is not the fixed one"
        );
        assert!(text.contains("folderAsset: yes\n"));
    }
    for meta in metas.iter().filter(|m| !m.starts_with("Plugins")) {
        assert_eq!(
            std::fs::read(pkg.join(meta)).unwrap(),
            std::fs::read(root().join("unity").join(meta)).unwrap(),
            "{meta} differs from the committed one"
        );
    }
}

#[test]
fn tarball_linux_plugin_is_a_shared_library_enabled_for_the_linux_editor_and_player() {
    let pkg = unpacked();
    let lib = pkg.join("Plugins/Linux/x86_64/libwayfarer.so");
    let bytes = std::fs::read(&lib).unwrap();
    assert_eq!(&bytes[..4], b"\x7fELF", "an ELF file");
    assert_eq!(bytes[4], 2, "64-bit");
    assert_eq!(u16::from_le_bytes([bytes[16], bytes[17]]), 3, "ET_DYN");
    assert_eq!(u16::from_le_bytes([bytes[18], bytes[19]]), 62, "x86-64");
    let text =
        std::fs::read_to_string(pkg.join("Plugins/Linux/x86_64/libwayfarer.so.meta")).unwrap();
    let enabled: Vec<&str> = text
        .split("  - first:\n")
        .skip(1)
        .filter(|e| e.contains("      enabled: 1\n"))
        .collect();
    assert_eq!(enabled.len(), 2, "exactly the Editor and the Linux player");
    assert!(enabled.iter().any(|e| e.contains("Editor: Editor")
        && e.contains("CPU: x86_64")
        && e.contains("OS: Linux")));
    assert!(enabled
        .iter()
        .any(|e| e.contains("Standalone: Linux64") && e.contains("CPU: x86_64")));
}

/// Unity's package-name rule: lowercase letters, digits, `-`, `_` and `.`, at most 214 characters,
/// in reverse-domain form.
fn valid_package_name(name: &str) -> bool {
    name.len() <= 214
        && name.split('.').count() >= 2
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_.".contains(&b))
        && name.split('.').all(|part| !part.is_empty())
}

/// `MAJOR.MINOR.PATCH` with an optional `-prerelease`.
fn semver(v: &str) -> bool {
    let core = v.split_once('-').map_or(v, |(c, _)| c);
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

#[test]
fn tarball_package_json_follows_unitys_manifest_rules() {
    let pkg = unpacked();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(pkg.join("package.json")).unwrap())
            .expect("package.json is JSON");
    let name = manifest["name"].as_str().expect("name");
    assert!(valid_package_name(name), "name `{name}`");
    assert_eq!(name, "com.wayfarer.motion");
    let version = manifest["version"].as_str().expect("version");
    assert!(semver(version), "version `{version}`");
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    let unity = manifest["unity"].as_str().expect("unity");
    let (major, minor) = unity.split_once('.').expect("unity is `YYYY.N`");
    assert!(major.len() == 4 && major.bytes().all(|b| b.is_ascii_digit()));
    assert!(!minor.is_empty() && minor.bytes().all(|b| b.is_ascii_digit()));
    for key in ["displayName", "description"] {
        assert!(
            manifest[key].as_str().is_some_and(|s| !s.is_empty()),
            "{key}"
        );
    }
    let deps = manifest["dependencies"].as_object().expect("dependencies");
    for (dep, v) in deps {
        assert!(valid_package_name(dep), "dependency `{dep}`");
        assert!(v.as_str().is_some_and(semver), "{dep}: version {v}");
    }
    for sample in manifest["samples"].as_array().expect("samples") {
        let path = sample["path"].as_str().unwrap();
        assert!(pkg.join(path).is_dir(), "sample {path} is packed");
    }
    let size = std::fs::metadata(
        Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("unity_tarball/a")
            .join(tarball_name()),
    )
    .unwrap()
    .len();
    println!("tarball: {size} bytes");
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn tarball_csharp_loads_the_packed_linux_library_under_mono() {
    if !have("mcs") || !have("mono") {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but mcs/mono are not installed"
        );
        eprintln!("mcs/mono not installed: load check skipped (.ci/test-all installs them)");
        return;
    }
    let pkg = unpacked();
    let out = pkg.parent().unwrap().join("mono");
    std::fs::create_dir_all(&out).unwrap();
    let mcs = |args: &[&str], sources: &[PathBuf]| {
        run(Command::new("mcs")
            .args(["-langversion:7.2", "-unsafe", "-warnaserror", "-nologo"])
            .args(args)
            .args(sources))
    };
    let cs_in = |dir: &Path| -> Vec<PathBuf> {
        let mut all = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "cs") {
                    all.push(p);
                }
            }
        }
        all.sort();
        all
    };
    let engine = out.join("UnityEngine.dll");
    let runtime = out.join("Wayfarer.Runtime.dll");
    let exe = out.join("LoadCheck.exe");
    mcs(
        &[
            "-target:library",
            "-nowarn:1591",
            &format!("-out:{}", engine.display()),
        ],
        &cs_in(&root().join("tests/csharp/UnityStandIn")),
    );
    mcs(
        &[
            "-target:library",
            &format!("-r:{}", engine.display()),
            &format!("-out:{}", runtime.display()),
        ],
        &cs_in(&pkg.join("Runtime")),
    );
    mcs(
        &[
            "-target:exe",
            &format!("-r:{}", engine.display()),
            &format!("-r:{}", runtime.display()),
            &format!("-out:{}", exe.display()),
        ],
        &[root().join("tests/csharp/PackageLoad/LoadCheck.cs")],
    );
    let plugin_dir = pkg.join("Plugins/Linux/x86_64");
    let log = run(Command::new("mono")
        .arg(&exe)
        .current_dir(&out)
        .env("LD_LIBRARY_PATH", &plugin_dir));
    let expected = format!("version {}", env!("CARGO_PKG_VERSION"));
    assert!(log.lines().any(|l| l == expected), "{expected}:\n{log}");
    assert!(
        log.lines().any(|l| l == "middle 1 1 0"),
        "the packed library sampled the curve:\n{log}"
    );
    let packed = plugin_dir.join("libwayfarer.so").canonicalize().unwrap();
    let loaded = format!("loaded {}", packed.display());
    assert!(
        log.lines().any(|l| l == loaded),
        "mono mapped the packed library {}:\n{log}",
        packed.display()
    );
}

/// docs/install.md, git URL route: the tarball's plugins unpack into a project's `Assets/` with
/// every `.meta`, as the documented `tar` command writes them.
#[test]
fn tarball_plugins_unpack_into_assets_for_a_git_install() {
    let pkg = unpacked();
    let assets = pkg.parent().unwrap().join("git-project/Assets/Wayfarer");
    let _ = std::fs::remove_dir_all(&assets);
    std::fs::create_dir_all(&assets).unwrap();
    run(Command::new("tar")
        .arg("xzf")
        .arg(
            Path::new(env!("CARGO_TARGET_TMPDIR"))
                .join("unity_tarball/a")
                .join(tarball_name()),
        )
        .arg("-C")
        .arg(&assets)
        .args([
            "--strip-components=1",
            "package/Plugins",
            "package/Plugins.meta",
        ]));
    let mut paths = Vec::new();
    all_paths(&assets, &assets, &mut paths);
    assert_eq!(
        paths,
        [
            "Plugins",
            "Plugins.meta",
            "Plugins/Linux",
            "Plugins/Linux.meta",
            "Plugins/Linux/x86_64",
            "Plugins/Linux/x86_64.meta",
            "Plugins/Linux/x86_64/libwayfarer.so",
            "Plugins/Linux/x86_64/libwayfarer.so.meta",
        ]
    );
    assert_eq!(
        std::fs::read(assets.join("Plugins/Linux/x86_64/libwayfarer.so")).unwrap(),
        std::fs::read(pkg.join("Plugins/Linux/x86_64/libwayfarer.so")).unwrap()
    );
}

/// docs/install.md, embedded route: `Packages/com.wayfarer.motion` linked to `unity/` is a
/// package folder Unity recognizes (its `package.json` at the top, named like the folder).
#[cfg(unix)]
#[test]
fn tarball_embedded_link_is_a_package_folder() {
    let project = Path::new(env!("CARGO_TARGET_TMPDIR")).join("embedded-project");
    let _ = std::fs::remove_dir_all(&project);
    std::fs::create_dir_all(project.join("Packages")).unwrap();
    let link = project.join("Packages/com.wayfarer.motion");
    std::os::unix::fs::symlink(root().join("unity"), &link).unwrap();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(link.join("package.json")).unwrap()).unwrap();
    assert_eq!(
        manifest["name"], "com.wayfarer.motion",
        "folder and package name agree"
    );
    // Cloning the repository itself into Packages/ would not work: no package.json at its top.
    assert!(!root().join("package.json").exists());
}
