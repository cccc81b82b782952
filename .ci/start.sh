#!/usr/bin/env bash
# `npm start`: the main job. Builds the wasm module, the npm package and the web
# demo (its preloaded blocklist is built from web-demo/data/ by the project's own
# CLI), then serves the demo on 127.0.0.1 and prints its URL. Ctrl-C stops it.
#   PORT=9000 npm start   to choose the port (default 8080, or a free one)
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh
node .ci/build-package.mjs  # builds the wasm module first
node web-demo/build.mjs
exec node web-demo/serve.mjs
