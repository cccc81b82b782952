// The quotient table's lookup path (anyInRun) against a model: canonical slot
// -> multiset of values, at loads up to 0.95 where clusters run across block
// boundaries (so a cluster's start is in the block before q's and a run
// continues into the next block), in a table whose slot count is not a
// multiple of 64 (the last block is partial). Every slot is asked for every
// value of its run and for a value it does not hold, after inserts and again
// after erases. The lookup finds a shifted run through spill[] (the per-block
// count of slots held by earlier blocks' entries, kept in memory only): it is
// checked against a recount from the bits after every insert and erase, and
// in a cluster longer than spill[] counts (its saturated path). On a CPU
// with POPCNT and fast PDEP (core/fast_bits.h) every question is also asked
// of anyInRunFastBits, the path has() takes there, which must answer alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "cuckoo_bloom/expandable/quotient_table.h"

namespace {

using namespace cuckoo_bloom;

using Model = std::map<uint64_t, std::multiset<uint64_t>>;

#if CUCKOO_BLOOM_FAST_BITS_DISPATCH || CUCKOO_BLOOM_FAST_BITS_ALWAYS
// Compiled for the instructions; called only when the CPU has them.
template <typename Match>
CUCKOO_BLOOM_FAST_BITS_TARGET bool anyInRunFastBits(const QuotientTable& table, uint64_t q, Match&& match) {
  return table.anyInRunFastBits(q, match);
}
#endif

// anyInRun, and where the CPU has them anyInRunFastBits too, which must give
// the same answer after visiting the same values in the same order
// (`visited`: the values anyInRun gave `match`).
template <typename Match>
bool anyInRunEveryPath(const QuotientTable& table, uint64_t q, Match&& match, std::vector<uint64_t>* visitedOut = nullptr) {
  std::vector<uint64_t> visited;
  const bool found = table.anyInRun(q, [&](uint64_t v) {
    visited.push_back(v);
    return match(v);
  });
#if CUCKOO_BLOOM_FAST_BITS_DISPATCH || CUCKOO_BLOOM_FAST_BITS_ALWAYS
  if (cpuHasFastBits()) {
    std::vector<uint64_t> visitedFast;
    const bool foundFast = anyInRunFastBits(table, q, [&](uint64_t v) {
      visitedFast.push_back(v);
      return match(v);
    });
    EXPECT_EQ(foundFast, found) << "slot " << q;
    EXPECT_EQ(visitedFast, visited) << "slot " << q;
  }
#endif
  if (visitedOut != nullptr) *visitedOut = std::move(visited);
  return found;
}

// The values anyInRun visits for q (the whole run: match never returns true).
std::multiset<uint64_t> runOf(const QuotientTable& table, uint64_t q) {
  std::vector<uint64_t> visited;
  anyInRunEveryPath(table, q, [](uint64_t) { return false; }, &visited);
  return std::multiset<uint64_t>(visited.begin(), visited.end());
}

void expectTableMatches(const QuotientTable& table, const Model& model, uint64_t nominal) {
  uint64_t crossings = 0;
  for (uint64_t q = 0; q < nominal; ++q) {
    const auto it = model.find(q);
    const std::multiset<uint64_t> want = it == model.end() ? std::multiset<uint64_t>{} : it->second;
    ASSERT_EQ(runOf(table, q), want) << "slot " << q;
    for (uint64_t v : want) {
      ASSERT_TRUE(anyInRunEveryPath(table, q, [&](uint64_t x) { return x == v; })) << "slot " << q << " value " << v;
    }
    // 0 is never inserted: no run holds it.
    ASSERT_FALSE(anyInRunEveryPath(table, q, [](uint64_t x) { return x == 0; })) << "slot " << q;
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
    ASSERT_TRUE(table.spillMatchesLayout()) << "after insert " << i << " at slot " << q;
    model[q].insert(v);
    added.emplace_back(q, v);
  }
  expectTableMatches(table, model, kNominal);
  // Erase a third, then ask again: erase's left shifts keep the layout.
  std::shuffle(added.begin(), added.end(), random);
  for (size_t i = 0; i < added.size() / 3; ++i) {
    const auto [q, v] = added[i];
    ASSERT_TRUE(table.erase(q, v));
    ASSERT_TRUE(table.spillMatchesLayout()) << "after erase " << i << " at slot " << q;
    auto& values = model[q];
    values.erase(values.find(v));
    if (values.empty()) model.erase(q);
  }
  expectTableMatches(table, model, kNominal);
}

// A table read from bytes gets spill[] from rebuildSpill(); built by append
// (as a doubling builds), it is kept entry by entry. Both must agree with the
// bits, here in a cluster of about 66,000 slots: blocks 1-5 spill more than
// the 65,535 a count holds, so their runs take the saturated path (the
// lookup recounts through the cluster), an insert or erase deep in the
// cluster moves them, and erases at its start bring blocks back under the
// limit (a saturated count must then be recounted, not kept).
TEST(QuotientTableLookup, AClusterLongerThanSpillCountsSaturatesAndStillFindsEveryRun) {
  constexpr uint64_t kLong = 65536 + 64 * 5;  // spill[b] = kLong - 64b for the first blocks
  constexpr uint64_t kSlots = kLong + 64 * 20;
  constexpr uint32_t kValueBits = 20;
  QuotientTable table;
  ASSERT_TRUE(table.allocate(kSlots, kValueBits));
  Model model;
  // Canonical 0 holds kLong entries; then runs in blocks 1, 3 and 4 and one
  // every 1,000 slots, all starting inside the cluster (shifted far past
  // their slots), appended in canonical order.
  for (uint64_t i = 0; i < kLong; ++i) {
    ASSERT_TRUE(table.append(0, 1 + i % 1000));
    model[0].insert(1 + i % 1000);
  }
  std::vector<uint64_t> runs = {100, 200, 300};
  for (uint64_t q = 1000; q < kLong + 64 * 10; q += 1000) runs.push_back(q);
  for (uint64_t q : runs) {
    ASSERT_TRUE(table.append(q, 5000 + q % 4096));
    ASSERT_TRUE(table.append(q, 9000 + q % 4096));
    model[q].insert(5000 + q % 4096);
    model[q].insert(9000 + q % 4096);
  }
  ASSERT_TRUE(table.spillMatchesLayout());
  const auto expectRuns = [&](const char* when) {
    for (const auto& [q, values] : model) {
      if (q == 0) continue;  // kLong entries: asked once below
      ASSERT_EQ(runOf(table, q), values) << when << ": slot " << q;
    }
    ASSERT_EQ(runOf(table, 0).size(), model[0].size()) << when;
    ASSERT_EQ(runOf(table, 999), std::multiset<uint64_t>{}) << when;
  };
  expectRuns("appended");
  // The same bits through rebuildSpill(): what a read from bytes does.
  QuotientTable copy;
  ASSERT_TRUE(copy.allocate(kSlots, kValueBits));
  std::copy(table.words(), table.words() + table.payloadWords(), copy.words());
  EXPECT_FALSE(copy.spillMatchesLayout());  // zeroed until rebuilt
  copy.rebuildSpill();
  EXPECT_TRUE(copy.spillMatchesLayout());
  for (const auto& [q, values] : model) {
    if (q != 0) ASSERT_EQ(runOf(copy, q), values) << "rebuilt: slot " << q;
  }
  // Insert into and erase from runs deep in the cluster (saturated blocks
  // and the blocks after them move by one slot).
  for (uint64_t q : {uint64_t{64000}, uint64_t{66000}, uint64_t{100}, uint64_t{1000}}) {
    ASSERT_TRUE(table.insert(q, 12345));
    model[q].insert(12345);
    ASSERT_TRUE(table.spillMatchesLayout()) << "insert at " << q;
  }
  expectRuns("after inserts");
  for (uint64_t q : {uint64_t{65000}, uint64_t{2000}, uint64_t{200}}) {
    ASSERT_TRUE(table.erase(q, 5000 + q % 4096));
    model[q].erase(model[q].find(5000 + q % 4096));
    ASSERT_TRUE(table.spillMatchesLayout()) << "erase at " << q;
  }
  expectRuns("after erases");
  // Sixteen entries fewer at canonical 0: each block's spill drops by one
  // per erase, and one that counts 65,535-65,550 (block 5, about 65,540
  // here) crosses under the limit on the way.
  for (int n = 0; n < 16; ++n) {
    ASSERT_TRUE(table.erase(0, 1));
    model[0].erase(model[0].find(1));
    ASSERT_TRUE(table.spillMatchesLayout()) << "erase " << n << " at the cluster's start";
  }
  expectRuns("after erases at the start");
}

}  // namespace
