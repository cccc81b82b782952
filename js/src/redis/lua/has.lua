-- has: whether each key of one call may be in the filter (RedisBloomFilter
-- hasMany; one call per cluster slot of the filter's shards).
--
-- Parts: identity-guard write-counters block-helpers range-at
-- KEYS: [1..m] the shards of this call; [m + 1] their write counters' mirror;
--   [m + 2] the parameters hash, only when the filter id (last ARGV) is not
--   empty (identity-guard).
-- ARGV: [1] m; [1 + j] shard j's ranges (range-at); [1 + m + j] shard j's
--   records: per key, in range order, its block's byte offset in its range
--   (u32, little-endian) then, for each of the block's 8 words, the bit
--   (0..63) the key sets in it (12 bytes a key); [1 + 2m + j] shard j's table
--   length in bytes (without its counter); [2 + 3m] the handle's filter id, or
--   '' when the hash lives in another slot.
-- Returns: one byte per key, in plan order: '1' when all 8 of its bits are
--   set, else '0'.
-- Atomic: a script runs alone, so every key of the call is answered against
--   one state of the table. It writes nothing.
-- Refuses, before reading any range: a hash that is gone or names another
--   filter (identity-guard); a shard missing, truncated, or older or newer
--   than its mirror (write-counters: CBW_MISSING_SHARD, CBW_STALE_SHARD),
--   since it would answer false for keys that were added.
--
-- One GETRANGE per range, and one byte a key in the reply: returning the
-- blocks instead cost more in Redis than the bit tests it saves (scripts.ts).
local m = tonumber(ARGV[1])
local mirror = KEYS[m + 1]
local _, _, refusal = checkShards(m, 1 + 2 * m, mirror)
if refusal then return redis.error_reply(refusal) end
local out, n = {}, 0
for j = 1, m do
  local shard, ranges, records = KEYS[j], ARGV[1 + j], ARGV[1 + m + j]
  local q, r, last = 1, 1, #ranges
  while q <= last do
    local startText, endText, count
    startText, endText, count, q = rangeAt(ranges, q)
    local range = call('GETRANGE', shard, startText, endText)
    for _ = 1, count do
      local b0, b1, b2, b3, p0, p1, p2, p3, p4, p5, p6, p7 = byte(records, r, r + 11)
      r = r + 12
      n = n + 1
      out[n] = holds(range, b0 + b1 * 256 + b2 * 65536 + b3 * 16777216, p0, p1, p2, p3, p4, p5, p6, p7) and '1' or '0'
    end
  end
end
return table.concat(out)
