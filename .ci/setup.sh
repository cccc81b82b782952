#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine of this project's kind lacks, and
# nothing it already has. Safe to run again. Called by scripts/test.sh and
# scripts/start.sh; run it alone to prepare a machine.
#   --with-browser   also install Debian's Chromium (the web demo's tests need it)
#   --with-redis     also install Debian's redis-server (the Redis filter's tests start their own)
#   --native-only    only what the C++ stages of `npm test` need (compilers, GoogleTest, xxHash,
#                    clang-14 and libFuzzer): no Emscripten, browser, Redis or npm packages.
#                    .ci/test.sh runs this first and the rest in the background meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."

with_browser=0
with_redis=0
native_only=0
for arg in "$@"; do
  case "$arg" in
    --with-browser) with_browser=1 ;;
    --with-redis) with_redis=1 ;;
    --native-only) native_only=1 ;;
    *) echo "setup.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

need=()
# shellcheck source=.ci/debian-packages.sh
source .ci/debian-packages.sh
have_cmd cmake || need+=(cmake)
have_cmd g++ || need+=(g++)
have_cmd node || need+=(nodejs)
have_cmd npm || need+=(npm)
[ -f /usr/include/xxhash.h ] || need+=(libxxhash-dev)
have_cmd xxhsum || need+=(xxhash)  # reference checksums for the golden-file tests
[ -f /usr/include/gtest/gtest.h ] || need+=(libgtest-dev)
if [ "$native_only" = 1 ]; then
  mapfile -t -O "${#need[@]}" need < <(fuzz_packages_missing)
  # One name once (cmake and libxxhash-dev are on both lists).
  mapfile -t need < <(printf '%s\n' ${need[@]+"${need[@]}"} | awk 'NF && !seen[$0]++')
  install_debian_packages setup ${need[@]+"${need[@]}"}
  exit 0
fi
have_cmd em++ || need+=(emscripten)
if [ "$with_browser" = 1 ] && ! have_cmd chromium; then need+=(chromium); fi
if [ "$with_redis" = 1 ] && ! have_cmd redis-server; then need+=(redis-server); fi

install_debian_packages setup ${need[@]+"${need[@]}"}

# npm packages at the locked versions (reinstalled only when the lock changed).
# `npm install`, not `npm ci`: npm 11 writes lock files without the optional
# platform packages of some dependencies (jest's unrs-resolver) and then
# refuses them in `npm ci`; `npm install` follows the same lock without that.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  npm install --no-audit --no-fund --loglevel=error
fi
