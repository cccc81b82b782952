// The registry side of the fuzz targets (README.md beside this file): how a
// target reaches the concrete filter behind an AnyFilter, and what it checks
// of each type beyond the invariants every type shares.
//
//   withFilterClass(type, fn)   calls fn(TypeTag<Class>{}) for the class that
//                               filter_types.h lists for `type`.
//   withConcrete(filter, fn)    calls fn(concrete&) with the filter behind an
//                               AnyFilter (AnyFilter::as<Class>()).
//   TypeChecks<Class>           the type-specific checks. The primary template
//                               checks nothing beyond the shared invariants, so
//                               a type added to filter_types.h is fuzzed by
//                               every target with no edit here; a
//                               specialization adds what that type promises
//                               (its counts, its positions, its FULL).
//   Model                       the multiset of keys an op stream has put in.
//
// Every hook is a static function of TypeChecks<Class>; a specialization
// derives from DefaultChecks<Class> (or, for the word-array filters, from
// detail::CountsEveryAdd<Class>, the count hooks they share) and hides only
// the hooks it needs.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuckoo_bloom/bloom/bloom_sizing.h"
#include "cuckoo_bloom/cuckoo_bloom.h"
#include "cuckoo_bloom/inspect/bloom_inspector.h"
#include "cuckoo_bloom/inspect/cuckoo_inspector.h"
#include "fuzz_common.h"

namespace cuckoo_bloom_fuzz {

namespace cb = cuckoo_bloom;

// ------------------------------------------------------------------ registry dispatch

template <typename T>
struct TypeTag {
  using Filter = T;
};

template <typename Fn>
void withFilterClass(cb::FilterType type, Fn&& fn) {
  switch (type) {
#define CUCKOO_BLOOM_FUZZ_CLASS_CASE(enumerator, id, text, Class) \
  case cb::FilterType::enumerator:                                \
    fn(TypeTag<cb::Class>{});                                     \
    return;
    CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_FUZZ_CLASS_CASE)
#undef CUCKOO_BLOOM_FUZZ_CLASS_CASE
    default:
      break;
  }
  FUZZ_CHECK_MSG(false, "filter type %d is not listed in filter_types.h", static_cast<int>(type));
}

template <typename Fn>
void withConcrete(cb::AnyFilter& filter, Fn&& fn) {
  withFilterClass(filter.type(), [&](auto tag) {
    using Filter = typename decltype(tag)::Filter;
    Filter* concrete = filter.as<Filter>();
    FUZZ_CHECK(concrete != nullptr);
    fn(*concrete);
  });
}

template <typename Fn>
void withConcrete(const cb::AnyFilter& filter, Fn&& fn) {
  withFilterClass(filter.type(), [&](auto tag) {
    using Filter = typename decltype(tag)::Filter;
    const Filter* concrete = filter.as<Filter>();
    FUZZ_CHECK(concrete != nullptr);
    fn(*concrete);
  });
}

template <typename T>
using ClassOf = std::remove_cv_t<std::remove_reference_t<T>>;

inline const cb::FilterTypeInfo* registeredInfo(cb::FilterType type) {
  for (const cb::FilterTypeInfo& info : cb::registeredFilterTypes()) {
    if (info.type == type) return &info;
  }
  return nullptr;
}

inline bool validRate(double rate) { return rate > 0.0 && rate < 1.0; }

inline cb::KeyHash hashOf(const cb::AnyFilter& filter, const std::string& key) {
  return filter.hashOf(bytesOf(key), key.size());
}

// ------------------------------------------------------------------ byte comparisons

// A byte range [from, to) of a serialized filter.
struct Range {
  size_t from = 0;
  size_t to = 0;
};

constexpr Range kVersionField{4, 6};

// Same length, and equal everywhere except inside `ranges` and the checksum.
inline bool differOnlyIn(const Bytes& a, const Bytes& b, const std::vector<Range>& ranges) {
  if (a.size() != b.size()) return false;
  const size_t end = a.size() >= kChecksum ? a.size() - kChecksum : 0;
  for (size_t i = 0; i < end; ++i) {
    bool excused = false;
    for (const Range& r : ranges) excused = excused || (i >= r.from && i < r.to);
    if (!excused && a[i] != b[i]) return false;
  }
  return true;
}
inline bool differOnlyIn(const Bytes& a, const Bytes& b, std::initializer_list<Range> ranges) {
  return differOnlyIn(a, b, std::vector<Range>(ranges));
}

// ------------------------------------------------------------------ the op-stream model

// What an op stream has put into a filter: every successful add, minus every
// successful remove (a multiset: a key added twice is held twice).
class Model {
 public:
  void add(const std::string& key) {
    if (keys_.find(key) == keys_.end()) ++distinct_;
    keys_.insert(key);
  }
  bool removeOne(const std::string& key) {
    auto it = keys_.find(key);
    if (it == keys_.end()) return false;
    keys_.erase(it);
    if (keys_.find(key) == keys_.end()) --distinct_;
    return true;
  }
  void merge(const Model& other) {
    for (const std::string& key : other.keys_) add(key);
  }
  void clear() {
    keys_.clear();
    distinct_ = 0;
  }
  bool holds(const std::string& key) const { return keys_.find(key) != keys_.end(); }
  size_t copies(const std::string& key) const { return keys_.count(key); }
  size_t size() const { return keys_.size(); }
  size_t distinct() const { return distinct_; }
  const std::multiset<std::string>& keys() const { return keys_; }
  // Calls fn(key) once per distinct key.
  template <typename Fn>
  void forEachDistinct(Fn&& fn) const {
    for (auto it = keys_.begin(); it != keys_.end(); it = keys_.upper_bound(*it)) fn(*it);
  }

 private:
  std::multiset<std::string> keys_;
  size_t distinct_ = 0;
};

// What a type's create() should do with raw options.
enum class Expect {
  Accept,  // must succeed
  Reject,  // must fail with INVALID_ARGUMENT
  Either,  // may do either (a failure is INVALID_ARGUMENT)
  Skip,    // valid but too big to exercise: the target stops before create()
};

// ------------------------------------------------------------------ the hooks

template <typename Filter>
struct TypeChecks;

template <typename Filter>
struct DefaultChecks {
  // Bytes of the serialized filter that an add reporting FULL may change
  // besides the checksum (a walk's generator state). Empty: none.
  static constexpr Range kWalkState{};
  // Where those bytes are in `filter`'s serialized form of `byteCount` bytes: at a fixed
  // place for a one-table type; a chain hides this (its newest link's walk state moves
  // with every link added, and that link's own checksum covers it).
  static std::vector<Range> walkStateIn(const Filter&, size_t) { return {TypeChecks<Filter>::kWalkState}; }

  // Whether `out` is what this type writes for the version-1 bytes `in`
  // (their read-back written as version 2). Default: only the version field
  // (and the checksum) differ.
  static bool upgradedFromV1(const Bytes& in, const Bytes& out) { return differOnlyIn(in, out, {kVersionField}); }

  // Read-only invariants of any filter of the type, built or read from any
  // accepted bytes, probed with `keys`.
  static void inspect(const Filter&, const std::vector<std::string>&) {}

  // Whether operations on this filter are cheap enough to run (a cuckoo
  // filter's add may walk maxKicks steps; `walkBudget` is the target's limit).
  static bool exercisable(const Filter&, uint32_t /*walkBudget*/) { return true; }

  // Around one add (through AnyFilter): state taken before, checked after
  // (the status is Ok or Full; a Full add's bytes are checked by the caller).
  struct BeforeAdd {};
  static BeforeAdd beforeAdd(const Filter&, const cb::KeyHash&) { return {}; }
  // The add itself: the registry's. A type whose checks need more than the
  // filter holds after it (the cuckoo walk's steps) adds through its inspector.
  static cb::Status add(Filter&, cb::AnyFilter& filter, const cb::KeyHash& h) { return filter.add(h); }
  static void afterAdd(const Filter&, const cb::KeyHash&, const BeforeAdd&, const cb::Status&) {}

  // Whether the last operation may have moved entries of other keys (then
  // the op target looks up every model key instead of sampling).
  static bool movedOthers(const Filter&) { return false; }

  // After a successful unionWith of filters holding countA and countB.
  static void afterUnion(const Filter&, uint64_t /*countA*/, uint64_t /*countB*/) {}

  // Extra exercise of a filter read from arbitrary bytes (deserialize_filter,
  // before its generic add / union / remove phase).
  static void exerciseRead(Filter&, const std::vector<std::string>&) {}

  // The filter against the op stream's model (`all`: a full check is due).
  static void checkModel(const Filter&, const Model&, bool /*unioned*/, bool /*all*/) {}

  static void afterClear(const Filter&) {}

  // Raw options the type takes (the shared rules, such as "a rate outside
  // (0, 1) with no cuckoo option is rejected", are applied before this).
  static Expect expectCreate(const cb::CoreFilterOptions&) { return Expect::Either; }
  // A filter just created from `options`.
  static void afterCreate(const Filter&, const cb::CoreFilterOptions&) {}

  // Static types: whether buildFilter accepts raw options (Accept or Reject).
  static Expect expectBuild(const cb::CoreFilterOptions&) { return Expect::Either; }
};

// Registered types with no specialization get the shared checks only.
template <typename Filter>
struct TypeChecks : DefaultChecks<Filter> {};

// ---- the Bloom family: bits, positions, counts

namespace detail {

inline uint64_t popcountWords(const uint64_t* words, size_t wordCount) {
  uint64_t total = 0;
  for (size_t w = 0; w < wordCount; ++w) total += static_cast<uint64_t>(__builtin_popcountll(words[w]));
  return total;
}

// positions() of each key lie inside the table, there are `expected` of
// them, and has() is true exactly when every one of those bits is set.
template <typename Filter>
void checkBitPositions(const Filter& filter, const std::vector<std::string>& keys, size_t expected) {
  for (const std::string& key : keys) {
    const bool present = filter.has(key);
    const std::vector<uint64_t> positions = filter.positions(bytesOf(key), key.size());
    FUZZ_CHECK(positions.size() == expected);
    bool allSet = true;
    for (uint64_t bit : positions) {
      FUZZ_CHECK(bit < filter.bitCount());
      allSet = allSet && ((filter.words()[bit / 64] >> (bit % 64)) & 1);
    }
    FUZZ_CHECK(present == allSet);
  }
}

// The checks of the word-array filters (Bloom, blocked, counting), which
// count every add (keys added, repeats included): an add counts one more, and
// a union keeps the sum of both counts.
template <typename F>
struct CountsEveryAdd : DefaultChecks<F> {
  using Filter = F;
  struct BeforeAdd {
    bool had;
    uint64_t count;
  };
  static BeforeAdd beforeAdd(const Filter& f, const cb::KeyHash& h) { return {f.has(h), f.count()}; }
  static void afterAdd(const Filter& f, const cb::KeyHash&, const BeforeAdd& before, const cb::Status&) {
    FUZZ_CHECK_MSG(f.count() == before.count + 1, "add counted %llu -> %llu (present before: %d)",
                   static_cast<unsigned long long>(before.count), static_cast<unsigned long long>(f.count()),
                   before.had);
  }
  static void afterUnion(const Filter& f, uint64_t countA, uint64_t countB) {
    FUZZ_CHECK(f.count() == countA + countB);
  }
};

}  // namespace detail

template <>
struct TypeChecks<cb::BloomFilter> : detail::CountsEveryAdd<cb::BloomFilter> {
  static void inspect(const Filter& f, const std::vector<std::string>& keys) {
    FUZZ_CHECK(f.bitCount() >= 1 && f.hashCount() >= 1 && f.hashCount() <= 64);
    FUZZ_CHECK(f.setBitCount() <= f.bitCount());
    FUZZ_CHECK(f.byteLength() * 8 >= f.bitCount());
    detail::checkBitPositions(f, keys, f.hashCount());
  }
  static void checkModel(const Filter&, const Model&, bool, bool) {}
  static void afterClear(const Filter& f) { FUZZ_CHECK(f.setBitCount() == 0); }
  static Expect expectCreate(const cb::CoreFilterOptions& o) {
    if (!validRate(o.falsePositiveRate)) return Expect::Reject;
    // The exact sizing (bloom_sizing.h): a rate below the double-hashing
    // floor (about 2 n / m^2) for every table under 2^62 bits has no table.
    const uint64_t bits = cb::bloomSizingFor(o.capacity, o.falsePositiveRate).bitCount;
    FUZZ_CHECK(bits >= 1);
    if (bits == UINT64_MAX) return Expect::Reject;
    return bits > (uint64_t{1} << 24) ? Expect::Skip : Expect::Accept;
  }
  static void afterCreate(const Filter& f, const cb::CoreFilterOptions&) {
    FUZZ_CHECK(f.hashCount() >= 1 && f.hashCount() <= 64 && f.bitCount() >= 1);
  }
};

template <>
struct TypeChecks<cb::BlockedBloomFilter> : detail::CountsEveryAdd<cb::BlockedBloomFilter> {
  static uint64_t setBits(const Filter& f) { return detail::popcountWords(f.words(), f.byteLength() / 8); }
  static void inspect(const Filter& f, const std::vector<std::string>& keys) {
    FUZZ_CHECK(f.blockCount() >= 1);
    FUZZ_CHECK(f.byteLength() == f.blockCount() * Filter::kBytesPerBlock);
    detail::checkBitPositions(f, keys, Filter::kWordsPerBlock);
  }
  static void checkModel(const Filter&, const Model&, bool, bool) {}
  static void afterClear(const Filter& f) { FUZZ_CHECK(setBits(f) == 0); }
  // Sizing bisects over the block count; tiny rates need more blocks than
  // the limit (UINT64_MAX then, and create() says INVALID_ARGUMENT).
  static Expect expectCreate(const cb::CoreFilterOptions& o) {
    if (!validRate(o.falsePositiveRate)) return Expect::Reject;
    const uint64_t blocks = Filter::blockCountFor(o.capacity, o.falsePositiveRate);
    FUZZ_CHECK(blocks >= 1);
    if (blocks == UINT64_MAX) return Expect::Reject;
    if (blocks > (uint64_t{1} << 16)) return Expect::Skip;
    const double expected =
        Filter::expectedFalsePositiveRate(static_cast<double>(o.capacity) / static_cast<double>(blocks));
    FUZZ_CHECK(expected <= o.falsePositiveRate * Filter::kSizingMargin * (1 + 1e-9));
    return Expect::Accept;
  }
  static void afterCreate(const Filter& f, const cb::CoreFilterOptions&) { FUZZ_CHECK(f.blockCount() >= 1); }
};

template <>
struct TypeChecks<cb::CountingBloomFilter> : detail::CountsEveryAdd<cb::CountingBloomFilter> {
  static void inspect(const Filter& f, const std::vector<std::string>& keys) {
    FUZZ_CHECK(f.counterCount() >= 1 && f.hashCount() >= 1 && f.hashCount() <= 64);
    FUZZ_CHECK(f.saturatedCounterCount() <= f.counterCount());
    FUZZ_CHECK(cb::BloomInspector::counterAt(f, f.counterCount()) == 0);  // out of range reads 0
    for (const std::string& key : keys) {
      const bool present = f.has(key);
      const std::vector<uint64_t> positions = f.positions(bytesOf(key), key.size());
      FUZZ_CHECK(positions.size() == f.hashCount());
      bool allNonZero = true;
      for (uint64_t index : positions) {
        FUZZ_CHECK(index < f.counterCount());
        FUZZ_CHECK(cb::BloomInspector::counterAt(f, index) <= Filter::kCounterMax);
        allNonZero = allNonZero && cb::BloomInspector::counterAt(f, index) != 0;
      }
      FUZZ_CHECK(present == allNonZero);
    }
  }
  // Add then remove one key at a time: found after the add, Ok to remove,
  // and every counter it touched is back where it was unless it saturated.
  static void exerciseRead(Filter& f, const std::vector<std::string>& keys) {
    for (const std::string& key : keys) {
      const std::vector<uint64_t> positions = f.positions(bytesOf(key), key.size());
      std::vector<uint32_t> before;
      for (uint64_t index : positions) before.push_back(cb::BloomInspector::counterAt(f, index));
      const uint64_t countBefore = f.count();
      f.add(key);
      FUZZ_CHECK(f.has(key));
      FUZZ_CHECK(f.count() == countBefore + 1);
      FUZZ_CHECK(f.remove(key).isOk());
      // (The header's count is not checked against the counters on read, so
      // it may be UINT64_MAX; add() then wraps it to 0, where remove() leaves it.)
      if (countBefore != UINT64_MAX) FUZZ_CHECK(f.count() == countBefore);
      for (size_t i = 0; i < positions.size(); ++i) {
        const uint32_t now = cb::BloomInspector::counterAt(f, positions[i]);
        FUZZ_CHECK(now == before[i] || now == Filter::kCounterMax);
      }
    }
  }
  // count == adds - successful removes.
  static void checkModel(const Filter& f, const Model& model, bool, bool) {
    FUZZ_CHECK_MSG(f.count() == model.size(), "count %llu, model %zu", static_cast<unsigned long long>(f.count()),
                   model.size());
  }
  static void afterClear(const Filter& f) { FUZZ_CHECK(f.saturatedCounterCount() == 0); }
  static Expect expectCreate(const cb::CoreFilterOptions& o) {
    if (!validRate(o.falsePositiveRate)) return Expect::Reject;
    const uint64_t counters = cb::bloomSizingFor(o.capacity, o.falsePositiveRate).bitCount;
    if (counters == UINT64_MAX) return Expect::Reject;
    if (counters > (uint64_t{1} << 22)) return Expect::Skip;
    return Expect::Accept;
  }
  static void afterCreate(const Filter& f, const cb::CoreFilterOptions&) { FUZZ_CHECK(f.counterCount() >= 1); }
};

// ---- the cuckoo filter: buckets, fingerprints, the eviction walk

template <>
struct TypeChecks<cb::CuckooFilter> : DefaultChecks<cb::CuckooFilter> {
  using Filter = cb::CuckooFilter;
  // The params block: bucketCount u64, rngState u64, maxKicks u32,
  // bucketSize u8, fingerprintBits u8, addressing u8, layout u8.
  static constexpr Range kWalkState{kHeader + 8, kHeader + 16};
  static constexpr size_t kAddressingOffset = kHeader + 22;
  static constexpr size_t kLayoutOffset = kHeader + 23;

  // Version 1 had two reserved (zero) bytes where addressing and layout are:
  // written back as version 2 they say XOR addressing and the packed layout.
  static bool upgradedFromV1(const Bytes& in, const Bytes& out) {
    if (in.size() < kLayoutOffset + 1 || out.size() != in.size()) return false;
    return differOnlyIn(in, out, {kVersionField, {kAddressingOffset, kLayoutOffset + 1}}) &&
           in[kAddressingOffset] == 0 && in[kLayoutOffset] == 0 &&
           out[kAddressingOffset] == static_cast<uint8_t>(cb::CuckooAddressing::XorPowerOfTwo) &&
           out[kLayoutOffset] == static_cast<uint8_t>(cb::CuckooSlotLayout::Packed);
  }

  struct Place {
    uint64_t bucket1, bucket2;
    uint32_t fingerprint;
  };
  static Place placeOf(const Filter& f, const cb::KeyHash& h) {
    Place p{};
    f.locate(h, p.bucket1, p.bucket2, p.fingerprint);
    return p;
  }
  static uint32_t slotsHolding(const Filter& f, uint64_t bucket, uint32_t fingerprint) {
    uint32_t n = 0;
    for (uint32_t slot = 0; slot < f.bucketSize(); ++slot) n += cb::CuckooInspector::slotAt(f, bucket, slot) == fingerprint;
    return n;
  }
  static bool hasRoom(const Filter& f, uint64_t bucket) { return slotsHolding(f, bucket, 0) > 0; }

  static void inspect(const Filter& f, const std::vector<std::string>& keys) {
    const uint64_t buckets = f.bucketCount();
    FUZZ_CHECK(buckets >= 2);
    if (f.addressing() == cb::CuckooAddressing::XorPowerOfTwo) {
      FUZZ_CHECK((buckets & (buckets - 1)) == 0);
    } else {
      FUZZ_CHECK(f.addressing() == cb::CuckooAddressing::SubtractModulo && buckets % 2 == 0);
    }
    FUZZ_CHECK(f.bucketSize() == 2 || f.bucketSize() == 4 || f.bucketSize() == 8);
    FUZZ_CHECK(f.fingerprintBits() >= 4 && f.fingerprintBits() <= 32);
    FUZZ_CHECK(f.count() <= f.slotCount());
    const double load = f.loadFactor();
    FUZZ_CHECK(load >= 0.0 && load <= 1.0);
    for (const std::string& key : keys) {
      const Place p = placeOf(f, f.hashOf(bytesOf(key), key.size()));
      FUZZ_CHECK(p.bucket1 < buckets && p.bucket2 < buckets && p.bucket1 != p.bucket2);
      FUZZ_CHECK(p.fingerprint != 0 && (p.fingerprint >> 1 >> (f.fingerprintBits() - 1)) == 0);
      const bool expected = slotsHolding(f, p.bucket1, p.fingerprint) + slotsHolding(f, p.bucket2, p.fingerprint) > 0;
      FUZZ_CHECK(f.has(key) == expected);
    }
  }

  // Kick walks cost up to maxKicks steps per add.
  static bool exercisable(const Filter& f, uint32_t walkBudget) { return f.maxKicks() <= walkBudget; }

  struct BeforeAdd {
    bool room;
    uint64_t count;
  };
  static BeforeAdd beforeAdd(const Filter& f, const cb::KeyHash& h) {
    const Place p = placeOf(f, h);
    return {hasRoom(f, p.bucket1) || hasRoom(f, p.bucket2), f.count()};
  }
  // The add, through the inspector: the same walk as the registry's add
  // (the shadow filter of ops_filter takes the plain add, and the two must
  // stay byte for byte alike), with its steps recorded.
  static std::vector<cb::CuckooKick>& lastPath() {
    static std::vector<cb::CuckooKick> path;
    return path;
  }
  // Whether a recorded add walked since movedOthers() last answered.
  static bool& walked() {
    static bool value = false;
    return value;
  }
  static cb::Status add(Filter& f, cb::AnyFilter&, const cb::KeyHash& h) {
    const cb::Status status = cb::CuckooInspector::addRecordingKicks(f, h, lastPath());
    walked() = walked() || !lastPath().empty();
    return status;
  }
  // Stored: count + 1, and the walk's record (empty when a bucket had room)
  // ends at the free slot that took the last fingerprint. FULL: only when
  // both buckets were full, after exactly maxKicks steps.
  static void afterAdd(const Filter& f, const cb::KeyHash&, const BeforeAdd& before, const cb::Status& status) {
    const std::vector<cb::CuckooKick>& path = lastPath();
    if (status.isOk()) {
      FUZZ_CHECK(f.count() == before.count + 1);
      FUZZ_CHECK(path.empty() == before.room);
      if (!path.empty()) FUZZ_CHECK(cb::CuckooInspector::slotAt(f, path.back().bucket, path.back().slot) == path.back().fingerprint);
    } else {
      FUZZ_CHECK_MSG(!before.room, "FULL although one of the key's buckets had room");
      FUZZ_CHECK(f.count() == before.count);
      FUZZ_CHECK(path.size() == f.maxKicks());
    }
  }
  static bool movedOthers(const Filter&) { return std::exchange(walked(), false); }

  // count == model size, and (when a full check is due) for every
  // (fingerprint, bucket pair) of the model, the slots holding that
  // fingerprint in those two buckets equal the model keys that map there.
  static void checkModel(const Filter& f, const Model& model, bool, bool all) {
    FUZZ_CHECK_MSG(f.count() == model.size(), "count %llu, model %zu", static_cast<unsigned long long>(f.count()),
                   model.size());
    if (!all) return;
    std::map<std::tuple<uint32_t, uint64_t, uint64_t>, size_t> groups;
    for (const std::string& key : model.keys()) {
      const Place p = placeOf(f, f.hashOf(bytesOf(key), key.size()));
      FUZZ_CHECK(p.bucket1 != p.bucket2);
      groups[{p.fingerprint, std::min(p.bucket1, p.bucket2), std::max(p.bucket1, p.bucket2)}]++;
    }
    for (const auto& [where, expected] : groups) {
      const auto& [fingerprint, low, high] = where;
      const size_t held = slotsHolding(f, low, fingerprint) + slotsHolding(f, high, fingerprint);
      FUZZ_CHECK_MSG(held == expected, "fingerprint %u in buckets %llu/%llu: %zu slots, %zu keys", fingerprint,
                     static_cast<unsigned long long>(low), static_cast<unsigned long long>(high), held, expected);
    }
  }

  // Exactly the documented ranges: bucket size 2, 4 or 8; fingerprint bits
  // 4..32 (at least what a given rate needs), or derived from a valid rate; maxKicks up to 2^20. Semi-sorted
  // buckets (semiSorted = 1) need buckets of 4; buckets of 4 are semi-sorted
  // unless semiSorted = 0.
  static Expect expectCreate(const cb::CoreFilterOptions& o) {
    // A negative value of any of them is refused by name.
    if (o.bucketSize.value_or(0) < 0 || o.fingerprintBits.value_or(0) < 0 || o.maxKicks.value_or(0) < 0) {
      return Expect::Reject;
    }
    const int64_t b = o.bucketSize.value_or(4);
    const bool bucketOk = b == 2 || b == 4 || b == 8;
    // A rate needing more than 32 bits, or given bits below what a given rate
    // needs, contradict each other: refused, never clamped.
    const auto needed = [&](double rate) { return Filter::fingerprintBitsNeeded(rate, static_cast<uint32_t>(b)); };
    const int64_t bits = o.fingerprintBits.value_or(-1);
    const bool bitsOk = bits < 0
                            ? validRate(o.falsePositiveRate) && needed(o.falsePositiveRate) <= Filter::kMaxFingerprintBits
                            : bits >= Filter::kMinFingerprintBits && bits <= Filter::kMaxFingerprintBits &&
                                  (!(o.falsePositiveRate > 0.0 && o.falsePositiveRate < 1.0) ||
                                   static_cast<double>(bits) >= needed(o.falsePositiveRate));
    const bool kicksOk = o.maxKicks.value_or(0) <= static_cast<int64_t>(Filter::kMaxKicksLimit);
    const bool semiOk = !o.semiSorted.value_or(false) || b == 4;
    if (!(bucketOk && bitsOk && kicksOk && semiOk)) return Expect::Reject;
    return Expect::Accept;
  }
  static void afterCreate(const Filter& f, const cb::CoreFilterOptions& o) {
    FUZZ_CHECK(f.bucketSize() == static_cast<uint32_t>(o.bucketSize.value_or(4)));
    FUZZ_CHECK(f.slotCount() >= 2 * f.bucketSize());
    FUZZ_CHECK(f.fingerprintBits() >= 4 && f.fingerprintBits() <= 32);
    if (o.fingerprintBits) FUZZ_CHECK(f.fingerprintBits() == *o.fingerprintBits);
    if (o.maxKicks) FUZZ_CHECK(f.maxKicks() == *o.maxKicks);
    FUZZ_CHECK(f.addressing() == cb::CuckooAddressing::SubtractModulo);
    FUZZ_CHECK(f.semiSorted() == o.semiSorted.value_or(f.bucketSize() == 4));
    FUZZ_CHECK(f.targetFalsePositiveRate() > 0.0 && f.targetFalsePositiveRate() < 1.0);
  }
};

// ---- the scalable cuckoo filter: a chain of cuckoo filters

template <>
struct TypeChecks<cb::ScalableCuckooFilter> : DefaultChecks<cb::ScalableCuckooFilter> {
  using Filter = cb::ScalableCuckooFilter;
  // A FULL add ran the newest link's eviction walk (the chain adds links only up to its
  // growth limit): that link's walk state, at its place in the payload. The payload is the
  // links' blobs end to end, oldest first, so the newest ends where the checksum begins.
  // The link is a whole blob, so its own checksum (its last bytes) changes with it.
  static std::vector<Range> walkStateIn(const Filter& f, size_t byteCount) {
    const size_t newestEnd = byteCount - kChecksum;
    const size_t newestAt = newestEnd - f.link(f.linkCount() - 1).serializedSize();
    const Range inLink = TypeChecks<cb::CuckooFilter>::kWalkState;
    return {{newestAt + inLink.from, newestAt + inLink.to}, {newestEnd - kChecksum, newestEnd}};
  }
};

// ------------------------------------------------------------------ shared checks

// ---- the binary fuse filter: static, a geometry and packed fingerprints

template <>
struct TypeChecks<cb::BinaryFuseFilter> : DefaultChecks<cb::BinaryFuseFilter> {
  using Filter = cb::BinaryFuseFilter;
  // The geometry a reader accepted is one every lookup stays inside (the
  // sanitizers catch a read past the table); the rate is 2^-f, 0 when empty.
  static void inspect(const Filter& f, const std::vector<std::string>& keys) {
    FUZZ_CHECK(f.arity() == 3 || f.arity() == 4);
    FUZZ_CHECK(f.fingerprintBits() >= 4 && f.fingerprintBits() <= 32);
    const uint32_t length = f.segmentLength();
    FUZZ_CHECK(length >= 1 && length <= Filter::kMaxSegmentLength && (length & (length - 1)) == 0);
    FUZZ_CHECK(f.count() <= f.slotCount());
    FUZZ_CHECK(f.byteLength() * 8 >= f.slotCount() * f.fingerprintBits());
    FUZZ_CHECK(f.byteLength() * 8 < f.slotCount() * f.fingerprintBits() + 64);
    if (f.segmentCount() == 0) {
      FUZZ_CHECK(f.slotCount() == 0 && f.estimatedFalsePositiveRate() == 0.0);
      for (const std::string& key : keys) FUZZ_CHECK(!f.has(key));
    } else {
      FUZZ_CHECK(f.estimatedFalsePositiveRate() == std::ldexp(1.0, -static_cast<int>(f.fingerprintBits())));
      for (const std::string& key : keys) (void)f.has(key);
    }
    FUZZ_CHECK(f.slotAt(f.slotCount()) == 0);  // out of range reads 0
  }
  static void afterClear(const Filter& f) { FUZZ_CHECK(f.segmentCount() == 0 && f.count() == 0); }
  // fingerprintBits 4..32, or unset with a rate in [2^-32, 1); with bits
  // set, a rate is optional (0) but must be a rate if given; arity 3 or 4 or
  // unset; no cuckoo option.
  static Expect expectBuild(const cb::CoreFilterOptions& o) {
    if (o.bucketSize || o.maxKicks || o.semiSorted) return Expect::Reject;
    if (o.arity && *o.arity != 3 && *o.arity != 4) return Expect::Reject;
    if (o.fingerprintBits) {
      if (*o.fingerprintBits < 4 || *o.fingerprintBits > 32) return Expect::Reject;
      return o.falsePositiveRate == 0.0 || validRate(o.falsePositiveRate) ? Expect::Accept : Expect::Reject;
    }
    if (!validRate(o.falsePositiveRate)) return Expect::Reject;
    return Filter::fingerprintBitsFor(o.falsePositiveRate) == 0 ? Expect::Reject : Expect::Accept;
  }
};

// The bytes of `filter`'s serialized form (`byteCount` long) that a FULL add may change.
inline std::vector<Range> walkStateOf(const cb::AnyFilter& filter, size_t byteCount) {
  std::vector<Range> range;
  withConcrete(filter, [&](const auto& concrete) {
    range = TypeChecks<ClassOf<decltype(concrete)>>::walkStateIn(concrete, byteCount);
  });
  return range;
}

// The shared read-only invariants of any filter (read or built), then the
// type's own: registered type, rate estimate in [0, 1], finite named
// parameters, the hash-once contract (the KeyHash form is the byte form), and
// positions() through AnyFilter equal to the concrete filter's answer.
inline void inspectFilter(const cb::AnyFilter& filter, const std::vector<std::string>& keys) {
  const cb::FilterTypeInfo* info = registeredInfo(filter.type());
  FUZZ_CHECK(info != nullptr);
  FUZZ_CHECK(filter.header().type == filter.type());
  const double estimate = filter.estimatedFalsePositiveRate();
  FUZZ_CHECK(estimate >= 0.0 && estimate <= 1.0);
  for (const auto& [name, value] : filter.parameters()) {
    FUZZ_CHECK(!name.empty());
    FUZZ_CHECK_MSG(std::isfinite(value), "parameter %s is %f", name.c_str(), value);
  }
  for (const std::string& key : keys) {
    const cb::KeyHash h = hashOf(filter, key);
    const cb::KeyHash expected =
        cb::hashKeyWith(filter.header().hashAlgorithm, bytesOf(key), key.size(), filter.header().seed);
    FUZZ_CHECK(h.low == expected.low && h.high == expected.high);
    FUZZ_CHECK(filter.has(h) == filter.has(bytesOf(key), key.size()));
  }
  withConcrete(filter, [&](const auto& concrete) {
    using Filter = ClassOf<decltype(concrete)>;
    TypeChecks<Filter>::inspect(concrete, keys);
  });
}

// One add through AnyFilter with the type's checks around it. The status is
// Ok (the key is then found) or Full, or Unsupported for a static type; the
// caller checks what a Full add may change (walkStateOf) and that an
// Unsupported one changed nothing.
inline cb::Status checkedAdd(cb::AnyFilter& filter, const cb::KeyHash& h) {
  cb::Status status;
  withConcrete(filter, [&](auto& concrete) {
    using Filter = ClassOf<decltype(concrete)>;
    const auto before = TypeChecks<Filter>::beforeAdd(concrete, h);
    status = TypeChecks<Filter>::add(concrete, filter, h);
    // A static type (binary fuse) has no add: Unsupported, and the caller
    // checks that nothing changed, as for Full.
    const bool staticType = cb::IsStaticFilter<Filter>::value;
    FUZZ_CHECK_MSG(staticType ? status.code() == cb::StatusCode::Unsupported
                              : status.isOk() || status.code() == cb::StatusCode::Full,
                   "add: %s %s", cb::statusCodeName(status.code()), status.message().c_str());
    if (status.isOk()) FUZZ_CHECK(filter.has(h));
    TypeChecks<Filter>::afterAdd(concrete, h, before, status);
  });
  return status;
}

// Reads `bytes` (a filter this build just wrote) back: accepted, the same
// type, written back byte for byte.
inline std::unique_ptr<cb::AnyFilter> readBack(const Bytes& bytes, const char* what) {
  cb::Result<std::unique_ptr<cb::AnyFilter>> copy = cb::deserializeFilter(bytes.data(), bytes.size());
  FUZZ_CHECK_MSG(copy.isOk(), "%s: %s", what, copy.status().message().c_str());
  FUZZ_CHECK_MSG(copy.value()->serialize() == bytes, "%s: not written back byte for byte", what);
  return std::move(copy).value();
}

// The canonical-encoding rule for accepted bytes `input` and what the filter
// read from them writes (`output`): version-2 input comes back byte for
// byte; older input comes back as version 2 with only the version field, the
// checksum and what the type upgrades changed (TypeChecks::upgradedFromV1),
// and that output reads back byte for byte. Returns the output read back.
inline std::unique_ptr<cb::AnyFilter> checkWrittenBack(cb::FilterType type, const Bytes& input, const Bytes& output) {
  const uint64_t version = readLE(input.data() + 4, 2);
  FUZZ_CHECK(version >= cb::kOldestReadableFormatVersion && version <= cb::kFormatVersion);
  if (version == cb::kFormatVersion) {
    FUZZ_CHECK_MSG(output == input, "accepted version-%llu bytes are not written back byte for byte",
                   static_cast<unsigned long long>(version));
  } else {
    FUZZ_CHECK(output.size() >= kHeader && readLE(output.data() + 4, 2) == cb::kFormatVersion);
    bool upgraded = false;
    withFilterClass(type, [&](auto tag) {
      upgraded = TypeChecks<typename decltype(tag)::Filter>::upgradedFromV1(input, output);
    });
    FUZZ_CHECK_MSG(upgraded, "version-%llu bytes written back as version %d changed more than the type's upgrade",
                   static_cast<unsigned long long>(version), static_cast<int>(cb::kFormatVersion));
  }
  return readBack(output, "written-back bytes");
}

}  // namespace cuckoo_bloom_fuzz
