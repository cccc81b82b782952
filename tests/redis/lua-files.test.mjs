// The Redis scripts as files (js/src/redis/lua/): each script opens with its contract
// (KEYS, ARGV, what it returns, why it is atomic, what it refuses), each part with what
// it uses and defines; the package's redis entry carries every file as shipped (.ci/lua-shipped.mjs:
// comment lines dropped, byte for byte otherwise). Then, against a private redis-server, that
// the package sends exactly those texts (a script's parts, in its header's order, then
// its file) and names each to EVALSHA by the SHA-1 of that text.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { RedisBloomFilter, RedisExpiringBloomFilter } from 'cuckoo-bloom-wasm/redis';
import { describeIfRedis, keysOf, privateRedis, run } from './lib/suite.mjs';
import { luaAsShipped } from '../../.ci/lua-shipped.mjs';

const LUA = new URL('../../js/src/redis/lua/', import.meta.url);
const PARTS = new URL('parts/', LUA);
const DIST = new URL('../../dist/', import.meta.url);

const luaFiles = (folder) => readdirSync(folder).filter((name) => name.endsWith('.lua')).sort();
const read = (folder, file) => readFileSync(new URL(file, folder), 'utf8');
const scripts = new Map(luaFiles(LUA).map((file) => [file.replace(/\.lua$/, ''), read(LUA, file)]));
const parts = new Map(luaFiles(PARTS).map((file) => [file.replace(/\.lua$/, ''), read(PARTS, file)]));

/** The comment lines a file opens with. */
const headerOf = (text) => /^(?:--.*\n)*/.exec(text)[0];
/** A header line opening with `field` (`-- Refuses, writing nothing: ...`), its text on that line or, indented, the next. */
const fieldPattern = (field) => new RegExp(`^-- ${field}\\b[^:\\n]*:(?: *\\S|\\n--   \\S)`, 'm');
/** The parts a script's `-- Parts:` line names, in order. */
const partsOf = (text) => /^-- Parts: (.*)$/m.exec(headerOf(text))?.[1].trim().split(/\s+/) ?? [];
/** What the package should send for a script: its parts, then its file, each as shipped (comment lines dropped). */
const sentText = (text) => [...partsOf(text).map((part) => luaAsShipped(parts.get(part))), luaAsShipped(text)].join('');
const sha1 = (text) => createHash('sha1').update(text).digest('hex');

test('every script file opens with its contract: KEYS, ARGV, Returns, Atomic, Refuses', () => {
  expect([...scripts.keys()].length).toBeGreaterThan(0);
  for (const [name, text] of scripts) {
    const header = headerOf(text);
    expect({ name, header: header.startsWith(`-- ${name}: `) }).toEqual({ name, header: true });
    for (const field of ['KEYS', 'ARGV', 'Returns', 'Atomic', 'Refuses']) {
      expect({ name, field, present: fieldPattern(field).test(header) }).toEqual({ name, field, present: true });
    }
  }
});

test('every part opens with what it uses and defines, and is used; every part a script names exists', () => {
  for (const [name, text] of parts) {
    const header = headerOf(text);
    expect({ name, header: header.startsWith(`-- Part ${name}: `) }).toEqual({ name, header: true });
    for (const field of ['Uses', 'Defines']) {
      expect({ name, field, present: fieldPattern(field).test(header) }).toEqual({ name, field, present: true });
    }
  }
  const named = new Set([...scripts.values()].flatMap(partsOf));
  expect([...named].filter((part) => !parts.has(part))).toEqual([]);
  expect([...parts.keys()].filter((part) => !named.has(part))).toEqual([]);
});

test('the redis entry carries every .lua file as shipped, byte for byte (ASCII, so the bundle holds it unescaped)', () => {
  const bundle = readFileSync(new URL('redis.cjs', DIST), 'utf8');
  for (const [folder, files] of [[LUA, scripts], [PARTS, parts]]) {
    for (const [name, text] of files) {
      expect({ name, ascii: /^[\x09\x0a\x20-\x7e]*$/.test(text) }).toEqual({ name, ascii: true });
      expect({ name, endsWithNewline: text.endsWith('\n') }).toEqual({ name, endsWithNewline: true });
      // esbuild writes a text file as a template literal (or, without newlines, a quoted string).
      const shipped = luaAsShipped(text);
      expect({ name, commentsDropped: !/^\s*--(?! Parts:)/m.test(shipped), partsKept: partsOf(shipped).join(' ') === partsOf(text).join(' ') }).toEqual({ name, commentsDropped: true, partsKept: true });
      const template = `\`${shipped.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``;
      const found = bundle.includes(template) || bundle.includes(JSON.stringify(shipped));
      expect({ file: new URL(`${name}.lua`, folder).pathname, found }).toEqual({ file: new URL(`${name}.lua`, folder).pathname, found: true });
    }
  }
});

describeIfRedis('the scripts the package sends', () => {
  const redis = privateRedis({ clientName: 'ioredis' });
  const expected = new Map([...scripts].map(([name, text]) => [sha1(sentText(text)), { name, text: sentText(text) }]));

  /** An ioredis runner that records every script command it sends: [command, sha or source]. */
  function recording(client) {
    const sent = [];
    const note = ([command, body]) => {
      if (/^EVAL(SHA)?$/i.test(String(command))) sent.push([String(command).toUpperCase(), String(body)]);
    };
    return {
      sent,
      runner: {
        send: (args) => (note(args), client.call(...args)),
        sendForBytes: (args) => (note(args), client.callBuffer(...args)),
      },
    };
  }

  /** Every script at least once: create (allocate, create, persist), add, has, guard, snapshot (verify), load (commit-load), destroy, expiring add and has. */
  async function exerciseEveryScript(runner, prefix) {
    for (const slots of ['single', 'spread']) {
      const filter = await RedisBloomFilter.create(runner, `${prefix}:bloom:${slots}`, { capacity: 4000, shardBytes: 1024, slots });
      expect((await filter.addMany(keysOf('a', 200))).every(Boolean)).toBe(true);
      expect((await filter.hasMany(keysOf('a', 200))).every(Boolean)).toBe(true);
      const bytes = await filter.snapshot();
      await filter.load(bytes);
      expect(await filter.has('a0')).toBe(true);
      await filter.destroy();
    }
    const expiring = await RedisExpiringBloomFilter.create(runner, `${prefix}:expiring`, { windowMs: 3_600_000, capacity: 4000, shardBytes: 1024 });
    expect((await expiring.addMany(keysOf('e', 200))).every(Boolean)).toBe(true);
    expect((await expiring.hasMany(keysOf('e', 200))).every(Boolean)).toBe(true);
    await expiring.destroy();
  }

  test('EVALSHA names every script by the SHA-1 of its parts and its file, the text Redis caches', async () => {
    await run(redis.client, ['SCRIPT', 'FLUSH']);
    for (const [sha, { text }] of expected) expect(String(await run(redis.client, ['SCRIPT', 'LOAD', text]))).toBe(sha);
    const { sent, runner } = recording(redis.client);
    await exerciseEveryScript(runner, 'cached');
    // Each script was found under the SHA-1 the package sent: no NOSCRIPT, so no EVAL.
    expect(sent.filter(([command]) => command === 'EVAL')).toEqual([]);
    const named = new Set(sent.map(([, sha]) => sha));
    expect([...named].map((sha) => expected.get(sha)?.name ?? sha).sort()).toEqual([...scripts.keys()].sort());
  });

  test('after SCRIPT FLUSH, EVAL sends exactly that text', async () => {
    await run(redis.client, ['SCRIPT', 'FLUSH']);
    const { sent, runner } = recording(redis.client);
    await exerciseEveryScript(runner, 'flushed');
    const sources = new Set(sent.filter(([command]) => command === 'EVAL').map(([, source]) => source));
    const names = [...sources].map((source) => {
      const script = expected.get(sha1(source));
      expect(script?.text === source).toBe(true);
      return script.name;
    });
    expect(names.sort()).toEqual([...scripts.keys()].sort());
  });
});
