#!/usr/bin/env python3
"""Writes a Unity .meta for every file and folder of the package that Unity imports and lacks one
(hidden names and folders ending in '~' are not imported). GUIDs are derived from the package name
and the path, so they are stable and unique; existing .meta files are never touched. The Plugins/
folder is left alone: Tools~/build-plugin.sh writes each native binary together with its .meta
(from Tools~/plugin-metas/), and neither is committed.

    python3 unity/Tools~/add-metas.py
"""
import hashlib
import os

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PACKAGE = "com.wayfarer.motion"

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
        if dirpath == ROOT:
            dirnames[:] = [d for d in dirnames if d != "Plugins"]
        for name in dirnames:
            rel = os.path.relpath(os.path.join(dirpath, name), ROOT)
            write_meta(rel, importer(rel, True))
        for name in sorted(filenames):
            if not imported(name):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), ROOT)
            write_meta(rel, importer(rel, False))


if __name__ == "__main__":
    main()
