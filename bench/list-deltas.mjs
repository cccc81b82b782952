// List deltas (issue #42; docs/URL-BLOCKLISTS.md, "Updates by delta"): what
// an update ships, per type a blocklist takes, side by side with the filter
// patch (diffFilters between two fresh builds, the route before deltas), as
// shares of the base's filter + companion; then the cost of a check, and
// verdict equality with a fresh build on every entry and on `--urls` benign
// URLs (1,000,000 by default: the Jest suites take 100,000).
//
//   node bench/list-deltas.mjs [--entries 100000] [--urls 1000000] [--types binary-fuse,bloom]
//
// A 100k-entry list (tests/url/lib/delta-lists.mjs, fixed seeds); an update
// removes 1,000 and adds 1,000 (1%); then ten updates of 100 and 100 (0.1%).
// Exit 1 if any verdict differs from the fresh build's.
import { parseArgs } from 'node:util';
import * as full from '../dist/index.js';
import { deltaClients } from '../tests/url/lib/delta-clients.mjs';
import { benignUrls, listVersions, urlOfLine } from '../tests/url/lib/delta-lists.mjs';
import { blocklistTypes } from '../tests/url/lib/verdict-oracle.mjs';

const { values } = parseArgs({
  options: { entries: { type: 'string', default: '100000' }, urls: { type: 'string', default: '1000000' }, types: { type: 'string' } },
});
const ENTRIES = Number(values.entries);
const URLS = Number(values.urls);
const { UrlBlocklist, diffFilters, init } = full;
await init();
const reader = await import(new URL('../dist/reader.import.cjs', import.meta.url).href);
await reader.init();
const TYPES = values.types?.split(',') ?? blocklistTypes(full);

const [v1, v2] = listVersions({ entries: ENTRIES, changed: ENTRIES / 100, steps: 1, seed: 4201 });
const tenths = listVersions({ entries: ENTRIES, changed: ENTRIES / 1000, steps: 10, seed: 4202 });
const percent = (part, whole) => `${((100 * part) / whole).toFixed(2)}%`;

const { build, client } = deltaClients(UrlBlocklist, reader.UrlBlocklistReader);

const rows = [];
let failed = false;
for (const type of TYPES) {
  const base = build(v1.lines, type);
  const fresh = build(v2.lines, type);
  const delta = UrlBlocklist.listDelta(base.bytes, v1.lines, { remove: v2.removed, add: v2.added });
  // The route before deltas: a filter patch between two fresh builds, and the new companion whole (the old one is refused).
  const patch = diffFilters(base.bytes, fresh.bytes);
  const tenthDeltas = [];
  const tenthBase = build(tenths[0].lines, type);
  for (let step = 1; step < tenths.length; step++) {
    tenthDeltas.push(UrlBlocklist.listDelta(tenthDeltas.at(-1) ?? tenthBase.bytes, tenths[step - 1].lines, { remove: tenths[step].removed, add: tenths[step].added }));
  }
  const updated = client(base, [delta]);
  const rebuilt = client(fresh, []);
  const chained = client(tenthBase, tenthDeltas);
  let differing = 0;
  const urls = [...new Set([...v1.lines, ...v2.lines])].map(urlOfLine);
  for (const url of urls) if (updated.check(url).verdict !== rebuilt.check(url).verdict) differing++;
  let benignMs = { rebuilt: 0, updated: 0, chained: 0 };
  let start = performance.now();
  const verdicts = [];
  for (const url of benignUrls(URLS, 4203)) verdicts.push(rebuilt.check(url).verdict);
  benignMs.rebuilt = performance.now() - start;
  start = performance.now();
  let i = 0;
  for (const url of benignUrls(URLS, 4203)) if (updated.check(url).verdict !== verdicts[i++]) differing++;
  benignMs.updated = performance.now() - start;
  start = performance.now();
  for (const url of benignUrls(URLS, 4203)) chained.check(url);
  benignMs.chained = performance.now() - start;
  failed ||= differing > 0;
  const tenthShares = tenthDeltas.map((d) => d.length / tenthBase.shipped);
  rows.push([
    type,
    `${base.bytes.length.toLocaleString('en')} + ${base.companion.length.toLocaleString('en')}`,
    `${patch.length.toLocaleString('en')} + ${fresh.companion.length.toLocaleString('en')} (${percent(patch.length + fresh.companion.length, base.shipped)})`,
    `${delta.length.toLocaleString('en')} (${percent(delta.length, base.shipped)})`,
    `${percent(Math.max(...tenthShares) * tenthBase.shipped, tenthBase.shipped)}`,
    `${((1000 * benignMs.rebuilt) / URLS).toFixed(1)} / ${((1000 * benignMs.updated) / URLS).toFixed(1)} / ${((1000 * benignMs.chained) / URLS).toFixed(1)}`,
    String(differing),
  ]);
  for (const list of [updated, rebuilt, chained]) list.free();
}

const header = ['type', 'base: filter + companion (B)', 'before: patch + new companion', '1% delta', 'largest 0.1% delta', `µs/URL: fresh / 1 delta / 10 deltas`, `verdicts ≠ fresh (${URLS.toLocaleString('en')} benign + every entry)`];
process.stdout.write(`${ENTRIES.toLocaleString('en')} entries; 1% = ${(ENTRIES / 100).toLocaleString('en')} removed + as many added\n\n`);
process.stdout.write(`| ${header.join(' | ')} |\n| ${header.map(() => '---').join(' | ')} |\n`);
for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
if (failed) {
  process.stderr.write('list-deltas: a verdict after the delta differs from the fresh build\n');
  process.exit(1);
}
