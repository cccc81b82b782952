// The guides' Node examples run as they stand, as the README's do (tests/package.test.mjs
// runs those against the installed tarball): every ```js block of a shipped docs/*.md whose
// first line names a Node file (`// batches.mjs`) is saved under that name in a scratch
// project whose node_modules/cuckoo-bloom-wasm is this repository (its built dist/), and run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const GUIDES = ['GUIDE.md', 'URL-BLOCKLISTS.md'];

let project;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'cbw-docs-examples-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(REPO, join(project, 'node_modules', 'cuckoo-bloom-wasm'), 'dir');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'docs-examples', private: true }));
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

/** [guide, file name, source] for every named Node example of the docs. */
function examples() {
  const docs = readdirSync(join(REPO, 'docs')).filter((name) => name.endsWith('.md'));
  return docs.flatMap((doc) => {
    const text = readFileSync(join(REPO, 'docs', doc), 'utf8');
    return [...text.matchAll(/```js\n\/\/ ([\w-]+\.[cm]js)\n([\s\S]*?)```/g)].map(([, name, body]) => [doc, name, body]);
  });
}

describe('the guides\' Node examples', () => {
  test('the examples that left the README are here to run', () => {
    const names = examples().map(([doc, name]) => `${doc} ${name}`);
    expect(names).toEqual(expect.arrayContaining([
      'GUIDE.md conveniences.mjs', 'GUIDE.md batches.mjs', 'GUIDE.md serverless.mjs', 'URL-BLOCKLISTS.md blocklist.mjs',
    ]));
    expect(GUIDES.every((doc) => names.some((name) => name.startsWith(`${doc} `)))).toBe(true);
  });

  test.each(examples())('%s: %s runs verbatim, printing nothing on stderr', (doc, name, body) => {
    const dir = join(project, doc.replace(/\W/g, '-'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), body);
    const child = spawnSync(process.execPath, [name], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect({ status: child.status, stderr: child.stderr }).toEqual({ status: 0, stderr: '' });
    expect(child.stdout).not.toBe('');
  });
});
