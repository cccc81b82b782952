/**
 * Is the input text? `build` reads one key or list entry per line; a binary
 * file (an archive, an image, a UTF-16 list) read that way gives a "filter"
 * of meaningless byte runs and exit 0. The first 64 KiB decide, so a 1 GB
 * binary file is refused after reading 64 KiB, not 1 GB:
 *  - a NUL byte anywhere in them (no text encoding but UTF-16/32 has one,
 *    and those are not line-per-key text for us either), or
 *  - more than 5% control bytes: 0x01-0x08, 0x0E-0x1A, 0x1C-0x1F and 0x7F
 *    (tab, line feed, vertical tab, form feed, carriage return and escape
 *    are text). Random bytes have about 10% of them; text has none.
 * `--force` reads such input anyway.
 */
import { usageError } from '../errors.js';

/** How much of the input start is looked at. */
export const SNIFF_BYTES = 64 * 1024;

/** The control-byte share above which the input is taken for binary. */
const MAX_CONTROL_SHARE = 0.05;

/** Why `head` (the input's first bytes, at most SNIFF_BYTES) looks binary, or null for text. */
function binaryReason(head: Uint8Array): string | null {
  const length = Math.min(head.length, SNIFF_BYTES);
  let controls = 0;
  for (let i = 0; i < length; i++) {
    const byte = head[i]!;
    if (byte === 0) return `a NUL byte at offset ${i}`;
    if (byte < 0x20 ? !(byte >= 0x09 && byte <= 0x0d) && byte !== 0x1b : byte === 0x7f) controls++;
  }
  if (controls > length * MAX_CONTROL_SHARE) {
    return `${controls} control bytes in its first ${length} bytes (more than ${MAX_CONTROL_SHARE * 100}%)`;
  }
  return null;
}

/** Throws the usage error (exit 2) for input `name` when `head` looks binary. */
export function refuseBinary(head: Uint8Array, name: string): void {
  const reason = binaryReason(head);
  if (reason === null) return;
  throw usageError(
    `${name} looks like a binary file (${reason}), not text with one key or list entry per line; ` +
      'give --force to read it anyway',
    'build',
  );
}
