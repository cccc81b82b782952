/**
 * URL lists are text: a list line is decoded as strict UTF-8, and a line
 * that is not valid UTF-8 is never turned into replacement characters (which
 * would store an entry nobody listed). Keys without --urls stay bytes and
 * never come here.
 */
import { type ListFormat, parseListLine } from '../../index.js';

const utf8Strict = new TextDecoder('utf-8', { fatal: true });
const utf8Lossy = new TextDecoder('utf-8');

/** The text of `bytes`, or null when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8Strict.decode(bytes);
  } catch {
    return null;
  }
}

/** `bytes` for a message: invalid sequences shown as U+FFFD (display only, never stored). */
export function displayText(bytes: Uint8Array): string {
  return utf8Lossy.decode(bytes);
}

/**
 * The offset of the first byte that is not part of a valid UTF-8 sequence
 * (overlong forms, surrogates and values past U+10FFFF are invalid, as for
 * the strict decoder), or -1.
 */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    // Sequence length and the allowed range of the second byte (which rules
    // out overlong forms, surrogates and code points above U+10FFFF).
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return i;
    if (i + length > bytes.length) return i;
    const second = bytes[i + 1]!;
    if (second < low || second > high) return i;
    for (let k = 2; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += length;
  }
  return -1;
}

type ListLineText =
  | { kind: 'text'; text: string }
  /** A blank, comment or header line: whatever its bytes, it holds no entry. */
  | { kind: 'skip' }
  | { kind: 'not-utf8'; shown: string; reason: string };

/**
 * A list line's text. A line that is not UTF-8 but would be skipped anyway (a
 * comment in Latin-1, say) is simply skipped; any other is `not-utf8`, to be
 * reported, not stored.
 */
export function listLineText(bytes: Uint8Array, format: ListFormat): ListLineText {
  const text = decodeUtf8(bytes);
  if (text !== null) return { kind: 'text', text };
  const shown = displayText(bytes);
  if (parseListLine(shown, format).kind === 'skip') return { kind: 'skip' };
  const at = firstInvalidUtf8(bytes);
  const byte = bytes[at]!.toString(16).toUpperCase().padStart(2, '0');
  return { kind: 'not-utf8', shown, reason: `not valid UTF-8 (byte 0x${byte} at byte ${at + 1}); a URL list must be UTF-8 text` };
}
