/**
 * List deltas in the CLI (docs/CLI.md, "Updates by delta"): `update FILTER
 * --list LIST --remove R --add A --output NAME.delta` and `diff OLD_LIST
 * NEW_LIST --base FILTER --output NAME.delta` write the delta from the
 * current version of a URL blocklist to the next, for every type (a static
 * filter rebuilt moves every slot; a delta does not touch it). A chain
 * continues with `--after LAST.delta`. The base filter and its companion are
 * not changed: clients keep them and apply the deltas in order.
 */
import { existsSync, statSync } from 'node:fs';
import { init, type ListFormat, UrlBlocklist } from '../../index.js';
import { formatCount, table } from '../describe.js';
import { CliError, EXIT_CLEAR, usageError } from '../errors.js';
import { readCompanionBytes, readFilterBytes } from '../io/filter-input.js';
import { loadFilterFile } from '../io/load.js';
import { asCliError, readListLines, readWholeFile, writeFileAtomically } from './patch-files.js';

/** Whether an --output names a delta (`*.delta`): update and diff then write one. */
export function isDeltaPath(output: unknown): output is string {
  return typeof output === 'string' && output.endsWith('.delta');
}

interface DeltaOutput {
  /** The base filter file (its companion beside it as <filter>.confirm). */
  filterPath: string;
  afterPath: string | undefined;
  format: ListFormat;
  output: string;
  json: boolean;
  quiet: boolean;
  command: 'update' | 'diff';
}

/** `update FILTER --list LIST [--remove R] [--add A] --output NAME.delta [--after LAST.delta]`. */
export async function runDeltaUpdate(request: Omit<DeltaOutput, 'command'> & { listPath?: string | undefined; addPath?: string | undefined; removePath?: string | undefined }): Promise<number> {
  if (request.listPath === undefined) {
    throw usageError(
      'update --output NAME.delta needs --list FILE, the list the current version holds (the base filter\'s list with every update since): a delta names what it removes and adds against it',
      'update',
    );
  }
  refuseOutputOverInput(request.output, [
    [request.listPath, '--list'],
    [request.removePath, '--remove'],
    [request.addPath, '--add'],
    ...chainInputs(request),
  ]);
  const oldLines = await readListLines(request.listPath);
  const remove = request.removePath === undefined ? undefined : await readListLines(request.removePath);
  const add = request.addPath === undefined ? undefined : await readListLines(request.addPath);
  return writeDelta({ ...request, command: 'update' }, oldLines, { remove, add });
}

/** `diff OLD_LIST NEW_LIST --base FILTER --output NAME.delta [--after LAST.delta]`. */
export async function runDeltaDiff(request: Omit<DeltaOutput, 'command'> & { oldListPath: string; newListPath: string }): Promise<number> {
  refuseOutputOverInput(request.output, [[request.oldListPath, 'OLD_LIST'], [request.newListPath, 'NEW_LIST'], ...chainInputs(request)]);
  const oldLines = await readListLines(request.oldListPath);
  const newLines = await readListLines(request.newListPath);
  return writeDelta({ ...request, command: 'diff' }, oldLines, newLines);
}

/** The files of the chain a delta continues: its base, the base's companion, and --after. */
function chainInputs(request: Pick<DeltaOutput, 'filterPath' | 'afterPath'>): Array<[string | undefined, string]> {
  return [
    [request.filterPath, 'the base filter'],
    [`${request.filterPath}.confirm`, "the base's companion"],
    [request.afterPath, '--after, the last delta of the chain'],
  ];
}

/**
 * Refuses (exit 2, nothing written) an --output that is one of the inputs:
 * `--after v2.delta --output v2.delta` replaced delta 2 by delta 3, and a
 * client without delta 2 could then apply neither (each names the one before).
 */
function refuseOutputOverInput(output: string, inputs: Array<[string | undefined, string]>): void {
  const target = statSync(output, { throwIfNoEntry: false });
  if (target === undefined) return;
  for (const [path, role] of inputs) {
    const source = path === undefined ? undefined : statSync(path, { throwIfNoEntry: false });
    if (source !== undefined && source.dev === target.dev && source.ino === target.ino) {
      throw usageError(`--output ${output} is ${role} (${path}): a delta is written beside the chain, never over a file of it; choose another output path`);
    }
  }
}

async function writeDelta(request: DeltaOutput, oldLines: string[], next: string[] | { remove?: string[] | undefined; add?: string[] | undefined }): Promise<number> {
  const { filterPath, afterPath, output, command } = request;
  await init();
  const baseBytes = await readFilterBytes(filterPath);
  const loaded = await loadFilterFile(filterPath, baseBytes);
  if (loaded.kind !== 'url-blocklist') throw new CliError(`${filterPath}: a list delta is of a URL blocklist (build --urls); this is a plain filter`);
  const baseEntries = loaded.blocklist.entryCount;
  const baseType = loaded.blocklist.type;
  const companionPath = `${filterPath}.confirm`;
  const companionBytes = existsSync(companionPath) ? statSync(companionPath).size : 0;
  try {
    // A first delta's old list against the base's companion, exactly (attachList):
    // listDelta checks it against the filter alone, which a false positive passes,
    // and a list with an entry swapped for one would make a version that claims
    // that expression while no delta adds it (a client answers it clear).
    if (afterPath === undefined && companionBytes > 0) {
      const companion = await readCompanionBytes(companionPath);
      asCliError(companionPath, () => loaded.blocklist.attachConfirmation(companion));
      asCliError(`${command}: the old list`, () => loaded.blocklist.attachList(oldLines, request.format));
    }
  } finally {
    loaded.blocklist.free();
  }
  let previous = baseBytes;
  let entriesBefore = baseEntries;
  if (afterPath !== undefined) {
    previous = await readWholeFile(afterPath);
    const last = asCliError(afterPath, () => UrlBlocklist.describeDelta(previous));
    const baseIdentity = Array.from(baseBytes.subarray(baseBytes.length - 8)).reverse().map((b) => b.toString(16).padStart(2, '0')).join('');
    if (last.sequence === 1 && last.base !== baseIdentity) {
      throw new CliError(`${afterPath}: this delta follows another base than ${filterPath} (it applies to ${last.base}, ${filterPath} is ${baseIdentity})`);
    }
    entriesBefore = last.entries;
  }
  const delta = asCliError(command, () => UrlBlocklist.listDelta(previous, oldLines, next, { format: request.format }));
  await writeFileAtomically(output, delta);

  const facts = UrlBlocklist.describeDelta(delta);
  const shipped = baseBytes.length + companionBytes;
  const percent = (bytes: number): number => Number(((100 * bytes) / shipped).toFixed(2));
  const rebuild = facts.chainBytes > UrlBlocklist.DELTA_CHAIN_REBUILD_SHARE * shipped;
  const summary = {
    delta: output,
    bytes: delta.length,
    sequence: facts.sequence,
    base: filterPath,
    type: baseType,
    baseBytes: shipped,
    percentOfBase: percent(delta.length),
    entriesBefore,
    entries: facts.entries,
    chainBytes: facts.chainBytes,
    chainPercentOfBase: percent(facts.chainBytes),
    rebuild,
  };
  const what = companionBytes > 0 ? `${filterPath} and its companion` : filterPath;
  if (request.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else if (!request.quiet) {
    const rows: Array<[string, string]> = [
      ['delta', `${output}: ${formatCount(delta.length)} bytes (${percent(delta.length)}% of ${what}, ${formatCount(shipped)} bytes)`],
      ['sequence', `${facts.sequence}${afterPath === undefined ? ` (the first after ${filterPath})` : ` (after ${afterPath})`}`],
      ['entries', `${formatCount(entriesBefore)} -> ${formatCount(facts.entries)}`],
      ['chain', `${formatCount(facts.chainBytes)} bytes since the base (${percent(facts.chainBytes)}%; a fresh base past ${100 * UrlBlocklist.DELTA_CHAIN_REBUILD_SHARE}%)`],
    ];
    process.stdout.write(`${table(rows)}\n`);
  }
  if (rebuild) {
    process.stderr.write(
      `${command}: the chain of ${facts.sequence} delta(s) since ${filterPath} is now ${formatCount(facts.chainBytes)} bytes, ` +
        `${percent(facts.chainBytes)}% of ${what} (${formatCount(shipped)} bytes), past ${100 * UrlBlocklist.DELTA_CHAIN_REBUILD_SHARE}%: ` +
        `a new client would fetch more than a fresh base saves; build a fresh base from the current list (build --urls) and ship it instead of more deltas\n`,
    );
  }
  return EXIT_CLEAR;
}

