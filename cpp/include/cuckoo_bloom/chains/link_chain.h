// The links of a chain (LinkChain: links of one single-part type, all with the
// chain's seed, so a key is hashed once and every link is probed with the same
// KeyHash), the bytes of nested links, and the growing chains' schedule
// (scalable_bloom_filter.h, scalable_cuckoo_filter.h). The base classes the
// chains derive from are in chained_filter_base.h. Words: docs/ARCHITECTURE.md,
// "Words".
//
// The schedule (Almeida, Baquero, Preguica, Hutchison, "Scalable Bloom
// Filters", IPL 2007): link i is sized for
//   n_i = ceil(n_{i-1} * s)       keys (n_0 = the initial capacity, s >= 1 the growth),
// and the chain's false-positive rate P is split over the links so that the
// compound rate 1 - prod(1 - e_i) <= sum(e_i) stays at or under P however
// many links are added (a union bound: it needs no independence between links).
// Each type spends the budget its own way (see its header).
//
// Every number of the schedule is computed with IEEE-754 multiplications,
// divisions and ceil only (no log or pow, whose last bit may differ between
// libm builds), so the native and the wasm builds derive the same links, and a
// reader can check each stored link against the schedule exactly.
//
// The bytes: a composite blob (docs/FORMAT.md) whose payload is the links'
// complete blobs, oldest first, end to end; each nested blob's length is read
// from its own header (64 + P + L).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cuckoo_bloom/core/filter_support.h"

namespace cuckoo_bloom {

// At most this many links: a chain that needs more refuses the insert (Full).
// With growth 2 from one key that is 2^32 keys, beyond any table this library
// allocates; with growth 1 it bounds a lookup to 32 probes.
constexpr uint32_t kMaxChainLinks = 32;
constexpr double kMaxChainGrowth = 1024.0;
// Each link twice the keys of the one before: both chains' default (docs/SCALABLE.md).
constexpr double kDefaultChainGrowth = 2.0;

// A double stored in a parameter block as its IEEE-754 bits (ParamsWriter
// writes integers only).
inline uint64_t doubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}
inline double doubleFromBits(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// The ranges of the growth options, as validateGrowth checks them and the
// registry reports them (kOptionLimits of each growing chain).
constexpr OptionLimit growthLimit() {
  return {OptionId::Growth, 1.0, true, kMaxChainGrowth, true, false, kDefaultChainGrowth};
}
constexpr OptionLimit tighteningLimit(double defaultTightening) {
  return {OptionId::Tightening, 0.0, false, 1.0, false, false, defaultTightening};
}

// The growth options shared by both growing chains; `what` names the chain in errors.
inline Status validateGrowth(double growth, double tightening, const char* what) {
  if (!(growth >= 1.0 && growth <= kMaxChainGrowth)) {
    return Status::invalidArgument(std::string(what) + ": growth must be a number in [1, " +
                                   formatNumber(kMaxChainGrowth) + "], got " + formatNumber(growth));
  }
  if (!(tightening > 0.0 && tightening < 1.0)) {
    return Status::invalidArgument(std::string(what) + ": tightening must be a number in (0, 1), got " +
                                   formatNumber(tightening));
  }
  return Status::ok();
}

// Capacity of the link after one of `capacity` keys: ceil(capacity * growth),
// and at least the same; 0 when it would exceed kMaxCapacity.
inline uint64_t nextLinkCapacity(uint64_t capacity, double growth) {
  const double next = std::ceil(static_cast<double>(capacity) * growth);
  if (!(next <= static_cast<double>(kMaxCapacity))) return 0;
  return static_cast<uint64_t>(next);
}

// The length of the complete blob at `data` as its header announces it
// (64 + P + L), or 0 when fewer than `available` bytes hold it.
inline size_t nestedBlobLength(const uint8_t* data, size_t available) {
  if (available < kHeaderBytes + kChecksumBytes) return 0;
  ByteReader params(data + 12, 4);
  ByteReader payload(data + 48, 8);
  uint32_t paramsLength = 0;
  uint64_t payloadLength = 0;
  params.u32(paramsLength);
  payload.u64(payloadLength);
  const uint64_t fixed = kHeaderBytes + kChecksumBytes;
  if (paramsLength > available - fixed || payloadLength > available - fixed - paramsLength) return 0;
  return static_cast<size_t>(fixed + paramsLength + payloadLength);
}

// The format version a nested blob's header announces (bytes 4-5), read
// before the blob is decoded: a nested blob must be in its envelope's version
// (see checkNestedVersion).
inline uint16_t nestedBlobVersion(const uint8_t* data) {
  return static_cast<uint16_t>(data[4] | (data[5] << 8));
}

// A composite's nested blobs are written in the version of the composite that
// holds them (a writer serializes the whole composite at once), so the bytes
// are canonical only when both say the same: a version-2 chain holding a
// version-1 link would be written back with a version-2 link, i.e. as other
// bytes than it was read from. Corrupt otherwise, naming the part.
inline Status checkNestedVersion(const DecodedBlob& envelope, const uint8_t* nested, const std::string& part) {
  const uint16_t version = nestedBlobVersion(nested);
  if (version == envelope.header.formatVersion) return Status::ok();
  return Status::corrupt(std::string(filterTypeName(envelope.header.type)) + " " + part + " is in format version " +
                         std::to_string(version) + ", its envelope in version " +
                         std::to_string(envelope.header.formatVersion) +
                         " (a nested blob must be in its envelope's version)");
}

// a + b into `sum`, false (sum unchanged) when it does not fit in 64 bits:
// counts read from bytes are summed with this, never modulo 2^64.
inline bool addWithoutWrap(uint64_t a, uint64_t b, uint64_t& sum) {
  if (b > UINT64_MAX - a) return false;
  sum = a + b;
  return true;
}

// Splits a chain's payload into its links' blobs; Corrupt unless it is exactly
// `linkCount` complete blobs end to end.
inline Status splitLinkBlobs(const DecodedBlob& blob, uint32_t linkCount,
                             std::vector<std::pair<const uint8_t*, size_t>>& out) {
  const char* name = filterTypeName(blob.header.type);
  if (linkCount == 0 || linkCount > kMaxChainLinks) {
    return Status::corrupt(std::string(name) + " link count " + std::to_string(linkCount) + " is outside 1.." +
                           std::to_string(kMaxChainLinks));
  }
  size_t offset = 0;
  for (uint32_t i = 0; i < linkCount; ++i) {
    const size_t length = nestedBlobLength(blob.payload + offset, blob.payloadLength - offset);
    if (length == 0) return Status::corrupt(std::string(name) + " link " + std::to_string(i) + " is truncated");
    out.emplace_back(blob.payload + offset, length);
    offset += length;
  }
  if (offset != blob.payloadLength) {
    return Status::corrupt(std::string(name) + ": " + std::to_string(blob.payloadLength - offset) +
                           " bytes follow the last link");
  }
  return Status::ok();
}

// A link read from a chain's bytes failed: damage inside a blob whose outer
// checksum held means it was built that way, so it is Corrupt (or an
// unsupported nested version).
inline Status linkError(FilterType chain, uint32_t index, const Status& status) {
  // Out of memory says nothing about the bytes: it stays OutOfMemory (bytes
  // called CORRUPT would be thrown away by a caller that could retry).
  const StatusCode code = status.code();
  return Status(code == StatusCode::UnsupportedVersion || code == StatusCode::OutOfMemory ? code : StatusCode::Corrupt,
                std::string(filterTypeName(chain)) + " link " + std::to_string(index) + ": " + status.message());
}

// The links and what every chain does the same way: has() on every link
// (newest first: the newest link is the largest and holds the most keys),
// the compound rate, the bytes. `Link` is the single-part filter class.
template <typename Link>
class LinkChain {
 public:
  bool has(const KeyHash& hash) const {
    for (size_t i = links_.size(); i-- > 0;) {
      if (links_[i].has(hash)) return true;
    }
    return false;
  }
  // 1 - prod(1 - e_i) over the links' own estimates.
  double estimatedFalsePositiveRate() const {
    double allMiss = 1.0;
    for (const Link& link : links_) allMiss *= 1.0 - link.estimatedFalsePositiveRate();
    return 1.0 - allMiss;
  }
  size_t byteLength() const {
    size_t total = 0;
    for (const Link& link : links_) total += link.byteLength();
    return total;
  }
  // Each link is at most kMaxCapacity (2^40) keys and there are at most 64
  // links, so this sum cannot wrap.
  uint64_t totalCapacity() const {
    uint64_t total = 0;
    for (const Link& link : links_) total += link.capacity();
    return total;
  }
  // The links' counts summed without wrapping: false when the sum exceeds
  // 2^64 - 1 (a reader refuses such bytes; the chains' add and union refuse to
  // reach it), so the chain's count is always the exact sum.
  bool totalCount(uint64_t& total) const {
    uint64_t sum = 0;
    for (const Link& link : links_) {
      if (!addWithoutWrap(sum, link.count(), sum)) return false;
    }
    total = sum;
    return true;
  }
  uint64_t totalCount() const {
    uint64_t total = UINT64_MAX;
    totalCount(total);
    return total;
  }
  std::vector<uint8_t> serializeLinks() const {
    std::vector<uint8_t> payload(linksByteCount());
    writeLinks(payload.data());
    return payload;
  }
  // The links' blobs end to end (a chain's payload): how many bytes, and
  // written into caller memory of that many, with no copy per link.
  size_t linksByteCount() const {
    size_t total = 0;
    for (const Link& link : links_) total += link.serializedSize();
    return total;
  }
  void writeLinks(uint8_t* out) const {
    for (const Link& link : links_) {
      link.serializeInto(out);
      out += link.serializedSize();
    }
  }
  // Empties the chain back to its first link (the schedule and seed stay).
  void clearToFirstLink() {
    links_.erase(links_.begin() + 1, links_.end());
    links_[0].clear();
  }

  std::vector<Link>& links() { return links_; }
  const std::vector<Link>& links() const { return links_; }

 private:
  std::vector<Link> links_;
};

}  // namespace cuckoo_bloom
