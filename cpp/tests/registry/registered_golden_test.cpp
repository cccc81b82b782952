// The golden file of every registered type that no recipe of its own builds:
// tests/golden/<name>.cbf is the type built through the registry
// (buildFilter) from the 50 golden keys "key-0".."key-49" with capacity 100,
// falsePositiveRate 0.01 and seed 42, compared byte for byte (as format_test.cpp
// does for its types; CUCKOO_BLOOM_UPDATE_GOLDEN=1 writes the file). So a new
// type gets its golden file, which docs_tables_test.cpp reads, with no edit of
// an existing test. The types listed below have their own recipes, older than
// this one (format_test.cpp: the single-part types; composite_golden_test.cpp:
// the chains).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "cuckoo_bloom/registry/any_filter.h"
#include "support/registered_types.h"
#include "support/test_keys.h"

namespace {

using namespace cuckoo_bloom;

const std::set<std::string> kOwnRecipes = {"bloom",          "blocked-bloom",  "counting-bloom",
                                           "cuckoo",         "binary-fuse",    "scalable-bloom",
                                           "scalable-cuckoo", "expiring-bloom"};

}  // namespace

template <typename Filter>
class RegisteredGolden : public ::testing::Test {};
TYPED_TEST_SUITE(RegisteredGolden, cuckoo_bloom_test::RegisteredTypes);

TYPED_TEST(RegisteredGolden, FreshBytesEqualTheCheckedInFileAndReadBack) {
  const std::string name = filterTypeName(TypeParam::kType);
  if (kOwnRecipes.count(name) == 1) GTEST_SKIP() << name << " has its own golden recipe";
  CoreFilterOptions options;
  options.capacity = 100;
  options.falsePositiveRate = 0.01;
  options.seed = 42;
  std::vector<KeyHash> hashes;
  for (uint64_t i = 0; i < 50; ++i) {
    // Each type's own hash (its kHashAlgorithm), as its byte-key add would use.
    const std::string key = cuckoo_bloom_test::goldenKey(i);
    hashes.push_back(hashKeyWith<HashAlgorithmOf<TypeParam>::value>(reinterpret_cast<const uint8_t*>(key.data()), key.size(), 42));
  }
  Result<std::unique_ptr<AnyFilter>> built = buildFilter(TypeParam::kType, options, hashes.data(), hashes.size());
  ASSERT_TRUE(built.isOk()) << built.status().message();
  const std::vector<uint8_t> fresh = built.value()->serialize();

  const std::string path = std::string(CUCKOO_BLOOM_GOLDEN_DIR) + "/" + name + ".cbf";
  const char* update = std::getenv("CUCKOO_BLOOM_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    ASSERT_TRUE(out) << "cannot write " << path;
    out.write(reinterpret_cast<const char*>(fresh.data()), static_cast<std::streamsize>(fresh.size()));
    ASSERT_TRUE(out.good());
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path << " is missing: run with CUCKOO_BLOOM_UPDATE_GOLDEN=1";
  const std::vector<uint8_t> stored{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  EXPECT_EQ(stored, fresh) << path << ": the format, the hashing or the sizing changed";
  Result<std::unique_ptr<AnyFilter>> read = deserializeFilter(stored.data(), stored.size());
  ASSERT_TRUE(read.isOk()) << read.status().message();
  for (uint64_t i = 0; i < 50; ++i) {
    const std::string key = cuckoo_bloom_test::goldenKey(i);
    EXPECT_TRUE(read.value()->has(reinterpret_cast<const uint8_t*>(key.data()), key.size())) << key;
  }
}
