#!/usr/bin/env bash
# Builds the libFuzzer targets of cpp/fuzz/ with clang and runs each for a
# bounded time, starting from its committed seed corpus (cpp/fuzz/corpus/).
#
#   FUZZ_SECONDS=20   seconds per target (default 20)
#   FUZZ_JOBS=2       targets run at once (default: nproc, at most 2)
#   FUZZ_TARGETS="deserialize_filter ops_filter"   a subset (default: all, from
#                 build-fuzz/fuzz-targets.txt, which cpp/fuzz/CMakeLists.txt writes)
#
# Exits non-zero if any target finds a crash, sanitizer report, failed
# invariant, leak, timeout or out-of-memory; the input that did it is saved in
# build-fuzz/artifacts/ and the target's log is printed. Prints per target:
# executions, executions per second, corpus size. New corpus entries go to
# build-fuzz/corpus-out/<target>/ (the committed corpus is never modified).
# cpp/fuzz/README.md says how to run longer and how to keep what was found.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-20}
jobs=${FUZZ_JOBS:-$(nproc)}
[ "$jobs" -gt 2 ] && jobs=2
[ "$jobs" -lt 1 ] && jobs=1

# --- tools (Debian 12): clang-14 and its libFuzzer/sanitizer runtimes
# shellcheck source=.ci/debian-packages.sh
source .ci/debian-packages.sh
mapfile -t need < <(fuzz_packages_missing)
install_debian_packages fuzz ${need[@]+"${need[@]}"}

# --- build
echo "== fuzz: building the targets (clang-14, -fsanitize=fuzzer,address,undefined)"
build_start=$(date +%s)
# No build type: the flags are CMakeLists.txt's (-O1 -g, sanitizers), nothing added.
cmake -S cpp/fuzz -B build-fuzz -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE= >/dev/null
if [ -n "${FUZZ_TARGETS:-}" ]; then
  read -r -a targets <<<"$FUZZ_TARGETS"
else
  mapfile -t targets < build-fuzz/fuzz-targets.txt
fi
for target in "${targets[@]}"; do
  if ! grep -qx "$target" build-fuzz/fuzz-targets.txt; then
    echo "fuzz: no target named $target (see build-fuzz/fuzz-targets.txt)" >&2
    exit 2
  fi
done
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]}" >/dev/null
echo "fuzz: built in $(( $(date +%s) - build_start )) s"

# --- run
logs=build-fuzz/logs
rm -rf "$logs" build-fuzz/corpus-out
mkdir -p "$logs" build-fuzz/artifacts build-fuzz/corpus-out

# One target: libFuzzer with the committed corpus as read-only seeds and a
# fresh output folder. -rss_limit_mb/-malloc_limit_mb turn a runaway
# allocation into a finding; -timeout makes any input slower than 10 s one.
run_target() {
  local target=$1
  local out="build-fuzz/corpus-out/$target"
  mkdir -p "$out"
  local status=0
  # Op streams: 1 KiB is ~500 ops, plenty to fill, saturate and churn the
  # small filters, and keeps executions fast. Blobs: 4 KiB.
  local max_len=4096
  case "$target" in ops_*) max_len=1024 ;; esac
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "build-fuzz/$target" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 \
      -max_len="$max_len" -print_final_stats=1 \
      -artifact_prefix="build-fuzz/artifacts/$target-" \
      "$out" "cpp/fuzz/corpus/$target" >"$logs/$target.log" 2>&1 || status=$?
  echo "$status" >"$logs/$target.status"
}

echo "== fuzz: ${#targets[@]} targets x ${seconds} s, $jobs at a time"
run_start=$(date +%s)
running=0
for target in "${targets[@]}"; do
  run_target "$target" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true

# --- report
failed=()
printf '%-28s %12s %10s %8s %10s  %s\n' target executions exec/s corpus "corpus-kb" result
for target in "${targets[@]}"; do
  log="$logs/$target.log"
  status=$(cat "$logs/$target.status" 2>/dev/null || echo 99)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  # Corpus = committed seeds + what this run added (libFuzzer keeps both).
  files=$(find "build-fuzz/corpus-out/$target" "cpp/fuzz/corpus/$target" -type f | wc -l)
  kb=$(find "build-fuzz/corpus-out/$target" "cpp/fuzz/corpus/$target" -type f -printf '%s\n' |
    awk '{s += $1} END {printf "%.0f", s / 1024}')
  result=ok
  if [ "$status" != 0 ]; then
    result="FAILED (exit $status)"
    failed+=("$target")
  fi
  printf '%-28s %12s %10s %8s %10s  %s\n' "$target" "${execs:-?}" "${rate:-?}" "$files" "$kb" "$result"
done
echo "fuzz: ran in $(( $(date +%s) - run_start )) s"

if [ ${#failed[@]} -gt 0 ]; then
  for target in "${failed[@]}"; do
    echo
    echo "==== $target: last lines of $logs/$target.log"
    grep -v '^#[0-9]' "$logs/$target.log" | tail -60
    ls build-fuzz/artifacts/"$target"-* 2>/dev/null | sed 's/^/fuzz: saved input: /' || true
  done
  echo
  echo "fuzz: FAILED: ${failed[*]}"
  echo "fuzz: reproduce with build-fuzz/<target> <saved input>; minimise with -minimize_crash=1 (cpp/fuzz/README.md)"
  exit 1
fi
echo "fuzz: all ${#targets[@]} targets ran ${seconds} s each without a finding"
