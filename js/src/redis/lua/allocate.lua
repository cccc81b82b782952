-- allocate: makes one key of a new filter, before create's commit
-- (identity.ts, createOrFind; one call a key).
--
-- KEYS: [1] the key to make: a shard, or an expiring filter's record of
--   generations.
-- ARGV: [1] its expiry in ms (PENDING_MS, identity.ts); [2] what to make:
--   'z', the sorted set recording an expiring filter's generations, with its
--   sentinel member 'created' (score -1); else a byte length: a zeroed string
--   of that length.
-- Returns: 1.
-- Atomic: the key is made and given its expiry in one step, so a create that
--   dies before its commit leaves nothing for long (the orphan search,
--   identity.ts, passes over such pending keys). One key a call: allocating a
--   64 MiB string takes Redis ~50-70 ms, during which it serves no one else.
-- Refuses, writing nothing: a key that exists (CBW_KEY_EXISTS <key>: a filter
--   id drawn twice).
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('CBW_KEY_EXISTS ' .. KEYS[1]) end
if ARGV[2] == 'z' then
  redis.call('ZADD', KEYS[1], '-1', 'created')
else
  redis.call('SETRANGE', KEYS[1], string.format('%d', tonumber(ARGV[2]) - 1), '\0')
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
