// Small DOM and formatting helpers shared by the views.

/** The element with `data-testid="<id>"` (the page's stable hooks); throws if the HTML lacks it. */
export function byTestId<T extends Element = HTMLElement>(id: string, scope: ParentNode = document): T {
  const element = scope.querySelector<T & Element>(`[data-testid="${id}"]`);
  if (element === null) throw new Error(`web demo: element [data-testid="${id}"] is missing from the page`);
  return element as T;
}

/**
 * Several of a section's elements at once, each found and checked as `byTestId` does:
 * `byTestIds<{ form: HTMLFormElement; out: HTMLElement }>(section, { form: 'x-form', out: 'x-out' })`.
 * The type parameter names each element's type; the ids map the same names to their test ids.
 */
export function byTestIds<T extends Record<string, Element>>(scope: ParentNode, ids: { [K in keyof T]: string }): T {
  const found: Record<string, Element> = {};
  for (const [name, id] of Object.entries<string>(ids)) found[name] = byTestId(id, scope);
  return found as T;
}

type Child = Node | string | null | undefined | false;

/** `h('li', { class: 'x', 'data-testid': 'y' }, 'text', child)`: attributes as strings, children as nodes or text. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  setAttributes(element, attributes);
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

function setAttributes(element: Element, attributes: Record<string, string | number | boolean | undefined>): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
}

/**
 * 6239 → "6,239", as Intl's en-US format writes it, but without Intl for a safe integer: the
 * first Intl formatter a page makes loads the locale data (0.1–0.8 s on a phone profile, 4×
 * CPU throttle), and the checker's first verdict must not wait for it. Anything else (a
 * fraction, -0, a huge number) goes to Intl, made on first use.
 */
let integerFormat: Intl.NumberFormat | null = null;
export function formatInteger(value: number): string {
  if (Number.isSafeInteger(value) && !Object.is(value, -0)) {
    const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',');
    return value < 0 ? `-${digits}` : digits;
  }
  integerFormat ??= new Intl.NumberFormat('en-US');
  return integerFormat.format(value);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}

/** 0.001 → "0.1%", 0.000123 → "0.0123%". */
export function formatRate(rate: number): string {
  if (!Number.isFinite(rate)) return '—';
  if (rate === 0) return '0%';
  const percent = rate * 100;
  return `${percent >= 1 ? percent.toFixed(1) : percent.toPrecision(2).replace(/0+$/, '').replace(/\.$/, '')}%`;
}

export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1) return `${Math.max(0.1, milliseconds * 1000).toFixed(milliseconds < 0.01 ? 1 : 0)} µs`;
  if (milliseconds < 1000) return `${milliseconds.toFixed(1)} ms`;
  return `${(milliseconds / 1000).toFixed(2)} s`;
}

/** Lets the browser paint and handle input before the next chunk of work. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

export const prefersReducedMotion = (): boolean =>
  typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/** A message for anything thrown: FilterError and TypeError messages are written for people. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A plain notice in place of `target`'s content (a part that could not load), with a button
 * that tries again. The button pressed goes with the notice: focus moves to the section's
 * heading (or to `target`), never to <body>.
 */
export function notice(target: HTMLElement, testId: string, message: string, retry: () => void): void {
  const button = h('button', { type: 'button', class: 'secondary', 'data-testid': `${testId}-retry` }, 'Retry');
  button.addEventListener('click', () => {
    const keep = target.closest('section')?.querySelector<HTMLElement>('h2') ?? target;
    target.replaceChildren(h('p', { class: 'detail' }, 'Trying again…'));
    keep.tabIndex = -1;
    keep.focus();
    retry();
  });
  target.replaceChildren(h('div', { class: 'notice', role: 'alert', 'data-testid': testId }, h('p', {}, message), button));
}
