/**
 * Where `build` puts the lines it reads: a plain filter (one key per
 * non-empty line, stored as the line's bytes), a URL blocklist (list lines,
 * decoded as UTF-8, parsed into expressions), or with --exact an index log
 * (either kind of key). They take lines a batch at a time and keep only
 * counters and the first few unparseable lines, so memory does not grow with
 * the input.
 */
import { isUtf8 } from 'node:buffer';
import {
  type AnyFilter,
  type CuckooIndex,
  tryAddKey,
  FilterError,
  filterType,
  type ListFormat,
  ListLineParser,
  type ListParseOptions,
  type UrlBlocklist,
} from '../../index.js';
import { displayText, listLineText } from './utf8-lines.js';

/** Unparseable lines kept with their text; the rest are only counted. */
const MAX_REPORTED_ERRORS = 10;

export interface LineProblem {
  line: number;
  text: string;
  reason: string;
}

export interface SinkCounts {
  /** Lines read. */
  lines: number;
  /** Keys (non-empty lines), or the expressions of the list's entry lines. */
  candidates: number;
  /** Keys or expressions added to the filter. */
  stored: number;
  /** Keys or expressions not added because the filter already reported them present (repeats, or false positives). */
  alreadyPresent: number;
  /** Empty lines (keys), or blank/comment/header lines (lists). */
  skipped: number;
  /** Lines that could not be read (lists only). */
  errorCount: number;
  /** The first MAX_REPORTED_ERRORS of them. */
  errors: LineProblem[];
  /** Of the unparseable lines, those that are not valid UTF-8 (URL lists only). */
  notUtf8: number;
  /** The line numbers of the first MAX_REPORTED_ERRORS of them. */
  notUtf8Lines: number[];
  /** Entry lines stored with a warning (single-label hosts, public suffixes; lists only). */
  warningCount: number;
  /** The first MAX_REPORTED_ERRORS of them. */
  warnings: LineProblem[];
}

/** A cuckoo filter had no room for a key (the library said FULL): where, and how much was stored before. */
export class FilterFullError extends Error {
  readonly line: number;
  readonly stored: number;

  constructor(line: number, stored: number, cause: unknown) {
    super(`filter full at line ${line}`, { cause });
    this.name = 'FilterFullError';
    this.line = line;
    this.stored = stored;
  }
}

export interface Sink {
  readonly counts: SinkCounts;
  addLines(lines: readonly Uint8Array[]): void;
}

function emptyCounts(): SinkCounts {
  return {
    lines: 0,
    candidates: 0,
    stored: 0,
    alreadyPresent: 0,
    skipped: 0,
    errorCount: 0,
    errors: [],
    notUtf8: 0,
    notUtf8Lines: [],
    warningCount: 0,
    warnings: [],
  };
}

/**
 * The longest list line parsed: a URL is at most 2 Mi characters
 * (MAX_URL_CHARS, up to 3 bytes each), and a longer line is not read as text
 * at all, which bounds the work and memory one line costs.
 */
const MAX_LIST_LINE_BYTES = 6 * 1024 * 1024;

/** Characters of an unparseable line kept for the report (a line may be megabytes long). */
const MAX_REPORTED_TEXT = 200;

function recordError(counts: SinkCounts, text: string, reason: string): void {
  counts.errorCount++;
  if (counts.errors.length < MAX_REPORTED_ERRORS) {
    const shown = text.length > MAX_REPORTED_TEXT ? `${text.slice(0, MAX_REPORTED_TEXT)}…` : text;
    counts.errors.push({ line: counts.lines, text: shown, reason });
  }
}

function recordWarning(counts: SinkCounts, text: string, reason: string): void {
  counts.warningCount++;
  if (counts.warnings.length < MAX_REPORTED_ERRORS) {
    const shown = text.length > MAX_REPORTED_TEXT ? `${text.slice(0, MAX_REPORTED_TEXT)}…` : text;
    counts.warnings.push({ line: counts.lines, text: shown, reason });
  }
}

/**
 * A list line (the current one, counts.lines) parsed by the list's parser, or
 * null when it was skipped or unparseable (counted and recorded here).
 */
function readListLine(bytes: Uint8Array, parser: ListLineParser, counts: SinkCounts): { text: string; expressions: string[] } | null {
  const format = parser.format;
  if (bytes.length > MAX_LIST_LINE_BYTES) {
    recordError(counts, displayText(bytes.subarray(0, MAX_REPORTED_TEXT)), `the line is longer than ${MAX_LIST_LINE_BYTES / 2 ** 20} MiB, more than any list entry can be (a URL has at most 2 Mi characters)`);
    return null;
  }
  const decoded = listLineText(bytes, format);
  if (decoded.kind === 'skip') {
    counts.skipped++;
    return null;
  }
  if (decoded.kind === 'not-utf8') {
    counts.notUtf8++;
    if (counts.notUtf8Lines.length < MAX_REPORTED_ERRORS) counts.notUtf8Lines.push(counts.lines);
    recordError(counts, decoded.shown, decoded.reason);
    return null;
  }
  const parsed = parser.parse(decoded.text);
  if (parsed.kind === 'skip') {
    counts.skipped++;
    return null;
  }
  if (parsed.kind === 'error') {
    recordError(counts, decoded.text, parsed.reason);
    return null;
  }
  if (parsed.warnings !== undefined) recordWarning(counts, decoded.text, parsed.warnings.join('; '));
  return { text: decoded.text, expressions: parsed.expressions };
}

/**
 * Whether a key the filter already reports present is skipped rather than
 * added again: only for filters without removal (Bloom, blocked Bloom), where
 * adding it would change no bit, so skipping only lets us count repeats.
 * A filter with removal (counting Bloom, cuckoo) stores every key of the
 * input: a key skipped because it was a false positive would depend on
 * another key's bits or fingerprint, and removing that key would make it a
 * false negative.
 */
export function skipsRepeats(filter: AnyFilter): boolean {
  return !filterType(filter.type).supportsRemove;
}

/**
 * Adds a key; false when a cuckoo filter has no room for it. A key refused
 * while the filter reports it present (its fingerprint already fills both
 * buckets: 2 x bucketSize copies) is found all the same, and counts as present.
 */
function storeKey(filter: AnyFilter, key: Uint8Array): 'stored' | 'present' | 'full' {
  if (tryAddKey(filter, key)) return 'stored';
  return filter.has(key) ? 'present' : 'full';
}

/**
 * One key per non-empty line: the line's bytes, whatever they are. Keys go
 * in one at a time: measured on 1M keys, a KeyBatch per chunk was no faster
 * (cuckoo 435-630 ns/key one by one, 770-970 ns/key batched; counting
 * 420-590 vs 320-550): the table's cache misses dominate, not the call.
 */
export class KeySink implements Sink {
  readonly counts = emptyCounts();
  readonly #filter: AnyFilter;
  readonly #skipRepeats: boolean;

  constructor(filter: AnyFilter) {
    this.#filter = filter;
    this.#skipRepeats = skipsRepeats(filter);
  }

  addLines(lines: readonly Uint8Array[]): void {
    const counts = this.counts;
    const filter = this.#filter;
    const skipRepeats = this.#skipRepeats;
    for (const line of lines) {
      counts.lines++;
      if (line.length === 0) {
        counts.skipped++;
        continue;
      }
      counts.candidates++;
      const outcome = skipRepeats && filter.has(line) ? 'present' : storeKey(filter, line);
      if (outcome === 'stored') counts.stored++;
      else if (outcome === 'present') counts.alreadyPresent++;
      else throw new FilterFullError(counts.lines, counts.stored, null);
    }
  }
}

/**
 * List lines into a URL blocklist; unparseable lines are counted and the first ones kept.
 *
 * Every expression of every entry line goes to the blocklist, whatever its filter
 * answers for it (issue #40): the exact companion must hold every expression of the
 * list. A line skipped because the filter already answered "maybe" (a repeat, or a
 * false positive of the lines before) left its expressions out of `<output>.confirm`,
 * and `query` then answered `clear` for a listed URL. The blocklist itself knows what
 * is new: it keeps each expression once in its companion and leaves a Bloom filter's
 * bits as they are for one it already reports.
 */
export class UrlListSink implements Sink {
  readonly counts = emptyCounts();
  readonly #blocklist: UrlBlocklist;
  readonly #parser: ListLineParser;
  readonly #entriesBefore: number;

  constructor(blocklist: UrlBlocklist, format: ListFormat, parseOptions: ListParseOptions = {}) {
    this.#blocklist = blocklist;
    this.#parser = new ListLineParser(format, parseOptions);
    this.#entriesBefore = blocklist.entryCount;
  }

  addLines(lines: readonly Uint8Array[]): void {
    const counts = this.counts;
    for (const bytes of lines) {
      counts.lines++;
      const parsed = readListLine(bytes, this.#parser, counts);
      if (parsed === null) continue;
      counts.candidates += parsed.expressions.length;
      try {
        // The line's expressions, not the line: its meaning may depend on lines
        // before it (an RPZ $ORIGIN) that this sink's parser has seen. An
        // expression read as a plain line is itself (canonical forms are fixed points).
        for (const expression of parsed.expressions) this.#blocklist.addLine(expression, 'plain');
      } catch (error) {
        if (error instanceof FilterError && error.code === 'FULL') {
          throw new FilterFullError(counts.lines, this.#stored(), error);
        }
        throw error;
      }
    }
  }

  /**
   * After the last line: `stored` is the distinct expressions the list added,
   * `alreadyPresent` the repeats (an expression read before, on this line or an
   * earlier one). Counted once, at the end: the blocklist counts its distinct
   * expressions from its companion's hashes.
   */
  settle(): void {
    this.counts.stored = this.#stored();
    this.counts.alreadyPresent = this.counts.candidates - this.counts.stored;
  }

  #stored(): number {
    return this.#blocklist.entryCount - this.#entriesBefore;
  }
}

/**
 * For a static filter type (binary fuse), which is built once from the whole
 * input: keeps every distinct key (or every list line with entries, and the
 * distinct expressions) until the input ends, counting as the other sinks
 * do; repeats are counted as already present. Memory grows with the input.
 *
 * A key that is valid UTF-8 is kept as its text, which encodes back to
 * exactly its bytes (UTF-8 is one-to-one on valid sequences) and reaches the
 * filter on the fast path for strings; any other key is kept as a "binary
 * string" (one char per byte, Latin-1) in a set of its own, so the two forms
 * never meet, and handed over as bytes.
 */
export class CollectingSink implements Sink {
  readonly counts = emptyCounts();
  readonly #distinct = new Set<string>();
  readonly #distinctBinary = new Set<string>();
  readonly #urls: boolean;
  readonly #parser: ListLineParser;

  constructor(urls: boolean, format: ListFormat, parseOptions: ListParseOptions = {}) {
    this.#urls = urls;
    this.#parser = new ListLineParser(format, parseOptions);
  }

  /** The distinct keys (UTF-8 ones as text, others as bytes), or the distinct expressions of a URL list. */
  distinctKeys(): Array<string | Uint8Array> {
    const keys: Array<string | Uint8Array> = [...this.#distinct];
    for (const binary of this.#distinctBinary) keys.push(Buffer.from(binary, 'latin1'));
    return keys;
  }

  addLines(lines: readonly Uint8Array[]): void {
    const counts = this.counts;
    for (const bytes of lines) {
      counts.lines++;
      if (!this.#urls) {
        if (bytes.length === 0) {
          counts.skipped++;
          continue;
        }
        const line = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
        if (isUtf8(line)) this.#collect(line.toString('utf8'), this.#distinct);
        else this.#collect(line.toString('latin1'), this.#distinctBinary);
        continue;
      }
      const parsed = readListLine(bytes, this.#parser, counts);
      if (parsed === null) continue;
      for (const expression of parsed.expressions) this.#collect(expression, this.#distinct);
    }
  }

  #collect(key: string, distinct: Set<string>): void {
    const counts = this.counts;
    counts.candidates++;
    if (distinct.has(key)) {
      counts.alreadyPresent++;
    } else {
      distinct.add(key);
      counts.stored++;
    }
  }
}

/**
 * Keys or a URL list's expressions into an exact index (build --exact): the
 * same keys the filter sinks store, read by the same rules, each stored once.
 * A key the index already holds is a duplicate, counted in `alreadyPresent`
 * and not written again: setting it would append a second record for it (a
 * dead one, once replaced), and the log should hold one record per key.
 * Unlike a filter's "already present", this count is exact.
 */
export class IndexSink implements Sink {
  readonly counts = emptyCounts();
  readonly #index: CuckooIndex;
  readonly #urls: boolean;
  readonly #parser: ListLineParser;

  constructor(index: CuckooIndex, urls: boolean, format: ListFormat) {
    this.#index = index;
    this.#urls = urls;
    this.#parser = new ListLineParser(format);
  }

  addLines(lines: readonly Uint8Array[]): void {
    const counts = this.counts;
    for (const bytes of lines) {
      counts.lines++;
      if (!this.#urls) {
        if (bytes.length === 0) counts.skipped++;
        else this.#store(bytes);
        continue;
      }
      const parsed = readListLine(bytes, this.#parser, counts);
      if (parsed !== null) for (const expression of parsed.expressions) this.#store(expression);
    }
  }

  #store(key: Uint8Array | string): void {
    const counts = this.counts;
    counts.candidates++;
    if (this.#index.has(key)) {
      counts.alreadyPresent++;
    } else {
      this.#index.set(key);
      counts.stored++;
    }
  }
}

/**
 * What the sizing pass counts per line: a key per non-empty line, or a list
 * line's expressions (each also handed to `onExpression`, if given: the
 * build sizes a blocklist for the depths its entries need).
 */
export function candidateCounter(
  urls: boolean,
  format: ListFormat,
  onExpression?: (expression: string) => void,
): (line: Uint8Array) => number {
  if (!urls) return (line) => (line.length === 0 ? 0 : 1);
  const parser = new ListLineParser(format);
  return (line) => {
    if (line.length > MAX_LIST_LINE_BYTES) return 0;
    const decoded = listLineText(line, format);
    if (decoded.kind !== 'text') return 0;
    const parsed = parser.parse(decoded.text);
    if (parsed.kind !== 'entry') return 0;
    if (onExpression !== undefined) for (const expression of parsed.expressions) onExpression(expression);
    return parsed.expressions.length;
  };
}
