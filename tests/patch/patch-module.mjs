// diffFilters and applyPatch, compiled from js/src/patch with esbuild (a dev
// dependency) into `dir`: plain JavaScript with no wasm, so the suites can
// use them before they are exported from the package's entries. Their
// FilterError is the bundled copy: check errors by `code` and `name`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT } from '../cli/helpers.mjs';

export async function loadPatchModule(dir) {
  const entry = join(dir, 'patch-entry.ts');
  writeFileSync(
    entry,
    `export { diffFilters } from ${JSON.stringify(join(ROOT, 'js/src/patch/diff-filters.ts'))};\n` +
      `export { applyPatch } from ${JSON.stringify(join(ROOT, 'js/src/patch/apply-patch.ts'))};\n`,
  );
  const outfile = join(dir, 'patch.mjs');
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'neutral', outfile, logLevel: 'silent' });
  return import(pathToFileURL(outfile).href);
}

/** The error `run` throws (null when it throws none). */
export function thrown(run) {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}
