// The filter patch format (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, "Filter patches"): the header both
// diffFilters and applyPatch read, and the two body encodings' primitives.
// Not a filter blob (own magic, no type id): a patch turns one exact filter
// file (its base) into another (its target).
import { FilterError } from '../errors.js';

export const PATCH_MAGIC = [0x43, 0x42, 0x57, 0x50]; // "CBWP"
export const PATCH_VERSION = 1;
export const PATCH_HEADER_BYTES = 48;
/** Body encodings: changed byte runs (cuckoo-like edits), or Rice-coded flipped bits (Bloom-like scattered bits). */
export const ENCODING_BYTE_RUNS = 1;
export const ENCODING_FLIPPED_BITS = 2;
/** A filter blob: "CBWF", 56-byte header, 8-byte trailing checksum (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md). */
export const FILTER_MAGIC = [0x43, 0x42, 0x57, 0x46];
export const MIN_FILTER_BYTES = 64;
// The Rice parameter covers gaps up to 2^40 bits: more than any filter's 2 GiB.
export const MAX_RICE_BITS = 40;
/**
 * The largest base or target length a patch may declare: a filter is read
 * into wasm memory, which stops at 2 GiB, so no filter file is longer.
 */
export const MAX_FILTER_BYTES = 2 ** 31;

export interface PatchHeader {
  encoding: number;
  baseLength: number;
  /** The base's trailing checksum (its last 8 bytes), as hex. */
  baseChecksum: string;
  targetLength: number;
  targetChecksum: string;
  /** CRC-32 of every target byte: the result is checked against it. */
  targetCrc: number;
  /** Runs (encoding 1) or flipped bits (encoding 2). */
  count: number;
}

/** Bytes of `input` (a Uint8Array or ArrayBuffer), or INVALID_ARGUMENT naming `what`. */
export function bytesArgument(input: unknown, what: string): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  const got = input === null ? 'null' : typeof input;
  throw new FilterError('INVALID_ARGUMENT', `${what} must be a Uint8Array or an ArrayBuffer, got ${got}`);
}

/** INVALID_ARGUMENT unless `bytes` can be a filter file: its magic, and room for the header and checksum. */
export function requireFilterBytes(bytes: Uint8Array, what: string): void {
  if (bytes.length < MIN_FILTER_BYTES || FILTER_MAGIC.some((byte, i) => bytes[i] !== byte)) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `${what} is not a filter file (a filter starts with "CBWF" and is at least ${MIN_FILTER_BYTES} bytes; got ${bytes.length} bytes starting ${hexOf(bytes.subarray(0, 4))})`,
    );
  }
}

/** A filter file's trailing checksum (its last 8 bytes) as 16 hex digits, most significant first. */
export function trailingChecksum(bytes: Uint8Array): string {
  // Array.from, not slice(): a Node Buffer's slice() is a view, and reversing it
  // would reverse the caller's bytes (a base filter's checksum, in place).
  return hexOf(Array.from(bytes.subarray(bytes.length - 8)).reverse());
}

function hexOf(bytes: ArrayLike<number>): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('') || '(nothing)';
}

function writeU64(out: Uint8Array, at: number, value: number): void {
  new DataView(out.buffer, out.byteOffset).setBigUint64(at, BigInt(value), true);
}

function copyChecksum(out: Uint8Array, at: number, filter: Uint8Array): void {
  out.set(filter.subarray(filter.length - 8), at);
}

/** The 48-byte header of a patch from `base` to `target`. */
export function writeHeader(out: Uint8Array, encoding: number, base: Uint8Array, target: Uint8Array, targetCrc: number, count: number): void {
  out.set(PATCH_MAGIC, 0);
  const view = new DataView(out.buffer, out.byteOffset);
  view.setUint16(4, PATCH_VERSION, true);
  out[6] = encoding;
  out[7] = 0;
  writeU64(out, 8, base.length);
  copyChecksum(out, 16, base);
  writeU64(out, 24, target.length);
  copyChecksum(out, 32, target);
  view.setUint32(40, targetCrc, true);
  view.setUint32(44, count, true);
}

/** Reads and checks a patch's header. CORRUPT (not a patch, damaged), UNSUPPORTED_VERSION. */
export function readHeader(patch: Uint8Array): PatchHeader {
  if (patch.length < PATCH_HEADER_BYTES || PATCH_MAGIC.some((byte, i) => patch[i] !== byte)) {
    throw new FilterError(
      'CORRUPT',
      `not a filter patch (a patch starts with "CBWP" and has a ${PATCH_HEADER_BYTES}-byte header; got ${patch.length} bytes starting ${hexOf(patch.subarray(0, 4))})`,
    );
  }
  const view = new DataView(patch.buffer, patch.byteOffset, patch.length);
  const version = view.getUint16(4, true);
  if (version !== PATCH_VERSION) {
    throw new FilterError('UNSUPPORTED_VERSION', `filter patch version ${version} is not supported (this package reads version ${PATCH_VERSION})`);
  }
  const encoding = patch[6]!;
  if ((encoding !== ENCODING_BYTE_RUNS && encoding !== ENCODING_FLIPPED_BITS) || patch[7] !== 0) {
    throw new FilterError('CORRUPT', `corrupt filter patch: unknown body encoding ${encoding} (1 = byte runs, 2 = flipped bits)`);
  }
  const length = (at: number, what: string): number => {
    const value = view.getBigUint64(at, true);
    if (value < BigInt(MIN_FILTER_BYTES) || value > BigInt(MAX_FILTER_BYTES)) {
      throw new FilterError(
        'CORRUPT',
        `corrupt filter patch: its ${what} length ${value} cannot be a filter's (${MIN_FILTER_BYTES} bytes to ${MAX_FILTER_BYTES / 2 ** 30} GiB)`,
      );
    }
    return Number(value);
  };
  return {
    encoding,
    baseLength: length(8, 'base'),
    baseChecksum: trailingChecksum(patch.subarray(16, 24)),
    targetLength: length(24, 'target'),
    targetChecksum: trailingChecksum(patch.subarray(32, 40)),
    targetCrc: view.getUint32(40, true),
    count: view.getUint32(44, true),
  };
}

/** Bits of the Rice code of `value` with parameter `k`: the quotient in unary, a 0, then k low bits. */
export function riceBits(value: number, k: number): number {
  return Math.floor(value / 2 ** k) + 1 + k;
}

/** The Rice parameter that codes `values` in the fewest bits (near log2 of their mean). */
export function bestRiceParameter(values: number[]): number {
  if (values.length === 0) return 0;
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  const cost = (k: number): number => values.reduce((sum, v) => sum + riceBits(v, k), 0);
  let best = Math.max(0, Math.min(MAX_RICE_BITS, Math.floor(Math.log2(Math.max(1, mean * Math.LN2)))));
  for (const k of [best - 1, best + 1]) if (k >= 0 && k <= MAX_RICE_BITS && cost(k) < cost(best)) best = k;
  return best;
}

/**
 * A position in a byte array counted in bits, for the writer and the reader of a
 * bit stream: bits fill each byte from its least significant, then move to the next.
 */
class BitCursor {
  protected readonly bytes: Uint8Array;
  protected at: number;
  protected bitAt = 0;

  constructor(bytes: Uint8Array, at: number) {
    this.bytes = bytes;
    this.at = at;
  }

  /** Past one bit: after a byte's eighth, on to the next byte. */
  protected stepBit(): void {
    if (++this.bitAt === 8) {
      this.bitAt = 0;
      this.at++;
    }
  }
}

/** Writes a bit stream into `out` from byte `at`: bits fill bytes from the least significant; `out` starts zeroed. */
export class BitWriter extends BitCursor {
  bit(value: number): void {
    if (value) this.bytes[this.at]! |= 1 << this.bitAt;
    this.stepBit();
  }

  /** `count` low bits of `value`, least significant first. */
  bits(value: number, count: number): void {
    for (let i = 0; i < count; i++, value = Math.floor(value / 2)) this.bit(value % 2);
  }

  rice(value: number, k: number): void {
    const scale = 2 ** k;
    for (let q = Math.floor(value / scale); q > 0; q--) this.bit(1);
    this.bit(0);
    this.bits(value % scale, k);
  }
}

/** Reads the patch body: bytes and bits, each bounded by the body's end (CORRUPT past it). */
export class BodyReader extends BitCursor {
  get offset(): number {
    return this.at;
  }

  byte(): number {
    if (this.at >= this.bytes.length) throw truncated();
    return this.bytes[this.at++]!;
  }

  /** One bit, least significant first within each byte. */
  bit(): number {
    if (this.at >= this.bytes.length) throw truncated();
    const value = (this.bytes[this.at]! >> this.bitAt) & 1;
    this.stepBit();
    return value;
  }

  /** `count` bits, least significant first. */
  bits(count: number): number {
    let value = 0;
    for (let i = 0, weight = 1; i < count; i++, weight *= 2) value += this.bit() * weight;
    return value;
  }

  /** A Rice code with parameter `k`; CORRUPT when its quotient passes `limit`. */
  rice(k: number, limit: number): number {
    const scale = 2 ** k;
    let quotient = 0;
    while (this.bit() === 1) {
      if (++quotient * scale > limit) throw new FilterError('CORRUPT', `corrupt filter patch: a change lies past the target's end`);
    }
    return quotient * scale + this.bits(k);
  }

  /** The end of a bit stream: the rest of its last byte must be 0 bits. */
  endBits(): void {
    if (this.bitAt === 0) return;
    if (this.bytes[this.at]! >> this.bitAt !== 0) throw new FilterError('CORRUPT', 'corrupt filter patch: padding bits are not 0');
    this.bitAt = 0;
    this.at++;
  }
}

function truncated(): FilterError {
  return new FilterError('CORRUPT', 'corrupt filter patch: its body ends before its last change (truncated)');
}
