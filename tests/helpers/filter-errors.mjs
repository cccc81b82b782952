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
