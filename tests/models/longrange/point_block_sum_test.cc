// The Hessian block sum of the longrange contact: duplicates summed, first-seen order, and a
// reset (to another point count) leaves nothing behind.
#include <gtest/gtest.h>

#include "models/longrange/point_block_sum.h"

namespace arena::longrange {
namespace point_block_sum_test {

TEST(PointBlockSum, SumsDuplicatesInFirstSeenOrderAndResets) {
  PointBlockSum sum;
  sum.Reset(4);
  sum.Add(2, 1, Mat3::Identity());
  sum.Add(0, 3, 2.0 * Mat3::Ones());
  sum.Add(2, 1, 3.0 * Mat3::Identity());
  sum.Add(1, 2, Mat3::Ones());  // the transposed pair is a pair of its own
  ASSERT_EQ(sum.blocks().size(), 3u);
  EXPECT_EQ(sum.blocks()[0].row, 2);
  EXPECT_EQ(sum.blocks()[0].col, 1);
  EXPECT_EQ(sum.blocks()[0].block, 4.0 * Mat3::Identity());
  EXPECT_EQ(sum.blocks()[1].block, 2.0 * Mat3::Ones());
  EXPECT_EQ(sum.blocks()[2].row, 1);
  sum.Reset(7);
  EXPECT_TRUE(sum.blocks().empty());
  sum.Add(6, 6, Mat3::Identity());
  sum.Add(2, 1, Mat3::Identity());
  ASSERT_EQ(sum.blocks().size(), 2u);
  EXPECT_EQ(sum.blocks()[1].block, Mat3::Identity());
  sum.Reset(2);
  sum.Add(1, 1, Mat3::Identity());
  EXPECT_EQ(sum.blocks().size(), 1u);
}

}  // namespace point_block_sum_test
}  // namespace arena::longrange
