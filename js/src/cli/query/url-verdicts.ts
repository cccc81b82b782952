/**
 * `query`'s three verdicts on a URL blocklist (docs/CLI.md, https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md "Verdicts"):
 *
 *   listed<TAB>url<TAB>expression     confirmed by the exact companion (<filter>.confirm)
 *   possible<TAB>url<TAB>expression   the filter's "maybe", with no companion to confirm it
 *   clear<TAB>url                     certainly not listed
 *   invalid<TAB>url<TAB>reason        a URL that cannot be checked
 *
 * or, with --json, one object per line: {"url", "verdict", "match", "confirmedBy"}
 * (and "reason" for invalid). Both `listed` and `possible` count as hits (exit 1),
 * so a script written for listed/clear never takes an unconfirmed maybe for clear.
 */
import { FilterError, type UrlCheck } from '../../index.js';
import { decodeUtf8 } from '../io/utf8-lines.js';
import type { Key, Verdict } from './verdicts.js';

export function urlVerdictChecker(check: (url: string) => UrlCheck, json: boolean): (key: Key) => Verdict {
  return (key) => {
    const url = typeof key === 'string' ? key : decodeUtf8(key);
    if (url === null) {
      const reason = 'not valid UTF-8: a URL must be UTF-8 text';
      // JSON cannot hold the raw bytes: they are shown as the replacement characters UTF-8 decoding gives.
      return json
        ? { hit: false, invalid: true, line: [JSON.stringify({ url: new TextDecoder().decode(key as Uint8Array), verdict: 'invalid', reason })] }
        : { hit: false, invalid: true, line: ['invalid\t', key, `\t${reason}`] };
    }
    let result: UrlCheck;
    try {
      result = check(url);
    } catch (error) {
      if (error instanceof FilterError && error.code !== 'INVALID_ARGUMENT') throw error;
      const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
      return {
        hit: false,
        invalid: true,
        line: [json ? JSON.stringify({ url, verdict: 'invalid', reason }) : `invalid\t${url}\t${reason}`],
      };
    }
    const { verdict, match, confirmedBy } = result;
    const hit = verdict !== 'clear';
    if (json) return { hit, invalid: false, line: [JSON.stringify({ url, verdict, match, confirmedBy })] };
    return { hit, invalid: false, line: [match === null ? `${verdict}\t${url}` : `${verdict}\t${url}\t${match}`] };
  };
}
