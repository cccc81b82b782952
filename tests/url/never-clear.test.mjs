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
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/**
 * Lines listing expressions no other of them lists: what a removal may take
 * (a list holds an expression once however often its lines list it, so a
 * second line removing it would remove what it no longer holds).
 */
function oncePerExpression(lines) {
  const seen = new Set();
  return lines.filter((line) => {
    const { expressions = [] } = full.parseListLine(line);
    if (expressions.length === 0 || expressions.some((expression) => seen.has(expression))) return false;
    for (const expression of expressions) seen.add(expression);
    return true;
  });
}

// Large enough that a Bloom filter at 0.2 per URL answers "maybe" for a few
// entries before they are added (checked below), small enough for seconds.
const HOSTS = 1800;
const LIST = makeList({ hosts: HOSTS, seed: 40 });
// The older list an update starts from: without the last lines (added back by
// the update), with lines the new list dropped (removed by it, where the type
// removes), and with some of the new list's own lines that the update removes
// and adds again.
const ADDED = LIST.lines.slice(-Math.floor(LIST.lines.length / 6));
const DROPPED = oncePerExpression(makeList({ hosts: 150, seed: 41 }).lines);
const READDED = oncePerExpression(LIST.lines.slice(100, 160));
const OLD_LINES = [...LIST.lines.slice(0, LIST.lines.length - ADDED.length), ...DROPPED];

// Expressions on the list's lines, repeats included.
const CANDIDATES = LIST.lines.reduce((sum, line) => sum + (full.parseListLine(line).expressions?.length ?? 0), 0);
// Room for the older list and every update to it: a cuckoo filter sized for the older list alone would be FULL.
const ROOM = 2 * CANDIDATES;

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

/** A live list's answers: its bytes read back, with its companion and without. */
function listVerdicts(list) {
  return verdictsOf(openFull, list.serialize(), list.confirmation(), LIST.expressions);
}

test('the list: entries in every syntax auto reads, with repeats, parsed as written down', () => {
  expect(TYPES.length).toBeGreaterThanOrEqual(7);
  expect(TYPES).toEqual(full.FILTER_TYPES.filter((entry) => !entry.forgets).map((entry) => entry.name));
  const parsed = parseList(LIST.text);
  expect(parsed.errors).toEqual([]);
  expect(parsed.entries).toEqual(LIST.expressions);
  // Repeats: more expressions on the lines than distinct ones.
  expect(CANDIDATES - LIST.expressions.length).toBeGreaterThan(100);
});

test('at 0.2 per URL a Bloom filter already answers "maybe" for some entries before they are added (what the bug needs)', () => {
  // Sized as the CLI sizes it: for the depths the list's entries need.
  const probe = UrlBlocklist.build(LIST.text);
  const { expressionDepth } = probe;
  probe.free();
  for (const type of ['bloom', 'blocked-bloom']) {
    const list = UrlBlocklist.create({ type, capacity: LIST.expressions.length, falsePositiveRate: 0.2, expressionDepth });
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
          // The live list too, with its own companion.
          list.attachConfirmation(list.confirmation());
          const live = clearEntries((url) => list.check(url), LIST.expressions);
          const read = bothReaders(list.serialize(), list.confirmation());
          return { withoutCompanion: read.withoutCompanion, withCompanion: [...live, ...read.withCompanion] };
        } finally {
          list.free();
        }
      }),
    );
  });

  test('create + addLine, line by line (the streaming build), counting each distinct expression once', async () => {
    expectNoneClear(
      await walk(({ type, rate }) => {
        // Sized, as the CLI and the demo size, for every expression read (a repeat is stored once).
        const list = UrlBlocklist.create({ type, capacity: CANDIDATES, falsePositiveRate: rate });
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
  // Each CLI run is a process of its own (a few tenths of a second): the paths
  // that differ by rate (build from a file: its sizing and collisions) walk
  // every rate; the one-pass build from stdin, query, and diff + patch, which
  // do the same at every rate, walk 0.2, where Bloom filters collide; update
  // walks both ends of the range.
  const ENDS = [RATES[0], RATES[RATES.length - 1]];
  const LOOSEST = [RATES[RATES.length - 1]];

  // Runs a job per combination, a few at a time (as many as the machine has cores).
  async function eachCombination(job, { types = TYPES, rates = RATES } = {}) {
    const pending = types.flatMap((type) => rates.map((rate) => ({ type, rate, name: `${type} @ ${rate}` })));
    const results = {};
    const lanes = Array.from({ length: Math.max(2, availableParallelism()) }, async () => {
      for (let next = pending.shift(); next !== undefined; next = pending.shift()) results[next.name] = await job(next);
    });
    await Promise.all(lanes);
    return Object.fromEntries(Object.keys(results).sort().map((name) => [name, results[name]]));
  }
  const file = (prefix, { type, rate }) => `${prefix}-${type}-${rate}.filter`;
  const fileVerdicts = (name, companion = `${name}.confirm`) => verdictsOf(openFull, readFileSync(at(name)), readFileSync(at(companion)), LIST.expressions);
  const allNone = (found) => Object.fromEntries(Object.keys(found).map((name) => [name, NONE_CLEAR]));

  let summaries;
  beforeAll(async () => {
    summaries = await eachCombination(async (combination) => {
      const { type, rate } = combination;
      const args = ['build', '--urls', '--type', type, '--fpr', String(rate)];
      const built = await runOk([...args, '--json', '--input', 'list.txt', '--output', file('built', combination)], { cwd: work.dir });
      if (rate === LOOSEST[0]) {
        // From stdin: one pass, into a growing filter; a type with no growing form needs --capacity (the CLI says so).
        const stdin = [...args, '--input', '-', '--output', file('stdin', combination), '--quiet'];
        const once = await runCli(stdin, { cwd: work.dir, input: LIST.text });
        if (once.code === 2 && /cannot grow/.test(once.stderr)) await runOk([...stdin, '--capacity', String(ROOM)], { cwd: work.dir, input: LIST.text });
        else if (once.code !== 0) throw new Error(`build from stdin exited ${once.code}: ${once.stderr}`);
      }
      return JSON.parse(built.stdout);
    });
  });

  test('build from a file (read by UrlBlocklist and the reader) and from stdin: no entry clear', () => {
    const fromFile = {};
    const fromStdin = {};
    for (const { type, rate, name } of combinations()) {
      const built = file('built', { type, rate });
      fromFile[name] = bothReaders(readFileSync(at(built)), readFileSync(at(`${built}.confirm`)));
      if (rate === LOOSEST[0]) fromStdin[name] = fileVerdicts(file('stdin', { type, rate }));
    }
    expect(fromFile).toEqual(allNone(fromFile));
    expect(fromStdin).toEqual(allNone(fromStdin));
  });

  test('build: added and entries are the distinct expressions, already present the repeats', () => {
    const expected = { expressions: CANDIDATES, added: LIST.expressions.length, alreadyPresent: CANDIDATES - LIST.expressions.length, entries: LIST.expressions.length };
    const counted = Object.fromEntries(
      Object.entries(summaries).map(([name, s]) => [name, { expressions: s.expressions, added: s.added, alreadyPresent: s.alreadyPresent, entries: s.entries }]),
    );
    expect(counted).toEqual(Object.fromEntries(Object.keys(counted).map((name) => [name, expected])));
  });

  test("query: every entry listed, with the companion beside the filter (the issue's case)", async () => {
    const input = LIST.expressions.map((expression) => `${urlOf(expression)}\n`).join('');
    const notListed = await eachCombination(
      async (combination) => {
        const { stdout } = await runOk(['query', file('built', combination)], { cwd: work.dir, input }, 1);
        return stdout.split('\n').filter((line) => line !== '' && !line.startsWith('listed\t'));
      },
      { rates: LOOSEST },
    );
    expect(notListed).toEqual(Object.fromEntries(Object.keys(notListed).map((name) => [name, []])));
  });

  test('update from the older list (--add; --remove then --add again where the type removes); diff + patch to the new build', async () => {
    const found = await eachCombination(
      async (combination) => {
        const { type, rate } = combination;
        const old = file('old', combination);
        const room = filterType(type).isStatic ? [] : ['--capacity', String(ROOM)];
        await runOk(['build', '--urls', '--type', type, '--fpr', String(rate), ...room, '--input', 'old.txt', '--output', old, '--quiet'], { cwd: work.dir });
        const built = file('built', combination);
        // The patch from the older build to the new one gives the new bytes, which the new companion confirms:
        // diffFilters + applyPatch here at both rates, the CLI's diff and patch at 0.2.
        const before = readFileSync(at(old));
        const after = readFileSync(at(built));
        const patched = Buffer.from(applyPatch(before, diffFilters(before, after)));
        expect(patched.equals(after)).toBe(true);
        const result = { patched: verdictsOf(openFull, patched, readFileSync(at(`${built}.confirm`)), LIST.expressions) };
        if (rate === LOOSEST[0]) {
          await runOk(['diff', old, built, '--output', `${old}.patch`, '--quiet'], { cwd: work.dir });
          await runOk(['patch', old, `${old}.patch`, '--output', file('patched', combination), '--quiet'], { cwd: work.dir });
          expect(readFileSync(at(file('patched', combination))).equals(after)).toBe(true);
          result.cliPatched = fileVerdicts(file('patched', combination), `${built}.confirm`);
        }
        if (!filterType(type).isStatic) {
          const changes = filterType(type).supportsRemove ? ['--remove', 'removed.txt', '--add', 'added.txt'] : ['--add', 'added-only.txt'];
          await runOk(['update', old, '--list', 'old.txt', ...changes, '--output', file('updated', combination), '--quiet'], { cwd: work.dir });
          result.updated = fileVerdicts(file('updated', combination));
        }
        return result;
      },
      { rates: ENDS },
    );
    const expected = Object.fromEntries(
      Object.entries(found).map(([name, result]) => [name, Object.fromEntries(Object.keys(result).map((path) => [path, NONE_CLEAR]))]),
    );
    expect(found).toEqual(expected);
    // Every type was updated (all but the static one) and patched by the CLI.
    expect(Object.values(found).filter((result) => 'updated' in result).length).toBe(dynamicTypes().length * ENDS.length);
    expect(Object.values(found).filter((result) => 'cliPatched' in result).length).toBe(TYPES.length);
  });
});
