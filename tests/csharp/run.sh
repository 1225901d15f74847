#!/usr/bin/env bash
# Builds the release library, compiles the Unity package's C# with Mono's mcs (C# 7.2, unsafe,
# warnings as errors) against the UnityEngine stand-in — once as plain .NET and once with Unity's
# defines (UNITY_2019_4_OR_NEWER, WAYFARER_MATHEMATICS) — compiles the package samples, then runs
# the runtime tests under mono against the real libwayfarer.so.
#   bash tests/csharp/run.sh [name-filter...]
# Set WF_BINDINGS_CS=<file> to compile against another NativeMethods.g.cs (a draft header's).
set -euo pipefail
cd "$(dirname "$0")/../.."
target_dir="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
out="$target_dir/csharp"
lib="$target_dir/release"
mkdir -p "$out/plain"

cargo build --release --lib --quiet

MCS=(mcs -langversion:7.2 -unsafe -warnaserror -nologo -debug)
runtime=()
while IFS= read -r f; do runtime+=("$f"); done < <(find unity/Runtime -name '*.cs' | LC_ALL=C sort)
if [[ -n "${WF_BINDINGS_CS:-}" ]]; then
  filtered=()
  for f in "${runtime[@]}"; do [[ "$f" == */NativeMethods.g.cs ]] || filtered+=("$f"); done
  runtime=("${filtered[@]}" "$WF_BINDINGS_CS")
fi

echo "== mcs: UnityEngine stand-in"
"${MCS[@]}" -target:library -nowarn:1591 -out:"$out/UnityEngine.dll" tests/csharp/UnityStandIn/*.cs
echo "== mcs: runtime as plain .NET (no Unity defines)"
"${MCS[@]}" -target:library -r:"$out/UnityEngine.dll" -out:"$out/plain/Wayfarer.Runtime.dll" "${runtime[@]}"
# The tested build: Unity's defines on, so the NativeArray / Unity.Mathematics overloads are
# compiled and exercised too (against the stand-in's NativeArray and float3).
defines='UNITY_2019_4_OR_NEWER;UNITY_EDITOR;WAYFARER_MATHEMATICS;WAYFARER_NAVMESH'
echo "== mcs: runtime with $defines"
"${MCS[@]}" -target:library -define:"$defines" -r:"$out/UnityEngine.dll" -out:"$out/Wayfarer.Runtime.dll" "${runtime[@]}"
echo "== mcs: editor scripts"
"${MCS[@]}" -target:library -r:"$out/UnityEngine.dll" -r:"$out/Wayfarer.Runtime.dll" \
  -out:"$out/Wayfarer.Editor.dll" unity/Editor/*.cs
samples=()
while IFS= read -r f; do samples+=("$f"); done < <(find unity/Samples~ -name '*.cs' 2>/dev/null | LC_ALL=C sort)
if ((${#samples[@]})); then
  echo "== mcs: samples"
  "${MCS[@]}" -target:library -r:"$out/UnityEngine.dll" -r:"$out/Wayfarer.Runtime.dll" \
    -out:"$out/Wayfarer.Samples.dll" "${samples[@]}"
fi
# Unity's compiler reports CS0649 for a serialized private field nothing assigns; mcs hides it for
# any field with an attribute. Check Roslyn's rule directly, then compile copies without the
# inspector attributes so mcs reports every CS0649 it can see (as errors).
echo "== CS0649: serialized fields are initialized or assigned"
python3 tests/csharp/tools/strip-inspector-attributes.py --check "${runtime[@]}" "${samples[@]}"
stripped_runtime=()
while IFS= read -r f; do stripped_runtime+=("$f"); done < <(python3 tests/csharp/tools/strip-inspector-attributes.py "$out/cs0649/runtime" "${runtime[@]}")
"${MCS[@]}" -target:library -define:"$defines" -r:"$out/UnityEngine.dll" -out:"$out/cs0649/Wayfarer.Runtime.dll" "${stripped_runtime[@]}"
if ((${#samples[@]})); then
  stripped_samples=()
  while IFS= read -r f; do stripped_samples+=("$f"); done < <(python3 tests/csharp/tools/strip-inspector-attributes.py "$out/cs0649/samples" "${samples[@]}")
  "${MCS[@]}" -target:library -r:"$out/UnityEngine.dll" -r:"$out/cs0649/Wayfarer.Runtime.dll" \
    -out:"$out/cs0649/Wayfarer.Samples.dll" "${stripped_samples[@]}"
fi
echo "== mcs: tests"
"${MCS[@]}" -target:exe -define:"$defines" -r:"$out/UnityEngine.dll" -r:"$out/Wayfarer.Runtime.dll" -r:"$out/Wayfarer.Editor.dll" \
  -out:"$out/Wayfarer.Tests.exe" tests/csharp/Tests/*.cs

echo "== mono: tests"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
cd "$out"
WF_EXPECTED_VERSION="$version" LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  mono --debug Wayfarer.Tests.exe "$@"
