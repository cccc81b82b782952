// axe-core (a devDependency) injected into the page; returns its violations, each as
// "rule (impact): target …" so a failure message says what and where.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export async function axeViolations(page) {
  // addScriptTag would be an inline <script> the page's CSP refuses; evaluate runs it in
  // the page's main world through the debugger protocol instead, which CSP does not govern.
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() =>
    window.axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } }),
  );
  return result.violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 5).join(' | ')}`);
}
