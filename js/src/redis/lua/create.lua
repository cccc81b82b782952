-- create: the one commit point of create(): whoever writes the parameters
-- hash first defines the filter (identity.ts, createOrFind).
--
-- KEYS: [1] the parameters hash; [2..] the filter's other keys, made by
--   allocate, when they share the hash's cluster slot (else none: persist
--   follows for them).
-- ARGV: the hash's fields and values, alternating (HSET's arguments).
-- Returns: {} when this call created the filter; else the existing hash's
--   fields and values (HGETALL), and nothing is written: the caller compares
--   parameters and opens that filter.
-- Atomic: the hash is written, and every key of KEYS[2..] loses its expiry,
--   in the same step, so a committed filter never has keys that will expire,
--   and two creates racing on one key make one filter.
-- Refuses, writing nothing: a key of another type at KEYS[1]
--   (CBW_NOT_A_FILTER <type> <key>); a key of KEYS[2..] that is gone
--   (CBW_MISSING_SHARD <key>: its allocation expired or was removed).
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
