// CountingBloomFilter key operations against an exact model (std::multiset).
//
// Input: a config (capacity 1..64 or raw options, rate, seed), then op bytes
// each followed by the key's letters. Ops: add, add the same key up to 16
// times (to saturate counters), remove, remove every copy, has,
// serialize+deserialize, clear.
//
// Removing a key that was never added is documented to be able to zero
// counters of other keys (docs/SECURITY.md), so the target removes a key only
// when the model holds it, or when has() says it is absent (then remove()
// must be NOT_FOUND and change nothing). Checks after every op: no false
// negative; count == adds - successful removes (== model size); a remove of a
// held key is Ok; round trips give identical bytes and the same answers for
// all 85 alphabet keys.
#include <set>

#include "cuckoo_bloom/bloom_filter.h"
#include "cuckoo_bloom/counting_bloom_filter.h"
#include "fuzz_common.h"

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_fuzz;

namespace {

// `all`: look up every model key (after removes, round trips and clears,
// every 8th op, and at the end; an add checks its own key).
void checkModel(const CountingBloomFilter& filter, const std::multiset<std::string>& model, bool all) {
  for (auto it = model.begin(); all && it != model.end(); it = model.upper_bound(*it)) {
    FUZZ_CHECK_MSG(filter.has(*it), "false negative: \"%s\" (added %zu times net)", it->c_str(),
                   model.count(*it));
  }
  FUZZ_CHECK_MSG(filter.count() == model.size(), "count %llu, model %zu",
                 static_cast<unsigned long long>(filter.count()), model.size());
}

void addChecked(CountingBloomFilter& filter, std::multiset<std::string>& model, const std::string& key) {
  filter.add(key);
  model.insert(key);
  FUZZ_CHECK(filter.has(key));
}

// Removes `key` if that is safe to do; returns whether the model lost a copy.
bool removeChecked(CountingBloomFilter& filter, std::multiset<std::string>& model, const std::string& key) {
  auto held = model.find(key);
  if (held != model.end()) {
    const Status status = filter.remove(key);
    FUZZ_CHECK_MSG(status.isOk(), "remove of a held key: %s", status.message().c_str());
    model.erase(held);
    return true;
  }
  if (!filter.has(key)) {
    const Bytes before = filter.serialize();
    FUZZ_CHECK(filter.remove(key).code() == StatusCode::NotFound);
    FUZZ_CHECK(filter.serialize() == before);
  }
  // else: a false positive; removing it could take other keys' counts.
  return false;
}

CountingBloomFilter roundTrip(const CountingBloomFilter& filter) {
  const Bytes bytes = filter.serialize();
  Result<CountingBloomFilter> copy = CountingBloomFilter::deserialize(bytes.data(), bytes.size());
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
  CountingBloomFilterOptions options;
  if (config & 0x80) {
    options.capacity = 1 + in.byte();
    options.falsePositiveRate = in.f64();
    options.seed = in.u64(8);
    const bool validRate = options.falsePositiveRate > 0.0 && options.falsePositiveRate < 1.0;
    if (validRate &&
        BloomFilter::optimalBitCount(options.capacity, options.falsePositiveRate) > (uint64_t{1} << 22)) {
      return 0;  // valid, but too big to exercise here
    }
    Result<CountingBloomFilter> created = CountingBloomFilter::create(options);
    FUZZ_CHECK(created.isOk() == validRate);
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

  Result<CountingBloomFilter> created = CountingBloomFilter::create(options);
  FUZZ_CHECK(created.isOk());
  CountingBloomFilter filter = std::move(created).value();
  FUZZ_CHECK(filter.capacity() == options.capacity && filter.counterCount() >= 1);
  std::multiset<std::string> model;

  for (unsigned step = 0; !in.empty(); ++step) {
    const uint8_t op = in.byte();
    const std::string key = in.key(op >> 4);
    switch (op & 7) {
      case 0: case 1:
        addChecked(filter, model, key);
        break;
      case 2: case 3:
        removeChecked(filter, model, key);
        break;
      case 4:
        if (model.count(key)) FUZZ_CHECK(filter.has(key));
        break;
      case 5:
        filter = roundTrip(filter);
        break;
      case 6:
        for (int i = 0, n = 1 + 5 * (op >> 6); i < n; ++i) addChecked(filter, model, key);
        break;
      case 7:
        if ((op >> 6) == 3) {
          filter.clear();
          model.clear();
          FUZZ_CHECK(filter.count() == 0 && filter.saturatedCounterCount() == 0);
          for (const std::string& k : allKeys()) FUZZ_CHECK(!filter.has(k));
        } else {
          while (removeChecked(filter, model, key)) {}
        }
        break;
    }
    const unsigned kind = op & 7;
    checkModel(filter, model, kind == 2 || kind == 3 || kind == 5 || kind == 7 || step % 8 == 7);
  }
  checkModel(filter, model, true);
  roundTrip(filter);
  return 0;
}
