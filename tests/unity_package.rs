//! The `unity/` UPM package is importable: every path Unity imports has a `.meta` with a unique
//! 32-hex GUID, no `.meta` is orphaned (except the native plugins', whose binaries are built, not
//! committed), `package.json` names the package, Unity version and existing samples, the
//! runtime assembly allows unsafe code, and each plugin's importer targets its platform.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn unity_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("unity")
}

/// Unity skips hidden names and folders ending in `~` (and everything inside them).
fn imported(name: &str) -> bool {
    !name.starts_with('.') && !name.ends_with('~')
}

/// Every imported file and folder under `dir`, and every `.meta` there, relative to the package.
fn walk(root: &Path, dir: &Path, assets: &mut Vec<String>, metas: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap())
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !imported(&name) {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if name.ends_with(".meta") {
            metas.push(rel);
            continue;
        }
        assets.push(rel);
        if entry.file_type().unwrap().is_dir() {
            walk(root, &entry.path(), assets, metas);
        }
    }
}

/// Plugin binaries: (path in the package, the platform line its importer must enable).
const PLUGINS: &[(&str, &[&str])] = &[
    (
        "Plugins/Linux/x86_64/libwayfarer.so",
        &["Standalone: Linux64", "Editor: Editor"],
    ),
    (
        "Plugins/Windows/x86_64/wayfarer.dll",
        &["Standalone: Win64", "Editor: Editor"],
    ),
    (
        "Plugins/macOS/libwayfarer.dylib",
        &["Standalone: OSXUniversal", "Editor: Editor"],
    ),
    ("Plugins/iOS/libwayfarer.a", &["iPhone: iOS"]),
    (
        "Plugins/Android/arm64-v8a/libwayfarer.so",
        &["Android: Android"],
    ),
];

fn guid_of(meta: &str, text: &str) -> String {
    let guid = text
        .lines()
        .find_map(|l| l.strip_prefix("guid: "))
        .unwrap_or_else(|| panic!("{meta} has no guid line"))
        .trim()
        .to_string();
    assert!(
        guid.len() == 32
            && guid
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()),
        "{meta}: guid `{guid}` is not 32 lowercase hex digits"
    );
    assert!(
        text.starts_with("fileFormatVersion: 2\n"),
        "{meta}: not a Unity .meta"
    );
    guid
}

/// Which platforms a PluginImporter enables: the `first:` key of every `enabled: 1` entry.
fn enabled_platforms(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim() == "enabled: 1" {
            // `- first:` / `  <Key>: <Value>` / `second:` / `enabled: 1`
            out.push(lines[i - 2].trim().to_string());
        }
    }
    out
}

#[test]
fn every_imported_path_has_a_unique_meta_and_no_meta_is_orphaned() {
    let root = unity_root();
    let (mut assets, mut metas) = (Vec::new(), Vec::new());
    walk(&root, &root, &mut assets, &mut metas);
    assert!(assets.len() > 20, "the package looks empty: {assets:?}");
    let plugin_paths: Vec<&str> = PLUGINS.iter().map(|p| p.0).collect();

    let mut missing = Vec::new();
    for asset in &assets {
        if !root.join(format!("{asset}.meta")).is_file() {
            missing.push(asset.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "Unity ignores these files in an immutable package because they have no .meta \
         (run python3 unity/Tools~/add-metas.py): {missing:?}"
    );

    let mut guids: BTreeMap<String, String> = BTreeMap::new();
    for meta in &metas {
        let text = std::fs::read_to_string(root.join(meta)).unwrap();
        let guid = guid_of(meta, &text);
        if let Some(other) = guids.insert(guid.clone(), meta.clone()) {
            panic!("{meta} and {other} share the guid {guid}");
        }
        let asset = meta.strip_suffix(".meta").unwrap();
        if !root.join(asset).exists() {
            assert!(
                plugin_paths.contains(&asset) && text.contains("\nPluginImporter:\n"),
                "{meta} is orphaned: {asset} does not exist"
            );
        }
    }
}

#[test]
fn plugin_importers_target_their_platforms() {
    let root = unity_root();
    for (path, expected) in PLUGINS {
        let meta = root.join(format!("{path}.meta"));
        let text =
            std::fs::read_to_string(&meta).unwrap_or_else(|e| panic!("{}: {e}", meta.display()));
        assert!(
            text.contains("\nPluginImporter:\n"),
            "{path}: not a plugin importer"
        );
        let mut enabled = enabled_platforms(&text);
        enabled.sort();
        let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(enabled, want, "{path}: enabled platforms");
        // The folder holding the binary is committed (so its folder .meta is not orphaned).
        let folder = root.join(path).parent().unwrap().to_path_buf();
        assert!(folder.is_dir(), "{} missing", folder.display());
    }
    // The host binary, when built and installed, is gitignored rather than committed.
    let ignore =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".gitignore")).unwrap();
    for ext in ["so", "dll", "dylib", "a"] {
        assert!(
            ignore.contains(&format!("/unity/Plugins/**/*.{ext}")),
            ".gitignore must ignore built *.{ext} plugins"
        );
    }
}

#[test]
fn package_manifest_and_assembly_definition() {
    let root = unity_root();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("package.json")).unwrap())
            .expect("package.json is JSON");
    assert_eq!(manifest["name"], "com.wayfarer.motion");
    assert_eq!(manifest["unity"], "2019.4");
    assert!(manifest["description"]
        .as_str()
        .is_some_and(|d| d.len() > 40));
    let version = manifest["version"].as_str().expect("version");
    assert_eq!(
        version,
        env!("CARGO_PKG_VERSION"),
        "package version follows the crate"
    );
    let samples = manifest["samples"].as_array().expect("samples");
    assert!(samples.len() >= 4);
    for s in samples {
        let path = s["path"].as_str().expect("sample path");
        assert!(path.starts_with("Samples~/"), "{path}");
        let dir = root.join(path);
        assert!(dir.is_dir(), "{path} does not exist");
        let has_script = std::fs::read_dir(&dir)
            .unwrap()
            .any(|e| e.unwrap().path().extension().is_some_and(|x| x == "cs"));
        assert!(
            has_script && dir.join("README.md").is_file(),
            "{path}: script and README"
        );
    }

    let asmdef: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("Runtime/Wayfarer.Runtime.asmdef")).unwrap(),
    )
    .expect("asmdef is JSON");
    assert_eq!(asmdef["name"], "Wayfarer.Runtime");
    assert_eq!(asmdef["allowUnsafeCode"], true);
    assert!(
        asmdef["versionDefines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["define"] == "WAYFARER_MATHEMATICS"),
        "WAYFARER_MATHEMATICS comes from com.unity.mathematics being installed"
    );
    assert!(
        asmdef["versionDefines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["name"] == "com.unity.modules.ai" && d["define"] == "WAYFARER_NAVMESH"),
        "WAYFARER_NAVMESH (the NavMesh route) comes from the AI module being enabled"
    );
    let editor: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("Editor/Wayfarer.Editor.asmdef")).unwrap(),
    )
    .expect("editor asmdef is JSON");
    assert_eq!(editor["includePlatforms"], serde_json::json!(["Editor"]));
    assert_eq!(
        editor["references"],
        serde_json::json!(["Wayfarer.Runtime"])
    );
    assert!(root.join("Documentation~").is_dir());
    assert!(root.join("Tools~/build-plugin.sh").is_file());
}

#[test]
fn scripts_use_the_mono_importer() {
    let root = unity_root();
    let (mut assets, mut metas) = (Vec::new(), Vec::new());
    walk(&root, &root, &mut assets, &mut metas);
    let scripts: Vec<&String> = assets.iter().filter(|a| a.ends_with(".cs")).collect();
    assert!(scripts.len() > 10);
    for s in scripts {
        let text = std::fs::read_to_string(root.join(format!("{s}.meta"))).unwrap();
        assert!(
            text.contains("\nMonoImporter:\n"),
            "{s}.meta: scripts use MonoImporter"
        );
    }
}
