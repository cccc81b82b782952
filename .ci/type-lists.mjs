// The lists of filter types in README.md and package.json, generated from the
// built package's FILTER_TYPES (so a new type needs no hand edit there):
//
//   README.md     the type labels in its first sentence, between
//                 <!-- types --> and <!-- /types -->, and the table under
//                 "Which filter should I use?", between <!-- filter-table ... -->
//                 and <!-- /filter-table -->;
//   package.json  the labels that open its description, up to " filters";
//   docs/CLI.md   the types that have a fact, between <!-- types:<fact> -->
//                 and <!-- /types:<fact> --> (FACT_LISTS below: removes,
//                 forgets, static, grows, stand-ins), so the prose that names
//                 which types remove or grow is the registry's, not a copy.
//
// api-docs.mjs writes them (`npm run docs`) or fails when they differ
// (`npm run docs:check`); tests/docs/docs-links.test.mjs checks them too.

// Words kept capitalized in running text: a person's name (Burton Bloom).
const PROPER_NAMES = new Set(['Bloom']);

/** A label in running text: "Scalable Cuckoo" → "scalable cuckoo", "Blocked Bloom" → "blocked Bloom". */
function inSentence(label, first) {
  const words = label.split(' ').map((word) => (PROPER_NAMES.has(word) ? word : word.toLowerCase()));
  const text = words.join(' ');
  return first ? text[0].toUpperCase() + text.slice(1) : text;
}

/** "Bloom, blocked Bloom, ... and expiring Bloom": every label of FILTER_TYPES, in its order. */
export function typeLabelList(filterTypes) {
  const labels = filterTypes.map((entry, index) => inSentence(entry.label, index === 0));
  return labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

/** The exported class a registry entry makes (a static type is built from one key to ask). */
function className(lib, entry) {
  const sample = entry.isStatic ? entry.from(['sample'], {}) : entry.create({ capacity: 1 });
  const prototype = Object.getPrototypeOf(sample);
  sample.free();
  const found = Object.entries(lib).find(([, value]) => typeof value === 'function' && value.prototype === prototype);
  if (found === undefined) throw new Error(`no export of the package makes ${entry.name} filters`);
  return found[0];
}

const cell = (text) => String(text).replaceAll('|', '\\|');

/** The README's filter table: one row per entry of FILTER_TYPES (the core must be initialized). */
export function filterTable(lib) {
  const rows = lib.FILTER_TYPES.map((entry) => {
    const removal = entry.supportsRemove ? 'yes' : entry.isStatic ? 'no (static)' : entry.forgets ? 'no (keys expire)' : 'no';
    return `| \`${entry.name}\` | \`${className(lib, entry)}\` | ${removal} | ${entry.supportsUnion ? 'yes' : 'no'} | ${GROWTH_CELLS[entry.growth]} | ${cell(entry.summary)} | ${cell(entry.lookup)} |`;
  });
  return [
    '| type | class | removal | union | grows | choose it for | one lookup reads |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** The README table's "grows" column, from the registry's `growth`. */
const GROWTH_CELLS = { none: 'no', chaining: 'yes, by links', 'in-place': 'yes, in place' };

/** A type as `--type` takes it: its short alias, else its name, in code. */
const cliName = (entry) => `\`${entry.aliases[0] ?? entry.name}\``;

/** "`a`, `b` and `c`". */
function inWords(items) {
  return items.length <= 1 ? (items[0] ?? 'none') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * The facts docs/CLI.md names types by: each generates the text between
 * <!-- types:<fact> --> and <!-- /types:<fact> --> from FILTER_TYPES.
 */
const FACT_LISTS = {
  removes: (types) => inWords(types.filter((entry) => entry.supportsRemove).map(cliName)),
  forgets: (types) => inWords(types.filter((entry) => entry.forgets).map(cliName)),
  static: (types) => inWords(types.filter((entry) => entry.isStatic).map(cliName)),
  grows: (types) => inWords(types.filter((entry) => entry.growth !== 'none').map(cliName)),
  // "`scalable-bloom` for `bloom` and `blocked`, `scalable-cuckoo` for ...": each growing type and the types it stands in for.
  'stand-ins': (types) =>
    types
      .filter((standIn) => standIn.growth !== 'none')
      .map((standIn) => [standIn, types.filter((entry) => entry.growth === 'none' && entry.growingStandIn === standIn.name)])
      .filter(([, others]) => others.length > 0)
      .map(([standIn, others]) => `${cliName(standIn)} for ${inWords(others.map(cliName))}`)
      .join(', '),
};

const FACT = /(<!-- types:([a-z-]+) -->)([\s\S]*?)(<!-- \/types:\2 -->)/g;

/** `text` (docs/CLI.md) with every <!-- types:<fact> --> list regenerated. @throws Error for an unknown fact. */
export function generatedFactLists(text, lib) {
  return text.replace(FACT, (_, open, fact, _old, close) => {
    const make = FACT_LISTS[fact];
    if (make === undefined) throw new Error(`<!-- types:${fact} -->: no such fact (known: ${Object.keys(FACT_LISTS).join(', ')})`);
    return `${open}${make(lib.FILTER_TYPES)}${close}`;
  });
}

const TYPES = /(<!-- types -->)([\s\S]*?)(<!-- \/types -->)/;
const TABLE = /(<!-- filter-table[^>]*-->\n)([\s\S]*?)(\n<!-- \/filter-table -->)/;

/** README.md with its generated parts replaced. @throws Error when a marker pair is missing. */
export function generatedReadme(readme, lib) {
  for (const [name, marker] of [['types', TYPES], ['filter-table', TABLE]]) {
    if (!marker.test(readme)) throw new Error(`README.md lacks the <!-- ${name} --> ... <!-- /${name} --> markers`);
  }
  return readme
    .replace(TYPES, (_, open, _old, close) => `${open}${typeLabelList(lib.FILTER_TYPES)}${close}`)
    // Blank lines around the table, so no renderer reads a marker as part of it.
    .replace(TABLE, (_, open, _old, close) => `${open}\n${filterTable(lib)}\n${close}`);
}

/** package.json's description with the labels before its first " filters" replaced. */
export function generatedDescription(description, lib) {
  const at = description.indexOf(' filters');
  if (at < 0) throw new Error('package.json\'s description must name the types before " filters"');
  return `${typeLabelList(lib.FILTER_TYPES)}${description.slice(at)}`;
}
