# The WebAssembly module (included by the top-level CMakeLists.txt under emcmake).
# Each build serves browsers and Node: an ES module for the web environment;
# in Node the TypeScript loader passes the .wasm bytes itself (wasmBinary),
# which avoids Emscripten 3.1.6's fetch()-on-a-path and __dirname bugs there.
# Two builds of the same sources, each with its own glue (the glue names the
# module's imports and exports, which differ between optimisation levels):
#   core.mjs + core.wasm              -O3: per-key speed; every entry point but one;
#   core.small.mjs + core.small.wasm  -Oz: about 60% of the bytes on the wire at
#       about 2-3x the time per key (hashing and probing are no longer unrolled and
#       inlined); the `cuckoo-bloom-wasm/small` browser entry, for pages where the
#       download matters more than microseconds per lookup.
#   core.reader.mjs + core.reader.wasm  -Oz, read-only, no embind (bindings/reader.cpp):
#       the `cuckoo-bloom-wasm/reader` entry, for pages that only check shipped filters.
#   cuckoo_bloom_wasm_module(<target> <library> <output name> SOURCES <file>...
#                            [FLAGS <compile and link flag>...] [LINK_FLAGS <flag>...])
function(cuckoo_bloom_wasm_module target library output_name)
  cmake_parse_arguments(PARSE_ARGV 3 MODULE "" "" "SOURCES;FLAGS;LINK_FLAGS")
  add_executable(${target} ${MODULE_SOURCES})
  target_link_libraries(${target} PRIVATE ${library})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME "${output_name}" SUFFIX ".mjs")
  target_compile_options(${target} PRIVATE -fno-exceptions ${MODULE_FLAGS})
  target_compile_options(${library} PRIVATE -fno-exceptions ${MODULE_FLAGS})
  # LINK_FLAGS come last, so a module may override a setting below (the
  # shared build's ENVIRONMENT); the other builds override none.
  target_link_options(${target} PRIVATE ${MODULE_FLAGS}
    -fno-exceptions
    -sMODULARIZE=1
    -sEXPORT_ES6=1
    -sEXPORT_NAME=createCoreModule
    -sENVIRONMENT=web
    -sALLOW_MEMORY_GROWTH=1
    # emmalloc: a few KiB of wasm against dlmalloc's ~10; filters make few, large
    # allocations, so allocation speed does not matter here.
    -sMALLOC=emmalloc
    -sMAXIMUM_MEMORY=2147483648
    -sFILESYSTEM=0
    -sDYNAMIC_EXECUTION=0
    -sEXPORTED_FUNCTIONS=_malloc,_free
    -sEXPORTED_RUNTIME_METHODS=[]
    -sASSERTIONS=0
    ${MODULE_LINK_FLAGS})
endfunction()

cuckoo_bloom_wasm_module(cuckoo_bloom_core cuckoo_bloom core
  SOURCES bindings/embind.cpp bindings/inspect.cpp bindings/redis_positions.cpp bindings/cuckoo_index_bindings.cpp bindings/parquet_bitset.cpp
  LINK_FLAGS --bind)

# The size build compiles the library again at -Oz (the last -O flag wins), with
# link-time optimisation (about 1 KiB less after brotli), without the Redis
# planner (`cuckoo-bloom-wasm/redis` is Node-only and runs on core.wasm), and a
# glue that accepts only the Module fields js/src/init-glue.ts passes and needs
# no TextDecoder fallback (every browser of the ES2022 baseline has one).
add_library(cuckoo_bloom_small STATIC ${CUCKOO_BLOOM_SOURCES})
target_include_directories(cuckoo_bloom_small PUBLIC
  ${CMAKE_CURRENT_SOURCE_DIR}/cpp/include
  ${CMAKE_BINARY_DIR}/xxhash-include)
cuckoo_bloom_wasm_module(cuckoo_bloom_core_small cuckoo_bloom_small core.small
  SOURCES bindings/embind.cpp bindings/inspect.cpp bindings/cuckoo_index_bindings.cpp bindings/parquet_bitset.cpp
  FLAGS -Oz -flto
  LINK_FLAGS --bind -sTEXTDECODER=2 -sSUPPORT_ERRNO=0 "-sINCOMING_MODULE_JS_API=[locateFile,instantiateWasm,print,printErr,onAbort]")

# The reader: the size build's library (the same -Oz objects) under C exports only.
# Without embind the linker keeps what bindings/reader.cpp reaches: FilterReader's
# deserialize and has per type (about 19 KiB after brotli, against about 51).
# Binaryen (-Oz) inlines every function that has one caller, whatever its size: each
# type's reader has one (FilterReader::read), so cbw_reader_open was one 25 KB function,
# and browsers compile wasm lazily, a whole function at its first call: a page reading one
# filter compiled all eleven readers before its first answer (in the demo, ~45 ms of a
# 4x-throttled phone's first verdict). Capped at 200 (Binaryen's size measure), the largest
# function is ~4 KB; the module is 0.8% smaller after brotli.
cuckoo_bloom_wasm_module(cuckoo_bloom_core_reader cuckoo_bloom_small core.reader
  SOURCES bindings/reader.cpp
  FLAGS -Oz -flto
  LINK_FLAGS -sBINARYEN_EXTRA_PASSES=--one-caller-inline-max-function-size=200 -sTEXTDECODER=2 -sSUPPORT_ERRNO=0 "-sINCOMING_MODULE_JS_API=[locateFile,instantiateWasm,print,printErr,onAbort]")

# The shared-memory build (the `cuckoo-bloom-wasm/shared` entry, issue #31): the
# concurrent filters (cpp/include/cuckoo_bloom/concurrent/) under C exports
# only (bindings/shared.cpp), with -pthread: wasm atomics, bulk memory and an
# imported shared memory (Emscripten 3.1.6 has no SHARED_MEMORY setting).
# Its own library of the sources those filters need (core, bloom, cuckoo,
# concurrent), compiled once with -pthread: atomics must be in every object,
# and the other builds' objects must stay as they are. js/src/shared loads it
# with its own loader, not this glue (the glue's pthread runtime would spawn
# its own workers; see docs/CONCURRENCY.md), so only core.shared.wasm ships.
file(GLOB CUCKOO_BLOOM_SHARED_SOURCES CONFIGURE_DEPENDS
  cpp/src/core/*.cpp cpp/src/bloom/*.cpp cpp/src/cuckoo/*.cpp cpp/src/concurrent/*.cpp)
add_library(cuckoo_bloom_shared STATIC ${CUCKOO_BLOOM_SHARED_SOURCES})
target_include_directories(cuckoo_bloom_shared PUBLIC
  ${CMAKE_CURRENT_SOURCE_DIR}/cpp/include
  ${CMAKE_BINARY_DIR}/xxhash-include)
# -O3 -flto: 89 KB. -Oz -flto was 50 KB but spent about 3x the time in wasm per
# key (hasMany/addMany, profiled), and this entry exists for throughput.
# -lexports.js keeps the export and import names unminified (the loader calls
# them by name); ENVIRONMENT must name worker under -pthread; the memory is
# imported (js/src/shared makes it), at least INITIAL_MEMORY, at most the 2 GB
# MAXIMUM_MEMORY above; 64 KiB main stack (each attached thread mallocs its own).
cuckoo_bloom_wasm_module(cuckoo_bloom_core_shared cuckoo_bloom_shared core.shared
  SOURCES bindings/shared.cpp bindings/shared_allocator.cpp
  FLAGS -pthread -O3 -flto
  LINK_FLAGS -sENVIRONMENT=web,worker -sTOTAL_STACK=65536 -sINITIAL_MEMORY=1048576 -sSUPPORT_ERRNO=0
    -lexports.js -Wno-pthreads-mem-growth
    "-sINCOMING_MODULE_JS_API=[instantiateWasm]")
