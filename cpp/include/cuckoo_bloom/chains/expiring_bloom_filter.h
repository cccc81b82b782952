// A filter that forgets: "was this key seen in the last `window` units?"
// (type 19, a composite of G Bloom filters, the generations, rotated by the
// caller's clock).
//
// Time is whatever the caller's clock counts (milliseconds for JavaScript's
// default Date.now); the filter never reads a clock itself, so native and
// wasm builds, tests with a fake clock and replays all behave the same.
//
// The rotation. Each generation lasts L = window / (G - 1) units. The newest
// generation covers [start, start + L); advance(now) with now >= start + L
// drops the r = floor((now - start) / L) oldest generations (all G when
// r >= G), makes r empty ones newest, and moves start forward by r * L, so
// start <= now < start + L again. add() writes into the newest generation
// only; has() asks all G.
//
// The guarantee. A key added at time t (start <= t < start + L) lives in its
// generation until G more generation starts have passed, i.e. until
// start + G L. Since t < start + L, that is more than (G - 1) L = window
// after t, and since t >= start, at most G L = window + L after t:
//   found at every now in [t, t + window]  (no false negative in the window),
//   gone at every now >= t + window + L    (forgotten after window + one generation).
// Adding a key again refreshes it (it goes into the newest generation).
//
// A clock reading before `start` (a clock stepped back) changes nothing: the
// filter never rotates backwards, so it never forgets early; rotation resumes
// once the clock passes start + L. A reading that is not finite is
// InvalidArgument.
//
// Sizing. Every generation is a BloomFilter for `capacity` keys (the keys
// added within one generation, L units) at rate P / G: a query asks G
// filters, and 1 - prod(1 - e_i) <= sum(e_i) = P (a union bound, as in
// link_chain.h). Every generation shares the filter's seed, so a key is
// hashed once and the same KeyHash probes every generation.
//
// Why classic Bloom generations and not blocked Bloom: each generation runs
// at G times the target's rate budget, i.e. a lower rate, where the blocked
// filter needs ever more bits per key than the classic one (about 1.2x at 1%,
// more below, blocked_bloom_filter.h); and an absent key (most queries of a
// dedupe stream) stops at the first zero bit of each generation, about two
// reads in a half-full table, so the classic filter's lookup costs about 2 G
// memory reads, not k G.
//
// count(): the adds held by the live generations, as BloomFilter counts them
// (a key added in two generations counts in both; dropped generations take
// their adds with them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/chains/chained_filter_base.h"

namespace cuckoo_bloom {

struct ExpiringBloomFilterOptions {
  uint64_t capacity = 0;           // keys added within one generation (window / (generations - 1) units)
  double falsePositiveRate = 0.0;  // the compound target P over all generations, in (0, 1)
  double window = 0.0;             // units a key is remembered for at least, > 0
  uint32_t generations = 4;        // G, 2..kMaxGenerations
  double startTime = 0.0;          // the caller's clock reading now: the first generation starts here
  uint64_t seed = 0;
};

// The parameter block (docs/FORMAT.md, 24 bytes): window f64, generation
// start f64, generation count u32, reserved u32. The payload is the
// generations' complete Bloom blobs, oldest first, newest last (the links of
// the chain).
struct ExpiringBloomFilterParams {
  uint64_t windowBits = 0;
  uint64_t generationStartBits = 0;
  uint32_t generationCount = 0;
  CUCKOO_BLOOM_PARAMS_FIELDS(4, windowBits, generationStartBits, generationCount)
};

class ExpiringBloomFilter : public ChainedFilter<ExpiringBloomFilter, BloomFilter, ExpiringBloomFilterParams> {
 public:
  using KeyedFilter::add;
  static constexpr uint32_t kDefaultGenerations = 4;
  static constexpr uint32_t kMaxGenerations = 64;
  // One hour in milliseconds, the unit of JavaScript's default clock.
  static constexpr double kDefaultWindow = 3600000.0;
  // Registry fact (core/type_facts.h): each generation is a Bloom filter.
  static constexpr EstimateSource kEstimateSource = EstimateSource::BitsSet;

  // The options it takes beyond the shared three (filter_options.h).
  static constexpr OptionId kOptions[] = {OptionId::Window, OptionId::Generations, OptionId::StartTime};
  // The ranges validateRotation checks (the start time has no default here:
  // JavaScript reads it from the clock).
  static constexpr OptionLimit kOptionLimits[] = {
      {OptionId::Window, 0.0, false, kUnbounded, false, false, kDefaultWindow},
      {OptionId::Generations, 2.0, true, static_cast<double>(kMaxGenerations), true, true,
       static_cast<double>(kDefaultGenerations)},
  };
  static Result<ExpiringBloomFilter> create(const ExpiringBloomFilterOptions& options);
  // window and generations not given: the defaults; startTime not given: 0.
  static Result<ExpiringBloomFilter> createFrom(const CoreFilterOptions& options);
  static Result<ExpiringBloomFilter> fromBlob(const DecodedBlob& blob, const Params& params);

  // window / (generations - 1), the length of one generation.
  static double generationLengthFor(double window, uint32_t generations) {
    return window / static_cast<double>(generations - 1);
  }

  // Rotates to the clock reading `now` (see the top of this file): returns
  // the number of generations dropped (0 when now is still in the newest
  // generation, or before it). InvalidArgument when now is not finite.
  Result<uint32_t> advance(double now);

  // Into the newest generation. Fails (Full, nothing changed) only when the
  // count is already 2^64 - 1, which only crafted bytes reach.
  Status add(const KeyHash& hash);
  // Empties every generation (the clock and the sizing stay).
  void clear();

  double window() const { return doubleFromBits(params_.windowBits); }
  uint32_t generationCount() const { return params_.generationCount; }
  double generationLength() const { return generationLengthFor(window(), generationCount()); }
  // When the newest generation started, in the caller's units.
  double generationStart() const { return doubleFromBits(params_.generationStartBits); }
  // Generation `age` (0 the newest).
  const BloomFilter& generation(uint32_t age) const {
    return chain_.links()[chain_.links().size() - 1 - age];
  }
  template <typename Visit>
  void parameters(Visit&& visit) const {
    visit("window", window());
    visit("generations", generationCount());
    visit("generationLength", generationLength());
    visit("generationStart", generationStart());
    visit("bitsPerGeneration", static_cast<double>(generation(0).bitCount()));
    visit("hashCount", generation(0).hashCount());
  }

  // The parameter block (the generations' blobs follow it).
  std::vector<uint8_t> encodedParams() const { return encodeParams(params_); }

 private:
  friend ChainedFilter;  // readLinks makes the filter it reads
  ExpiringBloomFilter() = default;
  // chain_ holds the generations oldest first, newest last (the order of the bytes).
};

}  // namespace cuckoo_bloom
