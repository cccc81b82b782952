// A Bloom filter that grows: a chain of classic Bloom filters (Almeida et
// al. 2007; the schedule is in link_chain.h).
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
// add(): a key the newest link already reports present is not added again
// (the answer would not change); otherwise it goes into the newest link,
// after a new link is made when the newest already holds its capacity. Only
// the newest link is asked: asking every link would make each add an absent
// lookup of the whole chain. So count() is the keys stored: a repeat is
// counted once per link that stores it (once, unless the chain grew between
// the first add and the repeat; a key the newest link reports present by a
// false positive is neither stored nor counted), and it is also the sum of the
// links' counts. addIfNew() asks the whole chain first, so it stores and
// counts only keys new to the chain. A new link that cannot be made
// (kMaxChainLinks reached, or the tables would exceed kMaxTableBytes) refuses
// the add with Full or OutOfMemory; nothing changes and every key added
// before is still found.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/chains/chained_filter_base.h"

namespace cuckoo_bloom {

struct ScalableBloomFilterOptions {
  uint64_t initialCapacity = 0;    // keys the first link is sized for (>= 1)
  double falsePositiveRate = 0.0;  // the compound target P, in (0, 1)
  double growth = kDefaultChainGrowth;  // s: each link holds s times the keys of the one before, [1, 1024]
  double tightening = 0.9;         // r (ScalableBloomFilter::kDefaultTightening): each link's rate is r times the one before, (0, 1)
  uint64_t seed = 0;
};

// The parameter block (docs/FORMAT.md, 32 bytes): initialCapacity u64,
// growth f64, tightening f64, linkCount u32, reserved u32.
struct ScalableBloomFilterParams : GrowthParams {
  CUCKOO_BLOOM_PARAMS_FIELDS(4, growthFields())
};

class ScalableBloomFilter : public GrowingFilter<ScalableBloomFilter, BloomFilter, ScalableBloomFilterParams> {
 public:
  using KeyedFilter::add;
  static constexpr double kDefaultTightening = 0.9;
  // Registry facts (core/type_facts.h); kGrowth and kDefaultCapacity come from GrowingFilter.
  static constexpr EstimateSource kEstimateSource = EstimateSource::BitsSet;

  // The options it takes beyond the shared three (filter_options.h).
  static constexpr OptionId kOptions[] = {OptionId::Growth, OptionId::Tightening};
  static constexpr OptionLimit kOptionLimits[] = {growthLimit(), tighteningLimit(kDefaultTightening)};
  static Result<ScalableBloomFilter> create(const ScalableBloomFilterOptions& options);
  // capacity is the initial capacity; growth and tightening not given: the defaults.
  static Result<ScalableBloomFilter> createFrom(const CoreFilterOptions& options);
  static Result<ScalableBloomFilter> fromBlob(const DecodedBlob& blob, const Params& params);

  // The target rate of link `index` for a chain of target `rate`: P (1 - r) r^index.
  static double linkFalsePositiveRate(double rate, double tightening, uint32_t index);

  // Ok; Full or OutOfMemory when a needed new link cannot be made (nothing changed).
  Status add(const KeyHash& hash);
  // Link by link: needs the same options (initial capacity, rate, growth,
  // tightening, seed) and the same number of links; InvalidArgument otherwise.
  Status unionWith(const ScalableBloomFilter& other);
  void clear();

 private:
  // The chain base makes the filter it reads (readLinks) and, for GrowingFilter,
  // each link the chain grows by (appendLink, through makeLink).
  friend ChainedFilter;
  ScalableBloomFilter() = default;
  Result<BloomFilter> makeLink(uint32_t index, uint64_t capacity) const;
};



}  // namespace cuckoo_bloom
