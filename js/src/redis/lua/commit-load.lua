-- commit-load: swaps staged shards in, the last step of load()
-- (RedisBloomFilter load; one call per cluster slot of the shards).
--
-- Parts: identity-guard write-counters
-- KEYS: [1..m] the shards; [m + j] shard j's staging key (holding the
--   snapshot's part of the table); [2m + j] shard j's item counter;
--   [3m + 1] the shards' write counters' mirror; [3m + 2] the parameters hash,
--   only when the filter id (last ARGV) is not empty (identity-guard).
-- ARGV: [1] m; [1 + j] shard j's table length in bytes; [1 + m + j] its item
--   count; [2 + 2m] the handle's filter id, or '' when the hash lives in
--   another slot.
-- Returns: m.
-- Atomic: every staged shard of the call is renamed over its shard in one
--   step, so readers see the old table or the new one. Each shard loaded
--   counts one write more than both its old copy and its mirror said
--   (write-counters), so no copy taken before the load passes for the loaded
--   table.
-- Refuses, before changing anything: a staged shard of another length than
--   its table (CBW_INCOMPLETE_LOAD <staging key>); a hash that is gone or
--   names another filter (identity-guard).
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
