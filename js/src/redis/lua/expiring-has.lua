-- expiring-has: one call's ranges in every generation looked at (hasMany).
-- Parts: identity-guard write-counters range-at expiring-generations
-- KEYS: [1] the sorted set of generations; [2] the mirror; [3] the hash if the id is sent.
-- ARGV: [1] prefix; [2] window (ms); [3] K; [4] m; [4+j] shard j's index; [4+m+j] its
--   ranges; [4+2m+j] its table bytes; last, the id.
-- Returns: per generation, newest first, per shard: its ranges read end to end, or ''
--   when it is empty.
-- Atomic: one Redis time, one state. Writes nothing.
-- Refuses: identity-guard's, expiring-generations' and write-counters' errors.
local out = {}
for age = 0, K - 1 do
  for j = 1, m do
    local name, problem = live(newest - age, j, 4 + 2 * m)
    if name == nil then return redis.error_reply(problem) end
    out[#out + 1] = name and table.concat(readRanges(name, j)) or ''
  end
end
return out
