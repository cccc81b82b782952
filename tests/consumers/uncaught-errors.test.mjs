// An uncaught FilterError prints its message and stack, not the bundle (issue #44).
// Node prints the whole source line of an uncaught error's throw site before the
// message; when every bundle was one minified line, `new BloomFilter({ capacity: 0 })`
// left uncaught wrote 134,262 bytes to stderr. Each entry, as installed from the
// tarball, in ES module and CommonJS form: at most 8 KB, and the code is in it.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { packAndInstall } from './tools/package.mjs';

const MAX_STDERR = 8 * 1024;

/** Per entry: what to import and one statement that throws a FilterError once init() ran. */
const ENTRIES = {
  'cuckoo-bloom-wasm': { names: 'init, BloomFilter', fault: 'new BloomFilter({ capacity: 0 });' },
  'cuckoo-bloom-wasm/inline': { names: 'init, CuckooFilter', fault: 'new CuckooFilter({ falsePositiveRate: 2 });' },
  'cuckoo-bloom-wasm/small': { names: 'init, BloomFilter', fault: 'new BloomFilter({ capacity: -1 });' },
  'cuckoo-bloom-wasm/reader': { names: 'init, FilterReader', fault: 'FilterReader.deserialize(new Uint8Array(40));' },
  'cuckoo-bloom-wasm/shared': { names: 'init, SharedBloomFilter', fault: 'new SharedBloomFilter({ capacity: 0 });' },
};

let installed;
beforeAll(() => {
  installed = packAndInstall('cbw-uncaught-');
}, 180_000);
afterAll(() => installed?.remove());

function runUncaught(file, source) {
  writeFileSync(join(installed.consumer, file), source);
  return spawnSync(process.execPath, [file], { cwd: installed.consumer, encoding: 'utf8', timeout: 60_000 });
}

describe.each(Object.entries(ENTRIES))('%s', (entry, { names, fault }) => {
  const slug = entry.replaceAll('/', '-');
  test('as an ES module: the message, not the bundle', () => {
    const child = runUncaught(`${slug}.mjs`, `import { ${names} } from '${entry}';\nawait init();\n${fault}\n`);
    expect(child.status).not.toBe(0);
    expect(child.stderr).toMatch(/FilterError/);
    expect(child.stderr.length).toBeLessThanOrEqual(MAX_STDERR);
  });
  test('as CommonJS: the message, not the bundle', () => {
    const child = runUncaught(`${slug}.cjs`, `const { ${names} } = require('${entry}');\ninit().then(() => {\n${fault}\n});\n`);
    expect(child.status).not.toBe(0);
    expect(child.stderr).toMatch(/FilterError/);
    expect(child.stderr.length).toBeLessThanOrEqual(MAX_STDERR);
  });
});
