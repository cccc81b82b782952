-- destroy: removes a filter's keys of one slot.
-- KEYS: the slot's keys, the parameters hash first when ARGV[1] is not ''.
-- ARGV: [1] the filter id or ''; [2] the index in KEYS of the sorted set of
--   generations, or '0'; [3] the generations' prefix.
-- Returns: 1.
-- Atomic: the slot's keys and the recorded generations go in one step.
-- Refuses, removing nothing: a hash naming another filter (CBW_OTHER_FILTER), so a
--   stale handle never removes a newer filter; a missing hash does not stop it.
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
