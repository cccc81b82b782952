// The edits the toy type makes to existing files: exactly what
// docs/ARCHITECTURE.md's "Adding a filter type" lists, one entry per change.
// Each is anchored on a line that says where such a change goes (the start of
// a list, the end of a table), so the edit reads like the checklist step.
//
//   { file, step, after: 'line', insert: 'text' }    insert after the first line containing `after`
//   { file, step, before: 'line', from: 'line', insert }  insert before the first `before` line at or after `from`
//   { file, step, replace: 'text', with: 'text' }     replace the one occurrence
//   { file, step, append: 'text' }                   add at the end
export const EDITS = [
  {
    file: 'cpp/include/cuckoo_bloom/registry/filter_types.h',
    step: 'its X(...) line with a new id',
    after: '#define CUCKOO_BLOOM_FILTER_TYPES(X)',
    insert: '  X(Toy, 9, "toy", ToyFilter)                                     \\',
  },
  {
    file: 'cpp/include/cuckoo_bloom/registry/filter_types.h',
    step: 'its header, in the classes section',
    after: '#define CUCKOO_BLOOM_FILTER_CLASSES_INCLUDED',
    insert: '#include "cuckoo_bloom/bloom/toy_filter.h"',
  },
  {
    file: 'cpp/include/cuckoo_bloom/core/filter_options.h',
    step: 'its own option',
    after: '#define CUCKOO_BLOOM_TYPE_OPTIONS(X)',
    insert: '  X(SizeFactor, sizeFactor, Number, "the toy\'s table bits per key over 1 / falsePositiveRate")   \\',
  },
  {
    file: 'js/src/registry.ts',
    step: 'import the class',
    before: "import { FilterError } from './errors.js';",
    from: '',
    insert: "import { ToyFilter } from './bloom/toy.js';",
  },
  {
    file: 'js/src/registry.ts',
    step: 'declare it under its name in FilterClasses',
    after: '  interface FilterClasses {',
    insert: '    toy: ToyFilter;',
  },
  {
    file: 'js/src/registry.ts',
    step: 'add it to AnyFilter',
    after: 'export type AnyFilter =',
    insert: '  | ToyFilter',
  },
  {
    file: 'js/src/registry.ts',
    step: 'its FILTER_TYPES entry',
    before: '];',
    from: 'const ENTRIES = [',
    insert: [
      '  entry(ToyFilter, {',
      "    name: 'toy',",
      "    label: 'Toy',",
      "    summary: 'a one-hash Bloom filter, only to prove the checklist',",
      "    lookup: '1 bit',",
      '  }),',
    ].join('\n'),
  },
  {
    file: 'js/src/index.ts',
    step: 'export the class and its options type',
    append: "export { ToyFilter, type ToyFilterOptions } from './bloom/toy.js';\n",
  },
  {
    file: 'docs/FORMAT.md',
    step: 'its row in the filter types table',
    replace: '| 9–15 | | reserved for single-part filters | | | — | |',
    with: [
      '| 9 | `toy` | toy (one-hash Bloom) | 8 | 2 | any | the bit array |',
      '| 10–15 | | reserved for single-part filters | | | — | |',
    ].join('\n'),
  },
  {
    file: 'docs/FORMAT.md',
    step: 'its parameter block and payload, byte by byte',
    append: [
      '',
      '### Toy (type 9)',
      '',
      'Parameters (8 bytes): `bitCount` u64 (≥ 1). Payload: `ceil(bitCount / 64)` words of the bit',
      'array, bits past `bitCount` 0. A key sets the one bit `bloomProbeIndex(hash, 0, bitCount)`.',
      '',
    ].join('\n'),
  },
];

/** `text` with `edit` applied. @throws Error naming the file and step when its anchor is not there. */
export function applyEdit(text, edit) {
  const fail = (what) => {
    throw new Error(`${edit.file} (${edit.step}): ${what}`);
  };
  if (edit.append !== undefined) return text.endsWith('\n') ? text + edit.append : `${text}\n${edit.append}`;
  if (edit.replace !== undefined) {
    const at = text.indexOf(edit.replace);
    if (at < 0 || text.indexOf(edit.replace, at + 1) >= 0) fail(`'${edit.replace}' is not there exactly once`);
    return text.slice(0, at) + edit.with + text.slice(at + edit.replace.length);
  }
  const lines = text.split('\n');
  if (edit.after !== undefined) {
    const at = lines.findIndex((line) => line.includes(edit.after));
    if (at < 0) fail(`no line containing '${edit.after}'`);
    lines.splice(at + 1, 0, edit.insert);
  } else {
    const start = lines.findIndex((line) => line.includes(edit.from));
    if (start < 0) fail(`no line containing '${edit.from}'`);
    const at = lines.findIndex((line, index) => index >= start && line.trim() === edit.before);
    if (at < 0) fail(`no line '${edit.before}' after '${edit.from}'`);
    lines.splice(at, 0, edit.insert);
  }
  return lines.join('\n');
}
