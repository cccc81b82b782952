/**
 * `diff OLD NEW --output PATCH`: the patch from one filter file to another
 * (docs/CLI.md "Updates by patch"; bytes: docs/FORMAT.md "Filter patches").
 */
import { diffFilters } from '../patch/diff-filters.js';
import { parseCommand } from './args.js';
import { formatCount } from './describe.js';
import { CliError, EXIT_CLEAR, usageError } from './errors.js';
import { readFilterBytes } from './filter-input.js';
import { writeFileAtomically } from './patch-files.js';
import { FilterError } from '../index.js';

export async function runDiff(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'diff',
    argv,
    { output: { type: 'string', short: 'o' }, json: { type: 'boolean' }, quiet: { type: 'boolean', short: 'q' } },
    true,
  );
  if (positionals.length !== 2) throw usageError(`diff takes two filter files, OLD and NEW, got ${positionals.length}`, 'diff');
  const output = values.output as string | undefined;
  if (output === undefined) throw usageError('diff needs --output PATCH', 'diff');
  const [oldPath, newPath] = positionals as [string, string];
  if (oldPath === '-' || newPath === '-') throw usageError('diff reads both filters from files, not stdin', 'diff');
  const base = await readFilterBytes(oldPath);
  const target = await readFilterBytes(newPath);
  let patch: Uint8Array;
  try {
    patch = diffFilters(base, target);
  } catch (error) {
    if (error instanceof FilterError) throw new CliError(error.message);
    throw error;
  }
  await writeFileAtomically(output, patch);
  const percent = Number(((100 * patch.length) / target.length).toFixed(2));
  const summary = { patch: output, bytes: patch.length, targetBytes: target.length, percentOfTarget: percent };
  if (values.json === true) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else if (values.quiet !== true) {
    process.stdout.write(`patch  ${output}: ${formatCount(patch.length)} bytes (${percent}% of ${newPath}'s ${formatCount(target.length)})\n`);
  }
  return EXIT_CLEAR;
}
