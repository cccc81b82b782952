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
//
// The other route (utf16KeysToUtf8): JavaScript copies the strings' UTF-16
// code units into wasm memory and the encoding happens here. Node's
// TextEncoder is slow on strings that are not all ASCII (about 2.5 ns per
// UTF-8 byte, against 0.1 ns to copy the units with Buffer#write), so in Node
// such strings take this route, in batches and alone (js/src/keys/keys.ts).
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

// Four ASCII UTF-16 units (little-endian, high bytes zero) as four bytes.
inline uint32_t asciiBytes(uint64_t fourUnits) {
  fourUnits = (fourUnits | (fourUnits >> 8)) & 0x0000FFFF0000FFFFull;
  return static_cast<uint32_t>(fourUnits | (fourUnits >> 16));
}

// The UTF-8 of every UTF-16 unit: its 1-3 bytes in the low three bytes of an
// entry and their count in the top byte; 0 for a surrogate, which needs its
// neighbour. A lookup is one load, where computing the bytes without a branch
// took ~45 instructions a unit (and with a branch on the width, about one
// misprediction a character of mixed text): 3x the time in wasm. 256 KiB of
// static storage (zeroed memory, not bytes in the binary), filled on first use.
struct Utf8OfUnit {
  uint32_t entries[0x10000];
  Utf8OfUnit() {
    for (uint32_t code = 0; code < 0x10000; ++code) {
      if (code < 0x80) {
        entries[code] = (1u << 24) | code;
      } else if (code < 0x800) {
        entries[code] = (2u << 24) | (0xC0 | (code >> 6)) | ((0x80 | (code & 0x3F)) << 8);
      } else if (code >= 0xD800 && code <= 0xDFFF) {
        entries[code] = 0;
      } else {
        entries[code] = (3u << 24) | (0xE0 | (code >> 12)) | ((0x80 | ((code >> 6) & 0x3F)) << 8) |
                        ((0x80 | (code & 0x3F)) << 16);
      }
    }
  }
};
inline const uint32_t* utf8OfUnitTable() {
  static const Utf8OfUnit table;
  return table.entries;
}

// Encodes `count` keys given as UTF-16 code units (key i is units
// [offsets[i], offsets[i + 1]), offsets[0] == 0) into UTF-8 at `out`, which
// has room for 3 bytes per unit plus 4, each key exactly as TextEncoder
// encodes it alone: a surrogate pair is one 4-byte character, a lone
// surrogate (one cut off by the key's end too) is U+FFFD (EF BF BD). Rewrites
// offsets[0..count] in place as byte offsets into `out`; returns the bytes
// written, which equal the units when every key was ASCII.
inline size_t utf16KeysToUtf8(const uint8_t* units, uint32_t* offsets, size_t count, uint8_t* out) {
  // `units` is read with memcpy: JavaScript may place it at any even address.
  const auto unitAt = [units](size_t index) {
    uint16_t unit;
    std::memcpy(&unit, units + 2 * index, 2);
    return static_cast<uint32_t>(unit);
  };
  const uint32_t* const utf8Of = utf8OfUnitTable();
  size_t written = 0;
  size_t at = offsets[0];
  offsets[0] = 0;
  for (size_t i = 1; i <= count; ++i) {
    const size_t end = offsets[i];
    while (at < end) {
      // Eight units at a time: all ASCII (each unit's high nine bits zero),
      // stored as eight bytes; otherwise the eight one by one. Deciding per
      // eight units, not per unit, keeps the branch predictable in mixed
      // text, where most blocks of eight hold a wider character.
      const size_t stop = end - at >= 8 ? at + 8 : end;
      if (stop - at == 8) {
        uint64_t low, high;
        std::memcpy(&low, units + 2 * at, 8);
        std::memcpy(&high, units + 2 * at + 8, 8);
        if (((low | high) & 0xFF80FF80FF80FF80ull) == 0) {
          const uint32_t first = asciiBytes(low), second = asciiBytes(high);
          std::memcpy(out + written, &first, 4);
          std::memcpy(out + written + 4, &second, 4);
          written += 8;
          at += 8;
          continue;
        }
      }
      while (at < stop) {
        const uint32_t code = unitAt(at++);
        uint32_t entry = utf8Of[code];
        if (entry == 0) {
          // A surrogate: a high one followed by a low one in the same key is
          // a pair (which may end past `stop`); anything else is U+FFFD.
          const uint32_t next = at < end ? unitAt(at) : 0;
          if (code <= 0xDBFF && next >= 0xDC00 && next <= 0xDFFF) {
            ++at;
            const uint32_t point = 0x10000 + ((code - 0xD800) << 10) + (next - 0xDC00);
            const uint32_t four = (0xF0 | (point >> 18)) | ((0x80 | ((point >> 12) & 0x3F)) << 8) |
                                  ((0x80 | ((point >> 6) & 0x3F)) << 16) | ((0x80 | (point & 0x3F)) << 24);
            std::memcpy(out + written, &four, 4);
            written += 4;
            continue;
          }
          entry = utf8Of[0xFFFD];
        }
        // All four bytes are stored (the fourth is overwritten or past the
        // end); the entry's count moves `written`.
        std::memcpy(out + written, &entry, 4);
        written += entry >> 24;
      }
    }
    offsets[i] = static_cast<uint32_t>(written);
  }
  return written;
}

}  // namespace cuckoo_bloom
