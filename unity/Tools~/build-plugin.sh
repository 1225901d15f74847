#!/usr/bin/env bash
# Builds libwayfarer for this machine in release mode and copies it into the package's Plugins
# folder, where Unity's PluginImporter settings (the .meta next to it) pick it up.
#   bash unity/Tools~/build-plugin.sh            # host platform
#   bash unity/Tools~/build-plugin.sh --target aarch64-linux-android   # cross (toolchain needed)
# Restart the Unity Editor afterwards: it never unloads a native plugin it has loaded.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
plugins="$here/../Plugins"
target=""
if [[ "${1:-}" == "--target" ]]; then
  target="${2:?--target needs a rust target triple}"
fi

cd "$repo"
if [[ -n "$target" ]]; then
  cargo build --release --lib --target "$target"
  out="target/$target/release"
else
  cargo build --release --lib
  out="target/release"
  target="$(rustc -vV | sed -n 's/^host: //p')"
fi

copy() { mkdir -p "$(dirname "$2")"; cp "$1" "$2"; echo "installed $2"; }
case "$target" in
  x86_64-unknown-linux-gnu) copy "$out/libwayfarer.so" "$plugins/Linux/x86_64/libwayfarer.so" ;;
  x86_64-pc-windows-msvc | x86_64-pc-windows-gnu) copy "$out/wayfarer.dll" "$plugins/Windows/x86_64/wayfarer.dll" ;;
  aarch64-apple-darwin | x86_64-apple-darwin)
    # One universal binary for the Editor and players on both Mac CPUs when both slices exist.
    other=$([[ "$target" == aarch64-apple-darwin ]] && echo x86_64-apple-darwin || echo aarch64-apple-darwin)
    if [[ -f "target/$other/release/libwayfarer.dylib" ]]; then
      mkdir -p "$plugins/macOS"
      lipo -create -output "$plugins/macOS/libwayfarer.dylib" "$out/libwayfarer.dylib" "target/$other/release/libwayfarer.dylib"
      echo "installed $plugins/macOS/libwayfarer.dylib (universal)"
    else
      copy "$out/libwayfarer.dylib" "$plugins/macOS/libwayfarer.dylib"
    fi
    ;;
  aarch64-apple-ios) copy "$out/libwayfarer.a" "$plugins/iOS/libwayfarer.a" ;;
  aarch64-linux-android) copy "$out/libwayfarer.so" "$plugins/Android/arm64-v8a/libwayfarer.so" ;;
  *) echo "no Plugins/ slot for target $target" >&2; exit 1 ;;
esac
echo "Restart the Unity Editor to load the rebuilt plugin."
