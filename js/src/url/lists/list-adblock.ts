// Adblock Plus / uBlock Origin / AdGuard rules: the subset that names a host
// or a URL (`||host^`, `||host/path^$all`, `|http://…|`, bare host names).
import type { ParsedLine } from './parsed-line.js';
import { entries, error, expressionForUrl, reasonOf, SKIP } from './list-entry.js';

/** `#`, `##`, `#### Section` … but not cosmetic rules like `##.ad`. */
export const HASH_COMMENT = /^#+(?:\s|$)/;
/** Element hiding / scriptlet / CSS-injection separators. */
export const COSMETIC = /#@?[?$%]?#/;
export const ADBLOCK_HEADER = /^\[(?:adblock|ublock|adguard|abp)\b[^\]]*\]$/i;
export const REGEX_RULE = /^\/.+\/(?:\$[^/]*)?$/;
// A bare pattern uBlock Origin reads as "||host^": no character a host cannot have.
const BARE_HOST = /^[^\s/?#@\\:*^|$]+$/;

/**
 * Options that only narrow *when* a blocker applies a rule (request type,
 * party) or raise its priority. A URL blocklist has no request context, so
 * the URL is listed regardless; any other option changes what is matched or
 * what happens and makes the line an error.
 */
const IGNORABLE_OPTIONS = new Set([
  'all',
  'important',
  'document',
  'doc',
  'popup',
  'third-party',
  '3p',
  'first-party',
  '1p',
  'script',
  'image',
  'stylesheet',
  'css',
  'xmlhttprequest',
  'xhr',
  'subdocument',
  'frame',
  'object',
  'media',
  'font',
  'websocket',
  'ping',
  'other',
]);

/** Option names worth recognising for auto-detection, even the rejected ones. */
const KNOWN_OPTIONS = new Set([
  ...IGNORABLE_OPTIONS,
  'domain',
  'from',
  'to',
  'denyallow',
  'redirect',
  'redirect-rule',
  'removeparam',
  'csp',
  'badfilter',
  'match-case',
  'header',
  'permissions',
  'rewrite',
  'replace',
  'elemhide',
  'ehide',
  'generichide',
  'ghide',
  'specifichide',
  'shide',
  'inline-script',
  'inline-font',
  'empty',
  'mp4',
]);

function optionName(opt: string): string {
  return opt.replace(/^~/, '').split('=')[0]!.toLowerCase();
}

/** Whether `text` (after the last `$`) is an option list, for auto-detection. */
export function looksLikeOptions(text: string): boolean {
  return text !== '' && text.split(',').every((o) => KNOWN_OPTIONS.has(optionName(o)));
}

function checkOptions(text: string): string | null {
  for (const opt of text.split(',')) {
    const name = optionName(opt);
    if (opt === '') return 'empty option in the "$" option list';
    if (opt.startsWith('~')) return `negated option "${opt}" cannot be expressed`;
    if (!IGNORABLE_OPTIONS.has(name)) {
      return `option "${opt}" changes what the rule matches and cannot be expressed`;
    }
    if (opt.includes('=')) return `option "${opt}" takes no value`;
  }
  return null;
}

/** One trimmed, non-blank Adblock line. */
export function parseAdblock(t: string): ParsedLine {
  if (t.startsWith('!') || ADBLOCK_HEADER.test(t) || HASH_COMMENT.test(t)) return SKIP;
  if (t.startsWith('@@')) return error('exception rules (@@) cannot be expressed in a blocklist');
  if (COSMETIC.test(t)) return error('cosmetic or scriptlet rule has no URL to block');
  if (REGEX_RULE.test(t)) return error('regular-expression rules cannot be expressed as host/path');
  if (/\s/.test(t)) return error('unexpected whitespace inside the filter');

  let pattern = t;
  const dollar = t.lastIndexOf('$');
  if (dollar >= 0) {
    const problem = checkOptions(t.slice(dollar + 1));
    if (problem) return error(problem);
    pattern = t.slice(0, dollar);
  }

  let rest: string;
  if (pattern.startsWith('||')) {
    rest = pattern.slice(2);
  } else if (pattern.startsWith('|')) {
    rest = pattern.slice(1);
  } else if (BARE_HOST.test(pattern)) {
    // uBlock Origin reads a bare host name as "||host^".
    rest = pattern;
  } else {
    return error('unanchored patterns match anywhere in a URL and cannot be expressed as host/path');
  }
  // End anchor, then trailing wildcards (a no-op in prefix matching), then one
  // separator: "^" at the end matches end-of-URL or any separator, which a
  // host/path prefix expression already covers.
  if (rest.endsWith('|')) rest = rest.slice(0, -1);
  rest = rest.replace(/\*+$/, '');
  if (rest.endsWith('^')) rest = rest.slice(0, -1);
  if (rest.includes('*')) return error('wildcard patterns cannot be expressed as host/path');
  if (rest.includes('^')) return error('a "^" separator inside the pattern cannot be expressed');
  if (rest.includes('|')) return error('unexpected "|" inside the pattern');
  if (rest === '') return error('empty pattern');
  try {
    return entries([expressionForUrl(rest)]);
  } catch (e) {
    return error(reasonOf(e));
  }
}
