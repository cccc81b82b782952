// BloomFilter key operations against an exact model (std::set of the keys).
//
// Input: a config (capacity 1..64 or a raw options mode, rate, seed), then op
// bytes, each followed by the key's letters (KeyStream: 0..3 letters of
// "abcd"). Ops: add to A, has on A, serialize+deserialize A, add to B, union
// B into A, clear A. B is a second filter with the same options.
//
// Checks after every op: no false negative (every model key is found);
// add() counts exactly the keys that were not already reported present;
// count <= set bits; union keeps the keys of both and a count within
// [max(cA, cB), min(cA + cB, set bits)]; round trips give identical bytes and
// the same answers for all 85 alphabet keys.
#include <set>

#include "cuckoo_bloom/bloom_filter.h"
#include "fuzz_common.h"

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_fuzz;

namespace {

// `exactCount`: no union since the last clear, so count <= distinct keys
// added (a union estimates its count, and may count a shared key twice).
// `all`: look up every model key (after the ops that could lose one, every
// 8th op, and at the end; an add checks its own key).
void checkModel(const BloomFilter& filter, const std::set<std::string>& model, bool exactCount,
                bool all) {
  if (all) {
    for (const std::string& key : model) FUZZ_CHECK_MSG(filter.has(key), "false negative: \"%s\"", key.c_str());
  }
  if (exactCount) FUZZ_CHECK(filter.count() <= model.size());
  FUZZ_CHECK(filter.count() <= filter.setBitCount());
}

void addChecked(BloomFilter& filter, std::set<std::string>& model, const std::string& key) {
  const bool before = filter.has(key);
  const uint64_t countBefore = filter.count();
  filter.add(key);
  model.insert(key);
  FUZZ_CHECK(filter.has(key));
  FUZZ_CHECK(filter.count() == countBefore + (before ? 0 : 1));
}

BloomFilter roundTrip(const BloomFilter& filter) {
  const Bytes bytes = filter.serialize();
  Result<BloomFilter> copy = BloomFilter::deserialize(bytes.data(), bytes.size());
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
  BloomFilterOptions options;
  if (config & 0x80) {
    // Raw options: any rate (NaN, 0, 1, negative, subnormal...) with a small
    // capacity. create() must reject exactly the invalid ones, and the
    // sizing of the valid ones must not overflow.
    options.capacity = 1 + in.byte();
    options.falsePositiveRate = in.f64();
    options.seed = in.u64(8);
    const bool validRate = options.falsePositiveRate > 0.0 && options.falsePositiveRate < 1.0;
    if (validRate) {
      const uint64_t bits = BloomFilter::optimalBitCount(options.capacity, options.falsePositiveRate);
      FUZZ_CHECK(bits >= 1);
      if (bits > (uint64_t{1} << 24)) return 0;  // valid but too big to exercise here
    }
    Result<BloomFilter> created = BloomFilter::create(options);
    FUZZ_CHECK(created.isOk() == validRate);
    if (!created.isOk()) {
      FUZZ_CHECK(created.status().code() == StatusCode::InvalidArgument);
      return 0;
    }
    FUZZ_CHECK(created.value().targetFalsePositiveRate() == options.falsePositiveRate);
    // Tables over 8 KiB make every round trip slow; the op stream runs on
    // the small ones (the ops are the same at any size).
    if (created.value().byteLength() > 8192) return 0;
  } else {
    options.capacity = 1 + (config & 63);
    options.falsePositiveRate = rateFromByte(in.byte());
    options.seed = in.byte() * 0x9E3779B97F4A7C15ull;
  }

  Result<BloomFilter> createdA = BloomFilter::create(options);
  Result<BloomFilter> createdB = BloomFilter::create(options);
  FUZZ_CHECK(createdA.isOk() && createdB.isOk());
  BloomFilter a = std::move(createdA).value();
  BloomFilter b = std::move(createdB).value();
  FUZZ_CHECK(a.capacity() == options.capacity && a.seed() == options.seed);
  FUZZ_CHECK(a.hashCount() >= 1 && a.hashCount() <= 64 && a.bitCount() >= 1);
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
        FUZZ_CHECK(a.count() >= std::max(countA, countB));
        FUZZ_CHECK(a.count() <= std::min(countA + countB, a.setBitCount()));
        a = roundTrip(a);  // the union's count must satisfy the reader
        break;
      }
      case 7:
        if ((op >> 6) == 3) {
          a.clear();
          modelA.clear();
          unioned = false;
          FUZZ_CHECK(a.count() == 0 && a.setBitCount() == 0);
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
