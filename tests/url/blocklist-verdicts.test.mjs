// Three verdicts (#28): `listed` (confirmed by the exact companion), `possible`
// (the filter's maybe, no companion), `clear` (certain). Every entry of a real
// list (URLhaus, web-demo/data) is `listed` for every type a blocklist takes;
// the filter's false positives become `clear` once the companion is attached;
// a companion that is damaged or belongs to other bytes is refused, never used.
import { readFileSync } from 'node:fs';
import { parseList, UrlBlocklist, init, BloomFilter, splitConfirmation, confirmationPartName } from 'cuckoo-bloom-wasm';
import { prng } from '../helpers/keys.mjs';
import { codeOf } from '../helpers/filter-errors.mjs';

const ROOT = new URL('../../', import.meta.url);
const URLHAUS = readFileSync(new URL('web-demo/data/urlhaus-filter-online.txt', ROOT), 'utf8');
const GOLDEN = readFileSync(new URL('tests/golden/url-expression-set.confirm', ROOT));
const LISTED = parseList(URLHAUS).entries;
const LISTED_SET = new Set(LISTED);
const TYPES = ['binary-fuse', 'bloom', 'blocked-bloom', 'counting-bloom', 'cuckoo', 'scalable-bloom', 'scalable-cuckoo'];

beforeAll(() => init());


/** A URL that checks exactly this expression among its own ("host/path" → http://host/path). */
const urlOf = (expression) => `http://${expression}`;

/** Random unlisted URLs: random labels under common TLDs, with paths and a query. */
function benignUrls(count, seed) {
  const random = prng(seed);
  const label = () => Math.floor(random() * 2 ** 32).toString(36);
  const tlds = ['com', 'net', 'org', 'de', 'co.uk', 'co.jp', 'io'];
  return Array.from(
    { length: count },
    (_, i) => `https://${label()}.${label()}.${tlds[i % tlds.length]}/${label()}/${label()}/p.html?q=${i}`,
  );
}

describe.each(TYPES)('URLhaus as a %s blocklist', (type) => {
  let list;
  let companion;
  beforeAll(() => {
    list = UrlBlocklist.build(URLHAUS, { type, falsePositiveRate: 0.01 });
    companion = list.confirmation();
  });
  afterAll(() => list.free());

  test('every listed entry is listed, confirmed by the exact set, in the list as built and as read back', () => {
    const copy = UrlBlocklist.deserialize(list.serialize());
    try {
      copy.attachConfirmation(companion);
      list.attachConfirmation(companion);
      expect(LISTED.length).toBeGreaterThan(6000);
      for (const target of [list, copy]) {
        const missed = LISTED.filter((expression) => {
          const result = target.check(urlOf(expression));
          return result.verdict !== 'listed' || result.confirmedBy !== 'exact-set' || !LISTED_SET.has(result.match);
        });
        expect(missed).toEqual([]);
      }
    } finally {
      copy.free();
    }
  });

  test('without the companion a maybe is possible; with it, a false positive is clear', () => {
    const bare = UrlBlocklist.deserialize(list.serialize());
    const confirmed = UrlBlocklist.deserialize(list.serialize());
    try {
      confirmed.attachConfirmation(companion);
      let possible = 0;
      for (const url of benignUrls(3000, 0xbe9)) {
        const plain = bare.check(url);
        const checked = confirmed.check(url);
        expect(checked.verdict).toBe('clear');
        expect(checked.match).toBeNull();
        expect(bare.match(url)).toBe(plain.match); // match() keeps its meaning: the filter's first maybe
        expect(confirmed.match(url)).toBe(plain.match);
        if (plain.verdict === 'possible') {
          possible++;
          expect(plain.confirmedBy).toBeNull();
          expect(checked.confirmedBy).toBe('exact-set'); // the companion ruled the maybe out
        } else {
          expect(plain.verdict).toBe('clear');
          expect(checked.confirmedBy).toBeNull();
        }
      }
      // At 1% per URL some of 3,000 are maybes: the test exercises the companion.
      expect(possible).toBeGreaterThan(0);
    } finally {
      bare.free();
      confirmed.free();
    }
  });
});

test('a false positive before a listed expression does not hide it: the confirmed one is reported', () => {
  // A filter at 50% per lookup: most URLs' first expressions are false positives.
  const list = UrlBlocklist.build(['deep.example/a/b/c.html', 'other.example/x/'], { type: 'bloom', falsePositiveRate: 0.5 });
  try {
    list.attachConfirmation(list.confirmation());
    for (let i = 0; i < 200; i++) {
      const result = list.check(`https://s${i}.t${i}.deep.example/a/b/c.html`);
      expect(result).toMatchObject({ verdict: 'listed', match: 'deep.example/a/b/c.html', confirmedBy: 'exact-set' });
    }
  } finally {
    list.free();
  }
});

test('the companion costs about 54 bits per expression of URLhaus (64 for the raw hashes)', () => {
  const list = UrlBlocklist.build(URLHAUS);
  try {
    const bits = (list.confirmation().length * 8) / list.entryCount;
    expect(bits).toBeGreaterThan(50);
    expect(bits).toBeLessThan(56);
  } finally {
    list.free();
  }
});

test('a companion of other bytes, damaged bytes, and bytes of another kind are refused with a typed error', () => {
  const list = UrlBlocklist.build('evil.example\nbad.example/dl/x.exe\n', { type: 'bloom' });
  const other = UrlBlocklist.build('evil.example\n', { type: 'bloom' });
  const companion = list.confirmation();
  try {
    expect(codeOf(() => other.attachConfirmation(companion))).toBe('INVALID_ARGUMENT');
    expect(() => other.attachConfirmation(companion)).toThrow(/built for other blocklist bytes/);
    expect(other.hasConfirmation).toBe(false);
    expect(codeOf(() => list.attachConfirmation(list.serialize()))).toBe('WRONG_TYPE');
    const bloom = new BloomFilter({ capacity: 10 });
    expect(codeOf(() => list.attachConfirmation(bloom.serialize()))).toBe('WRONG_TYPE');
    bloom.free();
    expect(codeOf(() => list.attachConfirmation('bytes'))).toBe('INVALID_ARGUMENT');
    // Every truncation, and a flipped bit in every byte: CORRUPT (or a future version), never attached.
    for (let length = 0; length < companion.length; length++) {
      expect(codeOf(() => list.attachConfirmation(companion.subarray(0, length)))).toBe('CORRUPT');
    }
    const random = prng(0xdead);
    for (let at = 0; at < companion.length; at++) {
      const damaged = companion.slice();
      damaged[at] ^= 1 << Math.floor(random() * 8);
      expect(['CORRUPT', 'UNSUPPORTED_VERSION']).toContain(codeOf(() => list.attachConfirmation(damaged)));
    }
    expect(list.hasConfirmation).toBe(false);
    list.attachConfirmation(companion);
    expect(list.check('https://evil.example/').verdict).toBe('listed');
  } finally {
    list.free();
    other.free();
  }
});

test('an entry added after the companion drops it (its "not listed" would be wrong), so the new entry is possible', () => {
  const list = UrlBlocklist.create({ type: 'bloom', capacity: 100 });
  try {
    list.addLine('evil.example');
    list.attachConfirmation(list.confirmation());
    expect(list.check('http://evil.example/').verdict).toBe('listed');
    list.addLine('new.example');
    expect(list.hasConfirmation).toBe(false);
    expect(list.check('http://new.example/').verdict).toBe('possible');
    // A new companion covers both.
    list.attachConfirmation(list.confirmation());
    expect(list.check('http://new.example/').verdict).toBe('listed');
    expect(list.check('http://evil.example/').verdict).toBe('listed');
  } finally {
    list.free();
  }
});

test('a list read from bytes cannot make a companion (its expressions are unknown)', () => {
  const list = UrlBlocklist.build('evil.example\n');
  const copy = UrlBlocklist.deserialize(list.serialize());
  try {
    expect(codeOf(() => copy.confirmation())).toBe('UNSUPPORTED');
  } finally {
    list.free();
    copy.free();
  }
});

test('golden: the wasm build codes the same bytes as the native one, and reads the native file', () => {
  // tests/golden/url-expression-set.confirm: "host-0.example/" ... "host-599.example/", bound to checksum 0123456789abcdef.
  const list = UrlBlocklist.build(Array.from({ length: 600 }, (_, i) => `host-${i}.example`));
  try {
    const made = list.confirmation();
    expect(made.length).toBe(GOLDEN.length);
    // Equal but for the blocklist checksum each is bound to (params bytes 56-63) and the trailing checksum.
    const body = (bytes) => [...bytes.subarray(0, 56), ...bytes.subarray(64, bytes.length - 8)];
    expect(body(made)).toEqual(body(GOLDEN));
    // Read and fully checked in wasm: refused only as the companion of another list, naming the checksum it is bound to.
    expect(() => list.attachConfirmation(GOLDEN)).toThrow(/checksum 0123456789abcdef/);
    const damaged = Uint8Array.from(GOLDEN);
    damaged[200] ^= 4;
    expect(codeOf(() => list.attachConfirmation(damaged))).toBe('CORRUPT');
  } finally {
    list.free();
  }
});

test('golden split: the wasm build splits the golden companion into the native index and parts byte for byte, and reads them', () => {
  // tests/golden/url-expression-set.confirm.index and .confirm.parts/NNNN: the golden companion in parts of about 256 hashes.
  const index = readFileSync(new URL('tests/golden/url-expression-set.confirm.index', ROOT));
  const parts = [0, 1, 2].map((part) => readFileSync(new URL(`tests/golden/url-expression-set.confirm.parts/${confirmationPartName(part)}`, ROOT)));
  const split = splitConfirmation(GOLDEN, 256);
  expect(split.parts.length).toBe(parts.length);
  expect(Buffer.compare(Buffer.from(split.index), index)).toBe(0);
  split.parts.forEach((part, i) => expect(Buffer.compare(Buffer.from(part), parts[i])).toBe(0));
  // The golden index is bound to checksum 0123456789abcdef: another list refuses it, naming that checksum.
  const list = UrlBlocklist.build(Array.from({ length: 600 }, (_, i) => `host-${i}.example`));
  try {
    expect(() => list.attachConfirmationParts(index, async () => parts[0])).toThrow(/0123456789abcdef/);
    const damaged = Uint8Array.from(index);
    damaged[index.length - 20] ^= 1;
    expect(codeOf(() => list.attachConfirmationParts(damaged, async () => parts[0]))).toBe('CORRUPT');
  } finally {
    list.free();
  }
});
