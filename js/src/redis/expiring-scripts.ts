import { BLOCK_HELPERS, IDENTITY_GUARD, RANGE_AT, script, WRITE_COUNTERS } from './scripts.js';

/**
 * The Lua scripts of RedisExpiringBloomFilter (redis-expiring.ts).
 *
 * Time is Redis's own (TIME, read inside the script), so every process
 * agrees on the current generation without talking to the others, and a
 * rotation is nothing but the generation number changing: generation g spans
 * Redis times [g G, (g + 1) G) with G = window / (K - 1) ms. `has` looks in
 * generations newest - K + 1 .. newest, so a key added at time t is found
 * until at least t + window (when newest - K + 1 is still its generation),
 * and at most t + window + G. Generation g's shards expire (PEXPIREAT) when
 * it stops being looked at, (g + K) G: Redis drops them itself.
 *
 * Shard j of generation g is `<prefix>g<g>:<j>` (prefix `{tag}:<id>:`, one
 * cluster slot for all). A shard that does not exist is empty: never
 * written, or expired. To tell that apart from a shard lost (evicted,
 * deleted, a restart without persistence), each shard created is recorded in
 * the sorted set KEYS[1] (score g, member "g:j"; created with the filter,
 * with a sentinel member so that it exists while the filter does): a shard
 * recorded there for a generation still looked at, but missing, is an error,
 * as is the set itself missing.
 *
 * Each generation shard carries a write counter after its table, mirrored
 * in the hash KEYS[2] under the shard's name (WRITE_COUNTERS, scripts.ts): a
 * shard put back to an older copy is refused. The mirror's fields go with
 * the records of generations no longer looked at.
 *
 * ARGV[1]: prefix; [2]: window (ms); [3]: K; [4]: m, the shards of this call;
 * [4 + j]: shard j's index; [4 + m + j]: its ranges (scripts.ts: offsets as
 * text, key count per range); add: [4 + 2m + j] its records; then each
 * shard's table length (has: [4 + 2m + j]; add: [4 + 3m + j]); last, the
 * handle's filter id, and KEYS[3] the parameters hash when the id is not
 * empty (IDENTITY_GUARD, scripts.ts).
 */
const PRELUDE = `${IDENTITY_GUARD}${WRITE_COUNTERS}
local written, mirror, prefix = KEYS[1], KEYS[2], ARGV[1]
local window, K, m = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local byte, sub, call, format = string.byte, string.sub, redis.call, string.format${RANGE_AT}
if call('EXISTS', written) == 0 then
  return redis.error_reply('CBW_MISSING_SHARD ' .. written)
end
local time = call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local newest = math.floor(now * (K - 1) / window)
local function marker(g, j) return format('%d', g) .. ':' .. ARGV[4 + j] end
local function shardName(g, j) return prefix .. 'g' .. marker(g, j) end
-- Shard j of generation g: its name, write count and whether it has no
-- counter yet when it holds data; false when empty; nil and an error text
-- when it was lost, has the wrong length or is older than its mirror.
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
-- The ranges of shard j read from \`name\`, end to end.
local function readRanges(name, j)
  local ranges, parts, q = ARGV[4 + m + j], {}, 1
  while q <= #ranges do
    local startText, endText, _
    startText, endText, _, q = rangeAt(ranges, q)
    parts[#parts + 1] = call('GETRANGE', name, startText, endText)
  end
  return parts
end
`;

/**
 * Reply: for each generation, newest first, for each shard of the call: its
 * ranges end to end, or an empty string when the shard is empty.
 */
const EXPIRING_HAS_SOURCE = `${PRELUDE}
local out = {}
for age = 0, K - 1 do
  for j = 1, m do
    local name, problem = live(newest - age, j, 4 + 2 * m)
    if name == nil then return redis.error_reply(problem) end
    out[#out + 1] = name and table.concat(readRanges(name, j)) or ''
  end
end
return out
`;

/**
 * Adds every key to the newest generation (creating its shard, with its
 * expiry, on first use) in plan order. Reply: one byte per key, '1' when no
 * generation looked at held it before (it was not seen within the window),
 * else '0'. A key seen in an older generation is still added to the newest,
 * so it stays for a window from its latest add.
 */
const EXPIRING_ADD_SOURCE = `${PRELUDE}${BLOCK_HELPERS}
local lengthsAt = 4 + 3 * m
local out, n = {}, 0
for j = 1, m do
  local name, count, legacy = live(newest, j, lengthsAt)
  if name == nil then return redis.error_reply(count) end
  if not name then
    -- The table and its write counter (0), zeroed.
    name, count, legacy = shardName(newest, j), 0, false
    call('SETRANGE', name, format('%d', tonumber(ARGV[lengthsAt + j]) + 7), '\\0')
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
`;

export const EXPIRING_HAS_SCRIPT = script('expiring-has', EXPIRING_HAS_SOURCE);
export const EXPIRING_ADD_SCRIPT = script('expiring-add', EXPIRING_ADD_SOURCE);
