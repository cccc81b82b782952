-- expiring-add: adds each key of one call to the newest generation
-- (RedisExpiringBloomFilter addMany).
--
-- Parts: identity-guard write-counters range-at expiring-generations block-helpers
-- KEYS: [1] the record of generations (a sorted set); [2] the write
--   counters' mirror; [3] the parameters hash, only when the filter id (last
--   ARGV) is not empty (identity-guard).
-- ARGV: [1] the generations' key prefix; [2] the window (ms); [3] K, the
--   generations looked at; [4] m, the shards of this call; [4 + j] shard j's
--   index; [4 + m + j] its ranges (range-at); [4 + 2m + j] its records: per
--   key, in range order, its block's byte offset in its range (u32,
--   little-endian) then, for each of the block's 8 words, the bit (0..63) the
--   key sets in it (12 bytes a key); [4 + 3m + j] its table length in bytes
--   (without its counter); [5 + 4m] the handle's filter id, or '' when the
--   hash lives in another slot.
-- Returns: one byte per key, in plan order: '1' when no generation looked at
--   held it before (it was not seen within the window), else '0'. A key seen
--   in an older generation is still added to the newest, so it stays for a
--   window from its latest add.
-- Atomic: a script runs alone, at one Redis time. The newest generation's
--   shard is created on first use with its expiry and its record, in the
--   same step as its first bits; keys are added in plan order, so the answers
--   are those of adding the batch in order; a shard the call changed counts
--   one more write, in the shard and its mirror (write-counters). The records
--   and mirrored counts of generations no longer looked at are dropped.
-- Refuses: a hash that is gone or names another filter (identity-guard), or
--   a record of generations that is gone (expiring-generations), before
--   writing anything; a shard of a generation looked at that is missing,
--   truncated, or older or newer than its mirror (CBW_MISSING_SHARD,
--   CBW_STALE_SHARD), before setting any bit of that shard of the call. The
--   shards are checked one after another: keys of earlier shards of the call
--   stay added (a rejected add may have added some keys; adding them again
--   changes nothing).
local lengthsAt = 4 + 3 * m
local out, n = {}, 0
for j = 1, m do
  local name, count, legacy = live(newest, j, lengthsAt)
  if name == nil then return redis.error_reply(count) end
  if not name then
    -- The table and its write counter (0), zeroed.
    name, count, legacy = shardName(newest, j), 0, false
    call('SETRANGE', name, format('%d', tonumber(ARGV[lengthsAt + j]) + 7), '\0')
    call('PEXPIREAT', name, format('%d', math.ceil((newest + K) * window / (K - 1))))
    call('ZADD', written, format('%d', newest), marker(newest, j))
    call('HDEL', mirror, name)
  end
  local changed = false
  local older = {}
  for age = 1, K - 1 do
    local other, trouble = live(newest - age, j, lengthsAt)
    if other == nil then return redis.error_reply(trouble) end
    if other then older[#older + 1] = readRanges(other, j) end
  end
  local ranges, records = ARGV[4 + m + j], ARGV[4 + 2 * m + j]
  local q, r, index = 1, 1, 0
  while q <= #ranges do
    local startText, endText, count
    startText, endText, count, q = rangeAt(ranges, q)
    index = index + 1
    local add = rangeAdder(name, call('GETRANGE', name, startText, endText), startText)
    for _ = 1, count do
      local b0, b1, b2, b3, p0, p1, p2, p3, p4, p5, p6, p7 = byte(records, r, r + 11)
      r = r + 12
      local at = b0 + b1 * 256 + b2 * 65536 + b3 * 16777216
      local seen = false
      for g = 1, #older do
        if holds(older[g][index], at, p0, p1, p2, p3, p4, p5, p6, p7) then seen = true break end
      end
      n = n + 1
      local set = add(at, p0, p1, p2, p3, p4, p5, p6, p7)
      changed = changed or set
      out[n] = set and not seen and '1' or '0'
    end
  end
  if changed then setWrites(name, tonumber(ARGV[lengthsAt + j]), mirror, count + 1, legacy) end
end
-- Forget the records (and mirrored counts) of generations no longer looked at (the sentinel's score is -1).
local gone = call('ZRANGEBYSCORE', written, '0', format('%d', newest - K))
if #gone > 0 then
  for i = 1, #gone do call('HDEL', mirror, prefix .. 'g' .. gone[i]) end
  call('ZREMRANGEBYSCORE', written, '0', format('%d', newest - K))
end
return table.concat(out)
