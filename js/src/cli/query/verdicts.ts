/**
 * `query`'s verdicts: one line per key or URL, tab-separated.
 *
 *   present<TAB>key | absent<TAB>key                     (keys)
 *   listed<TAB>url<TAB>expression | clear<TAB>url        (--urls)
 *   invalid<TAB>url<TAB>reason                           (a URL that cannot be checked)
 *
 * Shared by every source of answers (a filter, an index log, a filter whose
 * "maybe"s an index log checks), so each says only how it looks a key up.
 */
import { FilterError } from '../../index.js';
import { decodeUtf8 } from '../io/utf8-lines.js';

export type Key = string | Uint8Array;
/** A verdict and its output line, as parts (a key's bytes are echoed as read). */
export type Verdict = { hit: boolean; invalid: boolean; line: Key[] };

/** present/absent for a key looked up by `has`. */
export function keyChecker(has: (key: Key) => boolean): (key: Key) => Verdict {
  return (key) => {
    const hit = has(key);
    return { hit, invalid: false, line: [hit ? 'present\t' : 'absent\t', key] };
  };
}

/**
 * listed (or possible)/clear/invalid for a URL, with `match` giving the first listed
 * expression (or null). A URL that cannot be checked (not UTF-8, not a URL)
 * is an `invalid` verdict; any other failure (an index log that cannot be
 * read) is an error of the whole query, never a verdict.
 */
export function urlChecker(
  match: (url: string) => string | null,
  // 'listed' only when a hit is certain (an exact index); a filter's own hit is a 'possible'.
  hitVerdict: 'listed' | 'possible' = 'listed',
): (key: Key) => Verdict {
  return (key) => {
    const url = typeof key === 'string' ? key : decodeUtf8(key);
    if (url === null) {
      return { hit: false, invalid: true, line: ['invalid\t', key, '\tnot valid UTF-8: a URL must be UTF-8 text'] };
    }
    let expression: string | null;
    try {
      expression = match(url);
    } catch (error) {
      if (error instanceof FilterError && error.code !== 'INVALID_ARGUMENT') throw error;
      const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
      return { hit: false, invalid: true, line: [`invalid\t${url}\t${reason}`] };
    }
    return expression === null
      ? { hit: false, invalid: false, line: [`clear\t${url}`] }
      : { hit: true, invalid: false, line: [`${hitVerdict}\t${url}\t${expression}`] };
  };
}
