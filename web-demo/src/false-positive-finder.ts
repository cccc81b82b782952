// "Show a caught false positive": an address that is on no list, made up here from a fixed
// seed, for which the filter answers "maybe". Checked in the page, the exact companion
// clears it, and the verdict explains the false positive on the spot. The addresses are
// deep (many lookups each), so one turns up in a few thousand tries at the list's rate.
import type { CheckableList } from './verdict-types.ts';
import { seededRandom } from './seeded.mjs';

const WORDS = ['news', 'docs', 'media', 'files', 'archive', 'static', 'user', 'page', 'shop', 'blog'];

/** The first made-up address (seed `seed`) the filter says "maybe" for, or null after `tries`. */
export function findFalsePositiveUrl(list: CheckableList, { seed = 43, tries = 200_000 } = {}): string | null {
  const random = seededRandom(seed);
  const word = (): string => `${WORDS[Math.floor(random() * WORDS.length)]}${Math.floor(random() * 1e6)}`;
  for (let i = 0; i < tries; i++) {
    const path = Array.from({ length: 8 }, word).join('/');
    const url = `https://${word()}.${word()}.${word()}.fp-demo.example/${path}/index.html`;
    const result = list.check(url);
    // A "maybe" the companion cleared (attached), or one it has yet to (not fetched yet); never a listed one.
    if (result.verdict === 'possible' || (result.verdict === 'clear' && result.confirmedBy !== null)) return url;
  }
  return null;
}
