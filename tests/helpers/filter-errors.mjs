// The check every suite makes of a refused call: it threw a FilterError with
// the exact `code` and a message that says something. Kept apart from
// keys.mjs, which must not depend on the package under test.
import { FilterError } from 'cuckoo-bloom-wasm';
import { thrown } from './keys.mjs';

/** Runs `fn`, expects it to throw a FilterError with `code` (and a non-empty message), and returns the error. */
export function expectCode(fn, code) {
  const error = thrown(fn);
  expect(error).toBeInstanceOf(FilterError);
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  return error;
}

/**
 * The FilterError code `run` threw, or null when it returned; anything else it threw is
 * thrown on (a RangeError or TypeError fails the test). A FilterError of any entry's bundle
 * counts (the reader's, the shared entry's, a suite's own build): `instanceof` reads the
 * mark every copy of the class sets.
 */
export function codeOf(run) {
  try {
    run();
  } catch (error) {
    if (error instanceof FilterError) return error.code;
    throw error;
  }
  return null;
}
