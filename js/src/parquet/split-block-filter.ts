// A Parquet split-block Bloom filter over a spec bitset (BloomFilter.md): blocks
// of eight 32-bit little-endian words; a value's hash h = XXH64(plain bytes, 0)
// picks block ((h >> 32) * numBlocks) >> 32, and with key = uint32(h) sets bit
// (key * SALT[i]) >>> 27 of word i. The same layout as the C++
// SplitBlockBloomFilter (cpp/include/cuckoo_bloom/parquet/), which builds them.
import { FilterError } from '../errors.js';
import type { ParquetPhysicalType } from './footer.js';
import { encodeForHash, hashScratch, type ParquetValue } from './plain-encoding.js';
import { hashHigh, hashLow, xxhash64Halves } from './xxhash64.js';

const SALT = new Uint32Array([0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31]);
/** The spec's bounds on a bitset: one 32-byte block at least, 128 MiB at most, a power of two. */
export const MIN_BITSET_BYTES = 32;
export const MAX_BITSET_BYTES = 128 * 1024 * 1024;

export class ParquetBloomFilter {
  /** The bitset's words (little-endian in the file; read as such whatever the platform). */
  private readonly words: Uint32Array;
  private readonly blockCount: number;

  /**
   * @param bitset the spec's bitset, copied.
   * @param physicalType how `has` encodes a JS value (the column's physical type).
   */
  constructor(
    bitset: Uint8Array,
    readonly physicalType: ParquetPhysicalType,
  ) {
    const length = bitset.length;
    if (length < MIN_BITSET_BYTES || length > MAX_BITSET_BYTES || (length & (length - 1)) !== 0) {
      throw new FilterError('CORRUPT', `Parquet Bloom filter: a bitset is a power of two bytes from 32 to 128 MiB, not ${length}`);
    }
    this.words = new Uint32Array(length / 4);
    const view = new DataView(bitset.buffer, bitset.byteOffset, bitset.byteLength);
    for (let w = 0; w < this.words.length; w++) this.words[w] = view.getUint32(4 * w, true);
    this.blockCount = length / 32;
  }

  /**
   * An empty filter of `numBytes` bytes (a power of two from 32 to 128 MiB), to
   * build one an engine reads: the same values at the same size give the same bytes.
   */
  static empty(numBytes: number, physicalType: ParquetPhysicalType): ParquetBloomFilter {
    if (!Number.isSafeInteger(numBytes) || numBytes < MIN_BITSET_BYTES || numBytes > MAX_BITSET_BYTES || (numBytes & (numBytes - 1)) !== 0) {
      throw new FilterError('INVALID_ARGUMENT', `Parquet Bloom filter: numBytes must be a power of two from 32 to 128 MiB, not ${numBytes}`);
    }
    return new ParquetBloomFilter(new Uint8Array(numBytes), physicalType);
  }

  /** The bitset's bytes, as the spec lays them out. */
  get bitset(): Uint8Array {
    const bytes = new Uint8Array(this.words.length * 4);
    const view = new DataView(bytes.buffer);
    this.words.forEach((word, w) => view.setUint32(4 * w, word, true));
    return bytes;
  }

  /** False: the row group does not hold `value`. True: it may. */
  has(value: ParquetValue): boolean {
    this.hashValue(value);
    return this.hasHalves(hashHigh(), hashLow());
  }

  add(value: ParquetValue): void {
    this.hashValue(value);
    const first = this.firstWord(hashHigh());
    const key = hashLow();
    for (let i = 0; i < 8; i++) this.words[first + i]! |= 1 << (Math.imul(key, SALT[i]!) >>> 27);
  }

  /** add() on a hash already computed (XXH64 of the plain bytes, seed 0). */
  addHash(hash: bigint): void {
    const first = this.firstWord(Number(hash >> 32n));
    const key = Number(hash & 0xffffffffn);
    for (let i = 0; i < 8; i++) this.words[first + i]! |= 1 << (Math.imul(key, SALT[i]!) >>> 27);
  }

  /** The probe on a hash already computed (XXH64 of the plain bytes, seed 0). */
  hasHash(hash: bigint): boolean {
    return this.hasHalves(Number(hash >> 32n), Number(hash & 0xffffffffn));
  }

  private hasHalves(hashHigh32: number, key: number): boolean {
    const first = this.firstWord(hashHigh32);
    for (let i = 0; i < 8; i++) {
      const bit = Math.imul(key, SALT[i]!) >>> 27;
      if ((this.words[first + i]! & (1 << bit)) === 0) return false;
    }
    return true;
  }

  /** XXH64 of the value's plain bytes into hashHigh()/hashLow(). */
  private hashValue(value: ParquetValue): void {
    if (value instanceof Uint8Array && (this.physicalType === 'BYTE_ARRAY' || this.physicalType === 'FIXED_LEN_BYTE_ARRAY')) {
      xxhash64Halves(value, value.length);
    } else {
      const length = encodeForHash(value, this.physicalType);
      xxhash64Halves(hashScratch(), length);
    }
  }

  /** The first word of the block a hash's high 32 bits choose: ((h >> 32) * numBlocks) >> 32. */
  private firstWord(hashHigh32: number): number {
    // hashHigh32 * blockCount < 2^32 * 2^22: exact in a double, so the division is >> 32.
    return Math.floor((hashHigh32 * this.blockCount) / 4294967296) * 8;
  }
}
