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
// One exception keeps what readUrlInput did for a single pasted address: text that starts
// with an address, has its first space inside the path, and holds no other link is that
// address with spaces in its path (`http://host/my file.exe`).
import { readUrlInput, TRAILING, unwrap, refang, type UrlInput } from './url-input.ts';

export type FoundLink = Extract<UrlInput, { ok: true }> & { /** The words as pasted. */ text: string };

export type FoundLinks = { ok: true; links: FoundLink[] } | { ok: false; reason: string };

const WITH_SCHEME = /^https?:\/\/\S/i;
const WWW_HOST = /^www\.[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\.?([/:?#]\S*)?$/i;
const HOST_WITH_PATH = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.([a-z]{2,}|\d{1,3})\.?(:\d+)?[/?#]\S*$/i;
const BARE_HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.([a-z]{2,}|\d{1,3})\.?(:\d+)?$/i;
/** Opening punctuation before a link in a sentence. */
const LEADING = /^["'“‘«<(\[`]+/;
/** A scheme inside a word, after its start: where a glued second link begins. */
const INNER_SCHEME = /h(?:tt|xx|\*\*)ps?(?:\[?:\]?\/\/|\[:\/\/\])/gi;

/** Every link in `text`, in the order they appear, each once; or why there is none. */
export function findLinks(text: string): FoundLinks {
  const trimmed = text.trim();
  // One word, or one address with spaces in its path: exactly what readUrlInput reads.
  if (!/\s/.test(trimmed) || isOneAddressWithSpaces(trimmed)) {
    const read = readUrlInput(trimmed);
    if (!read.ok) return read;
    return { ok: true, links: dedupe([{ ...read, text: trimmed }, ...innerLinks(trimmed)]) };
  }
  const links: FoundLink[] = [];
  for (const line of trimmed.split(/\r?\n/)) {
    const words = line.trim().split(/\s+/).filter((word) => word !== '');
    // A bare host.tld is a link only on a line of its own (a list of hosts), never a word of a sentence.
    const alone = words.length === 1;
    for (const word of words) {
      const candidate = cleanWord(word);
      if (isAddress(candidate, alone)) {
        const read = readUrlInput(candidate);
        if (read.ok) links.push({ ...read, text: word, changes: [...read.changes, ...changesFor(word, alone)] });
      }
      links.push(...innerLinks(candidate));
    }
  }
  if (links.length === 0) return { ok: false, reason: 'There is no web address in this text. Paste the address from the browser’s address bar.' };
  return { ok: true, links: dedupe(links) };
}

/** Strips what surrounds a word in a sentence (punctuation, quotes, brackets) and undoes defanging. */
function cleanWord(word: string): string {
  return refang(bareWord(word));
}

function bareWord(word: string): string {
  const unwrapped = unwrap(word.replace(TRAILING, '')).replace(TRAILING, '');
  // An opening quote or bracket whose closing one was cut off with the next word ("http://x/a b").
  return unwrapped.replace(LEADING, '');
}

/** What was done to `word` of a longer text to check it, for the verdict's "Checked … (…)". */
function changesFor(word: string, alone: boolean): string[] {
  const bare = bareWord(word);
  return [
    alone ? (bare === word ? null : 'removed the quotes or brackets around it') : 'took the address out of the surrounding text',
    refang(bare) === bare ? null : 'restored a defanged address (hxxp, [.], [:])',
  ].filter((change) => change !== null);
}

function isAddress(word: string, alone: boolean): boolean {
  return WITH_SCHEME.test(word) || WWW_HOST.test(word) || HOST_WITH_PATH.test(word) || (alone && BARE_HOST.test(word));
}

/**
 * The links glued together in one word (`https://a.example/http://b.example/`): at each
 * scheme after the word's start, the part before it and the part from it on, each a link
 * of its own (the whole word is checked too, by the caller: a redirect's own address).
 */
function innerLinks(word: string): FoundLink[] {
  const found: FoundLink[] = [];
  for (const match of word.matchAll(INNER_SCHEME)) {
    if (match.index === undefined || match.index === 0) continue;
    // Only punctuation before it ("(http://…"): the same link, not a second one.
    if (bareWord(word.slice(0, match.index)) === '') continue;
    for (const part of [word.slice(0, match.index), word.slice(match.index)]) {
      const read = readUrlInput(cleanWord(part));
      if (read.ok) found.push({ ...read, text: word, changes: [...read.changes, 'cut where a second address was glued to it'] });
    }
  }
  return found;
}

/** "http://host/my file.exe": starts with an address, first space inside its path, and no other link in the text. */
function isOneAddressWithSpaces(text: string): boolean {
  if (/\n/.test(text)) return false;
  const refanged = refang(text);
  const start = /^(?:https?:\/\/)?[^\s/?#]+\.[^\s/?#]+[/?#]/i.exec(refanged);
  if (start === null || /\s/.test(start[0])) return false;
  const rest = refanged.slice(start[0].length).split(/\s+/).slice(1).map(cleanWord);
  return !rest.some((word) => isAddress(word, false)) && innerLinks(refanged.split(/\s+/)[0]!).length === 0;
}

/** Each checked URL once, first occurrence kept. */
function dedupe(links: FoundLink[]): FoundLink[] {
  const seen = new Set<string>();
  return links.filter((link) => !seen.has(link.url) && seen.add(link.url) !== undefined);
}
