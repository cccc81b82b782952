/**
 * cuckoo-bloom-wasm/redis: a blocked Bloom filter whose table lives in Redis,
 * shared by every process of a service, and an expiring one ("seen in the
 * last N ms") in generations that Redis expires. Node only. Pass a connected
 * node-redis or ioredis client; neither is a dependency of this package.
 * See https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/REDIS.md.
 *
 * @module cuckoo-bloom-wasm/redis
 */
export {
  RedisBloomFilter,
  type RedisBloomFilterOptions,
  type RedisConnectionOptions,
  type RedisTransferOptions,
} from './redis-bloom.js';
export { KEYS_PER_SCRIPT } from './commands.js';
export { RedisExpiringBloomFilter, type RedisExpiringBloomFilterOptions } from './redis-expiring.js';
export type { RedisArgument, RedisClient, RedisCommandRunner } from './clients.js';
export type { SlotLayout } from './layout.js';
export type { DurabilityOptions } from './durability.js';
// The main entry's init(): create/open call it themselves; exported so every entry has one.
export { init, isInitialized } from '../index.js';
