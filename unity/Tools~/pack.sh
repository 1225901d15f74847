#!/usr/bin/env bash
# Assembles com.wayfarer.motion-<version>.tgz, the file Unity's Package Manager installs with
# "Add package from tarball…": the package under package/ at the root (npm's layout), with the
# native plugins of every slot at hand, each beside its .meta.
#
#   bash unity/Tools~/pack.sh                           # this machine's slot, built now
#   bash unity/Tools~/pack.sh --prebuilt DIR [...]      # also the slots built elsewhere (a tree
#                                                       # holding Plugins/…, as build-plugin.sh
#                                                       # --out DIR writes it)
#   bash unity/Tools~/pack.sh --no-build --prebuilt DIR # only prebuilt slots (the release job)
#   bash unity/Tools~/pack.sh --out DIR                 # where the .tgz goes (default target/unity-package)
#
# Tools~/ (these scripts) stays out of the tarball. Every file and folder Unity imports must have
# its .meta and every .meta its asset, or the script fails. Output is byte-for-byte reproducible:
# sorted entries, owner 0, fixed modes, every time stamp SOURCE_DATE_EPOCH (default: the last
# commit's time).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
package_src="$(cd "$here/.." && pwd)"
repo="$(cd "$package_src/.." && pwd)"
out="$repo/target/unity-package"
build=1
prebuilt=()
die() { echo "pack.sh: $*" >&2; exit 1; }
while (($#)); do
  case "$1" in
    --prebuilt) prebuilt+=("$(cd "${2:?--prebuilt needs a directory}" && pwd)"); shift 2 ;;
    --no-build) build=0; shift ;;
    --out) out="$(mkdir -p "${2:?--out needs a directory}" && cd "$2" && pwd)"; shift 2 ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
done

version="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$package_src/package.json" | head -1)"
[[ -n "$version" ]] || die "no version in package.json"
name=com.wayfarer.motion
stage="$out/stage"
rm -rf "$stage"
mkdir -p "$stage/package"

# The package as committed, without the plugins built in place and without Tools~.
(cd "$package_src" && find . -mindepth 1 -maxdepth 1 \
  ! -name '.*' ! -name 'Tools~' ! -name 'Plugins' ! -name 'Plugins.meta' -print0 |
  xargs -0 -I{} cp -R {} "$stage/package/")
find "$stage/package" -name '.*' -prune -exec rm -rf {} +

if ((build)); then
  bash "$here/build-plugin.sh" --out "$stage/package"
fi
for dir in "${prebuilt[@]}"; do
  [[ -d "$dir/Plugins" ]] || die "$dir holds no Plugins/ folder"
  cp -R "$dir/Plugins" "$stage/package/"
  find "$dir" -maxdepth 1 -name 'Plugins.meta' -exec cp {} "$stage/package/" \;
done

# Unity imports every name that is not hidden and not ending in '~'; each needs its .meta.
bad=0
while IFS= read -r -d '' p; do
  rel="${p#"$stage/package/"}"
  case "$rel" in *~ | *~/* | .* | */.*) continue ;; esac
  if [[ "$rel" == *.meta ]]; then
    [[ -e "${p%.meta}" ]] || { echo "orphan .meta: $rel" >&2; bad=1; }
  else
    [[ -f "$p.meta" ]] || { echo "no .meta for: $rel" >&2; bad=1; }
  fi
done < <(find "$stage/package" -mindepth 1 -print0)
((bad == 0)) || die "the package would not import cleanly"

epoch="${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || echo 0)}"
tgz="$out/$name-$version.tgz"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
  --mode='u+rwX,go+rX,go-w' -C "$stage" -cf - package | gzip -n -9 >"$tgz"

slots="$(cd "$stage/package" && find Plugins -type f ! -name '*.meta' 2>/dev/null | LC_ALL=C sort | tr '\n' ' ')"
echo "plugins: ${slots:-none}"
echo "$tgz ($(wc -c <"$tgz") bytes)"
