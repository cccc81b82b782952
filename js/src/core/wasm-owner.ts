import { refuseStructuredClone } from './clone-guard.js';

// `using filter = new BloomFilter(...)` needs Symbol.dispose; older runtimes
// lack it, and TypeScript's own downlevel helper looks for this same symbol.
// Here, before the class below names it as a method key.
(Symbol as { dispose?: symbol }).dispose ??= Symbol.for('Symbol.dispose');

/**
 * What every object that owns WebAssembly memory shares (filters, URL lists,
 * readers, the exact index): structuredClone() and postMessage() refuse it
 * with a way to copy it, `using` frees it when the scope ends, and
 * `console.log` shows its one-line `toString()` rather than wasm internals.
 */
export abstract class WasmOwner {
  /** `what` and `recipe`: what the refused structuredClone() names, and how to copy it instead. */
  protected constructor(what: string, recipe: string) {
    refuseStructuredClone(this, what, recipe);
  }

  /** Releases the wasm memory now. */
  abstract free(): void;

  /** The one-line summary `console.log` shows. */
  abstract toString(): string;

  /** `free()`, for `using x = ...`: freed when the scope ends. */
  [Symbol.dispose](): void {
    this.free();
  }

  /** What `console.log()` and `util.inspect` show: the one-line summary of `toString()`, not wasm internals. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}
