#include "cuckoo_bloom/fuse/binary_fuse_filter.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "cuckoo_bloom/core/word_buffer.h"

namespace cuckoo_bloom {
namespace {

// A scratch array for construction that reports allocation failure instead
// of throwing (the wasm build has no exceptions; a throwing std::vector
// would abort the module).
template <typename T>
class Scratch {
 public:
  bool allocate(size_t count, bool zeroed) {
    items_.reset();
    const size_t n = count == 0 ? 1 : count;
    items_.reset(static_cast<T*>(zeroed ? std::calloc(n, sizeof(T)) : std::malloc(n * sizeof(T))));
    return items_ != nullptr;
  }
  T* data() { return items_.get(); }
  T& operator[](size_t i) { return items_.get()[i]; }

 private:
  MallocBlock<T> items_;
};

// See sizeFor: at least this many segments before a size may be rounded down.
constexpr uint64_t kMinSegmentsToRoundDown = 32;
// See sizeFor: below this many segments, one more.
constexpr uint64_t kFewSegments = 12;

Status outOfMemory() { return Status::outOfMemory("out of memory building a binary-fuse filter"); }

// The mixed word every position and the fingerprint come from (see the header).
inline uint64_t fuseWord(uint64_t keyHashLow, uint64_t constructionSeed) {
  return mix64(keyHashLow + constructionSeed);
}

// The geometry of a filter, precomputed for the position derivation.
struct Geometry {
  uint64_t firstRange;  // segmentCount * segmentLength (<= 2^32)
  uint32_t segmentLength;
  uint32_t segmentMask;
  uint32_t arity;

  explicit Geometry(const BinaryFuseFilter::Params& params)
      : firstRange(static_cast<uint64_t>(params.segmentCount) * params.segmentLength),
        segmentLength(params.segmentLength),
        segmentMask(params.segmentLength - 1),
        arity(params.arity) {}

  // The arity positions of a key's mixed word w (distinct, below arrayLength).
  void positions(uint64_t w, uint64_t* out) const {
    const uint64_t first = ((w >> 32) * firstRange) >> 32;  // reduceRange with firstRange <= 2^32
    const uint64_t offsets = mix64(w);
    out[0] = first;
    for (uint32_t j = 1; j < arity; ++j) {
      out[j] = (first + j * static_cast<uint64_t>(segmentLength)) ^ ((offsets >> (21 * (j - 1))) & segmentMask);
    }
  }
};

inline uint32_t fingerprintOf(uint64_t w, uint64_t mask) { return static_cast<uint32_t>(w & mask); }

inline uint32_t readSlot(const uint64_t* words, uint64_t slot, uint32_t bits, uint64_t mask) {
  return static_cast<uint32_t>(bit_fields::readWindow(words, slot * bits) & mask);
}

// Sorts the low hash words and drops repeats; returns the distinct count.
size_t sortUnique(uint64_t* lows, size_t count) {
  std::sort(lows, lows + count);
  return static_cast<size_t>(std::unique(lows, lows + count) - lows);
}

// One peeling attempt over `keyCount` distinct low hashes with one
// construction seed. On success fills `order` (mixed words, in peeling
// order) and `orderSlot` (the slot each key is assigned) and returns true.
// Scratch arrays are the caller's, sized for the geometry.
struct PeelScratch {
  Scratch<uint64_t> sorted;     // mixed words, bucketed by first segment; then the peel order
  Scratch<uint32_t> orderSlot;  // slot assigned to order[i]
  Scratch<uint32_t> counts;     // keys touching each slot
  Scratch<uint64_t> xors;       // XOR of the mixed words of those keys
  Scratch<uint32_t> worklist;   // slots that may have become singletons
  Scratch<uint32_t> bucketStart;
};

// `lowAt(i)` is the low hash word of key i (0 <= i < keyCount), all distinct
// or the attempt fails. `fresh`: the slot arrays are still all zero.
template <typename LowAt>
bool peel(LowAt lowAt, size_t keyCount, const BinaryFuseFilter::Params& params, uint64_t arrayLength,
          PeelScratch& s, bool fresh) {
  const Geometry geometry(params);
  // Bucket keys by the top bits of w, so by their first segment: inserting
  // them in that order sweeps the slot arrays nearly sequentially, inside a
  // window of arity segments, instead of missing the cache on every key.
  // About one bucket per segment (at most 2^12: each bucket is a write
  // stream of the scatter, and few streams keep it cache-friendly).
  uint32_t bucketBits = 0;
  while (bucketBits < 12 && (uint64_t{1} << bucketBits) < params.segmentCount) ++bucketBits;
  const uint32_t buckets = uint32_t{1} << bucketBits;
  for (uint32_t b = 0; b <= buckets; ++b) s.bucketStart[b] = 0;
  // The bucket of w: its top bucketBits bits (the first position grows with them).
  const auto bucketOf = [bucketBits](uint64_t w) -> uint32_t {
    return bucketBits == 0 ? 0 : static_cast<uint32_t>(w >> (64 - bucketBits));
  };
  for (size_t i = 0; i < keyCount; ++i) ++s.bucketStart[bucketOf(fuseWord(lowAt(i), params.constructionSeed)) + 1];
  for (uint32_t b = 0; b < buckets; ++b) s.bucketStart[b + 1] += s.bucketStart[b];
  for (size_t i = 0; i < keyCount; ++i) {
    const uint64_t w = fuseWord(lowAt(i), params.constructionSeed);
    s.sorted[s.bucketStart[bucketOf(w)]++] = w;
  }

  if (!fresh) {
    std::fill(s.counts.data(), s.counts.data() + arrayLength, 0u);
    std::fill(s.xors.data(), s.xors.data() + arrayLength, uint64_t{0});
  }
  uint64_t positions[4];
  for (size_t i = 0; i < keyCount; ++i) {
    const uint64_t w = s.sorted[i];
    geometry.positions(w, positions);
    for (uint32_t j = 0; j < geometry.arity; ++j) {
      ++s.counts[positions[j]];
      s.xors[positions[j]] ^= w;
    }
  }

  // Peel: a slot with count 1 holds exactly one key's word in xors; that key
  // is removed from all its slots and will be assigned this slot. Slots are
  // scanned in order, and each peel follows the singletons it creates (a
  // depth-first worklist), which stay near the slot being scanned.
  size_t peeled = 0;
  for (uint64_t start = 0; start < arrayLength; ++start) {
    if (s.counts[start] != 1) continue;
    size_t pending = 0;
    s.worklist[pending++] = static_cast<uint32_t>(start);
    while (pending > 0) {
      const uint32_t slot = s.worklist[--pending];
      if (s.counts[slot] != 1) continue;
      const uint64_t w = s.xors[slot];
      geometry.positions(w, positions);
      s.sorted[peeled] = w;  // the peel order reuses `sorted` (all keys are already inserted)
      s.orderSlot[peeled] = slot;
      ++peeled;
      for (uint32_t j = 0; j < geometry.arity; ++j) {
        const uint64_t p = positions[j];
        s.xors[p] ^= w;
        if (--s.counts[p] == 1) s.worklist[pending++] = static_cast<uint32_t>(p);
      }
    }
  }
  return peeled == keyCount;
}

}  // namespace

SplitMix64 BinaryFuseFilter::constructionSeeds(uint64_t seed) { return SplitMix64(mix64(seed ^ kConstructionSeedSalt)); }

uint32_t BinaryFuseFilter::fingerprintBitsFor(double falsePositiveRate) {
  // The rate of f bits is 2^-f, so the smallest f with 2^-f <= rate.
  const double exact = -std::log2(falsePositiveRate);
  double bits = std::ceil(exact);
  // log2 of an exact power of two is exact; guard the rounding of others.
  if (bits - exact > 1 - 1e-12) bits -= 1;
  if (bits > kMaxFingerprintBits) return 0;
  return static_cast<uint32_t>(std::max<double>(bits, kMinFingerprintBits));
}

void BinaryFuseFilter::sizeFor(uint64_t keyCount, uint32_t arity, uint32_t& segmentLength, uint32_t& segmentCount) {
  if (keyCount == 0) {
    segmentLength = 1;
    segmentCount = 0;
    return;
  }
  // The paper's parameters (FastFilter/xor_singleheader): segment length
  // 2^floor(ln n / ln 3.33 + 2.25) (3-wise) or 2^floor(ln n / ln 2.91 - 0.5)
  // (4-wise), at most 2^18; array size n * max(1.125, 0.875 + 0.25 ln 10^6 / ln n)
  // (3-wise) or n * max(1.075, 0.77 + 0.305 ln 600000 / ln n) (4-wise): the
  // smallest sizes at which peeling succeeds with high probability.
  const double n = static_cast<double>(keyCount);
  const double logN = std::log(n);
  const double exponent = arity == 3 ? std::floor(logN / std::log(3.33) + 2.25) : std::floor(logN / std::log(2.91) - 0.5);
  const int lengthBits = static_cast<int>(std::min(18.0, std::max(0.0, exponent)));
  segmentLength = uint32_t{1} << lengthBits;
  double sizeFactor;
  if (keyCount <= 1) {
    sizeFactor = 0;  // one segment (below)
  } else if (arity == 3) {
    sizeFactor = std::max(1.125, 0.875 + 0.25 * std::log(1000000.0) / logN);
  } else {
    sizeFactor = std::max(1.075, 0.77 + 0.305 * std::log(600000.0) / logN);
  }
  // Slots wanted, then whole segments: arrayLength = (segmentCount + arity - 1) L.
  // With many segments (32 or more), the nearest number of segments rather
  // than the next: rounding up adds up to a segment (1.7% of the slots at
  // 100k keys), and the size factors have that margin there, but never below
  // the large-n factor (1.125 / 1.075), which has none (1M keys 3-wise at
  // 1.122 slots per key failed 40% of attempts, none at 1.131). With few
  // segments (under 12), one more than rounding up: just after the segment
  // length doubles, 3-wise peeling in 9 segments failed most attempts (3549
  // keys: 8.8 on average, up to 25). Measured over sizes 50..300k in steps
  // of 7%, 10 builds each: 1.05 attempts on average, at most 7.
  const double minimumFactor = arity == 3 ? 1.125 : 1.075;
  const uint64_t wanted = static_cast<uint64_t>(std::llround(n * sizeFactor));
  const uint64_t minimum = static_cast<uint64_t>(std::ceil(n * minimumFactor));
  const uint64_t roundedUp = (wanted + segmentLength - 1) / segmentLength;
  const uint64_t nearest = (wanted + segmentLength / 2) / segmentLength;
  uint64_t totalSegments;
  if (roundedUp < kFewSegments) {
    totalSegments = roundedUp + 1;
  } else if (roundedUp < kMinSegmentsToRoundDown) {
    totalSegments = roundedUp;
  } else {
    totalSegments = std::max(nearest, (minimum + segmentLength - 1) / segmentLength);
  }
  const uint64_t count = totalSegments > arity - 1 ? totalSegments - (arity - 1) : 1;
  segmentCount = static_cast<uint32_t>(std::min<uint64_t>(count, UINT32_MAX));
}

Result<BinaryFuseFilter> BinaryFuseFilter::createFrom(const CoreFilterOptions&) {
  return Status::unsupported(
      "a binary-fuse filter is static: build it from its keys (buildFilter / BinaryFuseFilter.from), it cannot be "
      "created empty and filled");
}

Result<BinaryFuseFilter> BinaryFuseFilter::buildFrom(const CoreFilterOptions& options, const KeyHash* hashes,
                                                     size_t count) {
  BinaryFuseFilterOptions fuse;
  fuse.falsePositiveRate = options.falsePositiveRate;
  fuse.seed = options.seed;
  if (options.fingerprintBits) {
    if (*options.fingerprintBits < kMinFingerprintBits || *options.fingerprintBits > kMaxFingerprintBits) {
      return Status::invalidArgument("fingerprintBits must be in 4..32, got " +
                                     std::to_string(*options.fingerprintBits));
    }
    fuse.fingerprintBits = static_cast<uint32_t>(*options.fingerprintBits);
  }
  if (options.arity) {
    if (*options.arity != 3 && *options.arity != 4) {
      return Status::invalidArgument("arity must be 3 or 4, got " + std::to_string(*options.arity));
    }
    fuse.arity = static_cast<uint32_t>(*options.arity);
  }
  return build(fuse, hashes, count);
}

Result<BinaryFuseFilter> BinaryFuseFilter::build(const BinaryFuseFilterOptions& options, const KeyHash* hashes,
                                                 size_t count) {
  const uint32_t arity = options.arity == 0 ? kDefaultArity : options.arity;
  if (arity != 3 && arity != 4) return Status::invalidArgument("arity must be 3 or 4, got " + std::to_string(arity));
  uint32_t fingerprintBits = options.fingerprintBits;
  double target = options.falsePositiveRate;
  if (fingerprintBits != 0) {
    if (fingerprintBits < kMinFingerprintBits || fingerprintBits > kMaxFingerprintBits) {
      return Status::invalidArgument("fingerprintBits must be in 4..32, got " + std::to_string(fingerprintBits));
    }
    // The rate f bits give; a rate passed with them must at least be a rate.
    if (target != 0.0 && !(target > 0.0 && target < 1.0)) {
      return Status::invalidArgument("falsePositiveRate must be in (0, 1), got " + formatNumber(target));
    }
    target = std::ldexp(1.0, -static_cast<int>(fingerprintBits));
  } else {
    if (!(target > 0.0 && target < 1.0)) {
      return Status::invalidArgument("falsePositiveRate must be in (0, 1), got " + formatNumber(target));
    }
    fingerprintBits = fingerprintBitsFor(target);
    if (fingerprintBits == 0) {
      return Status::invalidArgument("falsePositiveRate " + formatNumber(target) +
                                     " needs more than 32 fingerprint bits (the smallest rate is 2^-32)");
    }
  }
  if (count > 0 && hashes == nullptr) return Status::invalidArgument("no key hashes given");
  // As uint64_t: size_t is 32 bits in wasm, where no count can pass the limit (and the
  // compiler warned that the comparison was always false).
  if (uint64_t{count} > kMaxCapacity) return Status::invalidArgument("too many keys for one filter");

  // The low hash words identify the keys (positions and fingerprint derive
  // from them alone). They are read from `hashes` until a failed attempt
  // suggests repeats; then they are copied, sorted and made unique (`lows`).
  Scratch<uint64_t> lows;
  size_t keyCount = count;
  bool deduplicated = false;
  const auto deduplicate = [&]() {
    if (!lows.allocate(count, false)) return false;
    for (size_t i = 0; i < count; ++i) lows[i] = hashes[i].low;
    keyCount = sortUnique(lows.data(), count);
    deduplicated = true;
    return true;
  };
  if (count <= 64 && !deduplicate()) return outOfMemory();  // cheap; spares tiny sets with repeats a failed attempt

  BinaryFuseFilter filter;
  filter.params_.fingerprintBits = static_cast<uint8_t>(fingerprintBits);
  filter.params_.arity = static_cast<uint8_t>(arity);
  // The construction seeds: a SplitMix64 sequence from the hash seed, so the
  // same keys and options always give the same bytes.
  SplitMix64 seeds = constructionSeeds(options.seed);
  PeelScratch scratch;
  uint64_t scratchSlots = 0;
  bool peeled = keyCount == 0;
  uint32_t attempts = 0;
  bool sized = false;
  while (!peeled || !sized) {
    if (!sized) {
      uint32_t segmentLength = 0, segmentCount = 0;
      sizeFor(keyCount, arity, segmentLength, segmentCount);
      filter.params_.segmentLength = segmentLength;
      filter.params_.segmentCount = segmentCount;
      // Construction indexes slots with 32 bits (and lookups need S L <= 2^32).
      if (static_cast<uint64_t>(segmentCount) * segmentLength > kMaxFirstRange ||
          arrayLengthOf(filter.params_) > UINT32_MAX) {
        return Status::invalidArgument("too many keys for one binary-fuse filter (at most about 3.8 billion)");
      }
      Status valid = validateTableBytes(payloadWordsOf(filter.params_) * 8, "BinaryFuseFilter");
      if (!valid.isOk()) return valid;
      sized = true;
      if (keyCount == 0) break;
    }
    const uint64_t arrayLength = arrayLengthOf(filter.params_);
    bool fresh = false;
    if (arrayLength > scratchSlots) {  // once (a geometry after dropping repeats is smaller)
      fresh = true;
      if (!scratch.sorted.allocate(keyCount, false) || !scratch.orderSlot.allocate(keyCount, false) ||
          !scratch.counts.allocate(arrayLength, true) || !scratch.xors.allocate(arrayLength, true) ||
          !scratch.worklist.allocate(arrayLength, false) || !scratch.bucketStart.allocate((1u << 16) + 1, false)) {
        return outOfMemory();
      }
      scratchSlots = arrayLength;
    }
    if (attempts == kMaxAttempts) {
      return Status::full("a binary-fuse filter of " + std::to_string(keyCount) + " keys could not be built in " +
                          std::to_string(kMaxAttempts) + " attempts");
    }
    ++attempts;
    filter.params_.constructionSeed = seeds.next();
    if (deduplicated) {
      const uint64_t* distinct = lows.data();
      peeled = peel([distinct](size_t i) { return distinct[i]; }, keyCount, filter.params_, arrayLength, scratch, fresh);
    } else {
      peeled = peel([hashes](size_t i) { return hashes[i].low; }, keyCount, filter.params_, arrayLength, scratch, fresh);
    }
    if (!peeled && !deduplicated) {
      // Repeated keys never peel: drop them, size for the rest, and start the
      // seed sequence again, so the bytes are those of the distinct keys.
      const size_t before = keyCount;
      if (!deduplicate()) return outOfMemory();
      sized = keyCount == before;
      seeds = constructionSeeds(options.seed);
      attempts = 0;
    }
  }

  const uint64_t wordCount = payloadWordsOf(filter.params_);
  if (wordCount + 1 > SIZE_MAX / sizeof(uint64_t) || !filter.table_.allocate(static_cast<size_t>(wordCount + 1))) {
    return outOfMemory();
  }
  // Assign in reverse peeling order. A key was peeled when its slot had no
  // other unpeeled key, so keys peeled after it never touch that slot, and
  // keys peeled before it own slots it does not touch: when its turn comes,
  // its other slots are final and its own slot is still 0, so
  // fp XOR (XOR of all its slots) is the value that makes the XOR of its
  // slots equal its fingerprint, and nothing written later changes that.
  const Geometry geometry(filter.params_);
  const uint64_t mask = bit_fields::lowBitMask(fingerprintBits);
  uint64_t positions[4];
  for (size_t i = keyCount; i-- > 0;) {
    const uint64_t w = scratch.sorted[i];
    geometry.positions(w, positions);
    uint32_t value = fingerprintOf(w, mask);
    for (uint32_t j = 0; j < arity; ++j) value ^= readSlot(filter.table_.data(), positions[j], fingerprintBits, mask);
    bit_fields::write(filter.table_.data(), static_cast<uint64_t>(scratch.orderSlot[i]) * fingerprintBits,
                      fingerprintBits, value);
  }
  filter.header_ = newHeader(kType, std::max<uint64_t>(keyCount, 1), target, options.seed);
  filter.header_.itemCount = keyCount;
  return filter;
}

uint64_t BinaryFuseFilter::arrayLengthOf(const Params& params) {
  if (params.segmentCount == 0) return 0;
  return (static_cast<uint64_t>(params.segmentCount) + params.arity - 1) * params.segmentLength;
}

uint64_t BinaryFuseFilter::payloadWordsOf(const Params& params) {
  return (arrayLengthOf(params) * params.fingerprintBits + 63) / 64;
}

Result<BinaryFuseFilter> BinaryFuseFilter::fromBlob(const DecodedBlob& blob, const Params& params) {
  // Every combination accepted here is safe to query: positions are below
  // (segmentCount + arity - 1) L = arrayLength by construction (see the
  // header), and the payload holds exactly arrayLength slots of f bits.
  // The type was added in format version 2; version-1 bytes of it were never written.
  if (blob.header.formatVersion < 2) return Status::corrupt("binary-fuse filters exist from format version 2");
  if (params.arity != 3 && params.arity != 4) return Status::corrupt("binary-fuse arity must be 3 or 4");
  if (params.fingerprintBits < kMinFingerprintBits || params.fingerprintBits > kMaxFingerprintBits) {
    return Status::corrupt("binary-fuse fingerprintBits must be in 4..32");
  }
  const uint32_t length = params.segmentLength;
  if (length == 0 || length > kMaxSegmentLength || (length & (length - 1)) != 0) {
    return Status::corrupt("binary-fuse segmentLength must be a power of two up to 2^18");
  }
  if (static_cast<uint64_t>(params.segmentCount) * length > kMaxFirstRange) {
    return Status::corrupt("binary-fuse segmentCount * segmentLength exceeds 2^32");
  }
  if (params.segmentCount == 0 && (length != 1 || blob.header.itemCount != 0 || params.constructionSeed != 0)) {
    return Status::corrupt("an empty binary-fuse filter has segmentLength 1, no keys and construction seed 0");
  }
  const uint64_t arrayLength = arrayLengthOf(params);
  // Each key has its own slot (the one peeling gave it).
  if (blob.header.itemCount > arrayLength) return Status::corrupt("binary-fuse item count exceeds its slots");
  const uint64_t wordCount = payloadWordsOf(params);
  if (blob.payloadLength % 8 != 0 || blob.payloadLength / 8 != wordCount) {
    return Status::corrupt("binary-fuse payload is " + std::to_string(blob.payloadLength) +
                           " bytes, but its parameters need " + std::to_string(wordCount * 8));
  }
  Status valid = validateTableBytes(wordCount * 8, "BinaryFuseFilter");
  if (!valid.isOk()) return valid;
  BinaryFuseFilter filter;
  if (!filter.table_.allocate(static_cast<size_t>(wordCount + 1))) {
    return Status::outOfMemory("out of memory reading a binary-fuse filter");
  }
  bytesToWords(blob.payload, static_cast<size_t>(wordCount), filter.table_.data());
  if (!bit_fields::paddingIsZero(filter.table_.data(), static_cast<size_t>(wordCount), arrayLength * params.fingerprintBits)) {
    return Status::corrupt("binary-fuse: bits beyond the table are set");
  }
  filter.params_ = params;
  filter.header_ = blob.header;
  return filter;
}

bool BinaryFuseFilter::has(const KeyHash& hash) const {
  if (params_.segmentCount == 0) return false;
  const uint64_t w = fuseWord(hash.low, params_.constructionSeed);
  const Geometry geometry(params_);
  uint64_t positions[4];
  geometry.positions(w, positions);
  const uint32_t bits = params_.fingerprintBits;
  const uint64_t mask = bit_fields::lowBitMask(bits);
  const uint64_t* words = table_.data();
  uint32_t value = fingerprintOf(w, mask);
  value ^= readSlot(words, positions[0], bits, mask);
  value ^= readSlot(words, positions[1], bits, mask);
  value ^= readSlot(words, positions[2], bits, mask);
  if (params_.arity == 4) value ^= readSlot(words, positions[3], bits, mask);
  return value == 0;
}

void BinaryFuseFilter::clear() {
  params_.segmentCount = 0;
  params_.segmentLength = 1;
  params_.constructionSeed = 0;
  table_.allocate(1);  // the spare word only; a failure leaves no table, which no query reads
  header_.itemCount = 0;
  header_.capacity = 1;
}

double BinaryFuseFilter::estimatedFalsePositiveRate() const {
  return params_.segmentCount == 0 ? 0.0 : std::ldexp(1.0, -static_cast<int>(params_.fingerprintBits));
}

uint32_t BinaryFuseFilter::slotAt(uint64_t slot) const {
  if (slot >= slotCount()) return 0;
  return readSlot(table_.data(), slot, params_.fingerprintBits, bit_fields::lowBitMask(params_.fingerprintBits));
}

}  // namespace cuckoo_bloom
