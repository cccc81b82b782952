-- verify: after snapshot() read the shards, that they were the current table.
-- Parts: identity-guard write-counters
-- KEYS: [1..m] shards; [m+1] the mirror; [m+2] the parameters hash if the id is sent.
-- ARGV: [1] m; [1+j] shard j's table bytes; last, the id.
-- Returns: m.
-- Atomic: one check after the reads: a shard put back to an older copy stays refused,
--   so a copy read before is caught. Writes nothing.
-- Refuses: identity-guard's and write-counters' errors.
local m = tonumber(ARGV[1])
local mirror = KEYS[m + 1]
local _, _, refusal = checkShards(m, 1, mirror)
if refusal then return redis.error_reply(refusal) end
return m
