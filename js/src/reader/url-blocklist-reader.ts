import { checkUrl, envelopeDepth, type UrlCheck } from '../url/check-url.js';
import type { ExpressionDepth } from '../url/expressions.js';
import { FilterReader } from './filter-reader.js';
import { bytesOf, openReader, readerModule } from './reader-module.js';

/**
 * A URL blocklist read from bytes (`UrlBlocklist#serialize()`, the CLI's
 * `build --urls`), for pages that only check URLs against a shipped list:
 * the same answers as `UrlBlocklist` (one rule, url/check-url.ts), from a
 * module about a third of its size.
 *
 * ```ts
 * import { init, UrlBlocklistReader } from 'cuckoo-bloom-wasm/reader';
 * await init();
 * const list = UrlBlocklistReader.deserialize(await (await fetch('/urlhaus.filter')).arrayBuffer());
 * list.match('https://www.evil.example/login'); // 'evil.example/' or null (certainly not listed)
 * ```
 */
export class UrlBlocklistReader {
  readonly #filter: FilterReader;
  readonly #entryCount: number;
  readonly #depth: ExpressionDepth;

  private constructor(filter: FilterReader, entryCount: number, depth: ExpressionDepth) {
    this.#filter = filter;
    this.#entryCount = entryCount;
    this.#depth = depth;
  }

  /**
   * Reads URL-blocklist bytes.
   * @throws FilterError `WRONG_TYPE` (a plain filter: use FilterReader), `CORRUPT`,
   *   `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT` (not bytes), `OUT_OF_MEMORY`, `NOT_INITIALIZED`.
   */
  static deserialize(input: Uint8Array | ArrayBuffer): UrlBlocklistReader {
    const module = readerModule();
    const bytes = bytesOf(input, 'UrlBlocklistReader.deserialize');
    const handle = openReader(module, bytes, true);
    const depth = envelopeDepth(module._cbw_reader_blocklist_scheme(handle), module._cbw_reader_blocklist_depth(handle));
    const entryCount = module._cbw_reader_blocklist_entries(handle);
    return new UrlBlocklistReader(new FilterReader(module, handle, bytes.length), entryCount, depth);
  }

  /**
   * The first of the URL's expressions the filter reports, or null when none is
   * (the URL is certainly not listed).
   * @throws FilterError `INVALID_ARGUMENT` for a non-string or a URL that cannot be parsed, `FREED`.
   */
  match(url: string): string | null {
    return this.check(url).match;
  }

  /** `match`, plus the canonical URL and every expression that was checked. */
  check(url: string): UrlCheck {
    const filter = this.#filter;
    void filter.handle; // FREED before any parsing
    return checkUrl(url, this.#depth, (expression) => filter.has(expression));
  }

  /** The filter holding the expressions. */
  get filter(): FilterReader {
    return this.#filter;
  }
  /** How deep URLs are checked (see `UrlBlocklist#expressionDepth`). */
  get expressionDepth(): ExpressionDepth {
    return this.#depth;
  }
  /** Entries (distinct expressions) the list holds. */
  get entryCount(): number {
    return this.#entryCount;
  }
  /** The filter type's name ('binary-fuse', 'bloom', ...). */
  get type(): string {
    return this.#filter.type;
  }
  /** Target false-positive rate per expression checked. */
  get falsePositiveRate(): number {
    return this.#filter.falsePositiveRate;
  }
  /** Bytes read. */
  get byteLength(): number {
    return this.#filter.byteLength;
  }
  free(): void {
    this.#filter.free();
  }
  [Symbol.dispose](): void {
    this.free();
  }
}

