import { FilterError } from '../index.js';
import type { OwnedBytes } from '../keys/keys.js';
import type { RedisCore } from './positions.js';

/** A blocked Bloom blob: 56-byte header + 8-byte parameter block, the payload, an 8-byte checksum (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md). */
const HEAD_BYTES = 64;
const CHECKSUM_BYTES = 8;
/** Bytes hashed per trip through wasm memory: the most of a snapshot that wasm ever holds. */
const SCRATCH_BYTES = 1024 * 1024;

interface BlobFields {
  seed: number;
  capacity: number;
  falsePositiveRate: number;
  itemCount: number;
  blockCount: number;
}

/**
 * A snapshot assembled in JS memory: the payload is copied in chunk by chunk
 * as Redis sends it, and hashed in payload order through a small wasm scratch
 * region, so wasm never holds the table (a 1 GiB filter needs 1 GiB once, in
 * the returned bytes, not three times).
 */
export class BlobAssembler {
  readonly bytes: OwnedBytes;
  readonly #core: RedisCore;
  readonly #fields: BlobFields;
  readonly #payloadBytes: number;
  #scratch = 0;
  #state = 0;
  #hashedTo = 0;
  #setBits = 0;
  /** Payload ranges copied in but not yet hashed (they arrive in any order): start → end. */
  readonly #pending = new Map<number, number>();

  /** @throws FilterError `OUT_OF_MEMORY` when the blob does not fit in one Uint8Array or wasm has no scratch. */
  constructor(core: RedisCore, fields: BlobFields) {
    this.#core = core;
    this.#fields = fields;
    this.#payloadBytes = fields.blockCount * 64;
    const total = HEAD_BYTES + this.#payloadBytes + CHECKSUM_BYTES;
    try {
      this.bytes = new Uint8Array(total);
    } catch (error) {
      throw new FilterError('OUT_OF_MEMORY', `cannot allocate a ${total}-byte snapshot in this process`, { cause: error });
    }
    this.#scratch = core._malloc(Math.min(SCRATCH_BYTES, Math.max(HEAD_BYTES, this.#payloadBytes)));
    if (this.#scratch === 0) throw new FilterError('OUT_OF_MEMORY', 'cannot reserve wasm memory to checksum a snapshot');
    this.#writeHead(fields.itemCount);
  }

  /** Copies payload bytes [at, at + chunk.length) in, and hashes whatever now follows what was hashed. */
  put(at: number, chunk: Uint8Array): void {
    this.bytes.set(chunk, HEAD_BYTES + at);
    this.#pending.set(at, at + chunk.length);
    for (let end = this.#pending.get(this.#hashedTo); end !== undefined; end = this.#pending.get(this.#hashedTo)) {
      this.#pending.delete(this.#hashedTo);
      this.#setBits += this.#hash(HEAD_BYTES + this.#hashedTo, HEAD_BYTES + end);
      this.#hashedTo = end;
    }
  }

  /** The finished blob, once every payload byte was put. */
  finish(): OwnedBytes {
    if (this.#hashedTo !== this.#payloadBytes) {
      throw new FilterError('CORRUPT', `a snapshot was finished with ${this.#hashedTo} of ${this.#payloadBytes} payload bytes`);
    }
    // The format bounds a Bloom filter's item count by its set bits (each
    // counted key set at least one new bit). Redis updates both in one
    // script, so this holds unless the table was changed behind the filter's
    // back; then the count (an estimate) yields, never the bits, and the
    // blob is hashed again under the corrected head.
    if (this.#setBits < this.#fields.itemCount) {
      this.#writeHead(this.#setBits);
      this.#hash(HEAD_BYTES, HEAD_BYTES + this.#payloadBytes);
    }
    const end = HEAD_BYTES + this.#payloadBytes;
    this.#core._cbw_redis_digest_final(this.#state, this.#scratch);
    this.#state = 0;
    this.bytes.set(this.#core.HEAPU8.subarray(this.#scratch, this.#scratch + CHECKSUM_BYTES), end);
    this.dispose();
    return this.bytes;
  }

  /** Frees the wasm state (also after a failure). */
  dispose(): void {
    if (this.#state !== 0) this.#core._cbw_redis_digest_free(this.#state);
    if (this.#scratch !== 0) this.#core._free(this.#scratch);
    this.#state = 0;
    this.#scratch = 0;
  }

  /** Starts the checksum over a head claiming `itemCount` keys. */
  #writeHead(itemCount: number): void {
    const core = this.#core;
    const { seed, capacity, falsePositiveRate, blockCount } = this.#fields;
    if (core._cbw_redis_head(seed, capacity, falsePositiveRate, itemCount, blockCount, this.#scratch) === 0) {
      throw new FilterError('CORRUPT', `a filter of ${blockCount} blocks for ${capacity} keys at ${falsePositiveRate} has no valid snapshot`);
    }
    this.bytes.set(core.HEAPU8.subarray(this.#scratch, this.#scratch + HEAD_BYTES), 0);
    if (this.#state !== 0) core._cbw_redis_digest_free(this.#state);
    this.#state = core._cbw_redis_digest_new();
    if (this.#state === 0) throw new FilterError('OUT_OF_MEMORY', 'cannot reserve wasm memory to checksum a snapshot');
    this.#hash(0, HEAD_BYTES);
  }

  /** Hashes bytes[start, end) through the scratch region; returns their set bits. */
  #hash(start: number, end: number): number {
    const core = this.#core;
    let setBits = 0;
    for (let at = start; at < end; at += SCRATCH_BYTES) {
      const piece = this.bytes.subarray(at, Math.min(end, at + SCRATCH_BYTES));
      core.HEAPU8.set(piece, this.#scratch);
      setBits += core._cbw_redis_digest_update(this.#state, this.#scratch, piece.length);
    }
    return setBits;
  }
}
