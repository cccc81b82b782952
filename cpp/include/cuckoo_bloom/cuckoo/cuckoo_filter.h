// Cuckoo filter (Fan, Andersen, Kaminsky, Mitzenmacher, CoNEXT 2014):
// partial-key cuckoo hashing of f-bit fingerprints into m buckets of b slots.
//
// A key lives in one of its two buckets, i1 or i2, where each is computed from
// the other and the fingerprint alone (hashing.h: any m since format version
// 2; a power of two in version 1). When both are full, insertion evicts a
// resident fingerprint and moves it to its own other bucket, up to maxKicks
// times (a seeded, reproducible random walk). It evicts a resident whose
// other bucket has room when there is one (one step of lookahead; on the
// first step among the residents of both buckets), else a random one: near
// the rated load that halves the walk's steps.
//
// A failed insert never loses a key. The walk records each bucket as it was
// before the walk changed it; when the kicks run out it writes them back in
// reverse order, which restores the table bit for bit, and reports Full.
// (The two published Go walk-throughs drop the fingerprint in hand at that
// point: a key that was added is then silently gone.) Every key stored before
// a failure is still found after it, and the filter stays usable.
//
// The walk only asks the table to read, write, find, insert and erase
// fingerprints in a bucket; how slots are packed is the table's business:
// packed_table.h (f bits per slot) or semi_sorted_table.h (buckets of 4 with
// their low nibbles sorted and ranked: f - 1 bits per slot, Fan et al. 5.2).
//
// Sizing from (capacity n, target e): a lookup compares against at most 2b
// fingerprints, each matching by chance with probability 1/(2^f - 1), so
//   e ~= 2b / 2^f   =>   f = ceil(log2(2b / e)), clamped to [4, 32];
// and m = ceil((n + slack) / (b * maxLoad(b))), rounded up to even, where
// maxLoad = 0.84, 0.95, 0.98 for b = 2, 4, 8 is the load the paper measured at
// the first failed insert and slack ~ sqrt(n) covers small tables (tests pin
// that n keys always fit). At b = 4 that is about f / 0.95 bits per key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cuckoo_bloom/core/filter_support.h"
#include "cuckoo_bloom/cuckoo/packed_table.h"
#include "cuckoo_bloom/cuckoo/semi_sorted_table.h"

namespace cuckoo_bloom {

struct CuckooFilterOptions {
  uint64_t capacity = 0;
  double falsePositiveRate = 0.0;  // ignored when fingerprintBits is set
  uint32_t bucketSize = 4;         // 2, 4 or 8
  uint32_t fingerprintBits = 0;    // 4..32; 0 derives it from falsePositiveRate
  uint32_t maxKicks = 500;         // eviction steps before an insert fails
  uint64_t seed = 0;               // hash seed and eviction-walk seed
  // Semi-sorted buckets: one bit less per slot. The default with buckets of 4
  // (the only size they exist for): the table part of a lookup measured
  // 1.3-1.45x packed slots natively, but has() from JavaScript the same
  // (0.99-1.01x) and add() 1.2x. false: packed slots, whose fingerprints keep
  // their slot (what a visualisation of kicks wants).
  std::optional<bool> semiSorted;
  // The load the table holds `capacity` keys at, in (0, 1]. Default:
  // ratedLoadFactor (0.92 semi-sorted, else the first-failure load). Not an
  // option in JavaScript: the growing chain sizes its links with it.
  std::optional<double> load;
};

// How a key's two buckets are placed (hashing.h has both formulas).
enum class CuckooAddressing : uint8_t {
  XorPowerOfTwo = 1,   // format version 1: power-of-two bucket counts
  SubtractModulo = 2,  // format version 2: any bucket count
};

// How fingerprints are laid out in the payload.
enum class CuckooSlotLayout : uint8_t {
  Packed = 1,      // f bits per slot, end to end (packed_table.h)
  SemiSorted = 2,  // 4f - 4 bits per bucket of 4 (semi_sorted_table.h)
};

// One step of an eviction walk: the fingerprint placed into (bucket, slot).
// Only an inspector asks for them (inspect/cuckoo_inspector.h): add() records
// nothing.
struct CuckooKick {
  uint64_t bucket;
  uint32_t slot;
  uint32_t fingerprint;
};

class CuckooFilter : public KeyedFilter<CuckooFilter> {
 public:
  using KeyedFilter::add;
  using KeyedFilter::has;
  using KeyedFilter::remove;
  static constexpr uint32_t kMinFingerprintBits = 4;
  static constexpr uint32_t kMaxFingerprintBits = 32;
  static constexpr uint32_t kMaxKicksLimit = 1u << 20;
  static constexpr uint32_t kMaxBucketSize = 8;
  // Registry facts (core/type_facts.h): from a pipe, a scalable cuckoo filter grows instead.
  static constexpr FilterType kGrowingStandIn = FilterType::ScalableCuckoo;
  static constexpr EstimateSource kEstimateSource = EstimateSource::FingerprintsStored;

  // The parameter block (docs/FORMAT.md): bucketCount u64, rngState u64,
  // maxKicks u32, bucketSize u8, fingerprintBits u8, addressing u8, layout u8.
  // In format version 1 the last two bytes were reserved (0): such bytes are
  // read as XorPowerOfTwo addressing and the packed layout.
  struct Params {
    uint64_t bucketCount = 0;
    uint64_t randomState = 0;
    uint32_t maxKicks = 0;
    uint8_t bucketSize = 0;
    uint8_t fingerprintBits = 0;
    uint8_t addressing = 0;
    uint8_t layout = 0;
    CUCKOO_BLOOM_PARAMS_FIELDS(0, bucketCount, randomState, maxKicks, bucketSize, fingerprintBits, addressing, layout)
  };

  // The options it takes beyond the shared three (filter_options.h).
  static constexpr OptionId kOptions[] = {OptionId::BucketSize, OptionId::FingerprintBits, OptionId::MaxKicks,
                                          OptionId::SemiSorted};
  // Move-only, as its tables are. The move constructor is out of line: moves
  // are rare (creating, reading, growing a chain), and inlined into every
  // registry path that makes a filter they cost about 3 KB of core.wasm.
  CuckooFilter(CuckooFilter&& other) noexcept;
  CuckooFilter& operator=(CuckooFilter&&) noexcept = default;
  CuckooFilter(const CuckooFilter&) = delete;
  CuckooFilter& operator=(const CuckooFilter&) = delete;

  static Result<CuckooFilter> create(const CuckooFilterOptions& options);
  static Result<CuckooFilter> createFrom(const CoreFilterOptions& options);
  static Result<CuckooFilter> fromBlob(const DecodedBlob& blob, const Params& params);

  static uint32_t fingerprintBitsFor(double falsePositiveRate, uint32_t bucketSize);
  // The same rule unclamped: above kMaxFingerprintBits the rate cannot be met.
  static double fingerprintBitsNeeded(double falsePositiveRate, uint32_t bucketSize);
  // The load at the first failed insert (Fan et al.), and the lower load a
  // filter is sized to hold its capacity at (bucketCountFor; see the .cpp).
  static double maxLoadFactor(uint32_t bucketSize);
  static double ratedLoadFactor(uint32_t bucketSize, bool semiSorted);
  static uint64_t bucketCountFor(uint64_t capacity, uint32_t bucketSize, bool semiSorted);
  static uint64_t bucketCountAtLoad(uint64_t capacity, uint32_t bucketSize, double load);
  // Keys of headroom added to the capacity before sizing (see the .cpp).
  static double sizingSlackKeys(uint64_t capacity, uint32_t bucketSize);

  // Ok, or Full: then the table and count are exactly as they were before the
  // call (every stored key is still found); only the walk's generator has
  // advanced, so the next insert tries a different walk.
  Status add(const KeyHash& hash) { return addObserved(hash, nullptr); }
  bool has(const KeyHash& hash) const;
  // Copies of the key's fingerprint in its two buckets (at most 2 x bucketSize:
  // an add of a key already held that many times is refused as FULL).
  uint32_t copiesOf(const KeyHash& hash) const;
  // Removes one matching fingerprint; NotFound (and no change) when none.
  Status remove(const KeyHash& hash);
  // Where a key's fingerprint may live, without touching the table.
  void locate(const KeyHash& hash, uint64_t& bucket1, uint64_t& bucket2, uint32_t& fingerprint) const;
  void clear();

  // Fingerprints stored (a key added twice counts twice).
  uint64_t bucketCount() const { return params_.bucketCount; }
  uint32_t bucketSize() const { return params_.bucketSize; }
  uint32_t fingerprintBits() const { return params_.fingerprintBits; }
  uint32_t maxKicks() const { return params_.maxKicks; }
  CuckooAddressing addressing() const { return static_cast<CuckooAddressing>(params_.addressing); }
  CuckooSlotLayout layout() const { return static_cast<CuckooSlotLayout>(params_.layout); }
  bool semiSorted() const { return layout() == CuckooSlotLayout::SemiSorted; }
  uint64_t slotCount() const { return bucketCount() * bucketSize(); }
  double loadFactor() const { return static_cast<double>(count()) / static_cast<double>(slotCount()); }
  // 1 - (1 - 1/(2^f - 1))^(2b * load): chance that one of the ~2b*load
  // fingerprints in a query's two buckets matches by accident.
  double estimatedFalsePositiveRate() const;
  size_t byteLength() const;
  template <typename Visit>
  void parameters(Visit&& visit) const {
    visit("bucketCount", static_cast<double>(bucketCount()));
    visit("bucketSize", bucketSize());
    visit("fingerprintBits", fingerprintBits());
    visit("maxKicks", maxKicks());
    visit("loadFactor", loadFactor());
    visit("semiSorted", semiSorted() ? 1 : 0);
  }

  // What the byte format holds (KeyedFilter serializes from it): the
  // header, the parameter block with the walk's random state, and the table's words.
  template <typename Visit>
  auto visitBlob(Visit&& visit) const {
    Params params = params_;
    params.randomState = random_.state();
    const std::vector<uint8_t> encoded = encodeParams(params);
    return withTable([&](const auto& table) { return visit(header_, encoded, table.words(), table.payloadWords()); });
  }

 private:
  friend struct ConcurrentAccess;
  // Reads slots and runs an add that records its walk (inspect/cuckoo_inspector.h).
  friend struct CuckooInspector;
  CuckooFilter() = default;
  uint64_t primaryBucket(const KeyHash& hash) const;
  uint64_t alternateBucket(uint64_t bucket, uint32_t fingerprint) const;
  Status undoWalk();
  // Calls fn with the table of this filter's layout: one well-predicted branch,
  // and the walk and the lookups are compiled once per layout.
  template <typename Fn>
  decltype(auto) withTable(Fn&& fn) {
    return semiSorted() ? fn(semiSortedTable_) : fn(packedTable_);
  }
  template <typename Fn>
  decltype(auto) withTable(Fn&& fn) const {
    return semiSorted() ? fn(semiSortedTable_) : fn(packedTable_);
  }
  // The insert and its walk, compiled once per layout. `kicks`, when not
  // null, receives each step (the inspector's recorded add, which clears it
  // first); add() passes null, and the test of it sits on the walk's
  // evictions only, never on a direct insert.
  Status addObserved(const KeyHash& hash, std::vector<CuckooKick>* kicks);
  template <typename Table>
  Status addTo(Table& table, const KeyHash& hash, std::vector<CuckooKick>* kicks);
  // Allocates the table of params_' layout and geometry (OutOfMemory on failure).
  Status allocateTable();

  Params params_;
  // Only the table of the filter's layout is allocated.
  PackedTable packedTable_;
  SemiSortedTable semiSortedTable_;
  SplitMix64 random_;
  // What each bucket the walk changed held before it (for the exact undo).
  struct SavedBucket {
    uint64_t bucket;
    uint32_t slots[kMaxBucketSize];
  };
  std::vector<SavedBucket> savedBuckets_;
};

}  // namespace cuckoo_bloom
