// Hot expressions that must never hit (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md, "Never-match
// hosts"): the expressions of a build's never-match hosts and URLs, and where
// a blocklist's exception set sits in its bytes (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, type 16
// scheme 3). Shared by UrlBlocklist (which makes the set) and
// UrlBlocklistReader (which reads it); no Public Suffix List here, so browser
// bundles stay small: the CLI adds the PSL's suffixes (cli/build-public-suffix.ts).
// (A module of its own, apart from the public types, so the package's
// declarations do not carry it.)
import { FilterError } from '../errors.js';
import { describeValue } from '../keys/keys.js';
import { type ExpressionDepth, urlExpressionsTo } from './expressions.js';

/**
 * Every expression a URL check makes for each entry (a host, `co.jp`, or a
 * URL): the entry's own and its host's suffix expressions to `depth`, as
 * `check` forms them, each with the first entry that made it, and how many
 * entries there were. A host is read as `http://host/`.
 * @throws FilterError `INVALID_ARGUMENT` naming the entry (1-based) that is not a host or URL.
 */
export function neverMatchExpressions(
  entries: Iterable<string>,
  depth: ExpressionDepth,
): { entries: number; expressions: Map<string, string> } {
  if (entries === null || typeof entries !== 'object' || typeof (entries as Iterable<string>)[Symbol.iterator] !== 'function') {
    throw new FilterError('INVALID_ARGUMENT', `neverMatch must be an iterable of hosts or URLs, got ${describeValue(entries)}`);
  }
  // expression -> the first entry that made it (for the report)
  const expressions = new Map<string, string>();
  let index = 0;
  for (const entry of entries) {
    index++;
    if (typeof entry !== 'string') {
      throw new FilterError('INVALID_ARGUMENT', `neverMatch entry ${index} is ${describeValue(entry)}, not a host or URL`);
    }
    const text = entry.trim();
    let made: string[];
    try {
      made = urlExpressionsTo(text.includes('://') ? text : `http://${text}/`, depth);
    } catch (error) {
      throw new FilterError(
        'INVALID_ARGUMENT',
        `neverMatch entry ${index} (${JSON.stringify(entry.slice(0, 80))}) is not a host or URL: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    for (const expression of made) if (!expressions.has(expression)) expressions.set(expression, entry);
  }
  return { entries: index, expressions };
}

/**
 * The exception set's bytes inside blocklist bytes that decoded as scheme 3
 * (after the nested filter, before the checksum), or null when it has none.
 * The nested filter is as long as its header says (64 + P + L).
 */
export function exceptionBytesIn(bytes: Uint8Array): Uint8Array | null {
  const envelopeParams = 8;
  const filterAt = 56 + envelopeParams;
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const paramsLength = data.getUint32(filterAt + 12, true);
  const payloadLength = Number(data.getBigUint64(filterAt + 48, true));
  const exceptionsAt = filterAt + 64 + paramsLength + payloadLength;
  const end = bytes.length - 8;
  return exceptionsAt < end ? bytes.subarray(exceptionsAt, end) : null;
}
