// The Public Suffix List, for the CLI only: psl (a pinned dependency of the
// package, imported by cli.js and never bundled into a browser bundle) answers
// the warnings' question and gives the whole list to guard. Browsers get the
// check only as the `isPublicSuffix` hook of UrlBlocklist's options.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { domainToASCII } from 'node:url';
import { CliError } from '../errors.js';

// psl is loaded when first asked, not when cli.js starts: parsing its list took about
// 60-90 ms of every CLI process (a third of `--version`), and only builds of URL lists ask.
const requireHere = createRequire(import.meta.url);
let psl: typeof import('psl') | null = null;
const pslModule = (): typeof import('psl') => (psl ??= requireHere('psl') as typeof import('psl'));

/**
 * Whether `host` (lower case, IDNA-encoded) is itself a public suffix, ICANN
 * (`co.jp`, `gob.cl`) or private (`now.sh`, `github.io`): a blocklist entry
 * for it lists every site under it. A name that only the list's default rule
 * ("*": any unknown top-level label) makes a suffix is not one (psl: not
 * `listed`): it is a single label, which gets its own warning.
 */
export function isPublicSuffix(host: string): boolean {
  const parsed = pslModule().parse(host);
  if ('error' in parsed) return false;
  // psl answers in Unicode for an IDNA-encoded input: compare in the input's form.
  return parsed.listed && parsed.tld !== null && domainToASCII(parsed.tld) === host;
}

let suffixes: string[] | null = null;

/**
 * Every public suffix of the Public Suffix List (ICANN and private sections),
 * IDNA-encoded: what a blocklist built by the CLI guards as never-match
 * (`co.jp`, `now.sh`; a wildcard rule `*.ck` gives `ck`, exception rules
 * `!www.ck` name registrable domains and give none). The list is the psl
 * package's own data file (a pinned dependency of the CLI only), read from
 * disk when first asked: the package exports its lookups but not the list.
 * @throws CliError when the data file cannot be found or read.
 */
export function publicSuffixes(): string[] {
  if (suffixes !== null) return suffixes;
  let rules: unknown;
  let path = '(psl not found)';
  try {
    // psl's "exports" name its entry only: its data file is found beside that entry.
    path = join(dirname(requireHere.resolve('psl')), '..', 'data', 'rules.js');
    const text = readFileSync(path, 'utf8');
    rules = JSON.parse(text.slice(text.indexOf('['), text.lastIndexOf(']') + 1));
  } catch (error) {
    throw new CliError(`cannot read the Public Suffix List (${path}): ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(rules) || rules.length < 1000 || !rules.every((rule) => typeof rule === 'string')) {
    throw new CliError(`the Public Suffix List at ${path} is not the list of rules this build reads`);
  }
  const out = new Set<string>();
  for (const rule of rules as string[]) {
    if (rule.startsWith('!')) continue;
    const suffix = domainToASCII(rule.startsWith('*.') ? rule.slice(2) : rule);
    if (suffix !== '') out.add(suffix);
  }
  suffixes = [...out];
  return suffixes;
}
