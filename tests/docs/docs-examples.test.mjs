// Every code block of the README and of the docs the package ships runs as it stands,
// against the packed and installed tarball (tests/package/installed-package.mjs, made once
// per Jest run): the docs are the contract.
//   ```js  saved in a folder of the consumer project and run with node: exit 0, nothing on
//          stderr. Its name is the file its first line names (`// app.cjs`), else <doc>-<line>.mjs.
//   ```ts  type-checked (tsc --strict, nodenext) against the installed typings, all in one tsc run.
//   ```sh  (or bash) each command run in order in a folder of its own, `npx cuckoo-bloom-wasm`
//          being the installed CLI: exit 0 (`query` may exit 1: it found something), and the
//          lines a `#   ` comment shows after a command are its output (`#   stderr: ...`: on
//          stderr).
// A block that cannot run as it stands says so in an HTML comment on the line before it
// (clauses joined by `;`):
//   <!-- example: continues -->          a fragment of the block before it (same doc, same
//                                        language): run as one program with it (sh: same folder)
//   <!-- example: given a.txt b.txt -->  needs input files the reader has: the test writes
//                                        stand-ins (GIVEN below); figures in the shown output,
//                                        which depend on those files, are not compared
//   <!-- example: not-run: REASON -->    not run (a Redis server, a browser page, ...): listed
//                                        as a skipped test with its reason; the names a js block
//                                        imports from the package are still checked
// Other languages (html, cpp, plain text) are not checked.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { REPO, useInstalledPackage } from '../package/installed-package.mjs';

const tarball = useInstalledPackage();
const TSC = join(REPO, 'node_modules/typescript/bin/tsc');
const LANGUAGES = { js: 'js', ts: 'ts', sh: 'sh', bash: 'sh' };

// Stand-ins for the reader's own files that `given` names.
const GIVEN = {
  'urlhaus.txt': '# URLhaus stand-in\n1.1.104.12\nhttp://malware.example/payload.exe\n||tracker.example^\n',
  'ids.txt': 'id-1\nid-2\nid-3\n',
  'keys.txt': 'id-2\nid-9\n',
  'list-v1.txt': 'evil.example\n||bad.example^\n0.0.0.0 tracker.example\nphish.example/login\n',
  'gone.txt': 'evil.example\n',
  'new.txt': '||worse.example^\n',
};

/** The docs the package ships: README.md and every other .md that package.json's "files" names. */
function shippedDocs() {
  const { files } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  return ['README.md', ...files.filter((entry) => entry.endsWith('.md') && entry !== 'README.md')];
}
// Guides read in the repository (linked from the shipped ones, not shipped to keep the
// package within 3 MB) whose examples a user copies as well: run against the tarball too.
const REPOSITORY_GUIDES = ['docs/CLI.md', 'docs/EXACT-INDEX.md', 'docs/REDIS.md', 'docs/REDIS-CLUSTER.md', 'docs/SECURITY.md', 'docs/URL-BLOCKLISTS.md'];

/** The marker on the last non-blank line before line `index`: { continues, given, notRun } or null; problems pushed. */
function markerBefore(lines, index, where, problems) {
  let previous = index - 1;
  while (previous >= 0 && lines[previous].trim() === '') previous--;
  const comment = /^\s*<!--\s*example:\s*([\s\S]*?)\s*-->\s*$/.exec(lines[previous] ?? '');
  if (!comment) return null;
  const marker = { continues: false, given: [], notRun: null };
  // not-run's reason is the rest of the comment (it may hold a `;`).
  const [clauses, reason] = comment[1].split(/(?:^|;)\s*not-run:/);
  if (reason !== undefined) {
    marker.notRun = reason.trim();
    if (marker.notRun.length < 10) problems.push(`${where}: not-run needs its reason ("not-run: needs a Redis server")`);
  }
  for (const clause of clauses.split(';').map((part) => part.trim()).filter(Boolean)) {
    let match;
    if (clause === 'continues') marker.continues = true;
    else if ((match = /^given\s+(.+)$/.exec(clause))) marker.given.push(...match[1].split(/[\s,]+/));
    else problems.push(`${where}: unknown marker "${clause}" (continues, given FILE..., not-run: REASON)`);
  }
  for (const file of marker.given) if (!(file in GIVEN)) problems.push(`${where}: given ${file}: no stand-in for it in GIVEN`);
  return marker;
}

/**
 * The checked examples of one doc: a block, with the blocks that continue it joined on.
 * [{ doc, line, lang, body, given, notRun, parts }] (line: the first block's opening fence).
 */
function docExamples(doc, text, problems = []) {
  const lines = text.split('\n');
  const examples = [];
  let open = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (open) {
      if (/^ {0,3}```\s*$/.test(line)) {
        if (open.lang) finish(open);
        open = null;
      } else open.body.push(line.slice(open.indent));
      continue;
    }
    const fence = /^( {0,3})```(\S*)/.exec(line);
    if (!fence) continue;
    const where = `${doc}:${index + 1}`;
    const lang = LANGUAGES[fence[2]] ?? null;
    const marker = markerBefore(lines, index, where, problems);
    if (marker && !lang) problems.push(`${where}: a marker on a \`\`\`${fence[2]} block, which is not checked`);
    open = { where, line: index + 1, lang, indent: fence[1].length, body: [], marker };
  }
  function finish({ where, line, lang, body, marker }) {
    const source = body.join('\n');
    if (marker?.continues) {
      const previous = examples.at(-1);
      if (!previous || previous.lang !== lang) {
        problems.push(`${where}: "continues" needs a ${lang} block before it in ${doc}`);
        return;
      }
      if (marker.notRun) problems.push(`${where}: "continues" and "not-run" together: mark the first block`);
      previous.body += `\n${source}`;
      previous.given.push(...marker.given);
      previous.parts.push(line);
      return;
    }
    examples.push({ doc, line, lang, body: source, given: [...(marker?.given ?? [])], notRun: marker?.notRun ?? null, parts: [line] });
  }
  return examples;
}

const problems = [];
const EXAMPLES = [...shippedDocs(), ...REPOSITORY_GUIDES].flatMap((doc) => docExamples(doc, readFileSync(join(REPO, doc), 'utf8'), problems));
const label = (example) => `${example.doc}:${example.parts.join('+')} (${example.lang})`;
const running = (lang) => EXAMPLES.filter((example) => example.lang === lang && !example.notRun).map((example) => [label(example), example]);
const notRun = EXAMPLES.filter((example) => example.notRun);

/** A folder of the consumer project for one example (node resolves the package from there). */
function folderFor(example) {
  const dir = join(tarball.consumer, 'docs-examples', `${example.doc.replace(/\W/g, '-')}-${example.line}`);
  mkdirSync(dir, { recursive: true });
  for (const file of example.given) writeFileSync(join(dir, file), GIVEN[file]);
  return dir;
}

/** The file a js block runs as: the name its first line gives, else <doc>-<line>.mjs. */
function fileNameFor(example) {
  return /^\/\/ ([\w-]+\.[cm]?js)\s*$/.exec(example.body.split('\n')[0])?.[1].replace(/\.js$/, '.mjs')
    ?? `${example.doc.replace(/\W/g, '-')}-${example.line}.mjs`;
}

describe('code blocks of the README, the shipped docs and the repository guides', () => {
  const counts = ['js', 'ts', 'sh'].map((lang) => `${running(lang).length} ${lang}`).join(', ');
  test(`every block is checked or marked (${EXAMPLES.length} examples: ${counts} checked, ${notRun.length} not run)`, () => {
    expect(problems).toEqual([]);
    // The docs read here are the package's: the same list, and the same text, as the tarball holds.
    const packedDocs = tarball.packed.files.map((file) => file.path).filter((path) => path.endsWith('.md')).sort();
    expect(packedDocs).toEqual([...shippedDocs()].sort());
    for (const doc of shippedDocs()) {
      expect({ doc, same: readFileSync(join(tarball.installed, doc), 'utf8') === readFileSync(join(REPO, doc), 'utf8') })
        .toEqual({ doc, same: true });
    }
    expect(running('js').length).toBeGreaterThan(10);
  });

  test('the markers are read as documented', () => {
    const found = [];
    const text = [
      '```js', 'a()', '```', '<!-- example: continues -->', '```js', 'b()', '```',
      '<!-- example: given ids.txt keys.txt -->', '', '```sh', 'cat ids.txt', '```',
      '<!-- example: not-run: needs a Redis server; and a client -->', '```js', 'redis()', '```',
      '<!-- example: continues -->', '```html', '<p>', '```', '```ts', 'x', '```',
      '<!-- example: not-run: x -->', '```sh', '```', '<!-- example: given nowhere.txt; continues -->', '```js', '```',
    ].join('\n');
    const examples = docExamples('T.md', text, found);
    expect(examples.map(({ line, lang, body, given, notRun: reason, parts }) => ({ line, lang, body, given, reason, parts }))).toEqual([
      { line: 1, lang: 'js', body: 'a()\nb()', given: [], reason: null, parts: [1, 5] },
      { line: 10, lang: 'sh', body: 'cat ids.txt', given: ['ids.txt', 'keys.txt'], reason: null, parts: [10] },
      { line: 14, lang: 'js', body: 'redis()', given: [], reason: 'needs a Redis server; and a client', parts: [14] },
      { line: 21, lang: 'ts', body: 'x', given: [], reason: null, parts: [21] },
      { line: 25, lang: 'sh', body: '', given: [], reason: 'x', parts: [25] },
    ]);
    expect(found).toEqual([
      'T.md:18: a marker on a ```html block, which is not checked',
      expect.stringMatching(/^T\.md:25: not-run needs its reason/),
      'T.md:28: given nowhere.txt: no stand-in for it in GIVEN',
      'T.md:28: "continues" needs a js block before it in T.md',
    ]);
  });

  // Concurrent (Jest's maxConcurrency, 5): each block is a process of its own, mostly waiting
  // for a CPU on a loaded machine.
  test.concurrent.each(running('js'))('%s runs, printing nothing on stderr', async (_, example) => {
    const dir = folderFor(example);
    const name = fileNameFor(example);
    writeFileSync(join(dir, name), example.body);
    const child = await run(process.execPath, [name], { cwd: dir });
    expect({ status: child.status, signal: child.signal, stderr: child.stderr }).toEqual({ status: 0, signal: null, stderr: '' });
  });

  let typeErrors; // tsc's output by file, from one run over every ts block (a promise)
  const checkTypes = () => (typeErrors ??= typeCheck());
  const typeCheck = async () => {
    const dir = join(tarball.consumer, 'docs-examples', 'ts');
    mkdirSync(dir, { recursive: true });
    const files = running('ts').map(([, example]) => {
      const file = `${example.doc.replace(/\W/g, '-')}-${example.line}.mts`;
      writeFileSync(join(dir, file), `${example.body}\nexport {};\n`);
      return file;
    });
    // --skipLibCheck: the typings themselves are checked by tests/package (a third of the time here).
    const child = await run(process.execPath, [TSC, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext',
      '--skipLibCheck', ...files], { cwd: dir });
    const errors = Object.fromEntries(files.map((file) => [file, child.stdout.split('\n').filter((line) => line.startsWith(file)).join('\n')]));
    errors[''] = child.status === 0 || Object.values(errors).some(Boolean) ? '' : `${child.stdout}${child.stderr}`;
    return errors;
  };

  test.concurrent.each(running('ts'))('%s type-checks against the installed typings', async (_, example) => {
    const errors = await checkTypes();
    expect(errors['']).toBe('');
    expect(errors[`${example.doc.replace(/\W/g, '-')}-${example.line}.mts`]).toBe('');
  });

  test.concurrent.each(running('sh'))('%s: every command runs and prints what the doc shows', async (_, example) => {
    const dir = folderFor(example);
    const cli = `"${process.execPath}" "${join(tarball.installed, 'dist', 'cli.js')}"`;
    // Figures that depend on a given file (sizes, counts) differ with the stand-in.
    const masked = (line) => (example.given.length > 0 ? line.replace(/\d[\d,.]*/g, 'N') : line);
    const normal = (text) => text.trim().replace(/\s+/g, ' ');
    for (const [command, shown] of shellSteps(example.body)) {
      const child = await run('bash', ['-c', command.replaceAll('npx cuckoo-bloom-wasm', cli)], { cwd: dir });
      // query exits 1 when it found something (docs/CLI.md).
      const okStatus = /(^|\s)query\s/.test(command) ? [0, 1] : [0];
      const failed = okStatus.includes(child.status) ? {} : { status: child.status, stderr: child.stderr };
      expect({ command, ...failed }).toEqual({ command });
      const stdout = shown.filter((line) => !line.startsWith('stderr:'));
      if (stdout.length > 0) {
        expect({ command, stdout: child.stdout.trimEnd().split('\n').map((line) => masked(normal(line))) })
          .toEqual({ command, stdout: stdout.map((line) => masked(normal(line))) });
      }
      for (const line of shown.filter((text) => text.startsWith('stderr:'))) {
        expect({ command, stderr: masked(normal(child.stderr)) })
          .toEqual({ command, stderr: expect.stringContaining(masked(normal(line.slice('stderr:'.length)))) });
      }
    }
  });

  // One node process checks every not-run block's imports (a process each cost seconds).
  let missingImports; // a promise
  const checkImports = () => (missingImports ??= importCheck());
  const importCheck = async () => {
    const wanted = notRunJs.map(([name, example]) => [name, [...example.body.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(cuckoo-bloom-wasm(?:\/[\w-]+)?)'/g)]
      .map(([, names, entry]) => [entry, names.split(',').map((part) => part.trim()).filter((part) => part && !part.startsWith('type '))
        .map((part) => part.split(/\s+as\s+/)[0])])]);
    const script = `const missing = {};
      for (const [name, imports] of ${JSON.stringify(wanted)}) {
        missing[name] = [];
        for (const [entry, names] of imports) {
          const exports = await import(entry);
          for (const imported of names) if (!(imported in exports)) missing[name].push(entry + ': ' + imported);
        }
      }
      console.log(JSON.stringify(missing));`;
    const child = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: tarball.consumer });
    return { stderr: child.stderr, byBlock: JSON.parse(child.stdout || '{}') };
  };

  const notRunJs = notRun.filter((example) => example.lang === 'js').map((example) => [label(example), example]);
  test.concurrent.each(notRunJs.length > 0 ? notRunJs : [['(none)', { body: '' }]])(
    '%s (not run): the names it imports from the package are exported', async (name) => {
      const { stderr, byBlock } = await checkImports();
      expect({ stderr, missing: byBlock[name] }).toEqual({ stderr: '', missing: [] });
    },
  );

  for (const example of notRun) test.skip(`${label(example)} not run: ${example.notRun}`, () => {});
});

/** Runs a process to its end: { status, signal, stdout, stderr }; killed after `timeout` ms. */
function run(command, args, { cwd, timeout = 120_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

/** [command, lines shown after it] for each command of a shell block (`#   ` lines are output). */
function shellSteps(body) {
  const steps = [];
  for (const line of body.split('\n')) {
    if (line.startsWith('#   ')) steps.at(-1)?.[1].push(line.slice(1).trim());
    else if (line.trim() !== '' && !line.trimStart().startsWith('#')) steps.push([line, []]);
  }
  return steps;
}
