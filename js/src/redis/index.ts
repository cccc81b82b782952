/**
 * cuckoo-bloom-wasm/redis: a blocked Bloom filter whose table lives in Redis,
 * shared by every process of a service. Node only. Pass a connected
 * node-redis or ioredis client; neither is a dependency of this package.
 * See the README's "Redis" section.
 */
export {
  RedisBloomFilter,
  KEYS_PER_SCRIPT,
  type RedisBloomFilterOptions,
  type RedisConnectionOptions,
  type RedisTransferOptions,
} from './redis-bloom.js';
export type { RedisArgument, RedisCommandRunner } from './clients.js';
export type { SlotLayout } from './layout.js';
