import { crc32 } from './crc32.js';
import { requireIntactFilter } from './filter-checksum.js';
import {
  bestRiceParameter,
  BitWriter,
  bytesArgument,
  ENCODING_BYTE_RUNS,
  ENCODING_FLIPPED_BITS,
  PATCH_HEADER_BYTES,
  requireFilterBytes,
  riceBits,
  writeHeader,
} from './patch-format.js';

// Two differing bytes one apart are sent as one run: the byte between costs
// 8 bits, a new run's gap and length codes about as many.
const RUN_MERGE_GAP = 1;

/**
 * The patch that turns the filter file `base` into the filter file `target`
 * (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, "Filter patches"): bytes in, bytes out. Its size follows
 * the bytes that changed, so a small change of a list is a small patch when
 * the filter's layout does not depend on the rest of the list (Bloom, blocked
 * Bloom; a cuckoo filter changed in place with `UrlBlocklist#remove`/`add`).
 * The body is the smaller of two encodings: the changed byte runs (a
 * cuckoo filter's edited slots), or the positions of the flipped bits (a
 * Bloom filter's scattered bits), with Rice-coded gaps. `applyPatch` applies it to
 * `base` only, and checks what it made against `target`'s checksums.
 *
 * ```ts
 * const patch = diffFilters(oldBytes, newBytes);  // on the server
 * const bytes = applyPatch(oldBytes, patch);      // in the client: identical to newBytes
 * ```
 * Both must be whole and undamaged (their declared length and trailing
 * checksum, checked without the wasm module): a patch made from a damaged
 * filter would pass the damage on under a checksum that vouches for it.
 * @throws FilterError `INVALID_ARGUMENT` when either is not a filter file's
 *   bytes; `CORRUPT` when either is damaged (its length is not the one its
 *   header declares, or its checksum does not match).
 */
export function diffFilters(base: Uint8Array | ArrayBuffer, target: Uint8Array | ArrayBuffer): Uint8Array {
  const from = bytesArgument(base, 'diffFilters: base');
  const to = bytesArgument(target, 'diffFilters: target');
  requireFilterBytes(from, 'diffFilters: base');
  requireFilterBytes(to, 'diffFilters: target');
  requireIntactFilter(from, 'diffFilters: base');
  requireIntactFilter(to, 'diffFilters: target');
  const runs = runsOf(changedRuns(from, to));
  const bits = bitsOf(flippedBits(from, to));
  const useRuns = runs.bodyBytes <= bits.bodyBytes;
  const count = useRuns ? runs.gaps.length : bits.gaps.length;
  const patch = new Uint8Array(PATCH_HEADER_BYTES + (useRuns ? runs.bodyBytes : bits.bodyBytes));
  writeHeader(patch, useRuns ? ENCODING_BYTE_RUNS : ENCODING_FLIPPED_BITS, from, to, crc32(to), count);
  if (useRuns) {
    patch[PATCH_HEADER_BYTES] = runs.gapBits;
    patch[PATCH_HEADER_BYTES + 1] = runs.lengthBits;
    const out = new BitWriter(patch, PATCH_HEADER_BYTES + 2);
    for (let i = 0; i < count; i++) {
      out.rice(runs.gaps[i]!, runs.gapBits);
      out.rice(runs.lengths[i]! - 1, runs.lengthBits);
      for (let at = runs.starts[i]!, end = at + runs.lengths[i]!; at < end; at++) out.bits(to[at]!, 8);
    }
  } else {
    patch[PATCH_HEADER_BYTES] = bits.gapBits;
    const out = new BitWriter(patch, PATCH_HEADER_BYTES + 1);
    for (const gap of bits.gaps) out.rice(gap, bits.gapBits);
  }
  return patch;
}

/** The runs encoding's fields and size: Rice-coded gaps and lengths, then each run's bytes. */
function runsOf(runs: Array<[number, number]>) {
  const starts = runs.map(([start]) => start);
  const gaps = runs.map(([start], i) => start - (i > 0 ? runs[i - 1]![1] : 0));
  const lengths = runs.map(([start, end]) => end - start);
  const gapBits = bestRiceParameter(gaps);
  const lengthBits = bestRiceParameter(lengths.map((n) => n - 1));
  let bits = 0;
  for (let i = 0; i < runs.length; i++) bits += riceBits(gaps[i]!, gapBits) + riceBits(lengths[i]! - 1, lengthBits) + 8 * lengths[i]!;
  return { starts, gaps, lengths, gapBits, lengthBits, bodyBytes: 2 + Math.ceil(bits / 8) };
}

/** The flipped-bits encoding's fields and size: the Rice-coded gaps between flipped bits. */
function bitsOf(positions: number[]) {
  const gaps = positions.map((p, i) => p - (i > 0 ? positions[i - 1]! : -1) - 1);
  const gapBits = bestRiceParameter(gaps);
  const bits = gaps.reduce((sum, gap) => sum + riceBits(gap, gapBits), 0);
  return { gaps, gapBits, bodyBytes: 1 + Math.ceil(bits / 8) };
}

/** The base byte a target byte replaces: past the base's end, 0. */
function baseByte(base: Uint8Array, at: number): number {
  return at < base.length ? base[at]! : 0;
}

/** [start, end) of each run of target bytes that differ from the base, nearby runs merged. */
function changedRuns(base: Uint8Array, target: Uint8Array): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let i = 0; i < target.length; i++) {
    if (target[i] === baseByte(base, i)) continue;
    const last = runs[runs.length - 1];
    if (last !== undefined && i - last[1] <= RUN_MERGE_GAP) last[1] = i + 1;
    else runs.push([i, i + 1]);
  }
  return runs;
}

/** Bit positions (byte * 8 + bit, least significant bit first) where target and base differ. */
function flippedBits(base: Uint8Array, target: Uint8Array): number[] {
  const positions: number[] = [];
  for (let i = 0; i < target.length; i++) {
    let x = target[i]! ^ baseByte(base, i);
    for (let bit = 0; x !== 0; bit++, x >>= 1) if (x & 1) positions.push(i * 8 + bit);
  }
  return positions;
}
