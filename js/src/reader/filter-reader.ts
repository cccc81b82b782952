import { FilterError } from '../errors.js';
import { WasmOwner } from '../core/wasm-owner.js';
import { getRuntime } from '../runtime/init.js';
import type { Key } from '../keys/keys.js';
import { bytesOf, droppedReaders, openReader, ReadKind, type ReaderModule, readerModule, stringAt } from './reader-module.js';

/**
 * A filter read from bytes, answering `has` and nothing else: any type the package
 * writes (`serialize()`, the CLI's `build`), in a module about a third of the size.
 *
 * ```ts
 * import { init, FilterReader } from 'cuckoo-bloom-wasm/reader';
 * await init();
 * const seen = FilterReader.deserialize(new Uint8Array(await (await fetch('/seen.filter')).arrayBuffer()));
 * seen.has('user-42'); // false: certainly never added
 * ```
 */
export class FilterReader extends WasmOwner {
  /** Its name where the reader bundle renames classes (no keepNames: tree-shakable). */
  static override readonly name = 'FilterReader';

  #handle: number;
  readonly #module: ReaderModule;
  readonly #byteLength: number;

  /** @internal */
  constructor(module: ReaderModule, handle: number, byteLength: number) {
    super('FilterReader', 'send its bytes and FilterReader.deserialize() them on the other side');
    this.#module = module;
    this.#handle = handle;
    this.#byteLength = byteLength;
    droppedReaders?.register(this, { module, handle }, this);
  }

  /**
   * Reads the bytes of any filter type.
   * @throws FilterError `CORRUPT`, `UNSUPPORTED_VERSION`, `WRONG_TYPE` (a URL blocklist:
   *   use UrlBlocklistReader), `INVALID_ARGUMENT` (not bytes), `OUT_OF_MEMORY`, `NOT_INITIALIZED`.
   */
  static deserialize(input: Uint8Array | ArrayBuffer): FilterReader {
    const module = readerModule();
    const bytes = bytesOf(input, 'FilterReader.deserialize');
    return new FilterReader(module, openReader(module, bytes, ReadKind.Filter), bytes.length);
  }

  /**
   * May the key be in the set? `false` is certain; `true` is wrong at about the
   * filter's false-positive rate. Strings are hashed as their UTF-8 bytes.
   * @throws FilterError `INVALID_ARGUMENT` (not a string or Uint8Array), `FREED`.
   */
  has(key: Key): boolean {
    const handle = this.#live();
    const { arena } = getRuntime();
    const length = arena.encode(key);
    return this.#module._cbw_reader_has(handle, arena.pointer, length) !== 0;
  }

  /** The filter type's name ('binary-fuse', 'bloom', ...). */
  get type(): string {
    return stringAt(this.#module, this.#module._cbw_reader_type_name(this.#live()));
  }
  /** Keys the filter holds, as its writer counted them. */
  get count(): number {
    return this.#module._cbw_reader_count(this.#live());
  }
  /** Keys it was sized for (0 for a filter sized by its keys, such as binary fuse). */
  get capacity(): number {
    return this.#module._cbw_reader_capacity(this.#live());
  }
  /** The false-positive rate it was built for. */
  get falsePositiveRate(): number {
    return this.#module._cbw_reader_rate(this.#live());
  }
  /** Bytes read. */
  get byteLength(): number {
    return this.#byteLength;
  }
  /** @internal The live handle, for UrlBlocklistReader's one-crossing URL check. */
  get handle(): number {
    return this.#live();
  }

  /** Releases its wasm memory now (later calls throw FREED). Safe to call twice. */
  free(): void {
    if (this.#handle === 0) return;
    droppedReaders?.unregister(this);
    this.#module._cbw_reader_free(this.#handle);
    this.#handle = 0;
  }

  /** `String(reader)`, and what `console.log` shows: type, count, rate and size on one line. */
  toString(): string {
    if (this.#handle === 0) return 'FilterReader { freed }';
    return (
      `FilterReader { type: '${this.type}', count: ${this.count}, capacity: ${this.capacity}, ` +
      `falsePositiveRate: ${Number(this.falsePositiveRate.toPrecision(3))}, byteLength: ${this.#byteLength} }`
    );
  }

  #live(): number {
    if (this.#handle === 0) throw new FilterError('FREED', 'this FilterReader was freed');
    return this.#handle;
  }
}
