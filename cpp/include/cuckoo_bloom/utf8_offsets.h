// Key offsets of a batch of JavaScript strings, from UTF-16 units to UTF-8 bytes.
//
// JavaScript encodes a whole batch of strings with one TextEncoder call on
// their concatenation and knows each key's end only in UTF-16 code units.
// Walking the UTF-8 once turns those unit offsets into byte offsets: a lead
// byte below 0xF0 encodes one unit (ASCII, 2- and 3-byte sequences, and the
// 3-byte U+FFFD that replaces a lone surrogate), a 4-byte sequence encodes a
// surrogate pair, two units. That is cheaper than encoding every key twice.
//
// One case cannot be mapped: a key ending in a high surrogate followed by a
// key starting with a low surrogate. Joined, the two form one 4-byte
// character; apart, each is a U+FFFD. The walk then lands inside a sequence
// and reports failure, and the caller encodes that batch key by key.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuckoo_bloom {

// Rewrites offsets[0..count] (UTF-16 unit offsets of `count` keys, with
// offsets[0] == 0) in place as byte offsets into `utf8` (`byteLength` bytes
// of their concatenation, as TextEncoder wrote it). Returns false, with the
// offsets partly rewritten, when a key boundary falls inside a character or
// the bytes end early.
inline bool utf16OffsetsToUtf8(const uint8_t* utf8, size_t byteLength, uint32_t* offsets, size_t count) {
  if (offsets[0] != 0) return false;
  size_t position = 0;  // bytes
  uint64_t units = 0;   // UTF-16 units before `position`
  for (size_t i = 1; i <= count; ++i) {
    const uint64_t target = offsets[i];
    while (units < target) {
      if (position >= byteLength) return false;
      const uint8_t lead = utf8[position];
      if (lead < 0x80) {
        position += 1, units += 1;
      } else if (lead < 0xE0) {
        position += 2, units += 1;
      } else if (lead < 0xF0) {
        position += 3, units += 1;
      } else {
        position += 4, units += 2;
      }
    }
    if (units != target || position > byteLength) return false;
    offsets[i] = static_cast<uint32_t>(position);
  }
  return true;
}

}  // namespace cuckoo_bloom
