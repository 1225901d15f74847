#!/usr/bin/env bash
# Mono benchmark (not a test): seed-style managed C# vs one batched wayfarer call.
#   bash tests/csharp/bench.sh [seconds-per-measurement]   (default 0.4)
set -euo pipefail
cd "$(dirname "$0")/../.."
target_dir="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
out="$target_dir/csharp"
lib="$target_dir/release"
mkdir -p "$out"
cargo build --release --lib --quiet
MCS=(mcs -langversion:7.2 -unsafe -warnaserror -nologo -optimize+)
runtime=()
while IFS= read -r f; do runtime+=("$f"); done < <(find unity/Runtime -name '*.cs' | LC_ALL=C sort)
if [[ -n "${WF_BINDINGS_CS:-}" ]]; then
  filtered=()
  for f in "${runtime[@]}"; do [[ "$f" == */NativeMethods.g.cs ]] || filtered+=("$f"); done
  runtime=("${filtered[@]}" "$WF_BINDINGS_CS")
fi
"${MCS[@]}" -target:library -nowarn:1591 -out:"$out/UnityEngine.dll" tests/csharp/UnityStandIn/*.cs
"${MCS[@]}" -target:library -r:"$out/UnityEngine.dll" -out:"$out/Wayfarer.Runtime.dll" "${runtime[@]}"
"${MCS[@]}" -target:exe -r:"$out/UnityEngine.dll" -r:"$out/Wayfarer.Runtime.dll" -out:"$out/Wayfarer.Bench.exe" tests/csharp/Bench/*.cs
cd "$out"
LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" mono Wayfarer.Bench.exe "$@"
