// What a patch's target would be, computed without allocating it: the
// target is the base's first bytes (0 past its end) with the body's changes
// over them, so its CRC-32, its first 64 bytes and its last 8 follow from the
// base and the body alone (a run of zero bytes costs O(log n) in the CRC).
// applyPatch allocates the target only once these match what the patch
// declares: a short patch declaring a huge target is CORRUPT at no cost.
import { Crc32 } from './crc32.js';
import type { BodyReader } from './patch-format.js';
import type { ChangeSink } from './patch-body.js';

/** A filter file's header and checksum: the first 56 bytes say its length, the last 8 are its checksum. */
export const HEAD_BYTES = 64;
export const TAIL_BYTES = 8;

/** The target's CRC-32, first HEAD_BYTES and last TAIL_BYTES, from the base and a body walked into it. */
export class TargetCheck implements ChangeSink {
  readonly head = new Uint8Array(HEAD_BYTES);
  readonly tail = new Uint8Array(TAIL_BYTES);
  readonly #crc = new Crc32();
  readonly #base: Uint8Array;
  readonly #length: number;
  /** Target bytes before this are in the CRC. */
  #cursor = 0;
  /** The byte whose flipped bits are being gathered (-1: none), and its mask. */
  #flipByte = -1;
  #flipMask = 0;

  constructor(base: Uint8Array, targetLength: number) {
    this.#base = base;
    this.#length = targetLength;
  }

  run(start: number, length: number, body: BodyReader): void {
    this.#unchangedUpTo(start);
    for (let at = start; at < start + length; at++) this.#emit(at, body.bits(8));
    this.#cursor = start + length;
  }

  flip(position: number): void {
    const byte = Math.floor(position / 8);
    if (byte !== this.#flipByte) {
      this.#flushFlips();
      this.#flipByte = byte;
    }
    this.#flipMask ^= 1 << position % 8;
  }

  /** After the walk: the target's CRC-32 (head and tail are complete too). */
  finish(): number {
    this.#flushFlips();
    this.#unchangedUpTo(this.#length);
    return this.#crc.value();
  }

  #flushFlips(): void {
    if (this.#flipByte < 0) return;
    const at = this.#flipByte;
    this.#unchangedUpTo(at);
    this.#emit(at, (at < this.#base.length ? this.#base[at]! : 0) ^ this.#flipMask);
    this.#cursor = at + 1;
    this.#flipByte = -1;
    this.#flipMask = 0;
  }

  #emit(at: number, value: number): void {
    this.#crc.byte(value);
    if (at < HEAD_BYTES) this.head[at] = value;
    if (at >= this.#length - TAIL_BYTES) this.tail[at - (this.#length - TAIL_BYTES)] = value;
  }

  /** Target bytes [cursor, end) as the base has them (0 past its end). */
  #unchangedUpTo(end: number): void {
    const from = this.#cursor;
    const baseEnd = Math.min(end, this.#base.length);
    if (from < baseEnd) {
      this.#crc.update(this.#base, from, baseEnd);
      for (let at = from; at < Math.min(baseEnd, HEAD_BYTES); at++) this.head[at] = this.#base[at]!;
      for (let at = Math.max(from, this.#length - TAIL_BYTES); at < baseEnd; at++) this.tail[at - (this.#length - TAIL_BYTES)] = this.#base[at]!;
    }
    const zerosFrom = Math.max(from, this.#base.length);
    // head and tail start as zeros, so only the CRC needs the zero bytes.
    if (zerosFrom < end) this.#crc.zeros(end - zerosFrom);
    this.#cursor = end;
  }
}
