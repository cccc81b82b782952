-- expiring-add: adds each key of one call to the newest generation (addMany).
-- Parts: identity-guard write-counters range-at expiring-generations block-helpers
-- KEYS: as expiring-has.
-- ARGV: as expiring-has, with [4+2m+j] shard j's records and [4+3m+j] its table bytes.
-- Returns: a byte per key in plan order, '1' when no generation looked at held it.
-- Atomic: one Redis time; the newest shard is made (expiry, record) with its first bits;
--   keys go in plan order; a changed shard counts one write more. Records of
--   generations no longer looked at are dropped.
-- Refuses: identity-guard's and expiring-generations' errors before writing; a lost
--   or stale shard (write-counters' errors) before setting bits in it: earlier shards
--   of the call stay added.
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
