-- allocate: makes one key of a new filter before create's commit (identity.ts).
-- KEYS: [1] the key.
-- ARGV: [1] its expiry (ms); [2] 'z': the sorted set of generations with its sentinel
--   member 'created' (score -1); else a byte length: a zeroed string of it.
-- Returns: 1.
-- Atomic: made with its expiry in one step, so a create that dies leaves nothing for
--   long. One key a call: a 64 MiB string blocks Redis ~50-70 ms.
-- Refuses: a key that exists (CBW_KEY_EXISTS), writing nothing.
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('CBW_KEY_EXISTS ' .. KEYS[1]) end
if ARGV[2] == 'z' then
  redis.call('ZADD', KEYS[1], '-1', 'created')
else
  redis.call('SETRANGE', KEYS[1], string.format('%d', tonumber(ARGV[2]) - 1), '\0')
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
