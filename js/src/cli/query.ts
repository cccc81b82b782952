/**
 * `query`: one verdict per key or URL, from the command line or stdin
 * (the lines: verdicts.ts).
 *
 * The file is a filter (answers "absent" for certain, "present" maybe) or an
 * index log made by `build --exact` (answers exactly: exact-query.ts), told
 * apart by its first bytes; `--exact` insists on a log. `--index <log>`
 * checks a filter's "maybe"s against a log.
 *
 * Keys on the command line are strings (hashed as UTF-8, as the API does);
 * keys read from stdin are bytes, each line exactly as `build` stores it, and
 * are echoed as those bytes. With --urls a line must be UTF-8 text; one that
 * is not is an `invalid` verdict.
 *
 * Exit status: 0 nothing present/listed, 1 something was, 2 an input error
 * (which wins over 1).
 */
import { type AnyFilter, init, urlExpressions } from '../index.js';
import { parseCommand } from './args.js';
import { formatCount } from './describe.js';
import { EXIT_CLEAR, EXIT_ERROR, EXIT_HIT, usageError } from './errors.js';
import { type OpenedLog, openIndexLog } from './exact-index.js';
import { type Answers, filterThenIndexAnswers, indexAnswers } from './exact-query.js';
import { inspectInputFile, logOnStdinError } from './filter-input.js';
import { lineBatches } from './lines.js';
import { type LoadedFile, loadFilterFile } from './load.js';
import { exitQuietlyOnBrokenPipe, LineWriter } from './output.js';
import { type Key, keyChecker, urlChecker, type Verdict } from './verdicts.js';

interface QueryOptions {
  urls: boolean;
  exact: boolean;
  /** --index <log>: check the filter's "maybe"s against this index log. */
  index: string | undefined;
}

export async function runQuery(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'query',
    argv,
    { urls: { type: 'boolean' }, exact: { type: 'boolean' }, index: { type: 'string' } },
    true,
  );
  if (positionals.length === 0) throw usageError('query needs a filter file or an index log, then keys (or keys on stdin)', 'query');
  const [file, ...keys] = positionals as [string, ...string[]];
  if (file === '-' && keys.length === 0) {
    throw usageError('the filter is read from stdin (-), so the keys cannot be: give them as arguments', 'query');
  }
  const options: QueryOptions = {
    urls: values.urls === true,
    exact: values.exact === true,
    index: values.index as string | undefined,
  };
  const answers = await openAnswers(file, options);
  let hits = 0;
  let invalid = 0;
  // A listed URL wins over an invalid one: a script testing for exit 1 must never miss a hit
  // because another URL of the batch could not be checked (the invalid lines still say so).
  const status = (): number => (hits > 0 ? EXIT_HIT : invalid > 0 ? EXIT_ERROR : EXIT_CLEAR);
  exitQuietlyOnBrokenPipe(process.stdout, status);
  const out = new LineWriter(process.stdout);
  const answer = async (key: Key): Promise<void> => {
    const verdict = answers.check(key);
    if (verdict.hit) hits++;
    if (verdict.invalid) invalid++;
    await out.line(...verdict.line);
  };
  try {
    if (keys.length > 0) {
      for (const key of keys) await answer(key);
    } else {
      for await (const batch of lineBatches(process.stdin)) {
        for (const line of batch.lines) if (line.length > 0) await answer(line);
      }
    }
    await out.flush();
  } finally {
    answers.close();
  }
  const summary = answers.summary();
  if (summary !== null) process.stderr.write(`cuckoo-bloom-wasm: ${summary}\n`);
  if (invalid > 0) {
    process.stderr.write(`cuckoo-bloom-wasm: ${formatCount(invalid)} URL(s) could not be checked (see the "invalid" lines)\n`);
  }
  return status();
}

/** The source of verdicts the command line asks for; contradictions are usage errors. */
async function openAnswers(file: string, options: QueryOptions): Promise<Answers> {
  if (options.exact && options.index !== undefined) {
    throw usageError(
      '--exact and --index do not go together: --exact <log> queries an index log alone, ' +
        '<filter> --index <log> checks the filter\'s "maybe"s against one',
      'query',
    );
  }
  const kind = await inspectInputFile(file);
  await init();
  if (options.index !== undefined) {
    const logPath = options.index;
    if (kind === 'index-log') {
      throw usageError(`${file} is an index log: query it alone (--index <log> follows a filter file, whose "maybe"s it checks)`, 'query');
    }
    if (logPath === '') throw usageError('--index needs an index log made by build --exact', 'query');
    if (logPath === '-') throw logOnStdinError();
    const logKind = await inspectInputFile(logPath);
    if (logKind !== 'index-log') throw notALog(`--index ${logPath}`, logKind, 'query');
    const loaded = await loadFilterFile(file);
    let log: OpenedLog;
    try {
      log = openLog(logPath);
    } catch (error) {
      freeLoaded(loaded);
      throw error;
    }
    try {
      return filterThenIndexAnswers(loaded, log, logPath, options.urls);
    } catch (error) {
      freeLoaded(loaded);
      log.index.close();
      throw error;
    }
  }
  if (kind === 'index-log') return indexAnswers(openLog(file), options.urls);
  if (options.exact) {
    const hint =
      kind === 'filter'
        ? ' (query the filter without --exact, or check its "maybe"s against a log with --index <log>)'
        : '';
    throw notALog(file, kind, 'query', hint);
  }
  return filterAnswers(await loadFilterFile(file), options.urls);
}

function notALog(what: string, kind: 'filter' | 'other', command: string, hint = ''): Error {
  const found = kind === 'filter' ? 'is a filter file, not an index log' : 'is not an index log (its first bytes are not "CBWILOG1")';
  return usageError(`${what} ${found}: exact answers need a log made by build --exact${hint}`, command);
}

/** Opens an index log (read-only), warning on stderr when it ends in a torn last record. */
function openLog(path: string): OpenedLog {
  const log = openIndexLog(path);
  const dropped = log.report.droppedTailBytes;
  if (dropped > 0) {
    process.stderr.write(
      `cuckoo-bloom-wasm: warning: ${path} ended in an unfinished record (a write cut short); ` +
        `its ${formatCount(dropped)} byte(s) are ignored (the file is left as it is), every whole record is answered\n`,
    );
  }
  return log;
}

function freeLoaded(loaded: LoadedFile): void {
  if (loaded.kind === 'url-blocklist') loaded.blocklist.free();
  else loaded.filter.free();
}

/** Verdicts from a filter or URL blocklist alone. */
function filterAnswers(loaded: LoadedFile, urls: boolean): Answers {
  let check: (key: Key) => Verdict;
  if (loaded.kind === 'url-blocklist') {
    const blocklist = loaded.blocklist;
    check = urlChecker((url) => blocklist.match(url));
  } else if (urls) {
    const filter = loaded.filter;
    check = urlChecker((url) => firstExpressionIn(filter, url));
  } else {
    const filter = loaded.filter;
    check = keyChecker((key) => filter.has(key));
  }
  return { check, summary: () => null, close: () => freeLoaded(loaded) };
}

function firstExpressionIn(filter: AnyFilter, url: string): string | null {
  return urlExpressions(url).find((expression) => filter.has(expression)) ?? null;
}
