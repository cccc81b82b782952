/**
 * "Did you mean": the known word nearest a mistyped one (`buidl` → `build`,
 * `--type blom` → `bloom`, `--capactiy` → `--capacity`), by optimal string
 * alignment distance (Levenshtein plus swapped neighbours, the commonest slip
 * of the fingers). A suggestion is made only when it is unambiguous and close:
 * at most 2 edits, and fewer than half the typed word's letters, so `x` never
 * "means" `info`.
 */

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The one known word nearest `typed`, or null when none is close or two are equally close. */
export function nearestWord(typed: string, known: readonly string[]): string | null {
  const word = typed.toLowerCase();
  const limit = Math.min(2, Math.ceil(word.length / 2) - 1);
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tie = false;
  for (const candidate of known) {
    const distance = editDistance(word, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
      tie = false;
    } else if (distance === bestDistance && candidate !== best) {
      tie = true;
    }
  }
  return best !== null && bestDistance <= limit && !tie ? best : null;
}

/** `; did you mean 'build'?` for a close word, or '' when there is none. */
export function didYouMean(typed: string, known: readonly string[], quote = (word: string) => `'${word}'`): string {
  const nearest = nearestWord(typed, known);
  return nearest === null ? '' : `; did you mean ${quote(nearest)}?`;
}
