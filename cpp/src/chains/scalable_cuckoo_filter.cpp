#include "cuckoo_bloom/chains/scalable_cuckoo_filter.h"

#include <algorithm>
#include <cmath>

namespace cuckoo_bloom {
double ScalableCuckooFilter::worstLinkRate(uint32_t fingerprintBits, uint32_t bucketSize) {
  return 2.0 * bucketSize / (std::ldexp(1.0, static_cast<int>(fingerprintBits)) - 1.0);
}

bool ScalableCuckooFilter::linkSchedule(double rate, double tightening, uint32_t bucketSize, uint32_t index,
                                        double& budget, uint32_t& fingerprintBits) {
  double remaining = rate;
  for (uint32_t i = 0;; ++i) {
    budget = remaining * (1.0 - tightening);
    fingerprintBits = CuckooFilter::kMinFingerprintBits;
    while (worstLinkRate(fingerprintBits, bucketSize) > budget) {
      if (++fingerprintBits > CuckooFilter::kMaxFingerprintBits) return false;
    }
    if (i == index) return true;
    remaining -= worstLinkRate(fingerprintBits, bucketSize);
  }
}

Result<ScalableCuckooFilter> ScalableCuckooFilter::createFrom(const CoreFilterOptions& options) {
  ScalableCuckooFilterOptions chain;
  takeGrowthOptions(options, chain);
  // Out of 0..255: a size create() refuses by name (2, 4 or 8).
  if (options.bucketSize) chain.bucketSize = static_cast<uint32_t>(std::clamp<int64_t>(*options.bucketSize, 0, 255));
  return create(chain);
}

Result<ScalableCuckooFilter> ScalableCuckooFilter::create(const ScalableCuckooFilterOptions& options) {
  Status valid = checkGrowthOptions(options);
  if (!valid.isOk()) return valid;
  if (options.bucketSize != 2 && options.bucketSize != 4 && options.bucketSize != 8) {
    return Status::invalidArgument("bucketSize must be 2, 4 or 8, got " + std::to_string(options.bucketSize));
  }
  ScalableCuckooFilter filter;
  filter.params_.bucketSize = static_cast<uint8_t>(options.bucketSize);
  return withFirstLink(std::move(filter), options);
}

Result<CuckooFilter> ScalableCuckooFilter::makeLink(uint32_t index, uint64_t capacity) const {
  double budget = 0.0;
  uint32_t fingerprintBits = 0;
  if (!linkSchedule(targetFalsePositiveRate(), tightening(), bucketSize(), index, budget, fingerprintBits)) {
    return Status::full("scalable-cuckoo filter: link " + std::to_string(index) +
                        " would need fingerprints of more than 32 bits to stay within the target rate");
  }
  CuckooFilterOptions options;
  options.capacity = capacity;
  options.falsePositiveRate = budget;
  options.bucketSize = bucketSize();
  options.fingerprintBits = fingerprintBits;
  options.maxKicks = kLinkMaxKicks;
  options.seed = seed();
  // A link is filled until an insert fails, so it is sized to the load where
  // that happens (a rated load's headroom would only make every link larger).
  options.load = CuckooFilter::maxLoadFactor(bucketSize());
  return CuckooFilter::create(options);
}

Status ScalableCuckooFilter::add(const KeyHash& hash) {
  Status added = chain_.links().back().add(hash);
  if (added.code() == StatusCode::Full) {
    // The newest link already holds this fingerprint in every slot of its two
    // buckets: the key is a repeat at its copy limit, which a new link (twice
    // the size) would only postpone. Refused like a plain cuckoo filter's
    // repeat; the key is still found, nothing changed.
    const CuckooFilter& newest = chain_.links().back();
    if (newest.copiesOf(hash) >= 2 * newest.bucketSize()) return added;
    // The newest link undid its walk exactly; the key goes into a new, empty
    // link, where its first bucket has room.
    Status grown = appendLink();
    if (!grown.isOk()) return grown;
    added = chain_.links().back().add(hash);
  }
  if (added.isOk()) ++header_.itemCount;
  return added;
}

Status ScalableCuckooFilter::remove(const KeyHash& hash) {
  std::vector<CuckooFilter>& links = chain_.links();
  size_t matching = links.size();
  uint32_t matches = 0;
  for (size_t i = 0; i < links.size(); ++i) {
    if (links[i].has(hash)) {
      matching = i;
      ++matches;
    }
  }
  if (matches == 0) return Status::notFound("no matching fingerprint in any link");
  if (matches > 1) {
    return Status::unsupported("the key matches in " + std::to_string(matches) +
                               " links of the chain; which is its own copy is unknowable, and deleting another "
                               "key's only copy would make it a false negative, so nothing was removed (the key is "
                               "still reported present)");
  }
  Status removed = links[matching].remove(hash);
  if (removed.isOk()) --header_.itemCount;
  return removed;
}

void ScalableCuckooFilter::clear() {
  // Back to a first link as created, its eviction walk's random state
  // included: a cleared chain is byte for byte a new one (a link's walk
  // state sits inside the chain's bytes, where no reader can tell it apart).
  Result<CuckooFilter> first = makeLink(0, params_.initialCapacity);
  if (first.isOk()) {
    chain_.links().clear();
    chain_.links().push_back(std::move(first).value());
  } else {
    chain_.clearToFirstLink();  // the first link was made once with these options; kept if remaking fails
  }
  header_.itemCount = 0;
  header_.capacity = chain_.totalCapacity();
}

Result<ScalableCuckooFilter> ScalableCuckooFilter::fromBlob(const DecodedBlob& blob, const Params& params) {
  if (params.bucketSize != 2 && params.bucketSize != 4 && params.bucketSize != 8) {
    return Status::corrupt("scalable-cuckoo bucket size must be 2, 4 or 8");
  }
  LinkBlobs blobs;
  Status valid = readGrowthParams(blob, params, blobs);
  if (!valid.isOk()) return valid;
  const double growth = doubleFromBits(params.growthBits);
  const double tightening = doubleFromBits(params.tighteningBits);
  uint64_t expectedCapacity = params.initialCapacity;
  return readLinks(blob, params, blobs, true, [&](uint32_t i, const CuckooFilter& read, const std::vector<CuckooFilter>&) {
    if (i > 0) expectedCapacity = nextLinkCapacity(expectedCapacity, growth);
    // The link the schedule makes, geometry and all (computed, not allocated:
    // hostile parameters must not make the reader allocate).
    double budget = 0.0;
    uint32_t fingerprintBits = 0;
    const bool scheduled =
        linkSchedule(blob.header.targetFalsePositiveRate, tightening, params.bucketSize, i, budget, fingerprintBits);
    if (!scheduled || expectedCapacity == 0 || read.seed() != blob.header.seed || read.capacity() != expectedCapacity ||
        doubleBits(read.targetFalsePositiveRate()) != doubleBits(budget) || read.bucketSize() != params.bucketSize ||
        read.bucketCount() != CuckooFilter::bucketCountAtLoad(expectedCapacity, params.bucketSize,
                                                                 CuckooFilter::maxLoadFactor(params.bucketSize)) ||
        read.fingerprintBits() != fingerprintBits || read.maxKicks() != kLinkMaxKicks ||
        read.semiSorted() != (params.bucketSize == 4) || read.addressing() != CuckooAddressing::SubtractModulo) {
      return Status::corrupt("scalable-cuckoo link " + std::to_string(i) +
                             " is not the link its chain makes (seed, capacity, rate or geometry differ)");
    }
    return Status::ok();
  });
}

}  // namespace cuckoo_bloom
