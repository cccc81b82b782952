import { FilterError } from '../errors.js';
import { type ChangeSink, walkBody } from './patch-body.js';
import { type BodyReader, bytesArgument, FILTER_MAGIC, readHeader, trailingChecksum } from './patch-format.js';
import { HEAD_BYTES, TargetCheck } from './target-check.js';

/**
 * Applies a patch from `diffFilters` to the filter file it was made from and
 * returns the new filter file's bytes (a new array; `base` is not changed).
 * It applies only to its exact base: the base's length and trailing checksum
 * must be the ones the patch names. What it would make is checked against
 * the target's length, trailing checksum and CRC-32 before the target is
 * even allocated (the body is walked once to check, once to write), so a
 * damaged patch or base never yields wrong bytes, and a patch declaring
 * gigabytes it cannot make costs nothing. Needs no `init()`.
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
 *   patch, damaged, a target over 2 GiB, or the result would not match the
 *   target's checksums), `UNSUPPORTED_VERSION`, `OUT_OF_MEMORY` (a checked
 *   target the engine cannot allocate).
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
  // First the whole patch is checked against what its target would be, with
  // nothing allocated: a damaged or hostile patch declaring a target of
  // gigabytes is CORRUPT before the gigabytes are asked for.
  const check = new TargetCheck(from, header.targetLength);
  walkBody(bytes, header, check);
  const crc = check.finish();
  const declared = declaredFilterLength(check.head);
  if (declared !== header.targetLength) {
    throw new FilterError(
      'CORRUPT',
      `corrupt filter patch: its target would not be a filter of its declared ${header.targetLength} bytes ` +
        `(${declared === null ? 'no filter header' : `its header would declare ${declared}`}): the patch or the base is damaged; fetch the whole filter instead`,
    );
  }
  if (trailingChecksum(check.tail) !== header.targetChecksum || crc !== header.targetCrc) {
    throw new FilterError(
      'CORRUPT',
      `the patched filter does not match the patch's target (checksum ${header.targetChecksum}): the patch or the base is damaged; fetch the whole filter instead`,
    );
  }
  const result = allocateTarget(header.targetLength);
  result.set(from.subarray(0, Math.min(from.length, result.length)));
  walkBody(bytes, header, new TargetWriter(result));
  return result;
}

/** The length a filter header declares (64 + P + L, https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md), or null when `head` is not one. */
function declaredFilterLength(head: Uint8Array): number | null {
  if (FILTER_MAGIC.some((byte, i) => head[i] !== byte)) return null;
  const view = new DataView(head.buffer, head.byteOffset, head.length);
  return HEAD_BYTES + view.getUint32(12, true) + Number(view.getBigUint64(48, true));
}

/** The target's bytes, zeroed; OUT_OF_MEMORY (never a RangeError) when the engine cannot allocate them. */
function allocateTarget(length: number): Uint8Array {
  try {
    return new Uint8Array(length);
  } catch (error) {
    throw new FilterError('OUT_OF_MEMORY', `applyPatch: cannot allocate the ${length}-byte target`, { cause: error });
  }
}

/** Writes the changes into the target (which starts as the base's bytes). */
class TargetWriter implements ChangeSink {
  readonly #result: Uint8Array;

  constructor(result: Uint8Array) {
    this.#result = result;
  }

  run(start: number, length: number, body: BodyReader): void {
    for (let at = start; at < start + length; at++) this.#result[at] = body.bits(8);
  }

  flip(position: number): void {
    this.#result[Math.floor(position / 8)]! ^= 1 << position % 8;
  }
}
