/**
 * `diff OLD NEW --output PATCH`: the patch from one filter file to another
 * (docs/CLI.md "Updates by patch"; bytes: https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md "Filter patches").
 */
import { diffFilters } from '../../patch/diff-filters.js';
import { booleanOptions, OUTPUT_AND_QUIET, parseCommand } from '../args.js';
import { formatCount } from '../describe.js';
import { EXIT_CLEAR, usageError } from '../errors.js';
import { readFilterBytes } from '../io/filter-input.js';
import { asCliError, twoFilesAndOutput, writeFileAtomically } from './patch-files.js';

export async function runDiff(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'diff',
    argv,
    { ...OUTPUT_AND_QUIET, ...booleanOptions('json') },
    true,
  );
  const { first: oldPath, second: newPath, output } = twoFilesAndOutput('diff', positionals, values.output, 'two filter files, OLD and NEW');
  if (oldPath === '-' || newPath === '-') throw usageError('diff reads both filters from files, not stdin', 'diff');
  const base = await readFilterBytes(oldPath);
  const target = await readFilterBytes(newPath);
  const patch = asCliError('diff', () => diffFilters(base, target));
  await writeFileAtomically(output, patch);
  const percent = Number(((100 * patch.length) / target.length).toFixed(2));
  const summary = { patch: output, bytes: patch.length, targetBytes: target.length, percentOfTarget: percent };
  if (values.json === true) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else if (values.quiet !== true) {
    process.stdout.write(`patch  ${output}: ${formatCount(patch.length)} bytes (${percent}% of ${newPath}'s ${formatCount(target.length)})\n`);
  }
  return EXIT_CLEAR;
}
