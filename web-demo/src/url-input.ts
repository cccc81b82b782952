// What the demo accepts as a URL to check, decided before the library sees it. The
// library's canonicalizer is lenient on purpose (it follows Safe Browsing, which repairs
// what it can), so "not a url" would come out as some host and get a confident answer
// about nothing. A visitor who typed garbage must get an error instead.

export type UrlInput = { ok: true; url: string } | { ok: false; reason: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Accepts http(s) URLs (scheme optional) whose host the browser's URL parser reads as is. */
export function readUrlInput(text: string): UrlInput {
  const url = text.trim();
  if (url === '') return { ok: false, reason: 'Type or paste a URL first.' };
  if (/\s/.test(url)) return { ok: false, reason: 'A URL has no spaces in it. Paste the address from the browser’s address bar.' };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(url)) return { ok: false, reason: 'The text contains control characters, which no URL has.' };
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
  if (!isIp && !host.includes('.') && host !== 'localhost') {
    return { ok: false, reason: `“${host}” is not a full host name: a web address has a dot in it (like example.com).` };
  }
  return { ok: true, url };
}
