import { createHash } from 'node:crypto';

/**
 * The Lua scripts that read and write a filter's table in Redis, and how they
 * are sent (EVALSHA, falling back to EVAL when the server's script cache was
 * flushed or restarted: NOSCRIPT).
 *
 * A call's keys come planned by cbw_redis_plan (bindings/redis_positions.cpp):
 * sorted by block, grouped by shard, and each shard's blocks merged into
 * ranges of bytes to read, blocks at most a few apart sharing one range.
 * Per shard the scripts get:
 *   ranges   per range: the decimal offsets of its first and last byte in the
 *            shard, each as one length byte then its digits (GETRANGE's
 *            arguments as they are, so Lua formats no number), then the
 *            number of keys in it (u16, little-endian)
 *   records  (add only) per key, in range order: its block's byte offset in
 *            its range (u32, little-endian), then for each of the block's 8
 *            words the bit (0..63) the key sets in it
 * Word w of a block is its bytes [8w, 8w + 8) read little-endian
 * (docs/FORMAT.md), so bit p of word w is bit p % 8 (least significant
 * first) of block byte 8w + floor(p / 8): the mask 2^(p % 8) in that byte.
 *
 * Measured on Redis 7.0, a script spends ~1-2 µs on one redis.call, ~2 ns
 * a byte on what GETRANGE returns, and ~0.25 µs on each string.format:
 * hence one GETRANGE per range, offsets sent as text, and replies of one
 * byte per key (returning the blocks instead cost more in Redis than the
 * bit tests it saves).
 *
 * Each script checks, before reading or writing anything, that the filter's
 * parameters hash still names this handle's filter (IDENTITY_GUARD) and that
 * every shard it touches exists with its full length and as many writes as
 * its mirror says (WRITE_COUNTERS): a shard that was deleted, flushed,
 * evicted or lost in a restart would otherwise read as zeros, one put back
 * to an older copy would lack every add since, and adds into shards whose
 * parameters are gone would go where no new handle reads; all are false
 * negatives presented as certain answers.
 * A script runs atomically, so a call's keys are all answered (or added)
 * against one state of the table.
 */

/**
 * Lua, run first by every data script: when the last ARGV (the handle's
 * filter id) is not empty, the last KEYS entry is the filter's parameters
 * hash, and its 'id' field must equal that id. Otherwise the script answers
 * nothing: CBW_NO_PARAMETERS (the hash is gone: deleted, evicted, flushed)
 * or CBW_OTHER_FILTER (the key was destroyed and a new filter created; the
 * stored id follows). A hash of another type fails with WRONGTYPE.
 *
 * The id is empty when the hash lives in another cluster slot than the
 * script's shards ('spread' slots, or a key holding braces): a script may
 * not touch both, so the handle sends GUARD_SCRIPT after the data script
 * instead (identity.ts says why "after" is enough).
 */
export const IDENTITY_GUARD = `
do
  local guardId = ARGV[#ARGV]
  if guardId ~= '' then
    local guardHash = KEYS[#KEYS]
    local storedId = redis.call('HGET', guardHash, 'id')
    if not storedId then return redis.error_reply('CBW_NO_PARAMETERS ' .. guardHash) end
    if storedId ~= guardId then return redis.error_reply('CBW_OTHER_FILTER ' .. storedId .. ' ' .. guardHash) end
  end
end
`;

/**
 * Lua helpers on one 64-byte block inside a string `s` at offset `o`, for a key
 * whose 8 bits are p0..p7 (the bit it sets in each word): whether all are set,
 * and a copy of the block with them set. Then rangeAdder, the add of one key
 * to a range of `shard` read (GETRANGE) as `range`: it sets the key's bits in
 * its block at offset `at` of the range unless all are set, and says whether
 * it set any. A block it changed is kept as `current` (the keys of one block
 * are adjacent in plan order) and written back whole with one SETRANGE. It
 * uses the script's local `call`.
 */
export const BLOCK_HELPERS = `
local char, band, bor = string.char, bit.band, bit.bor
local byteOf, maskOf = {}, {}
for p = 0, 63 do
  byteOf[p] = math.floor(p / 8) + 1
  maskOf[p] = 2 ^ (p % 8)
end
local function holds(s, o, p0, p1, p2, p3, p4, p5, p6, p7)
  return band(string.byte(s, o + byteOf[p0]), maskOf[p0]) ~= 0
    and band(string.byte(s, o + 8 + byteOf[p1]), maskOf[p1]) ~= 0
    and band(string.byte(s, o + 16 + byteOf[p2]), maskOf[p2]) ~= 0
    and band(string.byte(s, o + 24 + byteOf[p3]), maskOf[p3]) ~= 0
    and band(string.byte(s, o + 32 + byteOf[p4]), maskOf[p4]) ~= 0
    and band(string.byte(s, o + 40 + byteOf[p5]), maskOf[p5]) ~= 0
    and band(string.byte(s, o + 48 + byteOf[p6]), maskOf[p6]) ~= 0
    and band(string.byte(s, o + 56 + byteOf[p7]), maskOf[p7]) ~= 0
end
local function withBits(s, o, p0, p1, p2, p3, p4, p5, p6, p7)
  local bytes = { string.byte(s, o + 1, o + 64) }
  local i0, i1, i2, i3 = byteOf[p0], 8 + byteOf[p1], 16 + byteOf[p2], 24 + byteOf[p3]
  local i4, i5, i6, i7 = 32 + byteOf[p4], 40 + byteOf[p5], 48 + byteOf[p6], 56 + byteOf[p7]
  bytes[i0] = bor(bytes[i0], maskOf[p0]); bytes[i1] = bor(bytes[i1], maskOf[p1])
  bytes[i2] = bor(bytes[i2], maskOf[p2]); bytes[i3] = bor(bytes[i3], maskOf[p3])
  bytes[i4] = bor(bytes[i4], maskOf[p4]); bytes[i5] = bor(bytes[i5], maskOf[p5])
  bytes[i6] = bor(bytes[i6], maskOf[p6]); bytes[i7] = bor(bytes[i7], maskOf[p7])
  return char(unpack(bytes))
end
local function rangeAdder(shard, range, startText)
  local rangeStart, currentAt, current = tonumber(startText), -1, nil
  return function(at, p0, p1, p2, p3, p4, p5, p6, p7)
    local block, o = range, at
    if at == currentAt then block, o = current, 0 end
    if holds(block, o, p0, p1, p2, p3, p4, p5, p6, p7) then return false end
    current, currentAt = withBits(block, o, p0, p1, p2, p3, p4, p5, p6, p7), at
    call('SETRANGE', shard, string.format('%d', rangeStart + at), current)
    return true
  end
end
`;

/**
 * Lua: rangeAt(ranges, q), the range that starts at byte q of a shard's
 * ranges (see above): the offsets of its first and last byte as text (as
 * GETRANGE takes them), its key count, and where the next range starts. It
 * uses the script's locals `byte` and `sub`.
 */
export const RANGE_AT = `
local function rangeAt(ranges, q)
  local a = byte(ranges, q)
  local b = byte(ranges, q + 1 + a)
  local k0, k1 = byte(ranges, q + 2 + a + b, q + 3 + a + b)
  return sub(ranges, q + 1, q + a), sub(ranges, q + 2 + a, q + 1 + a + b), k0 + k1 * 256, q + 4 + a + b
end
`;

/**
 * Lua: each shard's write counter, checked against its mirror (layout.ts).
 * A shard string is its table (tableBytes) and then 8 bytes counting the
 * script calls that changed it (little-endian, so a zeroed new shard says
 * 0); the mirror hash holds the same count under the shard's name (no field:
 * 0). Both change in the same script, so they differ only when one was put
 * back to another copy: a shard older than its mirror (RESTORE, COPY …
 * REPLACE) lacks adds that resolved, and is refused (CBW_STALE_SHARD: its
 * count, the mirror's, the shard), as is a mirror older than its shard: which
 * one is right cannot be told from inside. A shard of exactly tableBytes was
 * written by a release before the counters: 0 writes, and its first counted
 * write appends the counter. Redis's doubles hold counts exactly to 2^53.
 *
 *   counterAt(shard, tableBytes) → the count in a shard of tableBytes + 8
 *   writesOf(shard, length, tableBytes, mirror) → count, legacy | nil, error
 *   setWrites(shard, tableBytes, mirror, count, legacy): stores count in both
 *
 * The cost: one GETRANGE of 8 bytes and one HGET per shard a call touches;
 * an add that changed a shard adds a SETRANGE of 8 bytes and an HSET.
 */
export const WRITE_COUNTERS = `
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
`;

// KEYS[1..m]: the shards of this call, KEYS[mirrorAt]: their counters'
// mirror; ARGV[1]: m; ARGV[2..m+1]: their ranges; shard j's table length at
// ARGV[lengthsAt + j]. Leaves writes[j] and legacy[j] for shard j.
const checkShards = (lengthsAt: string, mirrorAt: string) => `${WRITE_COUNTERS}
local m = tonumber(ARGV[1])
local mirror = KEYS[${mirrorAt}]
local writes, legacy = {}, {}
for j = 1, m do
  local count, other = writesOf(KEYS[j], redis.call('STRLEN', KEYS[j]), tonumber(ARGV[${lengthsAt} + j]), mirror)
  if count == nil then return redis.error_reply(other) end
  writes[j], legacy[j] = count, other
end
local byte, sub, call = string.byte, string.sub, redis.call
`;

/**
 * KEYS[m + 1]: the write counters' mirror; ARGV[1 + m + j]: shard j's
 * records; ARGV[1 + 2m + j]: its length. Reply: one byte per key, in plan
 * order, '1' when all 8 of its bits are set.
 */
const HAS_SOURCE = `${IDENTITY_GUARD}${checkShards('1 + 2 * m', 'm + 1')}${BLOCK_HELPERS}${RANGE_AT}
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
`;

/**
 * KEYS[m + j]: shard j's item counter; KEYS[2m + 1]: the write counters'
 * mirror; ARGV[1 + m + j]: shard j's records; ARGV[1 + 2m + j]: its length.
 * Reply: one byte per key, in plan order, '1'
 * when the key set at least one new bit (it was not reported present
 * before). Keys are added one after another in plan order (by block, ties in
 * batch order), so a key repeated in the batch is new only where it first
 * appears, and a key sees the bits of every earlier key in its block: the
 * answers are those of adding the batch in order. The counter counts the
 * new keys, as the local filter's item count does. A shard the call changed
 * counts one more write (WRITE_COUNTERS).
 *
 * A range is read once, and a changed block written back once (rangeAdder).
 */
const ADD_SOURCE = `${IDENTITY_GUARD}${checkShards('1 + 2 * m', '2 * m + 1')}${BLOCK_HELPERS}${RANGE_AT}
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
`;

/**
 * create(), before its commit: makes KEYS[1] as ARGV[2] says ('z': the record
 * set of an expiring filter's generations, with its sentinel member; else a
 * byte length: a zeroed string of that length) with an expiry of ARGV[1] ms,
 * so that a create that dies before its commit leaves nothing for long (the
 * orphan search, identity.ts, passes over such pending keys). One key a call:
 * allocating a 64 MiB string takes Redis ~50-70 ms, during which it serves no
 * one else. Fails when the key exists (a filter id drawn twice).
 */
const ALLOCATE_SOURCE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('CBW_KEY_EXISTS ' .. KEYS[1]) end
if ARGV[2] == 'z' then
  redis.call('ZADD', KEYS[1], '-1', 'created')
else
  redis.call('SETRANGE', KEYS[1], string.format('%d', tonumber(ARGV[2]) - 1), '\\0')
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`;

/**
 * The one commit point of create(): whoever writes the parameters hash first
 * defines the filter. KEYS[1]: the hash; KEYS[2..]: the filter's other keys,
 * made by ALLOCATE, when they share the hash's cluster slot: each must still
 * exist, and loses its expiry in the same step as the hash is written (so a
 * committed filter never has keys that will expire). Reply: {} when it
 * created the filter, else the existing hash's fields; a key of another type
 * is CBW_NOT_A_FILTER <type> <key>, a vanished key CBW_MISSING_SHARD; either
 * way nothing is written. ARGV: the hash's fields and values.
 */
const CREATE_SOURCE = `
local hash = KEYS[1]
local kind = redis.call('TYPE', hash)['ok']
if kind == 'hash' then return redis.call('HGETALL', hash) end
if kind ~= 'none' then return redis.error_reply('CBW_NOT_A_FILTER ' .. kind .. ' ' .. hash) end
for j = 2, #KEYS do
  if redis.call('EXISTS', KEYS[j]) == 0 then return redis.error_reply('CBW_MISSING_SHARD ' .. KEYS[j]) end
end
for j = 2, #KEYS do redis.call('PERSIST', KEYS[j]) end
redis.call('HSET', hash, unpack(ARGV))
return {}
`;

/** After the commit, for keys in other slots than the hash's: KEYS, made by ALLOCATE, lose their expiry; any that is gone is CBW_MISSING_SHARD. */
const PERSIST_SOURCE = `
for j = 1, #KEYS do
  if redis.call('EXISTS', KEYS[j]) == 0 then return redis.error_reply('CBW_MISSING_SHARD ' .. KEYS[j]) end
end
for j = 1, #KEYS do redis.call('PERSIST', KEYS[j]) end
return #KEYS
`;

/** KEYS[1]: the parameters hash; ARGV[1]: the handle's id. IDENTITY_GUARD alone, for layouts whose scripts cannot touch the hash. */
const GUARD_SOURCE = `${IDENTITY_GUARD}
return 1
`;

/**
 * destroy(). ARGV[1]: the handle's filter id, or '' when KEYS[1] is not the
 * parameters hash (the call for another slot). With an id, a hash naming
 * another filter stops everything (CBW_OTHER_FILTER: a stale handle never
 * removes a newer filter); a missing one does not (what is left of this
 * filter is still removed). Then every key of KEYS is removed and, when
 * ARGV[2] is not '0', so is every generation recorded in the sorted set
 * KEYS[ARGV[2]] (named ARGV[3] .. 'g' .. member). Atomic: one slot, one step.
 */
const DESTROY_SOURCE = `
local id, first = ARGV[1], 1
if id ~= '' then
  first = 2
  local stored = redis.call('HGET', KEYS[1], 'id')
  if stored and stored ~= id then return redis.error_reply('CBW_OTHER_FILTER ' .. stored .. ' ' .. KEYS[1]) end
  if stored then redis.call('UNLINK', KEYS[1]) end
end
local written = tonumber(ARGV[2])
if written > 0 then
  for _, member in ipairs(redis.call('ZRANGE', KEYS[written], 0, -1)) do
    if member ~= 'created' then redis.call('UNLINK', ARGV[3] .. 'g' .. member) end
  end
end
for j = first, #KEYS do redis.call('UNLINK', KEYS[j]) end
return 1
`;

/**
 * KEYS[1..m]: shards; KEYS[m + j]: shard j's staging key; KEYS[2m + j]: its
 * counter; KEYS[3m + 1]: the write counters' mirror. ARGV[1]: m; ARGV[1 + j]:
 * shard j's byte length; ARGV[1 + m + j]: its item count. Swaps every staged
 * shard in, in one step (load()); fails before changing anything if a staged
 * shard is incomplete or the filter is not this handle's (IDENTITY_GUARD:
 * the hash and id follow). Each shard loaded counts one write more than both
 * its old copy and its mirror said, so no copy taken before the load passes
 * for the loaded table.
 */
const COMMIT_LOAD_SOURCE = `${IDENTITY_GUARD}${WRITE_COUNTERS}
local m = tonumber(ARGV[1])
local mirror = KEYS[3 * m + 1]
for j = 1, m do
  if redis.call('STRLEN', KEYS[m + j]) ~= tonumber(ARGV[1 + j]) then
    return redis.error_reply('CBW_INCOMPLETE_LOAD ' .. KEYS[m + j])
  end
end
for j = 1, m do
  local tableBytes = tonumber(ARGV[1 + j])
  local old = 0
  if redis.call('STRLEN', KEYS[j]) == tableBytes + 8 then old = counterAt(KEYS[j], tableBytes) end
  local mirrored = tonumber(redis.call('HGET', mirror, KEYS[j]) or '0') or 0
  local count = math.max(old, mirrored) + 1
  redis.call('RENAME', KEYS[m + j], KEYS[j])
  setWrites(KEYS[j], tableBytes, mirror, count, true) -- the staged table has no counter yet
  redis.call('SET', KEYS[2 * m + j], ARGV[1 + m + j])
end
return m
`;

/**
 * After snapshot() read the shards: KEYS[1..m], the shards; KEYS[m + 1], the
 * write counters' mirror; ARGV[1]: m; ARGV[1 + j]: shard j's table length.
 * Fails as the data scripts do (IDENTITY_GUARD, WRITE_COUNTERS) unless every
 * shard is whole and as new as its mirror. After the reads, not before: a
 * shard put back to an older copy stays refused (nothing writes to it), so a
 * copy read at any moment before this check is caught by it.
 */
const VERIFY_SOURCE = `${IDENTITY_GUARD}${checkShards('1', 'm + 1')}
return m
`;

export interface Script {
  readonly name: string;
  readonly source: string;
  /** SHA-1 of the source, as EVALSHA names it. */
  readonly sha: string;
}

export function script(name: string, source: string): Script {
  return { name, source, sha: createHash('sha1').update(source).digest('hex') };
}

export const HAS_SCRIPT = script('has', HAS_SOURCE);
export const ADD_SCRIPT = script('add', ADD_SOURCE);
export const CREATE_SCRIPT = script('create', CREATE_SOURCE);
export const ALLOCATE_SCRIPT = script('allocate', ALLOCATE_SOURCE);
export const PERSIST_SCRIPT = script('persist', PERSIST_SOURCE);
export const GUARD_SCRIPT = script('guard', GUARD_SOURCE);
export const DESTROY_SCRIPT = script('destroy', DESTROY_SOURCE);
export const COMMIT_LOAD_SCRIPT = script('commit-load', COMMIT_LOAD_SOURCE);
export const VERIFY_SCRIPT = script('verify', VERIFY_SOURCE);
