/**
 * `patch BASE PATCH --output OUT`: applies a patch from `diff` to its exact
 * base, and writes the result only once it matches the target's checksums.
 */
import { applyPatch } from '../patch/apply-patch.js';
import { OUTPUT_AND_QUIET, parseCommand } from './args.js';
import { formatCount } from './describe.js';
import { EXIT_CLEAR } from './errors.js';
import { readFilterBytes } from './filter-input.js';
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
  await writeFileAtomically(output, result);
  if (values.quiet !== true) process.stdout.write(`patched  ${output}: ${formatCount(result.length)} bytes (checksum ok)\n`);
  return EXIT_CLEAR;
}
