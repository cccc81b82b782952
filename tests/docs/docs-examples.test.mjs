// The guides' Node examples run as they stand, as the README's do (tests/package/package.test.mjs
// runs those against the installed tarball): every ```js block of a shipped docs/*.md whose
// first line names a Node file (`// batches.mjs`) is saved under that name in a scratch
// project whose node_modules/cuckoo-bloom-wasm is this repository (its built dist/), and run.
// And the README's command-line quick start: each command run in a scratch folder (npx
// cuckoo-bloom-wasm being dist/cli.js), printing the lines its `#   ` comments show.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
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

describe('the README\'s command-line quick start', () => {
  const CLI = join(REPO, 'dist', 'cli.js');

  /** [command, expected stdout lines] for each command of the section's sh blocks. */
  function commands() {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const section = readme.split('\n## ').find((part) => part.startsWith('Quick start: command line'));
    const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1].trimEnd().split('\n'));
    const steps = [];
    for (const line of blocks.flat()) {
      if (line.startsWith('#   ')) steps.at(-1)[1].push(line.slice(1).trim().replace(/\s+/g, ' '));
      else if (line.trim() !== '' && !line.startsWith('#')) steps.push([line, []]);
    }
    return steps;
  }

  test('the section has commands whose output it shows', () => {
    expect(commands().filter(([, expected]) => expected.length > 0).length).toBeGreaterThanOrEqual(3);
  });

  test('every command runs in order, and prints what the README shows', () => {
    const dir = join(project, 'cli-quick-start');
    mkdirSync(dir, { recursive: true });
    for (const [command, expected] of commands()) {
      const shell = command.replace(/^npx cuckoo-bloom-wasm /, `"${process.execPath}" "${CLI}" `);
      const child = spawnSync('bash', ['-c', shell], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
      // query exits 1 when it found something: the README says so.
      const okStatus = / query /.test(` ${command} `) ? [0, 1] : [0];
      expect({ command, status: okStatus.includes(child.status) ? 'ok' : child.status, stderr: child.stderr })
        .toEqual({ command, status: 'ok', stderr: expect.any(String) });
      if (expected.length > 0) {
        expect({ command, stdout: child.stdout.trimEnd().split('\n').map((line) => line.trim().replace(/\s+/g, ' ')) })
          .toEqual({ command, stdout: expected });
      }
    }
  });
});
