// `cuckoo-bloom-wasm/reader` reads a blocklist's exact companion (core.reader.wasm,
// bindings/reader.cpp kind 2) and gives the full package's verdicts for the same bytes.
import { readFileSync } from 'node:fs';
import * as full from 'cuckoo-bloom-wasm';
import { prng } from '../helpers/keys.mjs';
import { codeOf } from '../helpers/filter-errors.mjs';
import { confirmedList, reader } from '../helpers/confirmed-list.mjs';

const ROOT = new URL('../../', import.meta.url);
const URLHAUS = readFileSync(new URL('web-demo/data/urlhaus-filter-online.txt', ROOT), 'utf8');


let list;
let bytes;
let companion;
beforeAll(async () => {
  ({ list, bytes, companion } = await confirmedList(URLHAUS, 0.02));
});
afterAll(() => list.free());

test('the reader confirms every listed entry and gives the full package verdict on every URL', () => {
  const read = reader.UrlBlocklistReader.deserialize(bytes);
  try {
    expect(read.check('http://evil.invalid/').verdict).toBe('clear');
    read.attachConfirmation(companion);
    expect(read.hasConfirmation).toBe(true);
    const entries = full.parseList(URLHAUS).entries;
    const missed = entries.filter((expression) => read.check(`http://${expression}`).verdict !== 'listed');
    expect(missed).toEqual([]);
    const random = prng(0x7ead);
    let ruledOut = 0;
    for (let i = 0; i < 5000; i++) {
      const url = `https://${Math.floor(random() * 2 ** 32).toString(36)}.example.com/${i}/x`;
      const got = read.check(url);
      expect(got).toEqual(list.check(url));
      if (got.confirmedBy === 'exact-set' && got.verdict === 'clear') ruledOut++;
    }
    expect(ruledOut).toBeGreaterThan(0); // at 2% per URL, some maybes were false positives the companion cleared
  } finally {
    read.free();
  }
});

test('the reader refuses damaged companions, companions of other bytes, and other kinds of bytes, as the full package does', () => {
  const read = reader.UrlBlocklistReader.deserialize(bytes);
  const other = full.UrlBlocklist.build('evil.example\n');
  try {
    expect(codeOf(() => read.attachConfirmation(other.confirmation()))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => read.attachConfirmation(bytes))).toBe('WRONG_TYPE');
    expect(codeOf(() => read.attachConfirmation(companion.subarray(0, companion.length - 1)))).toBe('CORRUPT');
    for (let at = 0; at < companion.length; at += 7) {
      const damaged = companion.slice();
      damaged[at] ^= 0x10;
      expect(['CORRUPT', 'UNSUPPORTED_VERSION']).toContain(codeOf(() => read.attachConfirmation(damaged)));
    }
    expect(read.hasConfirmation).toBe(false);
    read.attachConfirmation(companion.buffer.slice(companion.byteOffset, companion.byteOffset + companion.length));
    expect(read.hasConfirmation).toBe(true);
    read.free();
    expect(codeOf(() => read.check('http://evil.example/'))).toBe('FREED');
  } finally {
    read.free();
    other.free();
  }
});
