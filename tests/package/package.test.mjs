// The package as users get it: `npm pack`, install the tarball into an empty
// folder, and use it from ESM and CommonJS consumers (separate node processes,
// also with the working directory elsewhere, so core.wasm must be found
// relative to the package) and from a TypeScript consumer type-checked against
// the installed .d.ts files.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, useInstalledPackage } from './installed-package.mjs';

const TSC = join(REPO, 'node_modules/typescript/bin/tsc');

// Packed and installed once per Jest run, shared with the docs suites (tests/docs).
const tarball = useInstalledPackage();
let consumer; // the folder the tarball is installed into
let elsewhere; // an unrelated working directory
let packed; // npm pack --json output for the tarball

function run(command, args, options = {}) {
  return execFileSync(command, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
    ...options,
  });
}

/** Runs a consumer file with node, returns the JSON it printed last. */
function runConsumer(file, cwd) {
  const output = run(process.execPath, [join(consumer, file)], { cwd });
  return JSON.parse(output.trim().split('\n').pop());
}

beforeAll(() => {
  ({ consumer, packed } = tarball);
  elsewhere = join(mkdtempSync(join(tmpdir(), 'cbw-package-elsewhere-')), 'somewhere', 'else');
  mkdirSync(elsewhere, { recursive: true });
});

afterAll(() => {
  if (elsewhere) rmSync(join(elsewhere, '..', '..'), { recursive: true, force: true });
});

describe('the tarball', () => {
  test('holds the built package, its licence and docs, and no sources or tests', () => {
    const files = packed.files.map((f) => f.path);
    for (const required of [
      'package.json',
      'LICENSE',
      'README.md',
      'dist/browser.js',
      'dist/index.cjs',
      'dist/index.import.cjs',
      'dist/inline.js',
      'dist/inline.cjs',
      'dist/inline.import.cjs',
      'dist/cli.js',
      'dist/core.mjs',
      'dist/core.wasm',
      'dist/small.js',
      'dist/core.small.mjs',
      'dist/core.small.wasm',
      'dist/reader.js',
      'dist/reader.cjs',
      'dist/reader.import.cjs',
      'dist/core.reader.mjs',
      'dist/core.reader.wasm',
      'dist/types/reader/index.d.ts',
      'dist/shared.js',
      'dist/shared.cjs',
      'dist/shared.import.cjs',
      'dist/core.shared.wasm',
      'dist/types/shared/index.d.ts',
      'dist/types/shared/index.d.cts',
      'dist/types/index.d.ts',
      'dist/types/index.d.cts',
    ]) {
      expect(files).toContain(required);
    }
    expect(files.filter((f) => /^(tests|cpp|bindings|js|web-demo|bench|\.ci|build[^/]*|node_modules)\//.test(f))).toEqual([]);
    expect(packed.name).toBe('cuckoo-bloom-wasm');
  });

  test('ships no source maps, and the package stays lean', () => {
    // Every bundle keeps its names as written (whitespace and syntax minified only), so a
    // stack trace reads without a map; the maps were 226 KB of the package (issue #33).
    expect(packed.files.filter((f) => f.path.endsWith('.map')).map((f) => f.path)).toEqual([]);
    for (const file of ['browser.js', 'index.cjs', 'reader.js', 'cli.js']) {
      expect(readFileSync(join(REPO, 'dist', file), 'utf8')).not.toMatch(/sourceMappingURL/);
    }
    // 6.6 MB unpacked while the maps embedded their sources, 4.7 MB without them; issue #33
    // sets the ceiling at 3 MB (the inline entry's wasm deflated, bundles minified without
    // renaming, the CLI on the library's entries, no source maps).
    const MAX_UNPACKED = 3_000_000;
    if (packed.unpackedSize > MAX_UNPACKED) {
      const largest = [...packed.files].sort((a, b) => b.size - a.size).slice(0, 15);
      throw new Error(
        `the package unpacks to ${packed.unpackedSize} bytes, over ${MAX_UNPACKED}; its largest files:\n` +
          largest.map((f) => `  ${String(f.size).padStart(9)}  ${f.path}`).join('\n'),
      );
    }
    expect(packed.unpackedSize).toBeLessThanOrEqual(MAX_UNPACKED);
  });

  // Every link of the README and the shipped docs (relative targets in the package, anchors,
  // the repository's absolute URLs): tests/docs/docs-links.test.mjs.

  test('says MIT in the manifest and in a LICENSE file, and where the project lives', () => {
    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(REPO, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    for (const url of [manifest.repository.url, manifest.homepage, manifest.bugs.url]) {
      expect(url).toMatch(/github\.com\/cuckoo-bloom-wasm\/cuckoo-bloom-wasm/);
    }
  });

  test('installs into an empty folder with one dependency: psl, the CLI\'s Public Suffix List', () => {
    const installed = join(consumer, 'node_modules/cuckoo-bloom-wasm');
    expect(existsSync(join(installed, 'dist/core.wasm'))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(['psl']);
    // Nothing but the package and psl (with punycode) was installed.
    const lock = JSON.parse(readFileSync(join(consumer, 'package-lock.json'), 'utf8'));
    expect(Object.keys(lock.packages).filter((p) => p !== '').sort()).toEqual(
      ['node_modules/cuckoo-bloom-wasm', 'node_modules/psl', 'node_modules/punycode'],
    );
  });

  test('the command runs through the bin link npm made, from another folder (as npx and a global install run it)', () => {
    // cli.js imports the library from the entries beside it: the link must resolve to them.
    const bin = join(consumer, 'node_modules/.bin/cuckoo-bloom-wasm');
    writeFileSync(join(elsewhere, 'keys.txt'), 'alpha\nbeta\n');
    run(bin, ['build', '--input', 'keys.txt', '--output', 'keys.filter'], { cwd: elsewhere });
    // Exit status 1: a key was present (docs/CLI.md).
    const query = spawnSync(bin, ['query', 'keys.filter', 'alpha', 'gamma'], { cwd: elsewhere, encoding: 'utf8', timeout: 60_000 });
    expect({ status: query.status, stdout: query.stdout, stderr: query.stderr }).toEqual({
      status: 1,
      stdout: 'present\talpha\nabsent\tgamma\n',
      stderr: '',
    });
  });

  test('what browsers and bundlers get imports no node: module', () => {
    const installed = join(consumer, 'node_modules/cuckoo-bloom-wasm/dist');
    for (const file of ['browser.js', 'inline.js', 'core.mjs']) {
      expect(readFileSync(join(installed, file), 'utf8')).not.toMatch(/["']node:/);
    }
  });
});

describe('the build', () => {
  test('`npm run build` says which tools are missing and how to install them', () => {
    let failure;
    try {
      run(process.execPath, [join(REPO, '.ci/build-package.mjs')], { env: { ...process.env, PATH: '/nonexistent' } });
    } catch (error) {
      failure = error;
    }
    expect(failure?.status).toBe(1);
    expect(failure.stderr).toMatch(/needs emcmake, cmake/);
    expect(failure.stderr).toMatch(/bash \.ci\/setup\.sh/);
    expect(failure.stderr).toMatch(/apt-get install -y emscripten cmake/);
    // It stopped before touching dist/.
    expect(existsSync(join(REPO, 'dist/core.wasm'))).toBe(true);
  });

  test('`npm pack` builds first (prepack), so a packed fresh clone is never empty', () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    expect(scripts.prepack).toBe('npm run build');
    expect(scripts.build).toBe('node .ci/build-package.mjs');
  });
});

// What each JS consumer does, and what it must report.
const CONSUMER_BODY = `
  const result = {};
  await init();
  await init(); // idempotent
  const bloom = new BloomFilter({ capacity: 1000, falsePositiveRate: 0.01, seed: 3 });
  bloom.add('https://example.com/a').addMany(['b', new TextEncoder().encode('c')]);
  result.has = bloom.has('https://example.com/a') && bloom.has('c');
  result.absent = bloom.has('never-added');
  const copy = deserialize(bloom.serialize());
  result.copyType = copy.type;
  result.copyIsBloom = copy instanceof BloomFilter;
  result.copyHas = copy.hasMany(['https://example.com/a', 'b', 'c']);
  const cuckoo = CuckooFilter.deserialize(new CuckooFilter({ capacity: 100 }).add('k').serialize());
  result.cuckooHas = cuckoo.has('k');
  try { BloomFilter.deserialize(new Uint8Array(10)); } catch (e) {
    result.error = { isFilterError: e instanceof FilterError, code: e.code };
  }
  bloom.free(); copy.free(); cuckoo.free();
  result.freed = bloom.freed;
  console.log(JSON.stringify(result));
`;
const EXPECTED = {
  has: true,
  absent: false,
  copyType: 'bloom',
  copyIsBloom: true,
  copyHas: [true, true, true],
  cuckooHas: true,
  error: { isFilterError: true, code: 'CORRUPT' },
  freed: true,
};

// cuckoo-bloom-wasm/inline embeds core.wasm deflated and inflates it with Node's zlib when
// process.getBuiltinModule gives it, else DecompressionStream, else the bundled fflate
// (js/src/runtime/inflate-embedded.ts). Each way must give a working module, and a damaged
// embed a LOAD_FAILED FilterError from init(), not a crash or a half-started module.
describe('the inline entry', () => {
  const INLINE_BODY = `
    const result = {};
    try {
      await m.init();
      const filter = new m.BloomFilter({ capacity: 100 }).add('inline');
      result.answers = [filter.has('inline'), filter.has('absent')];
      result.used = globalThis.used;
    } catch (error) {
      result.error = { isFilterError: error instanceof m.FilterError, code: error.code, message: error.message };
    }
    console.log(JSON.stringify(result));
  `;
  /** Copies dist/<file> beside the consumer, its embedded wasm damaged when `damaged`. */
  function copyOf(file, damaged) {
    let text = readFileSync(join(consumer, 'node_modules/cuckoo-bloom-wasm/dist', file), 'utf8');
    // The bundles' lines are at most ~160 characters (build-package.mjs, LINE_LIMIT), so the
    // base64 string runs on over line continuations (a backslash before each newline).
    const embedded = /"((?:[A-Za-z0-9+/=]|\\\n){100000,})"/.exec(text);
    expect(embedded).not.toBeNull();
    if (damaged) {
      const middle = embedded.index + 1 + Math.floor(embedded[1].length / 2);
      text = `${text.slice(0, middle)}${'A'.repeat(4000)}${text.slice(middle + 4000)}`;
    }
    const copy = `${damaged ? 'damaged' : 'intact'}-${file}`;
    writeFileSync(join(consumer, copy), text);
    return copy;
  }
  // Each prelude leaves one way open and records its use in globalThis.used.
  const zlib = `globalThis.used = [];
    const builtin = process.getBuiltinModule;
    process.getBuiltinModule = (id) => (globalThis.used.push('zlib:' + id), builtin.call(process, id));`;
  const stream = `globalThis.used = [];
    delete process.getBuiltinModule;
    const Native = globalThis.DecompressionStream;
    globalThis.DecompressionStream = class extends Native {
      constructor(format) { super(format); globalThis.used.push('DecompressionStream:' + format); }
    };`;
  const neither = 'globalThis.used = []; delete process.getBuiltinModule; delete globalThis.DecompressionStream;';
  const ways = [
    ['inline.js in Node (zlib)', 'inline.js', 'mjs', zlib, ['zlib:zlib']],
    ['inline.cjs in Node (zlib)', 'inline.cjs', 'cjs', zlib, ['zlib:zlib']],
    ['inline.js with DecompressionStream (browsers, Node < 20.16)', 'inline.js', 'mjs', stream, ['DecompressionStream:deflate']],
    ['inline.cjs with DecompressionStream (Node < 20.16)', 'inline.cjs', 'cjs', stream, ['DecompressionStream:deflate']],
    ['inline.js with neither (fflate: Firefox < 113, Safari < 16.4)', 'inline.js', 'mjs', neither, []],
  ];
  test.each(ways)('%s: the embedded wasm starts, and a damaged one is LOAD_FAILED', (_name, file, kind, prelude, used) => {
    for (const damaged of [false, true]) {
      const copy = copyOf(file, damaged);
      const script = `${damaged ? 'damaged' : 'intact'}-${file}.${kind === 'mjs' ? 'run.mjs' : 'run.cjs'}`;
      writeFileSync(
        join(consumer, script),
        kind === 'mjs'
          ? `${prelude}\nconst m = await import('./${copy}');\n${INLINE_BODY}`
          : `${prelude}\nconst m = require('./${copy}');\n(async () => {${INLINE_BODY}})();`,
      );
      const result = runConsumer(script, elsewhere);
      if (damaged) {
        expect(result.error).toEqual({ isFilterError: true, code: 'LOAD_FAILED', message: expect.stringMatching(/embedded core\.wasm/) });
      } else {
        expect(result).toEqual({ answers: [true, false], used });
      }
    }
  });
});

describe('JavaScript consumers', () => {
  beforeAll(() => {
    writeFileSync(
      join(consumer, 'consumer.mjs'),
      `import { init, BloomFilter, CuckooFilter, deserialize, FilterError } from 'cuckoo-bloom-wasm';\n${CONSUMER_BODY}`,
    );
    writeFileSync(
      join(consumer, 'consumer.cjs'),
      `const { init, BloomFilter, CuckooFilter, deserialize, FilterError } = require('cuckoo-bloom-wasm');\n` +
        `(async () => {${CONSUMER_BODY}})().catch((e) => { console.error(e); process.exit(1); });`,
    );
    // The wasm binary is exported too, for bundlers and explicit loading.
    writeFileSync(
      join(consumer, 'explicit-wasm.mjs'),
      `import { createRequire } from 'node:module';
       import { readFileSync } from 'node:fs';
       import { init, BloomFilter } from 'cuckoo-bloom-wasm';
       const wasmPath = createRequire(import.meta.url).resolve('cuckoo-bloom-wasm/core.wasm');
       await init({ wasm: readFileSync(wasmPath) });
       const f = new BloomFilter({ capacity: 10 }).add('x');
       const { version } = createRequire(import.meta.url)('cuckoo-bloom-wasm/package.json');
       console.log(JSON.stringify({ has: f.has('x'), version }));`,
    );
  });

  test('ESM (import) consumer, run from its own folder', () => {
    expect(runConsumer('consumer.mjs', consumer)).toEqual(EXPECTED);
  });

  test('CommonJS (require) consumer, run from its own folder', () => {
    expect(runConsumer('consumer.cjs', consumer)).toEqual(EXPECTED);
  });

  test('ESM consumer run with the working directory elsewhere', () => {
    expect(runConsumer('consumer.mjs', elsewhere)).toEqual(EXPECTED);
  });

  test('CommonJS consumer run with the working directory elsewhere', () => {
    expect(runConsumer('consumer.cjs', elsewhere)).toEqual(EXPECTED);
  });

  test('cuckoo-bloom-wasm/core.wasm and /package.json are exported; init({ wasm: bytes }) works', () => {
    expect(runConsumer('explicit-wasm.mjs', elsewhere)).toEqual({
      has: true,
      version: JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version,
    });
  });

  test('both builds write the same bytes', () => {
    const script = (load) =>
      `${load}
       const main = async () => { await m.init(); const f = new m.CuckooFilter({ capacity: 500, seed: 9 });
         for (let i = 0; i < 300; i++) f.add('k' + i);
         console.log(JSON.stringify(Array.from(f.serialize()))); };`;
    writeFileSync(join(consumer, 'bytes.mjs'), `${script("import * as m from 'cuckoo-bloom-wasm';")} await main();`);
    writeFileSync(join(consumer, 'bytes.cjs'), `${script("const m = require('cuckoo-bloom-wasm');")} main();`);
    const esm = runConsumer('bytes.mjs', elsewhere);
    const cjs = runConsumer('bytes.cjs', elsewhere);
    expect(esm.length).toBeGreaterThan(64);
    expect(cjs).toEqual(esm);
  });
});

describe('TypeScript consumer', () => {
  const tsc = (file) =>
    run(process.execPath, [TSC, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', file], {
      cwd: consumer,
    });

  /** Writes `source` to `file` in the consumer folder and type-checks it: what tsc printed ('' when it passed). */
  const typeCheck = (file, source) => {
    writeFileSync(join(consumer, file), source);
    try {
      return tsc(file);
    } catch (error) {
      return `${error.stdout}${error.stderr}`;
    }
  };

  // @ts-expect-error lines must be errors: the types reject what the runtime rejects.
  const USES = `
    await init();
    await init({ wasm: new Uint8Array(0) });
    const bloom: BloomFilter = new BloomFilter({ capacity: 1000, falsePositiveRate: 0.01, seed: 1 });
    const chained: BloomFilter = bloom.add('a').add(new Uint8Array([1, 2]));
    const found: boolean = chained.has('a');
    const many: boolean[] = bloom.hasMany(['a', new Uint8Array([3])]);
    bloom.addMany(['x', 'y']);
    const bytes: Uint8Array = bloom.serialize();
    const bits: Uint8Array = bloom.bits();
    const probes: number[] = bloom.positions('a');
    const sizes: number[] = [bloom.bitCount, bloom.hashCount, bloom.setBitCount, bloom.count, bloom.capacity,
      bloom.seed, bloom.byteLength, bloom.falsePositiveRate, bloom.estimatedFalsePositiveRate, bloom.bitsPerKey];
    bloom.union(new BloomFilter({ capacity: 1000, seed: 1 }));
    const any: AnyFilter = deserialize(bytes);
    if (any instanceof CuckooFilter) {
      const removed: boolean = any.remove('a');
    }
    const kind: FilterTypeName = any.type;
    // @ts-expect-error: a filter's type is one of the registered names, a union of literals, not any string
    const notAType: FilterTypeName = 'not-a-type';
    const blocked = BlockedBloomFilter.deserialize(new BlockedBloomFilter({ capacity: 10 }).serialize());
    const counting = new CountingBloomFilter({ capacity: 10 });
    const removedCount: boolean = counting.add('a').remove('a');
    const cuckoo = new CuckooFilter({ capacity: 100, bucketSize: 8, fingerprintBits: 16, maxKicks: 100 });
    const stored: boolean = cuckoo.tryAdd('k');
    const path: CuckooKick[] = cuckoo.lastKickPath();
    const where: { buckets: [number, number]; fingerprint: number } = cuckoo.locate('k');
    const fp: number = cuckoo.slot(0, 0);
    const geometry: number[] = [cuckoo.bucketCount, cuckoo.bucketSize, cuckoo.fingerprintBits, cuckoo.maxKicks,
      cuckoo.slotCount, cuckoo.loadFactor];
    const options: CuckooFilterOptions = { capacity: 5 };
    const base: Filter = blocked;
    try {
      bloom.free();
    } catch (error) {
      if (error instanceof FilterError) {
        const code: FilterErrorCode = error.code;
      }
    }
    {
      using scoped = new BloomFilter({ capacity: 10 });
      scoped.add('disposed at the end of the block');
    }
    const key: Key = 'k';
    const ready: boolean = isInitialized();

    // @ts-expect-error bucketSize must be 2, 4 or 8
    new CuckooFilter({ capacity: 10, bucketSize: 3 });
    // @ts-expect-error keys are strings or Uint8Arrays
    bloom.add(42);
    // @ts-expect-error capacity is required
    new BloomFilter({ falsePositiveRate: 0.01 });
    // @ts-expect-error Bloom filters cannot remove
    bloom.remove('a');
    // @ts-expect-error not an error code
    const wrong: FilterErrorCode = 'NOPE';
    // @ts-expect-error a cuckoo filter is not a Bloom filter to union with
    bloom.union(cuckoo);
  `;
  const IMPORTS = `{ init, isInitialized, deserialize, Filter, FilterError, BloomFilter, BlockedBloomFilter,
    CountingBloomFilter, CuckooFilter, type AnyFilter, type CuckooKick, type CuckooFilterOptions,
    type FilterErrorCode, type FilterTypeName, type Key }`;

  test('an ES module consumer (.mts) type-checks with --strict --module nodenext', () => {
    expect(typeCheck('consumer.mts', `import ${IMPORTS} from 'cuckoo-bloom-wasm';\n${USES}\nexport {};\n`)).toBe('');
  });

  test('a CommonJS consumer (.cts) type-checks with --strict --module nodenext', () => {
    const source = `import ${IMPORTS} from 'cuckoo-bloom-wasm';\nasync function main() {\n${USES}\n}\nvoid main();\n`;
    expect(typeCheck('consumer.cts', source)).toBe('');
  });

  test('a type error in the consumer is reported (the check can fail)', () => {
    const source = `import { BloomFilter } from 'cuckoo-bloom-wasm';\nconst n: number = new BloomFilter({ capacity: 1 }).has('a');\n`;
    expect(typeCheck('broken.mts', source)).toMatch(/TS2322/);
  });
});

describe('README examples', () => {
  // Every ```js block whose first line names a Node file (`// app.mjs`, `// app.cjs`)
  // is saved under that name in the consumer folder and run as it stands.
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const examples = [...readme.matchAll(/```js\n\/\/ ([\w-]+\.[cm]js)\n([\s\S]*?)```/g)].map(([, name, body]) => [name, body]);

  test('there are Node examples to run', () => {
    expect(examples.map(([name]) => name)).toEqual(expect.arrayContaining(['app.mjs', 'app.cjs', 'serverless.mjs']));
  });

  test.each(examples)('%s runs verbatim in an empty project, printing nothing on stderr', (name, body) => {
    writeFileSync(join(consumer, name), body);
    const child = spawnSync(process.execPath, [name], { cwd: consumer, encoding: 'utf8', timeout: 60_000 });
    expect({ status: child.status, stderr: child.stderr }).toEqual({ status: 0, stderr: '' });
    expect(child.stdout).not.toBe('');
  });
});
