#include "cuckoo_bloom/ribbon/ribbon_filter.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "cuckoo_bloom/core/word_buffer.h"

namespace cuckoo_bloom {
namespace {

// A scratch array for construction that reports allocation failure instead of
// throwing (the wasm build has no exceptions).
template <typename T>
bool allocateScratch(MallocBlock<T>& block, size_t count, bool zeroed) {
  const size_t n = count == 0 ? 1 : count;
  block.reset(static_cast<T*>(zeroed ? std::calloc(n, sizeof(T)) : std::malloc(n * sizeof(T))));
  return block != nullptr;
}

Status outOfMemory() { return Status::outOfMemory("out of memory building a ribbon filter"); }

inline uint64_t ribbonWord(uint64_t keyHashLow, uint64_t constructionSeed) {
  return mix64(keyHashLow + constructionSeed);
}
// A key's 128 coefficients: bit 0 (the start's own slot) always set.
struct Row {
  uint64_t low;
  uint64_t high;
};
inline Row rowOf(uint64_t h) {
  return {mix64(h ^ RibbonFilter::kCoefficientSalt) | 1, mix64(h ^ RibbonFilter::kHighCoefficientSalt)};
}
__extension__ typedef unsigned __int128 Wide;  // __extension__: -Wpedantic knows no 128-bit integer
inline Wide wideOf(Row row) { return (static_cast<Wide>(row.high) << 64) | row.low; }
inline uint64_t columnMask(uint32_t columns) { return columns >= 64 ? ~uint64_t{0} : (uint64_t{1} << columns) - 1; }
inline uint32_t parity(uint64_t x) { return static_cast<uint32_t>(__builtin_parityll(x)); }
inline uint32_t parity(Wide x) { return parity(static_cast<uint64_t>(x) ^ static_cast<uint64_t>(x >> 64)); }

// What a lookup and the construction both need of a geometry.
struct Layout {
  uint64_t starts;  // 64 blockCount - 127
  uint32_t upperStartBlock;
  uint32_t lowerColumns;

  explicit Layout(const RibbonFilter::Params& params)
      : starts(uint64_t{params.blockCount} * 64 - 127),
        upperStartBlock(params.upperStartBlock),
        lowerColumns(params.lowerColumns) {}
  uint32_t columnsOf(uint64_t block) const { return lowerColumns + (block >= upperStartBlock ? 1 : 0); }
  // The first word of block b: lower blocks are lowerColumns words, the rest one more.
  uint64_t firstWordOf(uint64_t block) const {
    return block < upperStartBlock ? block * lowerColumns
                                   : uint64_t{upperStartBlock} * lowerColumns + (block - upperStartBlock) * (lowerColumns + 1);
  }
};

// The banded matrix under construction: one row (coefficients from this slot
// on, and the fingerprint bits they must give) per slot; 0 coefficients: empty.
struct Band {
  MallocBlock<Wide> coefficients;
  MallocBlock<uint32_t> results;
  MallocBlock<uint64_t> words;  // the keys' mixed words, bucketed by start
  MallocBlock<uint32_t> bucketStart;
};

// Adds one key's row; false when it contradicts the rows already there. A
// row that cancels with a matching fingerprint is implied by them (a repeated
// key): nothing is stored, and `stored` is not counted.
inline bool addRow(Wide* coefficients, uint32_t* results, uint64_t slot, Wide row, uint32_t result, bool& stored) {
  for (;;) {
    const Wide existing = coefficients[slot];
    if (existing == 0) {
      coefficients[slot] = row;
      results[slot] = result;
      stored = true;
      return true;
    }
    row ^= existing;  // both have bit 0 set: the XOR starts later
    result ^= results[slot];
    if (row == 0) {
      stored = false;
      return result == 0;
    }
    const uint64_t low = static_cast<uint64_t>(row);
    const uint32_t skip = low != 0 ? static_cast<uint32_t>(__builtin_ctzll(low))
                                   : 64 + static_cast<uint32_t>(__builtin_ctzll(static_cast<uint64_t>(row >> 64)));
    row >>= skip;
    slot += skip;
  }
}

// One banding attempt with params.constructionSeed over the keys `lowAt(i)`.
// On success, `storedCount` is the number of rows stored (distinct keys).
template <typename LowAt>
bool band(LowAt lowAt, size_t keyCount, const RibbonFilter::Params& params, Band& scratch, uint32_t bucketBits,
          uint64_t& storedCount) {
  const Layout layout(params);
  const uint64_t slots = uint64_t{params.blockCount} * 64;
  std::fill(scratch.coefficients.get(), scratch.coefficients.get() + slots, Wide{0});
  // Bucket keys by the top bits of h, so by their start: adding them in that
  // order sweeps the band nearly sequentially instead of missing the cache
  // on every key (a counting sort; starts grow with h's top bits).
  const uint32_t buckets = uint32_t{1} << bucketBits;
  uint32_t* bucketStart = scratch.bucketStart.get();
  std::fill(bucketStart, bucketStart + buckets + 1, 0u);
  const auto bucketOf = [bucketBits](uint64_t h) -> uint32_t {
    return bucketBits == 0 ? 0 : static_cast<uint32_t>(h >> (64 - bucketBits));
  };
  for (size_t i = 0; i < keyCount; ++i) ++bucketStart[bucketOf(ribbonWord(lowAt(i), params.constructionSeed)) + 1];
  for (uint32_t b = 0; b < buckets; ++b) bucketStart[b + 1] += bucketStart[b];
  uint64_t* words = scratch.words.get();
  for (size_t i = 0; i < keyCount; ++i) {
    const uint64_t h = ribbonWord(lowAt(i), params.constructionSeed);
    words[bucketStart[bucketOf(h)]++] = h;
  }
  // Each bucket sorted too (a few hundred words at most, in cache): the
  // rows are then added in one order whatever the keys' order, so the same
  // key set gives the same bytes (elimination in another order could leave
  // other pivots and another solution).
  for (uint32_t b = 0, from = 0; b < buckets; from = bucketStart[b], ++b) std::sort(words + from, words + bucketStart[b]);
  Wide* coefficients = scratch.coefficients.get();
  uint32_t* results = scratch.results.get();
  // Every key carries the widest fingerprint (lowerColumns + 1 bits); a
  // block of fewer columns stores only the low ones, which the same rows give.
  const uint32_t mask = static_cast<uint32_t>(columnMask(layout.lowerColumns + 1));
  storedCount = 0;
  for (size_t i = 0; i < keyCount; ++i) {
    const uint64_t h = words[i];
    bool stored = false;
    if (!addRow(coefficients, results, reduceRange(h, layout.starts), wideOf(rowOf(h)),
                static_cast<uint32_t>(h) & mask, stored)) {
      return false;
    }
    storedCount += stored ? 1 : 0;
  }
  return true;
}

// Back-substitution into the interleaved solution. Going down from the last
// slot, column j's 128-bit window holds bit j of the solutions of slots
// i .. i + 127 (bit k: slot i + k); slot i's bit is its row's result bit XOR
// the parity of its coefficients with the slots after it. An empty slot is a
// free variable: 0. At each block's first slot the window's low 64 bits are
// that block's word.
void solve(const RibbonFilter::Params& params, const Wide* coefficients, const uint32_t* results, uint64_t* table) {
  const Layout layout(params);
  const uint32_t widest = layout.lowerColumns + 1;
  Wide window[RibbonFilter::kMaxColumns + 1] = {};
  for (uint64_t block = params.blockCount; block-- > 0;) {
    for (uint64_t slot = block * 64 + 63;; --slot) {
      const Wide row = coefficients[slot];
      const uint32_t result = results[slot];
      for (uint32_t j = 0; j < widest; ++j) {
        window[j] <<= 1;
        // A result holds 32 bits: at 32 columns the spare 33rd window is solved for 0 bits
        // (and never stored), not shifted by 32, which C++ leaves undefined.
        const uint32_t resultBit = j < 32 ? (result >> j) & 1u : 0u;
        if (row != 0) window[j] |= resultBit ^ parity(window[j] & row);
      }
      if (slot == block * 64) break;
    }
    const uint64_t first = layout.firstWordOf(block);
    const uint32_t columns = layout.columnsOf(block);
    for (uint32_t j = 0; j < columns; ++j) table[first + j] = static_cast<uint64_t>(window[j]);
  }
}

}  // namespace

SplitMix64 RibbonFilter::constructionSeeds(uint64_t seed) { return SplitMix64(mix64(seed ^ kConstructionSeedSalt)); }

double RibbonFilter::slotsPerKey(uint64_t keyCount) {
  // Measured (64-bit keys, 128-bit rows): one attempt at 1.02 slots per key
  // succeeded 70% of the time at 100k keys, at 1.04 83% at 1M, at 1.05 67%
  // at 10M: the band needs a little more room per doubling of the keys.
  const double log2Keys = std::log2(static_cast<double>(std::max<uint64_t>(keyCount, 1)));
  return std::max(kMinSlotsPerKey, 1.04 + 0.0045 * (log2Keys - 20));
}

uint32_t RibbonFilter::blocksFor(uint64_t keyCount) {
  if (keyCount == 0) return 0;
  // Slots for the keys at slotsPerKey, plus the 127 past the last start.
  const double slots = std::ceil(static_cast<double>(keyCount) * slotsPerKey(keyCount)) + 127;
  const double blocks = std::ceil(slots / 64);
  return static_cast<uint32_t>(std::min<double>(blocks, static_cast<double>(kMaxBlocks) + 1));
}

uint32_t RibbonFilter::lowerColumnsFor(double falsePositiveRate) {
  if (!(falsePositiveRate > 0.0 && falsePositiveRate < 1.0)) return 0;
  if (falsePositiveRate < std::ldexp(1.0, -static_cast<int>(kMaxColumns))) return 0;
  // floor(log2(1 / rate)) computed by halving, so a power of two is exact.
  uint32_t columns = 0;
  while (columns < kMaxColumns && std::ldexp(1.0, -static_cast<int>(columns + 1)) >= falsePositiveRate) ++columns;
  return std::max<uint32_t>(columns, 1);
}

double RibbonFilter::rateOf(const Params& params) {
  if (params.blockCount == 0) return 0.0;
  const uint64_t starts = uint64_t{params.blockCount} * 64 - 127;
  // Starts in the lower blocks (every block has 64 starts but the last two: 1 and 0).
  const uint64_t lowerStarts = std::min<uint64_t>(uint64_t{params.upperStartBlock} * 64, starts);
  const double lowerRate = std::ldexp(1.0, -static_cast<int>(params.lowerColumns));
  return (static_cast<double>(lowerStarts) * lowerRate +
          static_cast<double>(starts - lowerStarts) * lowerRate / 2) /
         static_cast<double>(starts);
}

uint32_t RibbonFilter::upperStartBlockFor(uint32_t blockCount, uint32_t lowerColumns, double falsePositiveRate) {
  Params params;
  params.blockCount = blockCount;
  params.lowerColumns = static_cast<uint8_t>(lowerColumns);
  if (lowerColumns >= kMaxColumns) return blockCount;  // the rate is exactly 2^-32
  // The rate falls as upperStartBlock falls: the largest one meeting the
  // target, by bisection (a tolerance of 1e-12 for the rounding of rateOf).
  const double target = falsePositiveRate * (1 + 1e-12);
  uint32_t low = 0, high = blockCount;  // rate(low) <= target always (all blocks wider)
  params.upperStartBlock = high;
  if (rateOf(params) <= target) return high;
  while (high - low > 1) {
    const uint32_t middle = low + (high - low) / 2;
    params.upperStartBlock = middle;
    if (rateOf(params) <= target) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return low;
}

Result<RibbonFilter> RibbonFilter::createFrom(const CoreFilterOptions&) {
  return Status::unsupported(
      "a ribbon filter is static: build it from its keys (buildFilter / RibbonFilter.from), it cannot be created "
      "empty and filled");
}

Result<RibbonFilter> RibbonFilter::buildFrom(const CoreFilterOptions& options, const KeyHash* hashes, size_t count) {
  RibbonFilterOptions ribbon;
  ribbon.falsePositiveRate = options.falsePositiveRate;
  ribbon.seed = options.seed;
  return build(ribbon, hashes, count);
}

Result<RibbonFilter> RibbonFilter::build(const RibbonFilterOptions& options, const KeyHash* hashes, size_t count) {
  const double target = options.falsePositiveRate;
  if (!(target > 0.0 && target < 1.0)) {
    return Status::invalidArgument("falsePositiveRate must be in (0, 1), got " + formatNumber(target));
  }
  const uint32_t lowerColumns = lowerColumnsFor(target);
  if (lowerColumns == 0) {
    return Status::invalidArgument("falsePositiveRate " + formatNumber(target) +
                                   " needs more than 32 bits per slot (the smallest rate is 2^-32)");
  }
  if (count > 0 && hashes == nullptr) return Status::invalidArgument("no key hashes given");
  if (uint64_t{count} > kMaxCapacity) return Status::invalidArgument("too many keys for one filter");

  RibbonFilter filter;
  filter.params_.lowerColumns = static_cast<uint8_t>(lowerColumns);
  uint32_t blockCount = blocksFor(count);
  if (blockCount > kMaxBlocks) return Status::invalidArgument("too many keys for one ribbon filter (at most about 4 billion slots)");
  uint64_t storedCount = 0;
  if (count > 0) {
    Band scratch;
    uint64_t scratchSlots = 0;
    uint32_t bucketBits = 0;
    while (bucketBits < 12 && (uint64_t{1} << bucketBits) < count / 64) ++bucketBits;
    if (!allocateScratch(scratch.words, count, false) ||
        !allocateScratch(scratch.bucketStart, (size_t{1} << bucketBits) + 1, false)) {
      return outOfMemory();
    }
    // Sized for the keys given; when repeats among them took no slot, sized
    // again for the distinct keys and the seeds started over, so the bytes are
    // those of the distinct keys alone (repeats never make banding fail, so
    // the same seeds succeed and fail as they would without them).
    uint64_t sizedFor = count;
    for (bool sized = false; !sized;) {
      SplitMix64 seeds = constructionSeeds(options.seed);
      blockCount = blocksFor(sizedFor);
      bool banded = false;
      for (uint32_t attempt = 0; !banded; ++attempt) {
        if (attempt == kMaxAttempts) {
          return Status::full("a ribbon filter of " + std::to_string(count) + " keys could not be built in " +
                              std::to_string(kMaxAttempts) + " attempts");
        }
        // Every kAttemptsPerSize failures: one more block, or 1/64 more (the
        // band's end matters most for small sets, where a block is a lot).
        if (attempt > 0 && attempt % kAttemptsPerSize == 0) blockCount += std::max<uint32_t>(1, blockCount / 64);
        if (blockCount > kMaxBlocks) return Status::full("a ribbon filter of " + std::to_string(count) + " keys could not be built");
        filter.params_.blockCount = blockCount;
        const uint64_t slots = uint64_t{blockCount} * 64;
        if (slots > scratchSlots) {
          Status valid = validateTableBytes(slots * 20, "RibbonFilter");
          if (!valid.isOk()) return valid;
          if (slots > SIZE_MAX / sizeof(uint64_t) || !allocateScratch(scratch.coefficients, static_cast<size_t>(slots), false) ||
              !allocateScratch(scratch.results, static_cast<size_t>(slots), false)) {
            return outOfMemory();
          }
          scratchSlots = slots;
        }
        filter.params_.constructionSeed = seeds.next();
        banded = band([hashes](size_t i) { return hashes[i].low; }, count, filter.params_, scratch, bucketBits,
                      storedCount);
      }
      sized = blocksFor(storedCount) == blocksFor(sizedFor) || storedCount == 0;
      sizedFor = storedCount;
    }
    filter.params_.upperStartBlock = upperStartBlockFor(blockCount, lowerColumns, target);
    const uint64_t wordCount = payloadWordsOf(filter.params_);
    Status valid = validateTableBytes(wordCount * 8, "RibbonFilter");
    if (!valid.isOk()) return valid;
    if (!filter.table_.allocate(static_cast<size_t>(wordCount + lowerColumns + 1))) return outOfMemory();
    solve(filter.params_, scratch.coefficients.get(), scratch.results.get(), filter.table_.data());
  } else if (!filter.table_.allocate(lowerColumns + 1)) {
    return outOfMemory();
  }
  filter.header_ = newHeader(kType, std::max<uint64_t>(storedCount, 1), target, options.seed);
  filter.header_.itemCount = storedCount;
  return filter;
}

uint64_t RibbonFilter::payloadWordsOf(const Params& params) {
  if (params.blockCount == 0) return 0;
  const uint64_t upperStart = std::min(params.upperStartBlock, params.blockCount);
  return upperStart * params.lowerColumns + (params.blockCount - upperStart) * (params.lowerColumns + uint64_t{1});
}

Result<RibbonFilter> RibbonFilter::fromBlob(const DecodedBlob& blob, const Params& params) {
  // Every combination accepted here is safe to query: starts stay below
  // 64 blockCount - 127, so a lookup reads its block and the next two, at
  // most one past the last (the spare words), and each block's columns exist.
  if (blob.header.formatVersion < 2) return Status::corrupt("ribbon filters exist from format version 2");
  if (params.blockCount > kMaxBlocks) return Status::corrupt("ribbon blockCount exceeds 2^26 + 1");
  if (params.upperStartBlock > params.blockCount) return Status::corrupt("ribbon upperStartBlock exceeds blockCount");
  if (params.blockCount == 1) return Status::corrupt("a ribbon filter has 0 or at least 2 blocks");
  if (params.blockCount == 0) {
    if (params.lowerColumns < 1 || params.lowerColumns > kMaxColumns || params.upperStartBlock != 0 ||
        params.constructionSeed != 0 || blob.header.itemCount != 0) {
      return Status::corrupt("an empty ribbon filter has no keys, construction seed 0 and lowerColumns 1..32");
    }
  } else {
    const uint32_t widest = params.lowerColumns + (params.upperStartBlock < params.blockCount ? 1 : 0);
    if (params.lowerColumns < 1 || widest > kMaxColumns) return Status::corrupt("ribbon columns must be in 1..32");
  }
  // Each stored key took a slot of its own.
  if (blob.header.itemCount > uint64_t{params.blockCount} * 64) return Status::corrupt("ribbon item count exceeds its slots");
  const uint64_t wordCount = payloadWordsOf(params);
  if (blob.payloadLength % 8 != 0 || blob.payloadLength / 8 != wordCount) {
    return Status::corrupt("ribbon payload is " + std::to_string(blob.payloadLength) + " bytes, but its parameters need " +
                           std::to_string(wordCount * 8));
  }
  Status valid = validateTableBytes(wordCount * 8, "RibbonFilter");
  if (!valid.isOk()) return valid;
  RibbonFilter filter;
  if (!filter.table_.allocate(static_cast<size_t>(wordCount + params.lowerColumns + 1))) {
    return Status::outOfMemory("out of memory reading a ribbon filter");
  }
  bytesToWords(blob.payload, static_cast<size_t>(wordCount), filter.table_.data());
  filter.params_ = params;
  filter.header_ = blob.header;
  return filter;
}

bool RibbonFilter::has(const KeyHash& hash) const {
  if (params_.blockCount == 0) return false;
  const Layout layout(params_);
  const uint64_t h = ribbonWord(hash.low, params_.constructionSeed);
  const uint64_t start = reduceRange(h, layout.starts);
  const Row row = rowOf(h);
  const uint64_t block = start >> 6;
  const uint32_t shift = static_cast<uint32_t>(start & 63);
  const uint32_t columns = layout.columnsOf(block);
  // This block's words, the next block's and the one after (column j of
  // each is at [j]; a later block has at least as many columns).
  const uint64_t* first = table_.data() + layout.firstWordOf(block);
  const uint64_t* second = first + columns;
  const uint64_t* third = second + layout.columnsOf(block + 1);
  // Column by column, stopping at the first bit that differs from the
  // fingerprint's: a key never added stops after 2 columns on average,
  // whatever the rate, where computing every column cost ~1.4x binary fuse's
  // lookup from JS at 15 columns (bench/ribbon.mjs).
  for (uint32_t j = 0; j < columns; ++j) {
    // The 128 slots from start, as two words: shifted in two steps, so
    // shift 0 brings nothing in from the following word.
    const uint64_t low = (first[j] >> shift) | ((second[j] << 1) << (63 - shift));
    const uint64_t high = (second[j] >> shift) | ((third[j] << 1) << (63 - shift));
    if (parity((low & row.low) ^ (high & row.high)) != ((h >> j) & 1)) return false;
  }
  return true;
}

void RibbonFilter::clear() {
  params_.blockCount = 0;
  params_.upperStartBlock = 0;
  params_.constructionSeed = 0;
  table_.allocate(params_.lowerColumns + 1);  // the spare words only; a failure leaves no table, which no query reads
  header_.itemCount = 0;
  header_.capacity = 1;
}

}  // namespace cuckoo_bloom
