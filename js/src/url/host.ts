/**
 * The host of a URL, canonicalized by our own rules so that the answer does
 * not depend on the runtime's `URL` (Chromium's parser escapes spaces and
 * other characters in a host where Node, Firefox and the WHATWG spec reject
 * them: `not a url` became `http://not%2520a%2520url/` in Chromium and an
 * error in Node).
 *
 * Everything about an ASCII host is decided here: percent-unescaping (fully,
 * as Safe Browsing asks), lowercasing, dots, the characters a host may hold,
 * and IPv4 in every WHATWG form. The runtime's `URL` is asked only for two
 * things that are specified exactly and that Node and browsers implement the
 * same way: IDNA (a host with non-ASCII letters, checked to be only letters,
 * digits, `-`, `_` and `.` before and after) and IPv6 literals.
 *
 * Failures throw TypeError (the package boundary turns it into FilterError).
 */

/** A canonicalization failure: `reason` is appended to the quoted input. */
type Fail = (reason: string) => never;

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

// The WHATWG "forbidden domain code points" (C0 controls, space, # % / : < >
// ? @ [ \ ] ^ |, DEL). Safe Browsing would escape them; no name a resolver can
// look up contains one, so such a host is refused in every runtime: this is
// what keeps `not a url` from being "checked" as if it were a URL.
const FORBIDDEN_IN_HOST = /[\x00-\x20#%/:<>?@[\\\]^|\x7f]/;

// What a host with non-ASCII letters may contain besides them, before and
// after IDNA: other ASCII punctuation is where IDNA implementations differ.
const IDN_ASCII_PART = /^[A-Za-z0-9._\-\u0080-\u{10ffff}]*$/u;
const IDN_RESULT = /^[a-z0-9._-]+$/;

// WHATWG serialises IPv6 in compressed lowercase form, so these two patterns
// cover every spelling of an IPv4-mapped (::ffff:0:0/96) or NAT64
// (64:ff9b::/96) address.
const IPV4_MAPPED = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/;
const NAT64 = /^\[64:ff9b::([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/;

/**
 * The canonical host for the raw authority host `raw` (as written, still
 * percent-escaped; without user info and port). `unescapeFully` undoes every
 * `%XX` on a binary string (char codes = bytes).
 */
export function canonicalHost(raw: string, fail: Fail, unescapeFully: (binary: string) => string): string {
  if (raw.startsWith('[')) return ipv6Host(raw, fail);
  let host = unescapeFully(utf8Binary(raw));
  if (/[^\x00-\x7f]/.test(host)) host = idnaHost(host, fail);
  host = host.toLowerCase().replace(/^\.+|\.+$/g, '').replace(/\.{2,}/g, '.');
  if (host === '') fail('the host is empty');
  const forbidden = FORBIDDEN_IN_HOST.exec(host);
  if (forbidden !== null) {
    fail(`the host ${JSON.stringify(host)} contains ${JSON.stringify(forbidden[0])}, which no host name can hold`);
  }
  if (endsInNumber(host)) return ipv4Host(host, fail);
  return host;
}

/** `text` as a binary string of its UTF-8 bytes (lone surrogates become U+FFFD's bytes). */
export function utf8Binary(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return binary;
}

/** A host with bytes >= 0x80 after unescaping: UTF-8 text, converted to ASCII by IDNA (punycode). */
function idnaHost(binary: string, fail: Fail): string {
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  let text: string;
  try {
    text = utf8Strict.decode(bytes);
  } catch {
    fail('the host is not valid UTF-8 after percent-unescaping');
  }
  if (!IDN_ASCII_PART.test(text)) {
    fail(`the host ${JSON.stringify(text)} mixes non-ASCII letters with ASCII punctuation other than "-", "_" and "."`);
  }
  let ascii: string;
  try {
    ascii = new URL(`http://${text}/`).hostname;
  } catch {
    fail(`the host ${JSON.stringify(text)} is not a valid internationalized domain name`);
  }
  if (!IDN_RESULT.test(ascii)) fail(`the host ${JSON.stringify(text)} is not a valid internationalized domain name`);
  return ascii;
}

/** `[...]`: parsed and compressed by `URL` (IPv6 serialisation is exactly specified); mapped IPv4 becomes IPv4. */
function ipv6Host(raw: string, fail: Fail): string {
  if (!/^\[[0-9A-Fa-f:.]+\]$/.test(raw)) fail(`the host ${JSON.stringify(raw)} is not a valid IPv6 address`);
  let host: string;
  try {
    host = new URL(`http://${raw}/`).hostname;
  } catch {
    fail(`the host ${JSON.stringify(raw)} is not a valid IPv6 address`);
  }
  const mapped = IPV4_MAPPED.exec(host) ?? NAT64.exec(host);
  if (mapped === null) return host;
  const high = parseInt(mapped[1]!, 16);
  const low = parseInt(mapped[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * WHATWG's "ends in a number": the last label is all digits or `0x` hex. Such
 * a host must then be a valid IPv4 address (`1.2.3.256` and `a.1` are errors,
 * as in every browser), never a name.
 */
function endsInNumber(host: string): boolean {
  const last = host.slice(host.lastIndexOf('.') + 1);
  return /^[0-9]+$/.test(last) || /^0x[0-9a-f]*$/.test(last);
}

/**
 * IPv4 in any WHATWG form (Safe Browsing's examples: `3279880203`,
 * `0x7f.1`, `012.034.01.055`): up to four parts, each decimal, octal (a
 * leading 0) or hex (0x); every part but the last is one byte, the last fills
 * the remaining bytes. The result is a dotted quad.
 */
function ipv4Host(host: string, fail: Fail): string {
  const parts = host.split('.');
  const invalid = (): never => fail(`the host ${JSON.stringify(host)} is not a valid IPv4 address`);
  if (parts.length > 4) invalid();
  const numbers = parts.map((part) => {
    let value: number;
    if (/^0x[0-9a-f]*$/.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part, 8);
    else if (/^(?:0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return invalid();
    return value;
  });
  const last = numbers.length - 1;
  for (let i = 0; i < last; i++) if (numbers[i]! > 255) invalid();
  // The last part holds the 5 - n bytes the other parts left.
  if (numbers[last]! >= 256 ** (5 - numbers.length)) invalid();
  let address = numbers[last]!;
  for (let i = 0; i < last; i++) address += numbers[i]! * 256 ** (3 - i);
  return [address / 2 ** 24, address / 2 ** 16, address / 2 ** 8, address].map((n) => Math.floor(n) % 256).join('.');
}
