// Hover, tap or keyboard-pick one cell of a drawn structure (a Bloom bit, a cuckoo slot, a
// fuse slot) and read what it holds and which keys put it there, in a line beside it. One
// tab stop for the whole drawing (its box): arrow keys move between cells, so a 256-bit
// grid is not 256 tab stops. The line is aria-live, so a screen reader hears each pick.

export interface CellInspector {
  /** The picked cell, or null. */
  readonly picked: number | null;
  /** Says the picked cell again (after the drawing changed), or clears the line if none. */
  refresh(): void;
  clear(): void;
}

export interface CellInspectorOptions {
  /** The focusable box holding the cells (it gets tabindex 0 and the key handling). */
  box: HTMLElement;
  /** Where the description goes (aria-live). */
  info: HTMLElement;
  /** Cells now (the drawing may be rebuilt with another size). */
  count(): number;
  /** The element drawn for cell i (it gets the is-inspected class). */
  cellOf(index: number): Element | undefined;
  /** The cell an element under the pointer belongs to, or null. */
  indexOf(element: Element): number | null;
  /** Index steps of the arrow keys: right/left and down/up. */
  steps(): { right: number; down: number };
  describe(index: number): (string | Node)[];
}

export function cellInspector(options: CellInspectorOptions): CellInspector {
  const { box, info, count, cellOf, indexOf, steps, describe } = options;
  let picked: number | null = null;

  const pick = (index: number | null): void => {
    if (picked !== null) cellOf(picked)?.classList.remove('is-inspected');
    picked = index === null ? null : Math.max(0, Math.min(count() - 1, index));
    if (picked === null) {
      info.replaceChildren();
      return;
    }
    cellOf(picked)?.classList.add('is-inspected');
    info.replaceChildren(...describe(picked));
  };

  box.tabIndex = 0;
  const fromEvent = (event: Event): number | null => (event.target instanceof Element ? indexOf(event.target) : null);
  box.addEventListener('pointerover', (event) => {
    const index = fromEvent(event);
    if (index !== null) pick(index);
  });
  box.addEventListener('click', (event) => {
    const index = fromEvent(event);
    if (index !== null) pick(index);
  });
  box.addEventListener('focus', () => {
    if (picked === null && count() > 0) pick(0);
  });
  box.addEventListener('keydown', (event) => {
    if (picked === null) return;
    const { right, down } = steps();
    const moves: Record<string, number> = { ArrowRight: right, ArrowLeft: -right, ArrowDown: down, ArrowUp: -down };
    let next: number | null = null;
    if (event.key in moves) next = picked + moves[event.key]!;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = count() - 1;
    else if (event.key === 'Escape') next = null;
    else return;
    event.preventDefault();
    if (next !== null && (next < 0 || next >= count())) return;
    pick(next);
  });

  return {
    get picked() {
      return picked;
    },
    refresh: () => pick(picked !== null && picked < count() ? picked : null),
    clear: () => pick(null),
  };
}

/** "apple, river" as code elements, or the text for none. */
export function keyNames(keys: readonly string[], none: string): (string | Node)[] {
  if (keys.length === 0) return [none];
  return keys.flatMap((key, n) => {
    const code = document.createElement('code');
    code.textContent = key;
    return n > 0 ? [', ', code] : [code];
  });
}
