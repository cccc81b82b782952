// Attacking issue #42's list deltas byte by byte (both entries), and the paths
// to a list's state that go through a delta:
//  - every bit of a two-delta chain flipped, every truncation, garbage
//    appended, a delta out of order, twice, stale or of another base: a typed
//    FilterError, and the list answers exactly as before;
//  - a set copied in from another delta, the checksum recomputed (what anyone
//    can do: XXH3 is not a MAC), is CORRUPT: each set is bound to the version
//    the delta names;
//  - a UrlBlocklist with deltas applied: serialize() is refused (the base's
//    filter with the chain's count would be bytes of no version), and the base
//    companion still attaches.
import * as full from '../../dist/index.js';
import { xxh3 } from '../helpers/xxh3.mjs';

const ROOT = new URL('../../', import.meta.url);
const reader = await import(new URL('dist/reader.import.cjs', ROOT).href);
await full.init();
await reader.init();
const { UrlBlocklist } = full;

const V1 = ['||evil.example^', '||bad.example^', 'phish.example/login/'];
const V2 = ['||evil.example^', 'phish.example/login/', '||worse.example^'];
const URLS = [
  'https://evil.example/',
  'https://bad.example/',
  'https://worse.example/',
  'http://phish.example/login/x',
  'https://deep.x.y.z.example/a/b/c/d/e/f',
  'https://ok.example/',
];

/** Everything a list answers: each URL's verdict and match, its version, deltas, entries and depth. */
const state = (list) =>
  JSON.stringify([
    URLS.map((url) => {
      const { verdict, match } = list.check(url);
      return [verdict, match, list.match(url)];
    }),
    list.versionIdentity,
    list.deltaCount,
    list.entryCount,
    list.expressionDepth,
  ]);

// A delta's fields (list-delta-format.ts): header 52 bytes, the added set, the removed set, the screen, the checksum.
const HEADER = 52;
function fieldsOf(delta) {
  const view = new DataView(delta.buffer, delta.byteOffset, delta.length);
  const [a, r, s] = [32, 36, 40].map((offset) => view.getUint32(offset, true));
  return {
    header: delta.slice(0, HEADER),
    added: delta.slice(HEADER, HEADER + a),
    removed: delta.slice(HEADER + a, HEADER + a + r),
    screen: delta.slice(HEADER + a + r, HEADER + a + r + s),
  };
}
/** The delta of these fields, its lengths and checksum recomputed (as an attacker can). */
function resealed({ header, added, removed, screen }) {
  const out = new Uint8Array(HEADER + added.length + removed.length + screen.length + 8);
  out.set(header);
  const view = new DataView(out.buffer);
  view.setUint32(32, added.length, true);
  view.setUint32(36, removed.length, true);
  view.setUint32(40, screen.length, true);
  out.set(added, HEADER);
  out.set(removed, HEADER + added.length);
  out.set(screen, HEADER + added.length + removed.length);
  view.setBigUint64(out.length - 8, xxh3(out.subarray(0, out.length - 8)), true);
  return out;
}

describe.each(['binary-fuse', 'cuckoo'])('%s', (type) => {
  const base = UrlBlocklist.build(V1, { type });
  const FILTER = base.serialize();
  const COMPANION = base.confirmation();
  base.free();
  const D1 = UrlBlocklist.listDelta(FILTER, V1, V2);
  const D2 = UrlBlocklist.listDelta(D1, V2, { add: ['deep.x.y.z.example/a/b/c/d/e/'] });
  // A delta that changes the entry count (what a built list's serialize() writes).
  const GROWS = UrlBlocklist.listDelta(FILTER, V1, { add: ['||worse.example^'] });

  describe.each([
    ['UrlBlocklist', UrlBlocklist],
    ['UrlBlocklistReader', reader.UrlBlocklistReader],
  ])('%s', (_, Blocklist) => {
    const client = (deltas) => {
      const list = Blocklist.deserialize(FILTER);
      list.attachConfirmation(COMPANION);
      for (const delta of deltas) list.applyDelta(delta);
      return list;
    };
    /** What applying `bytes` after `prefix` did: the error's name and code, and whether the list answers as before. */
    const attempt = (prefix, bytes) => {
      const list = client(prefix);
      const before = state(list);
      try {
        list.applyDelta(bytes);
        return 'accepted';
      } catch (error) {
        return `${error?.name} ${typeof error?.code === 'string' ? 'coded' : 'uncoded'} ${state(list) === before ? 'unchanged' : 'CHANGED'}`;
      } finally {
        list.free();
      }
    };

    test('every bit flipped, every truncation and garbage appended: a typed error, the list unchanged', () => {
      const outcomes = new Map();
      const note = (what, outcome) => outcomes.set(outcome, [...(outcomes.get(outcome) ?? []), what].slice(0, 5));
      for (const [prefix, delta, name] of [[[], D1, 'd1'], [[D1], D2, 'd2']]) {
        // One list per chain: a refused delta changes nothing, so the next attempt starts from the same state (checked).
        let list = client(prefix);
        const before = state(list);
        const attemptOn = (what, bytes) => {
          try {
            list.applyDelta(bytes);
            note(what, 'accepted');
            list.free();
            list = client(prefix);
          } catch (error) {
            note(what, `${error?.name} ${typeof error?.code === 'string' ? 'coded' : 'uncoded'} ${state(list) === before ? 'unchanged' : 'CHANGED'}`);
          }
        };
        // Every bit on binary fuse in the reader entry (what a client runs); every 4th elsewhere (the
        // delta's bytes do not depend on the type or the entry; the file stays under 30 s on a loaded machine).
        const stride = type === 'binary-fuse' && Blocklist === reader.UrlBlocklistReader ? 1 : 4;
        for (let bit = 0; bit < delta.length * 8; bit += stride) {
          const bytes = delta.slice();
          bytes[bit >> 3] ^= 1 << (bit & 7);
          attemptOn(`${name} bit ${bit}`, bytes);
        }
        for (let length = 0; length < delta.length; length += stride) attemptOn(`${name} cut at ${length}`, delta.slice(0, length));
        for (const extra of [1, 8, 1000]) {
          const bytes = new Uint8Array(delta.length + extra);
          bytes.set(delta);
          attemptOn(`${name} + ${extra}`, bytes);
        }
        list.free();
      }
      expect([...outcomes.keys()]).toEqual(['FilterError coded unchanged']);
    });

    test('out of order, twice, stale and another base: INVALID_ARGUMENT, the list unchanged', () => {
      const other = UrlBlocklist.build(V1, { type: type === 'cuckoo' ? 'binary-fuse' : 'cuckoo' });
      const otherDelta = UrlBlocklist.listDelta(other.serialize(), V1, V2);
      other.free();
      for (const [what, prefix, bytes] of [
        ['out of order', [], D2],
        ['twice', [D1], D1],
        ['stale', [D1, D2], D1],
        ['last again', [D1, D2], D2],
        ['another base', [], otherDelta],
      ]) {
        const list = client(prefix);
        const before = state(list);
        const error = (() => {
          try {
            list.applyDelta(bytes);
            return null;
          } catch (thrown) {
            return thrown;
          }
        })();
        expect([what, error?.name, error?.code, state(list) === before]).toEqual([what, 'FilterError', 'INVALID_ARGUMENT', true]);
        list.free();
      }
    });

    test('a set copied in from another base\'s delta, the checksum recomputed: CORRUPT, the list unchanged', () => {
      const other = UrlBlocklist.build(V1, { type: type === 'cuckoo' ? 'binary-fuse' : 'cuckoo' });
      const foreign = fieldsOf(UrlBlocklist.listDelta(other.serialize(), V1, [...V1, '||elsewhere.example^']));
      other.free();
      const own = fieldsOf(D1);
      for (const [what, forged] of [
        ['added', resealed({ ...own, added: foreign.added })],
        ['removed', resealed({ ...own, removed: foreign.removed })],
      ]) {
        expect([what, attempt([], forged)]).toEqual([what, 'FilterError coded unchanged']);
        const list = client([]);
        try {
          list.applyDelta(forged);
        } catch (error) {
          expect([what, error.code]).toEqual([what, 'CORRUPT']);
        }
        list.free();
      }
      // The resealing itself is faithful: D1's own fields resealed are D1.
      expect(Buffer.compare(Buffer.from(resealed(own)), Buffer.from(D1))).toBe(0);
    });
  });

  // Found by this suite: a built UrlBlocklist's serialize() after applyDelta
  // wrote the base filter with the chain's entry count, bytes of no version:
  // read back, an entry the delta added was clear and no delta applied to them
  // any more. Now refused.
  test('serialize() after applyDelta: refused, or bytes that still list what the delta added', () => {
    const list = UrlBlocklist.build(V1, { type });
    list.applyDelta(GROWS);
    let bytes;
    try {
      bytes = list.serialize();
    } catch (error) {
      expect(error.code).toBe('UNSUPPORTED');
      return;
    } finally {
      list.free();
    }
    const again = UrlBlocklist.deserialize(bytes);
    const verdict = again.check('https://worse.example/').verdict;
    again.free();
    expect(verdict).not.toBe('clear');
  });

  // Found by this suite, same cause: a built UrlBlocklist's identity for its
  // companion is the checksum of serialize(), which applyDelta changes (the
  // entry count), so the base's own companion is refused after a delta
  // (docs/URL-BLOCKLISTS.md: "a companion of the base bytes still attaches").
  test('a built list with a delta applied still takes its base companion', () => {
    const list = UrlBlocklist.build(V1, { type });
    try {
      const companion = list.confirmation();
      list.applyDelta(GROWS);
      list.attachConfirmation(companion);
      expect(list.check('https://bad.example/').verdict).toBe('listed');
      expect(list.check('https://worse.example/').verdict).toBe('listed');
      expect(list.check('https://ok.example/').verdict).toBe('clear');
    } finally {
      list.free();
    }
  });
});
