-- Part expiring-generations: the generations of a RedisExpiringBloomFilter
-- (redis-expiring.ts), shared by expiring-has and expiring-add.
--
-- Time is Redis's own (TIME, read inside the script), so every process
-- agrees on the current generation without talking to the others, and a
-- rotation is nothing but the generation number changing: generation g spans
-- Redis times [g G, (g + 1) G) with G = window / (K - 1) ms. `has` looks in
-- generations newest - K + 1 .. newest, so a key added at time t is found
-- until at least t + window (when newest - K + 1 is still its generation),
-- and at most t + window + G. Generation g's shards expire (PEXPIREAT) when
-- it stops being looked at, (g + K) G: Redis drops them itself.
--
-- Shard j of generation g is `<prefix>g<g>:<j>` (prefix `{tag}:<id>:`, one
-- cluster slot for all). A shard that does not exist is empty: never written,
-- or expired. To tell that apart from a shard lost (evicted, deleted, a
-- restart without persistence), each shard created is recorded in the sorted
-- set KEYS[1] (score g, member "g:j"; created with the filter, with a
-- sentinel member so that it exists while the filter does): a shard recorded
-- there for a generation still looked at, but missing, is an error, as is the
-- set itself missing.
--
-- Each generation shard carries a write counter after its table, mirrored in
-- the hash KEYS[2] under the shard's name (write-counters): a shard put back
-- to an older copy is refused. The mirror's fields go with the records of
-- generations no longer looked at.
--
-- Uses: KEYS[1] the record of generations, KEYS[2] the mirror; ARGV[1]
--   prefix, [2] window (ms), [3] K, [4] m, [4 + j] shard j's index, [4 + m + j]
--   its ranges (range-at); a shard's table length at ARGV[lengthsAt + j].
-- Defines: written, mirror, prefix, window, K, m; byte, sub, call, format
--   (string.byte, string.sub, redis.call, string.format); now and newest
--   (Redis's time in ms, and its generation);
--   marker(g, j) -> "g:j", shardName(g, j) -> the shard's key;
--   live(g, j, lengthsAt) -> name, count, legacy when shard j of generation
--     g holds data (its write count, and whether it has no counter yet);
--     false when it is empty; nil and an error text when it was lost, has
--     the wrong length or is older or newer than its mirror;
--   readRanges(name, j) -> shard j's ranges read from `name`, in order.
-- Refuses, before reading a shard: a record of generations that is gone
--   (CBW_MISSING_SHARD <KEYS[1]>).
local written, mirror, prefix = KEYS[1], KEYS[2], ARGV[1]
local window, K, m = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local byte, sub, call, format = string.byte, string.sub, redis.call, string.format
if call('EXISTS', written) == 0 then
  return redis.error_reply('CBW_MISSING_SHARD ' .. written)
end
local time = call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local newest = math.floor(now * (K - 1) / window)
local function marker(g, j) return format('%d', g) .. ':' .. ARGV[4 + j] end
local function shardName(g, j) return prefix .. 'g' .. marker(g, j) end
local function live(g, j, lengthsAt)
  local name = shardName(g, j)
  local length = call('STRLEN', name)
  if length == 0 then
    if call('ZSCORE', written, marker(g, j)) then return nil, 'CBW_MISSING_SHARD ' .. name end
    return false
  end
  local count, other = writesOf(name, length, tonumber(ARGV[lengthsAt + j]), mirror)
  if count == nil then return nil, other end
  return name, count, other
end
local function readRanges(name, j)
  local ranges, parts, q = ARGV[4 + m + j], {}, 1
  while q <= #ranges do
    local startText, endText, _
    startText, endText, _, q = rangeAt(ranges, q)
    parts[#parts + 1] = call('GETRANGE', name, startText, endText)
  end
  return parts
end
