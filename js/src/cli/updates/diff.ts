/**
 * `diff OLD NEW --output PATCH`: the patch from one filter file to another
 * (docs/CLI.md "Updates by patch"; bytes: https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md "Filter patches").
 * `diff OLD_LIST NEW_LIST --base FILTER --output NAME.delta`: the list delta
 * between two versions of a URL blocklist's list, for every type (delta-files.ts).
 */
import { diffFilters } from '../../patch/diff-filters.js';
import { filterType, FilterError, init } from '../../index.js';
import { booleanOptions, OUTPUT_AND_QUIET, parseCommand, parseFormat, stringOptions } from '../args.js';
import { formatCount } from '../describe.js';
import { EXIT_CLEAR, usageError } from '../errors.js';
import { readFilterBytes } from '../io/filter-input.js';
import { loadFilterFile } from '../io/load.js';
import { isDeltaPath, runDeltaDiff } from './delta-files.js';
import { asCliError, twoFilesAndOutput, writeFileAtomically } from './patch-files.js';

/** Past this share of the new file, a patch is mostly the new file again: diff says why, and what to ship instead. */
const PATCH_WARNING_SHARE = 0.5;

export async function runDiff(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'diff',
    argv,
    { ...OUTPUT_AND_QUIET, ...booleanOptions('json'), ...stringOptions('base', 'after', 'format') },
    true,
  );
  const { first: oldPath, second: newPath, output } = twoFilesAndOutput('diff', positionals, values.output, 'two filter files, OLD and NEW');
  if (oldPath === '-' || newPath === '-') throw usageError('diff reads both filters from files, not stdin', 'diff');
  const basePath = values.base as string | undefined;
  if (isDeltaPath(output)) {
    if (basePath === undefined) {
      throw usageError('diff OLD_LIST NEW_LIST --output NAME.delta needs --base FILTER, the blocklist file clients have (and --after LAST.delta past the first delta)', 'diff');
    }
    return runDeltaDiff({
      filterPath: basePath,
      afterPath: values.after as string | undefined,
      format: parseFormat(values.format as string | undefined),
      oldListPath: oldPath,
      newListPath: newPath,
      output,
      json: values.json === true,
      quiet: values.quiet === true,
    });
  }
  if (basePath !== undefined || values.after !== undefined || values.format !== undefined) {
    throw usageError('--base, --after and --format are for a list delta: give --output NAME.delta (and two list files)', 'diff');
  }
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
  if (patch.length > PATCH_WARNING_SHARE * target.length) {
    process.stderr.write(`diff: the patch is ${percent}% of ${newPath}'s ${formatCount(target.length)} bytes, more than half: ${await whyLarge(newPath, target)}\n`);
  }
  return EXIT_CLEAR;
}

/** Why a patch is most of its target, from the target's type, and what to ship instead. */
async function whyLarge(path: string, bytes: Uint8Array): Promise<string> {
  let type: string;
  let blocklist = false;
  try {
    await init();
    const loaded = await loadFilterFile(path, bytes);
    type = loaded.filter.type;
    blocklist = loaded.kind === 'url-blocklist';
    if (loaded.kind === 'url-blocklist') loaded.blocklist.free();
    else loaded.filter.free();
  } catch (error) {
    if (error instanceof FilterError || (error instanceof Error && error.name === 'CliError')) return 'the two files differ in most of their bytes';
    throw error;
  }
  const entry = filterType(type);
  const instead = blocklist
    ? 'for a URL blocklist, ship a list delta instead (about 7 bytes per entry added or removed, any type): ' +
      'update OLD --list LIST --remove R --add A --output NAME.delta, or diff OLD_LIST NEW_LIST --base OLD --output NAME.delta'
    : 'ship the new file whole';
  if (entry.isStatic) {
    return `a ${entry.name} filter is built whole from its list, so a changed list moves every slot and a patch resends nearly all of it; ${instead}`;
  }
  if (entry.supportsRemove) {
    return `a fresh ${entry.name} build places each entry by the ones before it (a new list moves most of them); diff the file before and after "update" instead, or ${instead}`;
  }
  return `the two ${entry.name} files differ in most of their bytes (other options or capacity?); build both with the same options, or ${instead}`;
}
