import type { CoreModule } from './core-module.js';
import { FilterError } from '../errors.js';
import { importGlue, startCore } from './init-glue.js';
import { compileCore } from './init-wasm.js';
import type { WasmSource } from './wasm-source.js';
import { type KeyCalls, keyCallsOf } from '../keys/key-calls.js';
import { KeyArena, describeValue } from '../keys/keys.js';

// The shipped typings must not need the consumer's `esnext.disposable` lib (or
// @types/node) for `[Symbol.dispose]()`: declare the symbol the way both of
// them do, so any set of libs type-checks with skipLibCheck off.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** Options of {@link init}: where the WebAssembly binary comes from. */
export interface InitOptions {
  /**
   * The `core.wasm` to load: its bytes, or a URL / path to it. Default: the
   * `core.wasm` shipped next to this module (read from disk in Node, fetched in
   * browsers; embedded in `cuckoo-bloom-wasm/inline`). Nothing is ever loaded
   * from the network unless you say so.
   */
  wasm?: WasmSource | undefined;
}

/** Every option init() reads: anything else is a typo to report, not ignore. */
const KNOWN_OPTIONS: readonly string[] = ['wasm'];

interface Runtime {
  module: CoreModule;
  arena: KeyArena;
  /** The per-key exports, outside the glue's Module (key-calls.ts). */
  calls: KeyCalls;
}

let runtime: Runtime | null = null;
let loading: Promise<void> | null = null;

/**
 * Loads the WebAssembly module once. Idempotent: later calls return the first
 * call's promise (their options are checked, then ignored once loading has
 * started). Must resolve before any filter is created.
 *
 * Rejects with FilterError `INVALID_ARGUMENT` for an unknown option or a
 * `wasm` of the wrong type; `LOAD_FAILED` when the binary cannot be read,
 * compiled or started, naming the file or URL tried (a failed load may be
 * retried with another call). Never prints: the glue's output goes into the error.
 */
export function init(options?: InitOptions): Promise<void> {
  let source: WasmSource | undefined;
  try {
    source = checkOptions(options);
  } catch (error) {
    return Promise.reject(error);
  }
  if (loading === null) {
    loading = load(source).catch((error: unknown) => {
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

// Which entry of the package this copy of init.ts was bundled into: the main
// entry, /small, /inline and /reader each load a module of their own and need
// their own init() (.ci/build-package.mjs defines it per bundle; /redis and
// /index-file take the main entry's). Undefined when run from source.
declare const __CBW_ENTRY__: string | undefined;
const ENTRY_NAME: string = typeof __CBW_ENTRY__ === 'string' ? __CBW_ENTRY__ : 'cuckoo-bloom-wasm';

/** The loaded module; throws NOT_INITIALIZED before init() resolved. */
export function getRuntime(): Runtime {
  if (runtime === null) {
    throw new FilterError(
      'NOT_INITIALIZED',
      `${ENTRY_NAME} is not initialized: \`await init()\` imported from '${ENTRY_NAME}' before creating or reading ` +
        `its filters (the main entry, /small, /inline and /reader each load their own module: ` +
        `init() of one does not initialize another; /redis and /index-file use the main entry's)`,
    );
  }
  return runtime;
}

function checkOptions(options: unknown): WasmSource | undefined {
  if (options === undefined) return undefined;
  // A plain object only: `init(new URL(...))` or `init('core.wasm')` is a slip for `init({ wasm })`.
  const prototype = typeof options === 'object' && options !== null ? Object.getPrototypeOf(options) : undefined;
  if (prototype !== Object.prototype && prototype !== null) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `init options must be a plain object such as { wasm }, got ${describeValue(options)}`,
    );
  }
  for (const name of Object.keys(options as object)) {
    if (!KNOWN_OPTIONS.includes(name)) {
      throw new FilterError(
        'INVALID_ARGUMENT',
        `unknown init option ${JSON.stringify(name)} (known: ${KNOWN_OPTIONS.join(', ')})`,
      );
    }
  }
  const { wasm } = options as { wasm?: unknown };
  if (wasm === undefined) return undefined;
  const isSource =
    (typeof wasm === 'string' && wasm.length > 0) ||
    wasm instanceof Uint8Array ||
    wasm instanceof ArrayBuffer ||
    (typeof wasm === 'object' && wasm !== null && typeof (wasm as { href?: unknown }).href === 'string');
  if (!isSource) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      'init option "wasm" must be a URL, a non-empty path or URL string, an ArrayBuffer or a Uint8Array, ' +
        `got ${typeof wasm === 'string' ? 'an empty string' : describeValue(wasm)}`,
    );
  }
  return wasm as WasmSource;
}

async function load(source: WasmSource | undefined): Promise<void> {
  // The glue (an ES module to read and evaluate) loads while the wasm compiles, not after.
  const glue = importGlue();
  glue.catch(() => {}); // a failure is reported by startCore; unawaited when compiling fails first
  const module = await startCore(await compileCore(source), glue);
  runtime = { module, arena: new KeyArena(module), calls: keyCallsOf(module) };
}
