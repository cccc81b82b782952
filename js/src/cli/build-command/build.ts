/**
 * `build`: streams keys or a URL list into a filter and writes it atomically.
 *
 * Without --capacity a file is read twice: a first pass counts the keys (or
 * list expressions) to size the filter, a second fills it. Stdin cannot be
 * read twice and its size is unknown, so without --capacity it goes into a
 * growing filter (the type's own when it grows, else the registry's
 * `growingStandIn` for it, one with removal for a type with removal) that
 * stays under the target rate however many keys arrive.
 *
 * A filter that ends up overfilled (estimated rate above twice the target:
 * more keys than --capacity) is still written, with a warning on stderr and
 * exit status 3 (EXIT_OVERFILLED).
 *
 * A static type (`isStatic`) is sized by its keys and built once from all of
 * them: the input is read once, every distinct key (or list expression) is
 * kept in memory, and the filter is built at the end.
 *
 * Keys are bytes: each line is stored exactly as read (less a trailing "\r").
 * A URL list is text: its lines must be UTF-8, and an entry line that is not
 * is reported (count and first line numbers, on stderr) and not stored.
 * Input that looks binary, and input with no key at all, are usage errors
 * (exit 2) unless --force is given: both are almost always the wrong file.
 *
 * With --exact the same input goes into an exact index log instead
 * (exact-build.ts); the options that only describe a filter are refused then.
 */
import {
  type AnyFilter,
  type BlocklistFilterType,
  DEFAULT_FILTER_TYPES,
  type FilterTypeEntry,
  type TypeChoice,
  FilterError,
  FILTER_TYPES,
  filterType,
  init,
  UrlBlocklist,
} from '../../index.js';
import { type ExpressionDepth, expressionDepth, SAFE_BROWSING_DEPTH } from '../../url/expressions.js';
import { type BuildType, booleanOptions, OUTPUT_AND_QUIET, parseCapacity, parseCommand, parseFormat, parseRate, parseSeed, parseType, stringOptions } from '../args.js';
import { type ConfirmationFacts, confirmationFacts, confirmationFiles, writeConfirmation } from './build-confirmation.js';
import { type NeverMatchInput, neverMatchRow, neverMatchSummary, readNeverMatch, warnAboutListedNeverMatch } from './build-never-match.js';
import { isPublicSuffix } from './build-public-suffix.js';
import type { BuildOptions } from './build-options.js';
import { blocklistRates, rateRows } from './build-rates.js';
import {
  checkOutputPath,
  countPass,
  errorLines,
  fillPass,
  inputName,
  refuseEmpty,
  warnAboutLinesNotStored,
  warnAboutLinesWithWarnings,
} from './build-steps.js';
import { filterFacts, formatBitsPerKey, formatCount, formatRate, table } from '../describe.js';
import { CliError, EXIT_CLEAR, EXIT_OVERFILLED, usageError } from '../errors.js';
import { buildExact } from '../exact/exact-build.js';
import { fileLineBatches, type LineBatch, lineBatches, openInputFile, readsOnce } from '../io/lines.js';
import { filterBuildFiles } from '../io/output-paths.js';
import { writeFileAtomically } from '../updates/patch-files.js';
import { candidateCounter, CollectingSink, KeySink, type Sink, skipsRepeats, UrlListSink } from '../io/sinks.js';

const DEFAULT_KEY_RATE = 0.01;
const DEFAULT_URL_RATE = 0.001;

/**
 * Options that describe a filter only. An exact index has no type, rate,
 * capacity to size for or seed to choose, so giving one with --exact is a
 * contradiction the user should hear about, not an option silently ignored.
 */
const FILTER_ONLY_OPTIONS = ['type', 'fpr', 'capacity', 'seed'] as const;

function parseBuildOptions(argv: string[]): BuildOptions {
  const { values } = parseCommand(
    'build',
    argv,
    {
      ...OUTPUT_AND_QUIET,
      input: { type: 'string', short: 'i' },
      type: { type: 'string', short: 't' },
      capacity: { type: 'string', short: 'n' },
      'never-match': { type: 'string', multiple: true },
      ...stringOptions('fpr', 'seed', 'format'),
      ...booleanOptions('urls', 'json', 'force', 'exact'),
      // Hidden: reports the peak resident set size on stderr (used by the tests).
      ...booleanOptions('debug-memory'),
    },
    false,
  );
  const str = (name: string): string | undefined => values[name] as string | undefined;
  const input = str('input');
  const output = str('output');
  if (input === undefined || input === '') throw usageError('build needs --input <file> (or --input - for stdin)', 'build');
  if (output === undefined || output === '') throw usageError('build needs --output <file>', 'build');
  if (output === '-') throw usageError('--output must be a file (filters are binary; "-" is not supported)', 'build');
  const urls = values.urls === true;
  if (str('format') !== undefined && !urls) throw usageError('--format applies to URL lists: add --urls', 'build');
  const neverMatch = (values['never-match'] as string[] | undefined) ?? [];
  if (neverMatch.length > 0 && (!urls || values.exact === true)) {
    throw usageError('--never-match applies to URL blocklists: add --urls (and no --exact)', 'build');
  }
  if (neverMatch.includes('')) throw usageError('--never-match needs a file', 'build');
  const type = parseType(str('type'), urls);
  if (urls && values.exact !== true && namedType(type)?.forgets === true) {
    // By capability (the registry's `forgets`), not by name.
    throw usageError(
      `--type ${type} cannot hold a URL blocklist: it forgets its keys as time passes, so listed URLs would be answered clear later; ` +
        `choose a type that keeps its keys (${FILTER_TYPES.filter((entry) => !entry.forgets).map((entry) => entry.aliases[0] ?? entry.name).join(', ')})`,
      'build',
    );
  }
  const exact = values.exact === true;
  if (exact) {
    const given = FILTER_ONLY_OPTIONS.filter((name) => values[name] !== undefined).map((name) => `--${name}`);
    if (given.length > 0) {
      const named = given.length === 1 ? given[0] : `${given.slice(0, -1).join(', ')} and ${given[given.length - 1]}`;
      throw usageError(
        `${named} ${given.length === 1 ? 'does' : 'do'} not apply to --exact: an exact index has no filter type, ` +
          'false-positive rate, capacity or seed (it stores every key and answers exactly); drop the option, or --exact to build a filter',
        'build',
      );
    }
  }
  return {
    input,
    output,
    type,
    typeGiven: str('type') !== undefined,
    falsePositiveRate: parseRate(str('fpr'), urls ? DEFAULT_URL_RATE : DEFAULT_KEY_RATE),
    capacity: parseCapacity(str('capacity')),
    seed: parseSeed(str('seed')),
    urls,
    format: parseFormat(str('format')),
    neverMatch,
    json: values.json === true,
    quiet: values.quiet === true,
    force: values.force === true,
    exact,
    debugMemory: values['debug-memory'] === true,
  };
}

/**
 * The growing type that stands in for `type` when the input size is unknown,
 * and the keys it starts from: the registry's `growingStandIn` (itself for a
 * type that grows, chained or in place) and that type's `defaultCapacity`.
 */
/**
 * The registry's entry of the type `--type` named; null for 'smallest' (the
 * default with --urls), which is built whole like every static type it chooses from.
 */
function namedType(type: BuildType): FilterTypeEntry | null {
  return type === DEFAULT_FILTER_TYPES.list ? null : filterType(type);
}

/** "a ribbon filter", or "a static filter (the smallest type for the list)" for 'smallest'. */
function describeBuildType(type: BuildType): string {
  return type === DEFAULT_FILTER_TYPES.list ? 'static filter (the smallest type for the list)' : `${type} filter`;
}

function growingTypeFor(type: BlocklistFilterType): { type: BlocklistFilterType; capacity: number } {
  const standIn = filterType(type).growingStandIn;
  const capacity = standIn === null ? null : filterType(standIn).defaultCapacity;
  if (standIn === null || capacity === null) {
    throw usageError(`a ${type} filter cannot grow and no growing type stands in for it: reading stdin or a pipe, it needs --capacity`, 'build');
  }
  return { type: standIn, capacity };
}

export async function runBuild(argv: string[]): Promise<number> {
  // First: checking the options asks the registry what each type can do, which the loaded core says.
  await init();
  const options = parseBuildOptions(argv);
  try {
    return await (options.exact ? buildExact(options) : build(options));
  } finally {
    if (options.debugMemory) {
      process.stderr.write(`cuckoo-bloom-wasm: debug-memory: max-rss-bytes=${process.resourceUsage().maxRSS * 1024}\n`);
    }
  }
}

async function build(options: BuildOptions): Promise<number> {
  const files = filterBuildFiles(options.output);
  const confirm = confirmationFiles(options.output);
  await checkOutputPath(options.output, options.input, 'filter', [
    { path: files.temporary, role: 'the temporary file the filter is written to' },
    ...(options.urls
      ? [
          { path: confirm.path, role: "the list's exact companion (<output>.confirm)" },
          { path: confirm.temporary, role: 'the temporary file the companion is written to' },
          { path: confirm.index, role: "the index of the companion's parts (<output>.confirm.index)" },
        ]
      : []),
  ]);
  const lineOptions = { refuseBinaryAs: options.force ? null : inputName(options.input) };
  await init();
  const stdin = options.input === '-';
  // Stdin or a FIFO: one pass, its size unknown.
  const once = await readsOnce(options.input);
  let capacity = options.capacity;
  let type = options.type;
  let growing = false;
  // A dynamic blocklist is sized for the per-URL rate at the depths its entries
  // need, which the counting pass finds; without that pass, Safe Browsing's.
  let depth: ExpressionDepth = SAFE_BROWSING_DEPTH;
  const named = namedType(options.type);
  const isStatic = named?.isStatic ?? true;
  if (isStatic && capacity !== null) {
    const hint = options.typeGiven ? '' : ` (the default with --urls; give --type ${DEFAULT_FILTER_TYPES.keys}, or another type, to size by --capacity)`;
    throw usageError(`--capacity does not apply to a ${describeBuildType(options.type)}${hint}: it is built from, and sized by, all its keys`, 'build');
  }
  if (capacity === null && named !== null && !isStatic) {
    if (once) {
      // Its size is unknown and it cannot be read twice: grow instead of guessing.
      ({ type, capacity } = growingTypeFor(named.name));
      growing = true;
    } else {
      const file = await openInputFile(options.input);
      let needed: ExpressionDepth = { hostLabels: 0, pathDepth: 0 };
      const counter = candidateCounter(options.urls, options.format, (expression) => {
        const { hostLabels, pathDepth } = expressionDepth(expression);
        if (hostLabels > needed.hostLabels || pathDepth > needed.pathDepth) {
          needed = { hostLabels: Math.max(hostLabels, needed.hostLabels), pathDepth: Math.max(pathDepth, needed.pathDepth) };
        }
      });
      capacity = Math.max(1, await countPass(fileLineBatches(options.input, file.stream, lineOptions), counter, file.size, 'counting'));
      depth = needed;
    }
  }
  // Read before the filter is made: a missing file fails fast.
  const neverMatch = options.urls ? await readNeverMatch(options.neverMatch) : null;
  const made = createTarget({ ...options, type }, capacity ?? 0, depth, neverMatch);
  let overfilled = false;
  try {
    let batches: AsyncIterable<LineBatch>;
    let size = 0;
    if (stdin) {
      batches = lineBatches(process.stdin, lineOptions);
    } else {
      const file = await openInputFile(options.input);
      size = file.size;
      batches = fileLineBatches(options.input, file.stream, lineOptions);
    }
    await fillPass(batches, made.sink, size, options, capacity ?? 0);
    if (!options.force) refuseEmpty(made.sink.counts, options);
    made.finish();
    const bytes = made.serialize();
    // The companion first (bound to these bytes' checksum), then the filter: see build-confirmation.ts.
    let confirmation: ConfirmationFacts | null = null;
    if (made.blocklist !== null) {
      const companion = made.blocklist.confirmation();
      const split = await writeConfirmation(options.output, companion);
      confirmation = confirmationFacts(options.output, companion, made.blocklist.entryCount, split);
    }
    await writeFileAtomically(options.output, bytes);
    const sizedFor = capacity ?? made.filter.capacity;
    report({ ...options, type }, sizedFor, growing, made, bytes.length, confirmation, neverMatch);
    overfilled = made.filter.overfilled;
    if (overfilled) {
      const facts = filterFacts(made.filter);
      process.stderr.write(
        `cuckoo-bloom-wasm: warning: ${options.output} is overfilled: estimated false-positive rate ${formatRate(facts.estimatedFalsePositiveRate)} ` +
          `is more than twice the target ${formatRate(facts.falsePositiveRate)} (${formatCount(facts.count)} keys for a capacity of ${formatCount(sizedFor)}); ` +
          'rebuild with a larger --capacity, or none to size it from the input (exit status 3)\n',
      );
    }
  } finally {
    made.free();
  }
  return overfilled ? EXIT_OVERFILLED : EXIT_CLEAR;
}

interface Target {
  sink: Sink;
  readonly filter: AnyFilter;
  readonly blocklist: UrlBlocklist | null;
  /** After the last line: a static type's filter is built here, and never-match hosts guarded. */
  finish(): void;
  serialize(): Uint8Array;
  free(): void;
}

/** A static type: lines are collected, and the filter (or blocklist) is built by finish(). */
function staticTarget(options: BuildOptions, neverMatch: NeverMatchInput | null): Target {
  const { type, falsePositiveRate, seed, format } = options;
  const sink = new CollectingSink(options.urls, format, { isPublicSuffix });
  let filter: AnyFilter | null = null;
  let blocklist: UrlBlocklist | null = null;
  return {
    sink,
    get filter(): AnyFilter {
      if (filter === null) throw new CliError(`internal: the ${describeBuildType(type)} is built after the input is read`);
      return filter;
    },
    get blocklist(): UrlBlocklist | null {
      return blocklist;
    },
    finish(): void {
      try {
        if (options.urls) {
          // The distinct expressions, each a plain line that reads as itself: the
          // list's own lines may depend on lines before them (an RPZ $ORIGIN).
          blocklist = UrlBlocklist.build(sink.distinctKeys() as string[], {
            type,
            falsePositiveRate,
            seed,
            format: 'plain',
            neverMatch: neverMatch?.hosts ?? [],
          });
          filter = blocklist.filter;
        } else {
          // Keys, not a list: a named type ('smallest' is refused without --urls by parseType).
          filter = filterType(type as BlocklistFilterType).from(sink.distinctKeys(), { falsePositiveRate, seed });
        }
      } catch (error) {
        if (error instanceof FilterError) {
          throw new CliError(`cannot build a ${describeBuildType(type)} of ${formatCount(sink.counts.stored)} keys: ${error.message}`);
        }
        throw error;
      }
    },
    serialize: () => (blocklist !== null ? blocklist.serialize() : filter!.serialize()),
    free: () => (blocklist !== null ? blocklist.free() : filter?.free()),
  };
}

function createTarget(
  options: BuildOptions,
  capacity: number,
  expressionDepth: ExpressionDepth,
  neverMatch: NeverMatchInput | null,
): Target {
  const named = namedType(options.type);
  if (named === null || named.isStatic) return staticTarget(options, neverMatch);
  const { falsePositiveRate, seed } = options;
  const type = named.name;
  try {
    if (options.urls) {
      const blocklist = UrlBlocklist.create({ type, falsePositiveRate, capacity, seed, format: options.format, expressionDepth });
      const sink = new UrlListSink(blocklist, options.format, { isPublicSuffix });
      return {
        sink,
        filter: blocklist.filter,
        blocklist,
        finish: () => {
          // Before the summary: the distinct expressions added, and the repeats.
          sink.settle();
          try {
            blocklist.report.neverMatch = blocklist.guardNeverMatch(neverMatch?.hosts ?? []);
          } catch (error) {
            if (error instanceof FilterError) throw new CliError(`cannot build the URL blocklist: ${error.message}`);
            throw error;
          }
        },
        serialize: () => blocklist.serialize(),
        free: () => blocklist.free(),
      };
    }
    const filter: AnyFilter = filterType(type).create({ capacity, falsePositiveRate, seed });
    return {
      sink: new KeySink(filter),
      filter,
      blocklist: null,
      finish: () => {},
      serialize: () => filter.serialize(),
      free: () => filter.free(),
    };
  } catch (error) {
    if (error instanceof FilterError) {
      throw new CliError(`cannot create a ${type} filter for ${formatCount(capacity)} keys: ${error.message}`);
    }
    throw error;
  }
}

function report(
  options: BuildOptions,
  capacity: number,
  growing: boolean,
  made: Target,
  fileBytes: number,
  confirmation: ConfirmationFacts | null,
  neverMatch: NeverMatchInput | null,
): void {
  const counts = made.sink.counts;
  const guarded = neverMatch !== null ? made.blocklist?.report.neverMatch : undefined;
  const facts = filterFacts(made.filter);
  const entries = made.blocklist?.entryCount ?? counts.stored;
  // With no --type (or 'smallest'): the static types built and the one kept.
  const choice = made.blocklist?.report.typeChoice;
  if (options.json) {
    const summary = {
      output: options.output,
      kind: options.urls ? 'url-blocklist' : 'filter',
      type: facts.type,
      lines: counts.lines,
      [options.urls ? 'expressions' : 'keys']: counts.candidates,
      added: counts.stored,
      alreadyPresent: counts.alreadyPresent,
      ...(options.urls ? { entries } : {}),
      skipped: counts.skipped,
      unparseable: { count: counts.errorCount, first: counts.errors },
      ...(options.urls ? { warnings: { count: counts.warningCount, first: counts.warnings } } : {}),
      ...(options.urls ? { notUtf8: { count: counts.notUtf8, firstLines: counts.notUtf8Lines } } : {}),
      capacity: growing ? facts.capacity : capacity,
      capacitySource: growing ? 'growing' : options.capacity === null ? 'input' : 'option',
      overfilled: made.filter.overfilled,
      fileBytes,
      tableBytes: facts.tableBytes,
      bitsPerKey: facts.bitsPerKey,
      falsePositiveRate: facts.falsePositiveRate,
      estimatedFalsePositiveRate: facts.estimatedFalsePositiveRate,
      // A blocklist's rates are per URL (as --fpr), with the per-lookup ones beside them.
      ...(made.blocklist !== null ? blocklistRates(made.blocklist, made.filter) : {}),
      ...(choice !== undefined ? { typeChoice: choice } : {}),
      ...(confirmation !== null ? { confirmation } : {}),
      ...(guarded !== undefined && neverMatch !== null ? { neverMatch: neverMatchSummary(guarded, neverMatch) } : {}),
    };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } else if (!options.quiet) {
    const rows: Array<[string, string]> = guarded !== undefined && neverMatch !== null ? [neverMatchRow(guarded, neverMatch)] : [];
    if (choice !== undefined) rows.unshift(typeChoiceRow(choice));
    process.stdout.write(`${textSummary(options, capacity, growing, made, fileBytes, entries, confirmation, rows)}\n`);
  }
  warnAboutLinesNotStored(counts, options);
  if (options.urls) warnAboutLinesWithWarnings(counts);
  if (guarded !== undefined) warnAboutListedNeverMatch(guarded);
}

/** "type: ribbon, the smallest static type for this list (binary-fuse 16,412 bytes, ribbon 13,308)". */
function typeChoiceRow(choice: TypeChoice): [string, string] {
  const sizes = choice.candidates.map((candidate, i) => `${candidate.type} ${formatCount(candidate.bytes)}${i === 0 ? ' bytes' : ''}`).join(', ');
  return ['type', `${choice.chosen}, the smallest static type for this list (filters built: ${sizes})`];
}

/** `--capacity` at least this many times the keys stored gets a note in the summary. */
const OVERSIZED_CAPACITY = 4;

function textSummary(
  options: BuildOptions,
  capacity: number,
  growing: boolean,
  made: Target,
  fileBytes: number,
  entries: number,
  confirmation: ConfirmationFacts | null,
  extraRows: Array<[string, string]>,
): string {
  const counts = made.sink.counts;
  const facts = filterFacts(made.filter);
  const kind = options.urls ? `URL blocklist (${facts.type} filter)` : `${facts.type} filter`;
  const rows: Array<[string, string]> = [
    ['lines', formatCount(counts.lines)],
    [
      options.urls ? 'expressions' : 'keys',
      `${formatCount(counts.candidates)} read, ${formatCount(counts.stored)} added`,
    ],
    [
      'already present',
      // A URL list of any type counts exact repeats: one entry each, whatever the filter answered (UrlListSink in sinks.ts).
      options.urls
        ? `${formatCount(counts.alreadyPresent)} (repeats: one entry each)`
        : filterType(made.filter.type).isStatic
        ? `${formatCount(counts.alreadyPresent)} (repeats: stored once)`
        : skipsRepeats(made.filter)
        ? `${formatCount(counts.alreadyPresent)} (repeats or false positives: not added again)`
        : `${formatCount(counts.alreadyPresent)} (a filter with removal stores every key; only copies it had no room for)`,
    ],
    ['skipped', `${formatCount(counts.skipped)} (${options.urls ? 'blank, comments, headers' : 'empty lines'})`],
  ];
  if (options.urls) {
    rows.push(['unparseable', formatCount(counts.errorCount)], ['entries', `${formatCount(entries)} (in the file)`]);
  }
  rows.push(
    [
      'capacity',
      growing
        ? `${formatCount(facts.capacity)} (growing from ${formatCount(capacity)}: stdin or a pipe without --capacity)`
        : `${formatCount(capacity)} (${options.capacity === null ? 'counted from the input' : '--capacity'})`,
    ],
    ['size', `${formatCount(fileBytes)} bytes (table ${formatCount(facts.tableBytes)} bytes)`],
    ['bits/key', formatBitsPerKey(facts.bitsPerKey)],
    ...(made.blocklist !== null
      ? rateRows(blocklistRates(made.blocklist, made.filter))
      : ([
          ['target fpr', formatRate(facts.falsePositiveRate)],
          ['estimated fpr', formatRate(facts.estimatedFalsePositiveRate)],
        ] as Array<[string, string]>)),
  );
  rows.push(...extraRows);
  if (confirmation !== null) {
    rows.push([
      'confirmation',
      `${confirmation.path}: ${formatCount(confirmation.bytes)} bytes (${confirmation.bitsPerExpression} bits per expression)`,
    ]);
    const split = confirmation.split;
    if (split !== undefined) {
      rows.push([
        'confirmation parts',
        `${split.index} + ${split.parts}/: ${formatCount(split.partCount)} parts of at most ${formatCount(split.largestPartBytes)} bytes ` +
          `(${split.splitOverWhole}x the whole, index included); a "maybe" fetches one`,
      ]);
    }
  }
  let text = `built ${options.output}: ${kind}\n${table(rows, '  ')}`;
  // One overfill policy for every type: the estimated rate decides (Filter#overfilled,
  // more than twice the target: a warning and exit status 3), never the key count
  // alone — a cuckoo table's smallest size can hold more keys than --capacity at
  // a rate below the target, and then nothing is wrong.
  if (options.capacity !== null && facts.count > capacity) {
    const estimated = formatRate(facts.estimatedFalsePositiveRate);
    const target = formatRate(facts.falsePositiveRate);
    const exceed = `${formatCount(facts.count)} keys exceed --capacity ${formatCount(capacity)}`;
    if (made.filter.overfilled) {
      text += `\nwarning: ${exceed}: the estimated fpr ${estimated} is more than twice the target ${target} (exit status 3)`;
    } else if (facts.estimatedFalsePositiveRate > facts.falsePositiveRate) {
      text += `\nnote: ${exceed}: the estimated fpr ${estimated} is above the target ${target}, within twice it`;
    } else {
      text += `\nnote: ${exceed}, but the table holds them at an estimated fpr ${estimated}, within the target ${target}`;
    }
  }
  // A --capacity far above the input (the README's 120,000 for a 13.7k-entry list made a
  // file 9x larger with no word: issue #44). Kept when the list will grow into it, or
  // when patches need every version built alike; said, so it is a choice.
  if (options.capacity !== null && !growing && facts.count > 0 && capacity >= OVERSIZED_CAPACITY * facts.count) {
    const times = (capacity / facts.count).toFixed(1);
    text +=
      `\nnote: --capacity ${formatCount(capacity)} is ${times}x the ${formatCount(facts.count)} ${options.urls ? 'expressions' : 'keys'} stored: ` +
      'the file is about that much larger than this input needs (keep it for a list that will grow, or for patches, ' +
      'which need every version built with the same --capacity; leave --capacity out to size from the input)';
  }
  if (counts.errorCount > 0) {
    text += `\nunparseable lines (not stored):\n${errorLines(counts, counts.errorCount - counts.errors.length)}`;
  }
  return text;
}
