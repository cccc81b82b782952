// WCAG contrast of drawn SVG marks, computed in the page from computed styles: for each
// rect matching `rectSelector`, the text drawn in the same cell (same data-bucket and
// data-slot, or data-slot and data-row) against the rect's fill.

/** [{ kind (the rect's is-* state), cell, text, fill, ink, ratio }] for every matching rect whose cell has text. */
export function svgTextContrasts(page, rectSelector) {
  return page.evaluate((selector) => {
    const rgb = (color) => color.match(/[\d.]+/g).slice(0, 3).map(Number);
    const luminance = ([r, g, b]) => {
      const channel = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const ratio = (a, b) => {
      const [x, y] = [luminance(rgb(a)), luminance(rgb(b))].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    };
    return [...document.querySelectorAll(selector)].flatMap((rect) => {
      const svg = rect.ownerSVGElement;
      const keys = ['bucket', 'slot', 'row'].filter((name) => rect.dataset[name] !== undefined);
      const text = [...svg.querySelectorAll('text')].find((candidate) => keys.every((name) => candidate.dataset[name] === rect.dataset[name]));
      if (!text || text.textContent === '') return [];
      const fill = getComputedStyle(rect).fill;
      const ink = getComputedStyle(text).fill;
      const kind = [...rect.classList].find((name) => name.startsWith('is-') && name !== 'is-used') ?? 'plain';
      return [{ kind, cell: keys.map((name) => `${name} ${rect.dataset[name]}`).join(', '), text: text.textContent, fill, ink, ratio: ratio(ink, fill) }];
    });
  }, rectSelector);
}
