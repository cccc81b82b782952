// Bounded waits (issue #47): a stripe lock held by a thread that died inside
// a call (simulated: a lock taken in holder 7's name and never released)
// makes the try* calls give up after the waiter's bound, naming the stripe
// and the holder, with nothing of theirs left locked; releaseHolder() frees
// the dead holder's stripes and every key is found again.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cuckoo_bloom/concurrent/concurrent_cuckoo_filter.h"
#include "support/test_keys.h"

namespace cuckoo_bloom {
namespace {

using cuckoo_bloom_test::presentKey;
using Outcome = ConcurrentCuckooFilter::Outcome;

constexpr uint32_t kDeadHolder = 7;
constexpr uint64_t kKeys = 20000;

std::unique_ptr<ConcurrentCuckooFilter> filledFilter() {
  CuckooFilterOptions options;
  options.capacity = 40000;
  options.falsePositiveRate = 0.01;
  options.semiSorted = false;
  auto filter = std::move(ConcurrentCuckooFilter::wrap(CuckooFilter::create(options).value())).value();
  for (uint64_t i = 0; i < kKeys; ++i) EXPECT_TRUE(filter->add(presentKey(i)).isOk());
  return filter;
}

LockWaiter boundedWaiter(uint32_t holder, double boundMs) {
  LockWaiter waiter;
  waiter.holder = holder;
  waiter.boundMs = boundMs;
  return waiter;
}

TEST(ConcurrentBoundedWait, CallsOnADeadHoldersStripeGiveUpNamingItAndReleaseHolderFreesIt) {
  auto filter = filledFilter();
  const KeyHash hash = filter->hashOf(presentKey(5));
  uint64_t bucket1 = 0, bucket2 = 0;
  uint32_t fingerprint = 0;
  filter->filter().locate(hash, bucket1, bucket2, fingerprint);
  const uint32_t stripe = ConcurrentAccess::stripeOfBucket(*filter, bucket1);
  ASSERT_TRUE(ConcurrentAccess::holdStripe(*filter, stripe, kDeadHolder));

  LockWaiter waiter = boundedWaiter(2, 50);
  const double start = waitClockMs();
  EXPECT_EQ(filter->tryHas(hash, waiter), Outcome::Stuck);
  EXPECT_EQ(waiter.stuckStripe, stripe);
  EXPECT_EQ(waiter.stuckHolder, kDeadHolder);
  EXPECT_EQ(filter->tryAdd(hash, waiter), Outcome::Stuck);
  EXPECT_EQ(filter->tryRemove(hash, waiter), Outcome::Stuck);
  std::vector<uint8_t> bytes(filter->serializedSize());
  EXPECT_EQ(filter->trySerializeInto(bytes.data(), waiter), Outcome::Stuck);
  EXPECT_EQ(waiter.stuckHolder, kDeadHolder);
  // Five waits of 50 ms: far below a second, however loaded the machine.
  EXPECT_LT(waitClockMs() - start, 1000);

  // The failed serialize released the stripes it had taken: keys elsewhere answer.
  uint64_t answered = 0;
  for (uint64_t i = 0; i < kKeys; ++i) {
    LockWaiter quick = boundedWaiter(2, 5);
    answered += filter->tryHas(filter->hashOf(presentKey(i)), quick) == Outcome::Ok ? 1 : 0;
  }
  EXPECT_GT(answered, kKeys - 100);

  EXPECT_EQ(filter->releaseHolder(kDeadHolder), 1u);
  EXPECT_EQ(filter->releaseHolder(kDeadHolder), 0u);
  for (uint64_t i = 0; i < kKeys; ++i) ASSERT_TRUE(filter->has(presentKey(i))) << i;
  LockWaiter after = boundedWaiter(2, 50);
  EXPECT_EQ(filter->trySerializeInto(bytes.data(), after), Outcome::Ok);
  Result<CuckooFilter> read = CuckooFilter::deserialize(bytes.data(), bytes.size());
  ASSERT_TRUE(read.isOk()) << read.status().message();
  for (uint64_t i = 0; i < kKeys; ++i) ASSERT_TRUE(read.value().has(presentKey(i))) << i;
}

TEST(ConcurrentBoundedWait, ReleaseHolderLeavesOtherHoldersLocks) {
  auto filter = filledFilter();
  ASSERT_TRUE(ConcurrentAccess::holdStripe(*filter, 3, kDeadHolder));
  ASSERT_TRUE(ConcurrentAccess::holdStripe(*filter, 4, kDeadHolder + 1));
  EXPECT_EQ(filter->releaseHolder(kDeadHolder), 1u);
  std::vector<uint8_t> bytes(filter->serializedSize());
  LockWaiter waiter = boundedWaiter(2, 20);
  EXPECT_EQ(filter->trySerializeInto(bytes.data(), waiter), Outcome::Stuck);
  EXPECT_EQ(waiter.stuckStripe, 4u);
  EXPECT_EQ(waiter.stuckHolder, kDeadHolder + 1);
  EXPECT_EQ(filter->releaseHolder(kDeadHolder + 1), 1u);
  EXPECT_EQ(filter->trySerializeInto(bytes.data(), waiter), Outcome::Ok);
}

}  // namespace
}  // namespace cuckoo_bloom
