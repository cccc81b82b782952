// The toy filter of tests/architecture/toy-type.test.mjs: a Bloom filter with
// one hash (m = sizeFactor * n / p bits, so n keys set at most a fraction p of
// them), whose only job is to prove docs/ARCHITECTURE.md's checklist: a type
// with one option of its own, added by new files and the listed edits only.
#pragma once

#include <cstdint>

#include "cuckoo_bloom/bloom/word_array_filter.h"

namespace cuckoo_bloom {

// The parameter block: bitCount u64.
struct ToyFilterParams {
  uint64_t bitCount = 0;
  CUCKOO_BLOOM_PARAMS_FIELDS(0, bitCount)
};

class ToyFilter : public WordArrayFilter<ToyFilter, ToyFilterParams> {
 public:
  using KeyedFilter::add;
  using KeyedFilter::has;

  // The options it takes beyond the shared three (filter_options.h).
  static constexpr OptionId kOptions[] = {OptionId::SizeFactor};
  static constexpr double kMaxSizeFactor = 16.0;
  // Its registry facts (core/type_facts.h): where its estimate comes from
  // (required), and its option's range and default (as create() checks them).
  // It declares no growth and no growing stand-in: from a pipe the CLI asks
  // for --capacity.
  static constexpr EstimateSource kEstimateSource = EstimateSource::BitsSet;
  static constexpr OptionLimit kOptionLimits[] = {{OptionId::SizeFactor, 1.0, true, kMaxSizeFactor, true, false, 1.0}};

  static Result<ToyFilter> create(const FilterOptions& options, double sizeFactor);
  static Result<ToyFilter> createFrom(const CoreFilterOptions& options);
  static Result<ToyFilter> fromBlob(const DecodedBlob& blob, const Params& params);

  void add(const KeyHash& hash);
  bool has(const KeyHash& hash) const;
  Status unionWith(const ToyFilter& other);

  uint64_t bitCount() const { return params_.bitCount; }
  double estimatedFalsePositiveRate() const {
    return static_cast<double>(popcount()) / static_cast<double>(params_.bitCount);
  }
  template <typename Visit>
  void parameters(Visit&& visit) const {
    visit("bitCount", static_cast<double>(bitCount()));
  }

 private:
  friend WordArrayFilter;
  ToyFilter() = default;
};

}  // namespace cuckoo_bloom
