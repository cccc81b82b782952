// Writes the seed corpora of the fuzz targets (cpp/fuzz/corpus/<target>/),
// for every type of filter_types.h, through the registry (any_filter.h):
//
//   build-fuzz/make_corpus tests/golden cpp/fuzz/corpus
//
// deserialize_filter gets, per type: the golden blob (tests/golden/<name>.cbf,
// format version 2) and its version-1 original (tests/golden/v1/<name>.cbf)
// when they exist, small filters in several geometries (empty, partly filled,
// saturated, full; more geometries for types taking the cuckoo options), and
// damaged blobs. deserialize_url_blocklist gets envelopes around the golden
// filter and two small ones of each type. ops_filter gets op streams (first
// byte: the type's index in registeredFilterTypes()) chosen by what the type
// supports: unions and round trips without removal; saturation, churn and
// remove-all with removal; a full table, duplicates and wide fingerprints for
// types taking the cuckoo options; a raw-options stream for every type.
//
// deserialize_companion gets the golden companion and its split (index and
// parts, tests/golden/url-expression-set.confirm*), and small sets, parts and
// indexes of its own: empty, one hash, narrow blocks, many parts.
//
// Output is deterministic, so rerunning changes nothing unless the library's
// bytes changed. Files with other names are left alone: the regression-*
// inputs, and the v1-* blobs and envelopes that earlier builds (format
// version 1) wrote, kept as version-1 seeds.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "cuckoo_bloom/cuckoo_bloom.h"
#include "cuckoo_bloom/url/expression_set.h"

using namespace cuckoo_bloom;
using Bytes = std::vector<uint8_t>;
struct Named {
  std::string name;
  Bytes bytes;
};

namespace {

std::string root;
int written = 0;

void write(const std::string& target, const std::string& name, const Bytes& bytes) {
  std::filesystem::create_directories(root + "/" + target);
  const std::string path = root + "/" + target + "/" + name;
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    std::fprintf(stderr, "make_corpus: cannot write %s\n", path.c_str());
    std::exit(1);
  }
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  ++written;
}

std::optional<Bytes> readIfPresent(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string key(int i) { return "key-" + std::to_string(i); }

template <typename T>
T must(Result<T> result) {
  if (!result.isOk()) {
    std::fprintf(stderr, "make_corpus: %s\n", result.status().message().c_str());
    std::exit(1);
  }
  return std::move(result).value();
}

void addKey(AnyFilter& filter, const std::string& k) {
  (void)filter.add(reinterpret_cast<const uint8_t*>(k.data()), k.size());  // may be FULL
}

// Whether a type takes the cuckoo options (asked of create itself, as ops_filter does).
bool takesCuckooOptions(FilterType type) {
  CoreFilterOptions probe;
  probe.capacity = 1;
  probe.falsePositiveRate = 0.5;
  probe.bucketSize = 4;
  return createFilter(type, probe).isOk();
}

// ------------------------------------------------------------------ blobs

struct Geometry {
  const char* name;
  uint64_t capacity;
  double rate;
  uint64_t seed;
  int keys;
};
const Geometry kGeometries[] = {
    {"empty-1", 1, 0.5, 0, 0},     {"cap8-half", 8, 0.1, 7, 4},    {"cap8-over", 8, 0.3, 1, 40},
    {"cap64-full", 64, 0.01, 9, 64}, {"cap16-tiny-rate", 16, 1e-6, 3, 10},
};

std::vector<Named> blobsOf(const FilterTypeInfo& info) {
  std::vector<Named> out;
  for (const Geometry& g : kGeometries) {
    CoreFilterOptions options;
    options.capacity = g.capacity;
    options.falsePositiveRate = g.rate;
    options.seed = g.seed;
    if (info.isStatic) {  // built from the geometry's keys (a static type has no add)
      std::vector<KeyHash> hashes;
      for (int i = 0; i < g.keys; ++i) hashes.push_back(hashKey(key(i), g.seed));
      out.push_back({g.name, must(buildFilter(info.type, options, hashes.data(), hashes.size()))->serialize()});
      continue;
    }
    std::unique_ptr<AnyFilter> f = must(createFilter(info.type, options));
    for (int i = 0; i < g.keys; ++i) addKey(*f, key(i));
    if (info.supportsRemove) {
      for (int i = 0; i < g.keys; i += 3) (void)f->remove(reinterpret_cast<const uint8_t*>(key(i).data()), key(i).size());
      for (int r = 0; r < 20 && g.keys > 30; ++r) addKey(*f, key(0));  // saturate key-0 (or its copies)
    }
    out.push_back({g.name, f->serialize()});
  }
  if (takesCuckooOptions(info.type)) {
    struct C {
      const char* name;
      uint64_t capacity;
      int64_t bucketSize, fingerprintBits, maxKicks;
      int keys;
    };
    const C kCuckoo[] = {{"empty-b2-f4-nokicks", 1, 2, 4, 0, 0},
                         {"cap8-b4-half", 8, 4, -1, 500, 6},
                         {"cap8-b2-f13-full", 8, 2, 13, 20, 40},
                         {"cap16-b8-f32", 16, 8, 32, 5, 20},
                         {"cap64-b4-f7-full", 64, 4, 7, 100, 90}};
    uint64_t seed = 5;
    for (const C& c : kCuckoo) {
      CoreFilterOptions o;
      o.capacity = c.capacity;
      // A given width must meet the rate (create() refuses a contradiction): the
      // narrow ones ask a rate their buckets can give, about 2b / 2^f.
      o.falsePositiveRate = c.fingerprintBits > 0 && c.fingerprintBits < 12 ? 0.3 : 0.01;
      // Each option only where the type takes it (the registry's list): a
      // growing cuckoo chain takes bucketSize but derives its widths and walks.
      if (info.options.contains(OptionId::BucketSize)) o.bucketSize = c.bucketSize;
      if (c.fingerprintBits > 0 && info.options.contains(OptionId::FingerprintBits)) {
        o.fingerprintBits = c.fingerprintBits;  // -1: derived from the rate
      }
      if (info.options.contains(OptionId::MaxKicks)) o.maxKicks = c.maxKicks;
      o.seed = seed++;
      std::unique_ptr<AnyFilter> f = must(createFilter(info.type, o));
      for (int i = 0; i < c.keys; ++i) addKey(*f, key(i));  // the later ones may be FULL
      out.push_back({c.name, f->serialize()});
    }
  }
  return out;
}

// A few damaged variants of a valid blob (the target also reaches these by
// mutation; seeding them covers every early rejection from the start).
void writeDamaged(const std::string& target, const std::string& type, const Bytes& valid) {
  write(target, "damaged-" + type + "-truncated", Bytes(valid.begin(), valid.begin() + 63));
  Bytes flipped = valid;
  flipped[flipped.size() / 2] ^= 0x10;
  write(target, "damaged-" + type + "-checksum", flipped);
  Bytes version = valid;
  version[4] = static_cast<uint8_t>(kFormatVersion + 1);
  write(target, "damaged-" + type + "-version", version);
}

// ------------------------------------------------------------------ op streams

// See ops_filter.cpp for the layout. Keys are 0..3 letters; the letter bytes
// follow the op byte. `kind` is the op's low 4 bits (bit 3: the other table).
class Ops {
 public:
  explicit Ops(std::initializer_list<uint8_t> config) : bytes_(config) {}
  Ops& op(uint8_t kind, const std::string& letters, uint8_t high = 0) {
    bytes_.push_back(static_cast<uint8_t>(kind | (letters.size() << 4) | (high << 6)));
    for (char c : letters) bytes_.push_back(static_cast<uint8_t>(c - 'a'));
    return *this;
  }
  const Bytes& bytes() const { return bytes_; }

 private:
  Bytes bytes_;
};

std::string letters(int i) {  // the i-th key of the alphabet, 1..3 letters
  std::string s;
  s.push_back(static_cast<char>('a' + i % 4));
  if (i >= 4) s.push_back(static_cast<char>('a' + (i / 4) % 4));
  if (i >= 16) s.push_back(static_cast<char>('a' + (i / 16) % 4));
  return s;
}

// A pseudo-random stream over the ops (xorshift, fixed seed); kindMask 15
// includes the other table's ops.
Bytes randomOps(uint32_t state, std::initializer_list<uint8_t> config, int count, uint8_t kindMask = 7) {
  Ops ops(config);
  for (int i = 0; i < count; ++i) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    ops.op(static_cast<uint8_t>(state & kindMask), letters(static_cast<int>((state >> 8) % 40)),
           static_cast<uint8_t>((state >> 16) & 3) == 3 ? 2 : (state >> 16) & 1);
  }
  return ops.bytes();
}

Bytes rawOptions(uint8_t config, uint8_t capacityLess1, double rate, std::initializer_list<uint8_t> extras) {
  Bytes raw = {config, capacityLess1};
  const auto* r = reinterpret_cast<const uint8_t*>(&rate);
  raw.insert(raw.end(), r, r + 8);
  raw.insert(raw.end(), extras);
  raw.insert(raw.end(), 8, 0);  // seed
  return raw;
}

// Writes the stream with the type's index in front.
void writeOps(uint8_t index, const std::string& type, const std::string& name, const Bytes& stream) {
  Bytes bytes = {index};
  bytes.insert(bytes.end(), stream.begin(), stream.end());
  write("ops_filter", "seed-" + type + "-" + name, bytes);
}

// Types without removal (the Bloom filters): config = capacity-1 (bit 7 raw
// mode), rate index, seed byte.
void opsWithoutRemoval(uint8_t index, const std::string& type) {
  Ops fill({7, 1, 3});  // capacity 8, rate 0.3: saturates
  for (int i = 0; i < 40; ++i) fill.op(0, letters(i));
  fill.op(4, "");
  writeOps(index, type, "fill-and-roundtrip", fill.bytes());
  Ops unite({15, 4, 9});
  for (int i = 0; i < 10; ++i) unite.op(0, letters(i)).op(5, letters(i + 5));
  unite.op(6, "").op(3, "a").op(7, "", 3).op(0, "b").op(6, "");
  writeOps(index, type, "union-clear", unite.bytes());
  writeOps(index, type, "random-1", randomOps(1, {3, 0, 1}, 60));
  writeOps(index, type, "random-2", randomOps(2, {63, 5, 2}, 120));
  writeOps(index, type, "random-3", randomOps(3, {0, 7, 0}, 30));
  writeOps(index, type, "raw-options", rawOptions(0x80, 200, 1e-300, {}));  // a valid but extreme rate
}

// Types with removal and without the cuckoo options (the counting Bloom filter).
void opsWithRemoval(uint8_t index, const std::string& type) {
  Ops saturate({3, 0, 5});  // capacity 4, rate 0.5
  saturate.op(6, "a", 3).op(6, "a", 3).op(0, "b").op(2, "a").op(7, "a").op(4, "b").op(5, "");
  writeOps(index, type, "saturate-remove-all", saturate.bytes());
  Ops churn({15, 2, 1});
  for (int i = 0; i < 30; ++i) churn.op(0, letters(i));
  for (int i = 0; i < 30; i += 2) churn.op(2, letters(i));
  churn.op(5, "");
  writeOps(index, type, "churn", churn.bytes());
  writeOps(index, type, "random-1", randomOps(11, {7, 1, 4}, 80));
  writeOps(index, type, "random-2", randomOps(12, {31, 4, 0}, 150));
  writeOps(index, type, "random-3", randomOps(13, {1, 0, 2}, 40));
  writeOps(index, type, "raw-options", rawOptions(0x80, 17, 5e-324, {}));
}

// Types taking the cuckoo options: config = capacity-1, geometry (bucket size
// index, kicks index << 2, rate << 5), fingerprint bits selector, seed byte.
void opsCuckooOptions(uint8_t index, const std::string& type) {
  Ops full({3, 0 | (6 << 2), 0, 1});  // capacity 4, b = 2, 500 kicks
  for (int i = 0; i < 30; ++i) full.op(0, letters(i));
  full.op(5, "", 2).op(2, "a").op(0, "dd");
  writeOps(index, type, "fill-until-full", full.bytes());
  Ops dup({7, 1 | (0 << 2), 3, 2});  // capacity 8, b = 4, 0 kicks, 4-bit fingerprints
  dup.op(6, "a", 3).op(6, "b", 3).op(7, "a").op(5, "").op(2, "b");
  writeOps(index, type, "duplicates-4bit", dup.bytes());
  Ops wide({63, 2 | (5 << 2), 31, 3});  // capacity 64, b = 8, 100 kicks, 32-bit fingerprints
  for (int i = 0; i < 64; ++i) wide.op(i % 5 == 4 ? 2 : 0, letters(i));
  wide.op(5, "", 2).op(7, "", 3);
  writeOps(index, type, "wide-32bit", wide.bytes());
  writeOps(index, type, "random-1", randomOps(21, {5, 1 | (4 << 2), 10, 0}, 100));
  writeOps(index, type, "random-2", randomOps(22, {15, 0 | (1 << 2), 0, 7}, 150));
  writeOps(index, type, "random-3", randomOps(23, {1, 2 | (7 << 2), 20, 5}, 60));
  // bucketSize 4, 31-bit fingerprints, 10 kicks, then a few ops
  Bytes raw = rawOptions(0x80, 9, 0.02, {4, 31, 10, 0, 0, 0});
  for (int i = 0; i < 12; ++i) raw.push_back(static_cast<uint8_t>(i * 16 + (i & 1 ? 2 : 0)));
  writeOps(index, type, "raw-options", raw);
  // semiSorted = 1 on buckets of 4 (accepted where the build has it)
  Bytes semi = rawOptions(0x82, 30, 0.01, {4, 0, 100, 0, 0, 0});
  for (int i = 0; i < 40; ++i) {
    semi.push_back(static_cast<uint8_t>((i % 3 == 2 ? 2 : 0) | 0x10));  // add or remove, a 1-letter key
    semi.push_back(static_cast<uint8_t>(i & 3));
  }
  writeOps(index, type, "raw-semi-sorted", semi);
}

// Static types (ops_filter.cpp, runStatic): config, then the stream's keys
// (a length byte, then its letters) are the set; bit 7 of config: raw options.
void opsStatic(uint8_t index, const std::string& type) {
  const auto keysAfter = [](Bytes bytes, int count) {
    for (int i = 0; i < count; ++i) {
      const std::string k = letters(i % 40);
      bytes.push_back(static_cast<uint8_t>(k.size()));
      for (char c : k) bytes.push_back(static_cast<uint8_t>(c - 'a'));
    }
    return bytes;
  };
  writeOps(index, type, "small-set", keysAfter({4, 7}, 20));                   // rate 0.01, default arity
  writeOps(index, type, "four-wise-bits", keysAfter({4 | 8 | 16, 28, 3}, 60));  // arity 4, 32 bits
  writeOps(index, type, "repeats", keysAfter({2, 1}, 120));                     // every key 3 times
  writeOps(index, type, "empty", {4, 0});
  Bytes raw = {0x80};
  const double rate = 0.001;
  const auto* r = reinterpret_cast<const uint8_t*>(&rate);
  raw.insert(raw.end(), r, r + 8);
  raw.insert(raw.end(), {0, 4, 9, 0, 0, 0, 0, 0, 0, 0});  // bits unset, arity 4, seed 9
  writeOps(index, type, "raw-options", keysAfter(raw, 30));
}

// Every type: the other table's ops (UNSUPPORTED where the type lacks them),
// and for types without the cuckoo options, cuckoo options given anyway.
void opsForEveryType(uint8_t index, const std::string& type, bool cuckooOptions) {
  if (cuckooOptions) {
    writeOps(index, type, "other-ops", randomOps(31, {11, 1 | (3 << 2), 0, 4}, 120, 15));
  } else {
    writeOps(index, type, "other-ops", randomOps(31, {11, 2, 4}, 120, 15));
    writeOps(index, type, "raw-foreign-options", rawOptions(0x88, 9, 0.01, {4, 0, 10, 0, 0, 0}));
  }
}

}  // namespace

// Seeds of deserialize_companion (types 33 and 34).
void writeCompanions(const std::string& golden) {
  const std::string target = "deserialize_companion";
  for (const std::string name : {"url-expression-set.confirm", "url-expression-set.confirm.index",
                                 "url-expression-set.confirm.parts/0000", "url-expression-set.confirm.parts/0002"}) {
    const std::optional<Bytes> bytes = readIfPresent(golden + "/" + name);
    std::string flat = name;
    std::replace(flat.begin(), flat.end(), '/', '-');
    if (bytes) write(target, "golden-" + flat, *bytes);
  }
  std::vector<uint64_t> hashes;
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 700; ++i) hashes.push_back(state = state * 6364136223846793005ull + 1442695040888963407ull);
  write(target, "seed-empty", encodeExpressionSet({}, 7, 1));
  write(target, "seed-one", encodeExpressionSet({hashes[0]}, 7, 1));
  write(target, "seed-narrow-blocks", encodeExpressionSet(hashes, 7, 2, 2));
  const ExpressionSetParts split = encodeExpressionSetParts(hashes, 7, 3, 64);
  write(target, "seed-index", split.index);
  write(target, "seed-part-0", split.parts.front());
  write(target, "seed-part-last", split.parts.back());
  write(target, "seed-one-part-index", encodeExpressionSetParts({hashes[0], hashes[1]}, 7, 4).index);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_corpus <tests/golden> <cpp/fuzz/corpus>\n");
    return 2;
  }
  const std::string golden = argv[1];
  root = argv[2];
  const std::string blobs = "deserialize_filter";
  const std::string url = "deserialize_url_blocklist";

  const std::vector<FilterTypeInfo>& types = registeredFilterTypes();
  for (size_t index = 0; index < types.size(); ++index) {
    const FilterTypeInfo& info = types[index];
    const std::string type = info.name;
    const std::vector<Named> small = blobsOf(info);
    for (const Named& blob : small) write(blobs, "seed-" + type + "-" + blob.name, blob.bytes);

    const std::optional<Bytes> goldenV2 = readIfPresent(golden + "/" + type + ".cbf");
    const std::optional<Bytes> goldenV1 = readIfPresent(golden + "/v1/" + type + ".cbf");
    if (goldenV2) write(blobs, "golden-" + type + ".cbf", *goldenV2);
    if (goldenV1) write(blobs, "golden-v1-" + type + ".cbf", *goldenV1);
    if (!goldenV2) std::fprintf(stderr, "make_corpus: no %s/%s.cbf (seeding without it)\n", golden.c_str(), type.c_str());
    writeDamaged(blobs, type, goldenV2 ? *goldenV2 : small[3].bytes);

    // The URL blocklist target: an envelope around the golden filter and
    // around two small ones of each type.
    std::vector<Named> inner = {small[0], small[2]};
    if (goldenV2) inner.insert(inner.begin(), Named{"golden", *goldenV2});
    for (const Named& nested : inner) {
      write(url, "seed-" + type + "-" + nested.name,
            must(encodeUrlBlocklist(nested.bytes.data(), nested.bytes.size(), kExpressionSchemeSafeBrowsingV1, 3)));
    }
    // A plain filter under the blocklist target: WRONG_TYPE at the envelope.
    if (index == 0) write(url, "seed-plain-filter", small[1].bytes);

    const uint8_t selector = static_cast<uint8_t>(index);
    const bool cuckooOptions = takesCuckooOptions(info.type);
    if (info.isStatic) {
      opsStatic(selector, type);
      continue;
    }
    if (cuckooOptions) {
      opsCuckooOptions(selector, type);
    } else if (info.supportsRemove) {
      opsWithRemoval(selector, type);
    } else {
      opsWithoutRemoval(selector, type);
    }
    opsForEveryType(selector, type, cuckooOptions);
  }
  writeCompanions(golden);
  std::printf("make_corpus: wrote %d files under %s\n", written, root.c_str());
  return 0;
}
