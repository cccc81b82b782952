// The k slider: the false-positive rate (1 − e^(−kn/m))^k against the number of probes k
// for the Bloom playground's m bits and n keys (the number it is sized for), with the
// optimum k* = (m/n) ln 2 marked and the slider's k on the curve. The rate axis is
// logarithmic: near k* the curve is flat, and only a log axis shows both sides of it.
import type { BloomToy } from './bloom-view.ts';
import { byTestId, formatRate, svg } from './dom.ts';
import { bloomRate } from './formulas.ts';

const WIDTH = 560;
const HEIGHT = 240;
const PAD = { left: 56, right: 14, top: 14, bottom: 40 };

/** The k with the lowest rate for m bits and n keys (real-valued): (m/n) ln 2. */
export const optimalK = (bits: number, keys: number): number => (bits / keys) * Math.LN2;

export function setupKSlider(section: HTMLElement, bloom: BloomToy): void {
  const slider = byTestId<HTMLInputElement>('k-slider', section);
  const readout = byTestId('k-readout', section);
  const box = byTestId('k-chart', section);

  const draw = (): void => {
    const m = bloom.filter.bitCount;
    const n = bloom.options.capacity;
    const kMax = Number(slider.max);
    const k = Number(slider.value);
    const kStar = optimalK(m, n);
    const rate = (probes: number): number => bloomRate(m, probes, n);
    const rates = Array.from({ length: kMax }, (_, i) => rate(i + 1));
    const top = 10 ** Math.ceil(Math.log10(Math.max(...rates)));
    const bottom = 10 ** Math.floor(Math.log10(Math.min(...rates, rate(kStar))));
    const px = (probes: number): number => PAD.left + ((probes - 1) / (kMax - 1)) * (WIDTH - PAD.left - PAD.right);
    const py = (value: number): number =>
      PAD.top + (Math.log10(top / value) / Math.log10(top / bottom)) * (HEIGHT - PAD.top - PAD.bottom);
    const chart = svg('svg', {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      class: 'fpr-chart',
      role: 'img',
      'aria-label': `False-positive rate against probes k for m = ${m} bits and n = ${n} keys: ${formatRate(rate(1))} at k = 1, lowest near k* = ${kStar.toFixed(2)} (${formatRate(rate(Math.round(kStar)))} at k = ${Math.round(kStar)}), ${formatRate(rate(kMax))} at k = ${kMax}.`,
    });
    for (let decade = top; decade >= bottom; decade /= 10) {
      chart.append(
        svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: py(decade), y2: py(decade), class: 'chart-grid' }),
        svg('text', { x: PAD.left - 6, y: py(decade) + 4, 'text-anchor': 'end', class: 'chart-tick' }, formatRate(decade)),
      );
    }
    for (let probes = 1; probes <= kMax; probes++) {
      chart.append(svg('text', { x: px(probes), y: HEIGHT - PAD.bottom + 16, 'text-anchor': 'middle', class: 'chart-tick' }, String(probes)));
    }
    const curve: string[] = [];
    for (let probes = 1; probes <= kMax; probes += 0.1) curve.push(`${px(probes).toFixed(1)},${py(rate(probes)).toFixed(1)}`);
    chart.append(
      svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: HEIGHT - PAD.bottom, y2: HEIGHT - PAD.bottom, class: 'chart-axis' }),
      svg('text', { x: (PAD.left + WIDTH - PAD.right) / 2, y: HEIGHT - 6, 'text-anchor': 'middle', class: 'chart-tick' }, 'probes k'),
      svg('polyline', { points: curve.join(' '), class: 'curve bloom' }),
      svg('line', { x1: px(kStar), x2: px(kStar), y1: PAD.top, y2: HEIGHT - PAD.bottom, class: 'chart-reference', 'data-testid': 'k-star', 'data-k': kStar }),
      svg('text', { x: px(kStar) + 4, y: PAD.top + 10, class: 'chart-reference-label' }, `k* = (m/n) ln 2 = ${kStar.toFixed(2)}`),
      ...rates.map((value, i) => svg('circle', { cx: px(i + 1), cy: py(value), r: 3, class: 'measured bloom' })),
      svg('circle', { cx: px(k), cy: py(rate(k)), r: 7, class: 'current bloom', 'data-testid': 'k-current', 'data-k': k, 'data-rate': rate(k) }),
    );
    box.replaceChildren(chart);
    const best = rates.indexOf(Math.min(...rates)) + 1;
    readout.textContent =
      `k = ${k}: ${formatRate(rate(k))} with ${n} keys in m = ${m} bits. k* = ${kStar.toFixed(2)}; the best whole k is ${best}` +
      ` (${formatRate(rate(best))})${k === best ? ': this one' : ''}. The playground’s filter uses k = ${bloom.filter.hashCount}. ` +
      'These rates are the formula for n keys spread at random; the Bloom panel’s “estimated false-positive rate” reads the bits its keys really set, so the two differ a little.';
  };

  slider.addEventListener('input', draw);
  // The playground is rebuilt by the tune panel with another m and n: follow it.
  bloom.onChange(draw);
  slider.value = String(bloom.filter.hashCount);
  draw();
}
