// What the demo accepts as a URL to check, decided before the library sees it. The
// library's canonicalizer is lenient on purpose (it follows Safe Browsing, which repairs
// what it can), so "not a url" would come out as some host and get a confident answer
// about nothing. A visitor who typed garbage must get an error instead.
//
// What people paste is rarely a bare URL: a threat report defangs it (`hxxps://evil[.]com`),
// a chat message wraps it in quotes, angle brackets or a sentence, a file path has spaces.
// When one URL can be recovered from the text it is checked, and `changes` says what was
// done to it, so the verdict can show exactly what was checked.

export type UrlInput = { ok: true; url: string; host: string; changes: string[] } | { ok: false; reason: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** Pairs that wrap a pasted URL: quotes, angle brackets, parentheses. */
const WRAPPERS: [string, string][] = [['"', '"'], ["'", "'"], ['<', '>'], ['“', '”'], ['‘', '’'], ['«', '»'], ['(', ')'], ['`', '`']];
/** Punctuation a sentence puts after a URL, never part of one a person means. */
const TRAILING = new Set('.,;:!?\'"”’»>)]');

/**
 * `text` without the sentence punctuation at its end. A loop from the end, not a `…+$`
 * pattern: that one is tried from every start position (quadratic: 40 KB of ")" took 34 s).
 */
export function withoutTrailing(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING.has(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/** Accepts http(s) URLs (scheme optional) whose host the browser's URL parser reads as is. */
export function readUrlInput(text: string): UrlInput {
  const changes: string[] = [];
  let url = text.trim();
  if (url === '') return { ok: false, reason: 'Type or paste a URL first.' };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(url)) return { ok: false, reason: 'The text contains control characters, which no URL has.' };

  const unwrapped = unwrap(url);
  if (unwrapped !== url) changes.push('removed the quotes or brackets around it');
  url = unwrapped;

  const refanged = refang(url);
  if (refanged !== url) changes.push('restored a defanged address (hxxp, [.], [:])');
  url = refanged;

  if (/\s/.test(url)) {
    const found = urlInText(url);
    if (found === null) return { ok: false, reason: 'There is no web address in this text. Paste the address from the browser’s address bar.' };
    url = found.url;
    changes.push(found.change);
  }

  const withScheme = SCHEME.test(url) && !/^[^:/]+:\d+(\/|$)/.test(url) ? url : `http://${url}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return { ok: false, reason: 'The browser cannot read this as a URL.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, reason: `Only web addresses (http and https) are on this list, not ${parsed.protocol} URLs.` };
  }
  const host = parsed.hostname;
  // The parser percent-escapes what a host may not contain: the input was not a host name.
  if (host === '' || host.includes('%')) return { ok: false, reason: 'There is no host name in it (like example.com).' };
  const isIp = /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith('[');
  if (!isIp && !/[^.]\.[^.]/.test(host) && host !== 'localhost') {
    return { ok: false, reason: `“${shortened(host)}” is not a full host name: a web address has a dot in it (like example.com).` };
  }
  return { ok: true, url, host, changes };
}

/**
 * The start of an address at the start of `text`, up to where its path begins
 * ("http://host/" of "http://host/my file.exe"), or null. Only the first 1,024 characters
 * are looked at: no host is longer, and over a longer run of dotted labels the pattern
 * backtracks quadratically (a 2 MB paste of "a.a.a." froze the page).
 */
export function addressStart(text: string): string | null {
  return /^(?:https?:\/\/)?[^\s/?#]+\.[^\s/?#]+[/?#]/i.exec(text.slice(0, 1024))?.[0] ?? null;
}

/** `text` cut to 60 characters for a message: a reason never echoes a 2 MB paste back. */
function shortened(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** Strips matching wrappers, outermost first ("<https://x>" and "'x'"), however deep. */
export function unwrap(text: string): string {
  let current = text;
  for (;;) {
    const pair = WRAPPERS.find(([open, close]) => current.length > 2 && current.startsWith(open) && current.endsWith(close));
    if (pair === undefined) return current;
    current = current.slice(pair[0].length, current.length - pair[1].length).trim();
  }
}

/** Undoes the usual defanging: hxxp(s), [.] (.) {.} [dot], [:] [://]. */
export function refang(text: string): string {
  return text
    .replace(/^h[xX*]{2}p(s?)(?=\[?:)/i, 'http$1')
    .replace(/\[:\/\/\]|\[:\]\/\//g, '://')
    .replace(/\[:\]/g, ':')
    .replace(/\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)/gi, '.');
}

/**
 * One URL out of text with whitespace in it. Text that starts with an address whose
 * first space comes after its path began is that address with spaces in its path
 * (encoded, as a browser would); otherwise the first word that looks like an address
 * (with a scheme, or a dotted host followed by a path) is taken, without trailing punctuation.
 */
function urlInText(text: string): { url: string; change: string } | null {
  const start = addressStart(text);
  if (start !== null && !/\s/.test(start)) {
    return { url: text.replace(/\s+/g, (run) => encodeURIComponent(run)), change: 'encoded the spaces in its path' };
  }
  const words = text.split(/\s+/).map((word) => withoutTrailing(unwrap(withoutTrailing(word))));
  const withScheme = words.find((word) => /^https?:\/\/\S/i.test(word));
  const hostLike = words.find((word) => /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}([/:?#]\S*)?$/i.test(word));
  const url = withScheme ?? hostLike;
  return url === undefined ? null : { url, change: 'took the address out of the surrounding text' };
}
