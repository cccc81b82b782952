// The lists of filter types in README.md and package.json, generated from the
// built package's FILTER_TYPES (so a new type needs no hand edit there):
//
//   README.md     the type labels in its first sentence, between
//                 <!-- types --> and <!-- /types -->, and the table under
//                 "Which filter should I use?", between <!-- filter-table ... -->
//                 and <!-- /filter-table -->;
//   package.json  the labels that open its description, up to " filters".
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
    return `| \`${entry.name}\` | \`${className(lib, entry)}\` | ${removal} | ${entry.supportsUnion ? 'yes' : 'no'} | ${cell(entry.summary)} | ${cell(entry.lookup)} |`;
  });
  return ['| type | class | removal | union | choose it for | one lookup reads |', '| --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
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
