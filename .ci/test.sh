#!/usr/bin/env bash
# Builds everything and runs every test suite: `npm test` (and CI) run this.
#   1. native C++ library + GoogleTest suite (CTest), Release
#   2. the same suite (less its rate-over-millions tests) under AddressSanitizer + UndefinedBehaviorSanitizer, at -O1
#   3. libFuzzer targets (deserialization and operation sequences), 20 s each
#   3b. the concurrency suite (cpp/tests/concurrent) under ThreadSanitizer (.ci/tsan.sh, about a minute)
#   4. the wasm module, the npm package (dist/), a quick pass of the benchmark
#      harness (bench/run.mjs --quick), the API reference check (docs/api/ current,
#      every export documented: npm run docs:check), and the Jest suites against the
#      package (API, errors, properties, golden files, CLI, index-log faults, web demo
#      in headless Chromium, the Redis filters against private redis-server processes
#      and a local 3-master, 3-replica Redis Cluster the suites start themselves)
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

stage "native build and tests"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

stage "native tests under ASan + UBSan"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUCKOO_BLOOM_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs"
# Not under the sanitizers: the tests whose point is a rate or a size over millions of keys
# (the Release run above has them). Under ASan they repeat code paths the smaller tests and
# the fuzzers already walk, at 3-4x the time: a third of this stage. Nor the four-thread
# stress tests, which the ThreadSanitizer stage below runs instrumented (32 s here).
asan_skip='GrowingChain\.GrowsTenThousandFold|CuckooIndexModel\.AMillionRandomOperations|CuckooFilterSizing\.BitsPerKeyAtRatedCapacity|HonestRates\.|FalsePositiveRate\.Measured|ExpandableFilterGrowth\.|CuckooFilterFill\.RatedCapacityAlwaysFits|NoFalseNegativesForOneMillionKeys|Concurrent[A-Za-z]*Filter\.FourThreads'
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-asan --output-on-failure -j"$jobs" -E "$asan_skip"

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
node --experimental-vm-modules node_modules/jest/bin/jest.js
stage "done"
