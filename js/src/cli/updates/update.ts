/**
 * `update FILTER --add FILE --remove FILE [--list FILE] [--output OUT]`:
 * changes a URL blocklist file in place (docs/CLI.md "Updates by patch").
 * Removal needs to know what the filter holds (removing an expression never
 * stored could take another entry's fingerprint: a listed URL answered
 * clear), so --remove needs --list, the list the filter holds; so does a
 * filter with a companion (<filter>.confirm), which is rewritten to match.
 * Every line is checked before anything is written: a removal the list does
 * not hold, or a line that cannot be read, fails the whole update (exit 2).
 * With `--output NAME.delta` the filter is not changed: a list delta is
 * written instead (delta-files.ts), for every type, static ones included.
 */
import { existsSync } from 'node:fs';
import { FilterError, init, type ListFormat, type UrlBlocklist } from '../../index.js';
import { booleanOptions, OUTPUT_AND_QUIET, parseCommand, parseFormat, stringOptions } from '../args.js';
import { writeConfirmation } from '../build-command/build-confirmation.js';
import { formatCount, table } from '../describe.js';
import { CliError, EXIT_CLEAR, usageError } from '../errors.js';
import { loadFilterFile } from '../io/load.js';
import { refuseOutputThatIsInput } from '../io/output-paths.js';
import { asCliError, readListLines, writeFileAtomically } from './patch-files.js';
import { readCompanionBytes } from '../io/filter-input.js';
import { isDeltaPath, runDeltaUpdate } from './delta-files.js';

const SHOWN_PROBLEMS = 10;

interface LineCounts {
  lines: number;
  /** Removed: the expressions of the lines. Added: the expressions new to the list (as build's `added`). */
  expressions: number;
  /** Added only: expressions the list already held (a repeat, or one listed before), as build's `already present`. */
  alreadyPresent?: number;
}

export async function runUpdate(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'update',
    argv,
    { ...stringOptions('add', 'remove', 'list', 'format', 'after'), ...OUTPUT_AND_QUIET, ...booleanOptions('json') },
    true,
  );
  if (positionals.length !== 1) throw usageError(`update takes one filter file, got ${positionals.length}`, 'update');
  const filterPath = positionals[0]!;
  const addPath = values.add as string | undefined;
  const removePath = values.remove as string | undefined;
  const listPath = values.list as string | undefined;
  const format = parseFormat(values.format as string | undefined);
  if (addPath === undefined && removePath === undefined) throw usageError('update needs --add FILE, --remove FILE or both', 'update');
  if (filterPath === '-') throw usageError('update changes a filter file: give its path, not stdin', 'update');
  const afterPath = values.after as string | undefined;
  if (isDeltaPath(values.output)) {
    return runDeltaUpdate({ filterPath, listPath, addPath, removePath, afterPath, format, output: values.output as string, json: values.json === true, quiet: values.quiet === true });
  }
  if (afterPath !== undefined) throw usageError('--after LAST.delta names the chain a new delta follows: give --output NAME.delta', 'update');
  const output = (values.output as string | undefined) ?? filterPath;
  for (const input of [addPath, removePath, listPath]) {
    if (input !== undefined) await refuseOutputThatIsInput(input, output, 'updated filter', [{ path: `${output}.confirm`, role: 'its companion' }]);
  }
  const confirmPath = `${filterPath}.confirm`;
  const hasConfirmation = existsSync(confirmPath);
  if (listPath === undefined && (removePath !== undefined || hasConfirmation)) {
    const why =
      removePath !== undefined
        ? 'to know which entries it holds: removing one it never held could remove another entry (a listed URL then answered clear)'
        : `to rewrite its companion ${confirmPath}`;
    throw usageError(`update needs --list FILE, the list ${filterPath} was built from (with its updates), ${why}`, 'update');
  }

  await init();
  const loaded = await loadFilterFile(filterPath);
  if (loaded.kind !== 'url-blocklist') {
    throw new CliError(`${filterPath}: update changes URL blocklists (build --urls); for a plain filter, build it again and diff`);
  }
  const blocklist = loaded.blocklist;
  const entriesBefore = blocklist.entryCount;
  if (hasConfirmation) {
    // Read as a filter is (filter-input.ts): a FIFO or /dev/zero here used to hang update.
    const companion = await readCompanionBytes(confirmPath);
    asCliError(confirmPath, () => blocklist.attachConfirmation(companion));
  }
  if (listPath !== undefined) {
    const lines = await readListLines(listPath);
    asCliError(listPath, () => blocklist.attachList(lines, format));
  }
  const removed = removePath === undefined ? null : applyLines(blocklist, removePath, await readListLines(removePath), format, 'remove');
  const added = addPath === undefined ? null : await addLines(blocklist, addPath, format);

  // The companion first: one bound to the new bytes beside the old filter is refused by query, never wrong.
  if (hasConfirmation) await writeConfirmation(output, blocklist.confirmation());
  const bytes = blocklist.serialize();
  await writeFileAtomically(output, bytes);
  const summary = {
    filter: filterPath,
    output,
    removed,
    added,
    entriesBefore,
    entries: blocklist.entryCount,
    bytes: bytes.length,
    confirmation: hasConfirmation ? `${output}.confirm` : null,
  };
  if (values.json === true) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else if (values.quiet !== true) {
    const counts = (c: LineCounts | null): string =>
      c === null
        ? 'none'
        : `${formatCount(c.lines)} line(s), ${formatCount(c.expressions)} expression(s)` +
          (c.alreadyPresent === undefined ? '' : `, ${formatCount(c.alreadyPresent)} already present`);
    const rows: Array<[string, string]> = [
      ['updated', `${output}: ${formatCount(bytes.length)} bytes`],
      ['removed', counts(removed)],
      ['added', counts(added)],
      ['entries', `${formatCount(entriesBefore)} -> ${formatCount(blocklist.entryCount)}`],
    ];
    if (hasConfirmation) rows.push(['confirmation', `${output}.confirm rewritten`]);
    process.stdout.write(`${table(rows)}\n`);
  }
  return EXIT_CLEAR;
}

/**
 * Adds the lines of `path`, counting as build does: `expressions` the ones new
 * to the list, `alreadyPresent` the rest. The line count alone counted every
 * repeat as added ("added 3 expression(s)" while entries went 2 -> 3), so
 * the difference in distinct entries is what is reported (entryCount counts
 * distinct expressions, so it is read once before and once after).
 */
async function addLines(blocklist: UrlBlocklist, path: string, format: ListFormat): Promise<LineCounts> {
  const lines = await readListLines(path);
  const before = blocklist.entryCount;
  const counts = applyLines(blocklist, path, lines, format, 'add');
  const fresh = Math.max(0, blocklist.entryCount - before);
  return { lines: counts.lines, expressions: fresh, alreadyPresent: counts.expressions - fresh };
}

/**
 * Removes or adds every line of a file. Lines that cannot be read, and
 * removals of expressions the list does not hold, are collected and fail the
 * update (nothing is written); any other error (UNSUPPORTED, FULL) stops it at once.
 */
function applyLines(blocklist: UrlBlocklist, path: string, lines: string[], format: ListFormat, action: 'add' | 'remove'): LineCounts {
  const problems: string[] = [];
  let notHeld = 0;
  const counts = { lines: 0, expressions: 0 };
  lines.forEach((line, index) => {
    let parsed;
    try {
      parsed = action === 'add' ? blocklist.add(line, format) : blocklist.remove(line, format);
    } catch (error) {
      if (error instanceof FilterError && error.code === 'INVALID_ARGUMENT') {
        notHeld++;
        problems.push(`${path}:${index + 1}: not in the filter: ${JSON.stringify(line.slice(0, 200))}`);
        return;
      }
      if (error instanceof FilterError) throw new CliError(`cannot ${action} ${path}:${index + 1}: ${error.message}`);
      throw error;
    }
    if (parsed.kind === 'error') problems.push(`${path}:${index + 1}: ${parsed.reason}: ${JSON.stringify(line.slice(0, 200))}`);
    if (parsed.kind !== 'entry') return;
    counts.lines++;
    counts.expressions += parsed.expressions.length;
  });
  if (problems.length > 0) {
    const more = problems.length > SHOWN_PROBLEMS ? `; and ${problems.length - SHOWN_PROBLEMS} more` : '';
    const why =
      notHeld === 0 ? '' : " (removing an expression the filter does not hold could remove another entry's fingerprint: a listed URL then answered clear)";
    throw new CliError(
      `nothing was written: ${problems.length} line(s) of --${action} ${path} cannot be ${action === 'add' ? 'added' : 'removed'}${why}: ` +
        `${problems.slice(0, SHOWN_PROBLEMS).join('; ')}${more}`,
    );
  }
  return counts;
}
