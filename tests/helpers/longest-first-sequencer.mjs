// Jest's order of the suites (jest.config.js testSequencer): the longest first, so the
// two workers never end with one long suite running alone while the other is idle.
// Jest's own sequencer does this only from its cache of the last run on this machine;
// a fresh CI machine has none, and ordered by file size the 165 s demo suite started
// late and ran on after everything else. Durations come from the cache when this
// machine has run the suite, else from tests/helpers/suite-seconds.json (one CI run,
// refreshed by .ci/suite-seconds.mjs); suites in neither run after those, the larger
// file first (Jest's own guess): refresh the list when a long suite is added. Order
// only: every suite still runs.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import Sequencer from '@jest/test-sequencer';

const BaseSequencer = Sequencer.default ?? Sequencer;
const SECONDS = JSON.parse(readFileSync(new URL('./suite-seconds.json', import.meta.url), 'utf8'));

export default class LongestFirstSequencer extends BaseSequencer {
  sort(tests) {
    const millis = (test) => {
      const cached = this.time(test);
      if (cached != null) return cached;
      const listed = SECONDS[relative(test.context.config.rootDir, test.path).split('\\').join('/')];
      return listed === undefined ? -1 : listed * 1000;
    };
    const bytes = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    const keyed = tests.map((test) => ({ test, ms: millis(test), size: bytes(test) }));
    keyed.sort((a, b) => b.ms - a.ms || b.size - a.size || (a.test.path < b.test.path ? -1 : 1));
    return keyed.map(({ test }) => test);
  }
}
