import type { CoreModule } from './core-module.js';
import { FilterError } from './errors.js';
import { KeyArena } from './keys.js';

/** Where the WebAssembly binary comes from. */
export type WasmSource = URL | string | ArrayBuffer | Uint8Array;

export interface InitOptions {
  /**
   * The `core.wasm` to load: its bytes, or a URL / path to it. Default: the
   * `core.wasm` shipped next to this module (read from disk in Node, fetched in
   * browsers). Nothing is ever loaded from the network unless you say so.
   */
  wasm?: WasmSource;
}

interface Runtime {
  module: CoreModule;
  arena: KeyArena;
}

let runtime: Runtime | null = null;
let loading: Promise<void> | null = null;

const isNode =
  typeof process !== 'undefined' && typeof process.versions === 'object' && !!process.versions.node;

/**
 * Loads the WebAssembly module once. Idempotent: later calls return the first
 * call's promise (their options are ignored once loading has started). Must
 * resolve before any filter is created.
 *
 * @throws FilterError `LOAD_FAILED` when the binary cannot be read or compiled
 *   (a failed load may be retried with another call).
 */
export function init(options: InitOptions = {}): Promise<void> {
  if (loading === null) {
    loading = load(options).catch((error: unknown) => {
      loading = null;
      throw error instanceof FilterError
        ? error
        : new FilterError('LOAD_FAILED', `could not load the WebAssembly module: ${String(error)}`, {
            cause: error,
          });
    });
  }
  return loading;
}

/** True once `init()` has resolved. */
export function isInitialized(): boolean {
  return runtime !== null;
}

/** The loaded module; throws NOT_INITIALIZED before init() resolved. */
export function getRuntime(): Runtime {
  if (runtime === null) {
    throw new FilterError(
      'NOT_INITIALIZED',
      'cuckoo-bloom-wasm is not initialized: `await init()` before creating or reading filters',
    );
  }
  return runtime;
}

async function load(options: InitOptions): Promise<void> {
  const { default: createCoreModule } = await import('./core.mjs');
  const source = options.wasm ?? new URL('./core.wasm', import.meta.url);
  const module =
    source instanceof Uint8Array || source instanceof ArrayBuffer
      ? await createCoreModule({ wasmBinary: source })
      : isNode
        ? await createCoreModule({ wasmBinary: await readInNode(source) })
        : await createCoreModule({ locateFile: () => new URL(source, globalThis.location?.href).href });
  runtime = { module, arena: new KeyArena(module) };
}

// Emscripten 3.1.6's web glue would fetch() a file path in Node 20 and fail,
// so Node always gets the bytes handed over.
async function readInNode(source: URL | string): Promise<Uint8Array> {
  const url = typeof source === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(source) ? null : new URL(source);
  if (url !== null && url.protocol !== 'file:') {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url.href}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
  const { readFile } = await import('node:fs/promises');
  return readFile(url ?? (source as string));
}
