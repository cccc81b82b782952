import { crc32 } from './crc32.js';
import {
  bytesArgument,
  ENCODING_BYTE_RUNS,
  ENCODING_FLIPPED_BITS,
  MAX_RICE_BITS,
  PATCH_HEADER_BYTES,
  pushVarint,
  requireFilterBytes,
  varintBytes,
  writeHeader,
} from './patch-format.js';

// Two differing bytes this close are sent as one run: a new run costs at
// least 2 bytes (its gap and its length).
const RUN_MERGE_GAP = 2;

/**
 * The patch that turns the filter file `base` into the filter file `target`
 * (docs/FORMAT.md, "Filter patches"): bytes in, bytes out. Its size follows
 * the bytes that changed, so a small change of a list is a small patch when
 * the filter's layout does not depend on the rest of the list (Bloom, blocked
 * Bloom; a cuckoo filter changed in place with `UrlBlocklist#remove`/`add`).
 * The body is the smaller of two encodings: the changed byte runs, or the
 * positions of the flipped bits (Rice-coded gaps). `applyPatch` applies it to
 * `base` only, and checks what it made against `target`'s checksums.
 *
 * ```ts
 * const patch = diffFilters(oldBytes, newBytes);  // on the server
 * const bytes = applyPatch(oldBytes, patch);      // in the client: identical to newBytes
 * ```
 * @throws FilterError `INVALID_ARGUMENT` when either is not a filter file's bytes.
 */
export function diffFilters(base: Uint8Array | ArrayBuffer, target: Uint8Array | ArrayBuffer): Uint8Array {
  const from = bytesArgument(base, 'diffFilters: base');
  const to = bytesArgument(target, 'diffFilters: target');
  requireFilterBytes(from, 'diffFilters: base');
  requireFilterBytes(to, 'diffFilters: target');
  const runs = changedRuns(from, to);
  const flipped = flippedBits(from, to);
  const riceBits = bestRiceBits(flipped);
  const runsBody = runs.reduce((sum, [start, end], i) => sum + varintBytes(start - (i > 0 ? runs[i - 1]![1] : 0)) + varintBytes(end - start) + end - start, 0);
  const bitsBody = 1 + Math.ceil(riceCost(flipped, riceBits) / 8);
  const useRuns = runsBody <= bitsBody;
  const patch = new Uint8Array(PATCH_HEADER_BYTES + (useRuns ? runsBody : bitsBody));
  writeHeader(patch, useRuns ? ENCODING_BYTE_RUNS : ENCODING_FLIPPED_BITS, from, to, crc32(to), useRuns ? runs.length : flipped.length);
  if (useRuns) writeRuns(patch, runs, to);
  else writeFlippedBits(patch, flipped, riceBits);
  return patch;
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

/** Bits of the Rice codes of the gaps between `positions` with parameter `k`. */
function riceCost(positions: number[], k: number): number {
  let bits = 0;
  let previous = -1;
  const scale = 2 ** k;
  for (const p of positions) {
    bits += Math.floor((p - previous - 1) / scale) + 1 + k;
    previous = p;
  }
  return bits;
}

/** The Rice parameter that codes these gaps in the fewest bits (about log2 of the mean gap). */
function bestRiceBits(positions: number[]): number {
  if (positions.length === 0) return 0;
  const mean = (positions[positions.length - 1]! + 1) / positions.length;
  const guess = Math.max(0, Math.min(MAX_RICE_BITS, Math.floor(Math.log2(mean * Math.LN2))));
  let best = guess;
  for (const k of [guess - 1, guess + 1]) {
    if (k >= 0 && k <= MAX_RICE_BITS && riceCost(positions, k) < riceCost(positions, best)) best = k;
  }
  return best;
}

function writeRuns(patch: Uint8Array, runs: Array<[number, number]>, target: Uint8Array): void {
  const head: number[] = [];
  let at = PATCH_HEADER_BYTES;
  let previousEnd = 0;
  for (const [start, end] of runs) {
    head.length = 0;
    pushVarint(head, start - previousEnd);
    pushVarint(head, end - start);
    patch.set(head, at);
    at += head.length;
    patch.set(target.subarray(start, end), at);
    at += end - start;
    previousEnd = end;
  }
}

function writeFlippedBits(patch: Uint8Array, positions: number[], k: number): void {
  patch[PATCH_HEADER_BYTES] = k;
  let byte = PATCH_HEADER_BYTES + 1;
  let bit = 0;
  const put = (value: number): void => {
    if (value) patch[byte]! |= 1 << bit;
    if (++bit === 8) {
      bit = 0;
      byte++;
    }
  };
  const scale = 2 ** k;
  let previous = -1;
  for (const p of positions) {
    const gap = p - previous - 1;
    for (let q = Math.floor(gap / scale); q > 0; q--) put(1);
    put(0);
    let low = gap % scale;
    for (let i = 0; i < k; i++, low = Math.floor(low / 2)) put(low % 2);
    previous = p;
  }
}
