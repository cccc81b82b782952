// The single-file entry (`cuckoo-bloom-wasm/inline`): core.wasm travels inside the
// JavaScript, for serverless bundles and bundlers that copy no assets.
// The build replaces __CBW_WASM_DEFLATED__ with the module compressed (zlib format, level 9)
// and then base64-encoded, and __CBW_WASM_SIZE__ with its length: 356 KB of wasm embed as
// ~171 KB of text instead of ~475 KB, the bulk of the package's size. Inflating it is
// inflate-embedded.ts's job.
import { FilterError } from '../errors.js';
import { inflateEmbedded } from './inflate-embedded.js';
import type { WasmSource } from './wasm-source.js';
import { compileBytes, compileGiven } from './init-wasm-common.js';

declare const __CBW_WASM_DEFLATED__: string;
declare const __CBW_WASM_SIZE__: number;

const FROM = 'the embedded core.wasm';

async function embeddedBytes(): Promise<Uint8Array> {
  // atob is global in browsers, workers and Node >= 16. A damaged embed may not even be
  // base64 (a length that is not a multiple of 4): that is LOAD_FAILED naming it too.
  let text: string;
  try {
    text = atob(__CBW_WASM_DEFLATED__);
  } catch (error) {
    throw new FilterError('LOAD_FAILED', `could not decode ${FROM} (base64): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const deflated = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) deflated[i] = text.charCodeAt(i);
  let bytes: Uint8Array;
  try {
    bytes = await inflateEmbedded(deflated, __CBW_WASM_SIZE__);
  } catch (error) {
    throw new FilterError('LOAD_FAILED', `could not decompress ${FROM}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  // A short result would be a damaged embed; compiling a truncated module fails less clearly.
  if (bytes.length !== __CBW_WASM_SIZE__) {
    throw new FilterError('LOAD_FAILED', `could not decompress ${FROM}: ${bytes.length} of ${__CBW_WASM_SIZE__} bytes`);
  }
  return bytes;
}

export async function compileCore(source: WasmSource | undefined): Promise<WebAssembly.Module> {
  return source === undefined ? compileBytes(await embeddedBytes(), FROM) : compileGiven(source);
}
