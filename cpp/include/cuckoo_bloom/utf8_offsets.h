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
#include <cstring>

namespace cuckoo_bloom {

inline uint64_t popcount64(uint64_t value) { return static_cast<uint64_t>(__builtin_popcountll(value)); }

// Rewrites offsets[0..count] (UTF-16 unit offsets of `count` keys, with
// offsets[0] == 0) in place as byte offsets into `utf8` (`byteLength` bytes
// of their concatenation, as TextEncoder wrote it). Returns false, with the
// offsets partly rewritten, when a key boundary falls inside a character or
// the bytes end early.
inline bool utf16OffsetsToUtf8(const uint8_t* utf8, size_t byteLength, uint32_t* offsets, size_t count) {
  if (offsets[0] != 0) return false;
  constexpr uint64_t kHighBits = 0x8080808080808080ull;
  size_t position = 0;  // bytes
  uint64_t units = 0;   // UTF-16 units of the characters whose lead byte is before `position`
  for (size_t i = 1; i <= count; ++i) {
    const uint64_t target = offsets[i];
    // Eight bytes at a time while the key's end is past them. A lead byte
    // (anything but a 10xxxxxx continuation) starts one unit, a 4-byte lead
    // (11110xxx) one more; counting leads is the same wherever a chunk cuts
    // a character, so the chunk may end mid-character.
    while (position + 8 <= byteLength) {
      uint64_t word;
      std::memcpy(&word, utf8 + position, 8);
      const uint64_t continuations = word & ~(word << 1) & kHighBits;
      const uint64_t fourByteLeads = word & (word << 1) & (word << 2) & (word << 3) & kHighBits;
      const uint64_t chunkUnits = 8 - popcount64(continuations) + popcount64(fourByteLeads);
      if (units + chunkUnits >= target) break;
      units += chunkUnits;
      position += 8;
    }
    // Then character by character; continuation bytes here finish a
    // character the chunks above already counted.
    while (units < target) {
      if (position >= byteLength) return false;
      const uint8_t lead = utf8[position];
      if (lead < 0x80) {
        position += 1, units += 1;
      } else if (lead < 0xC0) {
        position += 1;  // a continuation byte: counted with its lead
      } else if (lead < 0xE0) {
        position += 2, units += 1;
      } else if (lead < 0xF0) {
        position += 3, units += 1;
      } else {
        position += 4, units += 2;
      }
    }
    if (units != target || position > byteLength) return false;
    // The key ends here only at a character boundary.
    if (position < byteLength && (utf8[position] & 0xC0) == 0x80) return false;
    offsets[i] = static_cast<uint32_t>(position);
  }
  return true;
}

}  // namespace cuckoo_bloom
