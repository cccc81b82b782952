// Inflates the inline entry's embedded core.wasm (zlib format) with the fastest inflate at
// hand, in the one file both inline.js and inline.cjs bundle:
//   - Node's zlib, when `process.getBuiltinModule` gives it (Node >= 20.16): ~3 ms. Asked at
//     run time, not imported: a `require('node:zlib')` in inline.cjs broke serverless bundles
//     (esbuild --platform=node --format=esm turns it into a throwing dynamic require), and
//     inline.js must import no node: module at all;
//   - DecompressionStream (browsers, workers, Node 18 to 20.15): native code, 12-35 ms in a
//     fresh Node process, less in browsers, whose streams are native too;
//   - fflate's environment-free inflate, bundled in, where neither exists: the README's
//     baseline (any browser with WebAssembly and ES2022) includes Firefox < 113 and
//     Safari < 16.4, which lack DecompressionStream. Imported with import(), which esbuild
//     turns into a lazy start of the bundled module (no import() is left in the file): its
//     tables, built when the module starts, cost ~4 ms of every load otherwise.

type NodeZlib = { inflateSync(data: Uint8Array, options: { maxOutputLength: number }): Uint8Array };
type NodeProcess = { getBuiltinModule?: (id: string) => unknown };

/** The inflated bytes; a result longer than `size` is an error, a shorter one the caller's to check. */
export async function inflateEmbedded(deflated: Uint8Array, size: number): Promise<Uint8Array> {
  const zlib = (globalThis as { process?: NodeProcess }).process?.getBuiltinModule?.('zlib') as NodeZlib | undefined;
  if (typeof zlib?.inflateSync === 'function') return zlib.inflateSync(deflated, { maxOutputLength: size });
  if (typeof DecompressionStream !== 'function') {
    const { unzlibSync } = await import('./fflate-inflate.js');
    return unzlibSync(deflated, { out: new Uint8Array(size) });
  }
  const stream = new Blob([deflated as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate'));
  const reader = stream.getReader();
  const bytes = new Uint8Array(size);
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes.subarray(0, length);
    if (length + value.length > size) {
      await reader.cancel();
      throw new Error(`more than the ${size} bytes expected`);
    }
    bytes.set(value, length);
    length += value.length;
  }
}
