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
import { readUrlInput } from './url-input.ts';

export interface UrlCheckerElements {
  form: HTMLFormElement;
  input: HTMLInputElement;
  output: HTMLElement;
}

/** What the checker needs of a list: UrlBlocklistReader (the preloaded list) and UrlBlocklist (your own) both are. */
export interface CheckableList {
  check(url: string): UrlCheck;
  readonly falsePositiveRate: number;
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

/** The verdict on `input`: a filter's maybe is confirmed against the companion first (fetched once). */
export async function verdictOf(list: CheckableList, describe: ListDescription, input: string): Promise<Verdict> {
  const invalid = (reason: string): Verdict => ({
    verdict: 'invalid', input, checked: null, changes: [], host: null, canonical: null, expressions: [], match: null, maybes: [], confirmedBy: null, reason,
  });
  const read = readUrlInput(input);
  if (!read.ok) return invalid(read.reason);
  let result: UrlCheck;
  try {
    result = list.check(read.url);
  } catch (error) {
    // By name and code: the reader's and the full library's FilterError are two classes here.
    if (error instanceof Error && error.name === 'FilterError' && (error as { code?: unknown }).code === 'INVALID_ARGUMENT') return invalid(describeError(error));
    throw error;
  }
  let reason: string | null = null;
  if (result.verdict === 'possible') {
    try {
      await ensureConfirmation(list, describe);
      result = list.check(read.url);
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
    checked: read.url,
    changes: read.changes,
    host: hostNames(read.url),
    canonical: result.canonical,
    expressions: result.expressions,
    match: result.match,
    maybes,
    confirmedBy: result.confirmedBy,
    reason,
  };
}

/**
 * Wires a form to check its URL against the list `list()` resolves to (a check typed while
 * the list still loads waits for it). Returns check(url) for example buttons.
 */
export function attachUrlChecker(
  { form, input, output }: UrlCheckerElements,
  list: () => Promise<CheckableList> | CheckableList | null,
  describe: () => ListDescription,
  onVerdict: () => void = () => {},
): (url?: string) => Promise<void> {
  let generation = 0;
  // A persistent polite live region: a verdict put into it is announced (the verdict itself is role="status").
  output.setAttribute('aria-live', 'polite');
  const check = async (url = input.value): Promise<void> => {
    input.value = url;
    const token = ++generation;
    const read = readUrlInput(url);
    if (!read.ok) return show(output, renderInvalid(read.reason));
    const pending = list();
    if (pending === null) return show(output, renderInvalid('Build a filter from a list file first: there is no list to check against yet.'));
    // The previous verdict goes at once: left in place while this one waits (the list, or the
    // companion on a first maybe), it would sit beside the new URL as if it were its answer.
    output.replaceChildren(h('p', { class: 'detail', 'data-testid': 'check-waiting' }, pending instanceof Promise ? 'Loading the list…' : 'Checking…'));
    let verdict: Verdict;
    let loaded: CheckableList;
    try {
      loaded = await pending;
      verdict = await verdictOf(loaded, describe(), url);
    } catch (error) {
      if (token === generation) show(output, renderUnavailable(describeError(error), () => void check(url)));
      return;
    }
    if (token !== generation) return;
    show(output, renderVerdict(verdict, loaded, describe(), () => void check(url)));
    onVerdict();
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void check();
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

function renderVerdict(verdict: Verdict, list: CheckableList, description: ListDescription, retry: () => void): HTMLElement {
  if (verdict.verdict === 'invalid') return renderInvalid(verdict.reason ?? 'Not a URL.');
  const filter = filterNoun(list.type);
  const copy = description.copy;
  const stale = copy !== null && copy.stale;
  const dateText = copy === null ? null : copy.date ?? 'an unknown date';
  const facts = [
    h('p', { class: 'verdict-host', 'data-testid': 'check-host', 'data-host': verdict.host?.ascii ?? '' },
      'Host ', h('code', {}, verdict.host?.unicode ?? ''), ' · punycode ', h('code', {}, verdict.host?.ascii ?? '')),
    copy === null ? null : h('p', { class: `verdict-date${stale ? ' is-stale' : ''}`, 'data-testid': 'check-date' },
      h('strong', {}, `List copy of ${dateText}`), copy.age === null ? '' : ` · ${copy.age}`,
      stale ? ` · out of date: the source refreshes it every ${copy.refresh ?? 'day or so'}` : ''),
    verdict.changes.length === 0 ? null : h('p', { class: 'caveat', 'data-testid': 'check-checked' },
      'Checked ', h('code', {}, verdict.checked ?? ''), ` (${verdict.changes.join('; ')}).`),
  ];
  let element: HTMLElement;
  if (verdict.verdict === 'listed') {
    element = verdictElement('listed', 'verdict-hit',
      h('strong', {}, '⚠ On the list: ', h('code', { 'data-testid': 'check-match' }, verdict.match ?? '')),
      ...facts,
      h('p', {}, `This address matches that entry of ${description.name}, confirmed against the exact list. Do not open it.`),
    );
    element.dataset.match = verdict.match ?? '';
  } else if (verdict.verdict === 'possible') {
    const button = h('button', { type: 'button', class: 'secondary', 'data-testid': 'check-confirm-retry' }, 'Confirm again');
    button.addEventListener('click', retry);
    element = verdictElement('possible', 'verdict-possible',
      h('strong', {}, 'Unconfirmed: the filter answered “maybe” for ', h('code', { 'data-testid': 'check-maybe' }, verdict.match ?? '')),
      ...facts,
      h('p', {}, `The exact list that would confirm it could not be loaded (${verdict.reason ?? 'unknown reason'}). ` +
        `The ${filter} says “maybe” for about ${formatOdds(list.falsePositiveRate)} addresses that are not listed, so this is no verdict either way.`),
      button,
    );
    element.dataset.match = verdict.match ?? '';
  } else {
    element = verdictElement('clear', stale ? 'verdict-clear-stale' : 'verdict-clear',
      h('strong', {}, stale ? `Not in this copy from ${dateText}` : '✓ Not on the list'),
      ...facts,
      h('p', {}, stale
        ? `No expression of this address is in ${description.name} as it was on ${dateText}; addresses reported since then are not in this copy.`
        : `No expression of this address is in ${description.name}${copy === null ? '' : ` (copy of ${dateText})`}. A filter never misses an entry of its list.`),
      h('p', { class: 'caveat' }, 'It does not prove the site is safe: the list holds only what was reported, up to the day the copy was made.'),
    );
  }
  return h('div', { class: 'check-result', 'data-testid': 'check-result' },
    element,
    verdict.verdict === 'clear' && verdict.maybes.length > 0 ? renderFalsePositive(verdict, list, filter) : null,
    renderHow(verdict),
  );
}

/** The filter's own false positive, resolved: what was tried, which one said maybe, why it is not listed. */
function renderFalsePositive(verdict: Verdict, list: CheckableList, filter: string): HTMLElement {
  const first = verdict.maybes[0]!;
  return h('div', { class: 'teaching', 'data-testid': 'check-false-positive' },
    h('strong', {}, 'A false positive, caught'),
    h('p', {},
      `Of the ${verdict.expressions.length} expressions tried, the ${filter} answered “maybe” for `,
      ...verdict.maybes.flatMap((expression, i) => [i > 0 ? ', ' : '', h('code', { 'data-testid': 'check-fp-expression' }, expression)]),
      ` (lookup ${verdict.expressions.indexOf(first) + 1}). A filter keeps only a few bits per entry, so an expression that was never added can match them by chance: `
      + `about ${formatOdds(list.falsePositiveRate)} unlisted addresses do.`),
    h('p', {},
      `So the page fetched the list’s exact companion: the 64-bit hashes of all ${formatInteger(list.entryCount)} expressions, `
      + `sorted. It holds no hash of ${verdict.maybes.length > 1 ? 'any of these' : 'this one'}, so the address is not on the list: the filter’s “maybe” was wrong, and that is all a filter’s “maybe” can be.`),
  );
}

function renderHow(verdict: Verdict): HTMLElement {
  const state = (expression: string): [string, string] => {
    if (expression === verdict.match && verdict.verdict === 'listed') return ['is-match', ' ← on the list (confirmed)'];
    if (verdict.maybes.includes(expression)) return ['is-maybe', verdict.verdict === 'possible' ? ' ← the filter: maybe (unconfirmed)' : ' ← the filter: maybe; the exact list: no'];
    return ['is-absent', ' ✗ not in the filter'];
  };
  return h('details', { class: 'how' },
    h('summary', {}, `How it was checked (${verdict.expressions.length} lookups)`),
    h('p', { class: 'detail' }, 'Canonical URL: ', h('code', { 'data-testid': 'check-canonical' }, verdict.canonical ?? '')),
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
