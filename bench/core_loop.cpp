// The C++ core's own loop, with no JavaScript in it: one source, compiled
// twice by bench/run.mjs — natively with g++ and to wasm with em++ (run under
// Node) — so the two builds run exactly the same code on the same bytes.
//
//   core_loop <present.keys> <absent.keys> <N,N,...> <eps,eps,...> <reps> <warmup> <minAbsent>
//
// The key files are written by bench/run.mjs (bench/keys.mjs: writeKeyFile):
// "CBWK", uint32 count, uint32 offsets[count + 1], then the key bytes, all
// little-endian. Keys are pre-encoded: no string handling is timed here.
//
// Every filter type of the C++ registry (registeredFilterTypes(), from
// filter_types.h) runs, created with createFilter and timed through AnyFilter:
// a type added to the registry is benchmarked with no edit here. A static
// type (binary fuse) has no add: its "add" time is one build from all N keys
// (hashing them, then buildFilter), per key.
//
// A type that grows (takes the growth option) runs twice: sized for N, and
// grown from N / 10,000 to N (its line has "grownFrom"), to compare with the
// static filter of the same final size.
//
// Output: one JSON object per line, per (N, eps, filter): the filter's
// registry name, the per-repetition ns/op of add, has on added keys and has
// on absent keys, plus false negatives, false positives, table bytes and
// serialized bytes.
//
// V8 has no on-stack replacement for wasm: a hot loop that never returns stays
// in the baseline (Liftoff) tier. So every timed loop lives in its own
// non-inlined function that is called once per batch of kBatch keys, and a
// warm-up repetition runs first: by the timed repetitions, those functions
// have been tiered up to TurboFan.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <memory>
#include <vector>

#include "cuckoo_bloom/cuckoo_bloom.h"

using namespace cuckoo_bloom;

namespace {

constexpr size_t kBatch = 10000;

struct Keys {
  std::vector<uint32_t> offsets;  // count + 1 entries
  std::vector<uint8_t> bytes;
  size_t count() const { return offsets.empty() ? 0 : offsets.size() - 1; }
  const uint8_t* key(size_t i) const { return bytes.data() + offsets[i]; }
  size_t length(size_t i) const { return offsets[i + 1] - offsets[i]; }
};

uint32_t readU32(const uint8_t* p) {
  return uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
}

bool loadKeys(const char* path, Keys& keys) {
  FILE* file = std::fopen(path, "rb");
  if (file == nullptr) return false;
  std::vector<uint8_t> all;
  uint8_t buffer[1 << 16];
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0) all.insert(all.end(), buffer, buffer + got);
  std::fclose(file);
  if (all.size() < 8 || std::memcmp(all.data(), "CBWK", 4) != 0) return false;
  const uint32_t count = readU32(all.data() + 4);
  const size_t header = 8 + (size_t{count} + 1) * 4;
  if (all.size() < header) return false;
  keys.offsets.resize(size_t{count} + 1);
  for (size_t i = 0; i <= count; ++i) keys.offsets[i] = readU32(all.data() + 8 + i * 4);
  keys.bytes.assign(all.begin() + static_cast<std::ptrdiff_t>(header), all.end());
  return keys.offsets[count] == keys.bytes.size();
}

std::vector<std::string> split(const char* text) {
  std::vector<std::string> parts;
  std::string current;
  for (const char* c = text; *c; ++c) {
    if (*c == ',') {
      parts.push_back(current);
      current.clear();
    } else {
      current += *c;
    }
  }
  if (!current.empty()) parts.push_back(current);
  return parts;
}

double nowNs() {
  return static_cast<double>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

// ---- The timed loops: one non-inlined function per operation. ----
//
// Every filter is reached through the registry's type-erased AnyFilter (a
// virtual call per key), exactly as the wasm bindings' cbw_has/cbw_add reach
// it, so the wasm row here is the JavaScript rows minus the JS/wasm boundary.

__attribute__((noinline)) uint64_t addRange(AnyFilter& filter, const Keys& keys, size_t begin, size_t end) {
  uint64_t failed = 0;
  // Ok, or Full (cuckoo: the key was not stored): counted as a failed add.
  for (size_t i = begin; i < end; ++i) failed += !filter.add(keys.key(i), keys.length(i)).isOk();
  return failed;
}

__attribute__((noinline)) uint64_t hasRange(const AnyFilter& filter, const Keys& keys, size_t begin, size_t end) {
  uint64_t hits = 0;
  for (size_t i = begin; i < end; ++i) hits += filter.has(keys.key(i), keys.length(i));
  return hits;
}

// The hash alone (XXH3-64 and the second word), as every filter computes it first.
__attribute__((noinline)) uint64_t hashRange(const Keys& keys, size_t begin, size_t end) {
  uint64_t sink = 0;
  for (size_t i = begin; i < end; ++i) {
    const KeyHash hash = hashKey(keys.key(i), keys.length(i), 0);
    sink += hash.low ^ hash.high;
  }
  return sink;
}

uint64_t addAll(AnyFilter& filter, const Keys& keys, size_t count) {
  uint64_t failed = 0;
  for (size_t begin = 0; begin < count; begin += kBatch) {
    failed += addRange(filter, keys, begin, std::min(count, begin + kBatch));
  }
  return failed;
}

uint64_t hasAll(const AnyFilter& filter, const Keys& keys, size_t count) {
  uint64_t hits = 0;
  for (size_t begin = 0; begin < count; begin += kBatch) {
    hits += hasRange(filter, keys, begin, std::min(count, begin + kBatch));
  }
  return hits;
}

// A new filter of a registered type, sized for n keys at eps with the type's
// default options (the same as the JavaScript rows' { capacity, falsePositiveRate }).
// growFrom > 0: a growing type started at that capacity instead (it grows to n).
Result<std::unique_ptr<AnyFilter>> make(const FilterTypeInfo& info, uint64_t n, double eps, uint64_t growFrom = 0) {
  CoreFilterOptions options;
  options.capacity = growFrom > 0 ? growFrom : n;
  options.falsePositiveRate = eps;
  return createFilter(info.type, options);
}

// A type grows when its class says so (FilterTypeInfo::growth: by chaining
// links or in place), asked of the registry, so a growing type added to
// filter_types.h is timed grown with no edit here.
bool grows(const FilterTypeInfo& info) { return info.growth != FilterGrowth::None; }

// Growing types are also timed from 1/kGrowthFactor of n up to n: the same
// final size as the rows sized for n, to compare with the static filter.
constexpr uint64_t kGrowthFactor = 10000;

// A static type: hashes the first n keys and builds the filter from them
// (what BinaryFuseFilter.from does after encoding the keys).
__attribute__((noinline)) Result<std::unique_ptr<AnyFilter>> buildStatic(const FilterTypeInfo& info, const Keys& keys,
                                                                        size_t n, double eps) {
  std::vector<KeyHash> hashes(n);
  for (size_t i = 0; i < n; ++i) hashes[i] = hashKey(keys.key(i), keys.length(i), 0);
  CoreFilterOptions options;
  options.falsePositiveRate = eps;
  return buildFilter(info.type, options, hashes.data(), hashes.size());
}

// Runs the batch functions of one filter type for at least `milliseconds`,
// on small batches: enough calls that V8 has tiered every one of them up to
// TurboFan (compiled in the background) before anything is timed. Natively
// it only warms the caches and the branch predictors.
void warmUp(const FilterTypeInfo& info, const Keys& present, const Keys& absent, double milliseconds) {
  const size_t n = std::min<size_t>(present.count(), 20000);
  Result<std::unique_ptr<AnyFilter>> created = info.isStatic ? buildStatic(info, present, n, 0.01) : make(info, n, 0.01);
  if (!created.isOk()) return;
  AnyFilter& filter = *created.value();
  const double start = nowNs();
  uint64_t sink = 0;
  do {
    if (info.isStatic) {
      sink += buildStatic(info, present, n, 0.01).isOk();
    } else {
      filter.clear();
      for (size_t begin = 0; begin < n; begin += 1000) sink += addRange(filter, present, begin, std::min(n, begin + 1000));
    }
    for (size_t begin = 0; begin < n; begin += 1000) sink += hasRange(filter, present, begin, std::min(n, begin + 1000));
    const size_t m = std::min(n, absent.count());
    for (size_t begin = 0; begin < m; begin += 1000) sink += hasRange(filter, absent, begin, std::min(m, begin + 1000));
  } while (nowNs() - start < milliseconds * 1e6);
  if (sink == 42) std::fprintf(stderr, " ");  // keep the work observable
}

void printList(const std::vector<double>& values) {
  std::printf("[");
  for (size_t i = 0; i < values.size(); ++i) std::printf("%s%.3f", i ? "," : "", values[i]);
  std::printf("]");
}

bool run(const FilterTypeInfo& info, const Keys& present, const Keys& absent, size_t n, size_t absentCount, double eps,
         int reps, int warmup, uint64_t growFrom = 0) {
  std::vector<double> addNs, hasNs, missNs;
  uint64_t falseNegatives = 0, falsePositives = 0, addFailures = 0;
  size_t byteLength = 0, serializedBytes = 0;
  for (int rep = -warmup; rep < reps; ++rep) {
    // A dynamic type: created, then every key added (timed). A static type:
    // built from all the keys (timed: hashing and construction).
    double t0 = nowNs();
    Result<std::unique_ptr<AnyFilter>> created = info.isStatic ? buildStatic(info, present, n, eps) : make(info, n, eps, growFrom);
    if (!created.isOk()) {
      std::fprintf(stderr, "%s: create failed: %s\n", info.name, created.status().message().c_str());
      return false;
    }
    AnyFilter& filter = *created.value();
    if (!info.isStatic) t0 = nowNs();
    const uint64_t failed = info.isStatic ? 0 : addAll(filter, present, n);
    double t1 = nowNs();
    const uint64_t hits = hasAll(filter, present, n);
    double t2 = nowNs();
    const uint64_t fps = hasAll(filter, absent, absentCount);
    double t3 = nowNs();
    if (rep < 0) continue;
    addNs.push_back((t1 - t0) / static_cast<double>(n));
    hasNs.push_back((t2 - t1) / static_cast<double>(n));
    missNs.push_back((t3 - t2) / static_cast<double>(absentCount));
    // Deterministic, so every repetition gives the same counts; keep the worst.
    falseNegatives = std::max<uint64_t>(falseNegatives, n - hits);
    falsePositives = std::max<uint64_t>(falsePositives, fps);
    addFailures = std::max<uint64_t>(addFailures, failed);
    byteLength = filter.byteLength();
    serializedBytes = filter.serialize().size();
  }
  std::printf("{\"filter\":\"%s\",", info.name);
  if (growFrom > 0) std::printf("\"grownFrom\":%" PRIu64 ",", growFrom);
  std::printf("\"n\":%zu,\"eps\":%g,\"absent\":%zu,\"addNs\":", n, eps, absentCount);
  printList(addNs);
  std::printf(",\"hasNs\":");
  printList(hasNs);
  std::printf(",\"missNs\":");
  printList(missNs);
  std::printf(",\"falseNegatives\":%" PRIu64 ",\"falsePositives\":%" PRIu64 ",\"addFailures\":%" PRIu64
              ",\"byteLength\":%zu,\"serializedBytes\":%zu}\n",
              falseNegatives, falsePositives, addFailures, byteLength, serializedBytes);
  std::fflush(stdout);
  return true;
}

// Times hashKey alone over the added keys: how much of has() is hashing.
void runHashOnly(const Keys& present, size_t n, int reps, int warmup) {
  std::vector<double> hashNs;
  uint64_t sink = 0;
  for (int rep = -warmup - 2; rep < reps; ++rep) {
    const double t0 = nowNs();
    for (size_t begin = 0; begin < n; begin += kBatch) sink += hashRange(present, begin, std::min(n, begin + kBatch));
    const double t1 = nowNs();
    if (rep >= 0) hashNs.push_back((t1 - t0) / static_cast<double>(n));
  }
  std::printf("{\"filter\":\"hash-only\",\"n\":%zu,\"sink\":%" PRIu64 ",\"hashNs\":", n, sink % 1000);
  printList(hashNs);
  std::printf("}\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: %s present.keys absent.keys N[,N...] eps[,eps...] reps warmup minAbsent\n", argv[0]);
    return 2;
  }
  Keys present, absent;
  if (!loadKeys(argv[1], present) || !loadKeys(argv[2], absent)) {
    std::fprintf(stderr, "cannot read key files %s / %s\n", argv[1], argv[2]);
    return 2;
  }
  const int reps = std::atoi(argv[5]);
  const int warmup = std::atoi(argv[6]);
  const size_t minAbsent = static_cast<size_t>(std::strtoull(argv[7], nullptr, 10));
  if (warmup > 0) {
    // Twice round: a function's optimized code is only used from its next
    // call on, and a busy machine delays the background compiler.
    for (int round = 0; round < 2; ++round) {
      for (const FilterTypeInfo& info : registeredFilterTypes()) warmUp(info, present, absent, 150);
    }
  }
  for (const std::string& nText : split(argv[3])) {
    const size_t n = static_cast<size_t>(std::strtoull(nText.c_str(), nullptr, 10));
    if (n == 0 || n > present.count()) {
      std::fprintf(stderr, "N=%zu: the key file has %zu keys\n", n, present.count());
      return 2;
    }
    const size_t absentCount = std::min(absent.count(), std::max(n, minAbsent));
    runHashOnly(present, n, reps, warmup);
    for (const std::string& epsText : split(argv[4])) {
      const double eps = std::strtod(epsText.c_str(), nullptr);
      // Every type of the registry (filter_types.h), in its order, under its own name.
      for (const FilterTypeInfo& info : registeredFilterTypes()) {
        if (!run(info, present, absent, n, absentCount, eps, reps, warmup)) return 1;
      }
      for (const FilterTypeInfo& info : registeredFilterTypes()) {
        if (!grows(info)) continue;
        const uint64_t growFrom = std::max<uint64_t>(1, n / kGrowthFactor);
        if (!run(info, present, absent, n, absentCount, eps, reps, warmup, growFrom)) return 1;
      }
    }
  }
  return 0;
}
