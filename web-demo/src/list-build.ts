// The demo's own build of a visitor's list ("Bring your own list", byo-list.ts): in time
// slices, so the page stays responsive. A module of its own, without the page, so that
// tests/url/never-clear.test.mjs walks this path too (every listed entry is never clear).
import { filterType, parseListLine, UrlBlocklist, type BlocklistFilterType, type ListParseError } from 'cuckoo-bloom-wasm';
import { formatInteger, yieldToEventLoop } from './dom.ts';

/** Work per slice before yielding to the event loop, so the page stays responsive. */
const SLICE_MS = 12;

/** A list built in the page, and what was made of its lines. */
export interface BuiltList {
  list: UrlBlocklist;
  lines: number;
  distinct: number;
  skipped: number;
  errors: ListParseError[];
  milliseconds: number;
}

/**
 * Two passes over the lines, each in time slices: the first parses and counts distinct
 * expressions (to size the filter), the second feeds the lines to `UrlBlocklist.create` +
 * `addLine` (a static type: one `UrlBlocklist.build` of all the lines). Returns null if cancelled.
 */
export async function buildInChunks(
  text: string,
  type: BlocklistFilterType,
  falsePositiveRate: number,
  onProgress: (fraction: number, phase: string) => void,
  cancelled: () => boolean,
): Promise<BuiltList | null> {
  const start = performance.now();
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const distinct = new Set<string>();
  const errors: ListParseError[] = [];
  let skipped = 0;
  // Every expression read, repeats included: a filter with removal (cuckoo, counting Bloom)
  // keeps a copy of each repeat (so a removal takes one copy), and needs room for them all.
  let expressionsRead = 0;

  const inSlices = async (phase: string, from: number, to: number, each: (line: string, index: number) => void): Promise<boolean> => {
    let i = 0;
    while (i < lines.length) {
      const sliceStart = performance.now();
      do {
        const end = Math.min(lines.length, i + 256);
        for (; i < end; i++) each(lines[i]!, i);
      } while (i < lines.length && performance.now() - sliceStart < SLICE_MS);
      onProgress(from + ((to - from) * i) / lines.length, phase);
      await yieldToEventLoop();
      if (cancelled()) return false;
    }
    return true;
  };

  if (!(await inSlices('Reading', 0, 0.4, (line, index) => {
    const parsed = parseListLine(line, 'auto');
    if (parsed.kind === 'entry') {
      for (const expression of parsed.expressions) distinct.add(expression);
      expressionsRead += parsed.expressions.length;
    } else if (parsed.kind === 'skip') skipped++;
    else errors.push({ line: index + 1, text: line, reason: parsed.reason });
  }))) return null;
  if (distinct.size === 0) {
    throw new Error(`no host or URL found in ${formatInteger(lines.length)} lines${errors[0] ? ` (line ${errors[0].line}: ${errors[0].reason})` : ''}`);
  }
  if (filterType(type).isStatic) {
    // A static filter (binary fuse) is built once from the whole list: one step, not sliced.
    onProgress(0.4, 'Building');
    await yieldToEventLoop();
    if (cancelled()) return null;
    const list = UrlBlocklist.build(lines, { type, falsePositiveRate });
    onProgress(1, 'Building');
    return { list, lines: lines.length, distinct: distinct.size, skipped, errors, milliseconds: performance.now() - start };
  }
  // Sized for every expression read, as the CLI's build is: sized for the distinct ones, a
  // cuckoo filter ran out of room on a list with repeats (tests/url/never-clear.test.mjs).
  const list = UrlBlocklist.create({ capacity: expressionsRead, type, falsePositiveRate });
  try {
    if (!(await inSlices('Building', 0.4, 1, (line) => list.addLine(line)))) {
      list.free();
      return null;
    }
  } catch (error) {
    list.free();
    throw error;
  }
  return { list, lines: lines.length, distinct: distinct.size, skipped, errors, milliseconds: performance.now() - start };
}
