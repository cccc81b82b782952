// "Check a URL": read the input, canonicalize, list the expressions checked, answer.
// Used for the preloaded list and for a list brought by the visitor.
//
// The verdict never cries wolf: a filter's "maybe" is not "on the list". On the first
// maybe the list's exact companion (the CLI's `<filter>.confirm`, type 33) is fetched once
// and attached, and only an expression it holds is `listed`; one it does not hold is the
// filter's false positive, `clear`, shown on the spot as a teaching moment. Without the
// companion (offline, blocked) the answer stays `possible`, never worded as "on the list".
//
// The verdict element (`data-verdict`, `role="status"`) repeats the checked host in both
// spellings and the list's date, and is focused and scrolled into view, so on a phone it
// is on screen after Check.
import type { UrlCheck, UrlVerdict } from 'cuckoo-bloom-wasm/reader';
import { describeError, formatInteger, formatRate, h } from './dom.ts';
import { hostNames, type HostNames } from './host-name.ts';
import type { ListAge } from './manifest.ts';
import { findLinks, type FoundLink } from './url-find.ts';
import { readUrlInput } from './url-input.ts';

export interface UrlCheckerElements {
  form: HTMLFormElement;
  input: HTMLInputElement | HTMLTextAreaElement;
  output: HTMLElement;
}

/** What the checker needs of a list: UrlBlocklistReader (the preloaded list) and UrlBlocklist (your own) both are. */
export interface CheckableList {
  check(url: string): UrlCheck;
  readonly falsePositiveRate: number;
  /** The filter's rate per lookup (one expression): a URL's odds follow from its own count of lookups. */
  readonly lookupFalsePositiveRate: number;
  readonly entryCount: number;
  /** The filter type, as the bytes say ('binary-fuse', 'bloom', ...). */
  readonly type: string;
  readonly filter: { has(expression: string): boolean };
  readonly hasConfirmation: boolean;
  attachConfirmation(bytes: Uint8Array): void;
  /** A list built in the page makes its own companion (UrlBlocklist); one read from bytes cannot. */
  confirmation?(): Uint8Array;
}

/** Which list answered, for the verdict's wording. */
export interface ListDescription {
  /** "URLhaus’s list of malicious URLs" */
  name: string;
  /** A snapshot's date and age (null for a list built in this page just now). */
  copy: (ListAge & { refresh: string | null }) | null;
  /** Fetches the list's exact companion; absent when the list makes its own (`confirmation()`). */
  companion?: () => Promise<Uint8Array>;
}

/** The demo's verdicts: the library's three, and `invalid` for input that is not a URL. */
export type DemoVerdict = UrlVerdict | 'invalid';

/** One check, as shown: plain data, also what `window.demo.verdict()` returns. */
export interface Verdict {
  verdict: DemoVerdict;
  /** What the visitor typed. */
  input: string;
  /** The URL actually checked (recovered from pasted or defanged text), or null (`invalid`). */
  checked: string | null;
  /** What was done to the input to recover it ("encoded the spaces in its path"). */
  changes: string[];
  host: HostNames | null;
  canonical: string | null;
  expressions: string[];
  /** The confirmed entry (`listed`) or the filter's first maybe (`possible`); null otherwise. */
  match: string | null;
  /** Every expression the filter answered "maybe" for (a `clear` with some is a false positive caught). */
  maybes: string[];
  confirmedBy: 'exact-set' | null;
  /** Why the companion could not confirm a `possible`; why the input is `invalid`. */
  reason: string | null;
  /** The chance an unlisted URL with this many lookups gets a "maybe" (the list's per-lookup rate); null for `invalid`. */
  urlRate: number | null;
}

// One companion load per list; a failed load is forgotten, so a retry fetches again.
const confirming = new WeakMap<CheckableList, Promise<void>>();

function ensureConfirmation(list: CheckableList, describe: ListDescription): Promise<void> {
  let pending = confirming.get(list);
  if (pending === undefined) {
    pending = (async () => {
      if (describe.companion !== undefined) list.attachConfirmation(await describe.companion());
      else if (typeof list.confirmation === 'function') list.attachConfirmation(list.confirmation());
      else throw new Error('this list has no exact companion');
    })();
    pending.catch(() => confirming.delete(list));
    confirming.set(list, pending);
  }
  return pending;
}

/** The verdict on `input` (one address): a filter's maybe is confirmed against the companion first (fetched once). */
export async function verdictOf(list: CheckableList, describe: ListDescription, input: string): Promise<Verdict> {
  const read = readUrlInput(input);
  if (!read.ok) return invalidVerdict(input, read.reason);
  return verdictOfLink(list, describe, { ...read, text: input });
}

/** A verdict for every link in `text` (findLinks), in the order pasted; one `invalid` when it holds none. */
export async function verdictsOfText(list: CheckableList, describe: ListDescription, text: string): Promise<Verdict[]> {
  const found = findLinks(text);
  if (!found.ok) return [invalidVerdict(text, found.reason)];
  const out: Verdict[] = [];
  for (const link of found.links) out.push(await verdictOfLink(list, describe, link));
  return out;
}

/** Worst first: listed, then unconfirmed, then clear (the order a person must act on them). */
export const VERDICT_RANK: Record<DemoVerdict, number> = { listed: 0, possible: 1, invalid: 2, clear: 3 };

export function worstFirst(verdicts: Verdict[]): Verdict[] {
  return verdicts.map((verdict, i) => ({ verdict, i })).sort((a, b) => VERDICT_RANK[a.verdict.verdict] - VERDICT_RANK[b.verdict.verdict] || a.i - b.i).map(({ verdict }) => verdict);
}

function invalidVerdict(input: string, reason: string): Verdict {
  return { verdict: 'invalid', input, checked: null, changes: [], host: null, canonical: null, expressions: [], match: null, maybes: [], confirmedBy: null, reason, urlRate: null };
}

async function verdictOfLink(list: CheckableList, describe: ListDescription, link: FoundLink): Promise<Verdict> {
  const input = link.text;
  let result: UrlCheck;
  try {
    result = list.check(link.url);
  } catch (error) {
    // By name and code: the reader's and the full library's FilterError are two classes here.
    if (error instanceof Error && error.name === 'FilterError' && (error as { code?: unknown }).code === 'INVALID_ARGUMENT') return invalidVerdict(input, describeError(error));
    throw error;
  }
  let reason: string | null = null;
  if (result.verdict === 'possible') {
    try {
      await ensureConfirmation(list, describe);
      result = list.check(link.url);
    } catch (error) {
      reason = describeError(error);
    }
  }
  // The expressions the filter reported, up to the one behind the verdict: check() confirms them
  // in order and stops at the first confirmed, so later ones were never asked about.
  const asked = result.match === null ? result.expressions : result.expressions.slice(0, result.expressions.indexOf(result.match) + 1);
  const maybes = result.verdict === 'possible' || result.confirmedBy !== null ? asked.filter((expression) => list.filter.has(expression)) : [];
  return {
    verdict: result.verdict,
    input,
    checked: link.url,
    changes: link.changes,
    host: hostNames(link.url),
    canonical: result.canonical,
    expressions: result.expressions,
    match: result.match,
    maybes,
    confirmedBy: result.confirmedBy,
    reason,
    urlRate: urlRateForLookups(list.lookupFalsePositiveRate, result.expressions.length),
  };
}

/**
 * The chance that an unlisted URL making `lookups` lookups gets a "maybe": 1 - (1 - p)^n
 * for the filter's per-lookup rate p (url-rate.ts urlRateOf, for this URL's own count of
 * lookups instead of the list's worst case). The library's urlRateOf takes a depth, not a
 * count, and is not exported: this belongs in the package (see the branch's report).
 */
export function urlRateForLookups(lookupRate: number, lookups: number): number {
  return -Math.expm1(Math.max(1, lookups) * Math.log1p(-lookupRate));
}

/**
 * Wires a form to check every link in its text against the list `list()` resolves to (a
 * check typed while the list still loads waits for it). Returns check(text) for example buttons.
 */
export function attachUrlChecker(
  { form, input, output }: UrlCheckerElements,
  list: () => Promise<CheckableList> | CheckableList | null,
  describe: () => ListDescription,
  onVerdict: () => void = () => {},
): (text?: string) => Promise<void> {
  let generation = 0;
  // A persistent polite live region: a verdict put into it is announced (the verdict itself is role="status").
  output.setAttribute('aria-live', 'polite');
  const check = async (text = input.value): Promise<void> => {
    input.value = text;
    const token = ++generation;
    const found = findLinks(text);
    if (!found.ok) return show(output, renderInvalid(found.reason));
    const pending = list();
    if (pending === null) return show(output, renderInvalid('Build a filter from a list file first: there is no list to check against yet.'));
    // The previous verdict goes at once: left in place while this one waits (the list, or the
    // companion on a first maybe), it would sit beside the new URL as if it were its answer.
    output.replaceChildren(h('p', { class: 'detail', 'data-testid': 'check-waiting' }, pending instanceof Promise ? 'Loading the list…' : 'Checking…'));
    let verdicts: Verdict[];
    let loaded: CheckableList;
    try {
      loaded = await pending;
      verdicts = await verdictsOfText(loaded, describe(), text);
    } catch (error) {
      if (token === generation) show(output, renderUnavailable(describeError(error), () => void check(text)));
      return;
    }
    if (token !== generation) return;
    const retry = (): void => void check(text);
    show(output, verdicts.length === 1 ? renderVerdict(verdicts[0]!, loaded, describe(), retry) : renderLinks(verdicts, loaded, describe(), retry));
    onVerdict();
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void check();
  });
  // A text area (a pasted message or list keeps its lines): Enter checks, Shift+Enter starts a line.
  input.addEventListener('keydown', (event) => {
    if (!(event instanceof KeyboardEvent) || event.key !== 'Enter' || event.shiftKey || event.isComposing || input.tagName !== 'TEXTAREA') return;
    event.preventDefault();
    form.requestSubmit();
  });
  return check;
}

/** Puts the result in place and moves focus to its verdict (scrolling it into view). */
function show(output: HTMLElement, result: HTMLElement): void {
  output.replaceChildren(result);
  const verdict = result.querySelector<HTMLElement>('.verdict');
  if (verdict === null) return;
  verdict.tabIndex = -1;
  verdict.focus({ preventScroll: true });
  // 'nearest' keeps the input in view when both fit; on a phone the verdict comes first.
  verdict.scrollIntoView({ block: 'nearest' });
}

function verdictElement(kind: DemoVerdict, className: string, ...children: (Node | string | null)[]): HTMLElement {
  return h('div', { class: `verdict ${className}`, role: 'status', 'data-testid': 'check-verdict', 'data-verdict': kind }, ...children);
}

function renderInvalid(reason: string): HTMLElement {
  return h(
    'div',
    { 'data-testid': 'check-error', class: 'check-result' },
    verdictElement('invalid', 'verdict-error', h('strong', {}, 'Not a URL this page can check.'), h('p', {}, reason)),
  );
}

/** The list itself did not load: no verdict, a plain notice and a way to try again. */
function renderUnavailable(reason: string, retry: () => void): HTMLElement {
  const button = h('button', { type: 'button', class: 'secondary', 'data-testid': 'check-retry' }, 'Try again');
  button.addEventListener('click', retry);
  return h('div', { class: 'notice', role: 'alert', 'data-testid': 'check-unavailable' }, h('p', {}, `The list could not be loaded, so nothing was checked: ${reason}`), button);
}

/** "binary-fuse" → "binary fuse filter", "bloom" → "Bloom filter": the type the bytes say, not a guess. */
export function filterNoun(type: string): string {
  return `${type.split('-').map((word) => (word === 'bloom' ? 'Bloom' : word)).join(' ')} filter`;
}

/** "1 lookup", "12 lookups". */
export function plural(count: number, noun: string): string {
  return `${formatInteger(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * An address for a headline: the host kept whole (it says whose site it is), breaks allowed
 * after each slash of the path and, for a path with none, anywhere in it.
 */
function addressElement(address: string, testId?: string): HTMLElement {
  const cut = address.search(/[/?#]/);
  const host = cut < 0 ? address : address.slice(0, cut);
  const rest = cut < 0 ? '' : address.slice(cut);
  const path: (Node | string)[] = [];
  for (const part of rest.split(/(?<=\/)/)) path.push(h('wbr'), part);
  return h('code', { class: 'address', ...(testId === undefined ? {} : { 'data-testid': testId }) },
    h('span', { class: host.length <= 32 ? 'address-host' : 'address-host is-long' }, host), h('span', { class: 'address-path' }, ...path));
}

/** The list copy's date and age, a note of its own (not the verdict's colour). */
function ageNote(description: ListDescription): HTMLElement | null {
  const copy = description.copy;
  if (copy === null) return null;
  const dateText = copy.date ?? 'an unknown date';
  return h('p', { class: `verdict-date${copy.stale ? ' is-stale' : ''}`, 'data-testid': 'check-date' },
    h('strong', {}, `List copy of ${dateText}`), copy.age === null ? '' : ` · ${copy.age}`,
    copy.stale ? ` · out of date: the source refreshes it every ${copy.refresh ?? 'day or so'}, so an address reported since then is not in this copy` : '');
}

function hostLine(verdict: Verdict): HTMLElement {
  const host = verdict.host;
  const differs = host !== null && host.unicode !== host.ascii;
  // Punycode only when it is not the same text: then it tells a look-alike host apart.
  return h('p', { class: 'verdict-host', 'data-testid': 'check-host', 'data-host': host?.ascii ?? '' },
    'Host ', h('code', {}, host?.unicode ?? ''), ...(differs ? [' · punycode ', h('code', {}, host.ascii)] : []));
}

function renderVerdict(verdict: Verdict, list: CheckableList, description: ListDescription, retry: () => void): HTMLElement {
  if (verdict.verdict === 'invalid') return renderInvalid(verdict.reason ?? 'Not a URL.');
  return h('div', { class: 'check-result', 'data-testid': 'check-result' },
    verdictBox(verdict, list, description, retry),
    verdict.verdict === 'clear' && verdict.maybes.length > 0 ? renderFalsePositive(verdict, list, filterNoun(list.type)) : null,
    renderHow(verdict),
  );
}

/** The verdict itself: headline, then what to do, then the facts (host, the list's date). */
function verdictBox(verdict: Verdict, list: CheckableList, description: ListDescription, retry: () => void): HTMLElement {
  const filter = filterNoun(list.type);
  const checked = verdict.changes.length === 0 ? null : h('p', { class: 'caveat', 'data-testid': 'check-checked' },
    'Checked ', h('code', {}, verdict.checked ?? ''), ` (${verdict.changes.join('; ')}).`);
  let element: HTMLElement;
  if (verdict.verdict === 'listed') {
    element = verdictElement('listed', 'verdict-hit',
      h('strong', { class: 'verdict-headline' }, '⚠ On the list: ', addressElement(verdict.match ?? '', 'check-match')),
      h('p', { class: 'verdict-action', 'data-testid': 'check-action' },
        h('strong', {}, 'Don’t open it.'), ` This address is in ${description.name} (confirmed against the exact list): it was reported for spreading malware.`),
      hostLine(verdict), ageNote(description), checked,
    );
    element.dataset.match = verdict.match ?? '';
  } else if (verdict.verdict === 'possible') {
    const button = h('button', { type: 'button', class: 'secondary', 'data-testid': 'check-confirm-retry' }, 'Confirm again');
    button.addEventListener('click', retry);
    element = verdictElement('possible', 'verdict-possible',
      h('strong', { class: 'verdict-headline' }, 'Not confirmed yet: the filter says “maybe” for ', addressElement(verdict.match ?? '', 'check-maybe')),
      h('p', { class: 'verdict-action', 'data-testid': 'check-action' },
        h('strong', {}, 'Don’t open it for now.'), ' To confirm, press “Confirm again” once you are online: the page fetches the exact list and says whether it is on it.'),
      h('p', {}, `The exact list could not be loaded (${verdict.reason ?? 'unknown reason'}). ` +
        `For this address’s ${plural(verdict.expressions.length, 'lookup')}, the ${filter} says “maybe” for about ${formatOdds(verdict.urlRate ?? list.falsePositiveRate)} addresses that are not listed, so most likely it is not listed, but only the exact list can tell.`),
      button, hostLine(verdict), ageNote(description), checked,
    );
    element.dataset.match = verdict.match ?? '';
  } else {
    element = verdictElement('clear', 'verdict-clear',
      h('strong', { class: 'verdict-headline' }, '✓ Not on the list'),
      h('p', { class: 'verdict-action', 'data-testid': 'check-action' }, `This address is not in ${description.name}. A filter never misses an entry of its list.`),
      hostLine(verdict), ageNote(description), checked,
      h('p', { class: 'caveat' }, 'It does not prove the site is safe: the list holds only what was reported, up to the day the copy was made.'),
    );
  }
  return element;
}

/** How many clear links a long paste lists by name; the rest are counted. Listed and unconfirmed ones are always all shown. */
export const CLEAR_SHOWN = 20;

/**
 * Several links: the worst one's full verdict first, then a line per link, worst first.
 * A long list (thousands of lines) is summarized: every listed and unconfirmed link by
 * name, the clear ones up to CLEAR_SHOWN, never the pasted text echoed back.
 */
function renderLinks(verdicts: Verdict[], list: CheckableList, description: ListDescription, retry: () => void): HTMLElement {
  const sorted = worstFirst(verdicts);
  const lead = sorted[0]!;
  const count = (kind: DemoVerdict): number => verdicts.filter((verdict) => verdict.verdict === kind).length;
  const counts = [
    [count('listed'), 'on the list'], [count('possible'), 'not confirmed yet'], [count('clear'), 'not on the list'], [count('invalid'), 'not checkable'],
  ].filter(([n]) => n !== 0).map(([n, words]) => `${formatInteger(n as number)} ${words}`);
  const shownClear = new Set(sorted.filter((verdict) => verdict.verdict === 'clear').slice(0, CLEAR_SHOWN));
  const shown = sorted.filter((verdict) => verdict.verdict !== 'clear' || shownClear.has(verdict));
  const hidden = verdicts.length - shown.length;
  const words: Record<DemoVerdict, string> = { listed: 'On the list: don’t open it', possible: 'Not confirmed yet: don’t open it for now', clear: 'Not on the list', invalid: 'Not checkable' };
  return h('div', { class: 'check-result', 'data-testid': 'check-result' },
    h('p', { class: 'links-summary', 'data-testid': 'check-summary' }, `${plural(verdicts.length, 'link')} found: ${counts.join(', ')}. The worst comes first.`),
    verdictBox(lead, list, description, retry),
    lead.verdict === 'clear' && lead.maybes.length > 0 ? renderFalsePositive(lead, list, filterNoun(list.type)) : null,
    renderHow(lead),
    h('h3', { class: 'links-title', id: 'check-links-title' }, 'Every link'),
    h('ol', { class: 'links', 'aria-labelledby': 'check-links-title', 'data-testid': 'check-links' },
      ...shown.map((verdict) => h('li', {
        class: `link link-${verdict.verdict}`, 'data-testid': 'check-link', 'data-verdict': verdict.verdict, 'data-url': verdict.checked ?? verdict.input, 'data-match': verdict.match ?? '',
      }, h('span', { class: 'link-verdict' }, words[verdict.verdict]), ' ', addressElement(verdict.checked ?? verdict.input),
      verdict.verdict === 'listed' ? h('span', { class: 'link-entry' }, ' (entry ', h('code', {}, verdict.match ?? ''), ')') : null)),
    ),
    hidden === 0 ? null : h('p', { class: 'detail', 'data-testid': 'check-links-hidden' }, `…and ${plural(hidden, 'more link')} not on the list, not shown one by one.`),
  );
}

/** The filter's own false positive, resolved: what was tried, which one said maybe, why it is not listed. */
function renderFalsePositive(verdict: Verdict, list: CheckableList, filter: string): HTMLElement {
  const first = verdict.maybes[0]!;
  return h('div', { class: 'teaching', 'data-testid': 'check-false-positive' },
    h('strong', {}, 'A false positive, caught'),
    h('p', {},
      `Of the ${plural(verdict.expressions.length, 'part')} of this address looked up, the ${filter} answered “maybe” for `,
      ...verdict.maybes.flatMap((expression, i) => [i > 0 ? ', ' : '', h('code', { 'data-testid': 'check-fp-expression' }, expression)]),
      ` (lookup ${verdict.expressions.indexOf(first) + 1}). A filter keeps only a few bits per entry, so a part that was never added can match them by chance: `
      + `for an address with this many lookups, about ${formatOdds(verdict.urlRate ?? list.falsePositiveRate)} unlisted addresses do.`),
    h('p', {},
      `So the page fetched the list’s exact companion: the 64-bit hashes of all ${formatInteger(list.entryCount)} entries, `
      + `sorted. It holds no hash of ${verdict.maybes.length > 1 ? 'any of these' : 'this one'}, so the address is not on the list: the filter’s “maybe” was wrong, and that is all a filter’s “maybe” can be.`),
  );
}

/** The jargon, for whoever wants it: canonical form, punycode, and every expression looked up. */
function renderHow(verdict: Verdict): HTMLElement {
  const state = (expression: string): [string, string] => {
    if (expression === verdict.match && verdict.verdict === 'listed') return ['is-match', ' ← on the list (confirmed)'];
    if (verdict.maybes.includes(expression)) return ['is-maybe', verdict.verdict === 'possible' ? ' ← the filter: maybe (unconfirmed)' : ' ← the filter: maybe; the exact list: no'];
    return ['is-absent', ' ✗ not in the filter'];
  };
  return h('details', { class: 'how', 'data-testid': 'check-how' },
    h('summary', {}, `How it was checked (${plural(verdict.expressions.length, 'lookup')})`),
    h('p', { class: 'detail' }, 'Canonical URL: ', h('code', { 'data-testid': 'check-canonical' }, verdict.canonical ?? '')),
    h('p', { class: 'detail' }, 'Host in punycode (what the list holds): ', h('code', { 'data-testid': 'check-punycode' }, verdict.host?.ascii ?? '')),
    h('p', { class: 'detail' }, 'Expressions looked up (host suffix × path prefix), in order; a “maybe” is confirmed against the exact list:'),
    h('ol', { class: 'expressions', 'data-testid': 'check-expressions' },
      ...verdict.expressions.map((expression) => {
        const [className, note] = state(expression);
        return h('li', { class: className }, h('code', {}, expression), note);
      }),
    ),
  );
}

/** 0.002 → "1 in 500 (0.2%)": odds read more plainly than a bare percentage. */
function formatOdds(probability: number): string {
  return `1 in ${Math.round(1 / probability).toLocaleString('en-US')} (${formatRate(probability)})`;
}
