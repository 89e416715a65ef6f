// The four rotating chains of chain_cost (seed 003 Fig. 9): 8N + 13 DOF, consecutive links
// excluded from contact and every allowed pair clear at the start, the driven roots on their
// circles, and the PD targets' velocity lead.
#include "scenes/rotating_chains_scenes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "core/common/error.h"
#include "core/geometry/gjk.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"

namespace arena {
namespace rotating_chains_scenes_test {

TEST(RotatingChains, DofActuatorsAndExclusions) {
  for (int n : {1, 3, 20}) {
    const auto scene = RotatingChainsScene({.links = n});
    EXPECT_EQ(scene->nv(), RotatingChainsDof(n)) << n;
    EXPECT_EQ(scene->colliders.size(), static_cast<size_t>(4 * n + 1)) << n;  // links and the floor
    EXPECT_EQ(scene->actuators.size(), 9u);
  }
  const auto scene = RotatingChainsScene({.links = 3});
  const int l0 = scene->model.FindBody("chain1_link0"), l1 = scene->model.FindBody("chain1_link1"),
            l2 = scene->model.FindBody("chain1_link2");
  ASSERT_GE(l0, 0);
  auto collider_of = [&](int body) {
    for (size_t i = 0; i < scene->colliders.size(); ++i) {
      if (scene->colliders[i].body == body) return static_cast<int>(i);
    }
    return -1;
  };
  EXPECT_FALSE(scene->CanCollide(collider_of(l0), collider_of(l1)));
  EXPECT_FALSE(scene->CanCollide(collider_of(l1), collider_of(l2)));
  EXPECT_TRUE(scene->CanCollide(collider_of(l0), collider_of(l2)));
}

// At the start every pair that may touch is apart: links two apart by L - 2r = 2 cm, chains by
// their 1 m height steps, the floor 6 m below; the driven roots sit at (R, 0, height).
TEST(RotatingChains, StartsClearWithTheRootsOnTheirCircles) {
  const auto scene = RotatingChainsScene({.links = 4});
  MultibodyData data(scene->model);
  ForwardKinematics(scene->model, data, DefaultState(*scene).q);
  double closest = INFINITY;
  for (const auto& [a, b] : scene->CollisionPairs()) {
    const Collider &ca = scene->colliders[a], &cb = scene->colliders[b];
    auto pose = [&](const Collider& c) { return c.body == kWorldBody ? c.placement : data.X_WB[c.body] * c.placement; };
    closest = std::min(closest, GjkDistance(ca.shape, pose(ca), cb.shape, pose(cb)).distance);
  }
  EXPECT_GT(closest, 0.0199);
  EXPECT_LT(closest, 0.0201);
  const double radii[3] = {4.5, 3.0, 1.5};
  for (int c = 0; c < 4; ++c) {
    const int root = scene->model.FindBody("chain" + std::to_string(c) + "_link0");
    const Vec3 p = data.X_WB[root].translation();
    EXPECT_NEAR(p.x(), c < 3 ? radii[c] : 0.0, 1e-12);
    EXPECT_NEAR(p.z(), c, 1e-12);
  }
}

TEST(RotatingChains, TargetsLeadTheCircleByTheirVelocity) {
  const VecX u0 = RotatingChainsTargets(0.0);
  ASSERT_EQ(u0.size(), 9);
  EXPECT_DOUBLE_EQ(u0(0), 4.5);
  EXPECT_DOUBLE_EQ(u0(1), 4.5 * 0.01 * 2.0);  // (kd / kp) R w
  EXPECT_DOUBLE_EQ(u0(2), 0.0);
  EXPECT_DOUBLE_EQ(u0(6), 1.5);
  EXPECT_THROW(RotatingChainsScene({.links = 0}), InvalidArgument);
  EXPECT_THROW(RotatingChainsScene({.cap_points = 3}), InvalidArgument);
}

}  // namespace rotating_chains_scenes_test
}  // namespace arena
