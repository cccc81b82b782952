// Checks that the tests of the four base filter types (Bloom, blocked Bloom,
// counting Bloom, cuckoo) make in the same way, written once: the byte round
// trip, the false-negative count, the rate measured at capacity, the probed
// positions, the options every type must refuse, and union. Each is a template
// over the filter class, so a test that calls one still fails on its own
// type's bug, under its own name.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cuckoo_bloom/core/limits.h"
#include "cuckoo_bloom/core/status.h"
#include "support/test_keys.h"

namespace cuckoo_bloom_test {

// Filter::create({capacity, rate, seed}) of a type that takes only the
// shared three options (the word-array filters), failing the test if refused.
template <typename Filter>
Filter makeFilter(uint64_t capacity, double rate, uint64_t seed = 0) {
  return valueOrFail(Filter::create({capacity, rate, seed}), "create");
}

// serialize() then deserialize(): the copy a user gets back from the bytes.
template <typename Filter>
Filter roundTrip(const Filter& filter) {
  const std::vector<uint8_t> bytes = filter.serialize();
  return valueOrFail(Filter::deserialize(bytes.data(), bytes.size()), "deserialize");
}

// How many of presentKey(0 .. count-1) the filter does not find: its false
// negatives, which must be 0 for every key that was added.
template <typename Filter>
uint64_t countPresentMissing(const Filter& filter, uint64_t count) {
  uint64_t missing = 0;
  for (uint64_t i = 0; i < count; ++i) missing += filter.has(presentKey(i)) ? 0 : 1;
  return missing;
}

// Adds presentKey(0 .. count-1) (to a type whose add() cannot fail).
template <typename Filter>
void addPresentKeys(Filter& filter, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) filter.add(presentKey(i));
}

// The share of absentKey(0 .. probes-1) the filter reports: its measured
// false-positive rate.
template <typename Filter>
double measuredFalsePositiveRate(const Filter& filter, uint64_t probes) {
  return static_cast<double>(countAbsentFound(filter, probes)) / static_cast<double>(probes);
}

// A word-array filter (Bloom, blocked, counting) of 1,000,000 keys at `target`
// (seed 1) given presentKey(0 .. 999,999): its rate measured over `probes`
// absent keys, reported under `name` with tableBits(filter) / keys as its
// bits per key. The bounds on it are each type's own.
template <typename Filter, typename TableBits>
double measuredRateAtOneMillionKeys(const char* name, double target, uint64_t probes, TableBits tableBits) {
  constexpr uint64_t kKeys = 1000000;
  Filter filter = valueOrFail(Filter::create({kKeys, target, 1}), "create");
  addPresentKeys(filter, kKeys);
  const double measured = measuredFalsePositiveRate(filter, probes);
  reportMeasurement(name, target, kKeys, static_cast<double>(tableBits(filter)) / kKeys, measured,
                    filter.estimatedFalsePositiveRate());
  return measured;
}

// For presentKey(0 .. 199) in turn: the key's positions() are read, the key
// is added, then check(key, positions) runs against the filter now holding
// it. Stops at the first fatal failure of `check`.
template <typename Filter, typename Check>
void checkPositionsOfEachAddedKey(Filter& filter, Check check) {
  for (uint64_t i = 0; i < 200; ++i) {
    const std::string key = presentKey(i);
    const std::vector<uint64_t> positions =
        filter.positions(reinterpret_cast<const uint8_t*>(key.data()), key.size());
    filter.add(key);
    check(key, positions);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// What a filter finds of presentKey(0 .. keys-1) after every even-numbered
// key was removed (each added once): kept (odd) keys it misses, which must be
// 0, and removed (even) keys it still finds, which only false positives allow.
struct AfterRemovingEvenKeys {
  uint64_t keptMissing = 0;
  uint64_t removedFound = 0;
};

template <typename Filter>
AfterRemovingEvenKeys findAfterRemovingEvenKeys(const Filter& filter, uint64_t keys) {
  AfterRemovingEvenKeys found;
  for (uint64_t i = 0; i < keys; ++i) {
    const bool has = filter.has(presentKey(i));
    if (i % 2 == 1) {
      found.keptMissing += has ? 0 : 1;
    } else {
      found.removedFound += has ? 1 : 0;
    }
  }
  return found;
}

// `filter` holds presentKey(0 .. keys-1): it finds them all, and so does its
// round-tripped copy, which has the same count and the same bytes.
template <typename Filter>
void expectNoFalseNegativesBeforeAndAfterRoundTrip(const Filter& filter, uint64_t keys) {
  EXPECT_EQ(countPresentMissing(filter, keys), 0u);
  const Filter copy = roundTrip(filter);
  EXPECT_EQ(countPresentMissing(copy, keys), 0u);
  EXPECT_EQ(copy.count(), filter.count());
  EXPECT_EQ(copy.serialize(), filter.serialize());
}

// What a copy read from bytes carries over from the header: the seed, the
// count, the capacity and the target rate.
template <typename Filter>
void expectSameHeader(const Filter& copy, const Filter& filter) {
  EXPECT_EQ(copy.seed(), filter.seed());
  EXPECT_EQ(copy.count(), filter.count());
  EXPECT_EQ(copy.capacity(), filter.capacity());
  EXPECT_EQ(copy.targetFalsePositiveRate(), filter.targetFalsePositiveRate());
}

// The (capacity, rate) pairs no filter type may accept: no keys, a rate that
// is not strictly between 0 and 1 (NaN and infinity included), or more keys
// than limits.h allows. `optionsFor(capacity, rate)` builds the type's options;
// the smallest valid filter (1 key at 50%) must still be created.
template <typename Filter, typename OptionsFor>
void expectInvalidCapacityAndRateRejected(OptionsFor optionsFor) {
  const auto code = [&](uint64_t capacity, double rate) {
    return Filter::create(optionsFor(capacity, rate)).status().code();
  };
  using cuckoo_bloom::StatusCode;
  const double invalidRates[] = {0.0, 1.0, -0.01, -0.5, 1.5, std::numeric_limits<double>::quiet_NaN(),
                                 std::numeric_limits<double>::infinity()};
  for (const double rate : invalidRates) EXPECT_EQ(code(1000, rate), StatusCode::InvalidArgument) << rate;
  for (const uint64_t capacity : {uint64_t{0}, cuckoo_bloom::kMaxCapacity + 1, uint64_t{UINT64_MAX}}) {
    EXPECT_EQ(code(capacity, 0.01), StatusCode::InvalidArgument) << capacity;
  }
  EXPECT_EQ(code(1, 0.5), StatusCode::Ok);
}

// 1e12 keys at 1e-9 would need terabytes. The size is rejected before any
// allocation: the status names the size limit, not the "out of memory" a
// failed calloc would give (and under ASan an attempted calloc of that size
// aborts the test with allocation-size-too-big).
template <typename Filter, typename Options>
void expectAbsurdSizeRejectedWithoutAllocating(const Options& absurd) {
  const cuckoo_bloom::Result<Filter> created = Filter::create(absurd);
  ASSERT_EQ(created.status().code(), cuckoo_bloom::StatusCode::InvalidArgument);
  EXPECT_EQ(created.status().message().find("out of memory"), std::string::npos) << created.status().message();
  EXPECT_NE(created.status().message().find("limit"), std::string::npos) << created.status().message();
}

// `a` and `b` are empty filters of the same parameters: after adding
// presentKey(0 .. keys-1) to a, otherKey(0 .. keys-1) to b and a.unionWith(b),
// a finds every key of both, and its count (an estimate of the distinct keys)
// is between the larger input and the sum.
template <typename Filter>
void expectUnionFindsKeysOfBoth(Filter& a, Filter& b, uint64_t keys) {
  addPresentKeys(a, keys);
  for (uint64_t i = 0; i < keys; ++i) b.add(otherKey(i));
  ASSERT_TRUE(a.unionWith(b).isOk());
  for (uint64_t i = 0; i < keys; ++i) {
    ASSERT_TRUE(a.has(presentKey(i))) << i;
    ASSERT_TRUE(a.has(otherKey(i))) << i;
  }
  EXPECT_GE(a.count(), keys);
  EXPECT_LE(a.count(), 2 * keys);
}

}  // namespace cuckoo_bloom_test
