-- has: whether each key of one call may be in the filter (hasMany).
-- Parts: identity-guard write-counters block-helpers range-at
-- KEYS: [1..m] shards; [m+1] their mirror; [m+2] the parameters hash if the id is sent.
-- ARGV: [1] m; [1+j] shard j's ranges; [1+m+j] its records; [1+2m+j] its table bytes;
--   last, the filter id ('' when the hash is in another slot).
-- Returns: a byte per key in plan order, '1' when all 8 of its bits are set.
-- Atomic: one script, so every key is answered against one state. Writes nothing.
-- Refuses, before reading a range: identity-guard's and write-counters' errors.
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
