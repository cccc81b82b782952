// The Public Suffix List, for the CLI only: tldts (a pinned dev dependency) is
// bundled into cli.js at build time and never into a browser bundle, which
// get the check only as the `isPublicSuffix` hook of UrlBlocklist's options.
import { parse } from 'tldts';

/**
 * Whether `host` (lower case, IDNA-encoded) is itself a public suffix, ICANN
 * (`co.jp`, `gob.cl`) or private (`now.sh`, `github.io`): a blocklist entry
 * for it lists every site under it. A name that only the list's default rule
 * ("*": any unknown top-level label) makes a suffix is not one: it is a single
 * label, which gets its own warning.
 */
export function isPublicSuffix(host: string): boolean {
  const parsed = parse(host, { allowPrivateDomains: true, extractHostname: false });
  return parsed.publicSuffix === host && (parsed.isIcann === true || parsed.isPrivate === true);
}
