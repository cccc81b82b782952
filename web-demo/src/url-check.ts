// "Check a URL": read the input, canonicalize, list the expressions checked, answer.
// Used for the preloaded list and for a list brought by the visitor.
//
// The verdict never cries wolf: a filter's "maybe" is not "on the list". A maybe is
// confirmed against the list's exact companion, and only an expression it holds is
// `listed`; one it does not hold is the filter's false positive, `clear`, shown on the
// spot as a teaching moment. The preloaded list's companion is split by hash prefix (the
// CLI's `<filter>.confirm.index` and `<filter>.confirm.parts/NNNN`): a maybe fetches only
// the part its hashes fall in (a few KB, kept by the list), not the whole companion. A
// list built in the page makes its own whole companion. Without the part (offline,
// blocked) the answer stays `possible`, never `clear` and never worded as "on the list".
//
// Every link in the text is checked (url-find.ts); verdict-view.ts shows them. The verdict
// element (`data-verdict`, `role="status"`) is focused and scrolled into view, so on a
// phone it is on screen after Check.
import type { UrlCheck } from 'cuckoo-bloom-wasm/reader';
import { describeError, h } from './dom.ts';
import { hostNames } from './host-name.ts';
import { findLinks, type FoundLink } from './url-find.ts';
import { readUrlInput } from './url-input.ts';
import type { CheckableList, ListDescription, Verdict } from './verdict-types.ts';
import { renderInvalid, renderLinks, renderUnavailable, renderVerdict, show } from './verdict-view.ts';

export interface UrlCheckerElements {
  form: HTMLFormElement;
  input: HTMLInputElement | HTMLTextAreaElement;
  output: HTMLElement;
}

// One companion set-up per list (the parts' index, or a list's own whole companion); a
// failed one is forgotten, so a retry tries again. The parts themselves are fetched by
// list.confirm, each once, and kept by the list; a failed part is fetched again next time.
const confirming = new WeakMap<CheckableList, Promise<void>>();

function ensureConfirmation(list: CheckableList, describe: ListDescription): Promise<void> {
  let pending = confirming.get(list);
  if (pending === undefined) {
    pending = (async () => {
      const parts = describe.companionParts;
      if (parts !== undefined) list.attachConfirmationParts(await parts.index(), (_, name) => parts.part(name));
      else if (typeof list.confirmation === 'function') list.attachConfirmation(list.confirmation());
      else throw new Error('this list has no exact companion');
    })();
    pending.catch(() => confirming.delete(list));
    confirming.set(list, pending);
  }
  return pending;
}

/** The verdict on `input` (one address): a filter's maybe is confirmed against the companion first (its part fetched once). */
export async function verdictOf(list: CheckableList, describe: ListDescription, input: string): Promise<Verdict> {
  const read = readUrlInput(input);
  if (!read.ok) return invalidVerdict(input, read.reason);
  return verdictOfLink(list, describe, { ...read, text: input });
}

/** A verdict for every link in `text` (findLinks), in the order pasted; one `invalid` when it holds none. */
export async function verdictsOfText(list: CheckableList, describe: ListDescription, text: string): Promise<Verdict[]> {
  const found = findLinks(text);
  if (!found.ok) return [invalidVerdict(text, found.reason)];
  return verdictsOfLinks(list, describe, found.links);
}

/** Texts longer than this are read after "Checking…" is painted (url-check's check()). */
const LONG_PASTE = 20_000;
/** Links checked between two paints in a bulk paste. */
const LINKS_PER_TASK = 2_000;

/** A verdict for each of `links`, in order; a bulk paste lets the page paint between batches. */
export async function verdictsOfLinks(list: CheckableList, describe: ListDescription, links: FoundLink[]): Promise<Verdict[]> {
  const out: Verdict[] = [];
  // Why the companion could not confirm an earlier link of this paste (a stalled network
  // waits the fetch timeout): later maybes stay `possible` for the same reason at once,
  // instead of waiting again, one link after the other.
  let unavailable: string | null = null;
  for (const [i, link] of links.entries()) {
    if (i > 0 && i % LINKS_PER_TASK === 0) await nextTask();
    const verdict = await verdictOfLink(list, describe, link, unavailable);
    if (verdict.verdict === 'possible' && verdict.reason !== null) unavailable ??= verdict.reason;
    out.push(verdict);
  }
  return out;
}

/** Resolves in a task of its own, after the browser had the chance to paint. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function invalidVerdict(input: string, reason: string): Verdict {
  return { verdict: 'invalid', input, checked: null, changes: [], host: null, canonical: null, expressions: [], match: null, maybes: [], confirmedBy: null, reason, urlRate: null };
}

async function verdictOfLink(list: CheckableList, describe: ListDescription, link: FoundLink, unavailable: string | null = null): Promise<Verdict> {
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
  if (result.verdict === 'possible' && unavailable !== null) reason = unavailable;
  else if (result.verdict === 'possible') {
    try {
      await ensureConfirmation(list, describe);
      result = await list.confirm(link.url);
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
    // Set only when it differs: a text area re-laid out with a 2 MB paste costs seconds.
    if (input.value !== text) input.value = text;
    const token = ++generation;
    // A retry button pressed from the keyboard sits in the output this check replaces: focus
    // then stays in the output (its new button, or the output itself), never on <body>.
    const focusInOutput = output.contains(document.activeElement);
    const keepFocus = (): void => {
      if (!focusInOutput || (document.activeElement !== null && document.activeElement !== document.body)) return;
      const target = output.querySelector<HTMLElement>('button') ?? output;
      if (target === output) output.tabIndex = -1;
      target.focus({ preventScroll: true });
    };
    if (text.length > LONG_PASTE) {
      // A bulk paste (thousands of lines, up to megabytes): "Checking…" is painted before the
      // text is read, so the page answers at once and never looks frozen.
      output.replaceChildren(h('p', { class: 'detail', 'data-testid': 'check-waiting' }, 'Checking…'));
      await nextTask();
      if (token !== generation) return;
    }
    const found = findLinks(text);
    if (token !== generation) return;
    if (!found.ok) return show(output, renderInvalid(found.reason));
    const pending = list();
    if (pending === null) return show(output, renderInvalid('Build a filter from a list file first: there is no list to check against yet.'));
    // The previous verdict goes at once: left in place while this one waits (the list, or the
    // companion's part on a maybe), it would sit beside the new URL as if it were its answer.
    output.replaceChildren(h('p', { class: 'detail', 'data-testid': 'check-waiting' }, pending instanceof Promise ? 'Loading the list…' : 'Checking…'));
    keepFocus();
    let verdicts: Verdict[];
    let loaded: CheckableList;
    try {
      loaded = await pending;
      verdicts = await verdictsOfLinks(loaded, describe(), found.links);
    } catch (error) {
      if (token === generation) {
        show(output, renderUnavailable(describeError(error), () => void check(text)));
        keepFocus();
      }
      return;
    }
    if (token !== generation) return;
    const retry = (): void => void check(text);
    const filter = filterNoun(loaded.type);
    show(output, verdicts.length === 1 ? renderVerdict(verdicts[0]!, loaded, filter, describe(), retry) : renderLinks(verdicts, loaded, filter, describe(), retry));
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

/** "binary-fuse" → "binary fuse filter", "bloom" → "Bloom filter": the type the bytes say, not a guess. */
export function filterNoun(type: string): string {
  return `${type.split('-').map((word) => (word === 'bloom' ? 'Bloom' : word)).join(' ')} filter`;
}
