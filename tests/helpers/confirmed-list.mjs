// What the suites of a blocklist's exact companion set up alike: both entries
// initialised (the full package, and `cuckoo-bloom-wasm/reader` loaded from dist/
// as a CommonJS consumer loads it) and a list built with its whole companion attached.
import * as full from 'cuckoo-bloom-wasm';

const ROOT = new URL('../../', import.meta.url);

/** The reader entry (core.reader.wasm), from the built package's dist/. */
export const reader = await import(new URL('dist/reader.import.cjs', ROOT).href);

/**
 * Initialises both entries, then builds `text` into a full-package UrlBlocklist at
 * `falsePositiveRate`: its bytes (without the companion), and the companion, attached
 * to the list.
 */
export async function confirmedList(text, falsePositiveRate) {
  await full.init();
  await reader.init();
  const list = full.UrlBlocklist.build(text, { falsePositiveRate });
  const bytes = list.serialize();
  const companion = list.confirmation();
  list.attachConfirmation(companion);
  return { list, bytes, companion };
}
