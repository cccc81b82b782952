#!/usr/bin/env bash
# Builds the concurrency suite (cpp/tests/concurrent) with ThreadSanitizer
# (-DCUCKOO_BLOOM_TSAN=ON: only that suite and the core folders it uses) and
# runs it. Exits non-zero on any failed test or any TSan report
# (halt_on_error: the first race fails the run). docs/CONCURRENCY.md.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
[ "$jobs" -gt 2 ] && jobs=2

echo "== concurrency suite under ThreadSanitizer"
start=$(date +%s)
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUCKOO_BLOOM_TSAN=ON >/dev/null
cmake --build build-tsan -j"$jobs"
built=$(date +%s)
# GCC 12's ThreadSanitizer cannot place its shadow memory when the kernel randomizes
# mmap with more bits than it expects (vm.mmap_rnd_bits = 32 on some kernels: "unexpected
# memory mapping"): where setarch may turn randomization off, the tests run without it.
no_aslr=()
if setarch "$(uname -m)" -R true 2>/dev/null; then no_aslr=(setarch "$(uname -m)" -R); fi
# One test process at a time: each already runs 4 threads.
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
  "${no_aslr[@]}" ctest --test-dir build-tsan --output-on-failure
echo "tsan: build $((built - start)) s, tests $(($(date +%s) - built)) s"
