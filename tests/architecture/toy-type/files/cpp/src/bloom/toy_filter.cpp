#include "cuckoo_bloom/bloom/toy_filter.h"

#include <cmath>
#include <string>

namespace cuckoo_bloom {

Result<ToyFilter> ToyFilter::createFrom(const CoreFilterOptions& options) {
  return create({options.capacity, options.falsePositiveRate, options.seed}, options.sizeFactor.value_or(1.0));
}

Result<ToyFilter> ToyFilter::create(const FilterOptions& options, double sizeFactor) {
  Status valid = validateCapacityAndRate(options.capacity, options.falsePositiveRate);
  if (!valid.isOk()) return valid;
  if (!(sizeFactor >= 1.0 && sizeFactor <= kMaxSizeFactor)) {
    return Status::invalidArgument("sizeFactor must be in [1, 16], got " + formatNumber(sizeFactor));
  }
  const double bits = std::ceil(sizeFactor * static_cast<double>(options.capacity) / options.falsePositiveRate);
  if (!(bits < 1.8e19)) return validateTableBytes(UINT64_MAX, "ToyFilter");
  const uint64_t bitCount = static_cast<uint64_t>(bits);
  return allocate(options, {bitCount}, (bitCount + 63) / 64, "ToyFilter");
}

Result<ToyFilter> ToyFilter::fromBlob(const DecodedBlob& blob, const Params& params) {
  // A type added after format version 1 is never read in it.
  if (blob.header.formatVersion < 2) return Status::corrupt("toy filters exist from format version 2");
  if (params.bitCount == 0) return Status::corrupt("toy bit count is 0");
  return adopt(blob, params, (params.bitCount + 63) / 64, params.bitCount);
}

void ToyFilter::add(const KeyHash& hash) {
  const uint64_t bit = bloomProbeIndex(hash, 0, params_.bitCount);
  words_[static_cast<size_t>(bit >> 6)] |= uint64_t{1} << (bit & 63);
  ++header_.itemCount;
}

bool ToyFilter::has(const KeyHash& hash) const {
  const uint64_t bit = bloomProbeIndex(hash, 0, params_.bitCount);
  return (words_[static_cast<size_t>(bit >> 6)] >> (bit & 63)) & 1;
}

Status ToyFilter::unionWith(const ToyFilter& other) {
  if (other.bitCount() != bitCount() || other.seed() != seed()) {
    return Status::invalidArgument("union needs toy filters with the same bit count and seed");
  }
  orWith(other);
  return Status::ok();
}

}  // namespace cuckoo_bloom
