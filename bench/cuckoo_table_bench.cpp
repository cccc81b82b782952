// Lookup cost of the cuckoo filter's two storage layouts: PackedTable (f bits
// per slot) against SemiSortedTable (f - 1 bits per slot, issue 11), timed as
// ns per containsEither(bucket1, bucket2, fingerprint) — the whole table work
// of one has() — on random bucket pairs of a 95%-full table, for queries
// whose fingerprint is in one of the two buckets (hit) and in neither (miss).
// No hashing: bucket indexes and fingerprints are drawn up front, so only the
// table is timed.
//
// Native (from the repository root, after the CMake build made build/):
//   g++ -O2 -std=c++17 -Icpp/include -I build/xxhash-include bench/cuckoo_table_bench.cpp -o build/cuckoo_table_bench
//   ./build/cuckoo_table_bench
// WebAssembly (Debian's Emscripten 3.1.6 needs Debian's acorn on NODE_PATH):
//   export NODE_PATH=/usr/share/nodejs
//   em++ -O3 -std=c++17 -Icpp/include bench/cuckoo_table_bench.cpp -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sSINGLE_FILE=1 -o build/cuckoo_table_bench.cjs
//   node build/cuckoo_table_bench.cjs
// (.cjs because the repository's package.json makes .js files ES modules, where
// the generated glue's __dirname fails; SINGLE_FILE because the 3.1.6 glue
// calls Node 20's fetch() on the .wasm path and fails.)
// Arguments: [--quick] (1M buckets only, fewer repetitions) or [--large] (16M buckets only).
//
// Output: one Markdown table row per (buckets, f, query kind) with each
// table's ns/query (the minimum over samples, see below) and their ratio,
// plus the ns per insert while filling (bucket after bucket, so that column
// is encode cost more than memory latency; one pass, so noisier).
//
// V8 has no on-stack replacement for wasm: a loop that never returns stays in
// the baseline tier. So the timed loop is a non-inlined function called once
// per batch of kBatch queries, after an untimed warm-up pass.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "cuckoo_bloom/cuckoo/packed_table.h"
#include "cuckoo_bloom/cuckoo/semi_sorted_table.h"

using cuckoo_bloom::PackedTable;
using cuckoo_bloom::SemiSortedTable;

namespace {

constexpr size_t kBatch = 5000;
constexpr uint32_t kBucketSize = 4;
constexpr double kLoad = 0.95;  // the load a bucket-of-4 filter reaches before its first failure

struct Query {
  uint32_t bucket1;
  uint32_t bucket2;
  uint32_t fingerprint;
};

// SplitMix64: the same draws natively and in wasm (std:: distributions are
// implementation-defined).
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Multiply-shift range reduction: uniform enough for a benchmark, no division.
  uint32_t below(uint32_t bound) { return static_cast<uint32_t>(((next() >> 32) * bound) >> 32); }
};

// Natively the clock is this thread's CPU time, so time spent descheduled on
// a shared machine is not counted (cache pollution by others still is). The
// wasm build has only wall time (performance.now() under Node).
double nowNs() {
#if defined(__EMSCRIPTEN__)
  return static_cast<double>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
#else
  timespec time{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time);
  return static_cast<double>(time.tv_sec) * 1e9 + static_cast<double>(time.tv_nsec);
#endif
}

template <typename Table>
__attribute__((noinline)) uint64_t lookupBatch(const Table& table, const Query* queries, size_t count) {
  uint64_t found = 0;
  for (size_t i = 0; i < count; ++i) {
    found += table.containsEither(queries[i].bucket1, queries[i].bucket2, queries[i].fingerprint);
  }
  return found;
}

// Both tables get the same fingerprints in the same buckets and answer the
// same queries. The machine is shared, so timings are taken in short samples
// (kSampleQueries each), the two tables alternating sample by sample, and the
// minimum over all samples is reported: the run least disturbed by others
// (natively the clock is also this thread's CPU time, see nowNs).
constexpr size_t kSampleQueries = 20000;

struct Figures {
  double packedHitNs, semiHitNs, packedMissNs, semiMissNs;
  double packedFillNs, semiFillNs;  // per insert
  double packedMiB, semiMiB;
};

template <typename Table>
double fill(Table& table, uint32_t bucketCount, uint32_t fingerprintBits, uint64_t seed) {
  const uint32_t maxFingerprint = static_cast<uint32_t>((uint64_t{1} << fingerprintBits) - 1);
  const uint32_t loadThreshold = static_cast<uint32_t>(kLoad * 4294967296.0);
  Random random{seed};
  uint64_t inserts = 0;
  const double start = nowNs();
  for (uint32_t bucket = 0; bucket < bucketCount; ++bucket) {
    for (uint32_t slot = 0; slot < kBucketSize; ++slot) {
      if (static_cast<uint32_t>(random.next()) < loadThreshold) {
        table.insert(bucket, random.below(maxFingerprint) + 1);
        ++inserts;
      }
    }
  }
  return (nowNs() - start) / static_cast<double>(inserts);
}

// ns/query over sample number `sample` of `queries`; exits when the answers
// are wrong (every hit must be found, no miss may be).
template <typename Table>
double timeSample(const Table& table, const std::vector<Query>& queries, size_t sample, uint64_t expectFound) {
  const Query* first = queries.data() + sample * kSampleQueries;
  const double start = nowNs();
  uint64_t found = 0;
  for (size_t offset = 0; offset < kSampleQueries; offset += kBatch) {
    found += lookupBatch(table, first + offset, kBatch);
  }
  const double ns = (nowNs() - start) / static_cast<double>(kSampleQueries);
  if (found != expectFound) {
    std::fprintf(stderr, "wrong answers: %llu of %zu found, expected %llu\n",
                 static_cast<unsigned long long>(found), kSampleQueries, static_cast<unsigned long long>(expectFound));
    std::exit(1);
  }
  return ns;
}

bool measure(uint32_t bucketCount, uint32_t fingerprintBits, size_t samples, int repetitions, Figures& figures) {
  PackedTable packed;
  SemiSortedTable semi;
  if (!packed.allocate(bucketCount, kBucketSize, fingerprintBits) ||
      !semi.allocate(bucketCount, kBucketSize, fingerprintBits)) {
    return false;
  }
  const uint64_t seed = 0xC0C0u + fingerprintBits * 1000003ull + bucketCount;
  figures.packedFillNs = fill(packed, bucketCount, fingerprintBits, seed);
  figures.semiFillNs = fill(semi, bucketCount, fingerprintBits, seed);
  figures.packedMiB = static_cast<double>(packed.payloadWords()) * 8 / (1024.0 * 1024.0);
  figures.semiMiB = static_cast<double>(semi.payloadWords()) * 8 / (1024.0 * 1024.0);

  const uint32_t maxFingerprint = static_cast<uint32_t>((uint64_t{1} << fingerprintBits) - 1);
  const size_t queryCount = samples * kSampleQueries;
  Random random{seed ^ 0x5157ull};
  // Hits: a stored fingerprint, its bucket first or second at random.
  std::vector<Query> hits;
  hits.reserve(queryCount);
  uint32_t slots[kBucketSize];
  while (hits.size() < queryCount) {
    const uint32_t home = random.below(bucketCount);
    packed.readBucket(home, slots);
    const uint32_t fingerprint = slots[random.below(kBucketSize)];
    if (fingerprint == 0) continue;
    const uint32_t other = random.below(bucketCount);
    hits.push_back((random.next() & 1) ? Query{home, other, fingerprint} : Query{other, home, fingerprint});
  }
  // Misses: a fingerprint in neither bucket (no false positive either).
  std::vector<Query> misses;
  misses.reserve(queryCount);
  while (misses.size() < queryCount) {
    const Query query{random.below(bucketCount), random.below(bucketCount), random.below(maxFingerprint) + 1};
    if (packed.countOf(query.bucket1, query.fingerprint) +
            packed.countOf(query.bucket2, query.fingerprint) == 0) {
      misses.push_back(query);
    }
  }

  figures.packedHitNs = figures.semiHitNs = figures.packedMissNs = figures.semiMissNs = 1e30;
  for (int repetition = -1; repetition < repetitions; ++repetition) {  // -1: warm-up, not kept
    for (size_t sample = 0; sample < samples; ++sample) {
      const double packedHit = timeSample(packed, hits, sample, kSampleQueries);
      const double semiHit = timeSample(semi, hits, sample, kSampleQueries);
      const double packedMiss = timeSample(packed, misses, sample, 0);
      const double semiMiss = timeSample(semi, misses, sample, 0);
      if (repetition < 0) continue;
      figures.packedHitNs = std::min(figures.packedHitNs, packedHit);
      figures.semiHitNs = std::min(figures.semiHitNs, semiHit);
      figures.packedMissNs = std::min(figures.packedMissNs, packedMiss);
      figures.semiMissNs = std::min(figures.semiMissNs, semiMiss);
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const bool largeOnly = argc > 1 && std::strcmp(argv[1], "--large") == 0;
  std::vector<uint32_t> bucketCounts{1u << 20, 1u << 24};
  if (quick) bucketCounts = {1u << 20};
  if (largeOnly) bucketCounts = {1u << 24};
  const size_t samples = quick ? 10 : 50;
  const int repetitions = quick ? 2 : 5;

  std::printf("| buckets | f | query | packed ns | semi-sorted ns | semi/packed | packed MiB | semi MiB |"
              " fill ns/insert packed | fill ns/insert semi |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (const uint32_t bucketCount : bucketCounts) {
    for (const uint32_t fingerprintBits : {8u, 12u, 16u}) {
      Figures figures;
      if (!measure(bucketCount, fingerprintBits, samples, repetitions, figures)) {
        std::fprintf(stderr, "out of memory at %u buckets\n", bucketCount);
        return 1;
      }
      const char* label = bucketCount == (1u << 20) ? "1M" : "16M";
      std::printf("| %s | %u | hit | %.1f | %.1f | %.2f | %.1f | %.1f | %.1f | %.1f |\n", label, fingerprintBits,
                  figures.packedHitNs, figures.semiHitNs, figures.semiHitNs / figures.packedHitNs,
                  figures.packedMiB, figures.semiMiB, figures.packedFillNs, figures.semiFillNs);
      std::printf("| %s | %u | miss | %.1f | %.1f | %.2f | | | | |\n", label, fingerprintBits,
                  figures.packedMissNs, figures.semiMissNs, figures.semiMissNs / figures.packedMissNs);
      std::fflush(stdout);
    }
  }
  return 0;
}
