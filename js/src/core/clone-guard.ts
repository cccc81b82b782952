import { FilterError } from '../errors.js';

/**
 * Makes structuredClone() and postMessage() of `target` throw a FilterError
 * `UNSUPPORTED` that says how to copy it (`recipe`) instead of copying its
 * enumerable fields into a lifeless plain object, or failing with a
 * DataCloneError. They read every own enumerable property, so this is one: an
 * accessor that throws when read. Every other field is private; this one key
 * is what `Object.keys()` shows.
 */
export function refuseStructuredClone(target: object, what: string, recipe: string): void {
  Object.defineProperty(target, 'cannotBeCloned', {
    enumerable: true,
    get(): never {
      throw new FilterError(
        'UNSUPPORTED',
        `a ${what} lives in WebAssembly memory: structuredClone() and postMessage() cannot copy it; ${recipe}`,
      );
    },
  });
}
