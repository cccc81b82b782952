// What every list syntax shares: turning a host or URL named by a line into
// the expression a blocklist stores, and refusing anything that could only be
// a dead entry (an expression no URL's expressions ever contain).
import { canonicalizeUrlParts } from '../canonicalize.js';
import type { ParsedLine } from './parsed-line.js';

export const SKIP: ParsedLine = { kind: 'skip' };

export function error(reason: string): ParsedLine {
  return { kind: 'error', reason };
}

export function entries(expressions: string[]): ParsedLine {
  return { kind: 'entry', expression: expressions[0]!, expressions };
}

export function reasonOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// A canonical host that a URL can have and a list can name: an IPv4 dotted
// quad, a bracketed IPv6 literal, or dot-separated labels of letters, digits,
// "-" and "_" (IDNA has already turned other letters into xn-- labels). The
// canonicalizer lets through characters such as "*", "=", "!", "$" or quotes,
// which no DNS name holds: from a list line they mean syntax this parser did
// not understand (`*.host`, `address=/host/…`), and stored they would be dead
// entries that no URL ever matches, so they are refused here.
const LIST_HOST = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/;

/**
 * The expression a filter must store so that `urlExpressions(url)` of the
 * listed URL contains it: `host` + exact path (+ `?query` when non-empty),
 * with no scheme or port, i.e. precisely the expression that `urlExpressions`
 * emits for the exact host and path. A host-only line yields `host/`.
 * A leading `*.` (a wildcard host: `*.evil.example`) is the host and every
 * subdomain, which is exactly what `host/` already matches, so it is dropped.
 * @throws {TypeError} for text that is not a host or URL, or whose host has a
 *   character no host name has.
 */
export function expressionForUrl(text: string): string {
  const wildcard = text.startsWith('*.');
  const p = canonicalizeUrlParts(wildcard ? text.slice(2) : text);
  if (!LIST_HOST.test(p.host)) {
    const bad = [...p.host].find((c) => !/[a-z0-9_.\-[\]:]/.test(c)) ?? p.host;
    throw new TypeError(
      `${JSON.stringify(text.length > 200 ? text.slice(0, 200) + '…' : text)} is not a host or URL: ` +
        `its host ${JSON.stringify(p.host)} holds ${JSON.stringify(bad)}, which no host name has`,
    );
  }
  return p.host + p.path + (p.query ? '?' + p.query : '');
}

// Characters that cannot be part of a bare host name. Rejecting them up front
// keeps "evil.example/x" in a hosts file from silently becoming a URL entry.
const NOT_A_HOST = /[\s/?#@\\:^|$]/;

/** The `host/` expression of a host name (a leading `*.` wildcard allowed). @throws {TypeError} */
export function expressionForHost(name: string): string {
  if (NOT_A_HOST.test(name)) {
    throw new TypeError(`${JSON.stringify(name)} is not a host name`);
  }
  return expressionForUrl(name);
}

/** The line for a list of host names: each one's `host/`, or the error of the first that is not a host. */
export function hostEntries(names: readonly string[]): ParsedLine {
  const out: string[] = [];
  for (const name of names) {
    try {
      const expression = expressionForHost(name);
      if (!out.includes(expression)) out.push(expression);
    } catch (e) {
      // One bad name fails the whole line so that it is reported rather
      // than half-imported.
      return error(reasonOf(e));
    }
  }
  return entries(out);
}

const IPV4_LITERAL = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV6_LITERAL = /^[0-9a-f]*:[0-9a-f]*:[0-9a-f:.]*(?:%\S+)?$/i;

export function isIpLiteral(token: string): boolean {
  return IPV4_LITERAL.test(token) || IPV6_LITERAL.test(token);
}
