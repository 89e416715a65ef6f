// The cooperative wall-clock deadline (core/common/deadline.h): none by default, set and
// restored by scope, the earlier of nested deadlines, per thread.
#include "core/common/deadline.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "core/common/error.h"

namespace arena {
namespace deadline_test {

using namespace std::chrono_literals;

TEST(Deadline, NoneByDefault) {
  EXPECT_FALSE(DeadlinePassed());
  EXPECT_EQ(DeadlineMessage(), "");
}

TEST(Deadline, PassesAfterItsBudgetAndSaysSo) {
  {
    const ScopedDeadline deadline(0.02, "the case's wall-clock budget");
    EXPECT_FALSE(DeadlinePassed());
    std::this_thread::sleep_for(40ms);
    EXPECT_TRUE(DeadlinePassed());
    EXPECT_TRUE(deadline.passed());
    EXPECT_EQ(DeadlineMessage(), "the case's wall-clock budget of 0.02 s ran out");
  }
  EXPECT_FALSE(DeadlinePassed());  // the scope ended: no deadline again
  EXPECT_EQ(DeadlineMessage(), "");
}

TEST(Deadline, NestedDeadlineNeverExtendsTheEnclosingOne) {
  const ScopedDeadline outer(0.02, "outer");
  {
    const ScopedDeadline inner(3600.0, "inner");
    std::this_thread::sleep_for(40ms);
    EXPECT_TRUE(DeadlinePassed());
    EXPECT_EQ(DeadlineMessage(), "outer of 0.02 s ran out");
  }
  EXPECT_TRUE(DeadlinePassed());
}

TEST(Deadline, InnerDeadlineEndsFirstAndTheOuterOneIsRestored) {
  const ScopedDeadline outer(3600.0, "outer");
  {
    const ScopedDeadline inner(0.01, "inner");
    std::this_thread::sleep_for(20ms);
    EXPECT_TRUE(DeadlinePassed());
  }
  EXPECT_FALSE(DeadlinePassed());
}

TEST(Deadline, IsPerThread) {
  const ScopedDeadline deadline(0.001, "main");
  std::this_thread::sleep_for(5ms);
  ASSERT_TRUE(DeadlinePassed());
  bool other_passed = true;
  std::thread([&] { other_passed = DeadlinePassed(); }).join();
  EXPECT_FALSE(other_passed);
}

TEST(Deadline, HugeBudgetIsNoDeadlineAndBadBudgetIsAnError) {
  {
    const ScopedDeadline forever(std::numeric_limits<double>::infinity(), "forever");
    const ScopedDeadline long_one(1e300, "long");
    EXPECT_FALSE(DeadlinePassed());
  }
  for (double bad : {0.0, -1.0, std::nan("")}) {
    EXPECT_THROW(ScopedDeadline(bad, "budget"), InvalidArgument) << bad;
  }
}

}  // namespace deadline_test
}  // namespace arena
