-- verify: after snapshot() read the shards, checks that what it read was the
-- filter's current table (RedisBloomFilter snapshot; one call per cluster
-- slot of the shards).
--
-- Parts: identity-guard write-counters
-- KEYS: [1..m] the shards; [m + 1] their write counters' mirror; [m + 2] the
--   parameters hash, only when the filter id (last ARGV) is not empty
--   (identity-guard).
-- ARGV: [1] m; [1 + j] shard j's table length in bytes; [2 + m] the handle's
--   filter id, or '' when the hash lives in another slot.
-- Returns: m, when every shard is whole and as new as its mirror.
-- Atomic: one step, after the reads, not before: a shard put back to an
--   older copy stays refused (nothing writes to it), so a copy read at any
--   moment before this check is caught by it. It writes nothing.
-- Refuses as the data scripts do: a hash that is gone or names another
--   filter (identity-guard); a shard missing, truncated, or older or newer
--   than its mirror (write-counters: CBW_MISSING_SHARD, CBW_STALE_SHARD).
local m = tonumber(ARGV[1])
local mirror = KEYS[m + 1]
local _, _, refusal = checkShards(m, 1, mirror)
if refusal then return redis.error_reply(refusal) end
return m
