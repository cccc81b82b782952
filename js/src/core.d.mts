// Type of the Emscripten glue (build-wasm/core.mjs, copied next to the bundle).
import type { CoreFactory } from './core-module.js';
declare const createCoreModule: CoreFactory;
export default createCoreModule;
