# The WebAssembly module (included by the top-level CMakeLists.txt under emcmake).
# One build serves browsers and Node: an ES module for the web environment;
# in Node the TypeScript loader passes the .wasm bytes itself (wasmBinary),
# which avoids Emscripten 3.1.6's fetch()-on-a-path and __dirname bugs there.
add_executable(cuckoo_bloom_core bindings/embind.cpp bindings/redis_positions.cpp)
target_link_libraries(cuckoo_bloom_core PRIVATE cuckoo_bloom)
set_target_properties(cuckoo_bloom_core PROPERTIES OUTPUT_NAME "core" SUFFIX ".mjs")
target_compile_options(cuckoo_bloom_core PRIVATE -fno-exceptions)
target_compile_options(cuckoo_bloom PRIVATE -fno-exceptions)
target_link_options(cuckoo_bloom_core PRIVATE
  --bind
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
  -sASSERTIONS=0)
