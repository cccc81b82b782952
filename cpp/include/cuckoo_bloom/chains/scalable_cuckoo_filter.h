// A cuckoo filter that grows: a chain of cuckoo filters (schedule in
// link_chain.h). A new link is made when the newest link refuses an insert
// (its failed walk is undone exactly, so nothing is lost), and the key goes
// into the new, empty link.
//
// The false-positive budget. A lookup in a link compares against at most 2b
// fingerprints of f bits, each equal by chance with probability 1/(2^f - 1),
// so a link's rate is at most w(f) = 2b / (2^f - 1) at any load. Link i gets
// the fraction (1 - r) of what is left of the target P:
//   budget_i = (1 - r) (P - sum_{j<i} w(f_j)),   f_i = least f in 4..32 with w(f) <= budget_i,
// so sum(w(f_i)) < P for every chain length (each link spends at most
// (1 - r) of the remainder), and the whole-bit rounding of f is not wasted:
// what a link does not spend is left to the next ones. f is found by
// comparing w(f) (exact arithmetic), not with log2, so every build derives the
// same links. r = tightening, default 0.85: at 10,000x growth it gives the
// fewest bits at both 1% and 0.1% among 0.5..0.95 (docs/SCALABLE.md).
//
// count() is fingerprints stored, as for CuckooFilter (a key added twice
// counts twice), the sum of the links' counts.
//
// remove(): a key may match in several links (its own copy, or another key's
// fingerprint that collides with it in another link), and which match is the
// key's own copy is unknowable: deleting from the wrong link would delete
// another key's only copy (a false negative). So remove() deletes only when
// the key matches in exactly one link, which must then hold its copy (the
// key was added, and nowhere else matches); that is the static filter's own
// rule applied to one link, and it never deletes another key's only copy.
// When it matches in several links nothing is deleted and remove() reports
// Unsupported ("ambiguous"): the key stays present (a false positive, never a
// false negative). That happens to a key added once with probability at most
// P (it must falsely match another link), and always to a key stored in two
// links (added twice across a growth).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuckoo_bloom/cuckoo/cuckoo_filter.h"
#include "cuckoo_bloom/chains/chained_filter_base.h"

namespace cuckoo_bloom {

struct ScalableCuckooFilterOptions {
  uint64_t initialCapacity = 0;    // keys the first link is sized for (>= 1)
  double falsePositiveRate = 0.0;  // the compound target P, in (0, 1)
  double growth = kDefaultChainGrowth;  // [1, 1024]
  double tightening = 0.85;        // (0, 1) (ScalableCuckooFilter::kDefaultTightening)
  uint32_t bucketSize = 4;         // 2, 4 or 8 (4: semi-sorted buckets, as CuckooFilter's default)
  uint64_t seed = 0;
};

// The parameter block (docs/FORMAT.md, 32 bytes): initialCapacity u64,
// growth f64, tightening f64, linkCount u32, bucketSize u8, 3 reserved bytes.
struct ScalableCuckooFilterParams : GrowthParams {
  uint8_t bucketSize = 0;
  CUCKOO_BLOOM_PARAMS_FIELDS(3, growthFields(), bucketSize)
};

class ScalableCuckooFilter : public GrowingFilter<ScalableCuckooFilter, CuckooFilter, ScalableCuckooFilterParams> {
 public:
  using KeyedFilter::add;
  using KeyedFilter::remove;
  static constexpr double kDefaultTightening = 0.85;
  static constexpr uint32_t kLinkMaxKicks = 500;
  // Registry facts (core/type_facts.h); kGrowth and kDefaultCapacity come from GrowingFilter.
  static constexpr EstimateSource kEstimateSource = EstimateSource::FingerprintsStored;

  // The options it takes beyond the shared three (filter_options.h): of the
  // cuckoo options only bucketSize (fingerprint bits come from the budget,
  // every link uses the default kicks and layout).
  static constexpr OptionId kOptions[] = {OptionId::Growth, OptionId::Tightening, OptionId::BucketSize};
  static constexpr OptionLimit kOptionLimits[] = {growthLimit(), tighteningLimit(kDefaultTightening)};
  static Result<ScalableCuckooFilter> create(const ScalableCuckooFilterOptions& options);
  // capacity is the initial capacity; growth and tightening not given: the defaults.
  static Result<ScalableCuckooFilter> createFrom(const CoreFilterOptions& options);
  static Result<ScalableCuckooFilter> fromBlob(const DecodedBlob& blob, const Params& params);

  // w(f) = 2b / (2^f - 1): a link's worst-case rate at any load.
  static double worstLinkRate(uint32_t fingerprintBits, uint32_t bucketSize);
  // The budget and fingerprint bits of link `index` (see above); false when
  // no f <= 32 meets the budget.
  static bool linkSchedule(double rate, double tightening, uint32_t bucketSize, uint32_t index, double& budget,
                           uint32_t& fingerprintBits);

  // Ok; Full or OutOfMemory only when a needed new link cannot be made
  // (nothing changed, every stored key still found).
  Status add(const KeyHash& hash);
  // Ok (one copy deleted from the only link that matches), NotFound (no link
  // matches), or Unsupported when several links match (nothing deleted; see above).
  Status remove(const KeyHash& hash);
  void clear();

  uint32_t bucketSize() const { return params_.bucketSize; }
  template <typename Visit>
  void parameters(Visit&& visit) const {
    GrowingFilter::parameters(visit);
    visit("bucketSize", bucketSize());
  }

 private:
  // The chain base makes the filter it reads (readLinks) and, for GrowingFilter,
  // each link the chain grows by (appendLink, through makeLink).
  friend ChainedFilter;
  ScalableCuckooFilter() = default;
  Result<CuckooFilter> makeLink(uint32_t index, uint64_t capacity) const;
};



}  // namespace cuckoo_bloom
