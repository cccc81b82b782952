-- Part block-helpers: a key's 8 bits in one 64-byte block. A record is 12 bytes: the
-- block's offset in its range (u32, little-endian), then bit p (0..63) of each word w;
-- that bit is mask 2^(p % 8) of block byte 8w + floor(p / 8) (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md).
-- Uses: nothing.
-- Defines: char, band, bor, call; holds(s, o, p0..p7); withBits(s, o, p0..p7);
--   rangeAdder(shard, range, startText) -> add(at, p0..p7): sets a key's bits unless
--   all are set, says whether it set any, and writes the changed block back whole.
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
