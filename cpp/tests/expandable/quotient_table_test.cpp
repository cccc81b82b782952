// The quotient table's lookup path (anyInRun) against a model: canonical slot
// -> multiset of values, at loads up to 0.95 where clusters run across block
// boundaries (so a cluster's start is in the block before q's and a run
// continues into the next block), in a table whose slot count is not a
// multiple of 64 (the last block is partial). Every slot is asked for every
// value of its run and for a value it does not hold, after inserts and again
// after erases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "cuckoo_bloom/expandable/quotient_table.h"

namespace {

using namespace cuckoo_bloom;

using Model = std::map<uint64_t, std::multiset<uint64_t>>;

// The values anyInRun visits for q (the whole run: match never returns true).
std::multiset<uint64_t> runOf(const QuotientTable& table, uint64_t q) {
  std::multiset<uint64_t> seen;
  table.anyInRun(q, [&](uint64_t v) {
    seen.insert(v);
    return false;
  });
  return seen;
}

void expectTableMatches(const QuotientTable& table, const Model& model, uint64_t nominal) {
  uint64_t crossings = 0;
  for (uint64_t q = 0; q < nominal; ++q) {
    const auto it = model.find(q);
    const std::multiset<uint64_t> want = it == model.end() ? std::multiset<uint64_t>{} : it->second;
    ASSERT_EQ(runOf(table, q), want) << "slot " << q;
    for (uint64_t v : want) {
      ASSERT_TRUE(table.anyInRun(q, [&](uint64_t x) { return x == v; })) << "slot " << q << " value " << v;
    }
    // 0 is never inserted: no run holds it.
    ASSERT_FALSE(table.anyInRun(q, [](uint64_t x) { return x == 0; })) << "slot " << q;
    if (table.occupied(q) && table.shifted(q) && (q & 63) < 8) ++crossings;
  }
  // The point of the loads chosen: runs whose cluster starts in the block before.
  EXPECT_GT(crossings, 0u);
}

TEST(QuotientTableLookup, EveryRunMatchesTheModelAcrossBlockBoundaries) {
  constexpr uint64_t kNominal = 64 * 40 + 23;  // a partial last block
  constexpr uint64_t kSlots = kNominal + 128;  // the padding the filter keeps
  constexpr uint32_t kValueBits = 13;          // values straddle words
  QuotientTable table;
  ASSERT_TRUE(table.allocate(kSlots, kValueBits));
  std::mt19937_64 random(30);
  Model model;
  std::vector<std::pair<uint64_t, uint64_t>> added;
  for (uint64_t i = 0; i < kNominal * 95 / 100; ++i) {
    const uint64_t q = random() % kNominal;
    const uint64_t v = 1 + random() % ((uint64_t{1} << kValueBits) - 1);
    ASSERT_TRUE(table.insert(q, v)) << "insert " << i;
    model[q].insert(v);
    added.emplace_back(q, v);
  }
  expectTableMatches(table, model, kNominal);
  // Erase a third, then ask again: erase's left shifts keep the layout.
  std::shuffle(added.begin(), added.end(), random);
  for (size_t i = 0; i < added.size() / 3; ++i) {
    const auto [q, v] = added[i];
    ASSERT_TRUE(table.erase(q, v));
    auto& values = model[q];
    values.erase(values.find(v));
    if (values.empty()) model.erase(q);
  }
  expectTableMatches(table, model, kNominal);
}

}  // namespace
