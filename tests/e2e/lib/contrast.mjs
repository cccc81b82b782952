// WCAG 2 contrast computed in the page from computed styles. installContrast puts
// window.__contrastRatio(colorA, colorB) in the page (through the debugger protocol, like
// axe: the page's CSP does not apply); svgTextContrasts uses it on drawn SVG cells.

/** (L1 + 0.05) / (L2 + 0.05) of two computed CSS colours ("rgb(…)"), lighter first. Self-contained: it runs in the page. */
function contrastRatio(a, b) {
  const rgb = (color) => color.match(/[\d.]+/g).slice(0, 3).map(Number);
  const luminance = ([r, g, b]) => {
    const channel = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const [x, y] = [luminance(rgb(a)), luminance(rgb(b))].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

export function installContrast(page) {
  return page.evaluate(`window.__contrastRatio = ${contrastRatio.toString()};`);
}

/**
 * For every rect matching `rectSelector` whose cell has text (the text with the same
 * data-bucket and data-slot, or data-slot and data-row): [{ kind (the rect's is-* state),
 * cell, text, fill, ink, ratio }], the text's fill against the rect's.
 */
export async function svgTextContrasts(page, rectSelector) {
  await installContrast(page);
  return page.evaluate((selector) => [...document.querySelectorAll(selector)].flatMap((rect) => {
    const keys = ['bucket', 'slot', 'row'].filter((name) => rect.dataset[name] !== undefined);
    const text = [...rect.ownerSVGElement.querySelectorAll('text')].find((candidate) => keys.every((name) => candidate.dataset[name] === rect.dataset[name]));
    if (!text || text.textContent === '') return [];
    const fill = getComputedStyle(rect).fill;
    const ink = getComputedStyle(text).fill;
    const kind = [...rect.classList].find((name) => name.startsWith('is-') && name !== 'is-used') ?? 'plain';
    return [{ kind, cell: keys.map((name) => `${name} ${rect.dataset[name]}`).join(', '), text: text.textContent, fill, ink, ratio: window.__contrastRatio(ink, fill) }];
  }), rectSelector);
}
