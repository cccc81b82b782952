#!/usr/bin/env bash
# Compiles the C++ core and bindings/embind.cpp to build-wasm/core.{mjs,wasm}.
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's Emscripten needs Debian's acorn for its JS optimizer.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
if [ ! -f build-wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build-wasm -j"$(nproc)"
