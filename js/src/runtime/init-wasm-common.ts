// What every wasm loader shares: compiling bytes and fetching a URL, each failure a
// FilterError that names where the module was looked for. No Node-only imports here:
// the browser entry is built from this file.
import { FilterError } from '../errors.js';
import type { WasmSource } from './wasm-source.js';

export function isBytes(source: unknown): source is ArrayBuffer | Uint8Array {
  return source instanceof Uint8Array || source instanceof ArrayBuffer;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The error for bytes that do not compile; `from` says where they came from. */
export function compileFailure(from: string, error: unknown): FilterError {
  return new FilterError('LOAD_FAILED', `could not compile ${from}: ${reason(error)}`, { cause: error });
}

/** Compiles wasm bytes; `from` says where they came from, for the error message. */
export async function compileBytes(bytes: ArrayBuffer | Uint8Array, from: string): Promise<WebAssembly.Module> {
  try {
    return await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
  } catch (error) {
    throw compileFailure(from, error);
  }
}

/**
 * Fetches and compiles the module at `url`. Streams when the server sends
 * `application/wasm` (what compileStreaming insists on); any other server still
 * works through the bytes, so a misconfigured MIME type costs speed, not a failure.
 */
export async function fetchAndCompile(url: string): Promise<WebAssembly.Module> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (error) {
    throw new FilterError('LOAD_FAILED', `could not fetch the WebAssembly module from ${url}: ${reason(error)}`, {
      cause: error,
    });
  }
  if (!response.ok) {
    const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    throw new FilterError('LOAD_FAILED', `could not fetch the WebAssembly module from ${url}: HTTP ${status}`);
  }
  const streamable =
    typeof WebAssembly.compileStreaming === 'function' &&
    (response.headers.get('content-type') ?? '').startsWith('application/wasm');
  if (streamable) {
    try {
      return await WebAssembly.compileStreaming(response);
    } catch (error) {
      throw new FilterError('LOAD_FAILED', `could not compile the file at ${url}: ${reason(error)}`, {
        cause: error,
      });
    }
  }
  return compileBytes(await response.arrayBuffer(), `the file at ${url}`);
}

/**
 * A caller-given source where only fetch() is at hand (browsers, workers, the
 * inline entry): bytes are compiled, a URL or string is fetched, relative to
 * the page when there is one.
 */
export function compileGiven(source: WasmSource): Promise<WebAssembly.Module> {
  if (isBytes(source)) return compileBytes(source, 'the bytes given to init({ wasm })');
  const href = typeof source === 'string' ? source : source.href;
  let url: string;
  try {
    url = new URL(href, (globalThis as { location?: { href: string } }).location?.href).href;
  } catch (error) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `init option "wasm": ${JSON.stringify(href)} is not a URL that can be fetched here; pass the bytes instead`,
      { cause: error },
    );
  }
  return fetchAndCompile(url);
}
