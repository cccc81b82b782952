-- commit-load: swaps the staged shards in (load()).
-- Parts: identity-guard write-counters
-- KEYS: [1..m] shards; [m+j] shard j's staging key; [2m+j] its item counter;
--   [3m+1] the mirror; [3m+2] the parameters hash if the id is sent.
-- ARGV: [1] m; [1+j] shard j's table bytes; [1+m+j] its item count; last, the id.
-- Returns: m.
-- Atomic: readers see the old table or the new one. Each shard counts one write more
--   than its old copy and its mirror, so no copy taken before passes for it.
-- Refuses, changing nothing: a staged shard of another length (CBW_INCOMPLETE_LOAD);
--   identity-guard's errors.
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
