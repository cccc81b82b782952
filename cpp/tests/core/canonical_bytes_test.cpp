// One canonical form (docs/SECURITY.md, "What each loader checks"): every blob
// a reader accepts serializes back to exactly its bytes, or, for version-1
// input, to version-2 bytes that then round-trip. The rules that make it so
// for the composites, each pinned by crafted bytes:
//   - a nested blob (a chain's link, an expiring filter's generation, a
//     blocklist's filter) is in its envelope's format version, else CORRUPT;
//   - the chains (types 17-19) exist from version 2: version-1 bytes of them
//     are CORRUPT; a version-1 blocklist of a version-1 filter is rewritten
//     as a whole;
//   - a chain's item count is the exact sum of its links' counts, summed
//     without wrapping modulo 2^64 (CORRUPT otherwise), and add and union
//     refuse to wrap it;
// then the property itself, on deterministic mutations of every golden file.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/chains/expiring_bloom_filter.h"
#include "cuckoo_bloom/chains/scalable_bloom_filter.h"
#include "cuckoo_bloom/chains/scalable_cuckoo_filter.h"
#include "cuckoo_bloom/registry/any_filter.h"
#include "cuckoo_bloom/url/url_blocklist.h"
#include "support/test_keys.h"

namespace cuckoo_bloom {
namespace {

using Bytes = std::vector<uint8_t>;
using cuckoo_bloom_test::goldenKey;
using cuckoo_bloom_test::readLE;
using cuckoo_bloom_test::writeLE;

constexpr size_t kVersionAt = 4, kTypeAt = 6, kParamsLengthAt = 12, kCountAt = 24, kPayloadLengthAt = 48;

Bytes goldenFile(const std::string& name) {
  std::ifstream in(std::string(CUCKOO_BLOOM_GOLDEN_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Where the nested blobs of a composite start (a chain's links end to end, or
// a blocklist's one filter), read from the lengths in their own headers.
std::vector<size_t> nestedOffsets(const Bytes& blob) {
  std::vector<size_t> offsets;
  if (blob.size() < 64) return offsets;
  const uint8_t type = blob[kTypeAt];
  if (type < 16 || type > 31) return offsets;
  size_t at = 56 + readLE(blob, kParamsLengthAt, 4);
  const size_t end = blob.size() - 8;
  while (at + 64 <= end) {
    const uint64_t length = 64 + readLE(blob, at + kParamsLengthAt, 4) + readLE(blob, at + kPayloadLengthAt, 8);
    if (length > end - at) break;
    offsets.push_back(at);
    at += length;
  }
  return offsets;
}

void resealOne(Bytes& bytes, size_t at, size_t length) {
  writeLE(bytes, at + length - 8, 8, formatChecksum(bytes.data() + at, length - 8));
}

// Recomputes every nested checksum, then the outer one: only the meaning of a
// change is then tested, never the checksum.
void reseal(Bytes& blob) {
  for (size_t at : nestedOffsets(blob)) {
    resealOne(blob, at, 64 + readLE(blob, at + kParamsLengthAt, 4) + readLE(blob, at + kPayloadLengthAt, 8));
  }
  resealOne(blob, 0, blob.size());
}

Bytes withNestedField(Bytes blob, size_t nestedIndex, size_t offset, int width, uint64_t value) {
  const std::vector<size_t> offsets = nestedOffsets(blob);
  EXPECT_LT(nestedIndex, offsets.size());
  writeLE(blob, offsets.at(nestedIndex) + offset, width, value);
  reseal(blob);
  return blob;
}

Result<std::unique_ptr<AnyFilter>> read(const Bytes& bytes) { return deserializeFilter(bytes.data(), bytes.size()); }

void expectCorrupt(const Bytes& bytes, const std::string& mentioning) {
  Result<std::unique_ptr<AnyFilter>> result = read(bytes);
  ASSERT_FALSE(result.isOk()) << "accepted; written back " << (result.value()->serialize() == bytes ? "the same" : "as other bytes");
  EXPECT_EQ(result.status().code(), StatusCode::Corrupt) << result.status().message();
  EXPECT_NE(result.status().message().find(mentioning), std::string::npos) << result.status().message();
}

const char* const kChainFiles[] = {"scalable-bloom.cbf", "scalable-cuckoo.cbf", "expiring-bloom.cbf"};

// ---- nested versions

TEST(CanonicalBytes, AVersion2ChainWithAVersion1LinkIsCorrupt) {
  for (const char* file : kChainFiles) {
    SCOPED_TRACE(file);
    const Bytes golden = goldenFile(file);
    ASSERT_TRUE(read(golden).isOk());
    ASSERT_GE(nestedOffsets(golden).size(), 2u);
    // Every link in turn: its bytes are otherwise those of a valid link. (A
    // version-1 cuckoo link already fails its own reader: its addressing and
    // layout bytes were reserved in version 1.)
    const std::string why = std::string(file) == "scalable-cuckoo.cbf" ? ": reserved parameter bytes"
                                                                        : " is in format version 1, its envelope in version 2";
    for (size_t link = 0; link < nestedOffsets(golden).size(); ++link) {
      expectCorrupt(withNestedField(golden, link, kVersionAt, 2, 1), "link " + std::to_string(link) + why);
    }
  }
}

TEST(CanonicalBytes, Version1ChainsAreCorruptWhateverTheirLinksSay) {
  for (const char* file : kChainFiles) {
    SCOPED_TRACE(file);
    Bytes bytes = goldenFile(file);
    writeLE(bytes, kVersionAt, 2, 1);
    reseal(bytes);
    expectCorrupt(bytes, "exist from format version 2");  // links still version 2
    for (size_t at : nestedOffsets(bytes)) writeLE(bytes, at + kVersionAt, 2, 1);
    reseal(bytes);
    expectCorrupt(bytes, "exist from format version 2");  // links version 1 as well
  }
}

Bytes blocklistOf(const Bytes& filter, uint32_t scheme = kExpressionSchemeSafeBrowsingV1, uint32_t depth = 0,
                  uint64_t entries = 50) {
  Result<Bytes> encoded = encodeUrlBlocklist(filter.data(), filter.size(), scheme, entries, depth);
  EXPECT_TRUE(encoded.isOk()) << encoded.status().message();
  return encoded.value();
}

Result<UrlBlocklistEnvelope> decode(const Bytes& bytes) { return decodeUrlBlocklist(bytes.data(), bytes.size()); }

// A nested version this build does not read is that, not damage: the same
// answer from a chain's link as from a blocklist's filter.
TEST(CanonicalBytes, ANestedBlobInAnUnreadableVersionIsUnsupportedVersion) {
  for (const char* file : kChainFiles) {
    SCOPED_TRACE(file);
    Result<std::unique_ptr<AnyFilter>> read3 = read(withNestedField(goldenFile(file), 0, kVersionAt, 2, 3));
    ASSERT_FALSE(read3.isOk());
    EXPECT_EQ(read3.status().code(), StatusCode::UnsupportedVersion) << read3.status().message();
  }
  const Bytes envelope = withNestedField(blocklistOf(goldenFile("bloom.cbf")), 0, kVersionAt, 2, 3);
  EXPECT_EQ(decode(envelope).status().code(), StatusCode::UnsupportedVersion);
}

TEST(CanonicalBytes, ABlocklistAndItsFilterAreInOneVersion) {
  // The version-1 golden Bloom filter is textbook-sizing/bloom.cbf in version 1.
  const Bytes envelope = blocklistOf(goldenFile("textbook-sizing/bloom.cbf"));
  ASSERT_TRUE(decode(envelope).isOk());

  // Version-2 envelope around a version-1 filter: no writer makes it, and it
  // would be written back with the filter in version 2.
  const Bytes v2AroundV1 = withNestedField(envelope, 0, kVersionAt, 2, 1);
  ASSERT_EQ(Bytes(v2AroundV1.begin() + 64, v2AroundV1.end() - 8), goldenFile("v1/bloom.cbf"));
  Result<UrlBlocklistEnvelope> refused = decode(v2AroundV1);
  ASSERT_FALSE(refused.isOk());
  EXPECT_EQ(refused.status().code(), StatusCode::Corrupt);
  EXPECT_NE(refused.status().message().find("nested filter in version 1"), std::string::npos)
      << refused.status().message();

  // Version-1 envelope around a version-2 filter: likewise.
  Bytes v1AroundV2 = envelope;
  writeLE(v1AroundV2, kVersionAt, 2, 1);
  reseal(v1AroundV2);
  EXPECT_EQ(decode(v1AroundV2).status().code(), StatusCode::Corrupt);

  // Version 1 throughout: read, and rewritten as a whole (the filter
  // serialized again, then wrapped) into exactly today's bytes.
  Bytes v1 = v2AroundV1;
  writeLE(v1, kVersionAt, 2, 1);
  reseal(v1);
  Result<UrlBlocklistEnvelope> old = decode(v1);
  ASSERT_TRUE(old.isOk()) << old.status().message();
  Result<std::unique_ptr<AnyFilter>> nested = deserializeFilter(old.value().filter, old.value().filterLength);
  ASSERT_TRUE(nested.isOk());
  EXPECT_EQ(blocklistOf(nested.value()->serialize()), envelope);

  // Scheme 2 came after version 2: a version-1 envelope with it is corrupt.
  Bytes v1Scheme2 = v1;
  writeLE(v1Scheme2, 56, 4, kExpressionSchemeListDepth);
  writeLE(v1Scheme2, 60, 4, 5 | (3 << 16));
  reseal(v1Scheme2);
  EXPECT_EQ(decode(v1Scheme2).status().code(), StatusCode::Corrupt);
}

TEST(CanonicalBytes, EncodeWrapsOnlyFiltersInTheVersionItWrites) {
  const Bytes v1 = goldenFile("v1/bloom.cbf");
  Result<Bytes> encoded = encodeUrlBlocklist(v1.data(), v1.size(), kExpressionSchemeSafeBrowsingV1, 50);
  ASSERT_FALSE(encoded.isOk());
  EXPECT_EQ(encoded.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(encoded.status().message().find("version 1"), std::string::npos) << encoded.status().message();
}

// ---- counts summed without wrapping

TEST(CanonicalBytes, LinkCountsThatWrapModulo2To64AreCorrupt) {
  for (const char* file : {"scalable-bloom.cbf", "expiring-bloom.cbf"}) {
    SCOPED_TRACE(file);
    const Bytes golden = goldenFile(file);
    const std::vector<size_t> links = nestedOffsets(golden);
    ASSERT_GE(links.size(), 2u);
    // Link 0 counts 2^64 - 1 more keys... and the header the sum modulo
    // 2^64: every link reads (a Bloom filter accepts any count), and the
    // header equals the wrapped sum, which is not the sum.
    const uint64_t before = readLE(golden, links[0] + kCountAt, 8);
    Bytes bytes = golden;
    writeLE(bytes, links[0] + kCountAt, 8, UINT64_MAX);
    writeLE(bytes, kCountAt, 8, readLE(golden, kCountAt, 8) - before - 1);
    reseal(bytes);
    expectCorrupt(bytes, "sum to more than 2^64 - 1");
    // The largest sum that fits reads, and writes back the same bytes.
    uint64_t others = 0;
    for (size_t i = 1; i < links.size(); ++i) others += readLE(golden, links[i] + kCountAt, 8);
    bytes = golden;
    writeLE(bytes, links[0] + kCountAt, 8, UINT64_MAX - others);
    writeLE(bytes, kCountAt, 8, UINT64_MAX);
    reseal(bytes);
    Result<std::unique_ptr<AnyFilter>> largest = read(bytes);
    ASSERT_TRUE(largest.isOk()) << largest.status().message();
    EXPECT_EQ(largest.value()->serialize(), bytes);
  }
}

// A chain read at the largest count refuses the add that would wrap it
// (FULL, bytes unchanged, every key still found) rather than writing bytes
// no reader accepts.
template <typename Chain>
void expectAddAtTheLargestCountRefused(const char* file) {
  SCOPED_TRACE(file);
  const Bytes golden = goldenFile(file);
  const std::vector<size_t> links = nestedOffsets(golden);
  uint64_t others = 0;
  for (size_t i = 1; i < links.size(); ++i) others += readLE(golden, links[i] + kCountAt, 8);
  Bytes bytes = golden;
  writeLE(bytes, links[0] + kCountAt, 8, UINT64_MAX - others);
  writeLE(bytes, kCountAt, 8, UINT64_MAX);
  reseal(bytes);
  Result<Chain> read = Chain::deserialize(bytes.data(), bytes.size());
  ASSERT_TRUE(read.isOk()) << read.status().message();
  Chain chain = std::move(read).value();
  Status added = chain.add("a key not in the golden set");
  EXPECT_EQ(added.code(), StatusCode::Full) << added.message();
  EXPECT_EQ(chain.serialize(), bytes);
  for (uint64_t i = 0; i < 50; ++i) EXPECT_TRUE(chain.has(goldenKey(i)));
}

TEST(CanonicalBytes, AnAddThatWouldWrapTheCountIsRefused) {
  expectAddAtTheLargestCountRefused<ScalableBloomFilter>("scalable-bloom.cbf");
  expectAddAtTheLargestCountRefused<ExpiringBloomFilter>("expiring-bloom.cbf");
}

TEST(CanonicalBytes, AUnionThatWouldWrapACountIsRefusedWithNothingChanged) {
  const Bytes golden = goldenFile("scalable-bloom.cbf");
  const std::vector<size_t> links = nestedOffsets(golden);
  // Link 0 at 2^63: alone it reads; the union with itself would count 2^64.
  Bytes bytes = golden;
  const uint64_t half = uint64_t{1} << 63;
  writeLE(bytes, links[0] + kCountAt, 8, half);
  writeLE(bytes, kCountAt, 8, half + readLE(golden, links[1] + kCountAt, 8));
  reseal(bytes);
  ScalableBloomFilter a = ScalableBloomFilter::deserialize(bytes.data(), bytes.size()).value();
  const ScalableBloomFilter b = ScalableBloomFilter::deserialize(bytes.data(), bytes.size()).value();
  Status merged = a.unionWith(b);
  EXPECT_EQ(merged.code(), StatusCode::InvalidArgument) << merged.message();
  EXPECT_EQ(a.serialize(), bytes);
  // A union that fits still works, and its bytes read back.
  ScalableBloomFilter c = ScalableBloomFilter::deserialize(golden.data(), golden.size()).value();
  ASSERT_TRUE(c.unionWith(ScalableBloomFilter::deserialize(golden.data(), golden.size()).value()).isOk());
  const Bytes unioned = c.serialize();
  EXPECT_TRUE(ScalableBloomFilter::deserialize(unioned.data(), unioned.size()).isOk());
}

// ---- the property, on every golden file

// Every accepted blob serializes back to itself; version-1 input to version-2
// bytes that then round-trip. `what` names the mutation for the failure.
void expectCanonicalIfAccepted(const Bytes& bytes, const std::string& what, size_t& accepted) {
  Result<std::unique_ptr<AnyFilter>> result = read(bytes);
  if (!result.isOk()) {
    const StatusCode code = result.status().code();
    EXPECT_TRUE(code == StatusCode::Corrupt || code == StatusCode::UnsupportedVersion || code == StatusCode::WrongType)
        << what << ": " << statusCodeName(code);
    return;
  }
  ++accepted;
  const Bytes out = result.value()->serialize();
  if (readLE(bytes, kVersionAt, 2) == kFormatVersion) {
    EXPECT_EQ(out, bytes) << what << ": accepted, but written back as other bytes";
    return;
  }
  ASSERT_EQ(readLE(out, kVersionAt, 2), kFormatVersion) << what;
  for (size_t at : nestedOffsets(out)) EXPECT_EQ(readLE(out, at + kVersionAt, 2), kFormatVersion) << what;
  Result<std::unique_ptr<AnyFilter>> again = read(out);
  ASSERT_TRUE(again.isOk()) << what << ": " << again.status().message();
  EXPECT_EQ(again.value()->serialize(), out) << what << ": version-1 input rewritten does not round-trip";
}

// Mutations of one blob (outer or nested) header and parameter block: every
// bit flipped, and the fields set to values that sit at the edges (version 1,
// counts 0 and 2^64 - 1), with every checksum recomputed.
void mutateEveryHeaderOf(const Bytes& golden, const std::string& name, size_t& tried, size_t& accepted) {
  std::vector<size_t> starts = {0};
  for (size_t at : nestedOffsets(golden)) starts.push_back(at);
  for (size_t start : starts) {
    const size_t covered = 56 + readLE(golden, start + kParamsLengthAt, 4);
    for (size_t byte = 0; byte < covered; ++byte) {
      for (int bit = 0; bit < 8; ++bit) {
        Bytes bytes = golden;
        bytes[start + byte] ^= static_cast<uint8_t>(1u << bit);
        reseal(bytes);
        ++tried;
        expectCanonicalIfAccepted(bytes, name + ": bit " + std::to_string(bit) + " of byte " +
                                             std::to_string(start + byte), accepted);
      }
    }
    // The `width`-byte field at `at` (from this header's start) set to `value`.
    const auto trySetting = [&](size_t at, int width, uint64_t value, const char* field) {
      Bytes bytes = golden;
      writeLE(bytes, start + at, width, value);
      reseal(bytes);
      ++tried;
      expectCanonicalIfAccepted(
          bytes, name + ": " + field + " " + std::to_string(value) + " at " + std::to_string(start), accepted);
    };
    for (uint64_t version : {0, 1, 2, 3}) trySetting(kVersionAt, 2, version, "version");
    for (uint64_t count : {uint64_t{0}, uint64_t{1}, UINT64_MAX, UINT64_MAX - 49, uint64_t{1} << 63}) {
      trySetting(kCountAt, 8, count, "count");
    }
  }
}

TEST(CanonicalBytes, EveryAcceptedMutationOfAGoldenFileWritesBackItsOwnBytes) {
  const char* const files[] = {"bloom.cbf", "blocked-bloom.cbf", "counting-bloom.cbf", "cuckoo.cbf",
                               "binary-fuse.cbf", "scalable-bloom.cbf", "scalable-cuckoo.cbf", "expiring-bloom.cbf",
                               "v1/bloom.cbf", "v1/blocked-bloom.cbf", "v1/counting-bloom.cbf", "v1/cuckoo.cbf",
                               "first-failure-sizing/cuckoo.cbf", "random-walk/scalable-cuckoo.cbf",
                               "textbook-sizing/bloom.cbf", "textbook-sizing/counting-bloom.cbf"};
  size_t tried = 0, accepted = 0;
  for (const char* file : files) mutateEveryHeaderOf(goldenFile(file), file, tried, accepted);
  // Blocklists: around today's filters, and version 1 throughout.
  for (const char* file : {"bloom.cbf", "cuckoo.cbf", "scalable-bloom.cbf", "expiring-bloom.cbf"}) {
    const Bytes envelope = blocklistOf(goldenFile(file));
    size_t envelopeAccepted = 0;
    std::vector<size_t> starts = {0, 64};
    for (size_t start : starts) {
      for (size_t byte = 0; byte < 64 + (start == 0 ? 0u : 16u); ++byte) {
        for (int bit = 0; bit < 8; ++bit) {
          Bytes bytes = envelope;
          bytes[start + byte] ^= static_cast<uint8_t>(1u << bit);
          reseal(bytes);
          ++tried;
          Result<UrlBlocklistEnvelope> decoded = decode(bytes);
          if (!decoded.isOk()) continue;
          // Rewritten as UrlBlocklist.serialize() does: the filter serialized
          // again, then wrapped with the scheme, count and depth read.
          Result<std::unique_ptr<AnyFilter>> nested =
              deserializeFilter(decoded.value().filter, decoded.value().filterLength);
          if (!nested.isOk()) continue;
          ++envelopeAccepted;
          const Bytes out = blocklistOf(nested.value()->serialize(), decoded.value().expressionScheme,
                                        decoded.value().depth, decoded.value().entryCount);
          if (readLE(bytes, kVersionAt, 2) == kFormatVersion) {
            EXPECT_EQ(out, bytes) << file << " blocklist: bit " << bit << " of byte " << start + byte;
          }
        }
      }
    }
    accepted += envelopeAccepted;
  }
  std::cout << "[ canonical ] " << tried << " mutated blobs, " << accepted << " accepted\n";
  // The sweep reaches the readers' checks, not only the checksum: a good share is accepted.
  EXPECT_GT(accepted, tried / 50);
}

}  // namespace
}  // namespace cuckoo_bloom
