-- Part expiring-generations: generation g spans Redis times [gG, (g+1)G), with
-- G = window / (K-1); the newest K are looked at, and g's shards expire at (g+K)G
-- (scripts.ts). Shard j of g is prefix..'g'..g..':'..j, recorded in the sorted set
-- KEYS[1] when made: recorded but missing is lost, not empty.
-- Uses: KEYS[1], KEYS[2] (the mirror); ARGV[1..4+2m] as expiring-has, and the table
--   bytes at ARGV[lengthsAt + j].
-- Defines: written, mirror, prefix, window, K, m, byte, sub, call, format, now, newest;
--   marker(g, j); shardName(g, j); live(g, j, lengthsAt) -> name, count, legacy | false
--   (empty) | nil, error; readRanges(name, j).
-- Refuses: the sorted set gone (CBW_MISSING_SHARD).
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
