// Checking one URL against a blocklist's filter: the rule shared by
// UrlBlocklist (the full package) and UrlBlocklistReader (`cuckoo-bloom-wasm/reader`),
// so both give the same answer for the same bytes.
import { FilterError } from '../errors.js';
import { describeValue } from '../keys/keys.js';
import { canonicalizeUrl } from './canonicalize.js';
import { type ExpressionDepth, SAFE_BROWSING_DEPTH, urlExpressionsTo } from './expressions.js';

/**
 * What a check concluded (docs/URL-BLOCKLISTS.md, "Verdicts"):
 * - `listed`: an expression of the URL is in the list, confirmed by the exact
 *   companion (wrong only on a 64-bit hash collision);
 * - `possible`: the filter reports an expression and no companion is attached
 *   (wrong at the list's per-URL false-positive rate);
 * - `clear`: not listed, certainly (the filter reports none of the URL's
 *   expressions, or the companion holds none of those it reports).
 */
export type UrlVerdict = 'listed' | 'possible' | 'clear';

/** How one URL was checked. */
export interface UrlCheck {
  /** The verdict. */
  verdict: UrlVerdict;
  /**
   * The expression behind the verdict: the confirmed one (`listed`), the first
   * one the filter reported (`possible`), or null (`clear`).
   */
  match: string | null;
  /** What confirmed the verdict: 'exact-set' when the companion decided it, null when the filter alone did. */
  confirmedBy: 'exact-set' | null;
  /** The canonical form of the URL (Safe Browsing rules). */
  canonical: string;
  /** Every host-suffix × path-prefix expression checked, in order. */
  expressions: string[];
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
 * in order. Without `confirm`, the first one reported is a `possible` match.
 * With it (the exact companion), every one reported is confirmed in order: the
 * first confirmed is `listed`; none confirmed is `clear` (the companion holds
 * every listed expression, so the filter's reports were false positives). An
 * expression a filter reports is never skipped: a false positive before a
 * listed expression does not hide it.
 * @throws FilterError `INVALID_ARGUMENT` for a non-string or a URL that cannot be parsed.
 */
export function checkUrl(
  url: unknown,
  depth: ExpressionDepth,
  has: (expression: string) => boolean,
  confirm: ((expression: string) => boolean) | null = null,
): UrlCheck {
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
  if (confirm === null) {
    const match = expressions.find(has) ?? null;
    return { verdict: match === null ? 'clear' : 'possible', match, confirmedBy: null, canonical, expressions };
  }
  let reported = false;
  for (const expression of expressions) {
    if (!has(expression)) continue;
    reported = true;
    if (confirm(expression)) return { verdict: 'listed', match: expression, confirmedBy: 'exact-set', canonical, expressions };
  }
  return { verdict: 'clear', match: null, confirmedBy: reported ? 'exact-set' : null, canonical, expressions };
}
