import { FilterError } from '../errors.js';
import { crc32 } from './crc32.js';
import { BodyReader, bytesArgument, ENCODING_BYTE_RUNS, MAX_RICE_BITS, PATCH_HEADER_BYTES, readHeader, trailingChecksum } from './patch-format.js';

/**
 * Applies a patch from `diffFilters` to the filter file it was made from and
 * returns the new filter file's bytes (a new array; `base` is not changed).
 * It applies only to its exact base: the base's length and trailing checksum
 * must be the ones the patch names. What it makes is checked against the
 * target's length, trailing checksum and CRC-32 before it is returned, so a
 * damaged patch or base never yields wrong bytes. Needs no `init()`.
 *
 * ```ts
 * let bytes: Uint8Array;
 * try {
 *   bytes = applyPatch(current, await (await fetch('/list.patch')).arrayBuffer());
 * } catch {
 *   bytes = new Uint8Array(await (await fetch('/list.filter')).arrayBuffer()); // not our base: the whole file
 * }
 * ```
 * @throws FilterError `INVALID_ARGUMENT` (not bytes, or a patch of other base
 *   bytes: the message gives both lengths and checksums), `CORRUPT` (not a
 *   patch, damaged, or the result does not match the target's checksums),
 *   `UNSUPPORTED_VERSION`.
 */
export function applyPatch(base: Uint8Array | ArrayBuffer, patch: Uint8Array | ArrayBuffer): Uint8Array {
  const from = bytesArgument(base, 'applyPatch: base');
  const bytes = bytesArgument(patch, 'applyPatch: patch');
  const header = readHeader(bytes);
  const fromChecksum = from.length >= 8 ? trailingChecksum(from) : '(none)';
  if (from.length !== header.baseLength || fromChecksum !== header.baseChecksum) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `this patch applies only to its base filter (${header.baseLength} bytes, checksum ${header.baseChecksum}), ` +
        `not to these bytes (${from.length} bytes, checksum ${fromChecksum}): fetch the whole filter instead`,
    );
  }
  const result = new Uint8Array(header.targetLength);
  result.set(from.subarray(0, Math.min(from.length, result.length)));
  const body = new BodyReader(bytes, PATCH_HEADER_BYTES);
  if (header.encoding === ENCODING_BYTE_RUNS) applyRuns(result, body, header.count);
  else applyFlippedBits(result, body, header.count);
  if (body.offset !== bytes.length) {
    throw new FilterError('CORRUPT', `corrupt filter patch: ${bytes.length - body.offset} byte(s) after its last change`);
  }
  if (trailingChecksum(result) !== header.targetChecksum || crc32(result) !== header.targetCrc) {
    throw new FilterError(
      'CORRUPT',
      `the patched filter does not match the patch's target (checksum ${header.targetChecksum}): the patch or the base is damaged; fetch the whole filter instead`,
    );
  }
  return result;
}

function outside(what: string, at: number, length: number): FilterError {
  return new FilterError('CORRUPT', `corrupt filter patch: a ${what} at ${at} is past the target's ${length} bytes`);
}

function applyRuns(result: Uint8Array, body: BodyReader, count: number): void {
  let at = 0;
  for (let run = 0; run < count; run++) {
    const start = at + body.varint();
    const length = body.varint();
    if (length === 0 || start + length > result.length) throw outside('changed run', start, result.length);
    result.set(body.bytes(length), start);
    at = start + length;
  }
}

function applyFlippedBits(result: Uint8Array, body: BodyReader, count: number): void {
  const k = body.byte();
  if (k > MAX_RICE_BITS) throw new FilterError('CORRUPT', `corrupt filter patch: Rice parameter ${k} is above ${MAX_RICE_BITS}`);
  const totalBits = result.length * 8;
  const scale = 2 ** k;
  let position = -1;
  for (let i = 0; i < count; i++) {
    let quotient = 0;
    while (body.bit() === 1) {
      if (++quotient * scale > totalBits) throw outside('flipped bit', position, result.length);
    }
    let low = 0;
    for (let b = 0, weight = 1; b < k; b++, weight *= 2) low += body.bit() * weight;
    position += quotient * scale + low + 1;
    if (position >= totalBits) throw outside('flipped bit', Math.floor(position / 8), result.length);
    result[Math.floor(position / 8)]! ^= 1 << position % 8;
  }
  body.endBits();
}
