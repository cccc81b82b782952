import type { BlocklistEnvelopeHandle } from '../runtime/core-module.js';
import { type CuckooFilterOptions } from '../cuckoo/cuckoo.js';
import { deserialize } from '../deserialize.js';
import { coreError, FilterError } from '../errors.js';
import { withBytesInWasm } from '../core/filter-base.js';
import { getRuntime } from '../runtime/init.js';
import { describeValue, type OwnedBytes } from '../keys/keys.js';
import { requireInteger } from '../options.js';
import { type AnyFilter, DEFAULT_FILTER_TYPES, type FilterTypeEntry, filterType, type FilterTypeOrAlias, SMALLEST_STATIC_TYPE, tryAddKey } from '../registry.js';
import {
  envelopeDepth,
  EXPRESSION_SCHEME_LIST_DEPTH,
  EXPRESSION_SCHEME_WITH_EXCEPTIONS,
  MAX_EXPRESSION_DEPTH as MAX_DEPTH,
} from './check-url.js';
import { scanExpressions } from './expression-scan.js';
import { type ExpressionDepth, expressionDepth, SAFE_BROWSING_DEPTH } from './expressions.js';
import {
  LIST_FORMATS,
  type ListFormat,
  ListLineParser,
  type ListParseError,
  type ListParseOptions,
  type ListParseWarning,
  type ParsedLine,
} from './lists/list-parser.js';
import { UrlList } from './url-list.js';
import { type BlocklistChecksum, blocklistChecksumOf, type ExactSet } from './confirmation.js';
import { ExactSetBuilder, type FullExactSet, readExactSet } from './exact-set.js';
import { type NeverMatchReport } from './never-match.js';
import { exceptionBytesIn, neverMatchExpressions } from './never-match-expressions.js';
import { lookupRateFor } from './url-rate.js';
import { buildSmallest, staticCandidates, type TypeChoice } from './smallest-type.js';
import {
  changedExpressions,
  encodeListDelta,
  isChangeLines,
  isDelta,
  type ListChangeLines,
  listExpressions,
  type PreviousVersion,
  previousDelta,
} from './list-delta.js';
import { DELTA_CHAIN_REBUILD_SHARE, readDelta } from './list-delta-format.js';
import { bytesArgument } from '../patch/patch-format.js';

/** Any filter type of the registry (`FILTER_TYPES`), by name or alias (`'fuse'`). */
export type BlocklistFilterType = FilterTypeOrAlias;

/** Options of {@link UrlBlocklist.build} and {@link UrlBlocklist.create}: the filter type and its sizing. */
export interface UrlBlocklistOptions {
  /**
   * The filter that stores the expressions, always the one named. Default for
   * `build`: 'smallest' (`DEFAULT_FILTER_TYPES.list`), not a type but a choice:
   * the list is built in every static type that takes the options given
   * (today binary fuse and Ribbon) and the fewest serialized bytes are kept
   * (`report.typeChoice` says which, `type` reads it back; no `addLine` after).
   * Default for `create`: 'bloom'.
   */
  type?: BlocklistFilterType | typeof SMALLEST_STATIC_TYPE | undefined;
  /**
   * Target false-positive rate per URL: the most often an unlisted URL is
   * reported. Default 0.001. The filter is sized for the per-lookup rate
   * that gives it at the depths URLs are checked to (`lookupFalsePositiveRate`;
   * url-rate.ts has the math): `build` knows them from the list; `create` sizes
   * for `expressionDepth`.
   */
  falsePositiveRate?: number | undefined;
  /**
   * `create` only: the depths the entries to come will need, to size the
   * filter for the per-URL rate. Default Safe Browsing's 5 host labels and 3
   * directories (30 lookups per URL). Entries deeper than this are still
   * found (URLs are checked to every entry's depth), at a per-URL rate above
   * the target: `falsePositiveRate` then says by how much.
   */
  expressionDepth?: ExpressionDepth | undefined;
  /**
   * Whether a host is a public suffix (`co.jp`): an entry for one gets a
   * warning in the report (it lists every site under it). Not built in, so
   * that browser bundles stay free of the Public Suffix List; the CLI passes
   * one made from it.
   */
  isPublicSuffix?: ListParseOptions['isPublicSuffix'];
  /**
   * `build` only: hosts (`co.jp`, `www.example.org`) and URLs that must never
   * be a hit unless listed (top sites, an allowlist, the Public Suffix List's
   * suffixes, which the CLI adds). Every expression a check of one makes
   * (its own and its host's suffixes) that the filter reports and the list
   * does not hold goes into the blocklist's exception set, stored in its
   * bytes (`guardNeverMatch`; https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md, "Never-match hosts").
   * A listed one stays a hit (no false negative), in `report.neverMatch.listed`.
   */
  neverMatch?: Iterable<string> | undefined;
  /**
   * Entries to size for. `build` defaults to the number of entries it found; `create` requires it.
   * A static type (binary fuse) is sized by its entries and takes none.
   */
  capacity?: number | undefined;
  /** Line syntax of the list. Default 'auto' (decided per line). */
  format?: ListFormat | undefined;
  /** Hash seed. Default 0. */
  seed?: number | undefined;
  /** Cuckoo only: slots per bucket (2, 4, 8). */
  bucketSize?: CuckooFilterOptions['bucketSize'] | undefined;
  /** Cuckoo and binary fuse: fingerprint width in bits. */
  fingerprintBits?: number | undefined;
  /**
   * Binary fuse only: fingerprints read per lookup, 3 or 4. Default 4 for a blocklist
   * (the filter's own default is 3): measured, 4-wise is smaller at every list size
   * (12.4 against 13.2 bits per entry at 6k entries, 10.8 against 11.3 at 1M, at
   * ε = 0.001) and no slower to build; it costs one more memory read per expression.
   */
  arity?: 3 | 4 | undefined;
}

/** What `build` made of the list. Nothing is dropped silently: every unusable line is in `errors`. */
export interface UrlBlocklistReport {
  /** Distinct expressions stored. */
  entries: number;
  /** Blank lines, comments and headers. */
  skipped: number;
  /** Lines that could not be read as a host or URL, with 1-based line numbers. */
  errors: ListParseError[];
  /**
   * Lines stored, but worth a look, with 1-based line numbers: single-label
   * hosts (matched only whole), and public suffixes when `isPublicSuffix` is given.
   */
  warnings: ListParseWarning[];
  /** With `neverMatch`: what was checked, the exceptions made and their cost in bytes, and listed ones. */
  neverMatch?: NeverMatchReport;
  /** When `build` chose the type (none named, or 'smallest'): each static type it built, with its bytes, and the one kept. */
  typeChoice?: TypeChoice;
}

export type { NeverMatchReport } from './never-match.js';
export type { ListChangeLines } from './list-delta.js';

export type { UrlCheck, UrlVerdict } from './check-url.js';

const DEFAULT_BLOCKLIST_RATE = 0.001;
// `build` has the whole list: the smallest static type for it. `create` needs a type with add.
const DEFAULT_BUILD_TYPE = DEFAULT_FILTER_TYPES.list;
const KNOWN_OPTIONS = [
  'type',
  'falsePositiveRate',
  'capacity',
  'format',
  'seed',
  'bucketSize',
  'fingerprintBits',
  'arity',
  'expressionDepth',
  'isPublicSuffix',
  'neverMatch',
];
// A shipped list is sized for the wire: 4-wise fuse filters are the smaller (see `arity`).
const DEFAULT_BLOCKLIST_FUSE_ARITY = 4;

/** Safe Browsing's fixed depths (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, type 16): what lists recorded before scheme 2. */
const EXPRESSION_SCHEME_SAFE_BROWSING = 1;

/** What `UrlBlocklist.describeConfirmation` reads from a companion. */
export interface ConfirmationFacts {
  /** Distinct expressions it holds. */
  expressions: number;
  /** Bytes of its hash index and Rice stream (the payload). */
  payloadBytes: number;
  /** The trailing checksum of the blocklist bytes it was built with, as 16 hex digits. */
  builtFor: string;
}

/** What `UrlBlocklist.describeDelta` reads from a list delta. */
export interface ListDeltaFacts {
  /** Its place in its chain: 1 for the first delta after a base. */
  sequence: number;
  /** Distinct expressions of the version it makes. */
  entries: number;
  /** The identity of the version it applies to (16 hex digits): the base's trailing checksum, or the previous delta's. */
  base: string;
  /** The identity of the version it makes: its own trailing checksum. */
  identity: string;
  /** Its own bytes. */
  bytes: number;
  /** The bytes of its chain since the base, itself included: compare with the base's filter and companion. */
  chainBytes: number;
}

/**
 * A malicious-URL list as a filter of Safe Browsing expressions: the list's
 * hosts and URLs go in as `host/` and `host/path` expressions; a URL is
 * checked by canonicalizing it and testing its host-suffix × path-prefix
 * expressions. `match` returning null is certain (no false negatives); a
 * match is "possibly listed", wrong at about the filter's false-positive rate
 * per expression checked.
 *
 * ```ts
 * const list = UrlBlocklist.build('||evil.example^\n||bad.example/dl/x.exe^');
 * list.match('https://www.evil.example/login'); // 'evil.example/'
 * list.match('https://example.org/');           // null
 * ```
 */
export class UrlBlocklist extends UrlList<AnyFilter> {
  #format: ListFormat;
  // addLine's parser: lines added one by one are one list (an RPZ $ORIGIN holds for the lines after it).
  #parser: ListLineParser;
  // The scheme the bytes were read with (scheme 2 for a list made here). A
  // scheme-1 list is written back as scheme 1 while its depths are still Safe
  // Browsing's, so bytes read are written back unchanged (canonical bytes,
  // https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/SECURITY.md); an entry deeper than those makes it scheme 2.
  #scheme: number;
  // The hashes of every expression stored, for `confirmation()`; null for a
  // list read from bytes (its expressions are not known).
  #confirmationBuilder: ExactSetBuilder | null;
  // The checksum of the bytes a list was read from, while it is unchanged
  // (a companion is bound to it); null when it must be serialized to know it.
  #readChecksum: BlocklistChecksum | null = null;
  // A list that knows its expressions (it has a companion builder): how many
  // distinct ones it holds, or null when a change since means counting them
  // again (`entryCount`). Repeats and the copies a filter with removal keeps
  // count once, so a list added line by line counts as one built at once.
  #distinctEntries: number | null = null;
  // Whether the filter's type removes keys (decided once: no registry lookup per stored expression).
  readonly #removes: boolean;
  /** Set by `build`: what was made of the list. */
  readonly report: UrlBlocklistReport;

  private constructor(
    filter: AnyFilter,
    entryCount: number,
    format: ListFormat,
    report: UrlBlocklistReport,
    depth: ExpressionDepth = { hostLabels: 0, pathDepth: 0 },
    scheme: number = EXPRESSION_SCHEME_LIST_DEPTH,
    parseOptions: ListParseOptions = {},
    confirmationBuilder: ExactSetBuilder | null = null,
  ) {
    super(filter, entryCount, depth);
    this.#removes = filterType(filter.type).supportsRemove;
    this.#confirmationBuilder = confirmationBuilder;
    this.#format = format;
    this.#parser = new ListLineParser(format, parseOptions);
    this.#scheme = scheme;
    this.report = report;
  }

  /**
   * Builds a blocklist from list text or lines (plain, hosts-file or
   * Adblock/uBlock host and URL rules; see `ListFormat`). Duplicates are
   * stored once. With no `type` the list is built in each static type that
   * fits and the smallest serialized filter is kept (`report.typeChoice`; the
   * same list and options always choose the same type). Static means `addLine`
   * then throws UNSUPPORTED: pass a dynamic `type` such as 'bloom' to add later.
   * A named type is always the one used.
   * @throws FilterError `INVALID_ARGUMENT` (bad options or input), `FULL`
   *   (cuckoo with a capacity too small), `NOT_INITIALIZED`.
   */
  static build(list: string | Iterable<string>, options: UrlBlocklistOptions = {}): UrlBlocklist {
    checkBlocklistOptions(options);
    if (options.expressionDepth !== undefined) {
      throw new FilterError('INVALID_ARGUMENT', 'UrlBlocklist.build: expressionDepth applies to create; build sizes for the depths its list needs');
    }
    const blocklist = UrlBlocklist.#build(list, options);
    if (options.neverMatch !== undefined) {
      try {
        blocklist.report.neverMatch = blocklist.guardNeverMatch(options.neverMatch);
      } catch (error) {
        blocklist.free();
        throw error;
      }
    }
    return blocklist;
  }

  static #build(list: string | Iterable<string>, options: UrlBlocklistOptions): UrlBlocklist {
    const format = options.format ?? 'auto';
    // A newline ends the line before it: text ending in one has no empty line after it
    // (as the CLI reads files), so `report.skipped` does not count one.
    const lines = typeof list !== 'string' ? list : list === '' ? [] : list.replace(/\r?\n$/, '').split(/\r?\n/);
    if (typeof list !== 'string' && (list === null || typeof (list as Iterable<string>)[Symbol.iterator] !== 'function')) {
      throw new FilterError('INVALID_ARGUMENT', `UrlBlocklist.build needs list text or an iterable of lines, got ${describeValue(list)}`);
    }
    const parseOptions = { isPublicSuffix: options.isPublicSuffix };
    const parser = new ListLineParser(format, parseOptions);
    const expressions = new Set<string>();
    const errors: ListParseError[] = [];
    const warnings: ListParseWarning[] = [];
    let skipped = 0;
    let lineNumber = 0;
    for (const line of lines) {
      lineNumber++;
      if (typeof line !== 'string') {
        throw new FilterError('INVALID_ARGUMENT', `list line ${lineNumber} is ${describeValue(line)}, not a string`);
      }
      const parsed = parser.parse(line);
      if (parsed.kind === 'entry') {
        for (const expression of parsed.expressions) expressions.add(expression);
        for (const reason of parsed.warnings ?? []) warnings.push({ line: lineNumber, text: line, reason });
      } else if (parsed.kind === 'skip') skipped++;
      else errors.push({ line: lineNumber, text: line, reason: parsed.reason });
    }
    const report: UrlBlocklistReport = { entries: expressions.size, skipped, errors, warnings };
    const type = options.type ?? DEFAULT_BUILD_TYPE;
    // null: the smallest of the static types (built whole, like a named static type).
    const entry = type === SMALLEST_STATIC_TYPE ? null : filterType(type, 'UrlBlocklist: type');
    // The depth URLs will be checked to, known before the filter is made: it is sized for the per-URL rate there.
    let depth: ExpressionDepth = { hostLabels: 0, pathDepth: 0 };
    for (const expression of expressions) depth = deeperOf(depth, depthNeededBy(expression));
    if (entry === null || entry.isStatic) {
      // Built once from every distinct expression (it has no add).
      if (options.capacity !== undefined) {
        throw new FilterError(
          'INVALID_ARGUMENT',
          `UrlBlocklist: ${entry === null ? "a static filter (build's default: the smallest static type)" : `a ${entry.name} filter`} is sized by its entries: ` +
            `give no capacity, or a type that takes one, such as { type: '${DEFAULT_FILTER_TYPES.keys}' }`,
        );
      }
      const filterOptions = filterOptionsOf(options, depth);
      const buildIn = (staticType: FilterTypeEntry): AnyFilter => {
        const own = { ...filterOptions };
        // A type that takes an arity (binary fuse) gets the blocklist's default one.
        if (staticType.extraOptions.includes('arity') && own.arity === undefined) own.arity = DEFAULT_BLOCKLIST_FUSE_ARITY;
        return staticType.from(expressions, own);
      };
      let filter: AnyFilter;
      if (entry === null) {
        const given = TYPE_OPTIONS.filter((name) => options[name] !== undefined);
        const smallest = buildSmallest(staticCandidates(given), buildIn);
        filter = smallest.filter;
        report.typeChoice = smallest.choice;
      } else {
        filter = buildIn(entry);
      }
      const builder = new ExactSetBuilder();
      for (const expression of expressions) builder.add(expression);
      const list = new UrlBlocklist(filter, expressions.size, format, report, depth, EXPRESSION_SCHEME_LIST_DEPTH, parseOptions, builder);
      list.#distinctEntries = expressions.size;
      return list;
    }
    const blocklist = UrlBlocklist.#empty(
      { ...options, capacity: options.capacity ?? Math.max(1, expressions.size), expressionDepth: depth },
      format,
      report,
    );
    try {
      for (const expression of expressions) blocklist.#store(expression, true);
    } catch (error) {
      blocklist.free();
      throw error;
    }
    blocklist.#distinctEntries = expressions.size;
    return blocklist;
  }

  /**
   * An empty blocklist sized for `capacity` entries, to fill line by line
   * with `addLine` (how the CLI streams lists too large to hold as text).
   * @throws FilterError `UNSUPPORTED` for a static type (binary fuse): use `build`.
   */
  static create(options: UrlBlocklistOptions & { capacity: number }): UrlBlocklist {
    checkBlocklistOptions(options);
    if (options.capacity === undefined) {
      throw new FilterError('INVALID_ARGUMENT', 'UrlBlocklist.create needs a capacity');
    }
    if (options.neverMatch !== undefined) {
      throw new FilterError('INVALID_ARGUMENT', 'UrlBlocklist.create: neverMatch applies to build; after the last addLine, call guardNeverMatch(hosts)');
    }
    return UrlBlocklist.#empty(options, options.format ?? 'auto', { entries: 0, skipped: 0, errors: [], warnings: [] });
  }

  static #empty(options: UrlBlocklistOptions, format: ListFormat, report: UrlBlocklistReport): UrlBlocklist {
    const { type = DEFAULT_FILTER_TYPES.keys, capacity = 1 } = options;
    if (type === SMALLEST_STATIC_TYPE) {
      throw new FilterError(
        'UNSUPPORTED',
        `UrlBlocklist: '${SMALLEST_STATIC_TYPE}' chooses among the static types, built once from the whole list: use UrlBlocklist.build(list), or a type that takes adds, such as { type: '${DEFAULT_FILTER_TYPES.keys}' }`,
      );
    }
    const entry = filterType(type, 'UrlBlocklist: type');
    if (entry.isStatic) {
      throw new FilterError(
        'UNSUPPORTED',
        `UrlBlocklist: a ${entry.name} filter is static (built once from the whole list): use UrlBlocklist.build(list, { type: '${entry.name}' })`,
      );
    }
    const depth = options.expressionDepth ?? SAFE_BROWSING_DEPTH;
    const filter = entry.create({ capacity, ...filterOptionsOf(options, depth) });
    return new UrlBlocklist(
      filter,
      0,
      format,
      report,
      undefined,
      EXPRESSION_SCHEME_LIST_DEPTH,
      { isPublicSuffix: options.isPublicSuffix },
      new ExactSetBuilder(),
    );
  }

  /**
   * What a companion (`confirmation()`'s bytes, the CLI's `<output>.confirm`) holds,
   * read and checked whole: its distinct expressions, the bytes of its hash index and
   * Rice stream, and the trailing checksum (16 hex digits) of the blocklist bytes it
   * was built with, which `attachConfirmation` requires of its blocklist.
   * @throws FilterError `CORRUPT`, `WRONG_TYPE` (not a companion), `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT`.
   */
  static describeConfirmation(input: Uint8Array | ArrayBuffer): ConfirmationFacts {
    const set = readExactSet(input);
    try {
      const { low, high } = set.blocklistChecksum;
      return {
        expressions: set.count,
        payloadBytes: set.payloadBytes,
        builtFor: high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0'),
      };
    } finally {
      set.free();
    }
  }

  /**
   * The delta from one version of a list to the next (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md,
   * "Updates by delta"), for any filter type, static ones included: the
   * expressions `newList` adds to `oldList` and those it drops, each as an
   * exact set of 64-bit hashes (the companion's), bound to the exact version
   * it applies to. `previous` is that version: the base blocklist's bytes
   * (`serialize()`, the CLI's filter file) for the first delta, else the last
   * delta's bytes. `oldList` must be the list that version holds (checked: its
   * count, and for a base that its filter reports every entry). `newList` is
   * the next version's list, or the lines it `remove`s and `add`s (removals
   * first, as `update`: each removed expression must be on the old list). Clients apply
   * it with `applyDelta` (both entries); the companion of the base still
   * attaches, and the delta covers it. Its size follows the change alone:
   * about 7 bytes per expression added or removed.
   *
   * ```ts
   * const base = UrlBlocklist.build('||evil.example^\n||bad.example^');
   * const bytes = base.serialize();
   * const delta = UrlBlocklist.listDelta(bytes, '||evil.example^\n||bad.example^', '||evil.example^\n||worse.example^');
   * const client = UrlBlocklist.deserialize(bytes);
   * client.attachConfirmation(base.confirmation());
   * client.applyDelta(delta);
   * client.check('https://worse.example/').verdict; // 'listed'
   * client.check('https://bad.example/').verdict;   // 'clear'
   * ```
   * When the chain's bytes pass `UrlBlocklist.DELTA_CHAIN_REBUILD_SHARE` of the
   * base's (filter and companion), build a fresh base instead (`describeDelta`
   * gives `chainBytes`).
   * @throws FilterError `INVALID_ARGUMENT` (not bytes or lists; an old list that
   *   is not the version's), `CORRUPT`, `WRONG_TYPE`, `UNSUPPORTED_VERSION` (the
   *   previous bytes), `NOT_INITIALIZED`.
   */
  static listDelta(
    previous: Uint8Array | ArrayBuffer,
    oldList: string | Iterable<string>,
    newList: string | Iterable<string> | ListChangeLines,
    options: { format?: ListFormat } = {},
  ): OwnedBytes {
    const bytes = bytesArgument(previous, 'listDelta: previous');
    const format = options.format ?? 'auto';
    if (!LIST_FORMATS.includes(format)) throw new FilterError('INVALID_ARGUMENT', `listDelta: format must be ${LIST_FORMATS.join(', ')}, got ${String(format)}`);
    const oldExpressions = listExpressions(oldList, format, 'the old list');
    const newExpressions = isChangeLines(newList) ? changedExpressions(oldExpressions, newList, format) : listExpressions(newList, format, 'the new list');
    if (isDelta(bytes)) return encodeListDelta(previousDelta(bytes), oldExpressions, newExpressions);
    const base = UrlBlocklist.deserialize(bytes);
    try {
      const version: PreviousVersion = {
        identity: bytes.slice(bytes.length - 8),
        sequence: 0,
        depth: base.expressionDepth,
        entries: base.entryCount,
        chainBytes: 0,
        reports: (expression) => base.expressionFilter.has(expression),
        digest: null,
      };
      return encodeListDelta(version, oldExpressions, newExpressions);
    } finally {
      base.free();
    }
  }

  /**
   * Past this share of the base's bytes (its filter and companion together), a
   * chain of deltas should give way to a fresh base: 0.25 (a new client then
   * fetches at most 1.25x a fresh base's bytes). The CLI's `update` and `diff` say so.
   */
  static readonly DELTA_CHAIN_REBUILD_SHARE = DELTA_CHAIN_REBUILD_SHARE;

  /**
   * What a list delta says of itself, read and checked (its checksum): its
   * sequence, entries, the versions it joins and its chain's bytes. Needs no `init()`.
   * @throws FilterError `CORRUPT`, `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT` (not bytes).
   */
  static describeDelta(input: Uint8Array | ArrayBuffer): ListDeltaFacts {
    const header = readDelta(bytesArgument(input, 'describeDelta'));
    return {
      sequence: header.sequence,
      entries: header.entries,
      base: header.base,
      identity: header.identity,
      bytes: header.byteLength,
      chainBytes: header.chainBytes + header.byteLength,
    };
  }

  /**
   * Reads bytes from `serialize()` (or the CLI's `build`).
   * @throws FilterError `WRONG_TYPE` (a plain filter, not a blocklist), `CORRUPT`, `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT`.
   */
  static deserialize(input: Uint8Array | ArrayBuffer): UrlBlocklist {
    const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
    const envelope = withBytesInWasm(bytes, (pointer, length) =>
      adoptEnvelope(getRuntime().module.decodeUrlBlocklist(pointer, length)),
    );
    try {
      const inner = bytes.subarray(envelope.filterOffset(), envelope.filterOffset() + envelope.filterLength());
      const filter = deserialize(inner);
      const depth = envelopeDepth(envelope.scheme(), envelope.depth());
      const report = { entries: envelope.entryCount(), skipped: 0, errors: [], warnings: [] };
      const list = new UrlBlocklist(filter, envelope.entryCount(), 'auto', report, depth, envelope.scheme());
      const exceptions = envelope.scheme() === EXPRESSION_SCHEME_WITH_EXCEPTIONS ? exceptionBytesIn(bytes) : null;
      if (exceptions !== null) {
        try {
          // A copy (new Uint8Array), not slice(): a Node Buffer's slice() is a view of the caller's bytes.
          const owned = new Uint8Array(exceptions);
          list.setExceptions(readExactSet(owned), owned);
        } catch (error) {
          list.free();
          throw error;
        }
      }
      list.#readChecksum = blocklistChecksumOf(bytes);
      return list;
    } finally {
      envelope.delete();
    }
  }

  /**
   * Parses one list line and stores what it lists. Lines added one after
   * another in the blocklist's own format are read as one list (an RPZ
   * `$ORIGIN` holds for the lines after it); a line in another `format` is
   * read on its own.
   * @returns the parse result: `entry` (stored, with any `warnings`), `skip` (comment or blank) or `error` (with a reason).
   * @throws FilterError `FULL` (cuckoo out of room: nothing from this line was lost before it).
   */
  addLine(line: string, format: ListFormat = this.#format): ParsedLine {
    this.#refuseWithDeltas('addLine');
    if (typeof line !== 'string') {
      throw new FilterError('INVALID_ARGUMENT', `a list line must be a string, got ${describeValue(line)}`);
    }
    const filter = this.expressionFilter;
    if (filterType(filter.type).isStatic) {
      // Before parsing: the static filter's own message would point to BinaryFuseFilter.from.
      throw new FilterError(
        'UNSUPPORTED',
        `this blocklist's ${filter.type} filter is static (built once from the whole list): it cannot addLine; ` +
          `build a new blocklist from the whole list with UrlBlocklist.build(list), or build it with a type that takes adds, such as { type: '${DEFAULT_FILTER_TYPES.keys}' }`,
      );
    }
    const parsed = format === this.#format ? this.#parser.parse(line) : new ListLineParser(format).parse(line);
    if (parsed.kind === 'entry') for (const expression of parsed.expressions) this.#store(expression);
    return parsed;
  }

  /** The same as `addLine` (the update API's name: `add` and `remove` take list lines). */
  add(line: string, format: ListFormat = this.#format): ParsedLine {
    return this.addLine(line, format);
  }

  /** The same as `removeLine`. */
  remove(line: string, format: ListFormat = this.#format): ParsedLine {
    return this.removeLine(line, format);
  }

  // Removal (docs/CLI.md, "Updates by patch"). Removing an expression the
  // filter never stored could delete another entry's fingerprint or counter
  // (a listed URL then answered clear), so a list removes only what it knows
  // it holds: `#held` counts the stored copies of each expression (at most
  // one: a filter with removal stores each distinct expression once, as
  // `build` does, so one removal takes it out). A list made
  // here with a type that removes keeps it from its first store; a list read
  // from bytes learns it from `attachList`. undefined: not decided yet.
  #held: Map<string, number> | null | undefined = undefined;
  // An expression was removed since the companion builder was filled: it still has its hash.
  #confirmationStale = false;
  #removalParser: ListLineParser | null = null;
  // Never-match expressions (exceptions) that left the set because a line
  // listed them (`#store`: listed wins). Removing that line puts the
  // exception back: without it the expression, no longer listed but perhaps
  // still reported by the filter (a false positive, or a copy a scalable
  // cuckoo filter keeps), would match again without the companion, as it did
  // before the set was made. Known for this object only: an exception lifted
  // before the bytes were written is not restored by a later reader.
  readonly #liftedExceptions = new Set<string>();

  // Adds `expression` back to the exception set (guardNeverMatch's set).
  #restoreException(expression: string): void {
    const current = this.exceptions as FullExactSet | null;
    const next = new ExactSetBuilder();
    try {
      if (current !== null) next.addSet(current);
      next.add(expression);
      const bytes = next.encode({ low: 0, high: 0 });
      this.setExceptions(readExactSet(bytes), bytes);
    } finally {
      next.free();
    }
  }

  /**
   * Removes what one list line lists: the line's expressions (parsed as
   * `addLine` parses it) are taken out (each is stored once, however often
   * it was listed or added, so a second removal of one is refused). Only for types with
   * removal (their `FILTER_TYPES` entry's `supportsRemove`), and only expressions
   * the list holds: a line with an expression it does not hold is refused
   * whole, before anything is removed, because removing an expression never
   * stored could remove another entry's fingerprint, and a listed URL would
   * then be answered clear. A list built or created here knows what it holds;
   * one read from bytes must be given its list first (`attachList`). A
   * growing chain may keep an expression whose copy it cannot tell apart
   * (still reported: a false positive, never a miss). `confirmation()`
   * follows: it no longer holds what was removed.
   *
   * ```ts
   * const list = UrlBlocklist.build('||evil.example^\n||bad.example^', { type: 'cuckoo' });
   * list.remove('||bad.example^');
   * list.match('https://bad.example/');   // null
   * list.add('||worse.example^');
   * list.match('https://worse.example/'); // 'worse.example/'
   * ```
   * @returns the parse result, as `addLine`'s (`skip` and `error` lines remove nothing).
   * @throws FilterError `UNSUPPORTED` (a type without removal, or a list read
   *   from bytes without `attachList`), `INVALID_ARGUMENT` (an expression this
   *   list does not hold; nothing of the line removed), `FREED`.
   */
  removeLine(line: string, format: ListFormat = this.#format): ParsedLine {
    this.#refuseWithDeltas('removeLine');
    const held = this.#heldExpressions();
    // Lines removed one after another are one list of their own (an RPZ $ORIGIN holds for the lines after it).
    const parser = format === this.#format ? (this.#removalParser ??= new ListLineParser(format)) : new ListLineParser(format);
    const parsed = parser.parse(requireLine(line));
    if (parsed.kind !== 'entry') return parsed;
    const wanted = countsOf(parsed.expressions);
    for (const [expression, count] of wanted) {
      if ((held.get(expression) ?? 0) < count) {
        throw new FilterError('INVALID_ARGUMENT', `cannot remove ${JSON.stringify(expression)}: this blocklist does not hold it (${NOT_HELD})`);
      }
    }
    const filter = this.expressionFilter as AnyFilter & { remove(key: string): boolean };
    for (const expression of parsed.expressions) {
      if (!filter.remove(expression)) continue; // kept (a chain's copy it cannot tell apart): a false positive, never a miss
      held.set(expression, held.get(expression)! - 1);
      if (held.get(expression) === 0 && this.#liftedExceptions.delete(expression)) this.#restoreException(expression);
      this.#readChecksum = null;
      this.#confirmationStale = true;
      this.#distinctEntries = null;
      this.countRemoved();
    }
    return parsed;
  }

  /**
   * Gives a blocklist read from bytes the list it holds (the list it was
   * built from, with the lines added since), so that it can `removeLine` and
   * make its `confirmation()`. The list must fit the bytes: as many distinct
   * expressions as the blocklist stores (`entryCount`), each one the filter
   * reports, and each one the companion holds when one is attached (an
   * exact check: attach it first, as the CLI's `update` does).
   * @throws FilterError `INVALID_ARGUMENT` (the list does not fit, naming the
   *   first expression the filter lacks or the two counts), `FREED`.
   */
  attachList(list: string | Iterable<string>, format: ListFormat = this.#format): void {
    this.#refuseWithDeltas('attachList');
    const parser = new ListLineParser(format);
    const expressions = new Set<string>();
    if (typeof list !== 'string' && typeof list?.[Symbol.iterator] !== 'function') requireLine(list, 'attachList: the list (text or lines)');
    for (const line of typeof list === 'string' ? list.split(/\r?\n/) : list) {
      const parsed = parser.parse(requireLine(line));
      if (parsed.kind === 'entry') for (const expression of parsed.expressions) expressions.add(expression);
    }
    const companion = this.attachedConfirmation;
    const missing = [...expressions].find((e) => !this.expressionFilter.has(e) || companion?.holds(e) === false);
    if (missing !== undefined || expressions.size !== this.entryCount) {
      throw new FilterError(
        'INVALID_ARGUMENT',
        `attachList: not the list this blocklist holds (${missing === undefined ? `${expressions.size} expressions, it stores ${this.entryCount}` : `the list has ${JSON.stringify(missing)}, which this blocklist does not hold`})`,
      );
    }
    this.#held = countsOf(expressions);
    this.#refillConfirmation(expressions);
  }

  // A list with deltas applied answers for a version its filter and companion do
  // not hold alone: changing the filter under the chain would make the chain's
  // base another one. Build the new version's base instead.
  #refuseWithDeltas(task: string): void {
    if (this.deltaCount > 0) {
      throw new FilterError(
        'UNSUPPORTED',
        `${task}: this blocklist has ${this.deltaCount} delta(s) applied; its filter is their base: build the current list afresh (UrlBlocklist.build) to change it`,
      );
    }
  }

  /** What this list holds, or UNSUPPORTED saying why it cannot remove. */
  #heldExpressions(): Map<string, number> {
    const { name, supportsRemove } = filterType(this.expressionFilter.type);
    if (!supportsRemove) {
      throw new FilterError('UNSUPPORTED', `a ${name} filter cannot remove entries: build the new list afresh and ship the change with diffFilters`);
    }
    const held = this.#heldMap();
    if (held === null) throw new FilterError('UNSUPPORTED', `a blocklist read from bytes does not know what it holds (${NOT_HELD}): give it its list with attachList`);
    return held;
  }

  // Decided once: a list made here (it has a companion builder) with a type that removes keeps its expressions.
  #heldMap(): Map<string, number> | null {
    if (this.#held === undefined) {
      this.#held = this.#confirmationBuilder !== null && filterType(this.expressionFilter.type).supportsRemove ? new Map() : null;
    }
    return this.#held;
  }

  #noteStored(expression: string): void {
    const held = this.#heldMap();
    held?.set(expression, (held.get(expression) ?? 0) + 1);
  }

  // A companion builder of exactly these expressions (it cannot drop a hash).
  #refillConfirmation(expressions: Iterable<string>): void {
    const builder = new ExactSetBuilder();
    for (const expression of expressions) builder.add(expression);
    this.#confirmationBuilder?.free();
    this.#confirmationBuilder = builder;
    this.#confirmationStale = false;
    this.#distinctEntries = null;
  }

  /**
   * Expressions stored: the distinct expressions of the list. A list that
   * knows its expressions (built or created here, or given its list with
   * `attachList`) counts its companion's distinct 64-bit hashes, so a repeat
   * added again, or a second copy kept by a filter with removal, is one entry
   * (what `attachList` compares with); a list read from bytes reports the
   * count its bytes record, plus what was added since.
   */
  override get entryCount(): number {
    if (this.#confirmationBuilder === null || this.deltaCount > 0) return super.entryCount;
    if (this.#distinctEntries === null) {
      const hashes = this.#expressionHashes('count its entries', 'attachList');
      // The companion's encoder sorts the hashes and keeps each once: its count is the distinct entries.
      const set = readExactSet(hashes.encode({ low: 0, high: 0 }));
      this.#distinctEntries = set.count;
      set.free();
    }
    return this.#distinctEntries;
  }

  // Every expression goes into the companion, whatever the filter answers for
  // it first: the companion is the list's exact record, and one that lacked an
  // expression the filter already answered "maybe" for (a repeat, or a false
  // positive of the entries before it) would turn that listed entry's hit
  // into `clear` (issue #40).
  //
  // Into the filter too, even when it already reports the expression: in a
  // filter with removal (counting Bloom, cuckoo) a false positive that was
  // skipped would depend on another entry's bits or fingerprint, and removing
  // that entry would make it a false negative. A filter without removal only
  // ever gains bits, so when expressions come one by one (`addLine`), one it
  // already reports is left out of it (a repeat would change no bit, only
  // count again, and take a growing filter's room for nothing); `build`'s
  // expressions are distinct (`distinct`): each is added, so the bytes do not
  // depend on the list's order. A cuckoo filter holds at most 2 x bucketSize
  // copies of one fingerprint; a repeat refused for that reason is still
  // found, so only a refusal of an absent expression is FULL.
  //
  // The depth of URL expressions checked grows to cover every stored entry
  // (host labels, directory levels), so no entry is ever out of reach.
  #store(expression: string, distinct = false): void {
    const needed = depthNeededBy(expression);
    const filter = this.expressionFilter;
    this.#readChecksum = null;
    // An exception that is now listed leaves the set first: the list wins, never a false negative.
    const exceptions = this.exceptions as FullExactSet | null;
    if (exceptions !== null && exceptions.holds(expression)) {
      this.#liftedExceptions.add(expression);
      const rest = exceptions.without(expression);
      const set = readExactSet(rest);
      if (set.count === 0) {
        set.free();
        this.setExceptions(null, null);
      } else {
        this.setExceptions(set, rest);
      }
    }
    this.#distinctEntries = null;
    // A filter with removal stores each distinct expression once, as `build`
    // does, on every path (addLine after create or attachList, the CLI's
    // build --urls and update --add): a repeat stored again was a second copy
    // that the companion (which keeps each expression once) did not count, so
    // after one removeLine the companion said clear and the filter alone still
    // reported it, a stale copy no later update could remove. The list knows
    // exactly what it holds (`#held`), so no filter answer is relied on here.
    // A filter without removal only gains bits: one it already reports changes nothing.
    const alreadyIn =
      !distinct && (this.#removes ? (this.#heldMap()?.get(expression) ?? 0) > 0 : filter.has(expression));
    if (!alreadyIn) {
      if (tryAddKey(filter, expression)) {
        this.#noteStored(expression);
      } else if (!filter.has(expression)) {
        filter.add(expression); // throws FULL with the filter's own message
        this.#noteStored(expression);
      }
      // Else a cuckoo filter refused another copy of a fingerprint it holds in every
      // slot of both buckets: the expression is found, and checked to its depth below.
    }
    this.#confirmationBuilder?.add(expression);
    this.countStored(deeperOf(this.expressionDepth, needed));
  }

  /**
   * The exact companion of this list (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md, "Verdicts";
   * bytes: https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, type 33): the Rice-coded 64-bit hashes of every
   * stored expression, bound to the bytes `serialize()` gives now. Ship it
   * beside the filter; `attachConfirmation` on the reading side makes `check`
   * say `listed` or `clear`.
   * @throws FilterError `UNSUPPORTED` for a list read from bytes (its
   *   expressions are not known: build the companion where the list is built), `FREED`.
   */
  confirmation(): OwnedBytes {
    const builder = this.#expressionHashes(
      'make their confirmation',
      "make it with the list (UrlBlocklist.build(...).confirmation(), or the CLI's build --urls, which writes <output>.confirm)",
    );
    return builder.encode(blocklistChecksumOf(this.serialize()));
  }

  /** The hashes of every stored expression; UNSUPPORTED for a list read from bytes (it does not know them). */
  #expressionHashes(task: string, instead: string): ExactSetBuilder {
    if (this.#confirmationBuilder === null) {
      throw new FilterError('UNSUPPORTED', `a blocklist read from bytes does not know its expressions, so it cannot ${task}: ${instead}`);
    }
    // After a remove: only the expressions still held (a removed one is no longer listed).
    if (this.#confirmationStale) this.#refillConfirmation([...this.#held!].filter(([, copies]) => copies > 0).map(([e]) => e));
    return this.#confirmationBuilder!;
  }

  /**
   * Makes sure no never-match host or URL is a hit unless it is listed
   * (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md, "Never-match hosts"): every expression a check
   * of one makes (its own, and its host's suffixes to the list's depth) that
   * the filter reports and the list does not hold goes into the exception set
   * in the blocklist's bytes, and is never a hit. Call it after the last
   * entry is added (`build` with `neverMatch` does): an entry added later may
   * make a new false positive (and one that lists an exception takes it out).
   * A never-match expression that is listed (or has a listed one's 64-bit
   * hash) stays a hit: `listed` in the result.
   * @throws FilterError `INVALID_ARGUMENT` (an entry that is not a host or URL, named by its 1-based number),
   *   `UNSUPPORTED` (a list read from bytes: its expressions are not known), `FREED`.
   */
  guardNeverMatch(entries: Iterable<string>): NeverMatchReport {
    this.#refuseWithDeltas('guardNeverMatch');
    const builder = this.#expressionHashes(
      "tell a never-match host's false positive from a listed one",
      "guard the list where it is built (UrlBlocklist.build(list, { neverMatch }), or the CLI's build --urls --never-match FILE)",
    );
    const { entries: given, expressions: candidates } = neverMatchExpressions(entries, this.expressionDepth);
    const filter = this.expressionFilter;
    const current = this.exceptions as FullExactSet | null;
    // The hashes of every listed expression (the companion's, unbound): an
    // expression with a listed hash never becomes an exception.
    const listedSet = readExactSet(builder.encode({ low: 0, high: 0 }));
    const next = new ExactSetBuilder();
    const listed: NeverMatchReport['listed'] = [];
    let excepted = 0;
    try {
      if (current !== null) next.addSet(current);
      for (const [expression, entry] of candidates) {
        if (!filter.has(expression)) continue;
        if (listedSet.holds(expression)) listed.push({ entry, expression });
        else if (current === null || !current.holds(expression)) {
          next.add(expression);
          excepted++;
        }
      }
      if (excepted > 0) {
        const bytes = next.encode({ low: 0, high: 0 });
        this.setExceptions(readExactSet(bytes), bytes);
        this.#readChecksum = null;
      }
    } finally {
      listedSet.free();
      next.free();
    }
    return {
      entries: given,
      expressions: candidates.size,
      excepted,
      exceptions: this.exceptionCount,
      exceptionBytes: this.exceptionBytes,
      listed,
    };
  }

  protected firstReported(expressions: readonly string[], from: number): number {
    const exceptions = this.exceptions?.address ?? 0;
    const address = (this.expressionFilter as unknown as { readonly address: number }).address;
    const runtime = getRuntime();
    const module = runtime.module as unknown as UrlCheckModule;
    return scanExpressions(runtime.arena, expressions, from, (offsets, data, count) =>
      module._cbw_url_first_hit(address, exceptions, data, offsets, count),
    );
  }

  protected readConfirmation(bytes: Uint8Array | ArrayBuffer): ExactSet {
    return readExactSet(bytes);
  }

  // The base's checksum, kept when the first delta is applied: applyDelta changes
  // the entry count serialize() writes, and the base's companion and deltas name the base.
  #baseChecksum: BlocklistChecksum | null = null;

  override applyDelta(delta: Uint8Array | ArrayBuffer): void {
    const checksum = this.deltaCount === 0 ? this.blocklistChecksum() : null;
    super.applyDelta(delta);
    if (checksum !== null) this.#baseChecksum = checksum;
  }

  protected blocklistChecksum(): BlocklistChecksum {
    return this.#baseChecksum ?? this.#readChecksum ?? blocklistChecksumOf(this.serialize());
  }

  /** Releases the filter's and the companion's wasm memory now (later calls throw FREED). */
  override free(): void {
    this.#confirmationBuilder?.free();
    super.free();
  }

  /**
   * The bytes: a URL-blocklist envelope around the filter (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, type 16).
   * @throws FilterError `UNSUPPORTED` after `applyDelta`: the filter is the
   *   base's, so no bytes hold the current version (ship the base and its
   *   deltas, or build the current list afresh), `FREED`.
   */
  serialize(): OwnedBytes {
    // The base's filter with the chain's count would be bytes of no version (an added entry read back clear).
    this.#refuseWithDeltas('serialize');
    const inner = this.expressionFilter.serialize();
    const exceptions = this.exceptionBlob;
    const safeBrowsing =
      this.#scheme === EXPRESSION_SCHEME_SAFE_BROWSING &&
      this.expressionDepth.hostLabels === SAFE_BROWSING_DEPTH.hostLabels &&
      this.expressionDepth.pathDepth === SAFE_BROWSING_DEPTH.pathDepth;
    // Scheme 3 when there are exceptions, or when the bytes read were scheme 3 (written back the same).
    const scheme =
      exceptions !== null || this.#scheme === EXPRESSION_SCHEME_WITH_EXCEPTIONS
        ? EXPRESSION_SCHEME_WITH_EXCEPTIONS
        : safeBrowsing
          ? EXPRESSION_SCHEME_SAFE_BROWSING
          : EXPRESSION_SCHEME_LIST_DEPTH;
    const depth = scheme === EXPRESSION_SCHEME_SAFE_BROWSING ? 0 : (this.expressionDepth.hostLabels | (this.expressionDepth.pathDepth << 16)) >>> 0;
    const envelope =
      exceptions === null
        ? withBytesInWasm(inner, (pointer, length) =>
            adoptEnvelope(getRuntime().module.encodeUrlBlocklist(pointer, length, scheme, this.entryCount, depth)),
          )
        : withBytesInWasm(concatBytes(inner, exceptions), (pointer) =>
            adoptEnvelope(
              (getRuntime().module as unknown as UrlCheckModule).encodeUrlBlocklistWithExceptions(
                pointer,
                inner.length,
                scheme,
                this.entryCount,
                depth,
                pointer + inner.length,
                exceptions.length,
              ),
            ),
          );
    try {
      return envelope.bytes().slice();
    } finally {
      envelope.delete();
    }
  }
}

/** What the full package's module exports for URL checks and scheme-3 envelopes (bindings/embind.cpp). */
interface UrlCheckModule {
  _cbw_url_first_hit(filter: number, exceptions: number, data: number, offsets: number, count: number): number;
  encodeUrlBlocklistWithExceptions(
    filter: number,
    length: number,
    scheme: number,
    entryCount: number,
    depth: number,
    exceptions: number,
    exceptionsLength: number,
  ): BlocklistEnvelopeHandle;
}

function concatBytes(first: Uint8Array, second: Uint8Array): Uint8Array {
  const out = new Uint8Array(first.length + second.length);
  out.set(first);
  out.set(second, first.length);
  return out;
}

/**
 * The filter options of blocklist options (without capacity): the filter's
 * rate is the per-lookup rate that gives the per-URL target at `depth`.
 */
function filterOptionsOf(options: UrlBlocklistOptions, depth: ExpressionDepth): Record<string, unknown> {
  const { falsePositiveRate = DEFAULT_BLOCKLIST_RATE, seed = 0 } = options;
  const filterOptions: Record<string, unknown> = { falsePositiveRate: lookupRateFor(falsePositiveRate, depth), seed };
  // Type-specific options pass through to the types that take them; a
  // type that does not take one rejects it (never ignored).
  for (const name of TYPE_OPTIONS) {
    if (options[name] !== undefined) filterOptions[name] = options[name];
  }
  return filterOptions;
}

/** The options only some types take (passed through to them; a type that does not take one rejects it). */
const TYPE_OPTIONS = ['bucketSize', 'fingerprintBits', 'arity'] as const;

function adoptEnvelope(handle: BlocklistEnvelopeHandle): BlocklistEnvelopeHandle {
  if (!handle.ok()) {
    const error = coreError(handle.errorCode(), handle.errorMessage());
    handle.delete();
    throw error;
  }
  return handle;
}

function checkBlocklistOptions(options: unknown): asserts options is UrlBlocklistOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new FilterError('INVALID_ARGUMENT', `UrlBlocklist options must be an object, got ${describeValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.includes(key)) {
      throw new FilterError('INVALID_ARGUMENT', `UrlBlocklist: unknown option '${key}' (known options: ${KNOWN_OPTIONS.join(', ')})`);
    }
  }
  const { type, format, capacity, falsePositiveRate, expressionDepth: depth, isPublicSuffix, neverMatch } = options as UrlBlocklistOptions;
  if (neverMatch !== undefined && (neverMatch === null || typeof (neverMatch as Iterable<string>)[Symbol.iterator] !== 'function' || typeof neverMatch === 'string')) {
    throw new FilterError('INVALID_ARGUMENT', `UrlBlocklist: neverMatch must be an iterable of hosts or URLs (such as an array), got ${describeValue(neverMatch)}`);
  }
  if (type !== undefined && type !== SMALLEST_STATIC_TYPE) {
    const entry = filterType(type, 'UrlBlocklist: type');
    if (entry.forgets) {
      // By capability (registry.ts), not by name: a type that drops keys by
      // itself would answer a listed URL "clear" once its window passed.
      throw new FilterError(
        'INVALID_ARGUMENT',
        `UrlBlocklist: the ${entry.name} type forgets its keys as time passes, so listed URLs would be answered clear later; ` +
          `a blocklist must never miss an entry: choose a type that keeps its keys, such as '${DEFAULT_FILTER_TYPES.keys}' or a static one (the default of build)`,
      );
    }
  }
  if (format !== undefined && !LIST_FORMATS.includes(format)) {
    throw new FilterError('INVALID_ARGUMENT', `UrlBlocklist: format must be ${LIST_FORMATS.join(', ')}, got ${String(format)}`);
  }
  if (capacity !== undefined) requireInteger(capacity, 'capacity', 'UrlBlocklist', 1, 2 ** 40);
  if (falsePositiveRate !== undefined && !(typeof falsePositiveRate === 'number' && falsePositiveRate > 0 && falsePositiveRate < 1)) {
    throw new FilterError('INVALID_ARGUMENT', `UrlBlocklist: falsePositiveRate must be a number between 0 and 1 (exclusive), got ${describeValue(falsePositiveRate)}`);
  }
  if (depth !== undefined) {
    if (typeof depth !== 'object' || depth === null) {
      throw new FilterError('INVALID_ARGUMENT', `UrlBlocklist: expressionDepth must be { hostLabels, pathDepth }, got ${describeValue(depth)}`);
    }
    requireInteger(depth.hostLabels, 'expressionDepth.hostLabels', 'UrlBlocklist', 0, MAX_DEPTH);
    requireInteger(depth.pathDepth, 'expressionDepth.pathDepth', 'UrlBlocklist', 0, MAX_DEPTH);
  }
  if (isPublicSuffix !== undefined && typeof isPublicSuffix !== 'function') {
    throw new FilterError('INVALID_ARGUMENT', `UrlBlocklist: isPublicSuffix must be a function (host) => boolean, got ${describeValue(isPublicSuffix)}`);
  }
}

/** The depth one entry needs; INVALID_ARGUMENT past what the byte format records (16 bits each). */
function depthNeededBy(expression: string): ExpressionDepth {
  const needed = expressionDepth(expression);
  if (needed.hostLabels > MAX_DEPTH || needed.pathDepth > MAX_DEPTH) {
    throw new FilterError('INVALID_ARGUMENT', `list entry ${JSON.stringify(expression.slice(0, 80))} is deeper than ${MAX_DEPTH} labels or directories`);
  }
  return needed;
}

/** The deeper of two depths, field by field (the same object when nothing grows). */
function deeperOf(current: ExpressionDepth, needed: ExpressionDepth): ExpressionDepth {
  if (needed.hostLabels <= current.hostLabels && needed.pathDepth <= current.pathDepth) return current;
  return {
    hostLabels: Math.max(current.hostLabels, needed.hostLabels),
    pathDepth: Math.max(current.pathDepth, needed.pathDepth),
  };
}

// Why a list removes only what it holds (removeLine, and the CLI's update).
const NOT_HELD = "removing an expression never stored could remove another entry's fingerprint: a listed URL then answered clear";

function requireLine(line: unknown, what = 'a list line'): string {
  if (typeof line !== 'string') throw new FilterError('INVALID_ARGUMENT', `${what} must be a string, got ${describeValue(line)}`);
  return line;
}

/** How many times each value occurs. */
function countsOf(values: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}
