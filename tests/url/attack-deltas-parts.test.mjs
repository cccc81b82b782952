// Attacking issue #42's split companion together with list deltas (both
// entries): what a "maybe" fetched through the caller's callback may do to
// the verdicts, the time and the memory.
//  - a list with parts attached and deltas applied answers for the chain's
//    version: an entry a delta added is never clear, one it removed is not
//    listed (check and confirm);
//  - a callback resolving to bytes of another size than the index records is
//    CORRUPT before the bytes reach wasm memory (which never shrinks);
//  - a callback that never settles is UNAVAILABLE after PART_FETCH_TIMEOUT_MS,
//    and the next confirm fetches again;
//  - wrong, garbage and late parts are typed errors and change no verdict.
import { jest } from '@jest/globals';
import * as full from '../../dist/index.js';

const ROOT = new URL('../../', import.meta.url);
const reader = await import(new URL('dist/reader.import.cjs', ROOT).href);
await full.init();
await reader.init();

const HOSTS = Array.from({ length: 3000 }, (_, i) => `host${i}.example`);
const V1 = HOSTS.map((host) => `||${host}^`);
const GONE = HOSTS.slice(0, 40);
const NEW = Array.from({ length: 40 }, (_, i) => `fresh${i}.example`);
const base = full.UrlBlocklist.build(V1);
const FILTER = base.serialize();
const COMPANION = base.confirmation();
base.free();
const SPLIT = full.splitConfirmation(COMPANION);
const DELTA = full.UrlBlocklist.listDelta(FILTER, V1, { remove: GONE.map((host) => `||${host}^`), add: NEW.map((host) => `||${host}^`) });
const url = (host) => `https://${host}/`;
const serve = async (part) => SPLIT.parts[part];

const ENTRIES = [
  ['UrlBlocklist', full.UrlBlocklist],
  ['UrlBlocklistReader', reader.UrlBlocklistReader],
];

describe.each(ENTRIES)('%s', (_, Blocklist) => {
  const opened = (fetchPart = serve) => {
    const list = Blocklist.deserialize(FILTER);
    list.attachConfirmationParts(SPLIT.index, fetchPart);
    return list;
  };

  // Found by this suite: check and confirm with parts ignored the deltas (a
  // delta's added entry was clear, its removed one listed): url-list.ts now
  // passes its chain to ConfirmationParts.
  test('with parts and a delta, an added entry is listed, never clear, and a removed one is clear (check and confirm)', async () => {
    for (const order of ['parts first', 'delta first']) {
      const list = Blocklist.deserialize(FILTER);
      if (order === 'parts first') list.attachConfirmationParts(SPLIT.index, serve);
      list.applyDelta(DELTA);
      if (order === 'delta first') list.attachConfirmationParts(SPLIT.index, serve);
      try {
        // Nothing loaded yet: an added entry is certain from the delta alone.
        expect([order, NEW.filter((host) => list.check(url(host)).verdict !== 'listed')]).toEqual([order, []]);
        const confirmed = [];
        for (const host of [...NEW, ...GONE, ...HOSTS.slice(40, 140)]) confirmed.push(`${host} ${(await list.confirm(url(host))).verdict}`);
        const expected = [...NEW.map((h) => `${h} listed`), ...GONE.map((h) => `${h} clear`), ...HOSTS.slice(40, 140).map((h) => `${h} listed`)];
        expect([order, confirmed]).toEqual([order, expected]);
        // Every part loaded: the sync check agrees.
        expect([order, GONE.filter((host) => list.check(url(host)).verdict !== 'clear')]).toEqual([order, []]);
        expect([order, NEW.filter((host) => list.check(url(host)).verdict !== 'listed')]).toEqual([order, []]);
      } finally {
        list.free();
      }
    }
  });

  test('a part of another size than the index records is CORRUPT before it is copied into wasm memory', async () => {
    const huge = new Uint8Array(256 << 20);
    const memory = () => (Blocklist === full.UrlBlocklist ? full.internalRuntime().module.HEAPU8.length : null);
    const before = memory();
    const list = opened(async () => huge);
    try {
      const error = await list.confirm(url(HOSTS[7])).then(() => null, (thrown) => thrown);
      expect([error?.name, error?.code]).toEqual(['FilterError', 'CORRUPT']);
      if (before !== null) expect(memory()).toBe(before);
      expect(list.confirmationParts.partsLoaded).toBe(0);
      // The list answers as before: possible (nothing loaded), then listed with the right part.
      expect(list.check(url(HOSTS[7])).verdict).toBe('possible');
      list.attachConfirmationParts(SPLIT.index, serve);
      expect((await list.confirm(url(HOSTS[7]))).verdict).toBe('listed');
    } finally {
      list.free();
    }
  });

  test('a callback that never settles is UNAVAILABLE after PART_FETCH_TIMEOUT_MS; the next confirm fetches again', async () => {
    let hang = true;
    const list = opened((part) => (hang ? new Promise(() => {}) : serve(part)));
    jest.useFakeTimers();
    try {
      const outcome = list.confirm(url(HOSTS[9])).then(() => null, (thrown) => thrown);
      await jest.advanceTimersByTimeAsync(30_000);
      const error = await outcome;
      expect([error?.name, error?.code]).toEqual(['FilterError', 'UNAVAILABLE']);
      expect(list.check(url(HOSTS[9])).verdict).toBe('possible');
      hang = false;
      expect((await list.confirm(url(HOSTS[9]))).verdict).toBe('listed');
      expect(jest.getTimerCount()).toBe(0); // a settled fetch leaves no timer behind
    } finally {
      jest.useRealTimers();
      list.free();
    }
  });

  test('garbage, another part, a part of another build and a fetch still running at free() are typed errors; nothing turns clear', async () => {
    const other = full.UrlBlocklist.build(V1, { type: 'bloom' });
    const otherParts = full.splitConfirmation(other.confirmation()).parts;
    other.free();
    const cases = [
      ['another part', async (part) => SPLIT.parts[(part + 1) % SPLIT.parts.length], 'CORRUPT'],
      ['another build', async (part) => otherParts[part], 'CORRUPT'],
      ['a string', async () => 'garbage', 'INVALID_ARGUMENT'],
      ['a DataView', async (part) => new DataView(SPLIT.parts[part].buffer), 'INVALID_ARGUMENT'],
      ['truncated', async (part) => SPLIT.parts[part].subarray(1), 'CORRUPT'],
    ];
    const list = Blocklist.deserialize(FILTER);
    try {
      for (const [what, fetchPart, code] of cases) {
        list.attachConfirmationParts(SPLIT.index, fetchPart);
        const error = await list.confirm(url(HOSTS[11])).then(() => null, (thrown) => thrown);
        expect([what, error?.name, error?.code]).toEqual([what, 'FilterError', code]);
        expect([what, HOSTS.filter((host) => list.check(url(host)).verdict === 'clear')]).toEqual([what, []]);
      }
    } finally {
      list.free();
    }
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    const freed = opened(async (part) => {
      await gate;
      return SPLIT.parts[part];
    });
    const pending = freed.confirm(url(HOSTS[13])).then(() => null, (thrown) => thrown);
    freed.free();
    release();
    const error = await pending;
    expect([error?.name, error?.code]).toEqual(['FilterError', 'FREED']);
  });
});
