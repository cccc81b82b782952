-- Part write-counters: each shard's write counter, checked against its
-- mirror (layout.ts), so that a shard put back to an older copy is refused.
--
-- A shard string is its table (tableBytes) and then 8 bytes counting the
-- script calls that changed it (little-endian, so a zeroed new shard says 0);
-- the mirror hash holds the same count under the shard's name (no field: 0).
-- Both change in the same script, so they differ only when one was put back
-- to another copy: a shard older than its mirror (RESTORE, COPY ... REPLACE)
-- lacks adds that resolved, and is refused, as is a mirror older than its
-- shard: which one is right cannot be told from inside. A shard of exactly
-- tableBytes was written by a release before the counters: 0 writes, and its
-- first counted write appends the counter. Redis's doubles hold counts
-- exactly to 2^53.
--
-- Uses: KEYS and ARGV only as checkShards's caller says.
-- Defines:
--   counterAt(shard, tableBytes) -> the count in a shard of tableBytes + 8
--   writesOf(shard, length, tableBytes, mirror) -> count, legacy | nil, error
--   setWrites(shard, tableBytes, mirror, count, legacy): stores count in both
--   checkShards(m, lengthsAt, mirror) -> writes, legacy | nil, nil, error:
--     writesOf of each shard KEYS[j], j = 1..m, whose table length is
--     ARGV[lengthsAt + j] (writes[j], legacy[j]), or the first refusal
-- Refuses (the error texts, for the script to return): CBW_MISSING_SHARD
--   <shard> for a shard of neither length (gone, flushed, truncated: it would
--   read as zeros); CBW_STALE_SHARD <count> <mirrored> <shard> when the counts
--   differ.
--
-- The cost: one GETRANGE of 8 bytes and one HGET per shard a call touches; an
-- add that changed a shard adds a SETRANGE of 8 bytes and an HSET.
local function counterAt(shard, tableBytes)
  local c1, c2, c3, c4, c5, c6, c7, c8 =
    string.byte(redis.call('GETRANGE', shard, string.format('%d', tableBytes), string.format('%d', tableBytes + 7)), 1, 8)
  return ((((((c8 * 256 + c7) * 256 + c6) * 256 + c5) * 256 + c4) * 256 + c3) * 256 + c2) * 256 + c1
end
local function writesOf(shard, length, tableBytes, mirror)
  local count, legacy = 0, length == tableBytes
  if length == tableBytes + 8 then
    count = counterAt(shard, tableBytes)
  elseif not legacy then
    return nil, 'CBW_MISSING_SHARD ' .. shard
  end
  local mirrored = tonumber(redis.call('HGET', mirror, shard) or '0') or -1
  if count ~= mirrored then
    return nil, 'CBW_STALE_SHARD ' .. string.format('%d %d ', count, mirrored) .. shard
  end
  return count, legacy
end
local function setWrites(shard, tableBytes, mirror, count, legacy)
  local bytes, rest = {}, count
  for i = 1, 8 do
    bytes[i] = rest % 256
    rest = math.floor(rest / 256)
  end
  local at, text = string.format('%d', tableBytes), string.char(unpack(bytes))
  if legacy then
    -- Appending grows the string: a shard of 512 MiB from before the
    -- counters cannot grow (Redis's limit) and stays uncounted (0, no field).
    local grown = redis.pcall('SETRANGE', shard, at, text)
    if type(grown) == 'table' and grown.err then
      redis.call('HDEL', mirror, shard)
      return
    end
  else
    redis.call('SETRANGE', shard, at, text)
  end
  redis.call('HSET', mirror, shard, string.format('%d', count))
end
local function checkShards(m, lengthsAt, mirror)
  local writes, legacy = {}, {}
  for j = 1, m do
    local count, other = writesOf(KEYS[j], redis.call('STRLEN', KEYS[j]), tonumber(ARGV[lengthsAt + j]), mirror)
    if count == nil then return nil, nil, other end
    writes[j], legacy[j] = count, other
  end
  return writes, legacy, nil
end
