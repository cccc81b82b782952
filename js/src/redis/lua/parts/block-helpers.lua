-- Part block-helpers: bit tests and sets on one 64-byte block of a filter's
-- table (docs/FORMAT.md).
--
-- Word w of a block is its bytes [8w, 8w + 8) read little-endian, so bit p of
-- word w is bit p % 8 (least significant first) of block byte 8w + floor(p / 8):
-- the mask 2^(p % 8) in that byte. A key sets one bit in each of the 8 words:
-- p0..p7 below, each 0..63.
--
-- Uses: no KEYS or ARGV.
-- Defines: char, band, bor, call (string.char, bit.band, bit.bor, redis.call);
--   holds(s, o, p0..p7) -> whether all 8 bits are set in the block at offset
--     o of the string s;
--   withBits(s, o, p0..p7) -> a copy of that block with the 8 bits set;
--   rangeAdder(shard, range, startText) -> add(at, p0..p7): the add of one
--     key to a range of `shard` that was read (GETRANGE) as `range` and starts
--     at byte startText (text) of the shard: add sets the key's bits in its
--     block at offset `at` of the range unless all are set, and says whether
--     it set any. A block it changed is kept as `current` (the keys of one
--     block are adjacent in plan order, so the next key of the block sees
--     the bits set before it) and written back whole with one SETRANGE.
local char, band, bor, call = string.char, bit.band, bit.bor, redis.call
local byteOf, maskOf = {}, {}
for p = 0, 63 do
  byteOf[p] = math.floor(p / 8) + 1
  maskOf[p] = 2 ^ (p % 8)
end
local function holds(s, o, p0, p1, p2, p3, p4, p5, p6, p7)
  return band(string.byte(s, o + byteOf[p0]), maskOf[p0]) ~= 0
    and band(string.byte(s, o + 8 + byteOf[p1]), maskOf[p1]) ~= 0
    and band(string.byte(s, o + 16 + byteOf[p2]), maskOf[p2]) ~= 0
    and band(string.byte(s, o + 24 + byteOf[p3]), maskOf[p3]) ~= 0
    and band(string.byte(s, o + 32 + byteOf[p4]), maskOf[p4]) ~= 0
    and band(string.byte(s, o + 40 + byteOf[p5]), maskOf[p5]) ~= 0
    and band(string.byte(s, o + 48 + byteOf[p6]), maskOf[p6]) ~= 0
    and band(string.byte(s, o + 56 + byteOf[p7]), maskOf[p7]) ~= 0
end
local function withBits(s, o, p0, p1, p2, p3, p4, p5, p6, p7)
  local bytes = { string.byte(s, o + 1, o + 64) }
  local i0, i1, i2, i3 = byteOf[p0], 8 + byteOf[p1], 16 + byteOf[p2], 24 + byteOf[p3]
  local i4, i5, i6, i7 = 32 + byteOf[p4], 40 + byteOf[p5], 48 + byteOf[p6], 56 + byteOf[p7]
  bytes[i0] = bor(bytes[i0], maskOf[p0]); bytes[i1] = bor(bytes[i1], maskOf[p1])
  bytes[i2] = bor(bytes[i2], maskOf[p2]); bytes[i3] = bor(bytes[i3], maskOf[p3])
  bytes[i4] = bor(bytes[i4], maskOf[p4]); bytes[i5] = bor(bytes[i5], maskOf[p5])
  bytes[i6] = bor(bytes[i6], maskOf[p6]); bytes[i7] = bor(bytes[i7], maskOf[p7])
  return char(unpack(bytes))
end
local function rangeAdder(shard, range, startText)
  local rangeStart, currentAt, current = tonumber(startText), -1, nil
  return function(at, p0, p1, p2, p3, p4, p5, p6, p7)
    local block, o = range, at
    if at == currentAt then block, o = current, 0 end
    if holds(block, o, p0, p1, p2, p3, p4, p5, p6, p7) then return false end
    current, currentAt = withBits(block, o, p0, p1, p2, p3, p4, p5, p6, p7), at
    call('SETRANGE', shard, string.format('%d', rangeStart + at), current)
    return true
  end
end
