/**
 * Safe Browsing URL canonicalization, the same in every runtime.
 *
 * Reference: https://developers.google.com/safe-browsing/v4/urls-hashing#canonicalization
 *
 * The URL is split here (scheme, authority, path, query, as the WHATWG parser
 * splits URLs of the http, https, ftp, ws and wss schemes) and every rule is
 * applied by this code, on bytes: the runtime's `URL` parser is consulted only
 * for IDNA and IPv6 literals (host.ts), because its other behaviour differs
 * between runtimes (Chromium accepted `not a url` as `http://not%2520a%2520url/`,
 * Node rejects it). Byte-level work operates on "binary strings" whose char
 * codes are bytes 0..255 (the UTF-8 form of the input).
 */
import { canonicalHost, utf8Binary } from './host.js';

/** Components of a canonical URL; `query` is `null` when there was no `?`. */
export interface CanonicalUrlParts {
  scheme: string;
  host: string;
  /** Non-default port as decimal string, or `''`. */
  port: string;
  /** Always starts with `/`. */
  path: string;
  query: string | null;
}

// Only schemes whose URLs have a network host are accepted: a Safe Browsing
// expression is a host and a path, which other schemes do not have.
const SUPPORTED_SCHEMES = new Set(['http', 'https', 'ftp', 'ws', 'wss']);

const MAX_INPUT_IN_MESSAGE = 200;

function quote(input: string): string {
  const shown =
    input.length > MAX_INPUT_IN_MESSAGE ? input.slice(0, MAX_INPUT_IN_MESSAGE) + '…' : input;
  return JSON.stringify(shown);
}

function fail(input: string, reason: string): never {
  throw new TypeError(`Cannot canonicalize URL ${quote(input)}: ${reason}`);
}

function isHexCode(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function hexValue(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57;
}

/**
 * Percent-unescape until no `%XX` escape remains, in linear time.
 *
 * Repeating whole-string passes is quadratic on inputs like `%2525…25` (each
 * pass only removes two characters), which a hostile list line could exploit.
 * Decoding on a stack gives the same fixed point: escapes never overlap (`%` is
 * not a hex digit), so the only escape a decode can create ends at the
 * character just produced, which is exactly what the tail check looks at.
 */
function unescapeFully(binary: string): string {
  const out: number[] = [];
  for (let i = 0; i < binary.length; i++) {
    out.push(binary.charCodeAt(i));
    let n = out.length;
    while (n >= 3 && out[n - 3] === 0x25 && isHexCode(out[n - 2]!) && isHexCode(out[n - 1]!)) {
      const byte = (hexValue(out[n - 2]!) << 4) | hexValue(out[n - 1]!);
      out.length = n - 3;
      out.push(byte);
      n = out.length;
    }
  }
  let s = '';
  // Chunked to stay clear of argument-count limits of String.fromCharCode.
  for (let i = 0; i < out.length; i += 8192) {
    s += String.fromCharCode(...out.slice(i, i + 8192));
  }
  return s;
}

const HEX = '0123456789ABCDEF';

/** Escape bytes <= 0x20, >= 0x7f, `#` and `%` with uppercase hex. */
function escapeBytes(binary: string): string {
  let s = '';
  for (let i = 0; i < binary.length; i++) {
    const c = binary.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || c === 0x23 || c === 0x25) {
      s += '%' + HEX[c >> 4] + HEX[c & 15];
    } else {
      s += binary[i];
    }
  }
  return s;
}

/**
 * Remove `.` and `..` segments, after unescaping as Safe Browsing asks, so
 * escaped ones count too (`%252e%252e` → `..`). A trailing `.`/`..` leaves a trailing slash, as in
 * the reference vector `/blah/..` → `/`.
 */
function resolveDotSegments(path: string): string {
  const segments = path.split('/');
  const out: string[] = [];
  for (let i = 1; i < segments.length; i++) {
    const seg = segments[i]!;
    const last = i === segments.length - 1;
    if (seg === '.' || seg === '..') {
      if (seg === '..') out.pop();
      if (last) out.push('');
    } else {
      out.push(seg);
    }
  }
  return '/' + out.join('/');
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
// "host:8080/…" looks like a scheme syntactically; digits after the colon
// mean it is really a port on a scheme-less URL.
const PORT_AFTER_COLON = /^[0-9]+(?:[/\\?]|$)/;

// The ports each scheme drops (WHATWG's default ports).
const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443', ftp: '21', ws: '80', wss: '443' };

/**
 * The longest URL accepted, in UTF-16 units: Chromium's limit (2 MiB,
 * `url::kMaxURLChars`). A longer "URL" is no address a browser would open,
 * and refusing it bounds the work one list line or query can cost.
 */
const MAX_URL_CHARS = 2 * 1024 * 1024;

/**
 * Split a URL into canonical components. This is the single implementation
 * behind {@link canonicalizeUrl}, `urlExpressions` and the list parser, so all
 * three agree byte for byte.
 *
 * @internal
 */
export function canonicalizeUrlParts(input: string): CanonicalUrlParts {
  if (typeof input !== 'string') {
    throw new TypeError(`Cannot canonicalize URL: expected a string, got ${typeof input}`);
  }
  const reject = (reason: string): never => fail(input, reason);
  if (input.length > MAX_URL_CHARS) reject(`it is longer than ${MAX_URL_CHARS} characters (the longest URL Chromium accepts)`);
  let s = input.replace(/[\t\r\n]/g, '');
  // C0 controls and space around the URL are not part of it (WHATWG strips
  // the same set).
  s = s.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '');
  const hash = s.indexOf('#');
  if (hash >= 0) s = s.slice(0, hash);
  if (s === '') reject('the URL is empty');

  let scheme = 'http';
  let rest = s;
  const m = SCHEME.exec(s);
  if (m && !PORT_AFTER_COLON.test(s.slice(m[0].length))) {
    scheme = m[1]!.toLowerCase();
    if (!SUPPORTED_SCHEMES.has(scheme)) {
      reject(`unsupported scheme "${scheme}:" (expected http, https, ftp, ws or wss)`);
    }
    rest = s.slice(m[0].length);
  } else if (s.startsWith('/') && !s.startsWith('//')) {
    reject('it has no host');
  } else if (s.startsWith('\\') || s.startsWith('?')) {
    reject('it has no host');
  }

  // As WHATWG for these schemes: any run of "/" and "\" before the
  // authority is skipped ("http:evil.example", "http:\\evil.example"); the
  // authority ends at the first "/", "\" or "?".
  rest = rest.replace(/^[/\\]+/, '');
  const authorityEnd = rest.search(/[/\\?]/);
  const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd);
  const tail = authorityEnd < 0 ? '' : rest.slice(authorityEnd);

  // User info ends at the last "@"; the port follows the first ":" outside
  // an IPv6 literal's brackets.
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  let rawHost = hostAndPort;
  let rawPort = '';
  const bracketEnd = hostAndPort.startsWith('[') ? hostAndPort.indexOf(']') : -1;
  const colon = hostAndPort.indexOf(':', bracketEnd + 1);
  if (colon >= 0) {
    rawHost = hostAndPort.slice(0, colon);
    rawPort = hostAndPort.slice(colon + 1);
  }
  if (rawHost === '') reject('it has no host');
  const host = canonicalHost(rawHost, reject, unescapeFully);
  const port = canonicalPort(rawPort, scheme, reject);

  const queryStart = tail.indexOf('?');
  const rawPath = queryStart < 0 ? tail : tail.slice(0, queryStart);
  // Browsers treat "\" as "/" in these schemes' paths, escaped or not.
  // Converting it keeps the result a fixed point: a raw "\" would split
  // differently when the output is parsed again.
  let path = unescapeFully(utf8Binary(rawPath.replace(/\\/g, '/'))).replace(/\\/g, '/');
  if (!path.startsWith('/')) path = '/' + path;
  // Safe Browsing resolves "." and ".." after unescaping, so "%252e%252e" is
  // a parent segment too.
  path = resolveDotSegments(path);
  path = path.replace(/\/{2,}/g, '/');
  // A bare trailing "?" is kept: Safe Browsing keeps "/q?" as "/q?".
  const query = queryStart < 0 ? null : unescapeFully(utf8Binary(tail.slice(queryStart + 1)));

  // An unescaped "%3F" leaves a "?" inside the path. Splitting at the first
  // "?" of the final text makes the parts equal to what parsing the
  // canonical string would give, so expressions of a URL and of its
  // canonical form coincide.
  const escaped = escapeBytes(path) + (query === null ? '' : '?' + escapeBytes(query));
  const q = escaped.indexOf('?');
  return {
    scheme,
    host,
    port,
    path: q < 0 ? escaped : escaped.slice(0, q),
    query: q < 0 ? null : escaped.slice(q + 1),
  };
}

/** The port as kept in the canonical URL: decimal without leading zeros, '' for none or the scheme's default. */
function canonicalPort(raw: string, scheme: string, reject: (reason: string) => never): string {
  if (raw === '') return '';
  if (!/^[0-9]+$/.test(raw)) reject(`the port ${JSON.stringify(raw)} is not a number`);
  const value = Number(raw);
  if (value > 65535) reject(`the port ${raw} is larger than 65535`);
  const port = String(value);
  return port === DEFAULT_PORTS[scheme] ? '' : port;
}

/** Serialise parts as `scheme://host[:port]/path[?query]`. @internal */
/** The canonical URL of parts `canonicalizeUrlParts` gave. @internal */
export function formatCanonicalUrl(p: CanonicalUrlParts): string {
  return (
    `${p.scheme}://${p.host}${p.port ? ':' + p.port : ''}${p.path}` +
    (p.query === null ? '' : '?' + p.query)
  );
}

/**
 * Canonicalize a URL following the Google Safe Browsing rules, with the same
 * answer in Node and in every browser. Output form: `scheme://host[:port]/path[?query]`.
 *
 * Rules, in the order applied (input → output):
 * - Tab, CR and LF are removed anywhere (escaped `%0A` is kept):
 *   `http://www.google.com/foo\tbar\rbaz\n2` → `http://www.google.com/foobarbaz2`
 * - Leading/trailing whitespace (C0 controls and space) is stripped:
 *   `  http://www.google.com/  ` → `http://www.google.com/`
 * - The fragment is removed: `http://evil.com/foo#bar#baz` → `http://evil.com/foo`
 * - A missing scheme means `http://`: `www.google.com` → `http://www.google.com/`;
 *   `evil.com:8080/x` → `http://evil.com:8080/x`; `//h/x` → `http://h/x`.
 *   Only http, https, ftp, ws and wss are accepted; other schemes (`mailto:`,
 *   `file:`, `javascript:`) throw.
 * - Percent-escapes are undone repeatedly until none is left:
 *   `http://host/%25%32%35` → `http://host/%25`
 *   (unescaped to `%`, then re-escaped by the last rule)
 * - Host: lowercased (`http://www.GOOgle.com/` → `http://www.google.com/`),
 *   leading/trailing dots removed (`http://www.google.com.../` →
 *   `http://www.google.com/`), runs of dots collapsed (`http://a..b/` → `http://a.b/`),
 *   escapes undone fully (`http://%2565vil.com/` → `http://evil.com/`),
 *   IDN converted to punycode (`http://www.ümlat.com/` → `http://www.xn--mlat-zra.com/`;
 *   the one step done by the runtime's `URL`, for hosts with non-ASCII letters).
 * - IPv4 in any legal form becomes a dotted quad: `http://3279880203/blah` →
 *   `http://195.127.0.11/blah`; `http://0x7f.1/` → `http://127.0.0.1/`;
 *   IPv4-mapped/NAT64 IPv6 too: `http://[::ffff:1.2.3.4]/` → `http://1.2.3.4/`.
 * - Path: `.`/`..` segments are resolved (`http://www.google.com/blah/..` →
 *   `http://www.google.com/`), also when revealed by unescaping
 *   (`http://h/a/%252e%252e/b` → `http://h/b`); runs of `/` collapse
 *   (`http://host.com//twoslashes?more//slashes` →
 *   `http://host.com/twoslashes?more//slashes`; the query is untouched);
 *   an empty path becomes `/` (`http://notrailingslash.com` → `http://notrailingslash.com/`);
 *   `\` in the path becomes `/` (`http://h/a%5Cb` → `http://h/a/b`), as browsers do.
 * - The query is kept, including a bare `?`: `http://www.google.com/q?` →
 *   `http://www.google.com/q?`; `http://evil.com/foo?bar;` → `http://evil.com/foo?bar;`
 * - Default ports are dropped, others kept: `http://h:80/` → `http://h/`,
 *   `https://h:443/` → `https://h/`, `http://h:1234/` → `http://h:1234/`
 *   (Safe Browsing's table drops every port; this API keeps non-default ones).
 * - User name and password are dropped: `http://u:p@h/` → `http://h/`.
 * - Finally every byte <= 0x20, >= 0x7F, `#` and `%` of the UTF-8 form is
 *   percent-escaped with uppercase hex: `http://host.com/ab%23cd` →
 *   `http://host.com/ab%23cd`; `http://h/é` → `http://h/%C3%A9`;
 *   `http://h/a%20b` → `http://h/a%20b`.
 *
 * Deliberately unlike the Safe Browsing table, and as the WHATWG URL standard,
 * this throws instead of escaping for a host holding a space, a control
 * character or one of `# % / : < > ? @ [ \ ] ^ |` after unescaping
 * (`http:// leadingspace.com/`, `http://host%23.com/`, `not a url`): no host
 * name can hold one, and "not listed" would be a verdict on garbage. It also
 * throws for invalid IPv4 (`http://1.2.3.256/`, `http://a.1/`), bad ports,
 * non-ASCII hosts that are not valid IDNA or that mix in ASCII punctuation
 * other than `-`, `_` and `.`, and URLs longer than 2 MiB characters.
 *
 * The function is idempotent: `canonicalizeUrl(canonicalizeUrl(x)) === canonicalizeUrl(x)`.
 *
 * @throws {TypeError} when the input is not a string, has no host, has an
 *   unsupported scheme, or an invalid host, port or length. The message
 *   quotes the input (truncated to 200 characters).
 */
export function canonicalizeUrl(input: string): string {
  return formatCanonicalUrl(canonicalizeUrlParts(input));
}
