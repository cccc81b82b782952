-- Part range-at: reads the ranges argument of one shard, as planned by
-- cbw_redis_plan (bindings/redis_positions.cpp; scripts.ts).
--
-- A shard's ranges are, per range: the decimal offsets of its first and last
-- byte in the shard, each as one length byte then its digits (GETRANGE's
-- arguments as they are, so Lua formats no number), then the number of keys
-- in it (u16, little-endian).
--
-- Uses: no KEYS or ARGV.
-- Defines: byte, sub (string.byte, string.sub);
--   rangeAt(ranges, q) -> first, last, count, next: the range that starts at
--   byte q of `ranges`: the offsets of its first and last byte as text (as
--   GETRANGE takes them), its key count, and where the next range starts.
local byte, sub = string.byte, string.sub
local function rangeAt(ranges, q)
  local a = byte(ranges, q)
  local b = byte(ranges, q + 1 + a)
  local k0, k1 = byte(ranges, q + 2 + a + b, q + 3 + a + b)
  return sub(ranges, q + 1, q + a), sub(ranges, q + 2 + a, q + 1 + a + b), k0 + k1 * 256, q + 4 + a + b
end
