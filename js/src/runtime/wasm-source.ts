// What init() may be given as the wasm binary: a leaf, so the loaders (init-wasm-*.ts),
// which init.ts imports, need not import init.ts for it.

/**
 * Where the WebAssembly binary comes from: its bytes, or a URL (a `URL` object
 * or anything with an `href`) or a path / URL string. Structural rather than
 * `URL` so the typings need no DOM or Node lib.
 */
export type WasmSource =
  | string
  | {
      /** The URL to load, as `URL.href` spells it. */
      readonly href: string;
    }
  | ArrayBuffer
  | Uint8Array;
