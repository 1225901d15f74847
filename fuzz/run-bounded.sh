#!/usr/bin/env bash
# Runs every fuzz target for a bounded time (WF_FUZZ_SECONDS, default 12 s each) starting from
# its checked-in seed corpus in fuzz/corpus/<target>/. New inputs go to fuzz/corpus-run/ (not
# checked in); a crash, panic, leak, timeout or out-of-memory fails the script and leaves the
# input in fuzz/artifacts/<target>/.
#
# Works on a stable toolchain: RUSTC_BOOTSTRAP=1 lets stable rustc take the -Z flags cargo-fuzz
# passes (sanitizer, coverage). Installs cargo-fuzz when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${WF_FUZZ_SECONDS:-12}
export RUSTC_BOOTSTRAP=1
# See fuzz/lsan.supp: one glibc thread-exit record, never wayfarer's allocations.
export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "== installing cargo-fuzz"
  cargo install cargo-fuzz --locked --quiet
fi

echo "== cargo fuzz build (AddressSanitizer, debug assertions)"
cargo fuzz build --debug-assertions

targets=$(cargo fuzz list)
for t in $targets; do
  mkdir -p "fuzz/corpus-run/$t" "fuzz/corpus/$t"
  echo "== fuzz $t for ${secs}s"
  # -timeout: one input taking more than 10 s is a hang; -rss_limit_mb / -malloc_limit_mb: an
  # allocation driven by a hostile count is a failure, not a slow run.
  log="fuzz/corpus-run/$t.log"
  if ! cargo fuzz run --debug-assertions "$t" "fuzz/corpus-run/$t" "fuzz/corpus/$t" -- \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
    -print_final_stats=1 >"$log" 2>&1; then
    tail -n 60 "$log" >&2
    echo "fuzz target $t failed: the input is in fuzz/artifacts/$t/, the log in $log" >&2
    exit 1
  fi
  grep -E "^Done [0-9]+ runs|stat::peak_rss_mb" "$log" || true
done
echo "== fuzz: every target ran ${secs}s without a failure"
