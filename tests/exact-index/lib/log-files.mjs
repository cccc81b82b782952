// Shared by the file-index suites: a private temporary directory for their log
// files (made after init(), removed when the suite ends), and the code of a
// refused call.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilterError, init } from '../../../dist/index.import.cjs';

/**
 * Registers the suite's beforeAll/afterAll; returns `freshPath()`, a new log
 * path in the directory on every call (`freshPath('name.log')` for a fixed one).
 */
export function logDirectory(prefix) {
  let directory = null;
  let run = 0;
  beforeAll(async () => {
    await init();
    directory = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  return (name = `log-${run++}.log`) => join(directory, name);
}

/** The FilterError code `run` throws, or 'no error' (anything else fails the test). */
export function codeOf(run) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FilterError);
    return error.code;
  }
  return 'no error';
}
