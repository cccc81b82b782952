// Issue #41: per-type knowledge lives in the registry (each C++ class's facts,
// FilterTypeInfo, read through FILTER_TYPES), never in the code that uses it. This
// scans the CLI's and the demo's sources for a filter type's name or alias as a
// string literal outside comments: such a literal is code deciding something by a
// type's name (`type === 'cuckoo'`), which must ask the registry instead. The few
// literals that are not a type (a progress phase spelled like an alias, the CSS
// classes of the two teaching playgrounds) are listed below with why. Runs without
// a build: the names come from filter_types.h and registry.ts's aliases.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@jest/globals';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SCANNED = ['js/src/cli', 'web-demo/src'];

// file → literals allowed there, each with the reason it is not a type decision.
const ALLOWED = {
  // countPass's phase shown in the progress line ("counting 40%"), not the counting-bloom alias.
  'js/src/cli/build-command/build.ts': ['counting'],
  'js/src/cli/exact/exact-build.ts': ['counting'],
  // The CSS classes of the Bloom and cuckoo playgrounds (teaching pages about those two structures).
  'web-demo/src/tune-panel.ts': ['bloom', 'cuckoo'],
  // The reader entry (no registry in core.reader.wasm) capitalizes the word Bloom in a type's name for display.
  'web-demo/src/url-check.ts': ['bloom'],
};

function typeNames() {
  const list = readFileSync(join(REPO, 'cpp/include/cuckoo_bloom/registry/filter_types.h'), 'utf8');
  const names = [...list.matchAll(/^\s*X\(\w+, \d+, "([a-z-]+)", \w+\)/gm)].map((match) => match[1]);
  const registry = readFileSync(join(REPO, 'js/src/registry.ts'), 'utf8');
  const aliasBlock = /export const FILTER_TYPE_ALIASES = \{([\s\S]*?)\} as const/.exec(registry)[1];
  const aliases = [...aliasBlock.matchAll(/^\s*'?([a-z-]+)'?:/gm)].map((match) => match[1]);
  return [...names, ...aliases];
}

function sourcesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return /\.(ts|mts|mjs|js)$/.test(name) ? [path] : [];
  });
}

/** The text with comments blanked (line and block), string contents kept. Good enough for these sources. */
function withoutComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

test('the registry lists types for this scan to look for', () => {
  const names = typeNames();
  expect(names).toEqual(expect.arrayContaining(['bloom', 'cuckoo', 'expandable', 'scalable-cuckoo', 'fuse', 'counting']));
});

test('no CLI or demo source decides anything by a filter type\'s name: each asks the registry (FILTER_TYPES) instead', () => {
  const names = typeNames();
  const literal = new RegExp(`(['"\`])(${names.map((name) => name.replace(/-/g, '\\-')).join('|')})\\1`, 'g');
  const found = [];
  for (const dir of SCANNED) {
    for (const path of sourcesUnder(join(REPO, dir))) {
      const file = relative(REPO, path);
      const lines = withoutComments(readFileSync(path, 'utf8')).split('\n');
      lines.forEach((line, index) => {
        for (const match of line.matchAll(literal)) {
          if ((ALLOWED[file] ?? []).includes(match[2])) continue;
          found.push(`${file}:${index + 1}: ${line.trim()}`);
        }
      });
    }
  }
  expect(found).toEqual([]);
});
