// The check each extra build's bundle gets (the size build, dist/small.js; the
// read-only build, dist/reader.js), written once: it is a module of its own
// over its own wasm and glue, never the speed build's.
import { readFileSync } from 'node:fs';

export const DIST = new URL('../../dist/', import.meta.url);

/**
 * dist/`bundle` loads core.`variant`.wasm by a URL relative to itself (so a
 * browser fetches it beside the bundle), imports its own glue
 * ./core.`variant`.mjs, and names none of the files `others` (a regular
 * expression alternation of file names after "core.": another build's glue or
 * wasm). Returns the bundle's text for the caller's own checks.
 */
export function expectOwnBundle(bundle, variant, others) {
  const text = readFileSync(new URL(bundle, DIST), 'utf8');
  expect(text).toMatch(new RegExp(`new URL\\(["']\\./core\\.${variant}\\.wasm["'], import\\.meta\\.url\\)`));
  expect(text).toContain(`./core.${variant}.mjs`);
  expect(text).not.toMatch(new RegExp(`["']\\./core\\.(${others})["']`));
  return text;
}
