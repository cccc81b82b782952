// core.reader.wasm has no giant function. Browsers compile wasm lazily, a whole function at
// its first call, on the page's main thread; Binaryen (-Oz) inlines every function with one
// caller, so each filter type's reader ended up inside cbw_reader_open: one 25 KB function
// (of 68 KB of code) compiled before a page's first answer, whatever type it read (in the
// demo, ~45 ms of a 4x-throttled phone's first verdict). bindings/wasm.cmake caps that
// inlining and FilterReader::read keeps each type's reader out of line.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';

/** The body size in bytes of each function defined in a wasm module (its code section). */
function functionBodySizes(bytes) {
  let at = 8; // magic and version
  const leb = () => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  while (at < bytes.length) {
    const id = bytes[at++];
    const length = leb();
    const end = at + length;
    if (id === 10) {
      const sizes = [];
      for (let count = leb(); count > 0; count--) {
        const size = leb();
        sizes.push(size);
        at += size;
      }
      return sizes;
    }
    at = end;
  }
  throw new Error('no code section');
}

describe('core.reader.wasm', () => {
  const bytes = readFileSync(new URL('../../dist/core.reader.wasm', import.meta.url));
  const sizes = functionBodySizes(bytes);

  test('the parser reads every function of the module (sizes add up to most of the file)', () => {
    const total = sizes.reduce((sum, size) => sum + size, 0);
    expect(sizes.length).toBeGreaterThan(100);
    expect(total).toBeGreaterThan(bytes.length / 2);
    expect(total).toBeLessThan(bytes.length);
  });

  test('no function is over 8 KB: a page compiles only the reader of the type it reads', () => {
    expect(Math.max(...sizes)).toBeLessThanOrEqual(8 * 1024);
  });
});
