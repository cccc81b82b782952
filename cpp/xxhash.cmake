# xxHash is used header-only (XXH_INLINE_ALL). The header is copied into
# ${CMAKE_BINARY_DIR}/xxhash-include so the wasm build never sees the host's
# /usr/include (which would pull glibc headers into Emscripten's sysroot).
# Included by the top-level CMakeLists.txt and by cpp/fuzz/CMakeLists.txt.
set(XXHASH_HEADER "/usr/include/xxhash.h" CACHE FILEPATH "Path to xxhash.h (Debian: libxxhash-dev)")
if(NOT EXISTS "${XXHASH_HEADER}")
  message(FATAL_ERROR "xxhash.h not found at ${XXHASH_HEADER}: install libxxhash-dev (.ci/setup.sh does) or set -DXXHASH_HEADER=...")
endif()
configure_file("${XXHASH_HEADER}" "${CMAKE_BINARY_DIR}/xxhash-include/xxhash.h" COPYONLY)
