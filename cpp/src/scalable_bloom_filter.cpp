#include "cuckoo_bloom/scalable_bloom_filter.h"

#include <cstring>

#include "cuckoo_bloom/bloom_sizing.h"

namespace cuckoo_bloom {

double ScalableBloomFilter::linkFalsePositiveRate(double rate, double tightening, uint32_t index) {
  // Multiplied out step by step (no pow), so every build derives the same bits.
  double linkRate = rate * (1.0 - tightening);
  for (uint32_t i = 0; i < index; ++i) linkRate *= tightening;
  return linkRate;
}

Result<ScalableBloomFilter> ScalableBloomFilter::createFrom(const FilterOptions& options) {
  Status valid = rejectCuckooOptions(options, kType);
  if (!valid.isOk()) return valid;
  ScalableBloomFilterOptions chain;
  chain.initialCapacity = options.capacity;
  chain.falsePositiveRate = options.falsePositiveRate;
  chain.seed = options.seed;
  if (options.growth != 0.0) chain.growth = options.growth;
  if (options.tightening != 0.0) chain.tightening = options.tightening;
  return create(chain);
}

Result<ScalableBloomFilter> ScalableBloomFilter::create(const ScalableBloomFilterOptions& options) {
  Status valid = validateCapacityAndRate(options.initialCapacity, options.falsePositiveRate);
  if (!valid.isOk()) return valid;
  valid = validateGrowth(options.growth, options.tightening, "scalable-bloom");
  if (!valid.isOk()) return valid;
  ScalableBloomFilter filter;
  filter.params_ = {options.initialCapacity, doubleBits(options.growth), doubleBits(options.tightening), 0};
  filter.header_ = newHeader(kType, options.initialCapacity, options.falsePositiveRate, options.seed);
  valid = filter.appendLink();
  // A first link that cannot be made is an impossible set of options.
  if (!valid.isOk()) return Status(valid.code() == StatusCode::Full ? StatusCode::InvalidArgument : valid.code(), valid.message());
  return filter;
}

// Makes link number linkCount() from the schedule; nothing changes on failure.
Status ScalableBloomFilter::appendLink() {
  std::vector<BloomFilter>& links = chain_.links();
  const uint32_t index = linkCount();
  if (index >= kMaxChainLinks) {
    return Status::full("scalable-bloom filter reached its maximum of " + std::to_string(kMaxChainLinks) +
                        " links: the key was not added; every key added before is still found");
  }
  const uint64_t capacity = index == 0 ? params_.initialCapacity : nextLinkCapacity(links.back().capacity(), growth());
  if (capacity == 0 || header_.capacity + (index == 0 ? 0 : capacity) > kMaxCapacity) {
    return Status::full("scalable-bloom filter cannot grow beyond " + std::to_string(kMaxCapacity) + " keys");
  }
  const double rate = linkFalsePositiveRate(targetFalsePositiveRate(), tightening(), index);
  // The chain as a whole must fit the table limit, not only each link.
  const uint64_t bitCount = bloomSizingFor(capacity, rate).bitCount;
  const uint64_t linkBytes = bitCount == UINT64_MAX ? UINT64_MAX : (bitCount + 63) / 64 * 8;
  if (index == 0 || linkBytes > kMaxTableBytes) {
    Status valid = validateTableBytes(linkBytes, "scalable-bloom link");
    if (!valid.isOk()) return valid;
  }
  if (byteLength() + linkBytes > kMaxTableBytes) {
    return Status::outOfMemory("scalable-bloom filter: link " + std::to_string(index) + " would bring the chain to " +
                               std::to_string(byteLength() + linkBytes) + " bytes, more than the limit of " +
                               std::to_string(kMaxTableBytes));
  }
  Result<BloomFilter> made = BloomFilter::create({capacity, rate, seed()});
  if (!made.isOk()) return made.status();
  links.push_back(std::move(made).value());
  header_.capacity = chain_.totalCapacity();
  return Status::ok();
}

Status ScalableBloomFilter::add(const KeyHash& hash) {
  // A key reported present stays present: adding it again changes no answer
  // and would spend the newest link's capacity.
  if (chain_.has(hash)) return Status::ok();
  const BloomFilter& newest = chain_.links().back();
  if (newest.count() >= newest.capacity()) {
    Status grown = appendLink();
    if (!grown.isOk()) return grown;
  }
  chain_.links().back().add(hash);
  ++header_.itemCount;
  return Status::ok();
}

Status ScalableBloomFilter::unionWith(const ScalableBloomFilter& other) {
  if (other.initialCapacity() != initialCapacity() || other.seed() != seed() ||
      doubleBits(other.targetFalsePositiveRate()) != doubleBits(targetFalsePositiveRate()) ||
      other.params_.growthBits != params_.growthBits || other.params_.tighteningBits != params_.tighteningBits) {
    return Status::invalidArgument(
        "union needs scalable-bloom filters built with the same initial capacity, false-positive rate, growth, "
        "tightening and seed");
  }
  if (other.linkCount() != linkCount()) {
    return Status::invalidArgument("union needs scalable-bloom filters with the same number of links (" +
                                   std::to_string(linkCount()) + " vs " + std::to_string(other.linkCount()) + ")");
  }
  // Same options, same link count: link i of both has the same size and
  // probes, so the OR of each pair is exact (BloomFilter::unionWith).
  for (uint32_t i = 0; i < linkCount(); ++i) {
    Status merged = chain_.links()[i].unionWith(other.chain_.links()[i]);
    if (!merged.isOk()) return merged;
  }
  header_.itemCount = chain_.totalCount();
  return Status::ok();
}

void ScalableBloomFilter::clear() {
  chain_.clearToFirstLink();
  header_.itemCount = 0;
  header_.capacity = chain_.totalCapacity();
}

std::vector<uint8_t> ScalableBloomFilter::serialize() const {
  Params params = params_;
  params.linkCount = linkCount();
  return encodeBlob(header_, encodeParams(params), chain_.serializeLinks());
}

Result<ScalableBloomFilter> ScalableBloomFilter::fromBlob(const DecodedBlob& blob, const Params& params) {
  const double rate = blob.header.targetFalsePositiveRate;
  const double growth = doubleFromBits(params.growthBits);
  const double tightening = doubleFromBits(params.tighteningBits);
  Status valid = validateGrowth(growth, tightening, "scalable-bloom");
  if (!valid.isOk()) return Status::corrupt(valid.message());
  if (params.initialCapacity == 0 || params.initialCapacity > kMaxCapacity) {
    return Status::corrupt("scalable-bloom initial capacity is outside 1.." + std::to_string(kMaxCapacity));
  }
  std::vector<std::pair<const uint8_t*, size_t>> blobs;
  valid = splitLinkBlobs(blob, params.linkCount, blobs);
  if (!valid.isOk()) return valid;

  ScalableBloomFilter filter;
  filter.params_ = params;
  filter.header_ = blob.header;
  uint64_t expectedCapacity = params.initialCapacity;
  uint64_t tableBytes = 0;
  for (uint32_t i = 0; i < params.linkCount; ++i) {
    Result<BloomFilter> link = BloomFilter::deserialize(blobs[i].first, blobs[i].second);
    if (!link.isOk()) return linkError(kType, i, link.status());
    const BloomFilter& read = link.value();
    // Each link must be the one the schedule makes: same seed (one hash for
    // the chain), its capacity and rate exactly.
    if (i > 0) expectedCapacity = nextLinkCapacity(expectedCapacity, growth);
    const double linkRate = linkFalsePositiveRate(rate, tightening, i);
    if (read.seed() != blob.header.seed || read.capacity() != expectedCapacity ||
        doubleBits(read.targetFalsePositiveRate()) != doubleBits(linkRate)) {
      return Status::corrupt("scalable-bloom link " + std::to_string(i) +
                             " is not the link its chain makes (seed, capacity or rate differ)");
    }
    tableBytes += read.byteLength();
    filter.chain_.links().push_back(std::move(link).value());
  }
  if (tableBytes > kMaxTableBytes) return Status::corrupt("scalable-bloom links exceed the table limit");
  if (blob.header.capacity != filter.chain_.totalCapacity()) {
    return Status::corrupt("scalable-bloom capacity " + std::to_string(blob.header.capacity) +
                           " is not the sum of its links' capacities");
  }
  if (blob.header.itemCount != filter.chain_.totalCount()) {
    return Status::corrupt("scalable-bloom item count " + std::to_string(blob.header.itemCount) +
                           " is not the sum of its links' counts");
  }
  return filter;
}

}  // namespace cuckoo_bloom
