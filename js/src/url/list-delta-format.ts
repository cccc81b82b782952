// The bytes of one list delta (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md, "Updates by delta"):
// a version of a URL blocklist is its base (filter + companion) plus an
// ordered chain of deltas, each naming the exact version it applies to. Plain
// JavaScript (XXH3-64 in js/src/patch/xxh3.ts), so both entries read it and a
// damaged or misplaced delta is refused before any set is read into wasm.
//
//   offset size field
//   0      4    magic "CBWD"
//   4      2    version (1)
//   6      2    reserved (0)
//   8      4    sequence: 1 for the first delta after a base, then +1 each
//   12     4    entries: distinct expressions of the version this delta makes
//   16     8    base identity: the trailing checksum of the base blocklist's bytes (sequence 1),
//               else the previous delta's trailing checksum
//   24     2    host labels, 26 2 path depth: the depth URLs are checked to from this version on
//   28     4    chain bytes: the bytes of the deltas before this one since the base
//   32     4    added set length A, 36 4 removed set length R, 40 4 screen length S
//   44     8    list digest: of the new version's expressions (delta-screen.ts listDigest)
//   52     A    the added expressions: a type-33 set (the companion's format and hash)
//   52+A   R    the removed expressions: a type-33 set
//   52+A+R S    the screen: a small Bloom filter of both (delta-screen.ts), asked first
//   end-8  8    XXH3-64 of every byte before: the identity of the version this delta makes
import { FilterError } from '../errors.js';
import { xxh3 } from '../patch/xxh3.js';
import type { ExpressionDepth } from './expressions.js';

export const DELTA_MAGIC = [0x43, 0x42, 0x57, 0x44]; // "CBWD"
export const DELTA_VERSION = 1;
export const DELTA_HEADER_BYTES = 52;
const CHECKSUM_BYTES = 8;

/**
 * Past this share of the base's bytes (filter and companion), a chain of
 * deltas costs a new client more than a fresh base would save: the CLI says to
 * rebuild. 25%: a client then fetches at most 1.25x a fresh base's bytes, and
 * each delta's check walks at most a few dozen small sets (a 1% update is
 * about 2% of the base, so ~12 of them, or ~125 of 0.1%).
 */
export const DELTA_CHAIN_REBUILD_SHARE = 0.25;

/** A delta's header, read and checked (its sets are still bytes). */
export interface DeltaHeader {
  sequence: number;
  entries: number;
  /** The identity of the version it applies to, as 16 hex digits. */
  base: string;
  /** The identity of the version it makes: its own trailing checksum, as 16 hex digits. */
  identity: string;
  depth: ExpressionDepth;
  /** Bytes of the deltas before it in its chain. */
  chainBytes: number;
  added: Uint8Array;
  removed: Uint8Array;
  screen: Uint8Array;
  /** The digest of its version's expressions (listDigest). */
  digest: [number, number];
  /** Its own length. */
  byteLength: number;
}

/** The last 8 bytes of a blob as 16 hex digits, most significant first (a filter's or a delta's identity). */
export function identityOf(bytes: Uint8Array): string {
  let hex = '';
  for (let i = bytes.length - 1; i >= bytes.length - CHECKSUM_BYTES; i--) hex += bytes[i]!.toString(16).padStart(2, '0');
  return hex;
}

/** Whether `bytes` start as a delta does (a blocklist starts "CBWF"). */
export function isDelta(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && DELTA_MAGIC.every((byte, i) => bytes[i] === byte);
}

/** What writeDelta writes: the header's fields, with `base` as the 8 bytes of a trailing checksum as stored. */
export type DeltaFields = Omit<DeltaHeader, 'base' | 'identity' | 'byteLength'> & { base: Uint8Array };

/** The delta's bytes: header, the two sets, then its checksum. */
export function writeDelta(fields: DeltaFields): ReturnType<Uint8Array['slice']> {
  const { added, removed, screen } = fields;
  const out = new Uint8Array(DELTA_HEADER_BYTES + added.length + removed.length + screen.length + CHECKSUM_BYTES);
  const view = new DataView(out.buffer);
  out.set(DELTA_MAGIC, 0);
  view.setUint16(4, DELTA_VERSION, true);
  view.setUint32(8, fields.sequence, true);
  view.setUint32(12, fields.entries, true);
  out.set(fields.base, 16);
  view.setUint16(24, fields.depth.hostLabels, true);
  view.setUint16(26, fields.depth.pathDepth, true);
  view.setUint32(28, Math.min(fields.chainBytes, 0xffffffff), true);
  view.setUint32(32, added.length, true);
  view.setUint32(36, removed.length, true);
  view.setUint32(40, screen.length, true);
  view.setUint32(44, fields.digest[0], true);
  view.setUint32(48, fields.digest[1], true);
  out.set(added, DELTA_HEADER_BYTES);
  out.set(removed, DELTA_HEADER_BYTES + added.length);
  out.set(screen, DELTA_HEADER_BYTES + added.length + removed.length);
  const end = out.length - CHECKSUM_BYTES;
  view.setBigUint64(end, xxh3(out.subarray(0, end)), true);
  return out;
}

/**
 * Reads and checks a delta: its magic, version, lengths and checksum.
 * @throws FilterError `CORRUPT` (not a delta, damaged or truncated), `UNSUPPORTED_VERSION`.
 */
export function readDelta(bytes: Uint8Array): DeltaHeader {
  if (bytes.length < DELTA_HEADER_BYTES + CHECKSUM_BYTES || !isDelta(bytes)) {
    throw new FilterError(
      'CORRUPT',
      `not a list delta (a delta starts with "CBWD" and is at least ${DELTA_HEADER_BYTES + CHECKSUM_BYTES} bytes; got ${bytes.length} bytes)`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const version = view.getUint16(4, true);
  if (version !== DELTA_VERSION) {
    throw new FilterError('UNSUPPORTED_VERSION', `list delta version ${version} is not supported (this package reads version ${DELTA_VERSION})`);
  }
  const addedLength = view.getUint32(32, true);
  const removedLength = view.getUint32(36, true);
  const screenLength = view.getUint32(40, true);
  const declared = DELTA_HEADER_BYTES + addedLength + removedLength + screenLength + CHECKSUM_BYTES;
  if (view.getUint16(6, true) !== 0 || declared !== bytes.length) {
    throw new FilterError('CORRUPT', `corrupt list delta: its header declares ${declared} bytes, it has ${bytes.length}`);
  }
  const end = bytes.length - CHECKSUM_BYTES;
  if (view.getBigUint64(end, true) !== xxh3(bytes.subarray(0, end))) {
    throw new FilterError('CORRUPT', 'corrupt list delta: its checksum does not match its bytes (damaged): fetch it again, or the whole list');
  }
  const sequence = view.getUint32(8, true);
  if (sequence === 0) throw new FilterError('CORRUPT', 'corrupt list delta: sequence 0 (the first delta after a base is 1)');
  return {
    sequence,
    entries: view.getUint32(12, true),
    base: identityOf(bytes.subarray(16, 24)),
    identity: identityOf(bytes),
    depth: { hostLabels: view.getUint16(24, true), pathDepth: view.getUint16(26, true) },
    chainBytes: view.getUint32(28, true),
    added: bytes.subarray(DELTA_HEADER_BYTES, DELTA_HEADER_BYTES + addedLength),
    removed: bytes.subarray(DELTA_HEADER_BYTES + addedLength, DELTA_HEADER_BYTES + addedLength + removedLength),
    screen: bytes.subarray(DELTA_HEADER_BYTES + addedLength + removedLength, end),
    digest: [view.getUint32(44, true), view.getUint32(48, true)],
    byteLength: bytes.length,
  };
}
