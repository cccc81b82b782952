// CuckooFilter key operations against an exact model (std::multiset).
//
// Input: a config (capacity 1..64, bucket size 2/4/8, fingerprint bits
// derived or 4..32, maxKicks 0..500, rate, seed; or a raw-options mode that
// checks create()'s validation), then op bytes each followed by the key's
// letters. Ops: add, add the same key up to 16 times, remove, has,
// serialize+deserialize, clear.
//
// Every op runs on the filter and on a shadow copy that was deserialized from
// the filter's bytes at the last round trip: both must answer alike and stay
// byte-identical (a filter read back continues the same eviction walk).
//
// Removing a key that was never added is documented to be able to delete
// another key's fingerprint, so the target removes a key only when the model
// holds it, or when has() says it is absent (then NOT_FOUND, nothing changed).
// Checks after every op: no false negative; count == model size; for every
// (fingerprint, bucket pair) of the model, the number of slots holding that
// fingerprint in those two buckets equals the model's keys that map there; a
// FULL add happens only when both buckets were full and leaves every slot and
// the count as they were (only the walk's generator state moves).
#include <map>
#include <set>
#include <tuple>

#include "cuckoo_bloom/cuckoo_filter.h"
#include "fuzz_common.h"

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_fuzz;

namespace {

constexpr size_t kRngStateFrom = kHeader + 8;  // params: bucketCount u64, rngState u64, ...
constexpr size_t kRngStateTo = kHeader + 16;

struct Place {
  uint64_t bucket1, bucket2;
  uint32_t fingerprint;
};

Place placeOf(const CuckooFilter& filter, const std::string& key) {
  Place place{};
  filter.locate(bytesOf(key), key.size(), place.bucket1, place.bucket2, place.fingerprint);
  return place;
}

uint32_t slotsHolding(const CuckooFilter& filter, uint64_t bucket, uint32_t fingerprint) {
  uint32_t n = 0;
  for (uint32_t slot = 0; slot < filter.bucketSize(); ++slot) n += filter.slotAt(bucket, slot) == fingerprint;
  return n;
}

bool hasRoom(const CuckooFilter& filter, uint64_t bucket) { return slotsHolding(filter, bucket, 0) > 0; }

// `all`: the per-fingerprint accounting and a lookup of every model key
// (after removes, round trips, clears, adds that moved other fingerprints,
// every 8th op, and at the end; an add checks its own key).
void checkModel(const CuckooFilter& filter, const std::multiset<std::string>& model, bool all) {
  FUZZ_CHECK_MSG(filter.count() == model.size(), "count %llu, model %zu",
                 static_cast<unsigned long long>(filter.count()), model.size());
  if (!all) return;
  // Group the model's keys by where their fingerprint may live.
  std::map<std::tuple<uint32_t, uint64_t, uint64_t>, size_t> groups;
  for (const std::string& key : model) {
    const Place p = placeOf(filter, key);
    FUZZ_CHECK(p.bucket1 != p.bucket2);
    groups[{p.fingerprint, std::min(p.bucket1, p.bucket2), std::max(p.bucket1, p.bucket2)}]++;
  }
  for (const auto& [where, expected] : groups) {
    const auto& [fingerprint, low, high] = where;
    const size_t held = slotsHolding(filter, low, fingerprint) + slotsHolding(filter, high, fingerprint);
    FUZZ_CHECK_MSG(held == expected, "fingerprint %u in buckets %llu/%llu: %zu slots, %zu keys",
                   fingerprint, static_cast<unsigned long long>(low),
                   static_cast<unsigned long long>(high), held, expected);
  }
  for (auto it = model.begin(); it != model.end(); it = model.upper_bound(*it)) {
    FUZZ_CHECK_MSG(filter.has(*it), "false negative: \"%s\"", it->c_str());
  }
}

CuckooFilter deserializeChecked(const Bytes& bytes) {
  Result<CuckooFilter> copy = CuckooFilter::deserialize(bytes.data(), bytes.size());
  FUZZ_CHECK_MSG(copy.isOk(), "round trip: %s", copy.status().message().c_str());
  FUZZ_CHECK(copy.value().serialize() == bytes);
  return std::move(copy).value();
}

struct Pair {
  CuckooFilter filter;
  CuckooFilter shadow;
};

// add on both; returns whether the key went in.
bool addChecked(Pair& pair, std::multiset<std::string>& model, const std::string& key) {
  CuckooFilter& filter = pair.filter;
  const Place p = placeOf(filter, key);
  const bool room = hasRoom(filter, p.bucket1) || hasRoom(filter, p.bucket2);
  const Bytes before = filter.serialize();
  const Status status = filter.add(key);
  const Status shadowStatus = pair.shadow.add(key);
  FUZZ_CHECK(status.code() == shadowStatus.code());
  if (status.isOk()) {
    model.insert(key);
    FUZZ_CHECK(filter.has(key));
    // The walk's record ends at the free slot that took the last fingerprint.
    const std::vector<CuckooKick>& path = filter.lastKickPath();
    FUZZ_CHECK(path.empty() == room);
    if (!path.empty()) {
      FUZZ_CHECK(filter.slotAt(path.back().bucket, path.back().slot) == path.back().fingerprint);
    }
    return true;
  }
  FUZZ_CHECK_MSG(status.code() == StatusCode::Full, "add: %s", status.message().c_str());
  FUZZ_CHECK_MSG(!room, "FULL although one of the key's buckets had room");
  FUZZ_CHECK_MSG(equalExcept(before, filter.serialize(), kRngStateFrom, kRngStateTo),
                 "a FULL add changed the table or the count");
  FUZZ_CHECK(filter.lastKickPath().size() == filter.maxKicks());
  return false;
}

bool removeChecked(Pair& pair, std::multiset<std::string>& model, const std::string& key) {
  auto held = model.find(key);
  if (held != model.end()) {
    const Status status = pair.filter.remove(key);
    FUZZ_CHECK_MSG(status.isOk(), "remove of a held key: %s", status.message().c_str());
    FUZZ_CHECK(pair.shadow.remove(key).isOk());
    model.erase(held);
    return true;
  }
  if (!pair.filter.has(key)) {
    const Bytes before = pair.filter.serialize();
    FUZZ_CHECK(pair.filter.remove(key).code() == StatusCode::NotFound);
    FUZZ_CHECK(pair.shadow.remove(key).code() == StatusCode::NotFound);
    FUZZ_CHECK(pair.filter.serialize() == before);
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  KeyStream in(data, size);
  const uint8_t config = in.byte();
  CuckooFilterOptions options;
  if (config & 0x80) {
    // Raw options: create() must accept exactly the documented ranges.
    options.capacity = 1 + in.byte();
    options.falsePositiveRate = in.f64();
    options.bucketSize = static_cast<uint32_t>(in.u64(1));
    options.fingerprintBits = static_cast<uint32_t>(in.u64(1));
    options.maxKicks = static_cast<uint32_t>(in.u64(4));
    options.seed = in.u64(8);
    const bool validRate = options.falsePositiveRate > 0.0 && options.falsePositiveRate < 1.0;
    const bool valid =
        (options.bucketSize == 2 || options.bucketSize == 4 || options.bucketSize == 8) &&
        (options.fingerprintBits == 0 ? validRate
                                      : options.fingerprintBits >= 4 && options.fingerprintBits <= 32) &&
        options.maxKicks <= CuckooFilter::kMaxKicksLimit;
    Result<CuckooFilter> created = CuckooFilter::create(options);
    FUZZ_CHECK_MSG(created.isOk() == valid, "create: %s", created.status().message().c_str());
    if (!created.isOk()) {
      FUZZ_CHECK(created.status().code() == StatusCode::InvalidArgument);
      return 0;
    }
    const CuckooFilter& filter = created.value();
    FUZZ_CHECK(filter.targetFalsePositiveRate() > 0.0 && filter.targetFalsePositiveRate() < 1.0);
    FUZZ_CHECK(filter.fingerprintBits() >= 4 && filter.fingerprintBits() <= 32);
    if (options.fingerprintBits != 0) FUZZ_CHECK(filter.fingerprintBits() == options.fingerprintBits);
    // Long walks and big tables are too slow to exercise here.
    if (options.maxKicks > 1000 || filter.byteLength() > 8192) return 0;
  } else {
    static const uint32_t kKicks[] = {0, 1, 2, 5, 20, 100, 500, 3};
    const uint8_t geometry = in.byte();
    options.capacity = 1 + (config & 63);
    options.bucketSize = 2u << (geometry % 3);
    const uint8_t bits = in.byte() % 32;
    options.fingerprintBits = bits < 4 ? 0 : bits + 1;  // 0 (derived) or 5..32; 4 below
    if (bits == 3) options.fingerprintBits = 4;
    options.maxKicks = kKicks[(geometry >> 2) & 7];
    options.falsePositiveRate = rateFromByte(geometry >> 5);
    options.seed = in.byte() * 0x9E3779B97F4A7C15ull;
  }

  Result<CuckooFilter> created = CuckooFilter::create(options);
  FUZZ_CHECK_MSG(created.isOk(), "%s", created.status().message().c_str());
  const Bytes initial = created.value().serialize();
  Pair pair{std::move(created).value(), deserializeChecked(initial)};
  FUZZ_CHECK(pair.filter.capacity() == options.capacity && pair.filter.bucketSize() == options.bucketSize);
  FUZZ_CHECK(pair.filter.slotCount() >= 2 * options.bucketSize);
  std::multiset<std::string> model;

  for (unsigned step = 0; !in.empty(); ++step) {
    const uint8_t op = in.byte();
    const std::string key = in.key(op >> 4);
    switch (op & 7) {
      case 0: case 1:
        addChecked(pair, model, key);
        break;
      case 2: case 3:
        removeChecked(pair, model, key);
        break;
      case 4:
        FUZZ_CHECK(pair.filter.has(key) == pair.shadow.has(key));
        if (model.count(key)) FUZZ_CHECK(pair.filter.has(key));
        break;
      case 5: {
        const Bytes bytes = pair.filter.serialize();
        FUZZ_CHECK_MSG(pair.shadow.serialize() == bytes, "the deserialized copy diverged");
        pair.shadow = deserializeChecked(bytes);
        if (op & 0x80) pair.filter = deserializeChecked(bytes);
        break;
      }
      case 6:
        for (int i = 0, n = 1 + 5 * (op >> 6); i < n; ++i) {
          if (!addChecked(pair, model, key)) break;
        }
        break;
      case 7:
        if ((op >> 6) == 3) {
          pair.filter.clear();
          pair.shadow.clear();
          model.clear();
          for (const std::string& k : allKeys()) FUZZ_CHECK(!pair.filter.has(k));
        } else {
          while (removeChecked(pair, model, key)) {}
        }
        break;
    }
    const unsigned kind = op & 7;
    const bool walked = !pair.filter.lastKickPath().empty();
    checkModel(pair.filter, model,
               kind == 2 || kind == 3 || kind == 5 || kind == 7 || walked || step % 8 == 7);
  }
  checkModel(pair.filter, model, true);
  FUZZ_CHECK(pair.shadow.serialize() == pair.filter.serialize());
  return 0;
}
