// js/src/parquet is not in a package entry yet (the registry entry is a later step),
// so its suites bundle it from source with esbuild (a devDependency the package build
// uses) into a temporary module and import that.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ENTRY = fileURLToPath(new URL('../../js/src/parquet/index.ts', import.meta.url));

export async function loadParquetModule() {
  const result = await esbuild.build({ entryPoints: [ENTRY], bundle: true, format: 'esm', platform: 'neutral', target: 'es2022', write: false });
  await esbuild.stop(); // its service process would keep the Jest worker alive
  const file = join(mkdtempSync(join(tmpdir(), 'cbw-parquet-module-')), 'parquet.mjs');
  writeFileSync(file, result.outputFiles[0].contents);
  return import(pathToFileURL(file).href);
}
