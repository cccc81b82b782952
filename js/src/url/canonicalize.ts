/**
 * Safe Browsing style URL canonicalization, layered on the WHATWG `URL` parser.
 *
 * Reference: https://developers.google.com/safe-browsing/v4/urls-hashing#canonicalization
 *
 * The WHATWG parser is used for everything structural (scheme/authority/path/
 * query split, host parsing including IPv4 forms and IDNA, port validation,
 * first-level dot-segment removal). The Safe Browsing rules are then applied on
 * top of its output. Because the WHATWG output is ASCII (non-ASCII is already
 * percent-encoded as UTF-8), all byte-level work below operates on "binary
 * strings" whose char codes are bytes 0..255.
 */

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

// Only schemes whose URLs have a network host are accepted: the WHATWG parser
// gives opaque (un-normalised) hosts to every other scheme, so Safe Browsing
// host rules could not be applied consistently to them.
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
 * Remove `.` and `..` segments. The WHATWG parser already did this once, but
 * unescaping can reveal new ones (`%252e%252e` → `..`), and Safe Browsing
 * resolves after unescaping. A trailing `.`/`..` leaves a trailing slash, as in
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

function ipv4FromHexPieces(hi: string, lo: string): string {
  const a = parseInt(hi, 16);
  const b = parseInt(lo, 16);
  return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
}

// WHATWG serialises IPv6 in compressed lowercase form, so these two patterns
// cover every spelling of an IPv4-mapped (::ffff:0:0/96) or NAT64
// (64:ff9b::/96) address.
const IPV4_MAPPED = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/;
const NAT64 = /^\[64:ff9b::([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/;

function canonicalHost(input: string, hostname: string): string {
  let host = hostname.replace(/^\.+|\.+$/g, '').replace(/\.{2,}/g, '.');
  if (host === '') fail(input, 'the host is empty');
  if (host !== hostname) {
    // Trimming/collapsing dots can turn a name into an IPv4 literal
    // ("0x7f.1." style); let WHATWG normalise it again so the result is a
    // fixed point.
    try {
      host = new URL(`http://${host}/`).hostname;
    } catch {
      fail(input, `the host ${JSON.stringify(host)} is not valid`);
    }
  }
  const mapped = IPV4_MAPPED.exec(host) ?? NAT64.exec(host);
  if (mapped) host = ipv4FromHexPieces(mapped[1]!, mapped[2]!);
  // A WHATWG hostname never holds bytes that need escaping; this only keeps
  // the output contract unconditional.
  return escapeBytes(host);
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
// "host:8080/…" looks like a scheme syntactically; digits after the colon
// mean it is really a port on a scheme-less URL.
const PORT_AFTER_COLON = /^[0-9]+(?:[/\\?]|$)/;

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
  let s = input.replace(/[\t\r\n]/g, '');
  // Same "whitespace" as WHATWG strips (C0 controls and space), so the
  // scheme sniffing below sees what the parser will see.
  s = s.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '');
  const hash = s.indexOf('#');
  if (hash >= 0) s = s.slice(0, hash);
  if (s === '') fail(input, 'the URL is empty');

  const m = SCHEME.exec(s);
  if (m && !PORT_AFTER_COLON.test(s.slice(m[0].length))) {
    const scheme = m[1]!.toLowerCase();
    if (!SUPPORTED_SCHEMES.has(scheme)) {
      fail(input, `unsupported scheme "${scheme}:" (expected http, https, ftp, ws or wss)`);
    }
  } else if (s.startsWith('//')) {
    s = 'http:' + s;
  } else if (s.startsWith('/') || s.startsWith('\\') || s.startsWith('?')) {
    fail(input, 'it has no host');
  } else {
    s = 'http://' + s;
  }

  let url: URL;
  try {
    url = new URL(s);
  } catch {
    fail(input, 'the WHATWG URL parser rejects it (invalid host, port or syntax)');
  }

  const scheme = url.protocol.slice(0, -1);
  const host = canonicalHost(input, url.hostname);

  let path = unescapeFully(url.pathname);
  // Browsers treat "\" as "/" in these schemes' paths. Converting now keeps
  // the result a fixed point: leaving a raw "\" would split differently when
  // the output is parsed again.
  path = path.replace(/\\/g, '/');
  path = resolveDotSegments(path);
  path = path.replace(/\/{2,}/g, '/');

  // url.search is '' both for "no query" and for a bare trailing "?"; Safe
  // Browsing keeps the latter ("/q?" stays "/q?"). The fragment is already
  // gone, so href ends with the query.
  let query: string | null = null;
  if (url.search !== '') query = unescapeFully(url.search.slice(1));
  else if (url.href.endsWith('?')) query = '';

  // An unescaped "%3F" leaves a "?" inside the path. Splitting at the first
  // "?" of the final text makes the parts equal to what parsing the
  // canonical string would give, so expressions of a URL and of its
  // canonical form coincide.
  const tail = escapeBytes(path) + (query === null ? '' : '?' + escapeBytes(query));
  const q = tail.indexOf('?');
  return {
    scheme,
    host,
    port: url.port,
    path: q < 0 ? tail : tail.slice(0, q),
    query: q < 0 ? null : tail.slice(q + 1),
  };
}

/** Serialise parts as `scheme://host[:port]/path[?query]`. @internal */
export function formatCanonicalUrl(p: CanonicalUrlParts): string {
  return (
    `${p.scheme}://${p.host}${p.port ? ':' + p.port : ''}${p.path}` +
    (p.query === null ? '' : '?' + p.query)
  );
}

/**
 * Canonicalize a URL following the Google Safe Browsing rules, on top of the
 * WHATWG URL parser. Output form: `scheme://host[:port]/path[?query]`.
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
 *   IDN converted to punycode (`http://www.ümlat.com/` → `http://www.xn--mlat-zra.com/`).
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
 * Where the WHATWG parser rejects the input, this throws instead of
 * escaping, unlike the Safe Browsing table: hosts containing spaces, control
 * characters or `#` after unescaping (`http:// leadingspace.com/`,
 * `http://host%23.com/`), invalid IPv4 (`http://1.2.3.256/`), bad ports.
 *
 * The function is idempotent: `canonicalizeUrl(canonicalizeUrl(x)) === canonicalizeUrl(x)`.
 *
 * @throws {TypeError} when the input is not a string, has no host, has an
 *   unsupported scheme, or is rejected by the WHATWG URL parser. The message
 *   quotes the input (truncated to 200 characters).
 */
export function canonicalizeUrl(input: string): string {
  return formatCanonicalUrl(canonicalizeUrlParts(input));
}
