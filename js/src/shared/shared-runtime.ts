// One instance of core.shared.wasm per thread, all over one shared
// WebAssembly.Memory (docs/CONCURRENCY.md, "The shared-memory entry").
//
// This is a loader of its own, not Emscripten's -pthread glue: the glue's
// runtime spawns and owns its workers, while here the application's workers
// (worker_threads, Web Workers) attach to a filter they were handed. With C
// exports only, what an instance needs is short, and each point is a trap the
// glue otherwise handles:
// - Memory: created here, shared, fixed at the declared size (initial =
//   maximum). It never grows, so a view made once stays valid on every thread
//   (a grow on one thread would leave the others' views short).
// - Data segments: the module's start function copies them once per memory,
//   guarded by an atomic flag in memory; later instances skip it.
// - Static constructors (__wasm_call_ctors) run on the creating thread only: a
//   second run would reset the allocator and the filter slots under live filters.
// - Stack: __stack_pointer is a per-instance global that starts at the one
//   main stack. Every attached instance first moves it to a stack of its own,
//   malloc'd while holding the bootstrap lock and running on the module's
//   small bootstrap stack (bindings/shared.cpp), so no two instances ever run
//   on the same stack bytes.
// - Thread-local storage: emscripten_tls_init() gives each instance its own block.
// - malloc: emmalloc under -pthread takes a spin lock that waits for ever, so
//   the module puts its own lock in front (bindings/shared_allocator.cpp),
//   whose waits end: a thread terminated inside an allocation makes later
//   allocations fail with LOCKED, never hang. Threads allocate at attach (their
//   stack and first scratch region) and when a batch outgrows their scratch.
import { FilterError } from '../errors.js';

/** What core.shared.wasm exports (bindings/shared.cpp, plus Emscripten's stack and thread helpers). */
export interface SharedExports {
  __wasm_call_ctors(): void;
  emscripten_tls_init(): number;
  _emscripten_thread_init(thread: number, isMainBrowserThread: number, isMainRuntimeThread: number, canBlock: number): void;
  stackRestore(pointer: number): void;
  stackSave(): number;
  emscripten_stack_set_limits(base: number, end: number): void;
  malloc(size: number): number;
  free(pointer: number): void;
  cbw_shared_allocator_state(): number;
  cbw_shared_allocator_take(): number;
  cbw_shared_allocator_release(): void;
  cbw_shared_bootstrap_stack(): number;
  cbw_shared_bootstrap_stack_size(): number;
  cbw_shared_bootstrap_lock(): number;
  cbw_shared_runtime_mark(): number;
  cbw_status_name(code: number): number;
  cbw_shared_type_count(): number;
  cbw_shared_type_id(index: number): number;
  cbw_shared_type_name(index: number): number;
  cbw_shared_utf8_offsets(data: number, byteLength: number, offsets: number, count: number): number;
  cbw_shared_utf16_keys(units: number, offsets: number, count: number, data: number): number;
  cbw_shared_utf16_key(units: number, unitCount: number, data: number): number;
  cbw_shared_create(
    out: number,
    type: number,
    capacity: number,
    rate: number,
    seed: number,
    bucketSize: number,
    fingerprintBits: number,
    maxKicks: number,
  ): void;
  cbw_shared_register_thread(): number;
  cbw_shared_failure(thread: number): number;
  cbw_shared_check(thread: number, slot: number, generation: number, type: number): number;
  cbw_shared_free(thread: number, slot: number, generation: number): number;
  cbw_shared_recover(thread: number, slot: number, generation: number, type: number): number;
  cbw_shared_unwind(thread: number): number;
  cbw_shared_has(thread: number, slot: number, generation: number, type: number, key: number, length: number): number;
  cbw_shared_add(thread: number, slot: number, generation: number, type: number, key: number, length: number): number;
  cbw_shared_remove(thread: number, slot: number, generation: number, type: number, key: number, length: number): number;
  cbw_shared_has_many(thread: number, slot: number, generation: number, type: number, data: number, offsets: number, count: number, out: number): number;
  cbw_shared_add_many(thread: number, slot: number, generation: number, type: number, data: number, offsets: number, count: number): number;
  cbw_shared_remove_many(thread: number, slot: number, generation: number, type: number, data: number, offsets: number, count: number, out: number): number;
  cbw_shared_count(thread: number, slot: number, generation: number, type: number): number;
  cbw_shared_serialize(thread: number, slot: number, generation: number, type: number, length: number): number;
  cbw_shared_table_bytes(thread: number, slot: number, generation: number, type: number): number;
}

/** Exports the loader calls: a module without them is not core.shared.wasm. */
const REQUIRED_EXPORTS = [
  '__wasm_call_ctors',
  'emscripten_tls_init',
  'stackRestore',
  'stackSave',
  'malloc',
  'cbw_shared_allocator_state',
  'cbw_shared_create',
  'cbw_shared_has',
  'cbw_shared_register_thread',
];

/** Bytes of each attached instance's own stack (the module's main stack is 64 KiB too: -sTOTAL_STACK). */
const STACK_BYTES = 64 * 1024;
/**
 * A thread's first scratch region, allocated as it registers: 256 KiB (a
 * 128th of a smaller memory). A batch reserves 3 bytes a character, so 1,024
 * keys of up to 80 characters fit: a thread whose batches stay about that size
 * never allocates again, and a worker terminated mid-call is not inside the
 * allocator.
 */
const FIRST_SCRATCH_MAX_BYTES = 256 * 1024;
function firstScratchBytes(memory: WebAssembly.Memory): number {
  return Math.min(FIRST_SCRATCH_MAX_BYTES, Math.max(16 * 1024, memory.buffer.byteLength / 128));
}
const PAGE_BYTES = 65536;
/** The module needs 1 MiB (-sINITIAL_MEMORY: static data, the main stack, the slot table); 2 MiB leaves a heap. */
export const MIN_MEMORY = 2 * 2 ** 20;
/** wasm32 here: -sMAXIMUM_MEMORY=2GB in bindings/wasm.cmake (the memory import's maximum). */
export const MAX_MEMORY = 2 ** 31;
export const DEFAULT_MEMORY = 256 * 2 ** 20;

/** One thread's instance over a shared memory. */
export interface SharedRuntime {
  readonly exports: SharedExports;
  readonly memory: WebAssembly.Memory;
  readonly module: WebAssembly.Module;
  /** Two random words in the memory (at markAddress) naming this memory in handles. */
  readonly mark: readonly [number, number];
  readonly markAddress: number;
  /** Views of the memory: it never grows, so they stay valid. */
  readonly heap: Uint8Array;
  readonly words: Uint32Array;
  /** This thread's number in the memory (bindings/shared.cpp's thread records): every call names it. */
  readonly thread: number;
  /**
   * The filter types the module makes, by name, with the registry's ids
   * (cuckoo_bloom/registry/filter_types.h) that every call names a type by:
   * read from the module, so no second numbering lives here.
   */
  readonly typeIds: ReadonlyMap<string, number>;
  /** Where this thread's stack starts: a call unwound by a trap leaves the stack pointer inside (see `guarded`). */
  readonly stackTop: number;
  /** Index in `words` of the allocator's lock word; the next word counts its waits that gave up (bindings/shared_allocator.cpp). */
  readonly allocatorWord: number;
  /** This thread's scratch region in wasm memory (keys, results); grown by `scratch()`. */
  scratchPointer: number;
  scratchBytes: number;
}

/** The instances this thread made, by the memory's mark ("a:b"). */
const runtimesByMark = new Map<string, SharedRuntime>();

function markKey(mark: readonly [number, number]): string {
  return `${mark[0]}:${mark[1]}`;
}

/** The imports the module names: none is reached by the code the exports run, so each is a loud stub. */
function importsFor(memory: WebAssembly.Memory): WebAssembly.Imports {
  const unreachable = (name: string) => () => {
    throw new FilterError('LOAD_FAILED', `core.shared.wasm called ${name}, which this loader does not provide`);
  };
  const env: WebAssembly.ModuleImports = { memory };
  // The C++ library aborts where an allocation fails and it cannot report it
  // (it has no exceptions): `guarded` turns this into OUT_OF_MEMORY.
  env.abort = () => {
    throw new WasmAbort();
  };
  for (const name of [
    'emscripten_receive_on_main_thread_js',
    '__pthread_create_js',
    'emscripten_set_canvas_element_size',
    'emscripten_webgl_create_context',
    '_emscripten_notify_thread_queue',
    'emscripten_unwind_to_js_event_loop',
    'exit',
    '__emscripten_thread_cleanup',
  ]) {
    env[name] = unreachable(name);
  }
  env.emscripten_get_now = () => performance.now();
  // The memory is fixed at its declared size: malloc past it is OUT_OF_MEMORY.
  env.emscripten_resize_heap = () => 0;
  // Blocking (a futex wait) is never asked for by the code the exports run; allowed where Atomics.wait is.
  env.emscripten_check_blocking_allowed = () => {};
  // Set after instantiation (the constructor calls it with the main thread's descriptor).
  env.__emscripten_init_main_thread_js = (thread: number) => pendingMainThread?.(thread);
  return { env };
}
let pendingMainThread: ((thread: number) => void) | null = null;

/** What the module's abort() throws (an allocation failed inside the C++ library). */
class WasmAbort extends Error {
  constructor() {
    super('core.shared.wasm called abort (an allocation failed)');
  }
}

/** How long a thread waits for another to release the attach lock (bindings/shared.cpp's bound is 500 ms too). */
const WAIT_BOUND_MS = 500;

/**
 * Runs a call into the module; when a trap or abort unwinds it (abort: an
 * allocation failed inside the C++ library, which has no exceptions), this
 * thread's stack pointer goes back to its top and the module releases what
 * the call held (its in-flight mark, cuckoo stripe locks), so every other
 * call, on every thread, goes on working. The failure is OUT_OF_MEMORY for an
 * abort, else LOAD_FAILED naming the trap.
 */
export function guarded<T>(runtime: SharedRuntime, what: string, call: () => T): T {
  const giveUps = allocatorGiveUps(runtime);
  try {
    return call();
  } catch (error) {
    if (error instanceof FilterError) throw error;
    runtime.exports.stackRestore(runtime.stackTop);
    runtime.exports.cbw_shared_unwind(runtime.thread);
    if (error instanceof WasmAbort && allocatorGiveUps(runtime) !== giveUps) throw allocatorLocked(what, error);
    if (error instanceof WasmAbort) {
      throw new FilterError('OUT_OF_MEMORY', `${what}: out of shared wasm memory (an allocation failed; every lock it held was released)`, {
        cause: error,
      });
    }
    throw new FilterError('LOAD_FAILED', `${what}: core.shared.wasm trapped: ${(error as Error).message}`, { cause: error });
  }
}

/** How many waits for the shared memory's allocator have given up so far: compared around a call that allocates. */
export function allocatorGiveUps(runtime: SharedRuntime): number {
  return Atomics.load(runtime.words, runtime.allocatorWord + 1);
}

/** An allocation gave up waiting for the allocator (bindings/shared_allocator.cpp). */
export function allocatorLocked(what: string, cause?: unknown): FilterError {
  return new FilterError(
    'LOCKED',
    `${what}: the shared memory's allocator was held for over ${WAIT_BOUND_MS} ms, by a call that stopped while ` +
      'allocating (a worker terminated mid-call, or a call cut short by an exception such as a stack overflow: then ' +
      'nothing more can be allocated in this memory, no new filters, attach, serialize or batches larger than ' +
      'before, while the filters in it still answer) or by a thread stalled that long (try again)',
    cause === undefined ? undefined : { cause },
  );
}

function requireSharedModule(module: WebAssembly.Module): void {
  const names = new Set(WebAssembly.Module.exports(module).map((entry) => entry.name));
  const missing = REQUIRED_EXPORTS.filter((name) => !names.has(name));
  if (missing.length > 0) {
    throw new FilterError('LOAD_FAILED', `the WebAssembly module is not core.shared.wasm (it lacks ${missing.join(', ')})`);
  }
}

function instantiate(module: WebAssembly.Module, memory: WebAssembly.Memory): SharedExports {
  try {
    return new WebAssembly.Instance(module, importsFor(memory)).exports as unknown as SharedExports;
  } catch (error) {
    throw new FilterError('LOAD_FAILED', `could not instantiate core.shared.wasm: ${(error as Error).message}`, { cause: error });
  }
}

function runtimeOf(
  exports: SharedExports,
  memory: WebAssembly.Memory,
  module: WebAssembly.Module,
  mark: readonly [number, number],
): SharedRuntime {
  const thread = exports.cbw_shared_register_thread();
  if (thread === 0) {
    throw new FilterError('OUT_OF_MEMORY', 'this shared memory has served 1024 threads: a new thread cannot use it (make a new one with init())');
  }
  const runtime: SharedRuntime = {
    thread,
    typeIds: typeIdsOf(exports, memory),
    stackTop: exports.stackSave(),
    exports,
    memory,
    module,
    mark,
    markAddress: exports.cbw_shared_runtime_mark(),
    heap: new Uint8Array(memory.buffer),
    words: new Uint32Array(memory.buffer),
    allocatorWord: exports.cbw_shared_allocator_state() >>> 2,
    scratchPointer: 0,
    scratchBytes: 0,
  };
  scratch(runtime, firstScratchBytes(memory));
  runtimesByMark.set(markKey(mark), runtime);
  return runtime;
}

/** The module's filter types: name to registry id (bindings/shared.cpp, cbw_shared_type_*). */
function typeIdsOf(exports: SharedExports, memory: WebAssembly.Memory): ReadonlyMap<string, number> {
  const heap = new Uint8Array(memory.buffer);
  const ids = new Map<string, number>();
  for (let index = 0; index < exports.cbw_shared_type_count(); index++) {
    let end = exports.cbw_shared_type_name(index);
    const start = end;
    while (heap[end] !== 0) end++;
    // The names are ASCII (filter_types.h); TextDecoder refuses views of shared memory.
    ids.set(String.fromCharCode(...heap.slice(start, end)), exports.cbw_shared_type_id(index));
  }
  return ids;
}

/** Whether `maximumMemory` is a byte count this build can make: whole 64 KiB pages in [MIN_MEMORY, MAX_MEMORY]. */
export function checkMaximumMemory(value: unknown): number {
  if (value === undefined) return DEFAULT_MEMORY;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_MEMORY || value > MAX_MEMORY || value % PAGE_BYTES !== 0) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `init option "maximumMemory" must be a whole number of 64 KiB pages from ${MIN_MEMORY} (2 MiB) to ${MAX_MEMORY} (2 GiB) bytes, got ${
        typeof value === 'number' ? value : typeof value
      }`,
    );
  }
  return value;
}

/**
 * The creating thread's runtime: a new shared memory of `bytes` (fixed), the
 * module's data and constructors, the main stack, and a fresh random mark.
 */
export function createRuntime(module: WebAssembly.Module, bytes: number): SharedRuntime {
  requireSharedModule(module);
  let memory: WebAssembly.Memory;
  try {
    const pages = bytes / PAGE_BYTES;
    memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
  } catch (error) {
    throw new FilterError('OUT_OF_MEMORY', `could not reserve a shared memory of ${bytes} bytes: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (typeof SharedArrayBuffer === 'undefined' || !(memory.buffer instanceof SharedArrayBuffer)) {
    throw new FilterError(
      'LOAD_FAILED',
      'shared WebAssembly memory is not available here: a browser page must be cross-origin isolated ' +
        '(Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp)',
    );
  }
  const exports = instantiate(module, memory);
  pendingMainThread = (thread) => exports._emscripten_thread_init(thread, 0, 1, 0);
  try {
    exports.__wasm_call_ctors();
  } finally {
    pendingMainThread = null;
  }
  exports.emscripten_tls_init();
  const words = new Uint32Array(memory.buffer);
  const at = exports.cbw_shared_runtime_mark() >>> 2;
  // Unsigned (`| 1` alone would make a signed int32); the second word is never 0.
  const mark: [number, number] = [randomWord(), (randomWord() | 1) >>> 0];
  Atomics.store(words, at, mark[0]);
  Atomics.store(words, at + 1, mark[1]);
  return runtimeOf(exports, memory, module, mark);
}

function randomWord(): number {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0]!;
}

/**
 * This thread's runtime over the memory a handle names: the one made earlier
 * on this thread, or a new instance with its own stack and TLS. The caller
 * has checked the handle's shape; the memory's mark is checked here, before
 * the module may touch that memory.
 */
export function attachRuntime(
  module: WebAssembly.Module,
  memory: WebAssembly.Memory,
  mark: readonly [number, number],
  markAddress: number,
): SharedRuntime {
  // The mark is checked in the handle's own memory even when this thread knows
  // the mark: another memory with a copied mark is refused, not served by the known one.
  const words = new Uint32Array(memory.buffer);
  const at = markAddress / 4;
  if (!Number.isInteger(at) || at + 1 >= words.length || Atomics.load(words, at) !== mark[0] || Atomics.load(words, at + 1) !== mark[1]) {
    throw new FilterError('INVALID_ARGUMENT', 'attach: the handle\'s memory is not the memory of a cuckoo-bloom-wasm/shared runtime');
  }
  const known = runtimesByMark.get(markKey(mark));
  if (known !== undefined) return known;
  requireSharedModule(module);
  const exports = instantiate(module, memory);
  if (exports.cbw_shared_runtime_mark() !== markAddress) {
    throw new FilterError('INVALID_ARGUMENT', 'attach: the handle\'s module and memory do not belong together');
  }
  // Own stack: malloc'd on the bootstrap stack, under the bootstrap lock
  // (one attaching thread at a time; the creating thread never uses it).
  const lock = new Int32Array(memory.buffer);
  const lockIndex = exports.cbw_shared_bootstrap_lock() >>> 2;
  const waitStart = performance.now();
  while (Atomics.compareExchange(lock, lockIndex, 0, 1) !== 0) {
    // Held for one malloc by another thread attaching: spin (Atomics.wait is not allowed on a browser's main
    // thread), but not for ever: a thread terminated while attaching keeps it.
    if (performance.now() - waitStart > WAIT_BOUND_MS) {
      throw new FilterError('LOCKED', `attach: the shared memory's attach lock was held for over ${WAIT_BOUND_MS} ms (by a thread that stopped while attaching?)`);
    }
  }
  let stack = 0;
  const giveUpsAt = (exports.cbw_shared_allocator_state() >>> 2) + 1;
  const giveUps = Atomics.load(words, giveUpsAt);
  try {
    exports.stackRestore(exports.cbw_shared_bootstrap_stack() + exports.cbw_shared_bootstrap_stack_size());
    stack = exports.malloc(STACK_BYTES);
  } finally {
    Atomics.store(lock, lockIndex, 0);
  }
  if (stack === 0 && Atomics.load(words, giveUpsAt) !== giveUps) throw allocatorLocked('attach');
  if (stack === 0) throw new FilterError('OUT_OF_MEMORY', 'attach: no room in the shared memory for this thread\'s stack');
  const top = (stack + STACK_BYTES) & ~15;
  exports.stackRestore(top);
  exports.emscripten_stack_set_limits(top, stack);
  // Its TLS block comes from emmalloc directly (emscripten_builtin_memalign): under the
  // allocator's lock. Released only when it returned: cut short by an exception, it may have
  // stopped inside emmalloc, and the lock stays held (bindings/shared_allocator.cpp).
  if (exports.cbw_shared_allocator_take() !== 1) throw allocatorLocked('attach');
  exports.emscripten_tls_init();
  exports.cbw_shared_allocator_release();
  return runtimeOf(exports, memory, module, mark);
}

/** The runtime of a mark on this thread, if any. */
export function knownRuntime(mark: readonly [number, number]): SharedRuntime | undefined {
  return runtimesByMark.get(markKey(mark));
}

/** A scratch region of at least `bytes` in wasm memory for this thread (reused; grown by doubling). */
export function scratch(runtime: SharedRuntime, bytes: number): number {
  if (bytes <= runtime.scratchBytes) return runtime.scratchPointer;
  const size = Math.max(bytes, runtime.scratchBytes * 2, 4096);
  const giveUps = allocatorGiveUps(runtime);
  const pointer = size < MAX_MEMORY ? runtime.exports.malloc(size) : 0;
  if (pointer === 0 && allocatorGiveUps(runtime) !== giveUps) throw allocatorLocked(`copying ${bytes} bytes of keys in`);
  if (pointer === 0) throw new FilterError('OUT_OF_MEMORY', `out of shared wasm memory: cannot copy ${bytes} bytes of keys in`);
  if (runtime.scratchPointer !== 0) runtime.exports.free(runtime.scratchPointer);
  runtime.scratchPointer = pointer;
  runtime.scratchBytes = size;
  return pointer;
}

/** This thread's runtime from init(), where new filters are created. */
let threadRuntime: SharedRuntime | null = null;

export function setThreadRuntime(runtime: SharedRuntime): void {
  threadRuntime = runtime;
}

export function hasThreadRuntime(): boolean {
  return threadRuntime !== null;
}

/** This thread's runtime for new filters (init() resolved here), or NOT_INITIALIZED. */
export function currentRuntime(className: string): SharedRuntime {
  if (threadRuntime === null) {
    throw new FilterError(
      'NOT_INITIALIZED',
      `${className} was created before init() from 'cuckoo-bloom-wasm/shared' resolved on this thread ` +
        '(a worker that was handed a filter uses attach(handle) instead)',
    );
  }
  return threadRuntime;
}
