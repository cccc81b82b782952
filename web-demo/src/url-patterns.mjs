// The link finder's patterns (url-find.ts), each with an ASCII twin. A pattern with Unicode
// property classes under the `u` flag (\p{L} with `i`: its case closure spans every script)
// costs milliseconds to compile on first use, and V8 compiles a pattern the first time it
// runs: a phone's first check of a pasted address paid about 15-20 ms at 4x CPU for them
// (bench/demo-first-verdict.mjs --profile). Most pasted text is ASCII, and on ASCII text each
// twin matches exactly what its pattern matches: there \p{L} is [A-Za-z], \p{N} is [0-9],
// \p{M} and \p{Cf} match nothing, \p{Cc} is [\x00-\x1f\x7f], and \s is the same set in both
// modes. tests/url/url-patterns.test.mjs checks each pair on random ASCII text.
// Plain JavaScript, so Node runs it without a build; url-patterns.d.mts gives the demo its types.

/** True when every UTF-16 unit of `text` is ASCII: the twins apply. */
export function isAscii(text) {
  return /^[\x00-\x7f]*$/.test(text);
}

// A host label: letters of any script (with their combining marks), digits, hyphens. A
// top-level label: letters (two or more), punycode, or an IPv4 address's last number.
const LABEL = String.raw`[\p{L}\p{M}\p{N}-]+`;
const TOP_LABEL = String.raw`(?:\p{L}[\p{L}\p{M}]+|xn--[a-z0-9-]+|\d{1,3})`;
const ASCII_LABEL = String.raw`[A-Za-z0-9-]+`;
const ASCII_TOP_LABEL = String.raw`(?:[A-Za-z][A-Za-z]+|xn--[a-z0-9-]+|\d{1,3})`;
const wwwHost = (label, top) => String.raw`^www\.${label}(?:\.${label})*\.${top}\.?(?:[/:?#]\S*)?$`;
const hostWithPath = (label, top) => String.raw`^${label}(?:\.${label})*\.${top}\.?(?::\d+)?[/?#]\S*$`;
const bareHost = (label, top) => String.raw`^${label}(?:\.${label})*\.${top}\.?(?::\d+)?$`;

/** Each pattern as [for any text, for ASCII text]. */
export const PATTERNS = {
  /** `www.` and a host, then optionally a port, path, query or fragment. */
  wwwHost: [new RegExp(wwwHost(LABEL, TOP_LABEL), 'iu'), new RegExp(wwwHost(ASCII_LABEL, ASCII_TOP_LABEL), 'i')],
  /** A host without a scheme, with a path, query or fragment. */
  hostWithPath: [new RegExp(hostWithPath(LABEL, TOP_LABEL), 'iu'), new RegExp(hostWithPath(ASCII_LABEL, ASCII_TOP_LABEL), 'i')],
  /** A host alone (with a port at most). */
  bareHost: [new RegExp(bareHost(LABEL, TOP_LABEL), 'iu'), new RegExp(bareHost(ASCII_LABEL, ASCII_TOP_LABEL), 'i')],
  /**
   * What ends a word besides whitespace: control and format characters (\p{Cc}, \p{Cf}:
   * zero-width spaces, joiners, bidi controls), characters a URL never holds unescaped that
   * text puts around one (HTML, markdown code, JSON, shell), CJK punctuation (U+3000-U+303F)
   * and the full-width forms of brackets, quotes and sentence punctuation.
   */
  separator: [
    /[\s\p{Cc}\p{Cf}<>"`{}|\\^\u3000-\u303f\uff01\uff02\uff08\uff09\uff0c\uff0e\uff1a\uff1b\uff1c\uff1e\uff1f\uff3b\uff3d\uff5b\uff5d]+/u,
    /[\s\x00-\x1f\x7f<>"`{}|\\^]+/,
  ],
  /** `www.` after punctuation that no host has before it ("Link:www.…", "url=www.…"). */
  innerWww: [/(?<=[^\p{L}\p{M}\p{N}./-])www\./giu, /(?<=[^A-Za-z0-9./-])www\./gi],
};

/** The pattern `name` for `text`: its ASCII twin when the text is ASCII. */
export function patternFor(name, text) {
  const [any, ascii] = PATTERNS[name];
  return isAscii(text) ? ascii : any;
}
