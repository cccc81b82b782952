/**
 * `patch BASE PATCH --output OUT`: applies a patch from `diff` to its exact
 * base, and writes the result only once it matches the target's checksums
 * and is an undamaged filter (its own length and checksum).
 */
import { applyPatch } from '../../patch/apply-patch.js';
import { requireIntactFilter } from '../../patch/filter-checksum.js';
import { OUTPUT_AND_QUIET, parseCommand } from '../args.js';
import { formatCount } from '../describe.js';
import { EXIT_CLEAR } from '../errors.js';
import { readFilterBytes } from '../io/filter-input.js';
import { asCliError, readWholeFile, twoFilesAndOutput, writeFileAtomically } from './patch-files.js';

export async function runPatch(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'patch',
    argv,
    OUTPUT_AND_QUIET,
    true,
  );
  const { first: basePath, second: patchPath, output } = twoFilesAndOutput('patch', positionals, values.output, 'a filter file and a patch, BASE and PATCH');
  const base = await readFilterBytes(basePath);
  const patch = await readWholeFile(patchPath);
  const result = asCliError(patchPath, () => applyPatch(base, patch));
  // applyPatch checks the result against the target the patch names; this
  // checks the target itself (its own length and checksum), so "checksum ok"
  // is true even of a patch made from a damaged filter (diff refuses one now;
  // an older diff, or another tool, did not).
  asCliError(patchPath, () => requireIntactFilter(result, 'the patched filter'));
  await writeFileAtomically(output, result);
  if (values.quiet !== true) process.stdout.write(`patched  ${output}: ${formatCount(result.length)} bytes (checksum ok)\n`);
  return EXIT_CLEAR;
}
