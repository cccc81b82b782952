-- Part identity-guard: first in every data script, so none acts for another filter.
-- Uses: the last ARGV (the filter id; '' when the hash is in another slot: guard.lua
--   runs after instead) and then the last KEYS (the parameters hash).
-- Defines: nothing.
-- Refuses: a hash gone (CBW_NO_PARAMETERS) or naming another filter (CBW_OTHER_FILTER).
do
  local guardId = ARGV[#ARGV]
  if guardId ~= '' then
    local guardHash = KEYS[#KEYS]
    local storedId = redis.call('HGET', guardHash, 'id')
    if not storedId then return redis.error_reply('CBW_NO_PARAMETERS ' .. guardHash) end
    if storedId ~= guardId then return redis.error_reply('CBW_OTHER_FILTER ' .. storedId .. ' ' .. guardHash) end
  end
end
