// Attack on the expandable filter's growth in eighths: the public API's doc
// comments (what typedoc publishes) must describe the growth the code does.
// Since 840fc28 a full table grows by a step (its slots an eighth of its
// quotients larger) and only every eighth step doubles; the class comment
// and add()'s still say the table doubles when it is full.
// FAILS (wrong doc) on ba7e303.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = readFileSync(fileURLToPath(new URL('../../js/src/expandable/expandable.ts', import.meta.url)), 'utf8');

// The JSDoc block just before `declaration` (e.g. "add(key: Key): this {").
function docBefore(declaration) {
  const at = source.indexOf(declaration);
  expect(at).toBeGreaterThan(0);
  const start = source.lastIndexOf('/**', at);
  return source.slice(start, at);
}

test('add() does not say the table doubles when it is full (it grows by an eighth; every eighth step doubles)', () => {
  expect(docBefore('add(key: Key): this {')).not.toMatch(/the table doubles when it is full/);
});

test('the class comment does not say the table doubles in place (its slots grow by eighths)', () => {
  expect(docBefore('export class ExpandableFilter')).not.toMatch(/table that doubles\s*\*?\s*in place/);
});
