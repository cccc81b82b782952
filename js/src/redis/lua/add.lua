-- add: adds each key of one call (addMany).
-- Parts: identity-guard write-counters block-helpers range-at
-- KEYS: [1..m] shards; [m+j] shard j's item counter; [2m+1] the mirror;
--   [2m+2] the parameters hash if the id is sent.
-- ARGV: as has: [1] m; [1+j] ranges; [1+m+j] records; [1+2m+j] table bytes; last, the id.
-- Returns: a byte per key in plan order, '1' when it set a new bit (it was new).
-- Atomic: keys are added in plan order, so a repeated key is new once and the answers
--   are those of adding the batch in order; each changed shard's item counter grows by
--   its new keys and its write count by one, with its bits.
-- Refuses, before writing anything: identity-guard's and write-counters' errors.
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
