// How a check is shown: one verdict (headline, what to do, the facts, "How it was checked"),
// or, for several links, the worst one's verdict and a line per link, worst first. Action
// first and in plain words: `listed` says "Don't open it." right after its headline,
// `possible` what to do now and how to confirm, `clear` is green whatever the copy's age
// (the age is a note of its own). The jargon (canonical form, punycode, expressions) is
// under "How it was checked".
import { formatInteger, formatRate, h } from './dom.ts';
import type { CheckableList, DemoVerdict, ListDescription, Verdict } from './verdict-types.ts';

/** Worst first: listed, then unconfirmed, then clear (the order a person must act on them). */
export const VERDICT_RANK: Record<DemoVerdict, number> = { listed: 0, possible: 1, invalid: 2, clear: 3 };

export function worstFirst(verdicts: Verdict[]): Verdict[] {
  return verdicts.map((verdict, i) => ({ verdict, i })).sort((a, b) => VERDICT_RANK[a.verdict.verdict] - VERDICT_RANK[b.verdict.verdict] || a.i - b.i).map(({ verdict }) => verdict);
}

/** Puts the result in place and moves focus to its verdict (scrolling it into view). */
export function show(output: HTMLElement, result: HTMLElement): void {
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

export function renderInvalid(reason: string): HTMLElement {
  return h(
    'div',
    { 'data-testid': 'check-error', class: 'check-result' },
    verdictElement('invalid', 'verdict-error', h('strong', {}, 'Not a URL this page can check.'), h('p', {}, reason)),
  );
}

/** The list itself did not load: no verdict, a plain notice and a way to try again. */
export function renderUnavailable(reason: string, retry: () => void): HTMLElement {
  const button = h('button', { type: 'button', class: 'secondary', 'data-testid': 'check-retry' }, 'Try again');
  button.addEventListener('click', retry);
  return h('div', { class: 'notice', role: 'alert', 'data-testid': 'check-unavailable' }, h('p', {}, `The list could not be loaded, so nothing was checked: ${reason}`), button);
}

/** "1 lookup", "12 lookups". */
export function plural(count: number, noun: string): string {
  return `${formatInteger(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * An address for a headline: the host kept whole (it says whose site it is), breaks allowed
 * after each slash of the path and, for a path with none, anywhere in it.
 */
function addressElement(fullAddress: string, testId?: string): HTMLElement {
  // A pasted megabyte is shown by its start: every path segment is an element of its own,
  // and 100,000 of them took longer to lay out than the whole check.
  const address = fullAddress.length <= SHOWN_ADDRESS ? fullAddress
    : `${fullAddress.slice(0, SHOWN_ADDRESS)}… (${formatInteger(fullAddress.length - SHOWN_ADDRESS)} more characters)`;
  const cut = address.search(/[/?#]/);
  const host = cut < 0 ? address : address.slice(0, cut);
  const rest = cut < 0 ? '' : address.slice(cut);
  const path: (Node | string)[] = [];
  for (const part of rest.split(/(?<=\/)/)) path.push(h('wbr'), part);
  return h('code', { class: 'address', ...(testId === undefined ? {} : { 'data-testid': testId }) },
    h('span', { class: host.length <= 32 ? 'address-host' : 'address-host is-long' }, host), h('span', { class: 'address-path' }, ...path));
}

/** Characters of an address shown before the rest is summed up. */
const SHOWN_ADDRESS = 2_000;

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

export function renderVerdict(verdict: Verdict, list: CheckableList, filter: string, description: ListDescription, retry: () => void): HTMLElement {
  if (verdict.verdict === 'invalid') return renderInvalid(verdict.reason ?? 'Not a URL.');
  return h('div', { class: 'check-result', 'data-testid': 'check-result' },
    verdictBox(verdict, list, filter, description, retry),
    verdict.verdict === 'clear' && verdict.maybes.length > 0 ? renderFalsePositive(verdict, list, filter) : null,
    renderHow(verdict),
  );
}

/** The verdict itself: headline, then what to do, then the facts (host, the list's date). */
function verdictBox(verdict: Verdict, list: CheckableList, filter: string, description: ListDescription, retry: () => void): HTMLElement {
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
export function renderLinks(verdicts: Verdict[], list: CheckableList, filter: string, description: ListDescription, retry: () => void): HTMLElement {
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
    verdictBox(lead, list, filter, description, retry),
    lead.verdict === 'clear' && lead.maybes.length > 0 ? renderFalsePositive(lead, list, filter) : null,
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
      `So the page checked the list’s exact companion: the 64-bit hashes of all ${formatInteger(list.entryCount)} entries, `
      + `sorted (split by hash prefix, only the part that covers these hashes is fetched). It holds no hash of ${verdict.maybes.length > 1 ? 'any of these' : 'this one'}, so the address is not on the list: the filter’s “maybe” was wrong, and that is all a filter’s “maybe” can be.`),
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
  return `1 in ${formatInteger(Math.round(1 / probability))} (${formatRate(probability)})`;
}
