// What the expandable filter's growth suites share: their keys, and filling the table to the
// last entry before each growth step (its slots grow by an eighth of its quotients a step, and
// the quotients double at the eighth), checking the rate at each level's fullest point.

/** Key i of the added set: URLs over 977 hosts. */
export const present = (i) => `https://host${i % 977}.example/path/${i}`;
/** Key i of the never-added probes. */
export const absent = (i) => `http://absent-${i % 1009}.test/q?id=${i}&x=1`;

/** The table grows a step past 0.85 entries per slot. */
const LOAD_PERCENT = 85;
/** Growth steps per doubling of the quotients. */
const GROWTH_STEPS = 8;

/**
 * Adds present(added), present(added + 1), ... up to the last key before the next growth step
 * (or `end`), in one addMany; returns how many keys are added now.
 */
export function fillLevel(filter, added, end) {
  // The table's entries (a void's copies each count, unlike `count`): its load times its slots.
  const entries = Math.round(filter.loadFactor * filter.slotCount);
  const limit = Math.min(end, added + Math.floor((filter.slotCount * LOAD_PERCENT) / 100) - entries);
  const keys = [];
  for (let i = added; i < limit; i++) keys.push(present(i));
  filter.addMany(keys);
  return Math.max(added, limit);
}

/** How many of `count` never-added keys from absent(from) the filter reports present. */
export function falsePositives(filter, from, count) {
  const keys = Array.from({ length: count }, (_, i) => absent(from + i));
  return filter.hasMany(keys).filter(Boolean).length;
}

/**
 * Grows `filter` from empty to `end` keys (present(0) on), checking every level at its fullest
 * point (the last entry before the step that doubles the quotients, and the first table's
 * before its first step: between doublings the rate only rises): the false positives among
 * probesAt(added) fresh absent keys are at most the target's expected count plus 4 standard
 * deviations of binomial slack (the sizing promises an expected rate at or under the target),
 * and the filter's own estimate is at or under the target after every step. Calls
 * atLevel({ added, found, probes }) there for a suite's own checks, then adds the key that
 * grows the table.
 */
export function growCheckingEveryLevel(filter, { end, target, probesAt, atLevel }) {
  let added = 0;
  let probed = 0;
  while (added < end) {
    added = fillLevel(filter, added, end);
    expect(filter.estimatedFalsePositiveRate).toBeLessThanOrEqual(target);
    const fullest = filter.growthSteps === 0 || filter.growthSteps === GROWTH_STEPS - 1 || added === end;
    if (!fullest) {
      filter.add(present(added++)); // a growth step within the level
      continue;
    }
    const probes = probesAt(added);
    const found = falsePositives(filter, probed, probes);
    probed += probes;
    expect(found).toBeLessThanOrEqual(target * probes + 4 * Math.sqrt(target * probes) + 1);
    expect(filter.estimatedFalsePositiveRate).toBeLessThanOrEqual(target);
    atLevel({ added, found, probes });
    if (added < end) filter.add(present(added++)); // the growth step
  }
}
