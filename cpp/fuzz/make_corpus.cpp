// Writes the seed corpora of the fuzz targets (cpp/fuzz/corpus/<target>/).
//
//   build-fuzz/make_corpus tests/golden cpp/fuzz/corpus
//
// Deserialization targets get the golden blob of their type, small filters of
// that type in several geometries (empty, partly filled, saturated), and a few
// damaged blobs; the URL blocklist target gets envelopes around small filters
// of every type. Op-stream targets get deterministic op streams that reach
// the interesting states: saturated counters, a full cuckoo filter, unions,
// round trips. Output is deterministic, so rerunning changes nothing unless the
// library's bytes changed. Existing files with other names (regression inputs)
// are left alone.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cuckoo_bloom/cuckoo_bloom.h"

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
  const std::string path = root + "/" + target + "/" + name;
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    std::fprintf(stderr, "make_corpus: cannot write %s (create the folder first)\n", path.c_str());
    std::exit(1);
  }
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  ++written;
}

Bytes readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "make_corpus: cannot read %s\n", path.c_str());
    std::exit(1);
  }
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

// A few damaged variants of a valid blob (the targets also reach these by
// mutation; seeding them covers every early rejection from the start).
void writeDamaged(const std::string& target, const Bytes& valid) {
  write(target, "damaged-truncated", Bytes(valid.begin(), valid.begin() + 63));
  Bytes flipped = valid;
  flipped[flipped.size() / 2] ^= 0x10;
  write(target, "damaged-checksum", flipped);
  Bytes version = valid;
  version[4] = 2;
  write(target, "damaged-version", version);
}

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

std::vector<Named> bloomBlobs() {
  std::vector<Named> out;
  for (const Geometry& g : kGeometries) {
    BloomFilter f = must(BloomFilter::create({g.capacity, g.rate, g.seed}));
    for (int i = 0; i < g.keys; ++i) f.add(key(i));
    out.push_back({g.name, f.serialize()});
  }
  return out;
}
std::vector<Named> blockedBlobs() {
  std::vector<Named> out;
  for (const Geometry& g : kGeometries) {
    BlockedBloomFilter f = must(BlockedBloomFilter::create({g.capacity, g.rate, g.seed}));
    for (int i = 0; i < g.keys; ++i) f.add(key(i));
    out.push_back({g.name, f.serialize()});
  }
  return out;
}
std::vector<Named> countingBlobs() {
  std::vector<Named> out;
  for (const Geometry& g : kGeometries) {
    CountingBloomFilter f = must(CountingBloomFilter::create({g.capacity, g.rate, g.seed}));
    for (int i = 0; i < g.keys; ++i) f.add(key(i));
    for (int i = 0; i < g.keys; i += 3) (void)f.remove(key(i));
    for (int r = 0; r < 20 && g.keys > 30; ++r) f.add(key(0));  // saturate key-0's counters
    out.push_back({g.name, f.serialize()});
  }
  return out;
}
std::vector<Named> cuckooBlobs() {
  struct C {
    const char* name;
    uint64_t capacity;
    uint32_t bucketSize, fingerprintBits, maxKicks;
    int keys;
  };
  const C kCuckoo[] = {{"empty-b2-f4-nokicks", 1, 2, 4, 0, 0},
                       {"cap8-b4-half", 8, 4, 0, 500, 6},
                       {"cap8-b2-f13-full", 8, 2, 13, 20, 40},
                       {"cap16-b8-f32", 16, 8, 32, 5, 20},
                       {"cap64-b4-f7-full", 64, 4, 7, 100, 90}};
  std::vector<Named> out;
  uint64_t seed = 5;
  for (const C& c : kCuckoo) {
    CuckooFilterOptions o;
    o.capacity = c.capacity;
    o.falsePositiveRate = 0.01;
    o.bucketSize = c.bucketSize;
    o.fingerprintBits = c.fingerprintBits;
    o.maxKicks = c.maxKicks;
    o.seed = seed++;
    CuckooFilter f = must(CuckooFilter::create(o));
    for (int i = 0; i < c.keys; ++i) (void)f.add(key(i));  // the later ones may be FULL
    out.push_back({c.name, f.serialize()});
  }
  return out;
}

// Op streams: see each ops_*.cpp for the layout. Keys are 0..3 letters; the
// letter bytes follow the op byte.
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

// A pseudo-random stream over all ops (xorshift, fixed seed).
Bytes randomOps(uint32_t state, std::initializer_list<uint8_t> config, int count) {
  Ops ops(config);
  for (int i = 0; i < count; ++i) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    ops.op(static_cast<uint8_t>(state & 7), letters(static_cast<int>((state >> 8) % 40)),
           static_cast<uint8_t>((state >> 16) & 3) == 3 ? 2 : (state >> 16) & 1);
  }
  return ops.bytes();
}

void bloomLikeOps(const std::string& target) {
  // config: capacity-1 (bit 7 = raw mode), rate index, seed byte.
  Ops fill({7, 1, 3});  // capacity 8, rate 0.3: saturates
  for (int i = 0; i < 40; ++i) fill.op(0, letters(i));
  fill.op(4, "");
  write(target, "seed-fill-and-roundtrip", fill.bytes());
  Ops unite({15, 4, 9});
  for (int i = 0; i < 10; ++i) unite.op(0, letters(i)).op(5, letters(i + 5));
  unite.op(6, "").op(3, "a").op(7, "", 3).op(0, "b").op(6, "");
  write(target, "seed-union-clear", unite.bytes());
  write(target, "seed-random-1", randomOps(1, {3, 0, 1}, 60));
  write(target, "seed-random-2", randomOps(2, {63, 5, 2}, 120));
  write(target, "seed-random-3", randomOps(3, {0, 7, 0}, 30));
  const double rate = 1e-300;  // raw mode: a valid but extreme rate
  Bytes raw = {0x80, 200};
  const auto* r = reinterpret_cast<const uint8_t*>(&rate);
  raw.insert(raw.end(), r, r + 8);
  raw.insert(raw.end(), 8, 0);
  write(target, "seed-raw-options", raw);
}

void countingOps() {
  const std::string target = "ops_counting_bloom";
  Ops saturate({3, 0, 5});  // capacity 4, rate 0.5
  saturate.op(6, "a", 3).op(6, "a", 3).op(0, "b").op(2, "a").op(7, "a").op(4, "b").op(5, "");
  write(target, "seed-saturate-remove-all", saturate.bytes());
  Ops churn({15, 2, 1});
  for (int i = 0; i < 30; ++i) churn.op(0, letters(i));
  for (int i = 0; i < 30; i += 2) churn.op(2, letters(i));
  churn.op(5, "");
  write(target, "seed-churn", churn.bytes());
  write(target, "seed-random-1", randomOps(11, {7, 1, 4}, 80));
  write(target, "seed-random-2", randomOps(12, {31, 4, 0}, 150));
  write(target, "seed-random-3", randomOps(13, {1, 0, 2}, 40));
  Bytes raw = {0x80, 17};
  const double rate = 5e-324;
  const auto* r = reinterpret_cast<const uint8_t*>(&rate);
  raw.insert(raw.end(), r, r + 8);
  raw.insert(raw.end(), 8, 0);
  write(target, "seed-raw-options", raw);
}

void cuckooOps() {
  const std::string target = "ops_cuckoo";
  // config: capacity-1, geometry (bucket size index, kicks index << 2, rate << 5),
  // fingerprint bits selector, seed byte.
  Ops full({3, 0 | (6 << 2), 0, 1});  // capacity 4, b = 2, 500 kicks
  for (int i = 0; i < 30; ++i) full.op(0, letters(i));
  full.op(5, "", 2).op(2, "a").op(0, "dd");
  write(target, "seed-fill-until-full", full.bytes());
  Ops dup({7, 1 | (0 << 2), 3, 2});  // capacity 8, b = 4, 0 kicks, 4-bit fingerprints
  dup.op(6, "a", 3).op(6, "b", 3).op(7, "a").op(5, "").op(2, "b");
  write(target, "seed-duplicates-4bit", dup.bytes());
  Ops wide({63, 2 | (5 << 2), 31, 3});  // capacity 64, b = 8, 100 kicks, 32-bit fingerprints
  for (int i = 0; i < 64; ++i) wide.op(i % 5 == 4 ? 2 : 0, letters(i));
  wide.op(5, "", 2).op(7, "", 3);
  write(target, "seed-wide-32bit", wide.bytes());
  write(target, "seed-random-1", randomOps(21, {5, 1 | (4 << 2), 10, 0}, 100));
  write(target, "seed-random-2", randomOps(22, {15, 0 | (1 << 2), 0, 7}, 150));
  write(target, "seed-random-3", randomOps(23, {1, 2 | (7 << 2), 20, 5}, 60));
  Bytes raw = {0x80, 9};
  const double rate = 0.02;
  const auto* r = reinterpret_cast<const uint8_t*>(&rate);
  raw.insert(raw.end(), r, r + 8);
  raw.insert(raw.end(), {4, 31, 10, 0, 0, 0});  // bucketSize 4, 31-bit fingerprints, 10 kicks
  raw.insert(raw.end(), 8, 0);
  for (int i = 0; i < 12; ++i) raw.push_back(static_cast<uint8_t>(i * 16 + (i & 1 ? 2 : 0)));
  write(target, "seed-raw-options", raw);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_corpus <tests/golden> <cpp/fuzz/corpus>\n");
    return 2;
  }
  const std::string golden = argv[1];
  root = argv[2];

  const struct {
    const char* target;
    const char* goldenFile;
    std::vector<Named> blobs;
  } types[] = {
      {"deserialize_bloom", "bloom.cbf", bloomBlobs()},
      {"deserialize_blocked_bloom", "blocked-bloom.cbf", blockedBlobs()},
      {"deserialize_counting_bloom", "counting-bloom.cbf", countingBlobs()},
      {"deserialize_cuckoo", "cuckoo.cbf", cuckooBlobs()},
  };
  for (const auto& t : types) {
    const Bytes goldenBytes = readFile(golden + "/" + t.goldenFile);
    write(t.target, std::string("golden-") + t.goldenFile, goldenBytes);
    for (const Named& blob : t.blobs) write(t.target, "seed-" + blob.name, blob.bytes);
    writeDamaged(t.target, goldenBytes);
    // The URL blocklist target: an envelope around the golden filter and
    // around two small ones of each type.
    const std::string url = "deserialize_url_blocklist";
    const std::string type = std::string(t.goldenFile).substr(0, std::string(t.goldenFile).size() - 4);
    for (const Named& inner : {Named{"golden", goldenBytes}, t.blobs[0], t.blobs[2]}) {
      write(url, "seed-" + type + "-" + inner.name,
            must(encodeUrlBlocklist(inner.bytes.data(), inner.bytes.size(), kExpressionSchemeSafeBrowsingV1, 3)));
    }
  }
  // A bloom blob under the blocklist target: WRONG_TYPE at the envelope.
  write("deserialize_url_blocklist", "seed-plain-filter", types[0].blobs[1].bytes);

  bloomLikeOps("ops_bloom");
  bloomLikeOps("ops_blocked_bloom");
  countingOps();
  cuckooOps();
  std::printf("make_corpus: wrote %d files under %s\n", written, root.c_str());
  return 0;
}
