// The single-file entry (`cuckoo-bloom-wasm/inline`): core.wasm travels inside the
// JavaScript as base64, for serverless bundles and bundlers that copy no assets.
// The build replaces __CBW_WASM_BASE64__ with the file's contents.
import type { WasmSource } from './init.js';
import { compileBytes, compileGiven } from './init-wasm-common.js';

declare const __CBW_WASM_BASE64__: string;

function embeddedBytes(): Uint8Array {
  // atob is global in browsers, workers and Node >= 16.
  const text = atob(__CBW_WASM_BASE64__);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

export function compileCore(source: WasmSource | undefined): Promise<WebAssembly.Module> {
  return source === undefined ? compileBytes(embeddedBytes(), 'the embedded core.wasm') : compileGiven(source);
}
