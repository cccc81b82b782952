// init() of `cuckoo-bloom-wasm/shared`: loads core.shared.wasm and makes this
// thread's shared memory, where the filters this thread creates live.
// Threads that only attach handles need no init(): the handle brings the
// compiled module and the memory (shared-runtime.ts).
import { FilterError } from '../errors.js';
import { compileCore } from '../runtime/init-wasm.js';
import type { WasmSource } from '../runtime/wasm-source.js';
import { describeValue } from '../keys/keys.js';
import { checkMaximumMemory, createRuntime, DEFAULT_MEMORY, hasThreadRuntime, setThreadRuntime } from './shared-runtime.js';

/** Options of the shared entry's {@link init}. */
export interface SharedInitOptions {
  /**
   * The `core.shared.wasm` to load: its bytes, or a URL / path. Default: the one
   * shipped beside this module (read from disk in Node, fetched in browsers).
   */
  wasm?: WasmSource | undefined;
  /**
   * Bytes of the shared memory every filter of this thread is created in:
   * whole 64 KiB pages, from 2 MiB to 2 GiB. Default 256 MiB. The memory is
   * reserved at this size and never grows (pages cost physical memory only once
   * written); a filter that does not fit is `OUT_OF_MEMORY`. A filter takes
   * about its `byteLength`, and `serialize()` needs twice that again meanwhile.
   */
  maximumMemory?: number | undefined;
}

const KNOWN_OPTIONS: readonly string[] = ['wasm', 'maximumMemory'];

let loading: Promise<void> | null = null;

/**
 * Loads core.shared.wasm and creates the shared memory, once per thread:
 * later calls return the first call's promise (their options are checked, then
 * ignored).
 *
 * @throws FilterError `INVALID_ARGUMENT` (an unknown option, a bad
 *   `maximumMemory`), `LOAD_FAILED` (the module could not be loaded, or shared
 *   memory is unavailable: a page that is not cross-origin isolated),
 *   `OUT_OF_MEMORY` (the memory could not be reserved).
 */
export function init(options: SharedInitOptions = {}): Promise<void> {
  try {
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      throw new FilterError('INVALID_ARGUMENT', `init takes an options object, got ${describeValue(options)}`);
    }
    for (const key of Object.keys(options)) {
      if (!KNOWN_OPTIONS.includes(key)) {
        throw new FilterError('INVALID_ARGUMENT', `init: unknown option '${key}' (known options: ${KNOWN_OPTIONS.join(', ')})`);
      }
    }
    checkMaximumMemory(options.maximumMemory);
  } catch (error) {
    return Promise.reject(error);
  }
  loading ??= (async () => {
    const module = await compileCore(options.wasm);
    setThreadRuntime(createRuntime(module, checkMaximumMemory(options.maximumMemory ?? DEFAULT_MEMORY)));
  })().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** Whether init() has resolved on this thread. */
export function isInitialized(): boolean {
  return hasThreadRuntime();
}
