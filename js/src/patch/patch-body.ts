// Walking a patch's body (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, "Filter patches"): the changes it
// makes, in order, each checked against the target's length and the body's
// end. applyPatch walks it twice: once to check what the target would be
// (its length, last 8 bytes and CRC-32) without allocating it, once to
// write it. Both walks are this code, so what was checked is what is written.
import { FilterError } from '../errors.js';
import { BodyReader, ENCODING_BYTE_RUNS, MAX_RICE_BITS, PATCH_HEADER_BYTES, type PatchHeader } from './patch-format.js';

/** Receives a body's changes in increasing order. */
export interface ChangeSink {
  /** Target bytes [start, start + length) are the next `length` bytes of `body` (read each with body.bits(8)). */
  run(start: number, length: number, body: BodyReader): void;
  /** Target bit `position` (byte position >> 3, bit position & 7) is flipped. */
  flip(position: number): void;
}

/**
 * Walks the body of `patch` (header already read) into `sink`. CORRUPT when a
 * change lies past the target's end, the body ends early, its padding is not
 * 0, or bytes follow its last change. Before any change is read, the count
 * the header declares is checked against the body's length: every run takes
 * at least 10 + its two Rice parameters in bits, every flipped bit 1 + its
 * parameter, so a count no body of this length can hold is refused at once.
 */
export function walkBody(patch: Uint8Array, header: PatchHeader, sink: ChangeSink): void {
  const body = new BodyReader(patch, PATCH_HEADER_BYTES);
  const runs = header.encoding === ENCODING_BYTE_RUNS;
  const parameters = runs ? [riceParameter(body), riceParameter(body)] : [riceParameter(body)];
  const leastBits = runs ? 10 + parameters[0]! + parameters[1]! : 1 + parameters[0]!;
  const bodyBits = (patch.length - body.offset) * 8;
  if (header.count * leastBits > bodyBits) {
    throw new FilterError(
      'CORRUPT',
      `corrupt filter patch: it declares ${header.count} ${runs ? 'changed runs' : 'flipped bits'}, ` +
        `more than the ${patch.length - body.offset} byte(s) of its body after the parameters can hold (each takes at least ${leastBits} bits)`,
    );
  }
  if (runs) walkRuns(body, header, parameters[0]!, parameters[1]!, sink);
  else walkFlippedBits(body, header, parameters[0]!, sink);
  body.endBits();
  if (body.offset !== patch.length) {
    throw new FilterError('CORRUPT', `corrupt filter patch: ${patch.length - body.offset} byte(s) after its last change`);
  }
}

function walkRuns(body: BodyReader, header: PatchHeader, gapBits: number, lengthBits: number, sink: ChangeSink): void {
  const targetLength = header.targetLength;
  let at = 0;
  for (let run = 0; run < header.count; run++) {
    const start = at + body.rice(gapBits, targetLength);
    const length = body.rice(lengthBits, targetLength) + 1;
    if (start + length > targetLength) {
      throw new FilterError('CORRUPT', `corrupt filter patch: a changed run at byte ${start} is past the target's ${targetLength} bytes`);
    }
    sink.run(start, length, body);
    at = start + length;
  }
}

function walkFlippedBits(body: BodyReader, header: PatchHeader, gapBits: number, sink: ChangeSink): void {
  const totalBits = header.targetLength * 8;
  let position = -1;
  for (let i = 0; i < header.count; i++) {
    position += body.rice(gapBits, totalBits) + 1;
    if (position >= totalBits) {
      throw new FilterError('CORRUPT', `corrupt filter patch: a flipped bit at byte ${Math.floor(position / 8)} is past the target's ${header.targetLength} bytes`);
    }
    sink.flip(position);
  }
}

function riceParameter(body: BodyReader): number {
  const k = body.byte();
  if (k > MAX_RICE_BITS) throw new FilterError('CORRUPT', `corrupt filter patch: Rice parameter ${k} is above ${MAX_RICE_BITS}`);
  return k;
}
