#include "cuckoo_bloom/chains/scalable_bloom_filter.h"

#include <cstring>

#include "cuckoo_bloom/bloom/bloom_sizing.h"

namespace cuckoo_bloom {

double ScalableBloomFilter::linkFalsePositiveRate(double rate, double tightening, uint32_t index) {
  // Multiplied out step by step (no pow), so every build derives the same bits.
  double linkRate = rate * (1.0 - tightening);
  for (uint32_t i = 0; i < index; ++i) linkRate *= tightening;
  return linkRate;
}

Result<ScalableBloomFilter> ScalableBloomFilter::createFrom(const CoreFilterOptions& options) {
  ScalableBloomFilterOptions chain;
  takeGrowthOptions(options, chain);
  return create(chain);
}

Result<ScalableBloomFilter> ScalableBloomFilter::create(const ScalableBloomFilterOptions& options) {
  Status valid = checkGrowthOptions(options);
  if (!valid.isOk()) return valid;
  return withFirstLink(ScalableBloomFilter(), options);
}

// Link number `index`, of `capacity` keys at its share of the rate. Its size
// is checked before anything is allocated: alone (the first link, or a link
// over the limit) and with the chain, whose size as a whole must fit too.
Result<BloomFilter> ScalableBloomFilter::makeLink(uint32_t index, uint64_t capacity) const {
  const double rate = linkFalsePositiveRate(targetFalsePositiveRate(), tightening(), index);
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
  return BloomFilter::create({capacity, rate, seed()});
}

Status ScalableBloomFilter::add(const KeyHash& hash) {
  // Only the newest link is asked whether it holds the key already (the
  // words it reads are the ones the add writes): asking every link cost an
  // absent lookup of the whole chain per add, 7x a static filter's add after
  // 10,000x growth (docs/SCALABLE.md). A key the newest link reports is not
  // stored or counted again, so repeats spend no capacity; a key held only by
  // an older link is stored again in the newest, and counted again.
  BloomFilter* newest = &chain_.links().back();
  if (newest->has(hash)) return Status::ok();
  // The count is the exact sum of the links' counts (checked on read): one
  // more than 2^64 - 1 would wrap it into bytes no reader accepts. Only bytes
  // crafted with such a count get here.
  if (header_.itemCount == UINT64_MAX) {
    return Status::full("scalable-bloom filter already counts 2^64 - 1 keys: the key was not added; every key "
                        "added before is still found");
  }
  if (newest->count() >= newest->capacity()) {
    Status grown = appendLink();
    if (!grown.isOk()) return grown;
    newest = &chain_.links().back();
  }
  newest->add(hash);
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
  // The counts add up (each link's and the chain's) without wrapping, or
  // nothing changes: a wrapped count would be written as bytes no reader accepts.
  uint64_t total = 0;
  for (uint32_t i = 0; i < linkCount(); ++i) {
    uint64_t linkSum = 0;
    if (!addWithoutWrap(chain_.links()[i].count(), other.chain_.links()[i].count(), linkSum) ||
        !addWithoutWrap(total, linkSum, total)) {
      return Status::invalidArgument("union of these scalable-bloom filters would count more than 2^64 - 1 keys");
    }
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

Result<ScalableBloomFilter> ScalableBloomFilter::fromBlob(const DecodedBlob& blob, const Params& params) {
  LinkBlobs blobs;
  Status valid = readGrowthParams(blob, params, blobs);
  if (!valid.isOk()) return valid;
  const double rate = blob.header.targetFalsePositiveRate;
  const double growth = doubleFromBits(params.growthBits);
  const double tightening = doubleFromBits(params.tighteningBits);
  uint64_t expectedCapacity = params.initialCapacity;
  return readLinks(blob, params, blobs, true, [&](uint32_t i, const BloomFilter& read, const std::vector<BloomFilter>&) {
    // Each link must be the one the schedule makes: same seed (one hash for
    // the chain), its capacity and rate exactly.
    if (i > 0) expectedCapacity = nextLinkCapacity(expectedCapacity, growth);
    const double linkRate = linkFalsePositiveRate(rate, tightening, i);
    if (read.seed() != blob.header.seed || read.capacity() != expectedCapacity ||
        doubleBits(read.targetFalsePositiveRate()) != doubleBits(linkRate)) {
      return Status::corrupt("scalable-bloom link " + std::to_string(i) +
                             " is not the link its chain makes (seed, capacity or rate differ)");
    }
    return Status::ok();
  });
}

}  // namespace cuckoo_bloom
