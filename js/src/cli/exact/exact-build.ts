/**
 * `build --exact`: the keys of `build` (or, with --urls, a list's Safe
 * Browsing expressions) into an exact index log (FileCuckooIndex,
 * https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/EXACT-INDEX.md) instead of a filter: one record per distinct key, answers
 * with no false positive.
 *
 * The input is read once, by the same readers as a filter build (lines.ts,
 * and sinks.ts for list lines). The log is written to `<log>.tmp-<pid>`,
 * flushed, its table saved beside it as a snapshot (so opening the log later
 * loads the table instead of replaying every record), and both are renamed
 * into place: a failed build leaves no file behind. The log needs no sizing
 * pass: the index doubles its table as keys arrive (measured at 1M URL keys,
 * 5.0 s growing from 1,024 against 4.9 s sized for 1M up front: each record
 * costs a write to the file either way).
 */
import { rmSync } from 'node:fs';
import { rename, stat } from 'node:fs/promises';
import { init } from '../../index.js';
import { FileCuckooIndex } from '../../exact-index/file/index.js';
import { WriterLock } from '../../exact-index/file/writer-lock.js';
import type { BuildOptions } from '../build-command/build-options.js';
import { checkOutputPath, countPass, errorLines, fillPass, inputName, refuseEmpty, warnAboutLinesNotStored } from '../build-command/build-steps.js';
import { removeAllTemporary, removePath, trackTemporary } from '../io/cleanup.js';
import { formatCount, table } from '../describe.js';
import { EXIT_CLEAR, fileError } from '../errors.js';
import { URL_LOG_MARKER } from './exact-index.js';
import { fileLineBatches, type LineBatch, lineBatches, openInputFile, readsOnce } from '../io/lines.js';
import { type ExactBuildFiles, exactBuildFiles } from '../io/output-paths.js';
import { candidateCounter, IndexSink, type SinkCounts } from '../io/sinks.js';

/** What the summary reports, after the files are in place. */
interface Built {
  counts: SinkCounts;
  logBytes: number;
  snapshotBytes: number;
  tableBytes: number;
}

export async function buildExact(options: BuildOptions): Promise<number> {
  const files = exactBuildFiles(options.output);
  const { temporaries } = files;
  // The snapshot is renamed over, and the temporaries removed before the
  // build starts: an input that is one of them would be lost.
  await checkOutputPath(options.output, options.input, 'index log', [
    { path: files.snapshot, role: "the log's snapshot (its table)" },
    ...temporaries.map((path) => ({ path, role: 'a temporary file of the build' })),
  ]);
  const lineOptions = { refuseBinaryAs: options.force ? null : inputName(options.input) };
  await init();
  // The build renames a new log over <output>. A writer that has that log
  // open (a service appending to it) would go on appending to the replaced
  // file: its acknowledged writes lost, and its snapshot then describing
  // another file (CORRUPT). So the build takes the log's writer lock, as a
  // writing open does, before reading any input, and holds it until the
  // rename is done: LOCKED (exit 2, naming the writer) while one holds it,
  // and no writer can open the old log in between.
  const lock = WriterLock.acquire(options.output);
  const stopWatching = endOnSignals(() => lock.release());
  try {
    return await buildLocked(options, files, lineOptions);
  } finally {
    stopWatching();
    lock.release();
  }
}

const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Until the returned function is called, SIGINT, SIGTERM and SIGHUP remove
 * the build's temporaries, run `cleanup` (the writer lock's files), and end
 * the process by that very signal. Not by process.exit(): while the input is
 * a FIFO no writer has opened, a thread of libuv's pool is blocked in its
 * open(), and exit joins that pool, so the process hung until a writer came
 * (`timeout` could not stop it). The signal is raised again with no listener
 * left, which restores its default action: the kernel ends the process at
 * once, whatever the pool is doing, with the status a shell expects (128 + n).
 */
function endOnSignals(cleanup: () => void): () => void {
  const listeners = ENDING_SIGNALS.map((signal) => {
    const listener = (): void => {
      try {
        removeAllTemporary();
        cleanup();
      } finally {
        for (const each of ENDING_SIGNALS) process.removeAllListeners(each);
        process.kill(process.pid, signal);
      }
    };
    // First: cleanup.ts's own listener (trackTemporary) would process.exit().
    process.prependListener(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) process.removeListener(signal, listener);
  };
}

async function buildLocked(
  options: BuildOptions,
  files: ExactBuildFiles,
  lineOptions: { refuseBinaryAs: string | null },
): Promise<number> {
  const { temporary, temporarySnapshot, temporaries } = files;
  // FileCuckooIndex.open appends to an existing log: a leftover of a crashed
  // build that had this process id must not be continued.
  rmSync(temporary, { force: true });
  rmSync(temporarySnapshot, { force: true });
  // saveSnapshot() writes `<snapshot>.tmp` and renames it (durable-files.ts):
  // an interrupt in between must not leave that behind either (it is in `temporaries`).
  for (const path of temporaries) trackTemporary(path);
  let index: FileCuckooIndex | null = null;
  try {
    // A file is counted first, as for a filter: a table sized for its keys is
    // never rebuilt, and each rebuild reads every record back from the log
    // (most of a 1M-key build's time). Stdin or a FIFO cannot be read twice: the table grows.
    let capacity: number | undefined;
    if (!(await readsOnce(options.input))) {
      const file = await openInputFile(options.input);
      const counter = candidateCounter(options.urls, options.format);
      capacity = 1 + (await countPass(fileLineBatches(options.input, file.stream, lineOptions), counter, file.size, 'counting'));
    }
    // Buffered: one write a megabyte; sync() below puts everything on the disk before the rename.
    index = FileCuckooIndex.open(temporary, { bufferWrites: true, ...(capacity === undefined ? {} : { capacity }) });
    if (options.urls) index.set(URL_LOG_MARKER);
    const sink = new IndexSink(index, options.urls, options.format);
    let batches: AsyncIterable<LineBatch>;
    let size = 0;
    if (options.input === '-') {
      batches = lineBatches(process.stdin, lineOptions);
    } else {
      const file = await openInputFile(options.input);
      size = file.size;
      batches = fileLineBatches(options.input, file.stream, lineOptions);
    }
    await fillPass(batches, sink, size, options, 0);
    if (!options.force) refuseEmpty(sink.counts, options);
    // close() ends the log with its close marker, flushes it to the disk and
    // saves the snapshot (snapshotOnClose): on the disk before it gets its
    // final name, so a crash after the rename finds a whole log.
    const { tableBytes } = index.stats();
    index.close();
    index = null;
    const logBytes = (await stat(files.temporary)).size;
    const snapshotBytes = await moveIntoPlace(files);
    for (const path of temporaries) removePath(path);
    report(options, { counts: sink.counts, logBytes, snapshotBytes, tableBytes });
    return EXIT_CLEAR;
  } catch (error) {
    index?.close();
    for (const path of temporaries) removePath(path);
    throw error;
  }
}

/**
 * Renames the finished log and its snapshot to their final names; returns
 * the snapshot's size. The snapshot goes first: whichever rename a crash
 * interrupts, a snapshot beside a log it does not describe is ignored when
 * the log is opened (it is checked against the log's bytes).
 */
async function moveIntoPlace(files: ExactBuildFiles): Promise<number> {
  try {
    const snapshotBytes = (await stat(files.temporarySnapshot)).size;
    await rename(files.temporarySnapshot, files.snapshot);
    await rename(files.temporary, files.output);
    return snapshotBytes;
  } catch (error) {
    throw fileError('write', files.output, error);
  }
}

function report(options: BuildOptions, built: Built): void {
  const { counts } = built;
  if (options.json) {
    const summary = {
      output: options.output,
      kind: 'exact-index',
      keyKind: options.urls ? 'url-expressions' : 'lines',
      lines: counts.lines,
      read: counts.candidates,
      keys: counts.stored,
      duplicates: counts.alreadyPresent,
      skipped: counts.skipped,
      unparseable: { count: counts.errorCount, first: counts.errors },
      ...(options.urls ? { notUtf8: { count: counts.notUtf8, firstLines: counts.notUtf8Lines } } : {}),
      logBytes: built.logBytes,
      snapshotBytes: built.snapshotBytes,
      tableBytes: built.tableBytes,
    };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } else if (!options.quiet) {
    process.stdout.write(`${textSummary(options, built)}\n`);
  }
  warnAboutLinesNotStored(counts, options);
}

function textSummary(options: BuildOptions, built: Built): string {
  const { counts } = built;
  const what = options.urls ? 'expressions' : 'keys';
  const rows: Array<[string, string]> = [
    ['lines', formatCount(counts.lines)],
    [what, `${formatCount(counts.candidates)} read, ${formatCount(counts.stored)} stored (one record each)`],
    ['duplicates', `${formatCount(counts.alreadyPresent)} (stored once)`],
    ['skipped', `${formatCount(counts.skipped)} (${options.urls ? 'blank, comments, headers' : 'empty lines'})`],
  ];
  if (options.urls) rows.push(['unparseable', formatCount(counts.errorCount)]);
  rows.push(
    [
      'log',
      `${formatCount(built.logBytes)} bytes` + (options.urls ? ' (with one record marking its keys as URL expressions)' : ''),
    ],
    ['snapshot', `${formatCount(built.snapshotBytes)} bytes (${options.output}.snapshot: the table, so opening skips the replay)`],
    ['table', `${formatCount(built.tableBytes)} bytes of memory when open`],
  );
  let text = `built ${options.output}: exact index (no false positives)\n${table(rows, '  ')}`;
  if (counts.errorCount > 0) {
    text += `\nunparseable lines (not stored):\n${errorLines(counts, counts.errorCount - counts.errors.length)}`;
  }
  return text;
}
