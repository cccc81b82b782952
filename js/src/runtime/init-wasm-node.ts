// Node (the `node` export condition): core.wasm is read from disk beside this
// module. Emscripten 3.1.6's web glue would fetch() a file path under Node 20
// and fail, so Node never lets the glue load anything.
// `node:fs` is imported lazily: the universal build (init-wasm.ts) inlines
// this file, and a static import there would reach browsers.
//
// Node reads and compiles synchronously, on purpose: with Liftoff's lazy
// compilation, `new WebAssembly.Module` only decodes and validates core.wasm
// (about 1.5 ms here), and the async route (fs/promises readFile, then
// WebAssembly.compile on V8's background threads) took about 2 ms more from
// import to the first has() on this 2-core machine (bench/startup.mjs; issue
// #13's 15 ms target). Browsers keep the async, streaming route: their main
// threads refuse synchronous compiles of more than 4 KB.
import { FilterError } from '../errors.js';
import type { WasmSource } from './wasm-source.js';
import { compileFailure, fetchAndCompile, isBytes } from './init-wasm-common.js';

const BUNDLED_HINT =
  "If cuckoo-bloom-wasm was bundled into one file, import 'cuckoo-bloom-wasm/inline' instead " +
  '(the wasm inside), or pass init({ wasm: bytes })';

function besideThisModule(): URL {
  try {
    return new URL('./core.wasm', import.meta.url);
  } catch (error) {
    // A CommonJS copy bundled into an ES module has neither __filename nor import.meta.url.
    throw new FilterError('LOAD_FAILED', `cannot tell where core.wasm is. ${BUNDLED_HINT}`, { cause: error });
  }
}

/** A string with a scheme (`file:`, `https:`) is a URL; anything else is a path. One-letter schemes are Windows drives. */
function asUrl(source: string | { readonly href: string }): URL | null {
  if (typeof source !== 'string') return new URL(source.href);
  return /^[a-z][a-z0-9+.-]+:/i.test(source) ? new URL(source) : null;
}

function compileNow(bytes: ArrayBuffer | Uint8Array, from: string): WebAssembly.Module {
  try {
    return new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
  } catch (error) {
    throw compileFailure(from, error);
  }
}

async function compileFile(file: string | URL, isDefault: boolean): Promise<WebAssembly.Module> {
  const { readFileSync } = await import('node:fs');
  const shown = typeof file === 'string' ? file : decodeURIComponent(file.pathname);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as { code?: string }).code ?? String(error);
    throw new FilterError(
      'LOAD_FAILED',
      isDefault ? `could not read core.wasm at ${shown} (${code}). ${BUNDLED_HINT}` : `could not read ${shown} (${code})`,
      { cause: error },
    );
  }
  return compileNow(bytes, `the file ${shown}`);
}

export async function compileCore(source: WasmSource | undefined): Promise<WebAssembly.Module> {
  if (source === undefined) return compileFile(besideThisModule(), true);
  if (isBytes(source)) return compileNow(source, 'the bytes given to init({ wasm })');
  let url: URL | null;
  try {
    url = asUrl(source);
  } catch (error) {
    throw new FilterError('INVALID_ARGUMENT', `init option "wasm": ${JSON.stringify(String(source))} is not a valid URL`, {
      cause: error,
    });
  }
  if (url !== null && url.protocol !== 'file:') return fetchAndCompile(url.href);
  return compileFile(url ?? (source as string), false);
}
