// Attack (out of memory around growth; the defect predates #44): with wasm
// memory at its 2 GiB maximum and full, entries() (liveOffsets: a
// std::vector reserve over both tables) aborts the whole WebAssembly module
// — every filter and index in the process is then unusable (LOAD_FAILED) —
// where a typed OUT_OF_MEMORY, index unchanged, is the promise. The file
// index's compact() iterates the same way (copyLiveInto).
// In its own file: the abort poisons the module for the rest of the worker.
import { CuckooIndex, init, internalRuntime } from '../../dist/index.import.cjs';

let module;
beforeAll(async () => {
  await init();
  module = internalRuntime().module;
});

test('entries() with the wasm heap full throws OUT_OF_MEMORY and leaves the module usable', () => {
  const index = new CuckooIndex({ capacity: 16 });
  for (let i = 0; i < 5000; i++) index.set(`https://full.example/${i}`, 'v');
  const blocks = [];
  for (let size = 256 << 20; size >= 8; size >>= 1) {
    for (let at = module._malloc(size); at !== 0; at = module._malloc(size)) blocks.push(at);
  }
  let code;
  try {
    try {
      for (const entry of index) void entry;
      code = 'none';
    } catch (error) {
      code = error.code;
    }
  } finally {
    for (const block of blocks) module._free(block);
  }
  expect(code).toBe('OUT_OF_MEMORY'); // got LOAD_FAILED: "the WebAssembly module aborted ()"
  expect(index.has('https://full.example/7')).toBe(true);
  index.free();
});
