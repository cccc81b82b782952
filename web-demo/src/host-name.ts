// A checked host in both spellings a visitor may meet: Unicode (what an address bar shows,
// `bücher.example`) and punycode (what DNS and the list hold, `xn--bcher-kva.example`).
// A look-alike domain is told apart only in punycode, so the verdict shows both.
// The browser's URL parser gives the punycode form; nothing in a page gives the Unicode
// one, hence the RFC 3492 decoder below (decoding only: no table, about 40 lines).

export interface HostNames {
  ascii: string;
  unicode: string;
}

/** Both spellings of the host of `url` (a URL the browser can parse). */
export function hostNames(url: string): HostNames {
  const ascii = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`).hostname;
  return { ascii, unicode: ascii.split('.').map(labelToUnicode).join('.') };
}

function labelToUnicode(label: string): string {
  if (!label.toLowerCase().startsWith('xn--')) return label;
  try {
    return decodePunycode(label.slice(4));
  } catch {
    return label; // not valid punycode: show it as it is
  }
}

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;

/** RFC 3492 section 6.2. Throws on input that is not punycode. */
export function decodePunycode(input: string): string {
  const output: number[] = [];
  const basicEnd = input.lastIndexOf('-');
  for (let j = 0; j < Math.max(basicEnd, 0); j++) output.push(input.charCodeAt(j));
  let n = 128;
  let i = 0;
  let bias = 72;
  for (let index = basicEnd > 0 ? basicEnd + 1 : 0; index < input.length; ) {
    const oldI = i;
    for (let w = 1, k = BASE; ; k += BASE) {
      if (index >= input.length) throw new RangeError('punycode: truncated');
      const digit = digitOf(input.charCodeAt(index++));
      i += digit * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      w *= BASE - t;
    }
    bias = adapt(i - oldI, output.length + 1, oldI === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff) throw new RangeError('punycode: out of range');
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

function digitOf(code: number): number {
  if (code >= 48 && code <= 57) return code - 22; // 0-9 → 26-35
  if (code >= 65 && code <= 90) return code - 65; // A-Z
  if (code >= 97 && code <= 122) return code - 97; // a-z
  throw new RangeError('punycode: bad digit');
}

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  for (; d > ((BASE - T_MIN) * T_MAX) >> 1; k += BASE) d = Math.floor(d / (BASE - T_MIN));
  return Math.floor(k + ((BASE - T_MIN + 1) * d) / (d + SKEW));
}
