// Writes tests/helpers/suite-seconds.json (what tests/helpers/longest-first-sequencer.mjs
// orders the Jest suites by) from a Jest run's JSON report:
//   node .ci/suite-seconds.mjs build/jest-results.json build/jest-redis-results.json
// .ci/test.sh writes those reports (its two Jest runs) on every run; refresh the list when suites were added
// or their times moved (order only: a stale list costs minutes, never a test).
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const reports = process.argv.slice(2);
if (reports.length === 0) {
  console.error('usage: node .ci/suite-seconds.mjs <jest --json report>...');
  process.exit(2);
}
const results = reports.flatMap((report) => JSON.parse(readFileSync(report, 'utf8')).testResults);
const seconds = {};
for (const result of results) {
  const path = relative(ROOT, result.name ?? result.testFilePath).split('\\').join('/');
  seconds[path] = Math.round((result.endTime - result.startTime) / 100) / 10;
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)));
writeFileSync(new URL('../tests/helpers/suite-seconds.json', import.meta.url), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`suite-seconds: ${Object.keys(sorted).length} suites, ${Object.values(sorted).reduce((a, b) => a + b, 0).toFixed(0)} s in all`);
