// A short tour of the native library: build, query, serialize, read back.
#include <cstdio>
#include <string>

#include "cuckoo_bloom/cuckoo_bloom.h"

using namespace cuckoo_bloom;

int main() {
  Result<BloomFilter> created = BloomFilter::create({/*capacity=*/100000, /*falsePositiveRate=*/0.01});
  if (!created.isOk()) {
    std::fprintf(stderr, "%s: %s\n", statusCodeName(created.status().code()), created.status().message().c_str());
    return 1;
  }
  BloomFilter seen = std::move(created).value();
  for (int i = 0; i < 100000; ++i) seen.add("https://example.com/page/" + std::to_string(i));
  std::printf("bloom: %llu keys, %llu bits, k=%u, %.2f bits/key, estimated FPR %.4f%%\n",
              static_cast<unsigned long long>(seen.count()), static_cast<unsigned long long>(seen.bitCount()),
              seen.hashCount(), static_cast<double>(seen.bitCount()) / seen.count(),
              100 * seen.estimatedFalsePositiveRate());
  std::printf("has(page/42)=%d has(elsewhere)=%d\n", seen.has("https://example.com/page/42"),
              seen.has("https://elsewhere.example/"));

  Result<CuckooFilter> cuckooResult = CuckooFilter::create({100000, 0.001});
  CuckooFilter cuckoo = std::move(cuckooResult).value();
  cuckoo.add("evil.example/");
  std::vector<uint8_t> bytes = cuckoo.serialize();
  Result<CuckooFilter> again = CuckooFilter::deserialize(bytes.data(), bytes.size());
  std::printf("cuckoo: %zu bytes serialized, fingerprint bits %u, round trip has(evil.example/)=%d\n",
              bytes.size(), again.value().fingerprintBits(), again.value().has("evil.example/"));
  const Status removed = again.value().remove("evil.example/");
  std::printf("cuckoo: remove -> %s, has afterwards=%d\n", statusCodeName(removed.code()),
              again.value().has("evil.example/"));
  Result<BloomFilter> wrong = BloomFilter::deserialize(bytes.data(), bytes.size());
  std::printf("reading cuckoo bytes as a Bloom filter: %s (%s)\n", statusCodeName(wrong.status().code()),
              wrong.status().message().c_str());
  return 0;
}
