/**
 * The shape of the embind module built from bindings/embind.cpp. Internal:
 * users never see these handles, only the classes in this package. One
 * handle type serves every filter type; the C++ registry dispatches.
 */
export interface FilterHandle {
  ok(): boolean;
  /** A status name from statusCodeNames() ('INVALID_ARGUMENT', 'OUT_OF_MEMORY', ...). */
  errorCode(): string;
  errorMessage(): string;
  address(): number;
  typeName(): string;
  count(): number;
  capacity(): number;
  seed(): number;
  byteLength(): number;
  targetFalsePositiveRate(): number;
  estimatedFalsePositiveRate(): number;
  clear(): void;
  parameters(): Record<string, number>;
  /**
   * The serialized bytes in parts, valid until releaseSerialized(): `head` is
   * the header and parameters followed by the 8 checksum bytes; the payload
   * is the table itself, `payloadLength` bytes at address `payload`. Null
   * when they cannot be made (a chain's links are written into one
   * allocation: OUT_OF_MEMORY near the memory limit); errorCode() and
   * lastMessage() say why.
   */
  serializeParts(): { head: Uint8Array; payload: number; payloadLength: number } | null;
  releaseSerialized(): void;
  /** A status code; the message of a failure is lastMessage(). */
  unionWith(other: FilterHandle): number;
  lastMessage(): string;
  delete(): void;
}

export interface BlocklistEnvelopeHandle {
  ok(): boolean;
  errorCode(): string;
  errorMessage(): string;
  bytes(): Uint8Array;
  scheme(): number;
  /** Scheme 2: hostLabels | pathDepth << 16. */
  depth(): number;
  entryCount(): number;
  filterType(): string;
  filterOffset(): number;
  filterLength(): number;
  delete(): void;
}

/** One registered type, as the C++ registry describes it (registeredFilterTypes()). */
export interface CoreFilterType {
  name: string;
  id: number;
  supportsRemove: boolean;
  supportsUnion: boolean;
  /** Built once from its keys (buildFilter), then read-only. */
  isStatic: boolean;
  /** Its keys expire (it moves with a clock: advance). */
  forgets: boolean;
  /** The options it takes beyond capacity, falsePositiveRate and seed, as the core spells them. */
  options: readonly string[];
  // Its class's facts (cpp/include/cuckoo_bloom/core/type_facts.h); defaultCapacity 0: required.
  growth: FilterGrowth;
  growingStandIn: string | null;
  estimateSource: EstimateSource;
  defaultCapacity: number;
  optionLimits: Readonly<Record<string, OptionLimit>>;
}

/** Not at all, by appending links (a chain), or in place (one table doubling). */
export type FilterGrowth = 'none' | 'chaining' | 'in-place';

/** Where an estimated rate comes from. */
export interface EstimateSource {
  /** A stable name (`'bits-set'`, ...). */
  readonly name: string;
  /** "from the bits actually set". */
  readonly phrase: string;
}

/** One option's range (bounds may be infinite) and default. */
export interface OptionLimit {
  /** Lower bound. */
  readonly min: number;
  /** `min` is taken. */
  readonly minInclusive: boolean;
  /** Upper bound. */
  readonly max: number;
  /** `max` is taken. */
  readonly maxInclusive: boolean;
  /** Whole numbers only. */
  readonly integer: boolean;
  /** Null: not a number (read from a clock, or none). */
  readonly default: number | null;
}

/**
 * The options the C++ registry reads (validated by TypeScript first): C++'s
 * CoreFilterOptions, one name on both sides. The shared three always; every
 * other option is one of cpp/include/cuckoo_bloom/core/filter_options.h's list,
 * by its name there (a number, or a flag as a boolean), so a new option needs
 * no edit here. The core refuses one the type does not take.
 */
export type CoreFilterOptions = {
  capacity: number;
  falsePositiveRate: number;
  seed: number;
} & { [option: string]: number | boolean };

export interface CoreModule {
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  _malloc(size: number): number;
  _free(pointer: number): void;
  formatVersion: number;
  // The fast path (plain C exports, the same for every type): handle address first.
  _cbw_has(handle: number, key: number, length: number): number;
  _cbw_add(handle: number, key: number, length: number): number;
  _cbw_remove(handle: number, key: number, length: number): number;
  /** 1 added, 0 already present, negative: minus the failure's status code. */
  _cbw_add_if_new(handle: number, key: number, length: number): number;
  _cbw_has_many(handle: number, data: number, offsets: number, count: number, out: number): void;
  _cbw_add_many(handle: number, data: number, offsets: number, count: number): number;
  _cbw_remove_many(handle: number, data: number, offsets: number, count: number, out: number): number;
  /** Expiring filters: generations dropped (>= 0) or minus a status code. */
  _cbw_advance(handle: number, now: number): number;
  _cbw_utf8_offsets(data: number, byteLength: number, offsets: number, count: number): number;
  _cbw_utf16_keys(units: number, offsets: number, count: number, data: number): number;
  _cbw_utf16_key(units: number, unitCount: number, data: number): number;
  /** A BlobBuffer for reading a blob in place (0: out of memory). */
  _cbw_blob_buffer_new(length: number, payloadOffset: number): number;
  _cbw_blob_buffer_data(buffer: number): number;
  _cbw_blob_buffer_free(buffer: number): void;
  /** Reads a BlobBuffer's bytes and frees the buffer (its memory may become the filter's table). */
  deserializeBuffer(buffer: number): FilterHandle;
  /** Hashes a batch (the _cbw_has_many layout) with `seed` into count 16-byte key hashes at `out`. */
  _cbw_hash_many(seed: number, data: number, offsets: number, count: number, out: number): void;
  filterTypes(): CoreFilterType[];
  statusCodeNames(): string[];
  /** The type name in a blob's header ('' when the bytes do not start like a filter). */
  filterTypeOf(data: number, length: number): string;
  createFilter(typeName: string, options: CoreFilterOptions): FilterHandle;
  deserializeFilter(data: number, length: number): FilterHandle;
  /** A filter of `count` key hashes at `hashes` (a static type is built from them; others get them added). */
  buildFilter(typeName: string, options: CoreFilterOptions, hashes: number, count: number): FilterHandle;
  encodeUrlBlocklist(filter: number, length: number, scheme: number, entryCount: number, depth: number): BlocklistEnvelopeHandle;
  decodeUrlBlocklist(data: number, length: number): BlocklistEnvelopeHandle;
  // Inspection (bindings/inspect.cpp), for visualisations: a filter is named
  // by its handle's address(); on a type without the structure, an empty answer.
  /** The bit (or counter) indexes of a key, in probe order. */
  inspectPositions(handle: number, key: number, length: number): number[];
  /** A Bloom filter's bit array, in place (valid until the filter is freed or wasm memory grows). */
  inspectBloomBits(handle: number): Uint8Array;
  inspectCounterAt(handle: number, index: number): number;
  inspectSlotAt(handle: number, bucket: number, slot: number): number;
  /** [bucket1, bucket2, fingerprint] of a key. */
  inspectLocate(handle: number, key: number, length: number): [number, number, number];
  /**
   * A cuckoo filter's add that records its eviction walk: the status code in
   * the low 8 bits, the walk's steps above; the steps are at
   * _cbw_recorded_kicks() (16 bytes each: bucket as uint64, slot, fingerprint)
   * until the next recorded add.
   */
  _cbw_cuckoo_add_recording(handle: number, key: number, length: number): number;
  _cbw_recorded_kicks(): number;
}
