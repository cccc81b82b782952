-- create: the commit of create(): whoever writes the parameters hash first defines the filter.
-- KEYS: [1] the parameters hash; [2..] the allocated keys in its slot, if any.
-- ARGV: the hash's fields and values.
-- Returns: {} when it created the filter, else the existing hash (HGETALL).
-- Atomic: the hash is written and KEYS[2..] lose their expiry in one step.
-- Refuses, writing nothing: another type (CBW_NOT_A_FILTER), a key gone (CBW_MISSING_SHARD).
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
