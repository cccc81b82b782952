// "Check a URL": canonicalize, list the expressions checked, answer, time it.
// Used for the preloaded list and for a list brought by the visitor.
import { FilterError, type UrlBlocklist, type UrlCheck } from '../../js/src/index.ts';
import { describeError, formatDuration, formatInteger, formatRate, h } from './dom.ts';

export interface UrlCheckerElements {
  form: HTMLFormElement;
  input: HTMLInputElement;
  output: HTMLElement;
}

/** Wires a form to check its URL against `getList()` (null: nothing to check against yet). */
export function attachUrlChecker({ form, input, output }: UrlCheckerElements, getList: () => UrlBlocklist | null): (url?: string) => void {
  const check = (url = input.value): void => {
    input.value = url;
    const list = getList();
    if (list === null) {
      output.replaceChildren(h('p', { class: 'verdict verdict-error' }, 'The filter is not loaded yet.'));
      return;
    }
    output.replaceChildren(renderCheck(list, url));
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    check();
  });
  return check;
}

function renderCheck(list: UrlBlocklist, url: string): HTMLElement {
  if (url.trim() === '') {
    return h('div', { 'data-testid': 'check-error' }, h('p', { class: 'verdict verdict-error' }, 'Type or paste a URL first.'));
  }
  let result: UrlCheck;
  let elapsed: number;
  let runs: number;
  try {
    ({ result, elapsed, runs } = timeCheck(list, url));
  } catch (error) {
    const reason = error instanceof FilterError && error.code === 'INVALID_ARGUMENT' ? describeError(error) : `Unexpected error: ${describeError(error)}`;
    return h(
      'div',
      { 'data-testid': 'check-error', class: 'check-result' },
      h('p', { class: 'verdict verdict-error' }, 'Not a URL the checker can read.'),
      h('p', { class: 'detail' }, reason),
    );
  }
  const { canonical, expressions, match } = result;
  const matchIndex = match === null ? -1 : expressions.indexOf(match);
  const rate = list.falsePositiveRate;
  const verdict =
    match === null
      ? h(
          'div',
          { class: 'verdict verdict-clear', 'data-testid': 'check-verdict', 'data-verdict': 'clear' },
          h('strong', {}, '✓ Not on the list'),
          h('span', {}, ` — certain: none of the ${expressions.length} expressions is in the filter (filters have no false negatives).`),
        )
      : h(
          'div',
          { class: 'verdict verdict-hit', 'data-testid': 'check-verdict', 'data-verdict': 'match', 'data-match': match },
          h('strong', {}, '⚠ Possibly malicious: matched '),
          h('code', { 'data-testid': 'check-match' }, match),
          h(
            'span',
            {},
            ` — the filter wrongly matches about ${formatRate(rate)} of expressions that are not on the list ` +
              `(${matchIndex + 1} looked up here, so an unlisted URL would be flagged like this with probability ` +
              `≈ ${formatRate(1 - (1 - rate) ** (matchIndex + 1))}).`,
          ),
        );
  return h(
    'div',
    { class: 'check-result', 'data-testid': 'check-result' },
    verdict,
    h('p', { class: 'detail' }, 'Canonical URL: ', h('code', { 'data-testid': 'check-canonical' }, canonical)),
    h('p', { class: 'detail' }, `Expressions checked (host suffix × path prefix), in order:`),
    h(
      'ol',
      { class: 'expressions', 'data-testid': 'check-expressions' },
      ...expressions.map((expression, i) =>
        h(
          'li',
          { class: i === matchIndex ? 'is-match' : i > matchIndex && matchIndex >= 0 ? 'is-skipped' : 'is-absent' },
          h('code', {}, expression),
          i === matchIndex ? ' ← in the filter' : i > matchIndex && matchIndex >= 0 ? ' (not needed)' : ' ✗',
        ),
      ),
    ),
    h(
      'p',
      { class: 'detail timing', 'data-testid': 'check-time' },
      `Check took ${formatDuration(elapsed)} (canonicalize + expressions + filter lookups; mean of ${formatInteger(runs)} runs).`,
    ),
  );
}

/** One check is below the browser's timer resolution: repeat it for ~10 ms and report the mean. */
function timeCheck(list: UrlBlocklist, url: string): { result: UrlCheck; elapsed: number; runs: number } {
  const start = performance.now();
  const result = list.check(url);
  let runs = 1;
  let now = performance.now();
  while (now - start < 10 && runs < 5000) {
    list.check(url);
    runs++;
    now = performance.now();
  }
  return { result, elapsed: (now - start) / runs, runs };
}
