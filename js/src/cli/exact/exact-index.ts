/**
 * Index logs (what `build --exact` writes) as the CLI reads them: telling one
 * from a filter file by its first bytes, opening it, and what kind of keys it
 * holds. The log is a FileCuckooIndex (cuckoo-bloom-wasm/index-file,
 * https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/EXACT-INDEX.md): an append-only file of records, with `<log>.snapshot` as a
 * cache of its table.
 */
import { existsSync } from 'node:fs';
import { FileCuckooIndex, type OpenReport } from '../../exact-index/file/index.js';
import { LOG_MAGIC } from '../../exact-index/file/file-store.js';
import type { ExpressionDepth } from '../../url/expressions.js';
import { fileError } from '../errors.js';
import { openRegularFile, readFully } from '../io/regular-file.js';

/** "CBWF": a filter file's first 4 bytes (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md). */
const FILTER_MAGIC = new Uint8Array([0x43, 0x42, 0x57, 0x46]);

type FileKind = 'index-log' | 'filter' | 'other';

/**
 * What `path` holds, from its first bytes (the file must exist and be a
 * regular file: a CliError naming it otherwise, at once for a FIFO). Read before opening anything: FileCuckooIndex.open
 * would create a missing log, and query and info must never do that.
 */
export async function sniffFile(path: string): Promise<FileKind> {
  const head = new Uint8Array(LOG_MAGIC.length);
  // Only a regular file is read (regular-file.ts): `repair <FIFO>` blocked
  // forever in a plain open, and a device is no log either.
  const { handle } = await openRegularFile(path, 'an index log');
  let got: number;
  try {
    got = await readFully(handle, head, 0);
  } catch (error) {
    throw fileError('read', path, error);
  } finally {
    await handle.close();
  }
  const startsWith = (magic: Uint8Array): boolean => got >= magic.length && magic.every((byte, i) => head[i] === byte);
  if (startsWith(LOG_MAGIC)) return 'index-log';
  return startsWith(FILTER_MAGIC) ? 'filter' : 'other';
}

/**
 * The key of the one record that marks a log of URL expressions (`build
 * --exact --urls`). It holds newlines, which no key of `build` can (keys are
 * lines) and no expression can (canonical URLs have none), so it never
 * collides with a stored key; it is written before the first key, so a torn
 * tail never takes it away.
 */
export const URL_LOG_MARKER = '\ncuckoo-bloom-wasm: the keys of this log are URL expressions\n';

/**
 * How deep a URL is checked against a log of URL expressions: every host
 * suffix and every directory prefix. The log holds the list's entries
 * exactly, so checking more expressions costs lookups, never a false
 * positive; and a URL then matches exactly the entries (and the first one)
 * a blocklist of the same list would report, since a blocklist checks to
 * the depth its deepest entry needs and an expression deeper than every
 * entry matches none.
 */
export const EVERY_EXPRESSION: ExpressionDepth = { hostLabels: Number.MAX_SAFE_INTEGER, pathDepth: Number.MAX_SAFE_INTEGER };

export interface OpenedLog {
  index: FileCuckooIndex;
  /** Built with --urls: its keys are URL expressions (and one marker record). */
  urlExpressions: boolean;
  /** Live keys, the marker not counted. */
  keys: number;
  /** What opening found (a torn tail ignored, the snapshot used or not). */
  report: OpenReport;
  /** Whether `<log>.snapshot` exists (used or not: see report.snapshotLogBytes). */
  snapshotPresent: boolean;
}

/**
 * Opens the index log at `path` (sniffFile said 'index-log') for reading
 * only: query and info never write to a log, which another process may be
 * appending to. Opening replays it, or loads its snapshot when that matches
 * the log; a torn last record (a write that never finished, or one still in
 * progress) is ignored and left in the file; damage is `CORRUPT` (naming the
 * byte offset and `repair`), never read as a shorter log.
 * @throws FilterError `CORRUPT` (a damaged record), `UNAVAILABLE` (I/O).
 */
export function openIndexLog(path: string): OpenedLog {
  const index = FileCuckooIndex.open(path, { readOnly: true });
  const urlExpressions = index.has(URL_LOG_MARKER);
  return {
    index,
    urlExpressions,
    keys: index.size - (urlExpressions ? 1 : 0),
    report: index.openReport,
    snapshotPresent: existsSync(`${path}.snapshot`),
  };
}
