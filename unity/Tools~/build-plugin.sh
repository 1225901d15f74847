#!/usr/bin/env bash
# Builds libwayfarer in release mode for one or more plugin slots and writes each binary into the
# package together with its .meta (Tools~/plugin-metas/<slot>.meta) and the .meta of every folder
# above it (Tools~/plugin-metas/folders.txt), so no binary ever lands without its import settings
# and no .meta is ever committed without its binary.
#
#   bash unity/Tools~/build-plugin.sh                    # the slot of this machine (e.g. linux-x64)
#   bash unity/Tools~/build-plugin.sh --slot android-arm64-v8a --slot android-x86_64
#   bash unity/Tools~/build-plugin.sh --target aarch64-linux-android   # the slot of a Rust target
#   bash unity/Tools~/build-plugin.sh --list             # every slot, its targets and file
#   bash unity/Tools~/build-plugin.sh --rust-targets SLOT # the slot's Rust targets (for rustup)
#   bash unity/Tools~/build-plugin.sh --out DIR ...      # write into DIR instead of unity/
#
# The slots are the rows of Tools~/plugin-slots.tsv. A slot with two Rust targets is one universal
# binary joined with lipo (macOS, iOS simulator). Cross targets need their toolchain: the Rust
# target (rustup target add), and for Android an NDK (ANDROID_NDK_HOME or ANDROID_NDK_LATEST_HOME;
# the linker is picked from it), for WebGL Emscripten, for Apple targets Xcode.
# Restart the Unity Editor after rebuilding a plugin it has loaded: it never unloads one.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
slots_file="$here/plugin-slots.tsv"
metas="$here/plugin-metas"
out="$repo/unity"
host="$(rustc -vV | sed -n 's/^host: //p')"
# Oldest Android API level the library links against (Unity 2019.4 supports 19 and up; NDK r24+
# starts at 21).
android_api="${WF_ANDROID_API:-21}"

die() { echo "build-plugin.sh: $*" >&2; exit 1; }

rows() { grep -v '^#' "$slots_file" | grep -v '^[[:space:]]*$'; }
row_of_slot() { rows | awk -F'\t' -v s="$1" '$1 == s'; }

wanted=()
while (($#)); do
  case "$1" in
    --list) rows | awk -F'\t' '{ printf "%-20s %-42s %s\n", $1, $2, $3 }'; exit 0 ;;
    --rust-targets)
      row="$(row_of_slot "${2:?--rust-targets needs a slot name}")"
      [[ -n "$row" ]] || die "unknown slot $2 (see --list)"
      echo "$row" | awk -F'\t' '{ gsub(",", " ", $2); print $2 }'
      exit 0 ;;
    --slot) wanted+=("${2:?--slot needs a slot name (see --list)}"); shift 2 ;;
    --target)
      t="${2:?--target needs a Rust target triple}"
      s="$(rows | awk -F'\t' -v t="$t" '{ n = split($2, ts, ","); for (i = 1; i <= n; i++) if (ts[i] == t) print $1 }')"
      [[ -n "$s" ]] || die "no plugin slot builds the Rust target $t (see --list)"
      wanted+=("$s"); shift 2 ;;
    --out) out="$(mkdir -p "${2:?--out needs a directory}" && cd "$2" && pwd)"; shift 2 ;;
    -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
done
if ((${#wanted[@]} == 0)); then
  s="$(rows | awk -F'\t' -v t="$host" '$2 == t { print $1 }')"
  [[ -n "$s" ]] || die "this machine ($host) has no plugin slot of its own; pick one with --slot (see --list)"
  wanted=("$s")
fi

# Points cargo at the NDK's clang for an Android target, unless a linker is already configured.
android_linker() {
  local target="$1" var ndk clang_target
  var="CARGO_TARGET_$(echo "$target" | tr 'a-z-' 'A-Z_')_LINKER"
  [[ -n "${!var:-}" ]] && return 0
  ndk="${ANDROID_NDK_HOME:-${ANDROID_NDK_LATEST_HOME:-}}"
  [[ -n "$ndk" ]] || die "$target needs the Android NDK: set ANDROID_NDK_HOME (or $var)"
  clang_target="$target"
  [[ "$target" == armv7-linux-androideabi ]] && clang_target=armv7a-linux-androideabi
  export "$var=$(echo "$ndk"/toolchains/llvm/prebuilt/*/bin/"$clang_target$android_api"-clang)"
}

# Builds one Rust target and prints the path of the artifact named like the slot's file.
build_target() {
  local target="$1" file="$2"
  case "$target" in *-android*) android_linker "$target" ;; esac
  if [[ "$target" == "$host" ]]; then
    # The host build shares target/release with the tests (no second compile).
    cargo build --release --lib --quiet >&2
    echo "$target_dir/release/$file"
  else
    # Only the crate type the slot ships: a WebGL or iOS static library needs no linker, and
    # building the cdylib too would (Emscripten's emcc for WebGL).
    local kind=cdylib
    [[ "$file" == *.a ]] && kind=staticlib
    cargo rustc --release --lib --quiet --crate-type "$kind" --target "$target" >&2
    echo "$target_dir/$target/release/$file"
  fi
}

# Writes the .meta of every folder from Plugins/ down to the one holding the slot's file.
folder_metas() {
  local dir="$1" guid
  while [[ "$dir" != . && -n "$dir" ]]; do
    guid="$(awk -v p="$dir" '$2 == p { print $1 }' "$metas/folders.txt")"
    [[ -n "$guid" ]] || die "no folder GUID for $dir in plugin-metas/folders.txt"
    printf 'fileFormatVersion: 2\nguid: %s\nfolderAsset: yes\nDefaultImporter:\n  externalObjects: {}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n' \
      "$guid" >"$out/$dir.meta"
    dir="$(dirname "$dir")"
  done
}

cd "$repo"
target_dir="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
for slot in "${wanted[@]}"; do
  row="$(row_of_slot "$slot")"
  [[ -n "$row" ]] || die "unknown slot $slot (see --list)"
  IFS=$'\t' read -r _ targets path <<<"$row"
  file="$(basename "$path")"
  [[ -f "$metas/$slot.meta" ]] || die "no .meta template plugin-metas/$slot.meta"
  IFS=, read -r -a triples <<<"$targets"
  built=()
  for t in "${triples[@]}"; do built+=("$(build_target "$t" "$file")"); done
  mkdir -p "$out/$(dirname "$path")"
  if ((${#built[@]} > 1)); then
    lipo -create -output "$out/$path" "${built[@]}"
  else
    cp "${built[0]}" "$out/$path"
  fi
  cp "$metas/$slot.meta" "$out/$path.meta"
  folder_metas "$(dirname "$path")"
  echo "$slot: $out/$path (+ .meta)"
done
