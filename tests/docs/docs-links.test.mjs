// The README and the docs the package ships, as a reader of the installed package (or of
// npm's page) meets them: every link and image must lead somewhere. A relative target must
// be a file in the packed package (the tarball tests/package/installed-package.mjs packs once
// per run), and its #anchor a heading of that file (GitHub's slug rules); a file the package
// does not ship (docs/SCALABLE.md, tests/..., bench/...) may be linked only by this
// repository's absolute URL, which must name a file the repository has. The same for the
// docs the typings (dist/types, read in an editor's hover) name. Other sites are left alone.
// Also: the README stays a front door (at most 350 lines), and it and package.json's
// description name every filter type.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from '@jest/globals';
import * as lib from 'cuckoo-bloom-wasm';
import { useInstalledPackage } from '../package/installed-package.mjs';
import { generatedDescription, generatedFactLists, generatedReadme } from '../../.ci/type-lists.mjs';
import {
  brokenLinks, classifyLink, githubSlug, markdownAnchors, markdownLinks, REPOSITORY_URL, unshippedMentions,
} from '../helpers/markdown-links.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const README_MAX_LINES = 350;
// README.md and every Markdown file of docs/ that the package ships.
const CHECKED_DOCS = ['README.md', 'docs/GUIDE.md'];
// Contributor docs, the measurement log and the in-depth guides (the CLI reference, Redis
// and Redis Cluster, the exact index's internals, the threat model, URL blocklists): in the repository only
// (not shipped, to keep the package within 3 MB; the CLI prints its own help); shipped docs
// link to them by the repository's absolute URL.
const REPOSITORY_ONLY_DOCS = [
  'docs/ARCHITECTURE.md', 'docs/BENCHMARKS.md', 'docs/FORMAT.md', 'CONTRIBUTING.md',
  'docs/CLI.md', 'docs/EXACT-INDEX.md', 'docs/REDIS.md', 'docs/REDIS-CLUSTER.md', 'docs/SECURITY.md',
  'docs/URL-BLOCKLISTS.md',
];
const read = (path) => readFileSync(join(REPO, path), 'utf8');

const tarball = useInstalledPackage();
let shipped; // paths in the packed package
let repositoryFiles; // paths of the repository's files (tracked, or new and not ignored)
let repositoryDirs;

beforeAll(() => {
  shipped = new Set(tarball.packed.files.map((file) => file.path));
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: REPO, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024,
  }).split('\0').filter((path) => path !== '' && existsSync(join(REPO, path)));
  repositoryFiles = new Set(listed);
  repositoryDirs = new Set(listed.flatMap((path) => path.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
}, 150_000);

function context() {
  return { shipped, readShipped: read, repositoryFiles, repositoryDirs, readRepository: read };
}

/** README.md and every Markdown file of docs/ in the package. */
function shippedDocs() {
  return ['README.md', ...[...shipped].filter((path) => /^docs\/.*\.md$/.test(path)).sort()];
}

describe('links of the README and the shipped docs', () => {
  test('the package ships the README and the guides it links to', () => {
    expect(shippedDocs()).toEqual(expect.arrayContaining(['README.md', 'docs/GUIDE.md']));
    for (const path of REPOSITORY_ONLY_DOCS) expect({ path, shipped: shipped.has(path) }).toEqual({ path, shipped: false });
  });

  test.each(REPOSITORY_ONLY_DOCS)('%s (in the repository only): every link resolves to a file of the repository', (path) => {
    // Read on GitHub: a relative link resolves against the repository's files.
    expect(brokenLinks(path, read(path), { ...context(), shipped: repositoryFiles })).toEqual([]);
  });

  test('every document has links to check (the parser sees them)', () => {
    for (const path of ['README.md', 'docs/GUIDE.md']) expect(markdownLinks(read(path)).length).toBeGreaterThan(5);
  });

  test.each(CHECKED_DOCS)('%s: every link resolves inside the package or to a file of the repository', (path) => {
    expect(shipped.has(path)).toBe(true);
    expect(brokenLinks(path, read(path), context())).toEqual([]);
  });

  test('every Markdown file of docs/ that the package ships is checked above', () => {
    // A new guide goes into CHECKED_DOCS, so that its links are checked.
    expect(shippedDocs().filter((path) => !CHECKED_DOCS.includes(path))).toEqual([]);
  });
});

/**
 * The docs one typings file names (dist/types: JSDoc an editor shows), as readable problems:
 * `docs/X.md` (or a top-level `X.md`) must be a file of the package; a doc the package does
 * not ship must be named by the repository's absolute URL, which must name a file (and
 * heading) the repository has.
 */
function typingsDocProblems(path, text, where) {
  const problems = unshippedMentions(text, where.shipped)
    .filter((mention) => mention.path.startsWith('docs/'))
    .map((mention) => `${path}:${mention.line} ${mention.path}: not in the package (name it by ${REPOSITORY_URL}/blob/main/${mention.path})`);
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/(?<![\w./-])([A-Za-z][\w-]*\.md)\b/g)) {
      if (!where.shipped.has(match[1])) problems.push(`${path}:${index + 1} ${match[1]}: not in the package (docs/${match[1]}?)`);
    }
  });
  // Each repository URL as a Markdown link on its own line: brokenLinks checks file and heading.
  const urls = text.split('\n').map((line) => [...line.matchAll(new RegExp(`${REPOSITORY_URL.replace(/[.]/g, '\\.')}/[^\\s)'"\`<>]*`, 'g'))]
    .map(([url]) => `[link](${url.replace(/[.,;:]+$/, '')})`).join(' '));
  problems.push(...brokenLinks(path, urls.join('\n'), where));
  return problems;
}

describe('docs named by the typings', () => {
  /** The installed package's typings files. */
  const typings = () => [...shipped].filter((path) => /^dist\/types\/.*\.d\.c?ts$/.test(path)).sort();

  test('there are typings that name docs', () => {
    const texts = typings().map((path) => readFileSync(join(tarball.installed, path), 'utf8'));
    expect(texts.filter((text) => /docs\/[A-Z-]+\.md/.test(text)).length).toBeGreaterThan(5);
  });

  test('every doc the typings name is in the installed package, or named by the repository\'s URL', () => {
    const problems = typings().flatMap((path) => typingsDocProblems(path, readFileSync(join(tarball.installed, path), 'utf8'), context()));
    expect(problems).toEqual([]);
  });

  test('the check finds each kind of problem', () => {
    const fake = {
      shipped: new Set(['README.md', 'docs/GUIDE.md']),
      readShipped: () => '# Guide\n',
      repositoryFiles: new Set(['docs/SCALABLE.md']),
      repositoryDirs: new Set(['docs']),
      readRepository: () => '# Filters that grow\n\n## Speed\n',
    };
    const text = [
      '/** See docs/GUIDE.md and README.md; (docs/SCALABLE.md). */',
      ` * ${REPOSITORY_URL}/blob/main/docs/SCALABLE.md#speed, (${REPOSITORY_URL}/blob/main/docs/SCALABLE.md).`,
      ` * ${REPOSITORY_URL}/blob/main/docs/GONE.md and ${REPOSITORY_URL}/blob/main/docs/SCALABLE.md#size`,
      ' * EXPANDABLE.md',
    ].join('\n');
    expect(typingsDocProblems('x.d.cts', text, fake)).toEqual([
      expect.stringMatching(/^x\.d\.cts:1 docs\/SCALABLE\.md: not in the package/),
      'x.d.cts:4 EXPANDABLE.md: not in the package (docs/EXPANDABLE.md?)',
      expect.stringMatching(/^x\.d\.cts:3 .*GONE\.md: the repository has no file docs\/GONE\.md$/),
      expect.stringMatching(/^x\.d\.cts:3 .*#size: docs\/SCALABLE\.md has no heading with the anchor #size$/),
    ]);
  });
});

describe('the README is a front door', () => {
  test(`README.md is at most ${README_MAX_LINES} lines`, () => {
    const lines = read('README.md').split('\n');
    if (lines.at(-1) === '') lines.pop();
    expect(lines.length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  test('README.md names no docs/, tests/ or bench/ file the package lacks, except by a link to the repository', () => {
    expect(unshippedMentions(read('README.md'), shipped)).toEqual([]);
  });

  // The first sentence (the paragraph under the title) and package.json's description.
  const firstParagraph = () => read('README.md').split('\n\n').find((block) => !block.startsWith('#')).replace(/\s+/g, ' ');
  const description = () => JSON.parse(read('package.json')).description;

  test('the type lists of README.md and package.json are what FILTER_TYPES generates (`npm run docs` rewrites them)', async () => {
    await lib.init();
    expect(read('README.md')).toBe(generatedReadme(read('README.md'), lib));
    expect(description()).toBe(generatedDescription(description(), lib));
  });

  test("docs/CLI.md's lists of which types remove, grow, forget or stand in are what FILTER_TYPES generates", async () => {
    await lib.init();
    const cli = read('docs/CLI.md');
    expect(cli).toMatch(/<!-- types:removes -->/);
    expect(cli).toBe(generatedFactLists(cli, lib));
    // The reviewer's case (issue #41): expandable removes, and grows in place.
    const removes = [...cli.matchAll(/<!-- types:removes -->([^<]*)</g)].map((match) => match[1]);
    for (const list of removes) expect(list).toContain('`expandable`');
  });

  test.each([['README.md first paragraph', firstParagraph], ['package.json description', description]])(
    '%s names every filter type of FILTER_TYPES', (_, text) => {
      const said = text().toLowerCase();
      expect(lib.FILTER_TYPES.map((entry) => entry.label).filter((label) => !said.includes(label.toLowerCase()))).toEqual([]);
    },
  );
});

describe('the link checker itself', () => {
  const shippedSet = new Set(['README.md', 'docs/GUIDE.md', 'LICENSE']);
  const files = {
    'README.md': '# Title\n\n## Quick start: Node (ES module)\n',
    'docs/GUIDE.md': '# Guide\n\n## Memory: `free()` and `using`\n\n## Errors\n\n## Errors\n\n### The filter types, listed once: `FILTER_TYPES`\n',
    'docs/SCALABLE.md': '# Filters that grow\n\n## Speed\n',
  };
  const fake = {
    shipped: shippedSet,
    readShipped: (path) => files[path],
    repositoryFiles: new Set([...Object.keys(files), 'tests/reader.test.mjs']),
    repositoryDirs: new Set(['docs', 'tests']),
    readRepository: (path) => files[path],
  };
  const check = (text, from = 'README.md') => brokenLinks(from, text, fake);

  // [heading, the anchor GitHub gives it]
  const SLUGS = [
    ['Quick start: Node (ES module)', 'quick-start-node-es-module'],
    ['Memory: `free()` and `using`', 'memory-free-and-using'],
    ['The filter types, listed once: `FILTER_TYPES`', 'the-filter-types-listed-once-filter_types'],
    ['Seen in the last N seconds: [`RedisExpiringBloomFilter`](x.md)', 'seen-in-the-last-n-seconds-redisexpiringbloomfilter'],
    ['Caf\u00e9 \u00d7 2 \u2192 b', 'caf\u00e9--2--b'],
  ];

  test('GitHub slugs', () => {
    for (const [heading, slug] of SLUGS) expect(githubSlug(heading)).toBe(slug);
    expect([...markdownAnchors(files['docs/GUIDE.md'])]).toEqual(
      ['guide', 'memory-free-and-using', 'errors', 'errors-1', 'the-filter-types-listed-once-filter_types'],
    );
  });

  test('good links pass', () => {
    expect(check([
      '[guide](docs/GUIDE.md) [mem](docs/GUIDE.md#memory-free-and-using) [again](./docs/GUIDE.md#errors-1)',
      '[here](#quick-start-node-es-module) [licence](LICENSE) ![img](<docs/GUIDE.md>)',
      `[s](${REPOSITORY_URL}/blob/main/docs/SCALABLE.md#speed) [t](${REPOSITORY_URL}/blob/main/tests/reader.test.mjs)`,
      `[folder](${REPOSITORY_URL}/tree/main/tests) [issues](${REPOSITORY_URL}/issues) [npm](https://www.npmjs.com/)`,
      '`[in code](tests/x.mjs)`', '```md\n[in a block](bench/run.mjs)\n```',
    ].join('\n'))).toEqual([]);
    expect(check('[back](../README.md#title) [same](GUIDE.md#errors)', 'docs/GUIDE.md')).toEqual([]);
  });

  test('each kind of broken link is reported, with its line', () => {
    const problems = check([
      '[not shipped](docs/SCALABLE.md)',
      '[a test](tests/reader.test.mjs) [bench](bench/run.mjs)',
      '[no such heading](docs/GUIDE.md#memory)',
      '[no heading here](#nowhere)',
      `[gone](${REPOSITORY_URL}/blob/main/docs/GONE.md) [bad anchor](${REPOSITORY_URL}/blob/main/docs/SCALABLE.md#size)`,
      '[anchor into a non-Markdown file](LICENSE#x) [outside](../elsewhere.md)',
      '[ref]: bench/results.md',
    ].join('\n'));
    expect(problems).toEqual([
      expect.stringMatching(/^README\.md:1 docs\/SCALABLE\.md: docs\/SCALABLE\.md is not in the package/),
      expect.stringMatching(/^README\.md:2 tests\/reader\.test\.mjs: .* not in the package/),
      expect.stringMatching(/^README\.md:2 bench\/run\.mjs: .* not in the package/),
      expect.stringMatching(/^README\.md:3 .*: docs\/GUIDE\.md has no heading with the anchor #memory$/),
      expect.stringMatching(/^README\.md:4 #nowhere: README\.md has no heading/),
      expect.stringMatching(/^README\.md:5 .*GONE\.md: the repository has no file docs\/GONE\.md$/),
      expect.stringMatching(/^README\.md:5 .*#size: docs\/SCALABLE\.md has no heading with the anchor #size$/),
      expect.stringMatching(/^README\.md:6 LICENSE#x: LICENSE has no heading/),
      expect.stringMatching(/^README\.md:6 \.\.\/elsewhere\.md: points outside the package$/),
      expect.stringMatching(/^README\.md:7 bench\/results\.md: .* not in the package/),
    ]);
  });

  test('unshipped files named in the text are found; shipped ones and repository links are not', () => {
    const text = [
      'lookups probe every link (docs/SCALABLE.md). `tests/reader.test.mjs` compares them;',
      '`bench/batches.mjs` and `tests/redis/` too. See docs/GUIDE.md and [docs/GUIDE.md](docs/GUIDE.md).',
      `[\`tests/reader.test.mjs\`](${REPOSITORY_URL}/blob/main/tests/reader.test.mjs) and [docs/](${REPOSITORY_URL}/tree/main/docs/)`,
      '```sh\nnode bench/run.mjs\n```',
    ].join('\n');
    expect(unshippedMentions(text, shippedSet)).toEqual([
      { path: 'docs/SCALABLE.md', line: 1 },
      { path: 'tests/reader.test.mjs', line: 1 },
      { path: 'bench/batches.mjs', line: 2 },
      { path: 'tests/redis/', line: 2 },
    ]);
  });

  test('link kinds', () => {
    expect(classifyLink('https://example.com/a', 'README.md')).toEqual({ kind: 'external' });
    expect(classifyLink('mailto:a@b.c', 'README.md')).toEqual({ kind: 'external' });
    expect(classifyLink('FORMAT.md#layout', 'docs/GUIDE.md')).toEqual({ kind: 'relative', path: 'docs/FORMAT.md', anchor: 'layout' });
  });
});
