// Attack on core.reader.wasm's out-of-line readers (readInto<Class>, Binaryen's one-caller
// inlining capped): for every filter type, bytes damaged by any single-byte change, or cut
// at any length, must give the reader what they give the full package: the same FilterError
// code, or, when both accept them, the same answers key by key (never a crash, never a
// different answer). reader.test.mjs samples 64 cuts and 64 flips and compares codes only.
import { beforeAll, describe, expect, test } from '@jest/globals';
import * as full from 'cuckoo-bloom-wasm';
import { makeKeys } from '../../bench/keys.mjs';
import { codeOf } from '../helpers/filter-errors.mjs';

const reader = await import(new URL('../../dist/reader.import.cjs', import.meta.url).href);
const KEYS = makeKeys(24, 0x5e9).strings;
const PROBES = [...KEYS, ...makeKeys(200, 0x5ea).strings];
const EXTRA = { 'expiring-bloom': { window: 60, clock: () => 0 } };

function fill(entry) {
  const options = { falsePositiveRate: 0.1, seed: 9, ...(EXTRA[entry.name] ?? {}) };
  if (entry.isStatic) return entry.from(KEYS, options);
  const filter = entry.create({ ...options, capacity: KEYS.length });
  filter.addMany(KEYS);
  return filter;
}

function outcome(open, bytes) {
  let filter;
  try {
    filter = open(bytes);
  } catch (error) {
    return `error ${codeOf(() => { throw error; })}`;
  }
  try {
    return `ok ${PROBES.map((key) => (filter.has(key) ? 1 : 0)).join('')}`;
  } finally {
    filter.free();
  }
}

beforeAll(async () => {
  await full.init();
  await reader.init();
});

describe.each(full.FILTER_TYPES.map((entry) => [entry.name, entry]))('%s', (_name, entry) => {
  test('every cut and every byte XORed with 0x01, 0x80 and 0xff: the reader answers as the full package', () => {
    const filter = fill(entry);
    const bytes = filter.serialize();
    filter.free();
    const mismatches = [];
    const compare = (what, damaged) => {
      const want = outcome((b) => full.deserialize(b), damaged);
      const got = outcome((b) => reader.FilterReader.deserialize(b), damaged);
      if (got !== want && mismatches.length < 5) mismatches.push(`${what}: full ${want.slice(0, 40)} reader ${got.slice(0, 40)}`);
    };
    for (let length = 0; length < bytes.length; length++) compare(`cut at ${length}`, bytes.slice(0, length));
    const limit = Math.min(bytes.length, 600);
    for (let at = 0; at < limit; at++) {
      for (const mask of [0x01, 0x80, 0xff]) {
        const damaged = bytes.slice();
        damaged[at] ^= mask;
        compare(`byte ${at} ^ ${mask}`, damaged);
      }
    }
    expect(mismatches).toEqual([]);
  }, 30_000);
});
