import { canonicalizeUrlParts } from './canonicalize.js';

/**
 * Blocklist line syntax.
 * - `plain`: one host, IP or URL per line (`evil.example`, `1.2.3.4`,
 *   `evil.example/path/file.exe`, `http://evil.example/x?y=1`); `#` starts a
 *   comment (whole line, or after whitespace).
 * - `hosts`: hosts-file lines `<ip> <name> [<name>...]` such as
 *   `0.0.0.0 evil.example`; `#` comments; loopback/broadcast names are skipped.
 * - `adblock`: the host/URL subset of Adblock Plus / uBlock Origin syntax
 *   (`||host^`, `||host/path^$all`, bare host names, `|http://…|`); `!`
 *   comments and `[Adblock Plus …]` headers are skipped.
 * - `auto`: decides per line (see {@link parseListLine}).
 */
export type ListFormat = 'auto' | 'plain' | 'hosts' | 'adblock';

/**
 * Result for one line. An `entry` carries every expression the line lists:
 * `expressions` has one element except for hosts-file lines naming several
 * hosts; `expression` is always `expressions[0]`, kept for callers that only
 * handle single-entry lines.
 */
export type ParsedLine =
  | {
      /** The line lists hosts or URLs. */
      kind: 'entry';
      /** `expressions[0]`. */
      expression: string;
      /** The expression of each host or URL on the line (`host/` + exact path), at least one. */
      expressions: string[];
    }
  | {
      /** Nothing to store: blank, a comment, a header, or a loopback-only hosts line. */
      kind: 'skip';
    }
  | {
      /** The line could not be read. */
      kind: 'error';
      /** Why, e.g. `unexpected whitespace inside the entry`. */
      reason: string;
    };

/** A line of a list that could not be read: where, what, and why. */
export interface ListParseError {
  /** 1-based line number. */
  line: number;
  /** The line as it was in the list. */
  text: string;
  /** Why it was refused (as {@link ParsedLine}'s `reason`). */
  reason: string;
}

/** What `parseList` found in a whole list: the entries to store, what it skipped, and each line it refused. */
export interface ListParseResult {
  /** Distinct expressions, in first-seen order. */
  entries: string[];
  /** Lines that are blank, comments, headers or loopback-only hosts lines. */
  skipped: number;
  /** Lines that could not be read, in list order: the rest of the list is still read. */
  errors: ListParseError[];
}

const SKIP: ParsedLine = { kind: 'skip' };

function error(reason: string): ParsedLine {
  return { kind: 'error', reason };
}

function entries(expressions: string[]): ParsedLine {
  return { kind: 'entry', expression: expressions[0]!, expressions };
}

function reasonOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The expression a filter must store so that `urlExpressions(url)` of the
 * listed URL contains it: `host` + exact path (+ `?query` when non-empty),
 * with no scheme or port, i.e. precisely the second-or-first expression that
 * `urlExpressions` emits for the exact host. A host-only line yields `host/`.
 */
function expressionForUrl(text: string): string {
  const p = canonicalizeUrlParts(text);
  return p.host + p.path + (p.query ? '?' + p.query : '');
}

// Characters that cannot be part of a bare host name. Rejecting them up front
// keeps "evil.example/x" in a hosts file from silently becoming a URL entry.
const NOT_A_HOST = /[\s/?#@\\:*^|$]/;

function expressionForHost(name: string): string {
  if (NOT_A_HOST.test(name)) {
    throw new TypeError(`${JSON.stringify(name)} is not a host name`);
  }
  return expressionForUrl(name);
}

const IPV4_LITERAL = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV6_LITERAL = /^[0-9a-f]*:[0-9a-f]*:[0-9a-f:.]*(?:%\S+)?$/i;

function isIpLiteral(token: string): boolean {
  return IPV4_LITERAL.test(token) || IPV6_LITERAL.test(token);
}

// Names every stock hosts file maps to loopback/broadcast; they are not
// blocklist entries.
const LOCAL_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'local',
  'broadcasthost',
  'ip6-localhost',
  'ip6-loopback',
  'ip6-localnet',
  'ip6-mcastprefix',
  'ip6-allnodes',
  'ip6-allrouters',
  'ip6-allhosts',
  '0.0.0.0',
]);

/** `#`, `##`, `#### Section` … but not cosmetic rules like `##.ad`. */
const HASH_COMMENT = /^#+(?:\s|$)/;
/** Element hiding / scriptlet / CSS-injection separators. */
const COSMETIC = /#@?[?$%]?#/;
const ADBLOCK_HEADER = /^\[(?:adblock|ublock|adguard|abp)\b[^\]]*\]$/i;
const REGEX_RULE = /^\/.+\/(?:\$[^/]*)?$/;

/**
 * Options that only narrow *when* a blocker applies a rule (request type,
 * party) or raise its priority. A URL blocklist has no request context, so
 * the URL is listed regardless; any other option changes what is matched or
 * what happens and makes the line an error.
 */
const IGNORABLE_OPTIONS = new Set([
  'all',
  'important',
  'document',
  'doc',
  'popup',
  'third-party',
  '3p',
  'first-party',
  '1p',
  'script',
  'image',
  'stylesheet',
  'css',
  'xmlhttprequest',
  'xhr',
  'subdocument',
  'frame',
  'object',
  'media',
  'font',
  'websocket',
  'ping',
  'other',
]);

/** Option names worth recognising for auto-detection, even the rejected ones. */
const KNOWN_OPTIONS = new Set([
  ...IGNORABLE_OPTIONS,
  'domain',
  'from',
  'to',
  'denyallow',
  'redirect',
  'redirect-rule',
  'removeparam',
  'csp',
  'badfilter',
  'match-case',
  'header',
  'permissions',
  'rewrite',
  'replace',
  'elemhide',
  'ehide',
  'generichide',
  'ghide',
  'specifichide',
  'shide',
  'inline-script',
  'inline-font',
  'empty',
  'mp4',
]);

function optionName(opt: string): string {
  return opt.replace(/^~/, '').split('=')[0]!.toLowerCase();
}

function looksLikeOptions(text: string): boolean {
  return text !== '' && text.split(',').every((o) => KNOWN_OPTIONS.has(optionName(o)));
}

function checkOptions(text: string): string | null {
  for (const opt of text.split(',')) {
    const name = optionName(opt);
    if (opt === '') return 'empty option in the "$" option list';
    if (opt.startsWith('~')) return `negated option "${opt}" cannot be expressed`;
    if (!IGNORABLE_OPTIONS.has(name)) {
      return `option "${opt}" changes what the rule matches and cannot be expressed`;
    }
    if (opt.includes('=')) return `option "${opt}" takes no value`;
  }
  return null;
}

function parsePlain(t: string): ParsedLine {
  if (t.startsWith('#')) return SKIP;
  const text = t.replace(/\s+#.*$/, '');
  if (/\s/.test(text)) return error('unexpected whitespace inside the entry');
  try {
    return entries([expressionForUrl(text)]);
  } catch (e) {
    return error(reasonOf(e));
  }
}

function parseHosts(t: string): ParsedLine {
  if (t.startsWith('#')) return SKIP;
  const hash = t.indexOf('#');
  const fields = (hash >= 0 ? t.slice(0, hash) : t).trim().split(/\s+/);
  if (fields.length < 2) return error('expected "<ip address> <host name> ..."');
  if (!isIpLiteral(fields[0]!)) {
    return error(`first field ${JSON.stringify(fields[0])} is not an IP address`);
  }
  const names = fields.slice(1).filter((n) => !LOCAL_NAMES.has(n.toLowerCase()));
  if (names.length === 0) return SKIP;
  const out: string[] = [];
  for (const name of names) {
    try {
      const expr = expressionForHost(name);
      if (!out.includes(expr)) out.push(expr);
    } catch (e) {
      // One bad name fails the whole line so that it is reported rather
      // than half-imported.
      return error(reasonOf(e));
    }
  }
  return entries(out);
}

function parseAdblock(t: string): ParsedLine {
  if (t.startsWith('!') || ADBLOCK_HEADER.test(t) || HASH_COMMENT.test(t)) return SKIP;
  if (t.startsWith('@@')) return error('exception rules (@@) cannot be expressed in a blocklist');
  if (COSMETIC.test(t)) return error('cosmetic or scriptlet rule has no URL to block');
  if (REGEX_RULE.test(t)) return error('regular-expression rules cannot be expressed as host/path');
  if (/\s/.test(t)) return error('unexpected whitespace inside the filter');

  let pattern = t;
  const dollar = t.lastIndexOf('$');
  if (dollar >= 0) {
    const problem = checkOptions(t.slice(dollar + 1));
    if (problem) return error(problem);
    pattern = t.slice(0, dollar);
  }

  let rest: string;
  if (pattern.startsWith('||')) {
    rest = pattern.slice(2);
  } else if (pattern.startsWith('|')) {
    rest = pattern.slice(1);
  } else if (pattern !== '' && !NOT_A_HOST.test(pattern)) {
    // uBlock Origin reads a bare host name as "||host^".
    rest = pattern;
  } else {
    return error('unanchored patterns match anywhere in a URL and cannot be expressed as host/path');
  }
  // End anchor, then trailing wildcards (a no-op in prefix matching), then one
  // separator: "^" at the end matches end-of-URL or any separator, which a
  // host/path prefix expression already covers.
  if (rest.endsWith('|')) rest = rest.slice(0, -1);
  rest = rest.replace(/\*+$/, '');
  if (rest.endsWith('^')) rest = rest.slice(0, -1);
  if (rest.includes('*')) return error('wildcard patterns cannot be expressed as host/path');
  if (rest.includes('^')) return error('a "^" separator inside the pattern cannot be expressed');
  if (rest.includes('|')) return error('unexpected "|" inside the pattern');
  if (rest === '') return error('empty pattern');
  try {
    return entries([expressionForUrl(rest)]);
  } catch (e) {
    return error(reasonOf(e));
  }
}

function detect(t: string): Exclude<ListFormat, 'auto'> | 'comment' {
  if (t.startsWith('#')) {
    return HASH_COMMENT.test(t) || !COSMETIC.test(t.slice(0, 4)) ? 'comment' : 'adblock';
  }
  if (/^(?:\|\||\||!|@@)/.test(t) || ADBLOCK_HEADER.test(t)) return 'adblock';
  if (t.includes('^') || COSMETIC.test(t) || REGEX_RULE.test(t)) return 'adblock';
  const dollar = t.lastIndexOf('$');
  if (dollar >= 0 && looksLikeOptions(t.slice(dollar + 1))) return 'adblock';
  const m = /^(\S+)\s+[^\s#]/.exec(t);
  if (m && isIpLiteral(m[1]!)) return 'hosts';
  return 'plain';
}

/**
 * Parse one blocklist line into the expression(s) a URL filter should store.
 *
 * The stored expression is what `urlExpressions(url)` yields for a matching
 * URL: `host/` for a host entry, `host/path` or `host/path?query` for a URL
 * entry (canonical per `canonicalizeUrl`, without scheme and port, so a host
 * or URL entry matches on any scheme and port, and host entries also match
 * subdomains through the host suffixes `urlExpressions` generates).
 *
 * `auto` (the default) decides per line: blank lines are skipped; lines
 * starting with `#` are comments unless they are cosmetic rules (`##.ad`);
 * lines starting with `||`, `|`, `!`, `@@` or an `[Adblock …]` header, or
 * containing `^`, a cosmetic separator, a `/regex/`, or a trailing `$option`
 * list are adblock; `<ip> <name>` lines are hosts; everything else is plain.
 *
 * Adblock lines that cannot be reduced to a host/path expression (exception
 * `@@`, cosmetic `##`/`#@#`/`#?#`/`#$#`, `/regex/`, wildcards, unanchored
 * patterns with a path, options other than request-type/party/`all`/
 * `important`) are errors with a reason, never silently dropped. `||host/path`
 * (prefix match) is stored as the exact path `host/path`.
 *
 * Any line `canonicalizeUrl` rejects is an error carrying its message.
 */
export function parseListLine(line: string, format: ListFormat = 'auto'): ParsedLine {
  const t = line.trim();
  if (t === '') return SKIP;
  switch (format) {
    case 'plain':
      return parsePlain(t);
    case 'hosts':
      return parseHosts(t);
    case 'adblock':
      return parseAdblock(t);
    case 'auto': {
      const kind = detect(t);
      if (kind === 'comment') return SKIP;
      if (kind === 'adblock') return parseAdblock(t);
      if (kind === 'hosts') return parseHosts(t);
      return parsePlain(t);
    }
    default:
      throw new TypeError(`Unknown list format ${JSON.stringify(format)}`);
  }
}

/**
 * Parse a whole list (`\n`, `\r\n` or `\r` line ends; a final newline does not
 * add a line, so empty text has no lines; a leading BOM is ignored). Entries
 * are deduplicated in first-seen order; duplicates are not counted anywhere.
 * Errors carry 1-based line numbers and the original line text.
 */
export function parseList(text: string, format: ListFormat = 'auto'): ListParseResult {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === '') lines.pop();
  const seen = new Set<string>();
  const result: ListParseResult = { entries: [], skipped: 0, errors: [] };
  lines.forEach((text, i) => {
    const parsed = parseListLine(text, format);
    if (parsed.kind === 'skip') {
      result.skipped++;
    } else if (parsed.kind === 'error') {
      result.errors.push({ line: i + 1, text, reason: parsed.reason });
    } else {
      for (const e of parsed.expressions) {
        if (!seen.has(e)) {
          seen.add(e);
          result.entries.push(e);
        }
      }
    }
  });
  return result;
}
