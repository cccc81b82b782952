// The library as the demo suites use it in Node, to check the page against: loaded and
// initialized, and the shipped list's entries as the library parses them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll } from '@jest/globals';
import { readDemoManifest, ROOT } from './demo-site.mjs';

/** The package's main entry, its wasm initialized. */
export async function initLibrary() {
  const library = await import('cuckoo-bloom-wasm');
  await library.init();
  return library;
}

/**
 * Every expression of the shipped list's text (web-demo/data), parsed by the library in
 * Node, in list order: the truth the page's verdicts are judged by.
 */
export async function shippedListExpressions() {
  const { parseListLine } = await import('cuckoo-bloom-wasm');
  const text = readFileSync(join(ROOT, 'web-demo', 'data', 'urlhaus-filter-online.txt'), 'utf8');
  return text.split(/\r?\n/).flatMap((line) => {
    const parsed = parseListLine(line, 'auto');
    return parsed.kind === 'entry' ? parsed.expressions : [];
  });
}

/**
 * Registers a beforeAll that reads the built demo's manifest and the shipped list's
 * expressions (shippedListExpressions); returns { manifest, expressions }, filled in once it
 * has run. Register it after useDemoSite, whose beforeAll builds the demo.
 */
export function useShippedList() {
  const shipped = { manifest: null, expressions: [] };
  beforeAll(async () => {
    shipped.manifest = readDemoManifest();
    shipped.expressions = await shippedListExpressions();
  });
  return shipped;
}
