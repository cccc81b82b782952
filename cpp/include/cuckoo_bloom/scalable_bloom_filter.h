// A Bloom filter that grows: a chain of classic Bloom filters (Almeida et
// al. 2007; the schedule is in filter_chain.h).
//
// Link i is a BloomFilter sized for n_i = ceil(n_{i-1} * growth) keys at
//   e_i = P (1 - r) r^i            (r = tightening, 0 < r < 1),
// so sum(e_i) = P (1 - r^(i+1)) < P: the compound rate stays under the target
// however far the chain grows. Each link costs 1.44 log2(1/e_i) bits per key,
// i.e. 1.44 (log2(1/(P (1 - r))) + i log2(1/r)): a link has log2(1/r) more bits
// per key than the one before. Almeida et al. recommend r in 0.8..0.9 for
// growth 2; r = 0.9 minimises the bits at 10,000x growth within 1% of the best
// r (0.93), where r = 0.5 would cost 2.1x as many bits (docs/SCALABLE.md has
// the arithmetic). Defaults: growth 2, tightening 0.9.
//
// Why classic Bloom links and not blocked Bloom: the chain's cost is bits
// (later links run at ever lower rates), and the blocked filter needs more
// bits per key the lower the rate (about 1.2x classic at 1%, more below);
// every link but the newest few is small enough to stay in cache, so the
// extra probes of the classic filter cost little time.
//
// add(): a key the chain already reports present is not added again (the
// answer would not change); otherwise it goes into the newest link, after a
// new link is made when the newest already holds its capacity. So count() is
// the keys added that were new to the chain (a key reported present, by a
// false positive too, is neither stored nor counted), and it is also the sum
// of the links' counts (each link counts every add it receives). A new link that cannot be made (kMaxChainLinks reached, or the
// tables would exceed kMaxTableBytes) refuses the add with Full or
// OutOfMemory; nothing changes and every key added before is still found.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuckoo_bloom/bloom_filter.h"
#include "cuckoo_bloom/filter_chain.h"

namespace cuckoo_bloom {

struct ScalableBloomFilterOptions {
  uint64_t initialCapacity = 0;    // keys the first link is sized for (>= 1)
  double falsePositiveRate = 0.0;  // the compound target P, in (0, 1)
  double growth = 2.0;             // s: each link holds s times the keys of the one before, [1, 1024]
  double tightening = 0.9;         // r: each link's rate is r times the one before, (0, 1)
  uint64_t seed = 0;
};

class ScalableBloomFilter : public KeyedFilter<ScalableBloomFilter> {
 public:
  using KeyedFilter::add;
  using KeyedFilter::has;
  static constexpr FilterType kType = FilterType::ScalableBloom;
  static constexpr bool kSupportsRemove = false;
  static constexpr bool kSupportsUnion = true;
  static constexpr double kDefaultGrowth = 2.0;
  static constexpr double kDefaultTightening = 0.9;

  // The parameter block (docs/FORMAT.md, 32 bytes): initialCapacity u64,
  // growth f64, tightening f64, linkCount u32, reserved u32.
  struct Params {
    uint64_t initialCapacity = 0;
    uint64_t growthBits = 0;
    uint64_t tighteningBits = 0;
    uint32_t linkCount = 0;
    template <typename Fields>
    void fields(Fields& f) {
      f(initialCapacity);
      f(growthBits);
      f(tighteningBits);
      f(linkCount);
      f.reserved(4);
    }
  };

  static Result<ScalableBloomFilter> create(const ScalableBloomFilterOptions& options);
  // capacity is the initial capacity; growth and tightening 0 mean the defaults.
  static Result<ScalableBloomFilter> createFrom(const FilterOptions& options);
  static Result<ScalableBloomFilter> deserialize(const uint8_t* data, size_t length) {
    return readFilter<ScalableBloomFilter>(data, length);
  }
  static Result<ScalableBloomFilter> fromBlob(const DecodedBlob& blob, const Params& params);

  // The target rate of link `index` for a chain of target `rate`: P (1 - r) r^index.
  static double linkFalsePositiveRate(double rate, double tightening, uint32_t index);

  // Ok; Full or OutOfMemory when a needed new link cannot be made (nothing changed).
  Status add(const KeyHash& hash);
  bool has(const KeyHash& hash) const { return chain_.has(hash); }
  // Link by link: needs the same options (initial capacity, rate, growth,
  // tightening, seed) and the same number of links; InvalidArgument otherwise.
  Status unionWith(const ScalableBloomFilter& other);
  void clear();

  double growth() const { return doubleFromBits(params_.growthBits); }
  double tightening() const { return doubleFromBits(params_.tighteningBits); }
  uint64_t initialCapacity() const { return params_.initialCapacity; }
  uint32_t linkCount() const { return static_cast<uint32_t>(chain_.links().size()); }
  const BloomFilter& link(uint32_t index) const { return chain_.links()[index]; }
  // 1 - prod(1 - e_i) over the links' estimates.
  double estimatedFalsePositiveRate() const { return chain_.estimatedFalsePositiveRate(); }
  size_t byteLength() const { return chain_.byteLength(); }
  template <typename Visit>
  void parameters(Visit&& visit) const {
    visit("links", linkCount());
    visit("initialCapacity", static_cast<double>(initialCapacity()));
    visit("growth", growth());
    visit("tightening", tightening());
  }

  std::vector<uint8_t> serialize() const;

 private:
  ScalableBloomFilter() = default;
  Status appendLink();

  Params params_;
  LinkChain<BloomFilter> chain_;
};

}  // namespace cuckoo_bloom
