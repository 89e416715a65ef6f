// The patch clouds' k-d tree against a scan of every point: the nearest squared distance and the
// points within a margin of it, for query points inside, on and far from a cloud.
#include "models/scm/point_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

namespace arena::scm {
namespace {

TEST(PointTree, NearestAndWithinEqualAScan) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  PointTree::Points points(1000, 3);
  for (int i = 0; i < points.rows(); ++i) points.row(i) = Vec3(u(rng), 0.2 * u(rng), 0.05 * u(rng)).transpose();
  const PointTree tree(points);
  for (int q = 0; q < 200; ++q) {
    const Vec3 x = (q % 2 == 0 ? 0.5 : 3.0) * Vec3(u(rng), u(rng), u(rng));
    double nearest = std::numeric_limits<double>::infinity();
    for (int i = 0; i < points.rows(); ++i) nearest = std::min(nearest, (points.row(i).transpose() - x).squaredNorm());
    const double r2 = nearest + 0.01 * (q % 5);
    std::vector<int> expected;
    for (int i = 0; i < points.rows(); ++i) {
      if ((points.row(i).transpose() - x).squaredNorm() <= r2) expected.push_back(i);
    }
    // One descent: the same minimum, and the same set once filtered by it.
    std::vector<int> both;
    ASSERT_EQ(tree.NearestAndWithin(x, r2 - nearest, &both), nearest);
    both.erase(std::remove_if(both.begin(), both.end(),
                              [&](int i) { return (points.row(i).transpose() - x).squaredNorm() > r2; }),
               both.end());
    std::sort(both.begin(), both.end());
    ASSERT_EQ(both, expected) << "query " << q;
  }
  std::vector<int> none;
  EXPECT_EQ(PointTree(PointTree::Points(0, 3)).NearestAndWithin(Vec3::Zero(), 1.0, &none), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(none.empty());
}

}  // namespace
}  // namespace arena::scm
