import { envelopeDepth } from '../url/check-url.js';
import { type BlocklistChecksum, blocklistChecksumOf, type ExactSet } from '../url/confirmation.js';
import type { ExpressionDepth } from '../url/expressions.js';
import { UrlList } from '../url/url-list.js';
import { FilterReader } from './filter-reader.js';
import { readReaderConfirmation } from './reader-confirmation.js';
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
 * ```
 */
export class UrlBlocklistReader extends UrlList<FilterReader> {
  readonly #checksum: BlocklistChecksum;

  private constructor(filter: FilterReader, entryCount: number, depth: ExpressionDepth, checksum: BlocklistChecksum) {
    super(filter, entryCount, depth);
    this.#checksum = checksum;
  }

  protected readConfirmation(bytes: Uint8Array | ArrayBuffer): ExactSet {
    return readReaderConfirmation(bytes);
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
    const entryCount = module._cbw_reader_blocklist_entries(handle);
    return new UrlBlocklistReader(new FilterReader(module, handle, bytes.length), entryCount, depth, blocklistChecksumOf(bytes));
  }
}
