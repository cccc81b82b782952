// A URL blocklist's exact companion on arbitrary bytes (docs/FORMAT.md types
// 33 and 34): ExpressionSet::read (the whole companion, or one part of a split
// one) and ExpressionSetIndex::read (a split's index), as query --confirm,
// attachConfirmation and attachConfirmationParts read them.
//
// Checks: never crashes; fails only with CORRUPT / UNSUPPORTED_VERSION /
// WRONG_TYPE / OUT_OF_MEMORY and a message; allocation stays within ~1.5x the
// input (+4 KiB), so a header declaring 2^32 hashes costs nothing. An
// accepted set: its hashes are strictly ascending, as many as count(), each
// found, within the part's range when it is a part, and a probe between two
// of them is found exactly when hashes() holds it (a decoded block never
// answers for another); encoded again (whole, or as the part over its range)
// it reads back as the same hashes. An accepted index: at least one part,
// ranges that tile the 64-bit hash space in order, partOfHash naming the part
// whose range holds the hash, and checkPart of the input itself refused
// (an index is never a part) with a typed error.
//
// The custom mutator repairs the payload length and checksum, so mutations
// reach the Rice codes, the block index and the ranges behind them.
#include <algorithm>

#include "cuckoo_bloom/url/expression_set.h"
#include "fuzz_common.h"

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_fuzz;

namespace {

bool isReadError(StatusCode code) {
  return code == StatusCode::Corrupt || code == StatusCode::UnsupportedVersion || code == StatusCode::WrongType ||
         code == StatusCode::OutOfMemory;
}

// A refused input: one of the read errors, with a message.
void checkRefusal(const char* reader, const Status& status) {
  FUZZ_CHECK_MSG(isReadError(status.code()), "%s: unexpected %s: %s", reader, statusCodeName(status.code()),
                 status.message().c_str());
  FUZZ_CHECK(!status.message().empty());
}

// Runs one reader on the input: within the allocation budget, and when it
// refuses, with a read error and a message.
template <typename Read>
auto readWithinBudget(const char* reader, size_t size, Read read) {
  AllocationMeter meter;
  meter.start();
  auto result = read();
  meter.stop();
  FUZZ_CHECK_MSG(meter.totalBytes() <= allocationBudget(size), "%s of %zu bytes allocated %zu bytes", reader, size,
                 meter.totalBytes());
  if (!result.isOk()) checkRefusal(reader, result.status());
  return result;
}

void checkSet(const ExpressionSet& set, const uint8_t* data, size_t size) {
  const std::vector<uint64_t> hashes = set.hashes();
  FUZZ_CHECK_MSG(hashes.size() == set.count(), "count %llu, decoded %zu", static_cast<unsigned long long>(set.count()),
                 hashes.size());
  FUZZ_CHECK(std::adjacent_find(hashes.begin(), hashes.end(), std::greater_equal<uint64_t>()) == hashes.end());
  if (!set.isPart()) FUZZ_CHECK(set.rangeFirst() == 0 && set.rangeLast() == ~uint64_t{0});
  FUZZ_CHECK(set.rangeFirst() <= set.rangeLast());
  for (uint64_t hash : hashes) {
    FUZZ_CHECK(hash >= set.rangeFirst() && hash <= set.rangeLast());
    FUZZ_CHECK_MSG(set.containsHash(hash), "hash %016llx decoded but not found", static_cast<unsigned long long>(hash));
  }
  // Probes from the input's bytes and next to each hash: found exactly when held.
  std::vector<uint64_t> probes;
  for (size_t at = 0; at + 8 <= size && probes.size() < 64; at += 8) probes.push_back(readLE(data + at, 8));
  for (size_t i = 0; i < hashes.size() && i < 64; ++i) {
    probes.push_back(hashes[i] + 1);
    probes.push_back(hashes[i] - 1);
  }
  for (uint64_t probe : probes) {
    const bool held = std::binary_search(hashes.begin(), hashes.end(), probe);
    FUZZ_CHECK_MSG(set.containsHash(probe) == held, "probe %016llx: contains %d, held %d",
                   static_cast<unsigned long long>(probe), set.containsHash(probe), held);
  }
  // Encoded again from what was decoded: the same hashes read back.
  const std::vector<uint8_t> again =
      set.isPart() ? encodeExpressionSetPart(hashes, set.seed(), set.blocklistChecksum(), set.rangeFirst(), set.rangeLast())
                   : encodeExpressionSet(hashes, set.seed(), set.blocklistChecksum(), set.blockShift());
  Result<ExpressionSet> reread = ExpressionSet::read(again.data(), again.size());
  FUZZ_CHECK_MSG(reread.isOk(), "re-encoded set refused: %s", reread.status().message().c_str());
  FUZZ_CHECK(reread.value().hashes() == hashes);
  FUZZ_CHECK(reread.value().seed() == set.seed() && reread.value().blocklistChecksum() == set.blocklistChecksum());
}

void checkIndex(const ExpressionSetIndex& index, const uint8_t* data, size_t size) {
  const uint32_t parts = index.partCount();
  FUZZ_CHECK(parts >= 1);
  FUZZ_CHECK(index.partFirst(0) == 0);
  for (uint32_t part = 0; part < parts; ++part) {
    FUZZ_CHECK(index.partFirst(part) <= index.partLast(part));
    if (part + 1 < parts) FUZZ_CHECK(index.partLast(part) + 1 == index.partFirst(part + 1));
    FUZZ_CHECK(index.partOfHash(index.partFirst(part)) == part);
    FUZZ_CHECK(index.partOfHash(index.partLast(part)) == part);
    if (part >= 64) break;  // bounded work per input
  }
  FUZZ_CHECK(index.partLast(parts - 1) == ~uint64_t{0});
  for (size_t at = 0; at + 8 <= size && at < 512; at += 8) {
    const uint64_t hash = readLE(data + at, 8);
    const uint32_t part = index.partOfHash(hash);
    FUZZ_CHECK(part < parts && hash >= index.partFirst(part) && hash <= index.partLast(part));
  }
  // An index is never taken as a part, whichever number it is offered as.
  for (uint32_t part : {0u, parts - 1, parts}) {
    Result<ExpressionSet> asPart = index.checkPart(part, data, size);
    FUZZ_CHECK(!asPart.isOk());
    const StatusCode code = asPart.status().code();
    FUZZ_CHECK_MSG(isReadError(code) || code == StatusCode::InvalidArgument, "checkPart: %s", statusCodeName(code));
    FUZZ_CHECK(code != StatusCode::InvalidArgument || part == parts);
  }
}

}  // namespace

CUCKOO_BLOOM_FUZZ_BLOB_HOOKS(false)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Result<ExpressionSet> set = readWithinBudget("ExpressionSet::read", size, [&] { return ExpressionSet::read(data, size); });
  if (set.isOk()) checkSet(set.value(), data, size);
  Result<ExpressionSetIndex> index =
      readWithinBudget("ExpressionSetIndex::read", size, [&] { return ExpressionSetIndex::read(data, size); });
  if (index.isOk()) {
    FUZZ_CHECK_MSG(!set.isOk(), "the same bytes read as a set and as an index");
    checkIndex(index.value(), data, size);
  }
  return 0;
}
