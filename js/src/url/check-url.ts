// Checking one URL against a blocklist's filter: the rule shared by
// UrlBlocklist (the full package) and UrlBlocklistReader (`cuckoo-bloom-wasm/reader`),
// so both give the same answer for the same bytes.
import { FilterError } from '../errors.js';
import { describeValue } from '../keys/keys.js';
import { canonicalizeUrl } from './canonicalize.js';
import { type ExpressionDepth, SAFE_BROWSING_DEPTH, urlExpressionsTo } from './expressions.js';

/** How one URL was checked. */
export interface UrlCheck {
  /** The canonical form of the URL (Safe Browsing rules). */
  canonical: string;
  /** Every host-suffix × path-prefix expression checked, in order. */
  expressions: string[];
  /** The first expression the filter reported, or null: certainly not listed. */
  match: string | null;
}

/** Safe Browsing expressions to the depths the list's own entries need (docs/FORMAT.md). */
export const EXPRESSION_SCHEME_LIST_DEPTH = 2;
/** Each depth crosses the byte format as 16 bits. */
export const MAX_EXPRESSION_DEPTH = 0xffff;

/**
 * The depth a blocklist envelope records: scheme 2 packs hostLabels | pathDepth << 16;
 * scheme 1 (written before lists recorded their depths) means Safe Browsing's fixed limits.
 */
export function envelopeDepth(scheme: number, packed: number): ExpressionDepth {
  return scheme === EXPRESSION_SCHEME_LIST_DEPTH
    ? { hostLabels: packed & MAX_EXPRESSION_DEPTH, pathDepth: packed >>> 16 }
    : SAFE_BROWSING_DEPTH;
}

/**
 * Canonicalizes `url`, forms its expressions to `depth` and asks `has` for each
 * in order until one is reported.
 * @throws FilterError `INVALID_ARGUMENT` for a non-string or a URL that cannot be parsed.
 */
export function checkUrl(url: unknown, depth: ExpressionDepth, has: (expression: string) => boolean): UrlCheck {
  if (typeof url !== 'string') {
    throw new FilterError('INVALID_ARGUMENT', `a URL must be a string, got ${describeValue(url)}`);
  }
  let canonical: string;
  let expressions: string[];
  try {
    canonical = canonicalizeUrl(url);
    expressions = urlExpressionsTo(url, depth);
  } catch (error) {
    throw new FilterError('INVALID_ARGUMENT', error instanceof Error ? error.message : String(error), { cause: error });
  }
  const match = expressions.find(has) ?? null;
  return { canonical, expressions, match };
}
