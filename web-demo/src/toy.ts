// What the two toy filters (bloom-view.ts, cuckoo-view.ts) share: the handle the tune
// panel drives them through, and the handling of their key box, where an empty box asks
// for a key and an error from the library is said in the toy's output instead of thrown.
import { describeError, h } from './dom.ts';

/** A toy filter as the tune panel sees it. */
export interface Toy<Filter, Options> {
  rebuild(options: Options): void;
  /** Adds a key without drawing it; false when it did not fit. */
  addQuietly(key: string): boolean;
  /** Draws the filter as it is now; `note` replaces the toy's message (what was just done to it). */
  redraw(note?: string): void;
  measuredRate(probes: readonly string[]): number;
  /** Keys added through the playground (a Bloom filter's own count is an estimate). */
  readonly keyCount: number;
  readonly filter: Filter;
  readonly options: Options;
  onChange(listener: () => void): void;
}

type ToyActions<Filter, Options> = Pick<Toy<Filter, Options>, 'rebuild' | 'addQuietly' | 'redraw' | 'onChange'>;

/**
 * The handle of a toy whose filter, keys and options live in the view's closure (they
 * change on every rebuild): `now()` reads them at the moment the tune panel asks.
 */
export function toyHandle<Filter extends { hasMany(keys: string[]): boolean[] }, Options>(
  now: () => { filter: Filter; keyCount: number; options: Options },
  actions: ToyActions<Filter, Options>,
): Toy<Filter, Options> {
  return {
    ...actions,
    // The share of `probes` (keys never added) that the filter reports present.
    measuredRate: (probes) => now().filter.hasMany(probes as string[]).filter(Boolean).length / probes.length,
    get filter() {
      return now().filter;
    },
    get keyCount() {
      return now().keyCount;
    },
    get options() {
      return now().options;
    },
  };
}

/**
 * The note a one-click moment adds when it chose its case rather than met it: what it
 * searched for and how rare that is, so a picked worst case is not taken for the usual one.
 */
export function pickedNote(...parts: (string | Node)[]): HTMLParagraphElement {
  return h('p', { class: 'picked-note', 'data-testid': 'picked-note' }, h('strong', {}, 'Picked on purpose: '), ...parts);
}

/** Replaces the toy's message with one paragraph. */
export function sayIn(output: HTMLElement): (...parts: (string | Node)[]) => void {
  return (...parts) => output.replaceChildren(h('p', {}, ...parts));
}

export interface KeyActions {
  /** Runs `action`; what it throws is said, not raised. */
  run(action: () => unknown): void;
  /** A handler that runs `action` on the typed key, or asks for a key when the box is empty. */
  withKey(action: (key: string) => unknown): () => void;
  /** A handler that puts the key `next()` gives in the box and runs `action` on it. */
  withNextKey(next: () => string, action: (key: string) => unknown): () => void;
}

export function keyActions(input: HTMLInputElement, say: (text: string) => void): KeyActions {
  const keyOrSay = (): string | null => {
    const key = input.value.trim();
    if (key === '') {
      say('Type a key first (any text), or use “Add random key”.');
      input.focus();
      return null;
    }
    return key;
  };
  const run = (action: () => unknown): void => {
    try {
      action();
    } catch (error) {
      say(`Error: ${describeError(error)}`);
    }
  };
  return {
    run,
    withKey: (action) => () => {
      const key = keyOrSay();
      if (key !== null) run(() => action(key));
    },
    withNextKey: (next, action) => () => {
      const key = next();
      input.value = key;
      run(() => action(key));
    },
  };
}
