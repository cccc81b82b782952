// BlockedBloomFilter key operations against an exact model (std::set).
//
// Same op stream as ops_bloom.cpp: add to A, has, serialize+deserialize,
// add to B, union B into A, clear. Checks after every op: no false negative;
// add() counts exactly the keys that were not already reported present;
// count <= set bits; union keeps the keys of both, count = min(cA + cB, set
// bits); round trips give identical bytes and the same answers for all 85
// alphabet keys. The raw-options mode checks create() on any rate.
#include <set>

#include "cuckoo_bloom/blocked_bloom_filter.h"
#include "fuzz_common.h"

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_fuzz;

namespace {

uint64_t setBits(const BlockedBloomFilter& filter) {
  uint64_t total = 0;
  for (size_t w = 0; w < filter.byteLength() / 8; ++w) total += __builtin_popcountll(filter.words()[w]);
  return total;
}

// `exactCount`: no union since the last clear, so count <= distinct keys
// added (a union keeps the sum of both counts: a shared key counts twice).
// `all`: look up every model key (after the ops that could lose one, every
// 8th op, and at the end; an add checks its own key).
void checkModel(const BlockedBloomFilter& filter, const std::set<std::string>& model, bool exactCount,
                bool all) {
  if (all) {
    for (const std::string& key : model) FUZZ_CHECK_MSG(filter.has(key), "false negative: \"%s\"", key.c_str());
  }
  if (exactCount) FUZZ_CHECK(filter.count() <= model.size());
  FUZZ_CHECK(filter.count() <= setBits(filter));
}

void addChecked(BlockedBloomFilter& filter, std::set<std::string>& model, const std::string& key) {
  const bool before = filter.has(key);
  const uint64_t countBefore = filter.count();
  filter.add(key);
  model.insert(key);
  FUZZ_CHECK(filter.has(key));
  FUZZ_CHECK(filter.count() == countBefore + (before ? 0 : 1));
}

BlockedBloomFilter roundTrip(const BlockedBloomFilter& filter) {
  const Bytes bytes = filter.serialize();
  Result<BlockedBloomFilter> copy = BlockedBloomFilter::deserialize(bytes.data(), bytes.size());
  FUZZ_CHECK_MSG(copy.isOk(), "round trip: %s", copy.status().message().c_str());
  FUZZ_CHECK(copy.value().serialize() == bytes);
  for (const std::string& key : allKeys()) FUZZ_CHECK(copy.value().has(key) == filter.has(key));
  FUZZ_CHECK(copy.value().count() == filter.count());
  return std::move(copy).value();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  KeyStream in(data, size);
  const uint8_t config = in.byte();
  BlockedBloomFilterOptions options;
  if (config & 0x80) {
    options.capacity = 1 + in.byte();
    options.falsePositiveRate = in.f64();
    options.seed = in.u64(8);
    const bool validRate = options.falsePositiveRate > 0.0 && options.falsePositiveRate < 1.0;
    if (validRate) {
      // Sizing bisects over the block count; tiny rates need more blocks than
      // the limit (UINT64_MAX then, and create() says INVALID_ARGUMENT).
      const uint64_t blocks = BlockedBloomFilter::blockCountFor(options.capacity, options.falsePositiveRate);
      FUZZ_CHECK(blocks >= 1);
      if (blocks != UINT64_MAX && blocks > (uint64_t{1} << 16)) return 0;  // valid, too big here
      if (blocks != UINT64_MAX) {
        const double expected = BlockedBloomFilter::expectedFalsePositiveRate(
            static_cast<double>(options.capacity) / static_cast<double>(blocks));
        FUZZ_CHECK(expected <= options.falsePositiveRate * BlockedBloomFilter::kSizingMargin * (1 + 1e-9));
      }
    }
    Result<BlockedBloomFilter> created = BlockedBloomFilter::create(options);
    if (!validRate) FUZZ_CHECK(!created.isOk());
    if (!created.isOk()) {
      FUZZ_CHECK(created.status().code() == StatusCode::InvalidArgument);
      return 0;
    }
    if (created.value().byteLength() > 8192) return 0;  // the op stream runs on small tables
  } else {
    options.capacity = 1 + (config & 63);
    options.falsePositiveRate = rateFromByte(in.byte());
    options.seed = in.byte() * 0x9E3779B97F4A7C15ull;
  }

  Result<BlockedBloomFilter> createdA = BlockedBloomFilter::create(options);
  Result<BlockedBloomFilter> createdB = BlockedBloomFilter::create(options);
  FUZZ_CHECK(createdA.isOk() && createdB.isOk());
  BlockedBloomFilter a = std::move(createdA).value();
  BlockedBloomFilter b = std::move(createdB).value();
  FUZZ_CHECK(a.capacity() == options.capacity && a.seed() == options.seed && a.blockCount() >= 1);
  std::set<std::string> modelA, modelB;
  bool unioned = false;

  for (unsigned step = 0; !in.empty(); ++step) {
    const uint8_t op = in.byte();
    const std::string key = in.key(op >> 4);
    switch (op & 7) {
      case 0: case 1: case 2:
        addChecked(a, modelA, key);
        break;
      case 3:
        if (modelA.count(key)) FUZZ_CHECK(a.has(key));
        break;
      case 4:
        a = roundTrip(a);
        break;
      case 5:
        addChecked(b, modelB, key);
        break;
      case 6: {
        const uint64_t countA = a.count(), countB = b.count();
        FUZZ_CHECK(a.unionWith(b).isOk());
        modelA.insert(modelB.begin(), modelB.end());
        unioned = true;
        FUZZ_CHECK(a.count() == std::min(countA + countB, setBits(a)));
        a = roundTrip(a);
        break;
      }
      case 7:
        if ((op >> 6) == 3) {
          a.clear();
          modelA.clear();
          unioned = false;
          FUZZ_CHECK(a.count() == 0 && setBits(a) == 0);
          for (const std::string& k : allKeys()) FUZZ_CHECK(!a.has(k));
        }
        break;
    }
    const unsigned kind = op & 7;
    checkModel(a, modelA, !unioned, kind >= 4 || step % 8 == 7);
  }
  checkModel(a, modelA, !unioned, true);
  checkModel(b, modelB, true, true);
  roundTrip(a);
  roundTrip(b);
  return 0;
}
