// The golden files of the URL structures (tests/golden/url-*): each test makes
// fresh bytes and compares them with the checked-in file, which the JS suite
// also reads; CUCKOO_BLOOM_UPDATE_GOLDEN=1 rewrites the file first.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cuckoo_bloom/url/expression_set.h"

namespace cuckoo_bloom_test {

// The file's bytes (after rewriting it when asked); a test failure if it is missing.
inline std::vector<uint8_t> urlGoldenFile(const std::string& name, const std::vector<uint8_t>& fresh) {
  const std::string path = std::string(CUCKOO_BLOOM_GOLDEN_DIR) + "/" + name;
  const char* update = std::getenv("CUCKOO_BLOOM_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    EXPECT_TRUE(out) << "cannot write " << path;
    out.write(reinterpret_cast<const char*>(fresh.data()), static_cast<std::streamsize>(fresh.size()));
  }
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path << " is missing: run with CUCKOO_BLOOM_UPDATE_GOLDEN=1";
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The expressions of the golden companion (url-expression-set.confirm and its
// split): "host-0.example/" ... "host-599.example/".
inline std::vector<std::string> goldenExpressions() {
  std::vector<std::string> expressions;
  for (int i = 0; i < 600; ++i) expressions.push_back("host-" + std::to_string(i) + ".example/");
  return expressions;
}

// Their hashes under the companion's default seed.
inline std::vector<uint64_t> goldenExpressionHashes() {
  std::vector<uint64_t> hashes;
  for (const std::string& expression : goldenExpressions()) {
    hashes.push_back(cuckoo_bloom::expressionHash(reinterpret_cast<const uint8_t*>(expression.data()),
                                                  expression.size(), cuckoo_bloom::kExpressionSetDefaultSeed));
  }
  return hashes;
}

}  // namespace cuckoo_bloom_test
