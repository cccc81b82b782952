// Browsers, workers and any runtime without Node's file system (the `browser` and
// `default` export conditions): core.wasm is fetched. No `node:` import may reach
// this file, or webpack 5 and esbuild refuse the browser build.
import { FilterError } from '../errors.js';
import type { WasmSource } from './wasm-source.js';
import { compileGiven, fetchAndCompile } from './init-wasm-common.js';

/**
 * core.wasm beside this module. Written as the literal `new URL('./core.wasm',
 * import.meta.url)` on purpose: webpack 5 and Vite recognise exactly this form,
 * copy the file into the build and rewrite the URL.
 */
function besideThisModule(): string {
  try {
    return new URL('./core.wasm', import.meta.url).href;
  } catch (error) {
    // An IIFE bundle (esbuild's default for the browser) has no import.meta.url.
    throw new FilterError(
      'LOAD_FAILED',
      'cannot tell where core.wasm is: this bundle has no import.meta.url. ' +
        "Import 'cuckoo-bloom-wasm/inline' (the wasm inside), build an ES module, " +
        "or pass init({ wasm: '/url/of/core.wasm' })",
      { cause: error },
    );
  }
}

export function compileCore(source: WasmSource | undefined): Promise<WebAssembly.Module> {
  return source === undefined ? fetchAndCompile(besideThisModule()) : compileGiven(source);
}
