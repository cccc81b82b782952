// The shipped typings, checked as consumers see them: @arethetypeswrong/cli on
// the tarball (every resolution mode), then one small TypeScript project per
// resolution mode and strictness a user may have, type-checked with
// skipLibCheck off against the installed package (so the .d.ts/.d.cts files
// themselves are checked too).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { packAndInstall, REPO, runCapturing } from './tools/package.mjs';

const TSC = join(REPO, 'node_modules/typescript/bin/tsc');
const ATTW = join(REPO, 'node_modules/@arethetypeswrong/cli/dist/index.js');

let installed;

beforeAll(() => {
  installed = packAndInstall('cbw-typings-');
}, 120_000);

afterAll(() => installed?.remove());

// What any consumer writes: both entries, the common calls, typed results.
const USES = `
  import { init, BloomFilter, CuckooFilter, deserialize, FilterError, UrlBlocklist, type InitOptions, type Key } from 'cuckoo-bloom-wasm';
  import * as inline from 'cuckoo-bloom-wasm/inline';

  export async function main(): Promise<boolean> {
    const options: InitOptions = {};
    await init(options);
    await inline.init();
    const keys: Key[] = ['a', new Uint8Array([1])];
    const bloom = new BloomFilter({ capacity: 10, falsePositiveRate: 0.01 });
    bloom.addMany(keys);
    const bytes: Uint8Array = bloom.serialize();
    const again = deserialize(bytes);
    const cuckoo = new CuckooFilter({ capacity: 10, bucketSize: 4 });
    try {
      cuckoo.add('k');
    } catch (error) {
      if (error instanceof FilterError && error.code === 'FULL') return false;
    }
    bloom.free();
    // Every name the CLI's --type takes, aliases included, type-checks as a type option.
    const fused = UrlBlocklist.build(['bad.example/'], { type: 'fuse' });
    const growing = UrlBlocklist.create({ type: 'scalable', capacity: 10 });
    growing.free();
    return fused.match('http://bad.example/') !== null && again.has('a') && new inline.BloomFilter({ capacity: 1 }).add('x').has('x');
  }
`;

/**
 * Writes a project (package.json type, tsconfig options, one source file) under
 * the consumer folder and type-checks it; returns tsc's output ('' when clean).
 */
function typecheck(name, { type, compilerOptions, file, source }) {
  const folder = join(installed.consumer, 'typings', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, private: true, type }));
  writeFileSync(
    join(folder, 'tsconfig.json'),
    JSON.stringify({
      // skipLibCheck off checks this package's .d.ts files; TypeScript's own lib files
      // need no checking here (skipDefaultLibCheck), which keeps each run to seconds.
      compilerOptions: {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        skipDefaultLibCheck: true,
        types: [],
        target: 'ES2022',
        ...compilerOptions,
      },
      files: [file],
    }),
  );
  writeFileSync(join(folder, file), source);
  return runCapturing(process.execPath, [TSC, '-p', folder]).output;
}

const NODE16 = { module: 'node16', moduleResolution: 'node16', lib: ['ES2022'] };
const BUNDLER = { module: 'esnext', moduleResolution: 'bundler', lib: ['ES2022', 'DOM'] };

test('@arethetypeswrong/cli finds no problem in any resolution mode', () => {
  // core.wasm, core.small.wasm and core.reader.wasm are asset subpaths, not modules with types.
  const { status, output } = runCapturing(process.execPath, [
    ATTW,
    installed.tarball,
    '--exclude-entrypoints',
    './core.wasm',
    './core.small.wasm',
    './core.reader.wasm',
    './core.shared.wasm',
    '--format',
    'table',
    '--no-color',
    '--no-emoji',
  ]);
  expect(output).toContain('No problems found');
  expect(status).toBe(0);
});

describe('type-checks with skipLibCheck off', () => {
  test('node16, CommonJS project (require: the .d.cts typings, no TS1479)', () => {
    expect(typecheck('node16-cjs', { type: 'commonjs', compilerOptions: NODE16, file: 'main.ts', source: USES })).toBe('');
  });

  test('node16, ES module project', () => {
    expect(typecheck('node16-esm', { type: 'module', compilerOptions: NODE16, file: 'main.ts', source: USES })).toBe('');
  });

  test('moduleResolution bundler', () => {
    expect(typecheck('bundler', { type: 'module', compilerOptions: BUNDLER, file: 'main.ts', source: USES })).toBe('');
  });

  test('the reader entry, under node16 (CommonJS and ES) and bundler resolution', () => {
    const source = `import { init, FilterReader, UrlBlocklistReader, FilterError, type UrlCheck } from 'cuckoo-bloom-wasm/reader';
      export async function main(bytes: Uint8Array): Promise<string | null> {
        await init({ wasm: bytes });
        const filter = FilterReader.deserialize(bytes);
        const found: boolean = filter.has('a') || filter.has(new Uint8Array(1));
        filter.free();
        const check: UrlCheck = UrlBlocklistReader.deserialize(bytes.buffer as ArrayBuffer).check('https://a.example/');
        if (!found) throw new FilterError('CORRUPT', 'x');
        return check.match;
      }`;
    for (const [name, type, compilerOptions] of [
      ['reader-node16-cjs', 'commonjs', NODE16],
      ['reader-node16-esm', 'module', NODE16],
      ['reader-bundler', 'module', BUNDLER],
    ]) {
      expect(typecheck(name, { type, compilerOptions, file: 'main.ts', source })).toBe('');
    }
  });

  // Every entry, with no Node types and no DOM (types: [], lib ES2022): the typings are
  // self-contained, and the Redis client is a structural type, so a client object
  // with none of node-redis's or ioredis's methods is a type error.
  const EVERY_ENTRY = `
    import * as full from 'cuckoo-bloom-wasm';
    import * as small from 'cuckoo-bloom-wasm/small';
    import * as inline from 'cuckoo-bloom-wasm/inline';
    import * as reader from 'cuckoo-bloom-wasm/reader';
    import { RedisBloomFilter, RedisExpiringBloomFilter, type RedisClient, type RedisCommandRunner } from 'cuckoo-bloom-wasm/redis';
    import { FileCuckooIndex, init as initIndexFile, type OpenReport } from 'cuckoo-bloom-wasm/index-file';
    import { init as initRedis } from 'cuckoo-bloom-wasm/redis';
    import * as threads from 'cuckoo-bloom-wasm/shared';

    declare const client: RedisClient;
    const runner: RedisCommandRunner = { send: async () => 'OK', sendForBytes: async () => new Uint8Array(0) };

    export async function main(bytes: Uint8Array): Promise<number> {
      await Promise.all([full.init(), small.init(), inline.init(), reader.init(), initIndexFile(), initRedis(), threads.init()]);
      // The shared entry (issue #44: "Cannot find namespace 'WebAssembly'" without DOM or Node types).
      const pooled = new threads.SharedBloomFilter({ capacity: 10 });
      const handle: threads.SharedFilterHandle = pooled.handle();
      const attached = threads.attach(handle);
      const seen = new full.BloomFilter({ capacity: 10 });
      seen.addMany(new Set(['a', 'b']));
      const smaller = new small.CuckooFilter({ capacity: 10 });
      const read = reader.FilterReader.deserialize(bytes);
      const shared = await RedisBloomFilter.create(client, 'seen', { capacity: 10, durability: { replicas: 1, timeoutMs: 100 } });
      const fresh: boolean[] = await shared.addMany(new Set(['a', new Uint8Array([1])]));
      const recent = await RedisExpiringBloomFilter.open(runner, 'recent');
      const known: boolean[] = await recent.hasMany(['a']);
      const index = FileCuckooIndex.open('seen.log', { readOnly: true });
      const report: OpenReport = index.openReport;
      index.close();
      return Number(attached.has('a')) + Number(seen.has('a')) + Number(smaller.has('a')) + Number(read.has('a')) + fresh.length + known.length + report.keys +
        Number(new inline.BloomFilter({ capacity: 1 }).has('x'));
    }

    export async function typo(): Promise<void> {
      // @ts-expect-error -- neither sendCommand, call/callBuffer nor send/sendForBytes
      await RedisBloomFilter.create({ sendComand: async () => 'OK' }, 'seen', { capacity: 10 });
    }
  `;
  const BARE = { lib: ['ES2022'], types: [] };
  test.each([
    ['nodenext', 'module', { module: 'nodenext', moduleResolution: 'nodenext' }],
    ['node16', 'module', { module: 'node16', moduleResolution: 'node16' }],
    ['node16 (CommonJS project)', 'commonjs', { module: 'node16', moduleResolution: 'node16' }],
    ['bundler', 'module', { module: 'esnext', moduleResolution: 'bundler' }],
  ])('every entry type-checks with types: [] and lib ES2022 only, under %s', (name, type, resolution) => {
    const folder = `every-entry-${name.replace(/\W+/g, '-')}`;
    expect(typecheck(folder, { type, compilerOptions: { ...resolution, ...BARE }, file: 'main.ts', source: EVERY_ENTRY })).toBe('');
  });

  test('real node-redis and ioredis clients and clusters are RedisClients', () => {
    // This project has Node's types and both clients (the repository's own copies).
    const modules = join(REPO, 'node_modules');
    const source = `
      import { createClient, createCluster } from 'redis';
      import { Redis, Cluster } from 'ioredis';
      import type { RedisClient } from 'cuckoo-bloom-wasm/redis';
      export const clients: RedisClient[] = [
        createClient(),
        createCluster({ rootNodes: [] }),
        new Redis({ lazyConnect: true }),
        new Cluster([], { lazyConnect: true }),
      ];
    `;
    const own = join(installed.consumer, 'typings', 'real-clients', 'node_modules');
    mkdirSync(join(own, '@types'), { recursive: true });
    for (const name of ['redis', 'ioredis', '@types/node']) symlinkSync(join(modules, name), join(own, name), 'dir');
    const compilerOptions = {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      lib: ['ES2022'],
      types: ['node'],
      // The clients' own declarations are theirs to check.
      skipLibCheck: true,
    };
    expect(typecheck('real-clients', { type: 'module', compilerOptions, file: 'main.ts', source })).toBe('');
  });

  test('the bare ES2020 lib: no DOM, no Node types, no esnext.disposable needed', () => {
    const compilerOptions = { module: 'esnext', moduleResolution: 'bundler', lib: ['ES2020'], target: 'ES2020' };
    const source = `import { init, BloomFilter, UrlBlocklist } from 'cuckoo-bloom-wasm';
      export async function main(): Promise<boolean> {
        await init({ wasm: new Uint8Array(0) });
        return new BloomFilter({ capacity: 1 }).has('a') && UrlBlocklist.create({ capacity: 1 }).entryCount === 0;
      }`;
    expect(typecheck('bare-lib', { type: 'module', compilerOptions, file: 'main.ts', source })).toBe('');
  });

  test('exactOptionalPropertyTypes: an option may be given as possibly undefined', () => {
    const compilerOptions = { ...BUNDLER, exactOptionalPropertyTypes: true };
    const source = `import { init, BloomFilter, CuckooFilter, UrlBlocklist } from 'cuckoo-bloom-wasm';
      declare const rate: number | undefined;
      declare const seed: number | undefined;
      declare const wasm: Uint8Array | undefined;
      export async function main(): Promise<void> {
        await init({ wasm });
        new BloomFilter({ capacity: 10, falsePositiveRate: rate, seed });
        new CuckooFilter({ capacity: 10, falsePositiveRate: rate, maxKicks: undefined });
        UrlBlocklist.create({ capacity: 10, falsePositiveRate: rate, seed });
      }`;
    expect(typecheck('exact-optional', { type: 'module', compilerOptions, file: 'main.ts', source })).toBe('');
  });

  test('TypeScript >= 5.7: serialize() gives bytes a Blob, a Response and an ArrayBuffer accept', () => {
    const source = `import { BloomFilter, UrlBlocklist } from 'cuckoo-bloom-wasm';
      export function main(filter: BloomFilter, list: UrlBlocklist): number {
        const blob = new Blob([filter.serialize(), filter.bits(), list.serialize()]);
        const response = new Response(filter.serialize());
        const buffer: ArrayBuffer = filter.serialize().buffer;
        return blob.size + buffer.byteLength + (response.ok ? 1 : 0);
      }`;
    expect(typecheck('bytes', { type: 'module', compilerOptions: BUNDLER, file: 'main.ts', source })).toBe('');
  });

  test('a type error in a consumer is reported (the checks above can fail)', () => {
    const source = `import { BloomFilter } from 'cuckoo-bloom-wasm';
      export const wrong: number = new BloomFilter({ capacity: 1 }).has('a');`;
    expect(typecheck('broken', { type: 'module', compilerOptions: BUNDLER, file: 'main.ts', source })).toMatch(/TS2322/);
  });

  test('an unknown init option is a type error too', () => {
    const source = `import { init } from 'cuckoo-bloom-wasm';
      export const loading = init({ wsm: 'core.wasm' });`;
    expect(typecheck('unknown-option', { type: 'module', compilerOptions: BUNDLER, file: 'main.ts', source })).toMatch(/TS2353|TS2561/);
  });
});
