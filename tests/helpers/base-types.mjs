// The four base filter types, named as the registry names them and with their
// type ids in the byte format (cpp/include/cuckoo_bloom/core/format.h, FilterType):
// one list for the suites that run every type through the same checks.
import { BloomFilter, BlockedBloomFilter, CountingBloomFilter, CuckooFilter } from 'cuckoo-bloom-wasm';

export const BASE_TYPES = [
  { name: 'bloom', Class: BloomFilter, typeId: 1 },
  { name: 'blocked-bloom', Class: BlockedBloomFilter, typeId: 2 },
  { name: 'counting-bloom', Class: CountingBloomFilter, typeId: 3 },
  { name: 'cuckoo', Class: CuckooFilter, typeId: 4 },
];
