// Every link in what a person pastes: a chat message, a threat report, a list of thousands.
//
// A message can hold several links, and the dangerous one is rarely first ("Your bank:
// https://www.paypal.com/signin — or use http://down.54nb.com/login"). Reading the text as
// one URL either folded the second link into the first one's path (`…/%20http://down…`) or
// dropped it; both gave a clear verdict for a listed link. So the text is cut into words
// and every word that is an address is checked on its own.
//
// What counts as an address in running text: a word with http(s):// (defanged forms
// restored first: hxxp, [.], (.), [:]//), a `www.` host, or a dotted host followed by a
// path (`down.54nb.com/login`). A bare `host.tld` counts only on a line of its own (a list
// of hosts), so "file.exe" in a sentence is not a link. A link glued to another
// (`https://a.example/http://b.example/`) gives all three: the whole word, the part before
// the second scheme and the part from it on, so a second `http` is never hidden in a path.
//
// Words end at whitespace and at what never stands unescaped inside a URL a person means:
// control and invisible format characters (zero-width spaces, word joiners, bidi overrides
// that disguise a link), `< > " \` { } | \ ^` (HTML, markdown code, JSON, shell pipes) and CJK
// punctuation and full-width brackets (`访问 http://x/，谢谢`). Hosts may be Unicode
// (`вебтехнология.рф`) or punycode (`xn--…xn--p1ai`), as the address bar shows them.
//
// One exception keeps what readUrlInput did for a single pasted address: text that starts
// with an address, has its first space inside the path, and holds no other link is also
// read as that address with spaces in its path (`http://host/my file.exe`); its first word
// is checked as well, so prose after a listed link never hides it.
import { addressStart, readUrlInput, refang, unwrap, withoutTrailing, type UrlInput } from './url-input.ts';
import { isAscii, PATTERNS, patternFor } from './url-patterns.mjs';

export type FoundLink = Extract<UrlInput, { ok: true }> & { /** The words as pasted. */ text: string };

export type FoundLinks = { ok: true; links: FoundLink[] } | { ok: false; reason: string };

const WITH_SCHEME = /^https?:\/\/\S/i;
// The host patterns, the word separator and the glued `www.` are url-patterns.mjs's, each
// with an ASCII twin used on ASCII text (the Unicode ones cost milliseconds to compile).
/** Line breaks, Unicode's included. */
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/;
/** Opening punctuation before a link in a sentence. */
const LEADING = /^["'“‘«<(\[`]+/;
/** A scheme inside a word, after its start: where a glued second link begins. */
const INNER_SCHEME = /h(?:tt|xx|\*\*)ps?(?:\[?:\]?\/\/|\[:\/\/\])/gi;
/**
 * A percent-encoded address inside a word, up to the end of its query parameter: what a
 * redirect or a mail "safe link" carries (`?url=http%3A%2F%2Fevil.example%2Fx&data=…`), or
 * a whole address copied encoded.
 */
const ENCODED_ADDRESS = /h(?:tt|xx)ps?%3A%2F%2F[^&\s]*/gi;

/** Every link in `text`, in the order they appear, each once; or why there is none. */
export function findLinks(text: string): FoundLinks {
  const trimmed = text.trim();
  const links: FoundLink[] = [];
  // Why the first word that looked like an address was not one (said when none is found).
  let refusal: string | null = null;
  // One address with spaces in its path: exactly what readUrlInput reads, beside the words.
  if (/\s/.test(trimmed) && isOneAddressWithSpaces(trimmed)) {
    const read = readUrlInput(trimmed);
    if (read.ok) links.push({ ...read, text: trimmed });
    else refusal = read.reason;
  }
  for (const line of trimmed.split(LINE_BREAK)) {
    // `{.}` is defanging, not braces around words: kept whole for refang.
    const refangedBraces = line.replace(/\{\.\}/g, '[.]').trim();
    const words = refangedBraces.split(patternFor('separator', refangedBraces)).filter((word) => word !== '');
    // A bare host.tld is a link only on a line of its own (a list of hosts), never a word of a sentence.
    const alone = words.length === 1;
    // Alone, but with separators cut away (`<…>`, `"…"`, an invisible character).
    const cut = alone && words[0] !== refangedBraces;
    for (const word of words) {
      const candidate = cleanWord(word);
      if (isAddress(candidate, alone)) {
        const read = readUrlInput(candidate);
        if (read.ok) links.push({ ...read, text: word, changes: [...read.changes, ...changesFor(word, alone, cut)] });
        else refusal ??= read.reason;
      }
      links.push(...innerLinks(candidate));
    }
  }
  if (links.length > 0) return { ok: true, links: dedupe(links) };
  // Nothing found. One word is read as readUrlInput reads a typed address (an IPv6 host,
  // a URL of another scheme), which also says why when it is none.
  if (!/\s/.test(trimmed)) {
    const read = readUrlInput(trimmed);
    return read.ok ? { ok: true, links: [{ ...read, text: trimmed }] } : read;
  }
  return { ok: false, reason: refusal ?? 'There is no web address in this text. Paste the address from the browser’s address bar.' };
}

/** Strips what surrounds a word in a sentence (punctuation, quotes, brackets) and undoes defanging. */
function cleanWord(word: string): string {
  return refang(bareWord(word));
}

function bareWord(word: string): string {
  const unwrapped = withoutTrailing(unwrap(withoutTrailing(word)));
  // An opening quote or bracket whose closing one was cut off with the next word ("http://x/a b").
  return unwrapped.replace(LEADING, '');
}

/** What was done to `word` of a longer text to check it, for the verdict's "Checked … (…)". */
function changesFor(word: string, alone: boolean, cut: boolean): string[] {
  const bare = bareWord(word);
  return [
    alone ? (bare === word && !cut ? null : 'removed the punctuation, quotes or brackets around it') : 'took the address out of the surrounding text',
    refang(bare) === bare ? null : 'restored a defanged address (hxxp, [.], [:])',
  ].filter((change) => change !== null);
}

function isAddress(word: string, alone: boolean): boolean {
  if (WITH_SCHEME.test(word)) return true;
  const twin = isAscii(word) ? 1 : 0;
  return PATTERNS.wwwHost[twin].test(word) || PATTERNS.hostWithPath[twin].test(word) || (alone && PATTERNS.bareHost[twin].test(word));
}

/**
 * The links glued together in one word (`https://a.example/http://b.example/`): the word
 * cut at each scheme after its start, each piece a link of its own (the whole word is
 * checked too, by the caller: a redirect's own address). Pieces, not "before" and "from it
 * on" at each scheme: a word of n glued links is read in one pass, not n passes over it.
 */
function innerLinks(word: string): FoundLink[] {
  return [...gluedLinks(word), ...encodedLinks(word)];
}

/** The pieces of a word cut at each scheme or `www.` after its start (innerLinks). */
function gluedLinks(word: string): FoundLink[] {
  const cuts = [...word.matchAll(INNER_SCHEME), ...word.matchAll(patternFor('innerWww', word))]
    .map((match) => match.index ?? 0)
    .filter((at) => at > 0)
    .sort((a, b) => a - b);
  // Only punctuation before the first ("(http://…"): the same link, not a second one. (Any
  // later one has a scheme before it.)
  if (cuts.length > 0 && bareWord(word.slice(0, cuts[0])) === '') cuts.shift();
  if (cuts.length === 0) return [];
  const found: FoundLink[] = [];
  const starts = [0, ...cuts];
  for (const [i, start] of starts.entries()) {
    const read = readUrlInput(cleanWord(word.slice(start, starts[i + 1] ?? word.length)));
    if (read.ok) found.push({ ...read, text: word, changes: [...read.changes, 'cut where a second address was glued to it'] });
  }
  return found;
}

/** Addresses carried percent-encoded inside a word (a redirect's parameter), decoded. */
function encodedLinks(word: string): FoundLink[] {
  const found: FoundLink[] = [];
  for (const match of word.matchAll(ENCODED_ADDRESS)) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(match[0]);
    } catch {
      continue; // A broken escape: not an address anyone can follow.
    }
    const read = readUrlInput(cleanWord(decoded));
    if (read.ok) found.push({ ...read, text: word, changes: [...read.changes, 'decoded the address carried inside it (a redirect or safe link)'] });
  }
  return found;
}

/** "http://host/my file.exe": starts with an address, first space inside its path, and no other link in the text. */
function isOneAddressWithSpaces(text: string): boolean {
  if (/\n/.test(text)) return false;
  const refanged = refang(text);
  const start = addressStart(refanged);
  if (start === null || /\s/.test(start)) return false;
  const rest = refanged.slice(start.length).split(/\s+/).slice(1).map(cleanWord);
  return !rest.some((word) => isAddress(word, false)) && innerLinks(refanged.split(/\s+/)[0]!).length === 0;
}

/** Each checked URL once, first occurrence kept. */
function dedupe(links: FoundLink[]): FoundLink[] {
  const seen = new Set<string>();
  return links.filter((link) => !seen.has(link.url) && seen.add(link.url) !== undefined);
}
