/**
 * The shape of the embind module built from bindings/embind.cpp. Internal:
 * users never see these handles, only the classes in this package.
 */
export interface CoreHandle {
  ok(): boolean;
  address(): number;
  errorCode(): number;
  errorMessage(): string;
  has(key: number, length: number): boolean;
  hasMany(data: number, offsets: number, count: number, out: number): void;
  addMany(data: number, offsets: number, count: number): number;
  serialize(): Uint8Array;
  releaseSerialized(): void;
  count(): number;
  capacity(): number;
  seed(): number;
  byteLength(): number;
  targetFalsePositiveRate(): number;
  estimatedFalsePositiveRate(): number;
  clear(): void;
  delete(): void;
}

export interface BloomHandle extends CoreHandle {
  add(key: number, length: number): void;
  positions(key: number, length: number): number[];
  bitCount(): number;
  hashCount(): number;
  setBitCount(): number;
  words(): Uint8Array;
  unionWith(other: BloomHandle): number;
}

export interface BlockedBloomHandle extends CoreHandle {
  add(key: number, length: number): void;
  positions(key: number, length: number): number[];
  blockCount(): number;
  unionWith(other: BlockedBloomHandle): number;
}

export interface CountingBloomHandle extends CoreHandle {
  add(key: number, length: number): void;
  positions(key: number, length: number): number[];
  remove(key: number, length: number): number;
  counterCount(): number;
  hashCount(): number;
  counterAt(index: number): number;
}

export interface CuckooHandle extends CoreHandle {
  add(key: number, length: number): number;
  remove(key: number, length: number): number;
  bucketCount(): number;
  bucketSize(): number;
  fingerprintBits(): number;
  maxKicks(): number;
  loadFactor(): number;
  slotAt(bucket: number, slot: number): number;
  locate(key: number, length: number): [number, number, number];
  lastKickPath(): number[];
}

export interface BlocklistEnvelopeHandle {
  ok(): boolean;
  errorCode(): number;
  errorMessage(): string;
  bytes(): Uint8Array;
  scheme(): number;
  entryCount(): number;
  filterType(): number;
  filterOffset(): number;
  filterLength(): number;
  delete(): void;
}

export interface CoreModule {
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  _malloc(size: number): number;
  _free(pointer: number): void;
  formatVersion: number;
  // Fast path (plain C exports): (handle address, key pointer, key length).
  _cbw_bloom_has(handle: number, key: number, length: number): number;
  _cbw_bloom_add(handle: number, key: number, length: number): void;
  _cbw_blocked_bloom_has(handle: number, key: number, length: number): number;
  _cbw_blocked_bloom_add(handle: number, key: number, length: number): void;
  _cbw_counting_bloom_has(handle: number, key: number, length: number): number;
  _cbw_counting_bloom_add(handle: number, key: number, length: number): void;
  _cbw_cuckoo_has(handle: number, key: number, length: number): number;
  _cbw_cuckoo_add(handle: number, key: number, length: number): number;
  filterTypeOf(data: number, length: number): number;
  createBloom(capacity: number, rate: number, seed: number): BloomHandle;
  deserializeBloom(data: number, length: number): BloomHandle;
  createBlockedBloom(capacity: number, rate: number, seed: number): BlockedBloomHandle;
  deserializeBlockedBloom(data: number, length: number): BlockedBloomHandle;
  createCountingBloom(capacity: number, rate: number, seed: number): CountingBloomHandle;
  deserializeCountingBloom(data: number, length: number): CountingBloomHandle;
  createCuckoo(
    capacity: number,
    rate: number,
    bucketSize: number,
    fingerprintBits: number,
    maxKicks: number,
    seed: number,
  ): CuckooHandle;
  deserializeCuckoo(data: number, length: number): CuckooHandle;
  encodeUrlBlocklist(filter: number, length: number, scheme: number, entryCount: number): BlocklistEnvelopeHandle;
  decodeUrlBlocklist(data: number, length: number): BlocklistEnvelopeHandle;
}

export type CoreFactory = (options: {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}) => Promise<CoreModule>;
