#include "cuckoo_bloom/chains/expiring_bloom_filter.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace cuckoo_bloom {
namespace {

// The options that make a rotation: checked on create and on read.
Status validateRotation(double window, uint64_t generations, double start) {
  if (!(std::isfinite(window) && window > 0.0)) {
    return Status::invalidArgument("expiring-bloom: window must be a finite number > 0, got " + formatNumber(window));
  }
  if (generations < 2 || generations > ExpiringBloomFilter::kMaxGenerations) {
    return Status::invalidArgument("expiring-bloom: generations must be an integer in [2, " +
                                   std::to_string(ExpiringBloomFilter::kMaxGenerations) + "], got " +
                                   std::to_string(generations));
  }
  if (!std::isfinite(start)) {
    return Status::invalidArgument("expiring-bloom: the start time must be a finite clock reading, got " +
                                   formatNumber(start));
  }
  // A generation must be a step the clock's numbers can take: start + L > start.
  const double length = ExpiringBloomFilter::generationLengthFor(window, static_cast<uint32_t>(generations));
  if (!(start + length > start)) {
    return Status::invalidArgument("expiring-bloom: a generation of " + formatNumber(length) +
                                   " units is below the resolution of the clock reading " + formatNumber(start));
  }
  return Status::ok();
}

}  // namespace

Result<ExpiringBloomFilter> ExpiringBloomFilter::createFrom(const CoreFilterOptions& options) {
  // Anything outside 2..kMaxGenerations is refused before it is narrowed to
  // the options' 32 bits.
  const int64_t given = options.generations.value_or(kDefaultGenerations);
  const uint64_t generations = given < 0 ? 0 : static_cast<uint64_t>(given);
  if (generations > kMaxGenerations) return validateRotation(1.0, generations, 0.0);
  ExpiringBloomFilterOptions expiring;
  expiring.capacity = options.capacity;
  expiring.falsePositiveRate = options.falsePositiveRate;
  expiring.seed = options.seed;
  expiring.window = options.window.value_or(kDefaultWindow);
  expiring.generations = static_cast<uint32_t>(generations);
  expiring.startTime = options.startTime.value_or(0.0);
  return create(expiring);
}

Result<ExpiringBloomFilter> ExpiringBloomFilter::create(const ExpiringBloomFilterOptions& options) {
  Status valid = validateCapacityAndRate(options.capacity, options.falsePositiveRate);
  if (!valid.isOk()) return valid;
  valid = validateRotation(options.window, options.generations, options.startTime);
  if (!valid.isOk()) return valid;
  const double generationRate = options.falsePositiveRate / static_cast<double>(options.generations);
  ExpiringBloomFilter filter;
  filter.params_ = {doubleBits(options.window), doubleBits(options.startTime), options.generations};
  filter.header_ = newHeader(kType, options.capacity, options.falsePositiveRate, options.seed);
  for (uint32_t i = 0; i < options.generations; ++i) {
    Result<BloomFilter> made = BloomFilter::create({options.capacity, generationRate, options.seed});
    if (!made.isOk()) return made.status();
    // All generations together must fit the table limit, not only each one.
    if (filter.byteLength() + made.value().byteLength() > kMaxTableBytes) {
      return validateTableBytes(static_cast<uint64_t>(made.value().byteLength()) * options.generations,
                                "expiring-bloom generations");
    }
    filter.chain_.links().push_back(std::move(made).value());
  }
  return filter;
}

Result<uint32_t> ExpiringBloomFilter::advance(double now) {
  if (!std::isfinite(now)) {
    return Status::invalidArgument("expiring-bloom: the clock reading must be a finite number, got " +
                                   formatNumber(now));
  }
  const double start = generationStart();
  const double length = generationLength();
  // Still inside the newest generation, or a clock that stepped back: nothing expires.
  if (!(now >= start + length)) return uint32_t{0};
  double steps = std::floor((now - start) / length);
  double next = start + steps * length;
  // Rounding may land a step either side of now; keep start <= now < start + L.
  if (next > now) {
    steps -= 1.0;
    next = start + steps * length;
  }
  if (steps < 1.0 || !(next > start) || !(next <= now)) {
    // The clock's numbers are too coarse to step by L here (a huge reading):
    // start the newest generation at now and drop everything older than it.
    steps = static_cast<double>(generationCount());
    next = now;
  }
  std::vector<BloomFilter>& links = chain_.links();
  const uint32_t dropped = steps >= generationCount() ? generationCount() : static_cast<uint32_t>(steps);
  // Oldest first: rotating left by `dropped` puts the dropped generations last
  // (newest), where they are emptied.
  std::rotate(links.begin(), links.begin() + dropped, links.end());
  for (size_t i = links.size() - dropped; i < links.size(); ++i) links[i].clear();
  params_.generationStartBits = doubleBits(next);
  header_.itemCount = chain_.totalCount();
  return dropped;
}

Status ExpiringBloomFilter::add(const KeyHash& hash) {
  // The count is the exact sum of the generations' counts (checked on read):
  // one more than 2^64 - 1 would wrap it into bytes no reader accepts. Only
  // bytes crafted with such a count get here.
  if (header_.itemCount == UINT64_MAX) {
    return Status::full("expiring-bloom filter already counts 2^64 - 1 keys: the key was not added; every key "
                        "added before is still found");
  }
  BloomFilter& newest = chain_.links().back();
  const uint64_t before = newest.count();
  newest.add(hash);
  header_.itemCount += newest.count() - before;
  return Status::ok();
}

void ExpiringBloomFilter::clear() {
  for (BloomFilter& generation : chain_.links()) generation.clear();
  header_.itemCount = 0;
}

Result<ExpiringBloomFilter> ExpiringBloomFilter::fromBlob(const DecodedBlob& blob, const Params& params) {
  const double window = doubleFromBits(params.windowBits);
  const double start = doubleFromBits(params.generationStartBits);
  Status valid = validateRotation(window, params.generationCount, start);
  if (!valid.isOk()) return Status::corrupt(valid.message());
  LinkBlobs blobs;
  valid = splitLinkBlobs(blob, params.generationCount, blobs);
  if (!valid.isOk()) return valid;
  const double generationRate = blob.header.targetFalsePositiveRate / static_cast<double>(params.generationCount);
  // Every generation holds the filter's capacity: only the count is a sum.
  return readLinks(blob, params, blobs, false, [&](uint32_t i, const BloomFilter& read, const std::vector<BloomFilter>& older) {
    // Each generation is the one create() makes: the filter's seed (one hash
    // for all), its capacity, and the rate P / G exactly.
    if (read.seed() != blob.header.seed || read.capacity() != blob.header.capacity ||
        doubleBits(read.targetFalsePositiveRate()) != doubleBits(generationRate)) {
      return Status::corrupt("expiring-bloom generation " + std::to_string(i) +
                             " is not the generation its filter makes (seed, capacity or rate differ)");
    }
    // Every generation has the same size (one sizing), so any generation may take any slot.
    if (i > 0 && (read.bitCount() != older[0].bitCount() || read.hashCount() != older[0].hashCount())) {
      return Status::corrupt("expiring-bloom generation " + std::to_string(i) + " differs in size from generation 0");
    }
    return Status::ok();
  });
}

}  // namespace cuckoo_bloom
