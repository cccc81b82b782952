// A worker_threads worker that takes the shared memory's allocator lock and
// keeps it, as a worker terminated inside malloc leaves it: its own instance
// of core.shared.wasm over the memory (every import a stub; the lock export is
// a leaf that touches only the lock word), then cbw_shared_allocator_take().
// The test terminates it while it holds the lock.
import { parentPort, workerData } from 'node:worker_threads';

const { module, memory } = workerData;
const env = {};
for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {
  if (from !== 'env') continue;
  if (kind === 'memory') env[name] = memory;
  else if (kind === 'function') env[name] = name === 'emscripten_get_now' ? () => performance.now() : () => 0;
}
const { exports } = new WebAssembly.Instance(module, { env });
parentPort.postMessage({ held: exports.cbw_shared_allocator_take() === 1 });
