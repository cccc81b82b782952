-- destroy: removes a filter's keys of one cluster slot (identity.ts,
-- destroyFilter: first the hash's slot, then one call per other slot).
--
-- KEYS: [1] the parameters hash when ARGV[1] is not '' (then [2..] are the
--   filter's other keys in its slot); else [1..] the filter's keys of another
--   slot.
-- ARGV: [1] the handle's filter id, or '' for a call without the hash;
--   [2] the index in KEYS of an expiring filter's record of generations (a
--   sorted set) when this call holds it, else '0'; [3] the generations'
--   prefix (each recorded generation is the key ARGV[3] .. 'g' .. member).
-- Returns: 1.
-- Atomic: one slot's keys, and the generations recorded in the sorted set,
--   go in one step.
-- Refuses, removing nothing: a hash naming another filter
--   (CBW_OTHER_FILTER <stored id> <hash>): a stale handle never removes a
--   newer filter. A missing hash does not stop it: what is left of this
--   filter is still removed.
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
