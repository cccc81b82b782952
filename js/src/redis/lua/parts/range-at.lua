-- Part range-at: a shard's ranges, per range: its first and last byte offsets, each a
-- length byte then its decimal digits (GETRANGE's arguments as sent), then its key
-- count (u16, little-endian).
-- Uses: nothing.
-- Defines: byte, sub; rangeAt(ranges, q) -> first, last (text), count, next q.
local byte, sub = string.byte, string.sub
local function rangeAt(ranges, q)
  local a = byte(ranges, q)
  local b = byte(ranges, q + 1 + a)
  local k0, k1 = byte(ranges, q + 2 + a + b, q + 3 + a + b)
  return sub(ranges, q + 1, q + a), sub(ranges, q + 2 + a, q + 1 + a + b), k0 + k1 * 256, q + 4 + a + b
end
