//! The `unity/` UPM package is importable: every path Unity imports has a `.meta` with a unique
//! 32-hex GUID and every `.meta` has its asset (both ways, no exceptions: the native plugins and
//! their `.meta` files are written together by `Tools~/build-plugin.sh`, never committed), each
//! of the ten plugin slots has a build row, a Rust target and a `.meta` template that enables
//! exactly its platform and CPU, `package.json` names the package, Unity version, module
//! dependencies and existing samples, and the runtime assembly allows unsafe code.

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

/// The plugin slots Unity builds for: (slot, Rust targets, file in the package, the platform lines
/// its importer enables with their CPU / OS settings). Written out here, independently of the
/// templates and the build table, so a slip in either is caught.
const SLOTS: &[(&str, &str, &str, &[&str])] = &[
    (
        "windows-x64",
        "x86_64-pc-windows-msvc",
        "Plugins/Windows/x86_64/wayfarer.dll",
        &[
            "Editor: Editor CPU=x86_64 OS=Windows",
            "Standalone: Win64 CPU=x86_64",
        ],
    ),
    (
        "windows-arm64",
        "aarch64-pc-windows-msvc",
        "Plugins/Windows/arm64/wayfarer.dll",
        &["Standalone: Win64 CPU=ARM64"],
    ),
    (
        "macos-universal",
        "x86_64-apple-darwin,aarch64-apple-darwin",
        "Plugins/macOS/libwayfarer.dylib",
        &[
            "Editor: Editor CPU=AnyCPU OS=OSX",
            "Standalone: OSXUniversal CPU=AnyCPU",
        ],
    ),
    (
        "linux-x64",
        "x86_64-unknown-linux-gnu",
        "Plugins/Linux/x86_64/libwayfarer.so",
        &[
            "Editor: Editor CPU=x86_64 OS=Linux",
            "Standalone: Linux64 CPU=x86_64",
        ],
    ),
    (
        "android-armeabi-v7a",
        "armv7-linux-androideabi",
        "Plugins/Android/armeabi-v7a/libwayfarer.so",
        &["Android: Android CPU=ARMv7"],
    ),
    (
        "android-arm64-v8a",
        "aarch64-linux-android",
        "Plugins/Android/arm64-v8a/libwayfarer.so",
        &["Android: Android CPU=ARM64"],
    ),
    (
        "android-x86_64",
        "x86_64-linux-android",
        "Plugins/Android/x86_64/libwayfarer.so",
        &["Android: Android CPU=X86_64"],
    ),
    (
        "ios-device",
        "aarch64-apple-ios",
        "Plugins/iOS/device/libwayfarer.a",
        &["iPhone: iOS CPU=ARM64"],
    ),
    (
        "ios-simulator",
        "aarch64-apple-ios-sim,x86_64-apple-ios",
        "Plugins/iOS/simulator/libwayfarer.a",
        &["iPhone: iOS CPU=X64"],
    ),
    (
        "webgl",
        "wasm32-unknown-emscripten",
        "Plugins/WebGL/libwayfarer.a",
        &["WebGL: WebGL"],
    ),
];

fn tools() -> PathBuf {
    unity_root().join("Tools~")
}

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

/// Which platforms a PluginImporter enables: the `first:` key of every `enabled: 1` entry,
/// followed by its `CPU=` and `OS=` settings when it has them (`Editor: Editor CPU=x86_64 OS=Linux`).
fn enabled_platforms(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim() != "enabled: 1" {
            continue;
        }
        // `- first:` / `  <Key>: <Value>` / `second:` / `enabled: 1` / `settings:` / `  <k>: <v>`…
        let mut entry = lines[i - 2].trim().to_string();
        for setting in lines[i + 1..]
            .iter()
            .skip(1)
            .take_while(|l| l.starts_with("        "))
        {
            if let Some((k, v)) = setting.trim().split_once(": ") {
                if k == "CPU" || k == "OS" {
                    entry.push_str(&format!(" {k}={v}"));
                }
            }
        }
        out.push(entry);
    }
    out.sort();
    out
}

/// The rows of `Tools~/plugin-slots.tsv`: (slot, targets, file).
fn slot_rows() -> Vec<(String, String, String)> {
    std::fs::read_to_string(tools().join("plugin-slots.tsv"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(
                f.len(),
                3,
                "plugin-slots.tsv row `{l}`: slot, targets, file"
            );
            (f[0].to_string(), f[1].to_string(), f[2].to_string())
        })
        .collect()
}

/// `Tools~/plugin-metas/folders.txt`: folder path -> GUID.
fn folder_guids() -> BTreeMap<String, String> {
    std::fs::read_to_string(tools().join("plugin-metas/folders.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (guid, path) = l.split_once(' ').expect("`<guid> <path>`");
            (path.to_string(), guid.to_string())
        })
        .collect()
}

#[test]
fn every_imported_path_has_a_unique_meta_and_no_meta_is_orphaned() {
    let root = unity_root();
    let (mut assets, mut metas) = (Vec::new(), Vec::new());
    walk(&root, &root, &mut assets, &mut metas);
    assert!(assets.len() > 20, "the package looks empty: {assets:?}");
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
        assert!(
            root.join(asset).exists(),
            "{meta} is orphaned: {asset} does not exist (Unity warns on every import)"
        );
    }
}

#[test]
fn no_plugin_or_plugin_meta_is_committed() {
    let out = std::process::Command::new("git")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["ls-files", "unity/Plugins", "unity/Plugins.meta"])
        .output();
    match out {
        Ok(out) if out.status.success() => {
            let listed = String::from_utf8_lossy(&out.stdout);
            assert!(
                listed.trim().is_empty(),
                "plugins and their .meta files are built, not committed: {listed}"
            );
        }
        // A source tarball without git: the walk above still checks both ways.
        _ => eprintln!("not a git checkout: committed-files check skipped"),
    }
    let ignore =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".gitignore")).unwrap();
    assert!(
        ignore.lines().any(|l| l == "/unity/Plugins/")
            && ignore.lines().any(|l| l == "/unity/Plugins.meta"),
        ".gitignore keeps built plugins (and their .meta files) out of commits"
    );
}

#[test]
fn every_slot_has_a_build_row_a_target_and_a_meta_template() {
    let rows = slot_rows();
    let want: Vec<(String, String, String)> = SLOTS
        .iter()
        .map(|(s, t, f, _)| (s.to_string(), t.to_string(), f.to_string()))
        .collect();
    assert_eq!(rows, want, "Tools~/plugin-slots.tsv rows");

    let folders = folder_guids();
    let mut guids: BTreeMap<String, String> = BTreeMap::new();
    for (path, guid) in &folders {
        let text = format!("fileFormatVersion: 2\nguid: {guid}\n");
        guid_of(path, &text);
        assert!(
            guids.insert(guid.clone(), path.clone()).is_none(),
            "{path}: guid reused"
        );
    }
    let mut templates: Vec<String> = std::fs::read_dir(tools().join("plugin-metas"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".meta"))
        .collect();
    templates.sort();
    let mut expected: Vec<String> = SLOTS.iter().map(|s| format!("{}.meta", s.0)).collect();
    expected.sort();
    assert_eq!(templates, expected, "one .meta template per slot, no other");

    for (slot, _, file, platforms) in SLOTS {
        let template = tools().join(format!("plugin-metas/{slot}.meta"));
        let text = std::fs::read_to_string(&template).unwrap();
        let guid = guid_of(slot, &text);
        if let Some(other) = guids.insert(guid.clone(), file.to_string()) {
            panic!("{slot} and {other} share the guid {guid}");
        }
        assert!(
            text.contains("\nPluginImporter:\n"),
            "{slot}: not a plugin importer"
        );
        let mut want: Vec<String> = platforms.iter().map(|p| p.to_string()).collect();
        want.sort();
        assert_eq!(enabled_platforms(&text), want, "{slot}: enabled platforms");
        // The `Any` entry excludes every platform but the slot's own.
        for (exclude, key) in [
            ("Exclude Android", "Android:"),
            ("Exclude Editor", "Editor:"),
            ("Exclude Linux64", "Standalone: Linux64"),
            ("Exclude OSXUniversal", "Standalone: OSXUniversal"),
            ("Exclude WebGL", "WebGL:"),
            ("Exclude Win64", "Standalone: Win64"),
            ("Exclude iOS", "iPhone:"),
        ] {
            let on = platforms.iter().any(|p| p.starts_with(key));
            let line = format!("        {exclude}: {}\n", if on { 0 } else { 1 });
            assert!(text.contains(&line), "{slot}: `{}`", line.trim());
        }
        // Every folder above the binary has a fixed GUID.
        for dir in Path::new(file).ancestors().skip(1) {
            let dir = dir.to_string_lossy();
            if !dir.is_empty() {
                assert!(
                    folders.contains_key(dir.as_ref()),
                    "folders.txt lacks {dir}"
                );
            }
        }
    }

    // No plugin GUID collides with a committed asset's.
    let root = unity_root();
    let (mut assets, mut metas) = (Vec::new(), Vec::new());
    walk(&root, &root, &mut assets, &mut metas);
    for meta in metas.iter().filter(|m| !m.starts_with("Plugins")) {
        let text = std::fs::read_to_string(root.join(meta)).unwrap();
        let guid = guid_of(meta, &text);
        assert!(
            !guids.contains_key(&guid),
            "{meta} reuses a plugin guid {guid}"
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
    // CrowdObstacle reads colliders (Physics); ObstacleAvoidance drives an Animator (Animation).
    // The AI module (NavMesh) stays optional, behind WAYFARER_NAVMESH.
    assert_eq!(
        manifest["dependencies"],
        serde_json::json!({
            "com.unity.modules.animation": "1.0.0",
            "com.unity.modules.physics": "1.0.0"
        })
    );
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
    assert!(root.join("Tools~/pack.sh").is_file());
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
