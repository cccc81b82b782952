import { createHash } from 'node:crypto';

/**
 * The Lua scripts that read and write a filter's table in Redis, and how they
 * are sent (EVALSHA, falling back to EVAL when the server's script cache was
 * flushed or restarted: NOSCRIPT).
 *
 * Record layout (written by cbw_redis_positions, bindings/redis_positions.cpp):
 * 12 bytes per key, the block's index inside its shard (u32, little-endian),
 * then for each of the block's 8 words the bit (0..63) the key sets in it.
 * Word w of a block is its bytes [8w, 8w + 8) read little-endian (docs/FORMAT.md),
 * so bit p of word w is bit p % 8 (least significant first) of block byte
 * 8w + floor(p / 8): the mask 2^(p % 8) in that byte. The scripts read the
 * key's 64-byte block with one GETRANGE and, for an add, write it back whole
 * with one SETRANGE.
 *
 * Each script checks, before reading or writing anything, that every shard it
 * touches exists with its full length: a shard that was deleted, flushed,
 * evicted or lost in a restart would otherwise read as zeros, that is, as
 * false negatives presented as certain answers. A script runs atomically, so
 * a call's keys are all answered (or added) against one state of the table.
 */

// Tables shared by both scripts: for bit p (0..63) of a word, the 1-based index
// of its byte within the word, its mask in that byte, and its Redis bit offset
// within the word's 8 bytes.
//
// Offsets cross into redis.call as strings made by string.format('%d'): Redis
// 7.0 turns a Lua number argument into text with a %.17g printf, which
// measured ~0.6 µs an argument, as much as the GETRANGE itself.
const BIT_TABLES = `
local byteOf, maskOf = {}, {}
for p = 0, 63 do
  byteOf[p] = math.floor(p / 8) + 1
  maskOf[p] = 2 ^ (p % 8)
end
local format = string.format
`;

// KEYS[1..m]: the shards of this call; ARGV[1]: m; ARGV[1 + j]: the records of
// the keys in shard j; ARGV[1 + m + j]: shard j's expected byte length.
const CHECK_SHARDS = `
local m = tonumber(ARGV[1])
for j = 1, m do
  if redis.call('STRLEN', KEYS[j]) ~= tonumber(ARGV[1 + m + j]) then
    return redis.error_reply('CBW_MISSING_SHARD ' .. KEYS[j])
  end
end
`;

/** Reply: one byte per record, shard by shard in KEYS order: '1' when all 8 bits are set. */
const HAS_SOURCE = `${BIT_TABLES}${CHECK_SHARDS}
local byte, band = string.byte, bit.band
local out, n = {}, 0
for j = 1, m do
  local shard, records = KEYS[j], ARGV[1 + j]
  for q = 1, #records, 12 do
    local b0, b1, b2, b3, p0, p1, p2, p3, p4, p5, p6, p7 = byte(records, q, q + 11)
    local start = (b0 + b1 * 256 + b2 * 65536 + b3 * 16777216) * 64
    local startText = format('%d', start)
    local block = redis.call('GETRANGE', shard, startText, format('%d', start + 63))
    n = n + 1
    if band(byte(block, byteOf[p0]), maskOf[p0]) ~= 0
      and band(byte(block, 8 + byteOf[p1]), maskOf[p1]) ~= 0
      and band(byte(block, 16 + byteOf[p2]), maskOf[p2]) ~= 0
      and band(byte(block, 24 + byteOf[p3]), maskOf[p3]) ~= 0
      and band(byte(block, 32 + byteOf[p4]), maskOf[p4]) ~= 0
      and band(byte(block, 40 + byteOf[p5]), maskOf[p5]) ~= 0
      and band(byte(block, 48 + byteOf[p6]), maskOf[p6]) ~= 0
      and band(byte(block, 56 + byteOf[p7]), maskOf[p7]) ~= 0 then
      out[n] = '1'
    else
      out[n] = '0'
    end
  end
end
return table.concat(out)
`;

/**
 * KEYS[m + j]: shard j's item counter. Reply: one byte per record, '1' when the
 * key set at least one new bit (it was not reported present before). Keys are
 * added one after another, so a key repeated in the batch is new only once.
 * The counter counts those keys, as the local filter's item count does.
 */
const ADD_SOURCE = `${BIT_TABLES}${CHECK_SHARDS}
local byte, char, band, bor = string.byte, string.char, bit.band, bit.bor
local out, n = {}, 0
for j = 1, m do
  local shard, records, added = KEYS[j], ARGV[1 + j], 0
  for q = 1, #records, 12 do
    local b0, b1, b2, b3, p0, p1, p2, p3, p4, p5, p6, p7 = byte(records, q, q + 11)
    local start = (b0 + b1 * 256 + b2 * 65536 + b3 * 16777216) * 64
    local startText = format('%d', start)
    local block = redis.call('GETRANGE', shard, startText, format('%d', start + 63))
    n = n + 1
    if band(byte(block, byteOf[p0]), maskOf[p0]) ~= 0
      and band(byte(block, 8 + byteOf[p1]), maskOf[p1]) ~= 0
      and band(byte(block, 16 + byteOf[p2]), maskOf[p2]) ~= 0
      and band(byte(block, 24 + byteOf[p3]), maskOf[p3]) ~= 0
      and band(byte(block, 32 + byteOf[p4]), maskOf[p4]) ~= 0
      and band(byte(block, 40 + byteOf[p5]), maskOf[p5]) ~= 0
      and band(byte(block, 48 + byteOf[p6]), maskOf[p6]) ~= 0
      and band(byte(block, 56 + byteOf[p7]), maskOf[p7]) ~= 0 then
      out[n] = '0'
    else
      local bytes = { byte(block, 1, 64) }
      local i0, i1, i2, i3 = byteOf[p0], 8 + byteOf[p1], 16 + byteOf[p2], 24 + byteOf[p3]
      local i4, i5, i6, i7 = 32 + byteOf[p4], 40 + byteOf[p5], 48 + byteOf[p6], 56 + byteOf[p7]
      bytes[i0] = bor(bytes[i0], maskOf[p0]); bytes[i1] = bor(bytes[i1], maskOf[p1])
      bytes[i2] = bor(bytes[i2], maskOf[p2]); bytes[i3] = bor(bytes[i3], maskOf[p3])
      bytes[i4] = bor(bytes[i4], maskOf[p4]); bytes[i5] = bor(bytes[i5], maskOf[p5])
      bytes[i6] = bor(bytes[i6], maskOf[p6]); bytes[i7] = bor(bytes[i7], maskOf[p7])
      redis.call('SETRANGE', shard, startText, char(unpack(bytes)))
      added = added + 1
      out[n] = '1'
    end
  end
  if added > 0 then redis.call('INCRBY', KEYS[m + j], format('%d', added)) end
end
return table.concat(out)
`;

/**
 * KEYS[1]: the parameters hash. ARGV: field, value, ... Creates the hash unless
 * the key exists; returns {} when it created it, else the existing fields
 * (HGETALL; a key of another type fails with WRONGTYPE). The one commit point
 * of create(): whoever writes the hash first defines the filter.
 */
const CREATE_SOURCE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('HGETALL', KEYS[1]) end
redis.call('HSET', KEYS[1], unpack(ARGV))
return {}
`;

/**
 * KEYS[1..m]: shards; KEYS[m + j]: shard j's staging key; KEYS[2m + j]: its
 * counter. ARGV[1]: m; ARGV[1 + j]: shard j's byte length; ARGV[1 + m + j]: its
 * item count. Swaps every staged shard in, in one step (load()); fails before
 * changing anything if a staged shard is incomplete.
 */
const COMMIT_LOAD_SOURCE = `
local m = tonumber(ARGV[1])
for j = 1, m do
  if redis.call('STRLEN', KEYS[m + j]) ~= tonumber(ARGV[1 + j]) then
    return redis.error_reply('CBW_INCOMPLETE_LOAD ' .. KEYS[m + j])
  end
end
for j = 1, m do
  redis.call('RENAME', KEYS[m + j], KEYS[j])
  redis.call('SET', KEYS[2 * m + j], ARGV[1 + m + j])
end
return m
`;

export interface Script {
  readonly name: string;
  readonly source: string;
  /** SHA-1 of the source, as EVALSHA names it. */
  readonly sha: string;
}

function script(name: string, source: string): Script {
  return { name, source, sha: createHash('sha1').update(source).digest('hex') };
}

export const HAS_SCRIPT = script('has', HAS_SOURCE);
export const ADD_SCRIPT = script('add', ADD_SOURCE);
export const CREATE_SCRIPT = script('create', CREATE_SOURCE);
export const COMMIT_LOAD_SCRIPT = script('commit-load', COMMIT_LOAD_SOURCE);
