// Throughput of the concurrent filters (issue #31, cpp/include/cuckoo_bloom/
// concurrent/) with 1 and 2 threads, beside the plain filter on one thread:
// add() of N keys into an empty filter sized for N, then has() of those N
// keys (all present). Keys are hashed up front, so only the filter's work is
// timed (hashing is per thread and would scale by itself).
//
// Stability on a shared machine (the first version, best of 3 over one pass of
// 1M lookups, about 20 ms, swung by +-40%): each has() figure times kHasPasses
// passes over the N keys (about 0.2-0.5 s), the 1- and 2-thread lookups run
// back to back on the same filter in alternating order, and the figures are
// medians over the rounds (7 by default); has 2T/1T is the median of the per-round ratios,
// so load that shifts a whole round cancels out. Wall time (threads are the
// point), million operations per second.
//
// Native (from the repository root, after the CMake build made build/):
//   g++ -O2 -std=c++17 -pthread -Icpp/include -I build/xxhash-include bench/concurrent_bench.cpp cpp/src/core/*.cpp cpp/src/bloom/*.cpp cpp/src/cuckoo/*.cpp cpp/src/concurrent/*.cpp -o build/concurrent_bench
//   ./build/concurrent_bench [N] [rounds]      (default N = 1000000, rounds = 7)
//
// Output: one Markdown table row per filter: plain 1-thread, concurrent
// 1-thread and 2-thread Mops/s for add and has, and the ratios
// concurrent-2 / concurrent-1 and concurrent-2 / plain. On a machine whose
// cores are busy with other work the 2-thread figures are a lower bound.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cuckoo_bloom/concurrent/concurrent_bloom_filter.h"
#include "cuckoo_bloom/concurrent/concurrent_counting_bloom_filter.h"
#include "cuckoo_bloom/concurrent/concurrent_cuckoo_filter.h"

using namespace cuckoo_bloom;

namespace {

int gRounds = 7;
constexpr int kHasPasses = 8;

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Runs work(begin, end) over [0, n) split across `threads`; the wall time.
template <typename Work>
double timeSplit(uint32_t threads, size_t n, Work work) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> running;
  for (uint32_t t = 1; t < threads; ++t) running.emplace_back(work, n * t / threads, n * (t + 1) / threads);
  work(size_t{0}, n / threads);
  for (std::thread& thread : running) thread.join();
  return seconds(start);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

volatile uint64_t gSink = 0;  // keeps the lookups from being optimised away

struct Row {
  double plainAdd = 0, plainHas = 0, add1 = 0, add2 = 0, has1 = 0, has2 = 0, hasRatio = 0;
};

// kHasPasses passes of has() over every key, split across `threads`; Mops/s.
template <typename Filter>
double hasRate(const Filter& filter, const std::vector<KeyHash>& hashes, uint32_t threads) {
  const size_t n = hashes.size();
  const double t = timeSplit(threads, n, [&](size_t b, size_t e) {
    uint64_t found = 0;
    for (int pass = 0; pass < kHasPasses; ++pass) {
      for (size_t i = b; i < e; ++i) found += filter.has(hashes[i]);
    }
    gSink = gSink + found;
    if (found != (e - b) * kHasPasses) std::fprintf(stderr, "false negatives\n"), std::exit(1);
  });
  return static_cast<double>(n) * kHasPasses / 1e6 / t;
}

// make() gives a fresh plain filter; Concurrent wraps one (wrap(plain) returns a pointer-like).
template <typename MakePlain, typename Wrap>
Row measure(const std::vector<KeyHash>& hashes, MakePlain makePlain, Wrap wrap) {
  const size_t n = hashes.size();
  const double mops = static_cast<double>(n) / 1e6;
  std::vector<double> plainAdd, plainHas, add1, add2, has1, has2, ratio;
  for (int round = 0; round < gRounds; ++round) {
    auto plain = makePlain();
    plainAdd.push_back(mops / timeSplit(1, n, [&](size_t b, size_t e) { for (size_t i = b; i < e; ++i) (void)plain.add(hashes[i]); }));
    plainHas.push_back(hasRate(plain, hashes, 1));
    for (uint32_t threads = 1; threads <= 2; ++threads) {
      auto shared = wrap(makePlain());
      (threads == 1 ? add1 : add2).push_back(mops / timeSplit(threads, n, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) (void)shared->add(hashes[i]);
      }));
      if (threads == 1) continue;
      // 1 and 2 threads on the same filter, back to back, the order alternating by round.
      double one = 0, two = 0;
      if (round % 2 == 0) {
        one = hasRate(*shared, hashes, 1);
        two = hasRate(*shared, hashes, 2);
      } else {
        two = hasRate(*shared, hashes, 2);
        one = hasRate(*shared, hashes, 1);
      }
      has1.push_back(one);
      has2.push_back(two);
      ratio.push_back(two / one);
    }
  }
  Row row;
  row.plainAdd = median(plainAdd);
  row.plainHas = median(plainHas);
  row.add1 = median(add1);
  row.add2 = median(add2);
  row.has1 = median(has1);
  row.has2 = median(has2);
  row.hasRatio = median(ratio);
  return row;
}

void print(const char* name, const Row& r) {
  std::printf("| %s | %.1f | %.1f | %.1f | %.2fx | %.2fx | %.1f | %.1f | %.1f | %.2fx | %.2fx |\n", name, r.plainAdd,
              r.add1, r.add2, r.add2 / r.add1, r.add2 / r.plainAdd, r.plainHas, r.has1, r.has2, r.hasRatio,
              r.has2 / r.plainHas);
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  if (argc > 2) gRounds = std::max(1, std::atoi(argv[2]));
  std::vector<KeyHash> hashes(n);
  for (uint64_t i = 0; i < n; ++i) hashes[i] = hashKey("https://host" + std::to_string(i % 977) + ".example/path/" + std::to_string(i), 1);
  std::printf("N = %llu keys, hardware threads: %u, Mops/s (median of %d rounds; has: %d passes; has 2T/1T: median of the per-round ratios)\n\n",
              static_cast<unsigned long long>(n), std::thread::hardware_concurrency(), gRounds, kHasPasses);
  std::printf("| filter | add plain | add 1T | add 2T | add 2T/1T | add 2T/plain | has plain | has 1T | has 2T | has 2T/1T | has 2T/plain |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  const FilterOptions options{n, 0.01, 1};
  print("bloom", measure(hashes, [&] { return BloomFilter::create(options).value(); },
                         [](BloomFilter&& f) { return std::make_unique<ConcurrentBloomFilter>(std::move(f)); }));
  print("blocked bloom", measure(hashes, [&] { return BlockedBloomFilter::create(options).value(); },
                                 [](BlockedBloomFilter&& f) { return std::make_unique<ConcurrentBlockedBloomFilter>(std::move(f)); }));
  print("counting bloom", measure(hashes, [&] { return CountingBloomFilter::create(options).value(); },
                                  [](CountingBloomFilter&& f) { return std::make_unique<ConcurrentCountingBloomFilter>(std::move(f)); }));
  CuckooFilterOptions cuckoo;
  cuckoo.capacity = n;
  cuckoo.falsePositiveRate = 0.01;
  cuckoo.semiSorted = false;
  cuckoo.seed = 1;
  print("cuckoo (packed, b=4)", measure(hashes, [&] { return CuckooFilter::create(cuckoo).value(); },
                                        [](CuckooFilter&& f) { return std::move(ConcurrentCuckooFilter::wrap(std::move(f)).value()); }));
  return 0;
}
