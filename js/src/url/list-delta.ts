// Making a list delta (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md, "Updates by delta"): the
// expressions one version of a list adds and removes against the one before,
// each as an exact set of 64-bit hashes (the companion's format and hash),
// bound to the exact version it applies to. Its size follows the change
// alone, whatever the filter's type: a static filter (binary fuse) rebuilt
// for a new list moves every slot, a delta does not touch it.
import { FilterError } from '../errors.js';
import { describeValue, type OwnedBytes } from '../keys/keys.js';
import { ExactSetBuilder } from './exact-set.js';
import { type ExpressionDepth, expressionDepth } from './expressions.js';
import { type ListFormat, ListLineParser } from './lists/list-parser.js';
import { type DeltaHeader, isDelta, readDelta, writeDelta } from './list-delta-format.js';
import { MAX_EXPRESSION_DEPTH } from './check-url.js';
import { buildScreen, listDigest } from './delta-screen.js';

/** What a delta needs of the version it applies to. */
export interface PreviousVersion {
  /** Its identity as stored: the trailing 8 bytes of its blocklist or delta bytes. */
  identity: Uint8Array;
  /** 0 for a base, else the delta's sequence number. */
  sequence: number;
  depth: ExpressionDepth;
  entries: number;
  /** Bytes of the deltas since the base, this one included (0 for a base). */
  chainBytes: number;
  /** For a base: whether its filter reports an expression (every old entry must be reported). */
  reports: ((expression: string) => boolean) | null;
  /** For a delta: the digest of its version's expressions (the old list must match it). */
  digest: [number, number] | null;
}

/** A delta's previous version read from its own bytes (the last delta of a chain). */
export function previousDelta(bytes: Uint8Array): PreviousVersion {
  const header: DeltaHeader = readDelta(bytes);
  return {
    identity: bytes.slice(bytes.length - 8),
    sequence: header.sequence,
    depth: header.depth,
    entries: header.entries,
    chainBytes: header.chainBytes + header.byteLength,
    reports: null,
    digest: header.digest,
  };
}

export { isDelta };

/** The distinct expressions of a list (text or lines), read as `build` reads it. */
export function listExpressions(list: unknown, format: ListFormat, what: string): Set<string> {
  if (typeof list !== 'string' && (list === null || typeof (list as Iterable<string>)?.[Symbol.iterator] !== 'function')) {
    throw new FilterError('INVALID_ARGUMENT', `listDelta: ${what} must be list text or an iterable of lines, got ${describeValue(list)}`);
  }
  const parser = new ListLineParser(format);
  const expressions = new Set<string>();
  const lines = typeof list === 'string' ? list.split(/\r?\n/) : (list as Iterable<unknown>);
  for (const line of lines) {
    if (typeof line !== 'string') throw new FilterError('INVALID_ARGUMENT', `listDelta: a line of ${what} is ${describeValue(line)}, not a string`);
    const parsed = parser.parse(line);
    if (parsed.kind === 'entry') for (const expression of parsed.expressions) expressions.add(expression);
  }
  return expressions;
}

/** A list's next version given as the lines it removes and adds (`UrlBlocklist.listDelta`). */
export interface ListChangeLines {
  /** Lines whose expressions leave the list (each must be on it). */
  remove?: string | Iterable<string> | undefined;
  /** Lines whose expressions join it (one already on it changes nothing). */
  add?: string | Iterable<string> | undefined;
}

/** Whether `value` is a ListChangeLines object rather than a list (text or lines). */
export function isChangeLines(value: unknown): value is ListChangeLines {
  return typeof value === 'object' && value !== null && typeof (value as Iterable<string>)[Symbol.iterator] !== 'function';
}

/**
 * The next version's expressions: `oldExpressions` less those `changes.remove`
 * lists, plus those `changes.add` lists.
 * @throws FilterError `INVALID_ARGUMENT` (a removal the old list does not hold: naming it; an unknown key).
 */
export function changedExpressions(oldExpressions: Set<string>, changes: ListChangeLines, format: ListFormat): Set<string> {
  for (const key of Object.keys(changes)) {
    if (key !== 'add' && key !== 'remove') throw new FilterError('INVALID_ARGUMENT', `listDelta: the changes take add and remove, not '${key}'`);
  }
  const next = new Set(oldExpressions);
  for (const expression of changes.remove === undefined ? [] : listExpressions(changes.remove, format, 'remove')) {
    if (!next.delete(expression)) {
      throw new FilterError('INVALID_ARGUMENT', `listDelta: cannot remove ${JSON.stringify(expression)}: the old list does not hold it`);
    }
  }
  for (const expression of changes.add === undefined ? [] : listExpressions(changes.add, format, 'add')) next.add(expression);
  return next;
}

/**
 * The delta from the version `previous` (whose list is `oldExpressions`) to
 * the list `newExpressions`.
 * @throws FilterError `INVALID_ARGUMENT` when the old list is not the one `previous` holds.
 */
export function encodeListDelta(previous: PreviousVersion, oldExpressions: Set<string>, newExpressions: Set<string>): OwnedBytes {
  if (oldExpressions.size !== previous.entries) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `listDelta: the old list has ${oldExpressions.size} distinct expressions, and the version it should be has ${previous.entries}: ` +
        'give the list that version holds (its build input with every update since)',
    );
  }
  if (previous.digest !== null) {
    const [a, b] = listDigest(oldExpressions);
    if (a !== previous.digest[0] || b !== previous.digest[1]) {
      throw new FilterError(
        'INVALID_ARGUMENT',
        'listDelta: the old list is not the one the previous delta made (its expressions differ): give the list that version holds (its build input with every update since)',
      );
    }
  }
  if (previous.reports !== null) {
    for (const expression of oldExpressions) {
      if (!previous.reports(expression)) {
        throw new FilterError('INVALID_ARGUMENT', `listDelta: the old list has ${JSON.stringify(expression)}, which the base blocklist does not hold: not its list`);
      }
    }
  }
  const added = new ExactSetBuilder();
  const removed = new ExactSetBuilder();
  try {
    let depth = previous.depth;
    for (const expression of newExpressions) {
      if (oldExpressions.has(expression)) continue;
      added.add(expression);
      const needed = expressionDepth(expression);
      if (needed.hostLabels > MAX_EXPRESSION_DEPTH || needed.pathDepth > MAX_EXPRESSION_DEPTH) {
        throw new FilterError('INVALID_ARGUMENT', `list entry ${JSON.stringify(expression.slice(0, 80))} is deeper than ${MAX_EXPRESSION_DEPTH} labels or directories`);
      }
      depth = { hostLabels: Math.max(depth.hostLabels, needed.hostLabels), pathDepth: Math.max(depth.pathDepth, needed.pathDepth) };
    }
    const gone: string[] = [];
    for (const expression of oldExpressions) {
      if (newExpressions.has(expression)) continue;
      removed.add(expression);
      gone.push(expression);
    }
    const changed = [...gone];
    for (const expression of newExpressions) if (!oldExpressions.has(expression)) changed.push(expression);
    // Each set is bound (type 33's blocklistChecksum) to the version the delta applies to.
    const view = new DataView(previous.identity.buffer, previous.identity.byteOffset, 8);
    const binding = { low: view.getUint32(0, true), high: view.getUint32(4, true) };
    return writeDelta({
      sequence: previous.sequence + 1,
      entries: newExpressions.size,
      base: previous.identity,
      depth,
      chainBytes: previous.chainBytes,
      added: added.encode(binding),
      removed: removed.encode(binding),
      screen: buildScreen(changed, changed.length),
      digest: listDigest(newExpressions),
    });
  } finally {
    added.free();
    removed.free();
  }
}
