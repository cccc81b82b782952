#!/usr/bin/env bash
# Builds everything and runs every test suite: `npm test` (and CI) run this.
#   1. native C++ library + GoogleTest suite (CTest), Release
#   2. the same suite (less its rate-over-millions tests) under AddressSanitizer + UndefinedBehaviorSanitizer, at -O1,
#      in the background at the lowest priority until the Jest suites end (below)
#   3. libFuzzer targets (deserialization and operation sequences), 20 s each
#   3b. the concurrency suite (cpp/tests/concurrent) under ThreadSanitizer (.ci/tsan.sh, about a minute)
#   4. the wasm module, the npm package (dist/), a quick pass of the benchmark
#      harness (bench/run.mjs --quick), the API reference check (docs/api/ current,
#      every export documented: npm run docs:check), and the Jest suites against the
#      package (API, errors, properties, golden files, CLI, index-log faults, web demo
#      in headless Chromium, the Redis filters against private redis-server processes
#      and a local 3-master, 3-replica Redis Cluster the suites start themselves: those run
#      in a second Jest run beside the first, since they mostly wait)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
# The time since the start, printed as each stage begins (the whole run must stay under 30 minutes).
stage() { echo "== [$(( SECONDS / 60 ))m$(( SECONDS % 60 ))s] $*"; }

# The C++ stages' tools first. The rest (Emscripten, Chromium for the web demo's end-to-end
# tests, redis-server for tests/redis, the npm packages) is mostly download and unpacking:
# on a fresh machine it installs in the background while the C++ stages keep the cores
# busy, and the wasm stage waits for it.
bash .ci/setup.sh --native-only
mkdir -p build
setup_log=build/setup-background.log
bash .ci/setup.sh --with-browser --with-redis > "$setup_log" 2>&1 & setup_rest=$!
wait_for_setup() {
  if ! wait "$setup_rest"; then
    echo "setup (Emscripten, Chromium, redis-server, npm packages) failed:" >&2
    cat "$setup_log" >&2
    exit 1
  fi
  cat "$setup_log"
}

# Stage 2, ASan + UBSan, runs in the background from the start to the end of the Jest suites,
# at the lowest CPU priority: every other stage keeps the cores first, and this takes what they
# leave idle (the Release build's links, the wasm build's serial steps, and in the Jest stage the
# browser pages, Redis fail-overs and expiry windows that wait). Alone it held both cores for
# 5.5 minutes. Its tests with a clock in their assertions (cpp/tests/concurrent: a bound on how
# long a wait may take, readers given 10 s to start) run after Jest instead, at normal priority,
# where a starved process cannot trip them.
# Not under the sanitizers: the tests whose point is a rate or a size over millions of keys
# (the Release run has them). Under ASan they repeat code paths the smaller tests and the
# fuzzers already walk, at 3-4x the time: a third of this stage. Nor the four-thread stress
# tests, which the ThreadSanitizer stage runs instrumented (32 s here).
asan_skip='GrowingChain\.GrowsTenThousandFold|CuckooIndexModel\.AMillionRandomOperations|CuckooFilterSizing\.BitsPerKeyAtRatedCapacity|HonestRates\.|FalsePositiveRate\.Measured|ExpandableFilterGrowth\.|CuckooFilterFill\.RatedCapacityAlwaysFits|NoFalseNegativesForOneMillionKeys|Concurrent[A-Za-z]*Filter\.FourThreads'
asan_clocked='^Concurrent'
asan_ctest() { ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-asan --output-on-failure -j"$jobs" "$@"; }
asan_log=build/asan.log
stage "native tests under ASan + UBSan: started in the background (lowest priority), reported after Jest"
# Its own process group (set -m), so the trap below can end it with everything it started.
set -m
( set -e
  renice -n 19 -p "$BASHPID" >/dev/null  # the build and the tests inherit it
  started=$SECONDS
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUCKOO_BLOOM_SANITIZE=ON >/dev/null
  cmake --build build-asan -j"$jobs"
  echo "asan: built in $(( SECONDS - started )) s (in the background)"
  # CTest's tests in two processes, not one a test (.ci/ctest-shards.mjs: a sanitized process
  # costs 0.27 s of CPU before its first test, most of this suite's time). Node comes with the
  # native set-up above.
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    node .ci/ctest-shards.mjs build-asan "$jobs" -E "$asan_skip|$asan_clocked"
) > "$asan_log" 2>&1 &
asan_background=$!
set +m
# Ends the background ASan job if a later stage fails or the run is interrupted, so a failed
# run leaves nothing running (in its own process group, Ctrl-C would not reach it).
trap 'kill -- "-$asan_background" 2>/dev/null || true' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

stage "native build and tests"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

stage "fuzzing (cpp/fuzz, FUZZ_SECONDS per target)"
bash .ci/fuzz.sh

stage "concurrency suite under ThreadSanitizer (cpp/tests/concurrent)"
bash .ci/tsan.sh

stage "waiting for the background setup"
wait_for_setup
stage "wasm module and npm package (build-package.mjs builds the wasm first)"
node .ci/build-package.mjs

stage "benchmark harness, quick pass (checks it works and that no filter loses a key)"
# Two at a time, one a core: a quick pass checks correctness (each harness runs, no key lost),
# never speed, so two sharing the machine change nothing it asserts.
( set -e
  node bench/run.mjs --quick > /dev/null
  node --expose-gc bench/batches.mjs --quick > /dev/null
  node --expose-gc bench/batch-parts.mjs --quick > /dev/null ) & bench_first=$!
( set -e
  node bench/startup.mjs --quick > /dev/null
  BENCH_QUICK=1 node --expose-gc bench/index.mjs > /dev/null
  BENCH_QUICK=1 node bench/index-stall.mjs > /dev/null ) & bench_second=$!
wait "$bench_first"
wait "$bench_second"

stage "API reference (npm run docs:check)"; npm run --silent docs:check
stage "Jest suites (against the built package)"
# Two Jest runs side by side. The Redis suites (tests/redis) spend most of their time waiting:
# on cluster fail-overs (node timeout 1 s), expiry windows, restarts (about a third of their
# wall time is CPU). On one of the two Jest workers they held a core idle for ~170 s; in a
# run of their own, one suite at a time, they wait beside the two workers of the other run.
# Both write a JSON report (per-suite times: .ci/suite-seconds.mjs refreshes the order that
# tests/helpers/longest-first-sequencer.mjs follows).
jest=(node --experimental-vm-modules node_modules/jest/bin/jest.js)
"${jest[@]}" --maxWorkers=1 --json --outputFile=build/jest-redis-results.json tests/redis/ \
  > build/jest-redis.log 2>&1 & jest_redis=$!
jest_status=0
"${jest[@]}" --testPathIgnorePatterns='<rootDir>/tests/redis/' --json --outputFile=build/jest-results.json || jest_status=$?
redis_status=0
wait "$jest_redis" || redis_status=$?
stage "Jest: the Redis suites (run beside the others)"
cat build/jest-redis.log
if [ "$jest_status" != 0 ] || [ "$redis_status" != 0 ]; then
  echo "Jest failed (other suites: exit $jest_status, Redis suites: exit $redis_status)" >&2
  exit 1
fi

stage "native tests under ASan + UBSan (waiting for the background build and suite)"
asan_status=0
wait "$asan_background" || asan_status=$?
trap - EXIT INT TERM
cat "$asan_log"
if [ "$asan_status" != 0 ]; then
  echo "the ASan + UBSan build or suite failed (exit $asan_status): $asan_log" >&2
  exit 1
fi
stage "native tests under ASan + UBSan: the ones with a clock (cpp/tests/concurrent), at normal priority"
asan_ctest -R "$asan_clocked" -E "$asan_skip"
stage "done"
