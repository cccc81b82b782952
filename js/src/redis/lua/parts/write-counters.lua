-- Part write-counters: a shard is its table then an 8-byte write count (little-endian),
-- mirrored in a hash under the shard's name; the two differ only when one was put back
-- to an older copy, which is refused (docs/REDIS.md, "Write counters"). A shard of the
-- table's length alone predates the counters: 0 writes.
-- Uses: KEYS and ARGV as checkShards's caller says.
-- Defines: counterAt(shard, tableBytes); writesOf(shard, length, tableBytes, mirror) ->
--   count, legacy | nil, error; setWrites(shard, tableBytes, mirror, count, legacy);
--   checkShards(m, lengthsAt, mirror) -> writes, legacy | nil, nil, error for KEYS[1..m].
-- Refuses: CBW_MISSING_SHARD (gone or truncated), CBW_STALE_SHARD (counts differ).
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
