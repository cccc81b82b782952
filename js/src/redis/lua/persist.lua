-- persist: after create's commit, the keys of a new filter in other cluster
-- slots than its parameters hash lose their expiry (identity.ts,
-- createOrFind; one call per slot).
--
-- KEYS: [1..] keys made by allocate, all in one slot.
-- ARGV: none.
-- Returns: the number of keys (#KEYS).
-- Atomic: all of one slot's keys become permanent in one step, or none.
-- Refuses, changing nothing: a key that is gone (CBW_MISSING_SHARD <key>: its
--   allocation expired before the commit reached it).
for j = 1, #KEYS do
  if redis.call('EXISTS', KEYS[j]) == 0 then return redis.error_reply('CBW_MISSING_SHARD ' .. KEYS[j]) end
end
for j = 1, #KEYS do redis.call('PERSIST', KEYS[j]) end
return #KEYS
