// Type of the Emscripten glue (build-wasm/core.mjs, copied next to the bundle).
// Only the Module options init.ts passes are declared: the glue reads many more,
// and each one added here is one more way the glue can be steered.
import type { CoreModule } from './core-module.js';

export interface CoreModuleOptions {
  /** Called for the wasm file's name; init.ts answers with the name itself (the glue never fetches). */
  locateFile?: (path: string, prefix: string) => string;
  /** Instantiates the already compiled module with the glue's imports; returns `{}` (async). */
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance, module?: WebAssembly.Module) => void,
  ) => object;
  /** stdout and stderr of the C++ side and the glue's own diagnostics. */
  print?: (text: string) => void;
  printErr?: (text: string) => void;
  /** Called by the glue's abort() before it prints and throws. */
  onAbort?: (what: unknown) => void;
}

declare const createCoreModule: (options: CoreModuleOptions) => Promise<CoreModule>;
export default createCoreModule;
