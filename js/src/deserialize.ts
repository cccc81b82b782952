import { FilterError } from './errors.js';
import { ExistingHandle, readHandle, type SerializedBytes, withBytesInWasm } from './core/filter-base.js';
import { getRuntime } from './runtime/init.js';
import { type AnyFilter, filterType, findFilterType } from './registry.js';

export type { AnyFilter } from './registry.js';

/** What {@link serializedType} can name: a filter type, or a `UrlBlocklist`'s bytes. */
export type SerializedType = AnyFilter['type'] | 'url-blocklist';

/**
 * The type named in serialized bytes, without validating them (null when
 * they do not start like a filter). Use it to pick a reader; the reader
 * still checks everything.
 */
export function serializedType(bytes: SerializedBytes): SerializedType | null {
  const name = withBytesInWasm(bytes, (pointer, length) => getRuntime().module.filterTypeOf(pointer, length));
  if (name === 'url-blocklist') return name;
  return findFilterType(name)?.name ?? null;
}

/**
 * Reads serialized bytes of any filter type; check the result with
 * `instanceof` or its `type`.
 * @throws FilterError `CORRUPT` (not a filter, truncated, bad checksum),
 *   `UNSUPPORTED_VERSION`, `WRONG_TYPE` (a URL blocklist, or a type this build
 *   does not know), `INVALID_ARGUMENT` (not a Uint8Array), `OUT_OF_MEMORY`, `NOT_INITIALIZED`.
 */
export function deserialize(bytes: SerializedBytes): AnyFilter {
  let handle: ReturnType<typeof readHandle>;
  try {
    handle = readHandle(bytes);
  } catch (error) {
    // The core checks the bytes before their type: a damaged blob whose type byte happens to
    // say URL blocklist is CORRUPT, as the reader (FilterReader) says too. Intact URL
    // blocklist bytes are WRONG_TYPE, with the way to read them.
    if (error instanceof FilterError && error.code === 'WRONG_TYPE' && serializedTypeIsBlocklist(bytes)) {
      throw new FilterError('WRONG_TYPE', 'these bytes are a URL blocklist: read them with UrlBlocklist.deserialize()', { cause: error });
    }
    throw error;
  }
  const entry = findFilterType(handle.typeName());
  if (entry === null) {
    const name = handle.typeName();
    handle.delete();
    // The core knows a type this package's TypeScript does not: a build mismatch.
    return filterType(name, 'the serialized filter type') as never;
  }
  return entry.create(new ExistingHandle(handle) as never);
}

function serializedTypeIsBlocklist(bytes: SerializedBytes): boolean {
  return (bytes instanceof Uint8Array || bytes instanceof ArrayBuffer) && serializedType(bytes) === 'url-blocklist';
}
