/**
 * `query`'s exact answers, from an index log (build --exact):
 *
 * - `query <log> [key...]`: the index alone. `present` means the key is in
 *   the log, `absent` that it is not: no false positives.
 * - `query <filter> --index <log> [key...]`: the filter first, the index only
 *   for what the filter says "maybe" (the pattern of a filter shipped to
 *   clients and an index on a server). `present` only when the index
 *   confirms; at the end, how many "maybe"s the index turned into "absent"
 *   (the filter's false positives caught) is printed on stderr.
 *
 * With --urls, or a log built with --urls (or a URL blocklist filter), keys
 * are URLs and verdicts are listed/clear/invalid.
 */
import { checkUrl } from '../../url/check-url.js';
import { SAFE_BROWSING_DEPTH } from '../../url/expressions.js';
import { formatCount } from '../describe.js';
import { usageError } from '../errors.js';
import { EVERY_EXPRESSION, type OpenedLog } from './exact-index.js';
import type { LoadedFile } from '../io/load.js';
import { type Key, keyChecker, urlChecker, type Verdict } from '../query/verdicts.js';

/** Where `query` takes its verdicts from, and what it prints when done. */
export interface Answers {
  check(key: Key): Verdict;
  /** Run (awaited) before check(key): a split companion reads the part a "maybe" needs. */
  prepare?: (key: Key) => Promise<void>;
  /** A line for stderr after the last verdict (without the program name), or null. */
  summary(): string | null;
  close(): void;
}

/** Verdicts from the index log alone. */
export function indexAnswers(log: OpenedLog, urls: boolean): Answers {
  const index = log.index;
  let check: (key: Key) => Verdict;
  if (log.urlExpressions) {
    check = urlChecker((url) => checkUrl(url, EVERY_EXPRESSION, (expression) => index.has(expression)).match);
  } else if (urls) {
    // A log of plain keys read as expressions, as a plain filter is with --urls.
    check = urlChecker((url) => checkUrl(url, SAFE_BROWSING_DEPTH, (expression) => index.has(expression)).match);
  } else {
    check = keyChecker((key) => index.has(key));
  }
  return { check, summary: () => null, close: () => log.index.close() };
}

/**
 * Verdicts from `loaded` (a filter or URL blocklist) whose "maybe"s the index
 * log `log` (at `logPath`) confirms or refutes. A key (or URL) counts as one
 * "maybe" when the filter reports it (any of a URL's expressions), and as
 * caught when the index then finds none of what the filter reported.
 */
export function filterThenIndexAnswers(loaded: LoadedFile, log: OpenedLog, logPath: string, urls: boolean): Answers {
  if (loaded.kind === 'url-blocklist' && !log.urlExpressions && !urls) {
    throw usageError(
      `the filter is a URL blocklist but ${logPath} was built without --urls (its keys are lines, not URL expressions): ` +
        'rebuild it with build --exact --urls from the same list, or give --urls if its lines are expressions',
      'query',
    );
  }
  const filter = loaded.filter;
  const index = log.index;
  let maybes = 0;
  let caught = 0;
  // Per key: did the filter report anything, and did the index confirm it?
  let filterSaid = false;
  const confirm = (key: Key): boolean => {
    if (!filter.has(key)) return false;
    filterSaid = true;
    return index.has(key);
  };
  let lookUp: (key: Key) => Verdict;
  if (loaded.kind === 'url-blocklist' || urls || log.urlExpressions) {
    // The filter decides which expressions are checked, as it does alone.
    const depth = loaded.kind === 'url-blocklist' ? loaded.blocklist.expressionDepth : SAFE_BROWSING_DEPTH;
    lookUp = urlChecker((url) => checkUrl(url, depth, confirm).match);
  } else {
    lookUp = keyChecker(confirm);
  }
  const units = loaded.kind === 'url-blocklist' || urls || log.urlExpressions ? 'URL(s)' : 'key(s)';
  return {
    check(key: Key): Verdict {
      filterSaid = false;
      const verdict = lookUp(key);
      if (filterSaid) {
        maybes++;
        if (!verdict.hit) caught++;
      }
      return verdict;
    },
    summary: () =>
      `the filter said "maybe" for ${formatCount(maybes)} ${units}; the index ${logPath} confirmed ` +
      `${formatCount(maybes - caught)} and found ${formatCount(caught)} absent (false positives caught)`,
    close(): void {
      if (loaded.kind === 'url-blocklist') loaded.blocklist.free();
      else loaded.filter.free();
      log.index.close();
    },
  };
}
