import { envelopeDepth, EXPRESSION_SCHEME_WITH_EXCEPTIONS } from '../url/check-url.js';
import { scanExpressions } from '../url/expression-scan.js';
import { getRuntime } from '../runtime/init.js';
import { exceptionBytesIn } from '../url/never-match-expressions.js';
import { type BlocklistChecksum, blocklistChecksumOf, type ConfirmationIndex, type ExactSet } from '../url/confirmation.js';
import type { ExpressionDepth } from '../url/expressions.js';
import { UrlList } from '../url/url-list.js';
import { FilterReader } from './filter-reader.js';
import { readReaderConfirmation, readReaderConfirmationIndex } from './reader-confirmation.js';
import { bytesOf, openReader, ReadKind, readerModule } from './reader-module.js';

/**
 * A URL blocklist read from bytes (`UrlBlocklist#serialize()`, the CLI's
 * `build --urls`), for pages that only check URLs against a shipped list:
 * `match`, `check` and the list's numbers, the same answers as `UrlBlocklist`
 * (one class holds the rule for both, url/url-list.ts), from a module about a
 * third of its size.
 *
 * ```ts
 * import { init, UrlBlocklistReader } from 'cuckoo-bloom-wasm/reader';
 * await init();
 * const list = UrlBlocklistReader.deserialize(await (await fetch('/urlhaus.filter')).arrayBuffer());
 * list.match('https://www.evil.example/login'); // 'evil.example/' or null (certainly not listed)
 * // On a "maybe", fetch the exact companion once, and check says listed or clear:
 * list.attachConfirmation(await (await fetch('/urlhaus.filter.confirm')).arrayBuffer());
 * list.check('https://www.evil.example/login').verdict; // 'listed'
 * // Or attach the split companion's index, and each "maybe" fetches one part of about 3 KB:
 * list.attachConfirmationParts(await (await fetch('/urlhaus.filter.confirm.index')).arrayBuffer(),
 *   async (part, name) => (await fetch(`/urlhaus.filter.confirm.parts/${name}`)).arrayBuffer());
 * (await list.confirm('https://www.evil.example/login')).verdict; // 'listed'
 * ```
 */
export class UrlBlocklistReader extends UrlList<FilterReader> {
  /** Its name where the reader bundle renames classes (no keepNames: tree-shakable). */
  static override readonly name = 'UrlBlocklistReader';

  readonly #checksum: BlocklistChecksum;

  private constructor(filter: FilterReader, entryCount: number, depth: ExpressionDepth, checksum: BlocklistChecksum) {
    super(filter, entryCount, depth);
    this.#checksum = checksum;
  }

  protected firstReported(expressions: readonly string[], from: number): number {
    const handle = this.expressionFilter.handle;
    const exceptions = this.exceptions?.address ?? 0;
    const module = readerModule();
    return scanExpressions(getRuntime().arena, expressions, from, (offsets, data, count) =>
      module._cbw_reader_first_hit(handle, exceptions, data, offsets, count),
    );
  }

  protected readConfirmation(bytes: Uint8Array | ArrayBuffer): ExactSet {
    return readReaderConfirmation(bytes);
  }

  protected override readConfirmationIndex(bytes: Uint8Array | ArrayBuffer): ConfirmationIndex {
    return readReaderConfirmationIndex(bytes);
  }

  protected blocklistChecksum(): BlocklistChecksum {
    return this.#checksum;
  }

  /**
   * Reads URL-blocklist bytes.
   * @throws FilterError `WRONG_TYPE` (a plain filter: use FilterReader), `CORRUPT`,
   *   `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT` (not bytes), `OUT_OF_MEMORY`, `NOT_INITIALIZED`.
   */
  static deserialize(input: Uint8Array | ArrayBuffer): UrlBlocklistReader {
    const module = readerModule();
    const bytes = bytesOf(input, 'UrlBlocklistReader.deserialize');
    const handle = openReader(module, bytes, ReadKind.Blocklist);
    const depth = envelopeDepth(module._cbw_reader_blocklist_scheme(handle), module._cbw_reader_blocklist_depth(handle));
    const scheme = module._cbw_reader_blocklist_scheme(handle);
    const entryCount = module._cbw_reader_blocklist_entries(handle);
    const list = new UrlBlocklistReader(new FilterReader(module, handle, bytes.length), entryCount, depth, blocklistChecksumOf(bytes));
    // Scheme 3: the exception set after the filter (checked with the envelope), read as a set of its own.
    const exceptions = scheme === EXPRESSION_SCHEME_WITH_EXCEPTIONS ? exceptionBytesIn(bytes) : null;
    if (exceptions !== null) {
      try {
        // A copy (new Uint8Array), not slice(): a Node Buffer's slice() is a view of the caller's bytes.
        list.setExceptions(readReaderConfirmation(exceptions), new Uint8Array(exceptions));
      } catch (error) {
        list.free();
        throw error;
      }
    }
    return list;
  }
}
