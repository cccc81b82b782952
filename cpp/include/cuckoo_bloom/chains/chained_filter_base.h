// The base classes of the chains, the filters made of links of one
// single-part type: ChainedFilter (every chain: ExpiringBloomFilter, whose
// links are its generations, and the growing chains) and GrowingFilter (a
// chain that appends a link when the newest is full: ScalableBloomFilter and
// ScalableCuckooFilter). The state is the header, a parameter block and a
// LinkChain (link_chain.h); a key is hashed once and probed in every link, and
// the rate, size and bytes follow from the links.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cuckoo_bloom/chains/link_chain.h"

namespace cuckoo_bloom {

// `ParamsT` is the type's parameter block (with fields()), declared before the class.
template <typename Derived, typename Link, typename ParamsT>
class ChainedFilter : public KeyedFilter<Derived> {
 public:
  using Params = ParamsT;
  using KeyedFilter<Derived>::has;

  bool has(const KeyHash& hash) const { return chain_.has(hash); }

  // The bytes serialize() gives, in parts (AnyFilter::serializedParts). The
  // links are not one block of memory, so their blobs are written into one
  // allocation of exactly their size: OutOfMemory when it cannot be had (a
  // chain near the wasm memory limit), never an abort, and no further copy
  // (serialize() builds the payload and then the blob: twice the size).
  Result<SerializedParts> serializedPartsChecked() const {
    SerializedParts parts;
    parts.payloadLength = chain_.linksByteCount();
    if (!parts.ownedPayload.allocate((parts.payloadLength + 7) / 8)) {
      return Status::outOfMemory("out of memory allocating " + std::to_string(parts.payloadLength) + " bytes to serialize a " +
                                 filterTypeName(Derived::kType) + " filter; the filter is unchanged");
    }
    uint8_t* payload = reinterpret_cast<uint8_t*>(parts.ownedPayload.data());
    chain_.writeLinks(payload);
    parts.payload = payload;
    completeBlobParts(parts, this->header_, static_cast<const Derived&>(*this).encodedParams());
    return parts;
  }
  std::vector<uint8_t> serialize() const {
    return encodeBlob(this->header_, static_cast<const Derived&>(*this).encodedParams(), chain_.serializeLinks());
  }

  // 1 - prod(1 - e_i) over the links' estimates.
  double estimatedFalsePositiveRate() const { return chain_.estimatedFalsePositiveRate(); }
  size_t byteLength() const { return chain_.byteLength(); }

 protected:
  // A growing type's private makeLink, for GrowingFilter::appendLink: the
  // types befriend this base alone, and GrowingFilter reaches makeLink here.
  static Result<Link> makeLinkOf(const Derived& filter, uint32_t index, uint64_t capacity) {
    return filter.makeLink(index, capacity);
  }
  using LinkBlobs = std::vector<std::pair<const uint8_t*, size_t>>;

  // What every chain's reader does once its parameters are checked: a filter
  // with the blob's header and `params` whose links are read from
  // `linkBlobs` in order, each accepted by `accept(index, link, linksBefore)`
  // (the type's check that it is the link the chain makes: Ok, or the
  // Corrupt to return), their tables together within kMaxTableBytes (checked
  // as they are read), then the header's totals (checkLinkTotals).
  template <typename Accept>
  static Result<Derived> readLinks(const DecodedBlob& blob, const Params& params, const LinkBlobs& linkBlobs,
                                   bool capacityIsSum, Accept&& accept) {
    // The chains were added in format version 2: no version-1 writer made
    // one, so version-1 bytes of these types are not an older form to upgrade.
    if (blob.header.formatVersion < 2) {
      return Status::corrupt(std::string(filterTypeName(Derived::kType)) + " filters exist from format version 2; " +
                             "these bytes say version " + std::to_string(blob.header.formatVersion));
    }
    Derived filter;
    filter.params_ = params;
    filter.header_ = blob.header;
    std::vector<Link>& links = filter.chain_.links();
    uint64_t tableBytes = 0;
    for (uint32_t i = 0; i < linkBlobs.size(); ++i) {
      Result<Link> link = Link::deserialize(linkBlobs[i].first, linkBlobs[i].second);
      // (A version this build does not read is UnsupportedVersion here, as in
      // a blocklist's filter; a version it reads but not the chain's, Corrupt.)
      if (!link.isOk()) return linkError(Derived::kType, i, link.status());
      Status sameVersion = checkNestedVersion(blob, linkBlobs[i].first, "link " + std::to_string(i));
      if (!sameVersion.isOk()) return sameVersion;
      Status accepted = accept(i, link.value(), static_cast<const std::vector<Link>&>(links));
      if (!accepted.isOk()) return accepted;
      tableBytes += link.value().byteLength();
      if (tableBytes > kMaxTableBytes) {
        return Status::corrupt(std::string(filterTypeName(Derived::kType)) + " links exceed the table limit");
      }
      links.push_back(std::move(link).value());
    }
    Status totals = filter.checkLinkTotals(blob.header, capacityIsSum);
    if (!totals.isOk()) return totals;
    return filter;
  }

  // The links read from bytes must account for the header's item count (and,
  // when `capacityIsSum`, its capacity): Corrupt otherwise.
  Status checkLinkTotals(const FilterHeader& header, bool capacityIsSum) const {
    const char* name = filterTypeName(Derived::kType);
    if (capacityIsSum && header.capacity != chain_.totalCapacity()) {
      return Status::corrupt(std::string(name) + " capacity " + std::to_string(header.capacity) +
                             " is not the sum of its links' capacities");
    }
    uint64_t count = 0;
    if (!chain_.totalCount(count)) {
      return Status::corrupt(std::string(name) + " links' item counts sum to more than 2^64 - 1");
    }
    if (header.itemCount != count) {
      return Status::corrupt(std::string(name) + " item count " + std::to_string(header.itemCount) +
                             " is not the sum of its links' counts (" + std::to_string(count) + ")");
    }
    return Status::ok();
  }

  Params params_;
  LinkChain<Link> chain_;
};

// What the growing chains' parameter blocks begin with (docs/FORMAT.md):
// initialCapacity u64, growth f64, tightening f64 (the doubles as their
// IEEE-754 bits) and linkCount u32; each type's Params derives from it and
// names growthFields() first in its fields (format.h's CUCKOO_BLOOM_PARAMS_FIELDS).
struct GrowthParams {
  uint64_t initialCapacity = 0;
  uint64_t growthBits = 0;
  uint64_t tighteningBits = 0;
  uint32_t linkCount = 0;
  CUCKOO_BLOOM_PARAMS_FIELDS(0, initialCapacity, growthBits, tighteningBits, linkCount)
  // These fields as one field of a derived block's list.
  GrowthParams& growthFields() { return *this; }
};

// The growing chains: a link is appended whenever the newest one cannot take a key.
template <typename Derived, typename Link, typename ParamsT>
class GrowingFilter : public ChainedFilter<Derived, Link, ParamsT> {
 public:
  static constexpr double kDefaultGrowth = kDefaultChainGrowth;
  // Registry facts (core/type_facts.h): a growing chain appends links, and
  // its first link is sized for kDefaultCapacity keys when none is given.
  static constexpr FilterGrowth kGrowth = FilterGrowth::ByChaining;
  static constexpr uint64_t kDefaultCapacity = 1000;

  double growth() const { return doubleFromBits(this->params_.growthBits); }
  double tightening() const { return doubleFromBits(this->params_.tighteningBits); }
  uint64_t initialCapacity() const { return this->params_.initialCapacity; }
  uint32_t linkCount() const { return static_cast<uint32_t>(this->chain_.links().size()); }
  const Link& link(uint32_t index) const { return this->chain_.links()[index]; }

  // The schedule's parameters by name (for `info` and the JS getters). A type
  // with parameters of its own lists these first (GrowingFilter::parameters).
  template <typename Visit>
  void parameters(Visit&& visit) const {
    visit("links", linkCount());
    visit("initialCapacity", static_cast<double>(initialCapacity()));
    visit("growth", growth());
    visit("tightening", tightening());
  }

  // The parameter block, with the current link count (the links' blobs follow it).
  std::vector<uint8_t> encodedParams() const {
    ParamsT params = this->params_;
    params.linkCount = linkCount();
    return encodeParams(params);
  }

 protected:
  // The generic options of a chain: capacity is the initial capacity, and
  // growth or tightening not given means the type's default (already in `chain`).
  template <typename ChainOptions>
  static void takeGrowthOptions(const CoreFilterOptions& options, ChainOptions& chain) {
    chain.initialCapacity = options.capacity;
    chain.falsePositiveRate = options.falsePositiveRate;
    chain.seed = options.seed;
    if (options.growth) chain.growth = *options.growth;
    if (options.tightening) chain.tightening = *options.tightening;
  }
  // The options every chain's create() checks first: capacity and rate, growth and tightening.
  template <typename ChainOptions>
  static Status checkGrowthOptions(const ChainOptions& options) {
    Status valid = validateCapacityAndRate(options.initialCapacity, options.falsePositiveRate);
    if (!valid.isOk()) return valid;
    return validateGrowth(options.growth, options.tightening, filterTypeName(Derived::kType));
  }
  // The end of every chain's create(): `filter` (its own parameters set)
  // given the growth parameters, a new header and its first link. A first
  // link that cannot be made is an impossible set of options: Full becomes
  // InvalidArgument (the other codes, OutOfMemory, stay).
  template <typename ChainOptions>
  static Result<Derived> withFirstLink(Derived filter, const ChainOptions& options) {
    static_cast<GrowthParams&>(filter.params_) = {options.initialCapacity, doubleBits(options.growth),
                                                  doubleBits(options.tightening), 0};
    filter.header_ = newHeader(Derived::kType, options.initialCapacity, options.falsePositiveRate, options.seed);
    Status made = filter.appendLink();
    if (!made.isOk()) {
      return Status(made.code() == StatusCode::Full ? StatusCode::InvalidArgument : made.code(), made.message());
    }
    return filter;
  }
  // Appends link number linkCount(): the capacity the schedule gives it
  // (nextCapacity), the link the type makes of it (Derived::makeLink(index,
  // capacity), which may refuse), then the chain's size checked against the
  // table limit. Nothing changes when any of them refuses. Called by each
  // type's add() when its newest link cannot take a key, and for the first link.
  Status appendLink() {
    const uint32_t index = linkCount();
    uint64_t capacity = 0;
    Status grows = nextCapacity(index, capacity);
    if (!grows.isOk()) return grows;
    Result<Link> made =
        ChainedFilter<Derived, Link, ParamsT>::makeLinkOf(static_cast<const Derived&>(*this), index, capacity);
    if (!made.isOk()) return made.status();
    if (this->byteLength() + made.value().byteLength() > kMaxTableBytes) {
      return Status::outOfMemory(std::string(filterTypeName(Derived::kType)) + " filter: link " +
                                 std::to_string(index) + " would bring the chain beyond the table limit of " +
                                 std::to_string(kMaxTableBytes) + " bytes");
    }
    this->chain_.links().push_back(std::move(made).value());
    this->header_.capacity = this->chain_.totalCapacity();
    return Status::ok();
  }
  // The capacity of link `index` by the schedule, or Full when the chain may
  // not grow (kMaxChainLinks links, or more than kMaxCapacity keys in all).
  Status nextCapacity(uint32_t index, uint64_t& capacity) const {
    const char* name = filterTypeName(Derived::kType);
    if (index >= kMaxChainLinks) {
      return Status::full(std::string(name) + " filter reached its maximum of " + std::to_string(kMaxChainLinks) +
                          " links: the key was not added; every key added before is still found");
    }
    capacity = index == 0 ? initialCapacity() : nextLinkCapacity(this->chain_.links().back().capacity(), growth());
    if (capacity == 0 || this->header_.capacity + (index == 0 ? 0 : capacity) > kMaxCapacity) {
      return Status::full(std::string(name) + " filter cannot grow beyond " + std::to_string(kMaxCapacity) + " keys");
    }
    return Status::ok();
  }
  // The checks every growing chain's reader makes before its links: valid
  // growth options and initial capacity (Corrupt otherwise), then the payload
  // split into exactly linkCount link blobs.
  static Status readGrowthParams(const DecodedBlob& blob, const ParamsT& params,
                                 typename ChainedFilter<Derived, Link, ParamsT>::LinkBlobs& linkBlobs) {
    const char* name = filterTypeName(Derived::kType);
    Status valid = validateGrowth(doubleFromBits(params.growthBits), doubleFromBits(params.tighteningBits), name);
    if (!valid.isOk()) return Status::corrupt(valid.message());
    if (params.initialCapacity == 0 || params.initialCapacity > kMaxCapacity) {
      return Status::corrupt(std::string(name) + " initial capacity is outside 1.." + std::to_string(kMaxCapacity));
    }
    return splitLinkBlobs(blob, params.linkCount, linkBlobs);
  }
};

}  // namespace cuckoo_bloom
