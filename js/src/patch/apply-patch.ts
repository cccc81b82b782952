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

function applyRuns(result: Uint8Array, body: BodyReader, count: number): void {
  const gapBits = riceParameter(body);
  const lengthBits = riceParameter(body);
  let at = 0;
  for (let run = 0; run < count; run++) {
    const start = at + body.rice(gapBits, result.length);
    const length = body.rice(lengthBits, result.length) + 1;
    if (start + length > result.length) {
      throw new FilterError('CORRUPT', `corrupt filter patch: a changed run at byte ${start} is past the target's ${result.length} bytes`);
    }
    for (let i = start; i < start + length; i++) result[i] = body.bits(8);
    at = start + length;
  }
  body.endBits();
}

function applyFlippedBits(result: Uint8Array, body: BodyReader, count: number): void {
  const gapBits = riceParameter(body);
  const totalBits = result.length * 8;
  let position = -1;
  for (let i = 0; i < count; i++) {
    position += body.rice(gapBits, totalBits) + 1;
    if (position >= totalBits) {
      throw new FilterError('CORRUPT', `corrupt filter patch: a flipped bit at byte ${Math.floor(position / 8)} is past the target's ${result.length} bytes`);
    }
    result[Math.floor(position / 8)]! ^= 1 << position % 8;
  }
  body.endBits();
}

function riceParameter(body: BodyReader): number {
  const k = body.byte();
  if (k > MAX_RICE_BITS) throw new FilterError('CORRUPT', `corrupt filter patch: Rice parameter ${k} is above ${MAX_RICE_BITS}`);
  return k;
}
