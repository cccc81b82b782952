-- add: adds each key of one call to the filter (RedisBloomFilter addMany;
-- one call per cluster slot of the filter's shards).
--
-- Parts: identity-guard write-counters block-helpers range-at
-- KEYS: [1..m] the shards of this call; [m + j] shard j's item counter;
--   [2m + 1] the shards' write counters' mirror; [2m + 2] the parameters
--   hash, only when the filter id (last ARGV) is not empty (identity-guard).
-- ARGV: [1] m; [1 + j] shard j's ranges (range-at); [1 + m + j] shard j's
--   records: per key, in range order, its block's byte offset in its range
--   (u32, little-endian) then, for each of the block's 8 words, the bit
--   (0..63) the key sets in it (12 bytes a key); [1 + 2m + j] shard j's table
--   length in bytes (without its counter); [2 + 3m] the handle's filter id, or
--   '' when the hash lives in another slot.
-- Returns: one byte per key, in plan order: '1' when the key set at least one
--   new bit (it was not reported present before), else '0'.
-- Atomic: a script runs alone. Keys are added one after another in plan
--   order (by block, ties in batch order), so a key repeated in the batch is
--   new only where it first appears, and a key sees the bits of every earlier
--   key in its block: the answers are those of adding the batch in order. A
--   shard's counter grows by the keys new in it, as the local filter's item
--   count does, and a shard the call changed counts one more write, in the
--   shard and its mirror (write-counters), in the same step as its bits.
-- Refuses, before writing anything: a hash that is gone or names another
--   filter (identity-guard: adds into shards no new handle reads); a shard
--   missing, truncated, or older or newer than its mirror (write-counters:
--   CBW_MISSING_SHARD, CBW_STALE_SHARD).
--
-- A range is read once, and a changed block written back once (rangeAdder).
local m = tonumber(ARGV[1])
local mirror = KEYS[2 * m + 1]
local writes, legacy, refusal = checkShards(m, 1 + 2 * m, mirror)
if refusal then return redis.error_reply(refusal) end
local out, n = {}, 0
for j = 1, m do
  local shard, ranges, records, added = KEYS[j], ARGV[1 + j], ARGV[1 + m + j], 0
  local q, r, last = 1, 1, #ranges
  while q <= last do
    local startText, endText, count
    startText, endText, count, q = rangeAt(ranges, q)
    local add = rangeAdder(shard, call('GETRANGE', shard, startText, endText), startText)
    for _ = 1, count do
      local b0, b1, b2, b3, p0, p1, p2, p3, p4, p5, p6, p7 = byte(records, r, r + 11)
      r = r + 12
      n = n + 1
      if add(b0 + b1 * 256 + b2 * 65536 + b3 * 16777216, p0, p1, p2, p3, p4, p5, p6, p7) then
        added = added + 1
        out[n] = '1'
      else
        out[n] = '0'
      end
    end
  end
  if added > 0 then
    call('INCRBY', KEYS[m + j], string.format('%d', added))
    setWrites(shard, tonumber(ARGV[1 + 2 * m + j]), mirror, writes[j] + 1, legacy[j])
  end
end
return table.concat(out)
