// The exact companion in the full package's module (bindings/embind.cpp,
// ExpressionSet*Handle): built as a blocklist stores its expressions, and read
// back to confirm. The handles' types are declared here (the module's own
// declarations, runtime/core-module.ts, cover the filters).
import { coreError, FilterError } from '../errors.js';
import { adoptHandle, withBytesInWasm } from '../core/filter-base.js';
import { getRuntime } from '../runtime/init.js';
import { type OwnedBytes } from '../keys/keys.js';
import { type BlocklistChecksum, type ConfirmationIndex, type ExactSet, registerConfirmationIndexReader } from './confirmation.js';

interface ExpressionSetBuilderHandle {
  add(expression: number, length: number): void;
  addSet(set: ExpressionSetHandle): void;
  size(): number;
  /** The set's bytes (a view into wasm memory, valid until the next call), bound to a blocklist checksum. */
  encode(checksumLow: number, checksumHigh: number): Uint8Array;
  /** Splits the set by hash prefix; returns the part count (views: splitIndex, splitPart, valid until the next call). */
  split(checksumLow: number, checksumHigh: number, partHashes: number): number;
  splitIndex(): Uint8Array;
  splitPart(part: number): Uint8Array;
  delete(): void;
}

interface ExpressionSetIndexHandle {
  ok(): boolean;
  errorCode(): string;
  errorMessage(): string;
  partCount(): number;
  count(): number;
  checksumLow(): number;
  checksumHigh(): number;
  partOf(expression: number, length: number): number;
  partBytes(part: number): number;
  partPrefix(part: number): number;
  /** '' when the bytes are part `part`, else the status name (checkMessage explains). */
  checkPart(part: number, data: number, length: number): string;
  checkMessage(): string;
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
  readExpressionSetIndex(data: number, length: number): ExpressionSetIndexHandle;
}

/** A split companion: its index and parts (each a complete type-33 blob over its range). */
export interface SplitConfirmation {
  /** The index (type 34): each part's range, size and checksum; the CLI's `<filter>.confirm.index`. */
  index: OwnedBytes;
  /** The parts in order (type 33 over a range each); part i is the CLI's `<filter>.confirm.parts/` + `confirmationPartName(i)`. */
  parts: OwnedBytes[];
}

/** Hashes a part by default (expression_set.h, kExpressionSetDefaultPartHashes): parts stay under 4 KB. */
export const DEFAULT_PART_HASHES = 512;

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

  /**
   * The companion split by hash prefix (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md, "Confirming in
   * parts"): parts of about `partHashes` hashes and their index, bound like `encode`.
   */
  split(blocklist: BlocklistChecksum, partHashes: number = DEFAULT_PART_HASHES): SplitConfirmation {
    const handle = this.#live();
    const count = handle.split(blocklist.low, blocklist.high, partHashes);
    const parts: OwnedBytes[] = [];
    for (let part = 0; part < count; part++) parts.push(handle.splitPart(part).slice());
    return { index: handle.splitIndex().slice(), parts };
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
 * The one owner of a companion reader's wasm handle: `use()` gives it, or
 * throws `FREED` ("this `what` was freed") once `free()` has deleted it.
 */
function ownedHandle<Handle extends { delete(): void }>(handle: Handle, what: string) {
  let live: Handle | null = handle;
  return {
    use(): Handle {
      if (live === null) throw new FilterError('FREED', `this ${what} was freed`);
      return live;
    },
    isLive(): boolean {
      return live !== null;
    },
    free(): void {
      live?.delete();
      live = null;
    },
  };
}

/**
 * Reads companion bytes in the full package's module.
 * @throws FilterError `CORRUPT`, `WRONG_TYPE`, `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT` (not bytes).
 */
export function readExactSet(bytes: Uint8Array | ArrayBuffer): FullExactSet {
  const handle = adoptHandle(withBytesInWasm(bytes, (pointer, length) => setModule().readExpressionSet(pointer, length)));
  const { use, isLive, free } = ownedHandle(handle, 'confirmation');
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
      return isLive() ? use().address() : 0;
    },
    get handle(): unknown {
      return use();
    },
    count: handle.count(),
    payloadBytes: handle.payloadBytes(),
    blocklistChecksum: { low: handle.checksumLow() >>> 0, high: handle.checksumHigh() >>> 0 },
    free,
  };
}

/** A split companion's index read in the full package's module, with its first 32 bits of each part's range (for info). */
export interface FullConfirmationIndex extends ConfirmationIndex {
  partPrefix(part: number): number;
}

/**
 * Reads a split companion's index in the full package's module.
 * @throws FilterError `CORRUPT`, `WRONG_TYPE`, `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT` (not bytes), `OUT_OF_MEMORY`.
 */
export function readConfirmationIndex(bytes: Uint8Array | ArrayBuffer): FullConfirmationIndex {
  const handle = adoptHandle(withBytesInWasm(bytes, (pointer, length) => setModule().readExpressionSetIndex(pointer, length)));
  const { use, free } = ownedHandle(handle, 'confirmation index');
  const partCount = handle.partCount();
  const requirePart = (part: number): void => {
    if (!Number.isInteger(part) || part < 0 || part >= partCount) {
      throw new FilterError('INVALID_ARGUMENT', `part ${String(part)} does not exist: this split has ${partCount} parts (0..${partCount - 1})`);
    }
  };
  return {
    partCount,
    count: handle.count(),
    blocklistChecksum: { low: handle.checksumLow() >>> 0, high: handle.checksumHigh() >>> 0 },
    partOf(expression: string): number {
      const { arena } = getRuntime();
      const length = arena.encode(expression);
      return use().partOf(arena.pointer, length);
    },
    partBytes(part: number): number {
      requirePart(part);
      return use().partBytes(part);
    },
    partPrefix(part: number): number {
      requirePart(part);
      return use().partPrefix(part) >>> 0;
    },
    readPart(part: number, input: Uint8Array): ExactSet {
      requirePart(part);
      const index = use();
      const code = withBytesInWasm(input, (pointer, length) => index.checkPart(part, pointer, length));
      if (code !== '') throw coreError(code, index.checkMessage());
      return readExactSet(input);
    },
    free,
  };
}

/**
 * Splits a companion (`UrlBlocklist#confirmation()`'s bytes, the CLI's
 * `<filter>.confirm`) by hash prefix (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md, "Confirming in
 * parts"): parts of about `partHashes` hashes (512 by default: under 4 KB each),
 * each a complete companion over its range of the hash space, and their index,
 * all bound to the same blocklist bytes. `attachConfirmationParts` reads them.
 * @throws FilterError as `readExactSet`; `INVALID_ARGUMENT` for a part size outside 1..2^24.
 */
export function splitConfirmation(companion: Uint8Array | ArrayBuffer, partHashes: number = DEFAULT_PART_HASHES): SplitConfirmation {
  if (!Number.isInteger(partHashes) || partHashes < 1 || partHashes > 1 << 24) {
    throw new FilterError('INVALID_ARGUMENT', `partHashes must be an integer in 1..16777216, got ${String(partHashes)}`);
  }
  const set = readExactSet(companion);
  const builder = new ExactSetBuilder();
  try {
    builder.addSet(set);
    return builder.split(set.blocklistChecksum, partHashes);
  } finally {
    builder.free();
    set.free();
  }
}

/** What `describeConfirmationIndex` reads from a split companion's index. */
export interface ConfirmationIndexFacts {
  /** Distinct expressions in all parts together. */
  expressions: number;
  /** Each part's bytes, as the index records them (part i is the file `confirmationPartName(i)`). */
  partBytes: number[];
  /** The first 32 bits of each part's range of hashes (part 0 starts at 0). */
  partPrefixes: number[];
  /** The trailing checksum of the blocklist bytes it was built with, as 16 hex digits. */
  builtFor: string;
}

function hexOf({ low, high }: BlocklistChecksum): string {
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}

/**
 * What a split companion's index (`splitConfirmation(...).index`, the CLI's
 * `<filter>.confirm.index`) describes.
 * @throws FilterError `CORRUPT`, `WRONG_TYPE`, `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT` (not bytes).
 */
export function describeConfirmationIndex(index: Uint8Array | ArrayBuffer): ConfirmationIndexFacts {
  const read = readConfirmationIndex(index);
  try {
    const parts = Array.from({ length: read.partCount }, (_, part) => part);
    return {
      expressions: read.count,
      partBytes: parts.map((part) => read.partBytes(part)),
      partPrefixes: parts.map((part) => read.partPrefix(part)),
      builtFor: hexOf(read.blocklistChecksum),
    };
  } finally {
    read.free();
  }
}

/**
 * Checks bytes as part `part` of the split whose index is `index`: returns
 * when they are exactly that part (its size and checksum as the index
 * records them, its range, seed and blocklist).
 * @throws FilterError `CORRUPT` (damaged, another part's, another build's or list's), `WRONG_TYPE`,
 *   `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT` (no such part, not bytes).
 */
export function checkConfirmationPart(index: Uint8Array | ArrayBuffer, part: number, bytes: Uint8Array | ArrayBuffer): void {
  const read = readConfirmationIndex(index);
  try {
    read.readPart(part, bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes).free();
  } finally {
    read.free();
  }
}

registerConfirmationIndexReader(readConfirmationIndex);
