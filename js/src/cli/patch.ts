/**
 * `patch BASE PATCH --output OUT`: applies a patch from `diff` to its exact
 * base, and writes the result only once it matches the target's checksums.
 */
import { applyPatch } from '../patch/apply-patch.js';
import { parseCommand } from './args.js';
import { formatCount } from './describe.js';
import { CliError, EXIT_CLEAR, usageError } from './errors.js';
import { readFilterBytes } from './filter-input.js';
import { readWholeFile, writeFileAtomically } from './patch-files.js';
import { FilterError } from '../index.js';

export async function runPatch(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'patch',
    argv,
    { output: { type: 'string', short: 'o' }, quiet: { type: 'boolean', short: 'q' } },
    true,
  );
  if (positionals.length !== 2) throw usageError(`patch takes a filter file and a patch, BASE and PATCH, got ${positionals.length}`, 'patch');
  const output = values.output as string | undefined;
  if (output === undefined) throw usageError('patch needs --output OUT', 'patch');
  const [basePath, patchPath] = positionals as [string, string];
  const base = await readFilterBytes(basePath);
  const patch = await readWholeFile(patchPath);
  let result: Uint8Array;
  try {
    result = applyPatch(base, patch);
  } catch (error) {
    if (error instanceof FilterError) throw new CliError(`${patchPath}: ${error.message}`);
    throw error;
  }
  await writeFileAtomically(output, result);
  if (values.quiet !== true) process.stdout.write(`patched  ${output}: ${formatCount(result.length)} bytes (checksum ok)\n`);
  return EXIT_CLEAR;
}
