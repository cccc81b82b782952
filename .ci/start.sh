#!/usr/bin/env bash
# `npm start`: builds the library (native and wasm) and runs the examples.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCUCKOO_BLOOM_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target cuckoo_bloom_example
bash .ci/build-wasm.sh >/dev/null
node .ci/build-package.mjs
echo "== native example (cpp/examples/example.cpp)"
./build/cuckoo_bloom_example
echo "== Node example (js/examples/quickstart.mjs)"
node js/examples/quickstart.mjs
