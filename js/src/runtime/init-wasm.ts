// The loader the sources use as written (the universal ES build dist/index.js,
// the web demo, the CLI): decides at run time between Node's file system and
// fetch(). The package build swaps this file for init-wasm-node.ts,
// init-wasm-browser.ts or init-wasm-inline.ts, so what a bundler sees has no
// run-time branch and no `node:` import in the browser build.
import type { WasmSource } from './wasm-source.js';
import { compileCore as compileInBrowser } from './init-wasm-browser.js';

const isNode =
  typeof process !== 'undefined' && typeof process.versions === 'object' && !!process.versions.node;

export async function compileCore(source: WasmSource | undefined): Promise<WebAssembly.Module> {
  if (!isNode) return compileInBrowser(source);
  const { compileCore: compileInNode } = await import('./init-wasm-node.js');
  return compileInNode(source);
}
