#!/usr/bin/env python3
"""Writes a Unity .meta for every file and folder of the package that Unity imports and lacks one
(hidden names and folders ending in '~' are not imported). GUIDs are derived from the package name
and the path, so they are stable and unique; existing .meta files are never touched. Native plugin
binaries get PluginImporter settings for their platform even though the binaries themselves are
built (Tools~/build-plugin.sh), not committed.

    python3 unity/Tools~/add-metas.py
"""
import hashlib
import os

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PACKAGE = "com.wayfarer.motion"

# Plugin binaries (path relative to the package root) -> (editor OS/CPU, standalone platform/CPU, mobile).
PLUGINS = {
    "Plugins/Linux/x86_64/libwayfarer.so": dict(editor=("Linux", "x86_64"), standalone=("Linux64", "x86_64")),
    "Plugins/Windows/x86_64/wayfarer.dll": dict(editor=("Windows", "x86_64"), standalone=("Win64", "x86_64")),
    "Plugins/macOS/libwayfarer.dylib": dict(editor=("OSX", "AnyCPU"), standalone=("OSXUniversal", "AnyCPU")),
    "Plugins/iOS/libwayfarer.a": dict(ios=True),
    "Plugins/Android/arm64-v8a/libwayfarer.so": dict(android="ARM64"),
}

TAIL = "  userData: \n  assetBundleName: \n  assetBundleVariant: \n"


def guid(rel):
    return hashlib.md5((PACKAGE + "/" + rel).encode()).hexdigest()


def importer(rel, is_dir):
    if is_dir:
        return "folderAsset: yes\nDefaultImporter:\n  externalObjects: {}\n" + TAIL
    if rel.endswith(".cs"):
        return ("MonoImporter:\n  externalObjects: {}\n  serializedVersion: 2\n  defaultReferences: []\n"
                "  executionOrder: 0\n  icon: {instanceID: 0}\n" + TAIL)
    if rel.endswith(".asmdef"):
        return "AssemblyDefinitionImporter:\n  externalObjects: {}\n" + TAIL
    if rel == "package.json":
        return "PackageManifestImporter:\n  externalObjects: {}\n" + TAIL
    if rel.endswith((".md", ".txt", ".json")):
        return "TextScriptImporter:\n  externalObjects: {}\n" + TAIL
    return "DefaultImporter:\n  externalObjects: {}\n" + TAIL


def platform(first_key, first_value, enabled, settings):
    out = "  - first:\n      %s: %s\n    second:\n      enabled: %d\n" % (first_key, first_value, 1 if enabled else 0)
    if settings:
        out += "      settings:\n" + "".join("        %s: %s\n" % kv for kv in settings)
    else:
        out += "      settings: {}\n"
    return out


def plugin_importer(spec):
    editor = spec.get("editor")
    standalone = spec.get("standalone")
    android = spec.get("android")
    ios = spec.get("ios", False)
    targets = {"Linux64": None, "OSXUniversal": None, "Win": None, "Win64": None}
    if standalone:
        targets[standalone[0]] = standalone[1]
    excludes = [
        ("Exclude Android", 0 if android else 1),
        ("Exclude Editor", 0 if editor else 1),
        ("Exclude Linux64", 0 if targets["Linux64"] else 1),
        ("Exclude OSXUniversal", 0 if targets["OSXUniversal"] else 1),
        ("Exclude Win", 1),
        ("Exclude Win64", 0 if targets["Win64"] else 1),
        ("Exclude iOS", 0 if ios else 1),
    ]
    out = ("PluginImporter:\n  externalObjects: {}\n  serializedVersion: 2\n  iconMap: {}\n  executionOrder: {}\n"
           "  defineConstraints: []\n  isPreloaded: 0\n  isOverridable: 0\n  isExplicitlyReferenced: 0\n"
           "  validateReferences: 1\n  platformData:\n")
    out += "  - first:\n      : Any\n    second:\n      enabled: 0\n      settings:\n"
    out += "".join("        %s: %d\n" % kv for kv in excludes)
    out += platform("Android", "Android", bool(android), [("CPU", android or "None")])
    out += platform("Any", "", False, [])
    out += platform("Editor", "Editor", bool(editor), [
        ("CPU", editor[1] if editor else "AnyCPU"),
        ("DefaultValueInitialized", "true"),
        ("OS", editor[0] if editor else "AnyOS"),
    ])
    for name in ("Linux64", "OSXUniversal", "Win", "Win64"):
        out += platform("Standalone", name, bool(targets[name]), [("CPU", targets[name] or "None")])
    out += platform("iPhone", "iOS", ios, [
        ("AddToEmbeddedBinaries", "false"),
        ("CPU", "AnyCPU"),
        ("CompileFlags", ""),
        ("FrameworkDependencies", ""),
    ])
    return out + TAIL


def write_meta(rel, body):
    path = os.path.join(ROOT, rel + ".meta")
    if os.path.exists(path):
        return
    with open(path, "w") as f:
        f.write("fileFormatVersion: 2\nguid: %s\n%s" % (guid(rel), body))
    print("wrote", os.path.relpath(path, os.getcwd()))


def imported(name):
    return not name.startswith(".") and not name.endswith("~") and not name.endswith(".meta")


def main():
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and not d.endswith("~"))
        for name in dirnames:
            rel = os.path.relpath(os.path.join(dirpath, name), ROOT)
            write_meta(rel, importer(rel, True))
        for name in sorted(filenames):
            if not imported(name):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), ROOT)
            if rel in PLUGINS:
                continue
            write_meta(rel, importer(rel, False))
    for rel, spec in PLUGINS.items():
        write_meta(rel, plugin_importer(spec))


if __name__ == "__main__":
    main()
