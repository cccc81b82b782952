// A blocklist's false-positive rate is per URL: the rate a user asks for is
// the chance that an unlisted URL gets a "maybe", not the chance of one
// filter lookup. A URL is checked with several lookups (url/check-url.ts), so
// the filter is sized for the per-lookup rate that gives the per-URL target.
import type { ExpressionDepth } from './expressions.js';

/**
 * The most lookups one URL makes at `depth` (expressions.ts): the hosts are the
 * exact host and its suffixes down to two labels, at most `hostLabels` in all
 * (1 for an IP, or a list of IP entries only, hostLabels 0); for each host
 * the paths are the path with its query, the exact path and the directory
 * prefixes `/`, `/d1/`, … down to `pathDepth` directories: `pathDepth + 3`.
 * So L = max(1, hostLabels) × (pathDepth + 3): 30 at Safe Browsing's 5 and 3.
 *
 * Why the worst case and not a typical URL: sized for the most lookups, the
 * rate holds for every URL (a URL with fewer labels, directories or no query
 * makes fewer lookups and gets a lower rate), so the number the user typed is
 * a bound, never an average that long URLs exceed. The cost is small: each
 * doubling of L is one more bit per entry in a fuse or cuckoo fingerprint, or
 * 1.44 bits in a Bloom filter.
 */
export function lookupsPerUrl(depth: ExpressionDepth): number {
  return Math.max(1, depth.hostLabels) * (depth.pathDepth + 3);
}

/**
 * The per-lookup rate p that makes the per-URL rate `urlRate` at `depth`: the L
 * lookups of an unlisted URL are L distinct expressions, each a false positive
 * independently with probability p, so a URL is falsely reported with
 * probability 1 - (1 - p)^L. Solving 1 - (1 - p)^L = urlRate:
 * p = 1 - (1 - urlRate)^(1/L) (≈ urlRate / L), computed with log1p/expm1 so a
 * small rate keeps its digits.
 */
export function lookupRateFor(urlRate: number, depth: ExpressionDepth): number {
  return -Math.expm1(Math.log1p(-urlRate) / lookupsPerUrl(depth));
}

/** The per-URL rate of per-lookup rate `lookupRate` at `depth`: 1 - (1 - p)^L (the inverse of `lookupRateFor`). */
export function urlRateOf(lookupRate: number, depth: ExpressionDepth): number {
  return -Math.expm1(lookupsPerUrl(depth) * Math.log1p(-lookupRate));
}
