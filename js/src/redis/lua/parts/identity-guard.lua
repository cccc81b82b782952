-- Part identity-guard: run first by every data script (its header lists it
-- under Parts), so a script reads or writes nothing for a filter that is not
-- its handle's.
--
-- Uses: the last ARGV entry, the handle's filter id; when that id is not
--   empty, the last KEYS entry is the filter's parameters hash.
-- Defines: no names (a do-block).
-- Refuses, answering nothing, when the id is not empty and the hash's 'id'
--   field is not that id: CBW_NO_PARAMETERS <hash> (the hash is gone:
--   deleted, evicted, flushed) or CBW_OTHER_FILTER <stored id> <hash> (the
--   key was destroyed and a new filter created). A hash of another type fails
--   with WRONGTYPE.
--
-- The id is empty when the hash lives in another cluster slot than the
-- script's shards ('spread' slots, or a key holding braces): a script may not
-- touch both, so the handle sends the guard script after the data script
-- instead (identity.ts says why "after" is enough).
do
  local guardId = ARGV[#ARGV]
  if guardId ~= '' then
    local guardHash = KEYS[#KEYS]
    local storedId = redis.call('HGET', guardHash, 'id')
    if not storedId then return redis.error_reply('CBW_NO_PARAMETERS ' .. guardHash) end
    if storedId ~= guardId then return redis.error_reply('CBW_OTHER_FILTER ' .. storedId .. ' ' .. guardHash) end
  end
end
