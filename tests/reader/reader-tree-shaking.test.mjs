// `cuckoo-bloom-wasm/reader` (dist/reader.js, the ES module pages bundle) is built without
// esbuild's keepNames: its name-keeping calls are top-level statements a page's bundler must
// keep, and with them every bundle of the reader kept all of it (the demo's app.js carried
// 45.7 KB of it for a URL check). A page's bundler now drops what the page does not import,
// and the classes still name themselves where a name is shown.
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import * as full from 'cuckoo-bloom-wasm';

const READER = fileURLToPath(new URL('../../dist/reader.js', import.meta.url));

/** The minified bytes of a page that imports `names` from the reader (the glue left out, as a page loads it apart). */
async function pageBytes(names) {
  const contents = `import { ${names.join(', ')} } from ${JSON.stringify(READER)};\nconsole.log(${names.join(', ')});\n`;
  const result = await build({
    stdin: { contents, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    minify: true,
    external: ['./core.reader.mjs'],
    logLevel: 'silent',
  });
  return result.outputFiles[0].contents.length;
}

test('a page bundles only what it imports from the reader', async () => {
  const everything = await pageBytes(['init', 'isInitialized', 'FilterError', 'canonicalizeUrl', 'urlExpressions', 'FilterReader', 'UrlBlocklistReader', 'confirmationPartName', 'applyPatch']);
  const filtersOnly = await pageBytes(['init', 'FilterReader']);
  const urlChecks = await pageBytes(['init', 'UrlBlocklistReader']);
  // With keepNames every one of these was the whole module (~46 KB). Measured when written:
  // everything 43 KB, FilterReader 14.5 KB, UrlBlocklistReader 36 KB.
  expect(filtersOnly).toBeLessThan(0.5 * everything);
  expect(urlChecks).toBeLessThan(0.9 * everything);
  expect(await pageBytes(['isInitialized'])).toBeLessThan(0.1 * everything);
  expect(readFileSync(READER, 'utf8')).not.toMatch(/configurable:!0\}\)/); // esbuild's __name helper
});

test('the renamed classes still name themselves: toString and FilterError', async () => {
  const reader = await import(READER);
  await full.init();
  await reader.init({ wasm: readFileSync(new URL('../../dist/core.reader.wasm', import.meta.url)) });
  const list = reader.UrlBlocklistReader.deserialize(full.UrlBlocklist.build('evil.example\n').serialize());
  expect(String(list)).toMatch(/^UrlBlocklistReader \{ type: '/);
  const filter = new full.BloomFilter({ capacity: 100, falsePositiveRate: 0.01 });
  filter.add('k');
  expect(String(reader.FilterReader.deserialize(filter.serialize()))).toMatch(/^FilterReader \{ type: 'bloom'/);
  let error;
  try {
    reader.FilterReader.deserialize(new Uint8Array(3));
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(reader.FilterError);
  expect(error.name).toBe('FilterError');
  // What console.log prints: inspect adds the constructor's name when it differs from .name
  // ("t [FilterError]: …" with the renamed class).
  expect(inspect(error)).toMatch(/^FilterError: /);
  expect(inspect(list)).toMatch(/^UrlBlocklistReader /);
  expect([reader.FilterError.name, reader.FilterReader.name, reader.UrlBlocklistReader.name]).toEqual(['FilterError', 'FilterReader', 'UrlBlocklistReader']);
});
