import { canonicalizeUrlParts, type CanonicalUrlParts, formatCanonicalUrl } from './canonicalize.js';

/**
 * How deep a URL's expressions go: host suffixes of at most `hostLabels`
 * labels and path prefixes of at most `pathDepth` directories (the exact host
 * and the exact path are always checked).
 */
export interface ExpressionDepth {
  /** Most labels of a host suffix checked (Safe Browsing: 5). */
  readonly hostLabels: number;
  /** Most directories of a path prefix checked (Safe Browsing: 3). */
  readonly pathDepth: number;
}

/** Safe Browsing's fixed limits: suffixes from the last five labels, prefixes of up to three directories. */
export const SAFE_BROWSING_DEPTH: ExpressionDepth = { hostLabels: 5, pathDepth: 3 };

function isIpHost(host: string): boolean {
  // After canonicalization an IPv4 host is always a dotted quad and an IPv6
  // host is always bracketed; no domain name can look like either.
  return host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host);
}

/** @internal */
function hostSuffixes(host: string, hostLabels = SAFE_BROWSING_DEPTH.hostLabels): string[] {
  const hosts = [host];
  if (isIpHost(host)) return hosts;
  const labels = host.split('.');
  // Start from the last `hostLabels` labels and drop one at a time, but never
  // the bare TLD and never the full host again (already first).
  const first = Math.max(1, labels.length - hostLabels);
  for (let i = first; i <= labels.length - 2; i++) {
    hosts.push(labels.slice(i).join('.'));
  }
  return hosts;
}

/** @internal */
function pathVariants(path: string, query: string | null, pathDepth = SAFE_BROWSING_DEPTH.pathDepth): string[] {
  const paths: string[] = [];
  // An empty query ("/q?") adds nothing a lookup could distinguish from "/q",
  // so it is not a separate expression (as in Chromium's implementation).
  if (query) paths.push(`${path}?${query}`);
  paths.push(path);
  // Only directory components form prefixes: the last component is a file
  // name unless the path ends with "/".
  const dirs = path.split('/').slice(1, -1);
  let prefix = '/';
  for (let i = 0; i <= pathDepth; i++) {
    if (!paths.includes(prefix)) paths.push(prefix);
    if (i >= dirs.length) break;
    prefix += dirs[i] + '/';
  }
  return paths;
}

/** @internal */
function expressionsFromParts(parts: CanonicalUrlParts, depth: ExpressionDepth = SAFE_BROWSING_DEPTH): string[] {
  const out: string[] = [];
  const paths = pathVariants(parts.path, parts.query, depth.pathDepth);
  for (const host of hostSuffixes(parts.host, depth.hostLabels)) {
    for (const path of paths) out.push(host + path);
  }
  return out;
}

/**
 * The Safe Browsing suffix/prefix expressions of a URL
 * (https://developers.google.com/safe-browsing/v4/urls-hashing#suffixprefix-expressions),
 * without scheme and port.
 *
 * The input is first canonicalized with `canonicalizeUrl`. Then:
 * - hosts: the exact host, then up to 4 more formed from the last five labels
 *   by successively removing the leading label, never the bare TLD; for an IP
 *   host (IPv4 or bracketed IPv6) only the exact host;
 * - paths: the exact path with query (only if the query is non-empty), the
 *   exact path, then up to 4 prefixes starting at `/` and appending one
 *   directory component at a time, each with its trailing slash.
 *
 * Order: hosts from most to least specific; within a host, path with query,
 * exact path, then prefixes from the root. No duplicates.
 *
 * The port is left out on purpose: a host listed in a blocklist must match
 * on every port, and Safe Browsing expressions never carry one.
 *
 * Example: `http://a.b.c/1/2.html?param=1` →
 * `a.b.c/1/2.html?param=1, a.b.c/1/2.html, a.b.c/, a.b.c/1/,
 *  b.c/1/2.html?param=1, b.c/1/2.html, b.c/, b.c/1/`;
 * `http://1.2.3.4/1/` → `1.2.3.4/1/, 1.2.3.4/`.
 *
 * @throws {TypeError} for input `canonicalizeUrl` rejects.
 */
export function urlExpressions(input: string): string[] {
  return expressionsFromParts(canonicalizeUrlParts(input));
}

/**
 * The depth one listed expression needs (`host/` or `host/path`): its host's
 * label count, unless the host is an IP address (only ever matched exactly),
 * and, for a directory prefix (a path ending in "/"), its directory count.
 * An exact path (a file, or a path with a query) is matched exactly and
 * needs no prefix depth. A blocklist checks URLs to the deepest of these
 * over its entries, so no entry is ever out of reach.
 * @internal
 */
export function expressionDepth(expression: string): ExpressionDepth {
  const slash = expression.indexOf('/');
  const host = slash < 0 ? expression : expression.slice(0, slash);
  const path = slash < 0 ? '/' : expression.slice(slash);
  let hostLabels = 0;
  if (!isIpHost(host)) {
    hostLabels = 1;
    for (let i = 0; i < host.length; i++) if (host.charCodeAt(i) === 0x2e) hostLabels++;
  }
  let pathDepth = 0;
  if (path.endsWith('/') && !path.includes('?')) {
    // Slashes after the leading one: "/" has no directory, "/a/" one, "/a/b/" two.
    for (let i = 1; i < path.length; i++) if (path.charCodeAt(i) === 0x2f) pathDepth++;
  }
  return { hostLabels, pathDepth };
}

/** The expressions of a URL to the given depth (see `urlExpressions`). @internal */
export function urlExpressionsTo(input: string, depth: ExpressionDepth): string[] {
  return expressionsFromParts(canonicalizeUrlParts(input), depth);
}

/**
 * A URL's canonical form and its expressions to `depth`, from one parse (what
 * a blocklist's check needs). @internal
 * @throws {TypeError} as `canonicalizeUrl`.
 */
export function canonicalUrlExpressions(input: string, depth: ExpressionDepth): { canonical: string; expressions: string[] } {
  const parts = canonicalizeUrlParts(input);
  return { canonical: formatCanonicalUrl(parts), expressions: expressionsFromParts(parts, depth) };
}
