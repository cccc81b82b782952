// A blocklist's lines, in the syntaxes people feed to blockers, into the
// expressions a URL filter stores. One file per syntax beside this one; this
// one holds the types, the per-line dispatch (and `auto`'s choice), the state
// a whole list carries from line to line, and the warnings.
import { ADBLOCK_HEADER, COSMETIC, HASH_COMMENT, looksLikeOptions, parseAdblock, REGEX_RULE } from './list-adblock.js';
import { DNSMASQ_LINE, parseDnsmasq } from './list-dnsmasq.js';
import { isIpLiteral, SKIP } from './list-entry.js';
import type { ParsedLine } from './parsed-line.js';
import { parseHosts, parsePlain } from './list-hosts.js';
import { looksLikeRecordInZone, looksLikeZoneLine, newRpzState, parseRpz, type RpzState } from './list-rpz.js';
import { parseUnbound, UNBOUND_LINE } from './list-unbound.js';

/**
 * Blocklist line syntax.
 * - `plain`: one host, IP or URL per line (`evil.example`, `1.2.3.4`,
 *   `evil.example/path/file.exe`, `http://evil.example/x?y=1`); `*.evil.example`
 *   is a wildcard, the host and every subdomain, which is what the host's
 *   `evil.example/` expression already matches; `#` starts a comment (whole
 *   line, or after whitespace).
 * - `hosts`: hosts-file lines `<ip> <name> [<name>...]` such as
 *   `0.0.0.0 evil.example # ads`; `#` comments; loopback/broadcast names are skipped.
 * - `adblock`: the host/URL subset of Adblock Plus / uBlock Origin syntax
 *   (`||host^`, `||host/path^$all`, bare host names, `|http://…|`); `!`
 *   comments and `[Adblock Plus …]` headers are skipped.
 * - `dnsmasq`: `address=/host/…/0.0.0.0` (any sinkhole address, `#` or none),
 *   `server=/host/` and `local=/host/`, one or more hosts per line; `#` comments.
 * - `unbound`: `local-zone: "host" <blocking type>` (deny, refuse, static,
 *   redirect, always_nxdomain, always_null, …) and `local-data: "host A …"`;
 *   the `server:` line and `#` comments are skipped.
 * - `rpz`: a Response Policy Zone file: `host CNAME .`, `*.host CNAME .`,
 *   `host A 0.0.0.0` (local data), owner names relative to the policy zone
 *   (`$ORIGIN`, `@`, absolute names under the SOA's name); `$TTL`, SOA and NS
 *   records and `;` comments are skipped.
 * - `auto`: decides per line (see {@link parseListLine}).
 */
export type ListFormat = 'auto' | 'plain' | 'hosts' | 'adblock' | 'dnsmasq' | 'unbound' | 'rpz';

/** Every {@link ListFormat}, in the order messages list them. */
export const LIST_FORMATS: readonly ListFormat[] = ['auto', 'plain', 'hosts', 'adblock', 'dnsmasq', 'unbound', 'rpz'];

export type { ParsedLine } from './parsed-line.js';

/** A line of a list that could not be read, or that was stored with a warning: where, what, and why. */
export interface ListParseError {
  /** 1-based line number. */
  line: number;
  /** The line as it was in the list. */
  text: string;
  /** Why it was refused (as {@link ParsedLine}'s `reason`), or why it is worth a look. */
  reason: string;
}

/** A line stored with a warning (same shape as an error). */
export type ListParseWarning = ListParseError;

/** What `parseList` found in a whole list: the entries to store, what it skipped, and each line it refused. */
export interface ListParseResult {
  /** Distinct expressions, in first-seen order. */
  entries: string[];
  /** Lines that are blank, comments, headers or loopback-only hosts lines. */
  skipped: number;
  /** Lines that could not be read, in list order: the rest of the list is still read. */
  errors: ListParseError[];
  /** Lines stored with a warning (single-label hosts; public suffixes when `isPublicSuffix` is given), in list order. */
  warnings: ListParseWarning[];
}

/** Options of a list parser. */
export interface ListParseOptions {
  /**
   * Whether a host (lower case, IDNA-encoded, e.g. `co.jp`) is a public suffix,
   * under which every site belongs to someone else: an entry for one lists
   * them all and gets a warning. Not built in, so that browser bundles stay
   * free of the Public Suffix List; the CLI passes one built from it.
   */
  isPublicSuffix?: ((host: string) => boolean) | undefined;
}

function detect(t: string): Exclude<ListFormat, 'auto'> | 'comment' {
  if (t.startsWith('#')) {
    return HASH_COMMENT.test(t) || !COSMETIC.test(t.slice(0, 4)) ? 'comment' : 'adblock';
  }
  if (t.startsWith(';')) return 'comment'; // a zone-file comment: no host or URL starts with ";"
  if (DNSMASQ_LINE.test(t)) return 'dnsmasq';
  if (UNBOUND_LINE.test(t)) return 'unbound';
  if (/^(?:\|\||\||!|@@)/.test(t) || ADBLOCK_HEADER.test(t)) return 'adblock';
  if (t.includes('^') || COSMETIC.test(t) || REGEX_RULE.test(t)) return 'adblock';
  const dollar = t.lastIndexOf('$');
  if (dollar >= 0 && looksLikeOptions(t.slice(dollar + 1))) return 'adblock';
  const m = /^(\S+)\s+[^\s#]/.exec(t);
  if (m && isIpLiteral(m[1]!)) return 'hosts';
  if (looksLikeZoneLine(t)) return 'rpz';
  return 'plain';
}

/** The host part of an expression (`host/path` → `host`). */
function hostOf(expression: string): string {
  return expression.slice(0, expression.indexOf('/'));
}

/** The warnings an entry's expressions deserve. */
function warningsFor(expressions: readonly string[], isPublicSuffix: ListParseOptions['isPublicSuffix']): string[] {
  const warnings: string[] = [];
  for (const expression of expressions) {
    const host = hostOf(expression);
    if (host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host)) continue; // an IP address: matched whole, as listed
    if (!host.includes('.')) {
      warnings.push(
        `"${host}" is a single label: a URL's host suffixes never include a bare top-level label, ` +
          `so it matches only URLs whose host is exactly "${host}"`,
      );
    } else if (isPublicSuffix !== undefined && isPublicSuffix(host)) {
      const what = expression === `${host}/` ? 'every site' : `the path ${expression.slice(host.length)} on every site`;
      warnings.push(`"${host}" is a public suffix (Public Suffix List): this entry lists ${what} under it`);
    }
  }
  return warnings;
}

/**
 * A parser for the lines of one list, in order: it carries what a line needs
 * of those before it (an RPZ file's `$ORIGIN` and SOA, a record continued over
 * lines). Use one per list; `parseListLine` is a fresh one per call.
 */
export class ListLineParser {
  readonly format: ListFormat;
  readonly #isPublicSuffix: ListParseOptions['isPublicSuffix'];
  readonly #rpz: RpzState = newRpzState();

  constructor(format: ListFormat = 'auto', options: ListParseOptions = {}) {
    if (!LIST_FORMATS.includes(format)) {
      throw new TypeError(`Unknown list format ${JSON.stringify(format)} (known: ${LIST_FORMATS.join(', ')})`);
    }
    this.format = format;
    this.#isPublicSuffix = options.isPublicSuffix;
  }

  /** The next line of the list. */
  parse(line: string): ParsedLine {
    const parsed = this.#parse(line);
    if (parsed.kind !== 'entry') return parsed;
    const warnings = warningsFor(parsed.expressions, this.#isPublicSuffix);
    return warnings.length > 0 ? { ...parsed, warnings } : parsed;
  }

  #parse(line: string): ParsedLine {
    // A record continued over lines ("(" … ")") is skipped whatever its lines look like.
    if (this.#rpz.inParens && (this.format === 'rpz' || this.format === 'auto')) return parseRpz(line, this.#rpz);
    const t = line.trim();
    if (t === '') return SKIP;
    // In auto, a zone file's records stay records once its $ORIGIN or SOA was seen, relative owners included.
    const kind = this.format !== 'auto' ? this.format : looksLikeRecordInZone(line, this.#rpz) ? 'rpz' : detect(t);
    switch (kind) {
      case 'comment':
        return SKIP;
      case 'plain':
        return parsePlain(t);
      case 'hosts':
        return parseHosts(t);
      case 'adblock':
        return parseAdblock(t);
      case 'dnsmasq':
        return parseDnsmasq(t);
      case 'unbound':
        return parseUnbound(t);
      case 'rpz':
        return parseRpz(line, this.#rpz);
      default:
        throw new TypeError(`Unknown list format ${JSON.stringify(kind)}`);
    }
  }
}

/**
 * Parse one blocklist line into the expression(s) a URL filter should store
 * (a line of a list whose lines depend on each other, as an RPZ file's on its
 * `$ORIGIN`, needs a {@link ListLineParser} for the whole list).
 *
 * The stored expression is what `urlExpressions(url)` yields for a matching
 * URL: `host/` for a host entry, `host/path` or `host/path?query` for a URL
 * entry (canonical per `canonicalizeUrl`, without scheme and port, so a host
 * or URL entry matches on any scheme and port, and host entries also match
 * subdomains through the host suffixes `urlExpressions` generates). A
 * wildcard `*.host` (plain, hosts, dnsmasq, RPZ) is `host/`: the host and
 * every subdomain.
 *
 * `auto` (the default) decides per line: blank lines are skipped; lines
 * starting with `#` are comments unless they are cosmetic rules (`##.ad`),
 * lines starting with `;` are zone-file comments; `address=/`, `server=/`
 * and `local=/` lines are dnsmasq; `server:`, `local-zone:` and `local-data:`
 * lines are Unbound; lines starting with `||`, `|`, `!`, `@@` or an
 * `[Adblock …]` header, or containing `^`, a cosmetic separator, a
 * `/regex/`, or a trailing `$option` list are adblock; `<ip> <name>` lines are
 * hosts; `$ORIGIN`/`$TTL` lines and `<name> [ttl] [class] <CNAME|A|AAAA|TXT|SOA|NS> …`
 * records are RPZ; everything else is plain.
 *
 * Adblock lines that cannot be reduced to a host/path expression (exception
 * `@@`, cosmetic `##`/`#@#`/`#?#`/`#$#`, `/regex/`, wildcards, unanchored
 * patterns with a path, options other than request-type/party/`all`/
 * `important`) are errors with a reason, never silently dropped. `||host/path`
 * (prefix match) is stored as the exact path `host/path`. Lines of the DNS
 * syntaxes that do not block (a dnsmasq `server=` forwarding, an Unbound
 * `transparent` zone, an RPZ `rpz-passthru`) are errors too.
 *
 * Any line `canonicalizeUrl` rejects is an error carrying its message, and
 * so is one whose host holds a character no host name has (`*`, `=`, `!`,
 * quotes …): it could only ever be a dead entry.
 */
export function parseListLine(line: string, format: ListFormat = 'auto', options: ListParseOptions = {}): ParsedLine {
  return new ListLineParser(format, options).parse(line);
}

/**
 * Parse a whole list (`\n`, `\r\n` or `\r` line ends; a final newline does not
 * add a line, so empty text has no lines; a leading BOM is ignored). Entries
 * are deduplicated in first-seen order; duplicates are not counted anywhere.
 * Errors and warnings carry 1-based line numbers and the original line text.
 */
export function parseList(text: string, format: ListFormat = 'auto', options: ListParseOptions = {}): ListParseResult {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === '') lines.pop();
  const parser = new ListLineParser(format, options);
  const seen = new Set<string>();
  const result: ListParseResult = { entries: [], skipped: 0, errors: [], warnings: [] };
  lines.forEach((text, i) => {
    const parsed = parser.parse(text);
    if (parsed.kind === 'skip') {
      result.skipped++;
    } else if (parsed.kind === 'error') {
      result.errors.push({ line: i + 1, text, reason: parsed.reason });
    } else {
      for (const reason of parsed.warnings ?? []) result.warnings.push({ line: i + 1, text, reason });
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
