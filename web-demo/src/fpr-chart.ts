// False-positive rate against keys added: the formulas' curves, and the rates measured on
// the live toy filters as points on them. Inline SVG, no library.
import { formatRate, svg } from './dom.ts';

export interface Series {
  label: string;
  className: string;
  /** Theory: rate after x keys. */
  curve: (keys: number) => number;
  /** Where the curve stops (the cuckoo table is full there). */
  maxKeys: number;
  measured: { keys: number; rate: number }[];
  /** The live filter now. */
  current: { keys: number; rate: number } | null;
}

const WIDTH = 560;
const HEIGHT = 260;
const PAD = { left: 52, right: 12, top: 12, bottom: 40 };

export function fprChart(series: Series[]): SVGSVGElement {
  const maxKeys = Math.max(...series.map((s) => s.maxKeys), 1);
  const highest = Math.max(
    ...series.flatMap((s) => [s.curve(s.maxKeys), ...s.measured.map((p) => p.rate), s.current?.rate ?? 0]),
    0.001,
  );
  const maxRate = niceCeiling(highest);
  const px = (keys: number): number => PAD.left + (keys / maxKeys) * (WIDTH - PAD.left - PAD.right);
  const py = (rate: number): number => HEIGHT - PAD.bottom - (Math.min(rate, maxRate) / maxRate) * (HEIGHT - PAD.top - PAD.bottom);
  const chart = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: 'fpr-chart',
    role: 'img',
    'aria-label': `False-positive rate against keys added. ${series.map((s) => `${s.label}: theory reaches ${formatRate(s.curve(s.maxKeys))} at ${s.maxKeys} keys; ${s.measured.length} measured points${s.current ? `, now ${formatRate(s.current.rate)} at ${s.current.keys} keys` : ''}`).join('. ')}.`,
  });
  // Axes and grid.
  for (let i = 0; i <= 4; i++) {
    const rate = (maxRate * i) / 4;
    chart.append(
      svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: py(rate), y2: py(rate), class: 'chart-grid' }),
      svg('text', { x: PAD.left - 6, y: py(rate) + 4, 'text-anchor': 'end', class: 'chart-tick' }, formatRate(rate)),
    );
  }
  const step = Math.max(1, Math.ceil(maxKeys / 8));
  for (let keys = 0; keys <= maxKeys; keys += step) {
    chart.append(svg('text', { x: px(keys), y: HEIGHT - PAD.bottom + 16, 'text-anchor': 'middle', class: 'chart-tick' }, String(keys)));
  }
  chart.append(
    svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: py(0), y2: py(0), class: 'chart-axis' }),
    svg('line', { x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: py(0), class: 'chart-axis' }),
    svg('text', { x: (PAD.left + WIDTH - PAD.right) / 2, y: HEIGHT - 6, 'text-anchor': 'middle', class: 'chart-tick' }, 'keys added'),
  );
  for (const s of series) {
    const points: string[] = [];
    for (let i = 0; i <= 100; i++) {
      const keys = (s.maxKeys * i) / 100;
      points.push(`${px(keys).toFixed(1)},${py(s.curve(keys)).toFixed(1)}`);
    }
    chart.append(svg('polyline', { points: points.join(' '), class: `curve ${s.className}` }));
    for (const point of s.measured) {
      chart.append(svg('circle', { cx: px(point.keys), cy: py(point.rate), r: 3.5, class: `measured ${s.className}`, 'data-testid': `fpr-point-${s.className}` }));
    }
    if (s.current) {
      chart.append(svg('circle', { cx: px(s.current.keys), cy: py(s.current.rate), r: 6, class: `current ${s.className}`, 'data-keys': s.current.keys, 'data-rate': s.current.rate }));
    }
  }
  return chart;
}

/** 0.0137 → 0.02: a round top for the rate axis. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}
