// "Check a URL": read the input, canonicalize, list the expressions checked, answer.
// Used for the preloaded list and for a list brought by the visitor. The verdict is
// focused and scrolled into view, so on a phone it is on screen after Check.
import type { UrlCheck } from 'cuckoo-bloom-wasm/reader';
import { describeError, formatRate, h } from './dom.ts';
import { readUrlInput } from './url-input.ts';

export interface UrlCheckerElements {
  form: HTMLFormElement;
  input: HTMLInputElement;
  output: HTMLElement;
}

/** Which list answered, for the verdict's wording: its name and, for a snapshot, its age. */
/** What the checker needs of a list: UrlBlocklistReader (the preloaded list) and UrlBlocklist (your own) both are. */
export interface CheckableList {
  check(url: string): UrlCheck;
  readonly falsePositiveRate: number;
}

export interface ListDescription {
  /** "URLhaus’s list of malicious URLs" */
  name: string;
  /** "copy of 25 Oct 2025, 29 days old; the source refreshes it every 12 hours", or null. */
  copy: string | null;
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
  const check = async (url = input.value): Promise<void> => {
    input.value = url;
    const token = ++generation;
    const read = readUrlInput(url);
    if (!read.ok) return show(output, renderError('Not a URL this page can check.', read.reason));
    const pending = list();
    if (pending === null) return show(output, renderError('No list to check against yet.', 'Build a filter from a list file first.'));
    if (pending instanceof Promise) output.replaceChildren(h('p', { class: 'detail', 'data-testid': 'check-waiting' }, 'Loading the list…'));
    let loaded: CheckableList;
    try {
      loaded = await pending;
    } catch (error) {
      return show(output, renderError('The list could not be loaded.', describeError(error)));
    }
    if (token !== generation) return;
    show(output, renderCheck(loaded, read.url, describe()));
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

function renderError(title: string, reason: string): HTMLElement {
  return h(
    'div',
    { 'data-testid': 'check-error', class: 'check-result' },
    h('div', { class: 'verdict verdict-error', 'data-testid': 'check-verdict', 'data-verdict': 'error' }, h('strong', {}, title), h('p', {}, reason)),
  );
}

function renderCheck(list: CheckableList, url: string, description: ListDescription): HTMLElement {
  let result: UrlCheck;
  try {
    result = list.check(url);
  } catch (error) {
    // By name and code: the reader's and the full library's FilterError are two classes here.
    const reason = error instanceof Error && error.name === 'FilterError' && (error as { code?: unknown }).code === 'INVALID_ARGUMENT' ? describeError(error) : `Unexpected error: ${describeError(error)}`;
    return renderError('Not a URL this page can check.', reason);
  }
  const { canonical, expressions, match } = result;
  const matchIndex = match === null ? -1 : expressions.indexOf(match);
  const copy = description.copy === null ? '' : ` (${description.copy})`;
  let verdict: HTMLElement;
  if (match === null) {
    verdict = h(
      'div',
      { class: 'verdict verdict-clear', 'data-testid': 'check-verdict', 'data-verdict': 'clear' },
      h('strong', {}, '✓ Not on the list'),
      h('p', {}, `This address is not on ${description.name}${copy}. A filter never misses an entry, so that is exact for this copy of the list.`),
      h('p', { class: 'caveat' }, 'It does not prove the site is safe: the list holds only what was reported, up to the day the copy was made.'),
    );
  } else {
    const rate = list.falsePositiveRate;
    const chance = 1 - (1 - rate) ** (matchIndex + 1);
    verdict = h(
      'div',
      { class: 'verdict verdict-hit', 'data-testid': 'check-verdict', 'data-verdict': 'match', 'data-match': match },
      h('strong', {}, '⚠ On the list (almost certainly): ', h('code', { 'data-testid': 'check-match' }, match)),
      h('p', {}, `This matches an entry of ${description.name}${copy}. Do not open it.`),
      h('p', { class: 'caveat' }, `A filter can match an address that is not listed: for an unlisted URL the chance of a match like this one is about ${formatOdds(chance)}.`),
    );
  }
  return h(
    'div',
    { class: 'check-result', 'data-testid': 'check-result' },
    verdict,
    h('details', { class: 'how' },
      h('summary', {}, `How it was checked (${expressions.length} lookups)`),
      h('p', { class: 'detail' }, 'Canonical URL: ', h('code', { 'data-testid': 'check-canonical' }, canonical)),
      h('p', { class: 'detail' }, 'Expressions looked up (host suffix × path prefix), in order:'),
      h(
        'ol',
        { class: 'expressions', 'data-testid': 'check-expressions' },
        ...expressions.map((expression, i) =>
          h(
            'li',
            { class: i === matchIndex ? 'is-match' : i > matchIndex && matchIndex >= 0 ? 'is-skipped' : 'is-absent' },
            h('code', {}, expression),
            i === matchIndex ? ' ← in the filter' : i > matchIndex && matchIndex >= 0 ? ' (not needed)' : ' ✗ not in the filter',
          ),
        ),
      ),
    ),
  );
}

/** 0.002 → "1 in 500 (0.2%)": odds read more plainly than a bare percentage. */
function formatOdds(probability: number): string {
  return `1 in ${Math.round(1 / probability).toLocaleString('en-US')} (${formatRate(probability)})`;
}
