-- expiring-has: reads the ranges of one call's keys in every generation
-- looked at (RedisExpiringBloomFilter hasMany); the handle tests the bits.
--
-- Parts: identity-guard write-counters range-at expiring-generations
-- KEYS: [1] the record of generations (a sorted set); [2] the write
--   counters' mirror; [3] the parameters hash, only when the filter id (last
--   ARGV) is not empty (identity-guard).
-- ARGV: [1] the generations' key prefix; [2] the window (ms); [3] K, the
--   generations looked at; [4] m, the shards of this call; [4 + j] shard j's
--   index; [4 + m + j] its ranges (range-at); [4 + 2m + j] its table length
--   in bytes (without its counter); [5 + 3m] the handle's filter id, or ''
--   when the hash lives in another slot.
-- Returns: for each generation looked at, newest first, for each shard of
--   the call: its ranges read end to end, or '' when the shard is empty
--   (never written, or expired): K * m strings.
-- Atomic: every generation is read at one Redis time and one state of the
--   shards. It writes nothing.
-- Refuses, answering nothing: a hash that is gone or names another filter
--   (identity-guard); a record of generations that is gone, or a recorded
--   shard of a generation looked at that is missing, truncated, or older or
--   newer than its mirror (expiring-generations, write-counters:
--   CBW_MISSING_SHARD, CBW_STALE_SHARD).
local out = {}
for age = 0, K - 1 do
  for j = 1, m do
    local name, problem = live(newest - age, j, 4 + 2 * m)
    if name == nil then return redis.error_reply(problem) end
    out[#out + 1] = name and table.concat(readRanges(name, j)) or ''
  end
end
return out
