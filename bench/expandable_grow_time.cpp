// Growing an expandable filter without a hint, 100 -> 4,000,000 pre-hashed
// keys at 1% and 0.1%: thread CPU time per add (the fastest of 3 runs), per
// has of a present key, bits/key at the end, and the worst bits/key just
// after a growth (the table's bytes changed), past 10,000 keys. It uses only
// createFrom/add/has/byteLength, so the same file builds against an older
// library for a before/after in one session (docs/EXPANDABLE.md):
//
//   g++ -O2 -std=c++17 -Icpp/include -Ibuild/xxhash-include bench/expandable_grow_time.cpp
//     cpp/src/expandable/*.cpp cpp/src/core/*.cpp -o build/expandable_grow_time  (one line)

#include <chrono>
#include <cstdio>
#include <vector>
#include <string>
#include <algorithm>
#include <ctime>
#include "cuckoo_bloom/expandable/expandable_filter.h"
using namespace cuckoo_bloom;
static double cpuNow() { timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main() {
  const uint64_t n = 4000000;
  std::vector<KeyHash> keys(n);
  for (uint64_t i = 0; i < n; ++i) keys[i] = hashKey("k" + std::to_string(i), 7);
  for (double rate : {0.01, 0.001}) {
    double best = 1e9, bestHas = 1e9; size_t bytes = 0;
    for (int r = 0; r < 3; ++r) {
      CoreFilterOptions o; o.capacity = 100; o.falsePositiveRate = rate; o.seed = 7;
      ExpandableFilter f = ExpandableFilter::createFrom(o).value();
      const double t0 = cpuNow();
      for (const KeyHash& k : keys) if (!f.add(k).isOk()) return 1;
      const double t1 = cpuNow();
      if (r == 0) {  // the worst bits/key just after a growth (past 10,000 keys), in a separate untimed pass
        ExpandableFilter g = ExpandableFilter::createFrom(o).value();
        size_t last = g.byteLength(); double worst = 0; uint64_t at = 0;
        for (uint64_t i = 0; i < n; ++i) {
          if (!g.add(keys[i]).isOk()) return 1;
          if (g.byteLength() != last) { last = g.byteLength(); const double b = last * 8.0 / (i + 1); if (i + 1 >= 10000 && b > worst) worst = b, at = i + 1; }
        }
        std::printf("rate %g: worst just after a growth %.2f bits/key at %llu keys\n", rate, worst, (unsigned long long)at);
      }
      uint64_t hits = 0;
      for (uint64_t i = 0; i < n; ++i) hits += f.has(keys[(i * 7919) % n]);
      const double t2 = cpuNow();
      if (hits != n) return 2;
      best = std::min(best, t1 - t0); bestHas = std::min(bestHas, t2 - t1); bytes = f.byteLength();
    }
    std::printf("rate %g: add %.1f ns/key, has(present) %.1f ns, %.2f bits/key at %llu\n", rate, best / n * 1e9, bestHas / n * 1e9, bytes * 8.0 / n, (unsigned long long)n);
  }
}
