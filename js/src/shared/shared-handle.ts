// The types a shared filter's handle is made of: a leaf, read by the filter
// (shared-filter.ts) and by the place it names in the memory (shared-place.ts).

/** The filter types the shared entry has: the concurrent forms of the four plain types of the same names. */
export type SharedFilterType = 'bloom' | 'blocked-bloom' | 'counting-bloom' | 'cuckoo';

/**
 * A `WebAssembly.Memory`, typed by what a handle's reader may rely on, so the typings
 * need neither DOM nor Node types (`types: []`, `lib: ["es2022"]`; issue #44: they
 * failed with "Cannot find namespace 'WebAssembly'"). Any `WebAssembly.Memory` is one.
 */
export interface SharedWasmMemory {
  /** The memory's bytes: a `SharedArrayBuffer` shared by every thread attached to it. */
  readonly buffer: ArrayBufferLike;
}

/** A compiled `WebAssembly.Module`, opaque to the typings (see {@link SharedWasmMemory}). */
export type SharedWasmModule = object;

/**
 * What `handle()` returns and `attach()` reads: a plain object that
 * `postMessage` copies (structured clone) without copying the filter. The
 * memory and the compiled module are shared with the receiving thread, not copied.
 */
export interface SharedFilterHandle {
  /** Always `'cuckoo-bloom-wasm/shared'`: what `attach()` checks first. */
  readonly kind: 'cuckoo-bloom-wasm/shared';
  /** The filter's type. */
  readonly type: SharedFilterType;
  /** The shared memory the filter lives in. */
  readonly memory: SharedWasmMemory;
  /** The compiled core.shared.wasm (each thread instantiates it once over the memory). */
  readonly module: SharedWasmModule;
  /** The filter's slot in the memory's filter table. */
  readonly slot: number;
  /** The slot's generation when the handle was made: after `free()` it moves on, and the handle is stale. */
  readonly generation: number;
  /** Two random words the creating thread wrote into the memory, naming it. */
  readonly mark: readonly [number, number];
  /** Where in the memory the mark is. */
  readonly markAddress: number;
}
