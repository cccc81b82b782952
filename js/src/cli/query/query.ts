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
 * A URL blocklist answers listed / possible / clear (url-verdicts.ts): its
 * exact companion, `<filter>.confirm` when present or `--confirm FILE`,
 * confirms the filter's "maybe"s. `--confirm` may name the split companion's
 * index (`<filter>.confirm.index`): each "maybe" then reads only its part from
 * `<filter>.confirm.parts/`. `--delta FILE` (repeatable, oldest first)
 * applies list deltas (`update`/`diff --output NAME.delta`) to the blocklist
 * before any URL is checked: the verdicts are then the updated version's.
 *
 * Exit status: 0 nothing present/listed/possible, 1 something was, 2 an input
 * error (which loses to 1).
 */
import { existsSync } from 'node:fs';
import { type AnyFilter, FilterError, init, type UrlBlocklist, urlExpressions } from '../../index.js';
import { booleanOptions, parseCommand, stringOptions } from '../args.js';
import { formatCount } from '../describe.js';
import { CliError, EXIT_CLEAR, EXIT_ERROR, EXIT_HIT, usageError } from '../errors.js';
import { type OpenedLog, openIndexLog } from '../exact/exact-index.js';
import { type Answers, filterThenIndexAnswers, indexAnswers } from '../exact/exact-query.js';
import { inspectInputFile, logOnStdinError, readCompanionBytes } from '../io/filter-input.js';
import { lineBatches } from '../io/lines.js';
import { type LoadedFile, loadFilterFile } from '../io/load.js';
import { partsFolderOf } from '../build-command/build-confirmation.js';
import { readWholeFile } from '../updates/patch-files.js';
import { exitQuietlyOnBrokenPipe, LineWriter } from '../io/output.js';
import { urlVerdictChecker } from './url-verdicts.js';
import { type Key, keyChecker, urlChecker, type Verdict } from './verdicts.js';

interface QueryOptions {
  urls: boolean;
  exact: boolean;
  /** --index <log>: check the filter's "maybe"s against this index log. */
  index: string | undefined;
  /** --confirm <file>: a URL blocklist's exact companion (default: <filter>.confirm when present). */
  confirm: string | undefined;
  /** --json: one JSON object per URL (URL blocklists). */
  json: boolean;
  /** --delta <file>, repeatable: list deltas applied in the order given (URL blocklists). */
  deltas: string[];
}

export async function runQuery(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'query',
    argv,
    { ...booleanOptions('urls', 'exact', 'json'), ...stringOptions('index', 'confirm'), delta: { type: 'string', multiple: true } },
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
    confirm: values.confirm as string | undefined,
    json: values.json === true,
    deltas: (values.delta as unknown as string[] | undefined) ?? [],
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
    if (answers.prepare !== undefined) await answers.prepare(key);
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
  if (options.confirm !== undefined && (options.exact || options.index !== undefined)) {
    throw usageError('--confirm applies to a URL blocklist queried alone, not with --exact or --index', 'query');
  }
  if (options.confirm === '') throw usageError('--confirm needs the companion file written by build --urls (<filter>.confirm)', 'query');
  if (options.json && (options.exact || options.index !== undefined)) {
    throw usageError('--json applies to a URL blocklist queried alone, not with --exact or --index', 'query');
  }
  if (options.deltas.length > 0 && (options.exact || options.index !== undefined)) {
    throw usageError('--delta applies to a URL blocklist queried alone, not with --exact or --index', 'query');
  }
  if (options.deltas.includes('')) throw usageError('--delta needs a list delta written by update or diff (NAME.delta)', 'query');
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
  const loaded = await loadFilterFile(file);
  if (loaded.kind !== 'url-blocklist') {
    const option =
      options.confirm !== undefined ? '--confirm' : options.json ? '--json' : options.deltas.length > 0 ? '--delta' : null;
    if (option !== null) {
      loaded.filter.free();
      throw usageError(`${option} applies to a URL blocklist (build --urls); ${file} is a ${loaded.filter.type} filter`, 'query');
    }
    return filterAnswers(loaded, options.urls);
  }
  let confirmation: { path: string; parts: boolean } | null;
  try {
    confirmation = await attachConfirmationFile(loaded.blocklist, file, options.confirm);
    await applyDeltaFiles(loaded.blocklist, options.deltas);
  } catch (error) {
    loaded.blocklist.free();
    throw error;
  }
  return blocklistAnswers(loaded.blocklist, file, confirmation, options.json);
}

/**
 * Applies `--delta` files in the order given. A delta of another version
 * (another base, out of order, given twice) or a damaged one is an error
 * naming the file, never skipped: the verdicts would silently be an older
 * version's, and an entry the delta added would be answered clear.
 */
async function applyDeltaFiles(blocklist: UrlBlocklist, paths: readonly string[]): Promise<void> {
  for (const [position, path] of paths.entries()) {
    const bytes = await readWholeFile(path);
    try {
      blocklist.applyDelta(bytes);
    } catch (error) {
      if (!(error instanceof FilterError)) throw error;
      const where = paths.length > 1 ? ` (--delta ${position + 1} of ${paths.length})` : '';
      throw new CliError(`${path}${where}: ${error.message}`);
    }
  }
}

/** The header's type byte of a split companion's index (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, type 34). */
const SPLIT_INDEX_TYPE = 34;

/** Attaches a split companion's index; each part is read from the parts folder beside it when a "maybe" needs it. */
function attachSplitIndex(blocklist: UrlBlocklist, path: string, bytes: Uint8Array): void {
  const folder = partsFolderOf(path);
  blocklist.attachConfirmationParts(bytes, async (part, name) => {
    try {
      return await readCompanionBytes(`${folder}/${name}`);
    } catch (error) {
      if (error instanceof CliError) throw new CliError(`part ${part} of ${path}: ${error.message}`);
      throw error;
    }
  });
}

/**
 * Attaches the blocklist's exact companion: `--confirm FILE` (which must be
 * there), else `<filter>.confirm` when it exists. A companion that is damaged
 * or was built for other filter bytes is an error, never ignored: the
 * verdicts would then silently be weaker than the files promise.
 * @returns the companion's path, or null when there is none.
 */
async function attachConfirmationFile(
  blocklist: UrlBlocklist,
  file: string,
  given: string | undefined,
): Promise<{ path: string; parts: boolean } | null> {
  const path = given ?? (file === '-' ? null : `${file}.confirm`);
  if (path === null) return null;
  // A missing <filter>.confirm means no companion (a split one's index is
  // used only when --confirm names it); one that is there is read as a filter
  // is (regular file, header-declared length), never with a plain readFile,
  // which hung on a FIFO and grew without bound on /dev/zero.
  if (given === undefined && !existsSync(path)) return null;
  const bytes = await readCompanionBytes(path);
  const parts = bytes[6] === SPLIT_INDEX_TYPE;
  try {
    if (parts) attachSplitIndex(blocklist, path, bytes);
    else blocklist.attachConfirmation(bytes);
  } catch (error) {
    if (!(error instanceof FilterError)) throw error;
    const what =
      error.code === 'CORRUPT'
        ? 'corrupt companion file'
        : error.code === 'WRONG_TYPE'
        ? 'not a blocklist companion (.confirm) file'
        : error.code === 'UNSUPPORTED_VERSION'
        ? 'unsupported companion file'
        : 'companion of another filter';
    throw new CliError(`${path}: ${what}: ${error.message}`);
  }
  return { path, parts };
}

/** listed / possible / clear from a URL blocklist, confirmed by its companion when one is attached. */
function blocklistAnswers(
  blocklist: UrlBlocklist,
  file: string,
  confirmation: { path: string; parts: boolean } | null,
  json: boolean,
): Answers {
  let possible = 0;
  const check = urlVerdictChecker((url) => {
    const result = blocklist.check(url);
    if (result.verdict === 'possible') possible++;
    return result;
  }, json);
  return {
    check,
    summary: () =>
      possible > 0 && confirmation === null
        ? `${formatCount(possible)} URL(s) possibly listed (the filter's "maybe", wrong at its false-positive rate): ` +
          `no companion to confirm them (${file === '-' ? 'give --confirm FILE' : `${file}.confirm not found; give --confirm FILE`})`
        : null,
    close: () => blocklist.free(),
    // With a split companion: read the part(s) this URL's "maybe" needs first, so check() concludes.
    ...(confirmation?.parts === true
      ? {
          prepare: async (key: Key): Promise<void> => {
            if (typeof key !== 'string') key = new TextDecoder('utf-8', { fatal: false }).decode(key);
            try {
              await blocklist.confirm(key);
            } catch (error) {
              // A URL that cannot be parsed is the checker's "invalid" line; a bad part is the files' fault.
              if (error instanceof FilterError && error.code === 'INVALID_ARGUMENT') return;
              if (error instanceof FilterError) throw new CliError(`${confirmation.path}: ${error.message}`);
              throw error;
            }
          },
        }
      : {}),
  };
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
    // Not reached from runQuery (blocklistAnswers); kept total for the type.
    const blocklist = loaded.blocklist;
    check = urlVerdictChecker((url) => blocklist.check(url), false);
  } else if (urls) {
    const filter = loaded.filter;
    // A plain filter of expressions has no exact companion: its hit is a maybe, never 'listed'.
    check = urlChecker((url) => firstExpressionIn(filter, url), 'possible');
  } else {
    const filter = loaded.filter;
    check = keyChecker((key) => filter.has(key));
  }
  return { check, summary: () => null, close: () => freeLoaded(loaded) };
}

function firstExpressionIn(filter: AnyFilter, url: string): string | null {
  return urlExpressions(url).find((expression) => filter.has(expression)) ?? null;
}
