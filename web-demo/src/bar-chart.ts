// A horizontal bar chart as inline SVG (no library): one bar per row, an optional reference line.
import { svg } from './dom.ts';

export interface Bar {
  label: string;
  value: number;
  /** The number printed after the bar. */
  text: string;
}

export interface BarChartOptions {
  title: string;
  bars: Bar[];
  /** A dashed vertical line, e.g. the target rate. */
  reference?: { value: number; label: string };
  testId?: string;
}

const WIDTH = 360;
const LABEL = 104;
const VALUE_SPACE = 78;
const ROW = 26;
const TOP = 24;

export function barChart({ title, bars, reference, testId }: BarChartOptions): SVGSVGElement {
  const height = TOP + bars.length * ROW + (reference ? 18 : 6);
  const max = Math.max(...bars.map((bar) => bar.value), reference?.value ?? 0) || 1;
  const span = WIDTH - LABEL - VALUE_SPACE;
  const x = (value: number): number => LABEL + (value / max) * span;
  const chart = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${height}`,
    class: 'bar-chart',
    role: 'img',
    'aria-label': `${title}: ${bars.map((bar) => `${bar.label} ${bar.text}`).join(', ')}`,
    'data-testid': testId,
  });
  chart.append(svg('text', { x: 0, y: 14, class: 'chart-title' }, title));
  // The reference line goes first, under the bars and their numbers.
  if (reference) {
    const rx = x(reference.value);
    const bottom = TOP + bars.length * ROW;
    chart.append(
      svg('line', { x1: rx, x2: rx, y1: TOP - 2, y2: bottom, class: 'chart-reference' }),
      svg('text', { x: rx, y: bottom + 13, 'text-anchor': 'middle', class: 'chart-reference-label' }, reference.label),
    );
  }
  bars.forEach((bar, i) => {
    const y = TOP + i * ROW;
    chart.append(
      svg('text', { x: LABEL - 6, y: y + 14, 'text-anchor': 'end', class: 'chart-label' }, bar.label),
      svg('rect', { x: LABEL, y: y + 2, width: Math.max(1, x(bar.value) - LABEL), height: ROW - 8, rx: 2, class: `chart-bar chart-bar-${i}` }),
      svg('text', { x: x(bar.value) + 4, y: y + 14, class: 'chart-value' }, bar.text),
    );
  });
  return chart;
}
