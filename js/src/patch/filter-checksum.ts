// A filter file is whole and undamaged: the length its header declares and
// its trailing checksum (XXH3-64 of every byte before it, https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md).
// diffFilters refuses a damaged filter on either side: a patch made from one
// would carry the damage to every client, and its target checksum would make
// applyPatch call the damaged result good.
import { FilterError } from '../errors.js';
import { MIN_FILTER_BYTES } from './patch-format.js';
import { xxh3 } from './xxh3.js';

const PARAMETER_LENGTH_OFFSET = 12;
const PAYLOAD_LENGTH_OFFSET = 48;

/** CORRUPT (naming `what`) unless `bytes`, already known to start as a filter, are as long as declared and match their checksum. */
export function requireIntactFilter(bytes: Uint8Array, what: string): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const declared =
    BigInt(MIN_FILTER_BYTES + view.getUint32(PARAMETER_LENGTH_OFFSET, true)) + view.getBigUint64(PAYLOAD_LENGTH_OFFSET, true);
  if (declared !== BigInt(bytes.length)) {
    throw new FilterError('CORRUPT', `${what}: corrupt filter: its header declares ${declared} bytes, but it has ${bytes.length}`);
  }
  const stored = view.getBigUint64(bytes.length - 8, true);
  const computed = xxh3(bytes.subarray(0, bytes.length - 8));
  if (stored !== computed) {
    throw new FilterError(
      'CORRUPT',
      `${what}: corrupt filter: its checksum ${stored.toString(16).padStart(16, '0')} does not match its bytes (${computed.toString(16).padStart(16, '0')}): it is damaged`,
    );
  }
}
