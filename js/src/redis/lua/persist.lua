-- persist: after the commit, allocated keys of another slot than the hash lose their expiry.
-- KEYS: [1..] the keys, of one slot.
-- ARGV: none.
-- Returns: #KEYS.
-- Atomic: all of them or none.
-- Refuses, changing nothing: a key gone (CBW_MISSING_SHARD).
for j = 1, #KEYS do
  if redis.call('EXISTS', KEYS[j]) == 0 then return redis.error_reply('CBW_MISSING_SHARD ' .. KEYS[j]) end
end
for j = 1, #KEYS do redis.call('PERSIST', KEYS[j]) end
return #KEYS
