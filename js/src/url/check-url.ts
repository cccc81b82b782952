// Checking one URL against a blocklist's filter: the rule shared by
// UrlBlocklist (the full package) and UrlBlocklistReader (`cuckoo-bloom-wasm/reader`),
// so both give the same answer for the same bytes.
import { FilterError } from '../errors.js';
import { describeValue } from '../keys/keys.js';
import { canonicalUrlExpressions, type ExpressionDepth, SAFE_BROWSING_DEPTH } from './expressions.js';
import type { ListChanges } from './delta-chain.js';

/**
 * What a check concluded (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md, "Verdicts"):
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

/** Safe Browsing expressions to the depths the list's own entries need (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md). */
export const EXPRESSION_SCHEME_LIST_DEPTH = 2;
/** Each depth crosses the byte format as 16 bits. */
export const MAX_EXPRESSION_DEPTH = 0xffff;

/**
 * The depth a blocklist envelope records: scheme 2 packs hostLabels | pathDepth << 16;
 * scheme 1 (written before lists recorded their depths) means Safe Browsing's fixed limits.
 */
export function envelopeDepth(scheme: number, packed: number): ExpressionDepth {
  return scheme === EXPRESSION_SCHEME_LIST_DEPTH || scheme === EXPRESSION_SCHEME_WITH_EXCEPTIONS
    ? { hostLabels: packed & MAX_EXPRESSION_DEPTH, pathDepth: packed >>> 16 }
    : SAFE_BROWSING_DEPTH;
}

/**
 * The first of `expressions[from..]` the blocklist reports, or -1: its filter
 * says "maybe" and its exception set (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, type 16 scheme 3) does
 * not hold it. One wasm crossing for the whole URL (`cbw_url_first_hit`,
 * `cbw_reader_first_hit`).
 */
export type FirstReported = (expressions: readonly string[], from: number) => number;

/** Safe Browsing expressions plus an exception set after the filter (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md). */
export const EXPRESSION_SCHEME_WITH_EXCEPTIONS = 3;

/**
 * Canonicalizes `url` (parsed once), forms its expressions to `depth` and asks
 * `firstReported` for the first one the blocklist reports (an expression in
 * its exception set is not reported: the filter's false positive on a
 * never-match host or a public suffix). Without `confirm`, that one is a
 * `possible` match. With it (the exact companion), reported expressions are
 * confirmed in order: the first confirmed is `listed`; none confirmed is
 * `clear` (the companion holds every listed expression, so the reports were
 * false positives). A reported expression is never skipped unconfirmed: a
 * false positive before a listed expression does not hide it.
 *
 * With `changes` (the deltas applied since the base, delta-chain.ts), each
 * expression is asked of them first, newest delta first: one a delta added is
 * `listed` (an exact set: certain); one a delta removed lists nothing, even
 * where the base's filter and companion still hold it; any other is the
 * base's to decide, as above. Without a companion a base report is
 * `possible`, but an added expression later in the URL is still looked for:
 * a certain `listed` says more.
 * @throws FilterError `INVALID_ARGUMENT` for a non-string or a URL that cannot be parsed.
 */
export function checkUrlOnce(
  url: unknown,
  depth: ExpressionDepth,
  firstReported: FirstReported,
  confirm: ((expression: string) => boolean) | null = null,
  changes: ListChanges | null = null,
): UrlCheck {
  if (typeof url !== 'string') {
    throw new FilterError('INVALID_ARGUMENT', `a URL must be a string, got ${describeValue(url)}`);
  }
  let canonical: string;
  let expressions: string[];
  try {
    ({ canonical, expressions } = canonicalUrlExpressions(url, depth));
  } catch (error) {
    throw new FilterError('INVALID_ARGUMENT', error instanceof Error ? error.message : String(error), { cause: error });
  }
  if (changes !== null) return checkWithChanges(canonical, expressions, firstReported, confirm, changes);
  let hit = firstReported(expressions, 0);
  if (confirm === null) {
    const match = hit < 0 ? null : expressions[hit]!;
    return { verdict: match === null ? 'clear' : 'possible', match, confirmedBy: null, canonical, expressions };
  }
  const reported = hit >= 0;
  while (hit >= 0) {
    const expression = expressions[hit]!;
    if (confirm(expression)) return { verdict: 'listed', match: expression, confirmedBy: 'exact-set', canonical, expressions };
    hit = firstReported(expressions, hit + 1);
  }
  return { verdict: 'clear', match: null, confirmedBy: reported ? 'exact-set' : null, canonical, expressions };
}

/** `checkUrlOnce` over a chain of deltas: each expression in order, its delta standing first, then the base. */
function checkWithChanges(
  canonical: string,
  expressions: string[],
  firstReported: FirstReported,
  confirm: ((expression: string) => boolean) | null,
  changes: ListChanges,
): UrlCheck {
  let possible: string | null = null;
  let decided = false;
  // The next expression at or after `i` the base reports (-1: none left): one crossing per report, as without deltas.
  let hit = firstReported(expressions, 0);
  for (let i = 0; i < expressions.length; i++) {
    if (hit >= 0 && hit < i) hit = firstReported(expressions, i);
    const expression = expressions[i]!;
    const standing = changes.standingOf(expression);
    if (standing === 'added') return { verdict: 'listed', match: expression, confirmedBy: 'exact-set', canonical, expressions };
    if (i !== hit) continue;
    // The base reports it: a delta that removed it, or the companion, rules it out; without a companion it is possible.
    decided = true;
    if (standing === 'removed') continue;
    if (confirm === null) possible ??= expression;
    else if (confirm(expression)) return { verdict: 'listed', match: expression, confirmedBy: 'exact-set', canonical, expressions };
  }
  if (possible !== null) return { verdict: 'possible', match: possible, confirmedBy: null, canonical, expressions };
  return { verdict: 'clear', match: null, confirmedBy: decided ? 'exact-set' : null, canonical, expressions };
}

/**
 * The same rule with a per-expression `has` (an exact index, which has no
 * exception set): `checkUrlOnce` asking `has` for each expression in order.
 * @throws FilterError as `checkUrlOnce`.
 */
export function checkUrl(
  url: unknown,
  depth: ExpressionDepth,
  has: (expression: string) => boolean,
  confirm: ((expression: string) => boolean) | null = null,
): UrlCheck {
  const firstReported: FirstReported = (expressions, from) => {
    for (let i = from; i < expressions.length; i++) if (has(expressions[i]!)) return i;
    return -1;
  };
  return checkUrlOnce(url, depth, firstReported, confirm);
}
