// The exact companion in the full package's module (bindings/embind.cpp,
// ExpressionSet*Handle): built as a blocklist stores its expressions, and read
// back to confirm. The handles' types are declared here (the module's own
// declarations, runtime/core-module.ts, cover the filters).
import { coreError, FilterError } from '../errors.js';
import { withBytesInWasm } from '../core/filter-base.js';
import { getRuntime } from '../runtime/init.js';
import { type OwnedBytes } from '../keys/keys.js';
import { type BlocklistChecksum, type ExactSet } from './confirmation.js';

interface ExpressionSetBuilderHandle {
  add(expression: number, length: number): void;
  addSet(set: ExpressionSetHandle): void;
  size(): number;
  /** The set's bytes (a view into wasm memory, valid until the next call), bound to a blocklist checksum. */
  encode(checksumLow: number, checksumHigh: number): Uint8Array;
  delete(): void;
}

interface ExpressionSetHandle {
  ok(): boolean;
  errorCode(): string;
  errorMessage(): string;
  contains(expression: number, length: number): boolean;
  countContained(data: number, length: number): number;
  /** The set's bytes without this expression's hash (a view into wasm memory, valid until the next call). */
  without(expression: number, length: number): Uint8Array;
  address(): number;
  count(): number;
  payloadBytes(): number;
  checksumLow(): number;
  checksumHigh(): number;
  delete(): void;
}

interface ExpressionSetModule {
  ExpressionSetBuilderHandle: new () => ExpressionSetBuilderHandle;
  readExpressionSet(data: number, length: number): ExpressionSetHandle;
}

/** A set read in the full package's module (readExactSet). */
export interface FullExactSet extends ExactSet {
  countContained(expressions: string): number;
  /** Bytes of index and Rice stream. */
  readonly payloadBytes: number;
  /** The set's bytes without this expression's hash (same seed and checksum binding). */
  without(expression: string): OwnedBytes;
  /** @internal the embind handle, for ExactSetBuilder.addSet. */
  readonly handle: unknown;
}

function setModule(): ExpressionSetModule {
  return getRuntime().module as unknown as ExpressionSetModule;
}

/** Collects the hashes of stored expressions (8 bytes each in wasm memory); repeats are stored once in the set. */
export class ExactSetBuilder {
  #handle: ExpressionSetBuilderHandle | null = new (setModule().ExpressionSetBuilderHandle)();

  add(expression: string): void {
    const { arena } = getRuntime();
    const length = arena.encode(expression);
    this.#live().add(arena.pointer, length);
  }

  /** Every hash of a set read in this module (merging a blocklist's exceptions with new ones). */
  addSet(set: FullExactSet): void {
    this.#live().addSet(set.handle as ExpressionSetHandle);
  }

  /** The companion's bytes, bound to the blocklist bytes whose trailing checksum is `blocklist`. */
  encode(blocklist: BlocklistChecksum): OwnedBytes {
    return this.#live().encode(blocklist.low, blocklist.high).slice();
  }

  free(): void {
    this.#handle?.delete();
    this.#handle = null;
  }

  #live(): ExpressionSetBuilderHandle {
    if (this.#handle === null) throw new FilterError('FREED', 'this blocklist was freed');
    return this.#handle;
  }
}

/**
 * Reads companion bytes in the full package's module.
 * @throws FilterError `CORRUPT`, `WRONG_TYPE`, `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT` (not bytes).
 */
export function readExactSet(bytes: Uint8Array | ArrayBuffer): FullExactSet {
  const handle = withBytesInWasm(bytes, (pointer, length) => setModule().readExpressionSet(pointer, length));
  if (!handle.ok()) {
    const error = coreError(handle.errorCode(), handle.errorMessage());
    handle.delete();
    throw error;
  }
  let live: ExpressionSetHandle | null = handle;
  const use = (): ExpressionSetHandle => {
    if (live === null) throw new FilterError('FREED', 'this confirmation was freed');
    return live;
  };
  const encoder = new TextEncoder();
  return {
    holds(expression: string): boolean {
      const { arena } = getRuntime();
      const length = arena.encode(expression);
      return use().contains(arena.pointer, length);
    },
    countContained(expressions: string): number {
      return withBytesInWasm(encoder.encode(expressions), (pointer, length) => use().countContained(pointer, length));
    },
    without(expression: string): OwnedBytes {
      const { arena } = getRuntime();
      const length = arena.encode(expression);
      return use().without(arena.pointer, length).slice();
    },
    get address(): number {
      return live === null ? 0 : live.address();
    },
    get handle(): unknown {
      return use();
    },
    count: handle.count(),
    payloadBytes: handle.payloadBytes(),
    blocklistChecksum: { low: handle.checksumLow() >>> 0, high: handle.checksumHigh() >>> 0 },
    free(): void {
      live?.delete();
      live = null;
    },
  };
}
