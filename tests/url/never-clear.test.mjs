// "A listed entry is never clear" (issue #40), on every path that makes or
// changes a blocklist: UrlBlocklist.build, create + addLine, add/remove (and
// remove then add again), diffFilters + applyPatch, the reader from bytes, the
// demo's own build, and the CLI's build (file and stdin), update from an older
// list, diff + patch and query. For every type a blocklist takes (asked of the
// registry) at per-URL rates 0.001 to 0.2, every entry of the list (several
// syntaxes, with repeats) is checked with its exact companion and without it:
// none may be `clear`. At 0.2 Bloom-type filters answer "maybe" for some
// entries before they are added (checked below): a companion that left those
// out turned a listed URL into `clear`.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build as bundle } from 'esbuild';
import * as full from '../../dist/index.js';
import { runCli, runOk, tempDir } from '../cli/helpers.mjs';
import { blocklistTypes, clearEntries, makeList, NONE_CLEAR, RATES, urlOf, verdictsOf } from './lib/verdict-oracle.mjs';

const { FilterError, UrlBlocklist, applyPatch, diffFilters, filterType, init, parseList } = full;
const ROOT = new URL('../../', import.meta.url);
const reader = await import(new URL('dist/reader.import.cjs', ROOT).href);

// Large enough that a Bloom filter at 0.2 per URL answers "maybe" for a few
// entries before they are added (checked below), small enough for seconds.
const HOSTS = 2500;
const LIST = makeList({ hosts: HOSTS, seed: 40 });
// The older list an update starts from: without the last lines (added back by
// the update), with lines the new list dropped (removed by it, where the type
// removes), and with some of the new list's own lines that the update removes
// and adds again.
const ADDED = LIST.lines.slice(-Math.floor(LIST.lines.length / 6));
const DROPPED = makeList({ hosts: 150, seed: 41 }).lines;
const READDED = LIST.lines.slice(100, 160);
const OLD_LINES = [...LIST.lines.slice(0, LIST.lines.length - ADDED.length), ...DROPPED];

// Room for the older list and every update to it: a cuckoo filter sized for the older list alone would be FULL.
const ROOM = 2 * LIST.expressions.length;

const text = (lines) => `${lines.join('\n')}\n`;
const openFull = (bytes) => UrlBlocklist.deserialize(bytes);
const openReader = (bytes) => reader.UrlBlocklistReader.deserialize(bytes);

let TYPES;
let work;
const at = (name) => join(work.dir, name);

beforeAll(async () => {
  await init();
  await reader.init();
  TYPES = blocklistTypes(full);
  work = tempDir('cbw-never-clear-');
  writeFileSync(at('list.txt'), LIST.text);
  writeFileSync(at('old.txt'), text(OLD_LINES));
  writeFileSync(at('added.txt'), text([...ADDED, ...READDED]));
  writeFileSync(at('removed.txt'), text([...DROPPED, ...READDED]));
  writeFileSync(at('added-only.txt'), text(ADDED));
});
afterAll(() => work.cleanup());

/** Each (type, rate) of the matrix, named for the failure report. */
function combinations(types = TYPES) {
  return types.flatMap((type) => RATES.map((rate) => ({ type, rate, name: `${type} @ ${rate}` })));
}

/** Runs `check` for every combination and returns the clear entries of each: all must be NONE_CLEAR. */
async function walk(check, types) {
  const found = {};
  for (const combination of combinations(types)) found[combination.name] = await check(combination);
  return found;
}

const expectNoneClear = (found) => expect(found).toEqual(Object.fromEntries(Object.keys(found).map((name) => [name, NONE_CLEAR])));
const dynamicTypes = () => TYPES.filter((type) => !filterType(type).isStatic);

/** Both readers of the same bytes (full package and `cuckoo-bloom-wasm/reader`) give no clear entry; their answers are merged. */
function bothReaders(bytes, companion, expressions = LIST.expressions) {
  const mine = verdictsOf(openFull, bytes, companion, expressions);
  const theirs = verdictsOf(openReader, bytes, companion, expressions);
  return {
    withoutCompanion: [...new Set([...mine.withoutCompanion, ...theirs.withoutCompanion])],
    withCompanion: [...new Set([...mine.withCompanion, ...theirs.withCompanion])],
  };
}

/** A live list's own answers (bytes read back, and the reader, checked too). */
function listVerdicts(list) {
  const bytes = list.serialize();
  const companion = list.confirmation();
  return bothReaders(bytes, companion);
}

test('the list: entries in every syntax auto reads, with repeats, parsed as written down', () => {
  expect(TYPES.length).toBeGreaterThanOrEqual(7);
  expect(TYPES).toEqual(full.FILTER_TYPES.filter((entry) => !entry.forgets).map((entry) => entry.name));
  const parsed = parseList(LIST.text);
  expect(parsed.errors).toEqual([]);
  expect(parsed.entries).toEqual(LIST.expressions);
  // Repeats: more expressions on the lines than distinct ones.
  const total = LIST.lines.reduce((sum, line) => sum + (full.parseListLine(line).expressions?.length ?? 0), 0);
  expect(total - LIST.expressions.length).toBeGreaterThan(100);
});

test('at 0.2 per URL a Bloom filter already answers "maybe" for some new entries (what the bug needs)', () => {
  for (const type of ['bloom', 'blocked-bloom']) {
    const list = UrlBlocklist.create({ type, capacity: LIST.expressions.length, falsePositiveRate: 0.2 });
    let collisions = 0;
    for (const expression of LIST.expressions) {
      if (list.filter.has(expression)) collisions++;
      list.addLine(expression, 'plain');
    }
    list.free();
    expect(collisions).toBeGreaterThan(0);
  }
});

describe('the library', () => {
  test('UrlBlocklist.build, read back by UrlBlocklist and UrlBlocklistReader', async () => {
    expectNoneClear(
      await walk(({ type, rate }) => {
        const list = UrlBlocklist.build(LIST.text, { type, falsePositiveRate: rate });
        try {
          // The live list too: without a companion, then with its own.
          const bare = clearEntries((url) => list.check(url), LIST.expressions);
          list.attachConfirmation(list.confirmation());
          const confirmed = clearEntries((url) => list.check(url), LIST.expressions);
          const read = listVerdicts(list);
          return { withoutCompanion: [...bare, ...read.withoutCompanion], withCompanion: [...confirmed, ...read.withCompanion] };
        } finally {
          list.free();
        }
      }),
    );
  });

  test('create + addLine, line by line (the streaming build), counting each distinct expression once', async () => {
    expectNoneClear(
      await walk(({ type, rate }) => {
        const list = UrlBlocklist.create({ type, capacity: LIST.expressions.length, falsePositiveRate: rate });
        try {
          for (const line of LIST.lines) list.addLine(line);
          expect(list.entryCount).toBe(LIST.expressions.length);
          return listVerdicts(list);
        } finally {
          list.free();
        }
      }, dynamicTypes()),
    );
  });

  test('an older list updated with add (and remove, then add again, where the type removes), also when read from bytes', async () => {
    expectNoneClear(
      await walk(({ type, rate }) => {
        const removes = filterType(type).supportsRemove;
        const built = UrlBlocklist.build(text(OLD_LINES), { type, falsePositiveRate: rate, capacity: ROOM });
        // The update of a list read from bytes, given its list (as the CLI's update does).
        const read = UrlBlocklist.deserialize(built.serialize());
        try {
          read.attachConfirmation(built.confirmation());
          read.attachList(OLD_LINES);
          const found = { withoutCompanion: [], withCompanion: [] };
          for (const list of [built, read]) {
            if (removes) for (const line of [...DROPPED, ...READDED]) list.remove(line);
            for (const line of removes ? [...ADDED, ...READDED] : ADDED) list.add(line);
            expect(list.entryCount).toBe(LIST.expressions.length + (removes ? 0 : new Set(parseList(text(DROPPED)).entries).size));
            const verdicts = listVerdicts(list);
            found.withoutCompanion.push(...verdicts.withoutCompanion);
            found.withCompanion.push(...verdicts.withCompanion);
          }
          return found;
        } finally {
          built.free();
          read.free();
        }
      }, dynamicTypes()),
    );
  });

  test('diffFilters + applyPatch (full package and reader) give the new bytes, and its companion confirms them', async () => {
    expectNoneClear(
      await walk(({ type, rate }) => {
        const older = UrlBlocklist.build(text(OLD_LINES), { type, falsePositiveRate: rate });
        const newer = UrlBlocklist.build(LIST.text, { type, falsePositiveRate: rate });
        try {
          const before = older.serialize();
          const after = newer.serialize();
          const patch = diffFilters(before, after);
          const patched = applyPatch(before, patch);
          expect(Buffer.compare(Buffer.from(reader.applyPatch(before, patch)), Buffer.from(patched))).toBe(0);
          expect(Buffer.compare(Buffer.from(patched), Buffer.from(after))).toBe(0);
          return bothReaders(patched, newer.confirmation());
        } finally {
          older.free();
          newer.free();
        }
      }),
    );
  });
});

describe("the demo's build (web-demo/src/list-build.ts)", () => {
  let buildInChunks;
  beforeAll(async () => {
    // The page's module as the page runs it, with the package it imports left to Jest (dist/index.js).
    const { outputFiles } = await bundle({
      entryPoints: [new URL('web-demo/src/list-build.ts', ROOT).pathname],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      write: false,
      external: ['cuckoo-bloom-wasm'],
      logLevel: 'silent',
    });
    mkdirSync(at('demo'), { recursive: true });
    writeFileSync(at('demo/list-build.mjs'), outputFiles[0].text);
    ({ buildInChunks } = await import(pathToFileURL(at('demo/list-build.mjs')).href));
  });

  test('every type and rate the page offers and more', async () => {
    expectNoneClear(
      await walk(async ({ type, rate }) => {
        const built = await buildInChunks(LIST.text, type, rate, () => {}, () => false);
        try {
          expect(built.distinct).toBe(LIST.expressions.length);
          return listVerdicts(built.list);
        } finally {
          built.list.free();
        }
      }),
    );
  });
});

describe('the CLI', () => {
  // Runs the CLI jobs of every combination, a few at a time (each is a process of its own).
  async function eachCombination(job, types) {
    const pending = combinations(types);
    const results = {};
    const lanes = Array.from({ length: Math.max(2, availableParallelism()) }, async () => {
      for (let next = pending.shift(); next !== undefined; next = pending.shift()) results[next.name] = await job(next);
    });
    await Promise.all(lanes);
    return results;
  }
  const file = (prefix, { type, rate }) => `${prefix}-${type}-${rate}.filter`;
  const filesVerdicts = (name, expressions) => bothReaders(readFileSync(at(name)), readFileSync(at(`${name}.confirm`)), expressions);

  let summaries;
  beforeAll(async () => {
    // build from a file (two passes: sized by the input), and from stdin (one pass: a growing filter).
    summaries = await eachCombination(async (combination) => {
      const { type, rate } = combination;
      const args = ['build', '--urls', '--type', type, '--fpr', String(rate), '--json'];
      const fromFile = await runOk([...args, '--input', 'list.txt', '--output', file('built', combination)], { cwd: work.dir });
      const stdin = [...args, '--input', '-', '--output', file('stdin', combination), '--quiet'];
      const once = await runCli(stdin, { cwd: work.dir, input: LIST.text });
      // A type with no growing form needs --capacity from stdin (the CLI says so): the one-pass build all the same.
      if (once.code === 2 && /cannot grow/.test(once.stderr)) await runOk([...stdin, '--capacity', String(ROOM)], { cwd: work.dir, input: LIST.text });
      else if (once.code !== 0) throw new Error(`build from stdin exited ${once.code}: ${once.stderr}`);
      return JSON.parse(fromFile.stdout);
    });
  });

  test('build: no entry clear, from a file or stdin', async () => {
    expectNoneClear(await walk(async (combination) => filesVerdicts(file('built', combination))));
    expectNoneClear(await walk(async (combination) => filesVerdicts(file('stdin', combination))));
  });

  test('build: added and entries are the distinct expressions, already present the repeats', async () => {
    const candidates = LIST.lines.reduce((sum, line) => sum + (full.parseListLine(line).expressions?.length ?? 0), 0);
    const expected = { expressions: candidates, added: LIST.expressions.length, alreadyPresent: candidates - LIST.expressions.length, entries: LIST.expressions.length };
    const counted = Object.fromEntries(
      Object.entries(summaries).map(([name, s]) => [name, { expressions: s.expressions, added: s.added, alreadyPresent: s.alreadyPresent, entries: s.entries }]),
    );
    expect(counted).toEqual(Object.fromEntries(Object.keys(counted).map((name) => [name, expected])));
  });

  test('query: every entry listed with the companion, possible without it, at 0.2 (the issue\'s case)', async () => {
    const input = LIST.expressions.map((expression) => `${urlOf(expression)}\n`).join('');
    const notAnswered = (stdout, verdict) => stdout.split('\n').filter((line) => line !== '' && !line.startsWith(`${verdict}\t`));
    const rows = [];
    for (const type of TYPES) {
      const name = file('built', { type, rate: 0.2 });
      copyFileSync(at(name), at(`bare-${name}`)); // no <filter>.confirm beside it
      const confirmed = await runOk(['query', name], { cwd: work.dir, input }, 1);
      const bare = await runOk(['query', `bare-${name}`], { cwd: work.dir, input }, 1);
      rows.push([type, { withCompanion: notAnswered(confirmed.stdout, 'listed'), withoutCompanion: notAnswered(bare.stdout, 'possible') }]);
    }
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(TYPES.map((type) => [type, NONE_CLEAR])));
  });

  test('update from the older list (--add, and --remove then --add again where the type removes), and diff + patch', async () => {
    const found = await eachCombination(async (combination) => {
      const { type } = combination;
      const removes = filterType(type).supportsRemove;
      const old = file('old', combination);
      const room = filterType(type).isStatic ? [] : ['--capacity', String(ROOM)];
      await runOk(['build', '--urls', '--type', type, '--fpr', String(combination.rate), ...room, '--input', 'old.txt', '--output', old, '--quiet'], { cwd: work.dir });
      // diff + patch from the older build to the new one: the patched bytes are the new file's, which its companion confirms.
      const built = file('built', combination);
      const patch = `${old}.patch`;
      await runOk(['diff', old, built, '--output', patch, '--quiet'], { cwd: work.dir });
      await runOk(['patch', old, patch, '--output', file('patched', combination), '--quiet'], { cwd: work.dir });
      const patched = bothReaders(readFileSync(at(file('patched', combination))), readFileSync(at(`${built}.confirm`)), LIST.expressions);
      if (filterType(type).isStatic) return { update: NONE_CLEAR, patched };
      const changes = removes ? ['--remove', 'removed.txt', '--add', 'added.txt'] : ['--add', 'added-only.txt'];
      const updated = file('updated', combination);
      await runOk(['update', old, '--list', 'old.txt', ...changes, '--output', updated, '--quiet'], { cwd: work.dir });
      return { update: filesVerdicts(updated, LIST.expressions), patched };
    });
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((name) => [name, { update: NONE_CLEAR, patched: NONE_CLEAR }])));
  });
});
