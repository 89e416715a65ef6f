// The sdrs model as a Simulator: options checked with clear errors, the step bound against a
// fast thin plate, and momentum conserved in a head-on collision of two boxes without gravity
// (the potential depends on relative positions only).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/common/error.h"
#include "core/geometry/gjk.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"
#include "core/scene/scene_builder.h"
#include "models/registry.h"
#include "models/sdrs/sdrs_simulator.h"
#include "scenes/rotating_chains_scenes.h"

namespace arena {
namespace sdrs_simulator_test {

// Two unrotated boxes on the x axis, `gap` apart: a central collision, so they do not turn and
// their body-frame velocities are world velocities.
std::shared_ptr<const Scene> TwoBoxes(double gap) {
  SceneBuilder b("two_boxes");
  b.SetGravity(Vec3::Zero());
  const Vec3 half(0.1, 0.1, 0.1);
  const int left = b.AddFreeBody("left", SpatialInertia::SolidBox(1.0, half), SE3::FromTranslation(Vec3(-0.1 - gap / 2, 0, 0)));
  b.AddCollider(left, Box{half}, SE3(), "left").friction = 0.0;
  const int right = b.AddFreeBody("right", SpatialInertia::SolidBox(2.0, half), SE3::FromTranslation(Vec3(0.1 + gap / 2, 0, 0)));
  b.AddCollider(right, Box{half}, SE3(), "right").friction = 0.0;
  return b.Build();
}

TEST(SdrsSimulator, HeadOnCollisionConservesMomentum) {
  const auto scene = TwoBoxes(0.3);
  auto sim = MakeSimulator("sdrs", scene, {{"timestep", "0.01"}});
  State s = DefaultState(*scene);
  s.v.setZero();
  s.v[3] = 1.0;   // left box: free joint (omega, v), v_x
  s.v[9] = -0.25;  // right box: total momentum 0.5 along x
  auto momentum = [](const State& st) { return Vec3(st.v.segment<3>(3) + 2.0 * st.v.segment<3>(9)); };
  const Vec3 p0 = momentum(s);
  bool touched = false;
  for (int k = 0; k < 60; ++k) {
    const StepReport r = sim->Step(s, {});
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << r.message;
    touched = touched || r.contacts > 0;
  }
  EXPECT_TRUE(touched);
  EXPECT_LT(s.v[3], 0.5);  // the left box was pushed back
  // To the Newton tolerance: the contact forces are equal and opposite at every iterate.
  EXPECT_LT((momentum(s) - p0).norm(), 1e-6 * p0.norm());
}

TEST(SdrsSimulator, AFastPlateDoesNotPassThroughAThinOne) {
  SceneBuilder b("plate_over_plate");
  b.SetGravity(Vec3::Zero());
  const Vec3 half(0.2, 0.2, 0.01);
  b.AddCollider(kWorldBody, Box{half}, SE3(), "fixed");
  const int plate = b.AddFreeBody("plate", SpatialInertia::SolidBox(1.0, half), SE3::FromTranslation(Vec3(0.0, 0.0, 0.2)));
  b.AddCollider(plate, Box{half}, SE3(), "plate").friction = 0.0;
  const auto scene = b.Build();
  auto sim = MakeSimulator("sdrs", scene, {{"timestep", "0.04"}});
  State s = DefaultState(*scene);
  s.v.setZero();
  s.v[5] = -10.0;
  for (int k = 0; k < 3; ++k) {
    const StepReport r = sim->Step(s, {});
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_GT(s.q[2], 0.02) << "step " << k;
  }
}

// Four swinging chains whose links two apart start 2 cm from touching: the step bound lets the
// planes of such pairs ride on the upper link (only their relative motion bounded), and no pair
// the scene lets touch ever comes closer than the hulls' barrier allows (exact GJK distance
// between the hulls after every step).
TEST(SdrsSimulator, SwingingChainsNeverTouch) {
  const auto scene = RotatingChainsScene({.links = 4, .cap_points = 8});
  auto sim = MakeSimulator("sdrs", scene, {{"timestep", "0.033"}});
  State s = DefaultState(*scene);
  MultibodyData data(scene->model);
  double closest = INFINITY;
  for (int k = 0; k < 15; ++k) {
    const StepReport r = sim->Step(s, Control{RotatingChainsTargets(s.t + 0.033)});
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << r.message;
    ForwardKinematics(scene->model, data, s.q);
    for (const auto& [a, b] : scene->CollisionPairs()) {
      const Collider &ca = scene->colliders[a], &cb = scene->colliders[b];
      auto pose = [&](const Collider& c) { return c.body == kWorldBody ? c.placement : data.X_WB[c.body] * c.placement; };
      closest = std::min(closest, GjkDistance(ca.shape, pose(ca), cb.shape, pose(cb)).distance);
    }
  }
  EXPECT_GT(closest, 0.0);
  std::printf("[SdrsSimulator] swinging chains: closest allowed pair %.4f m over 15 steps\n", closest);
}

TEST(SdrsSimulator, BadOptionsAreClearErrors) {
  const auto scene = TwoBoxes(0.3);
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"kappa", "0"}, {"x0", "1.5"}, {"d0", "-1"}, {"norm_weight", "0"}}) {
    try {
      MakeSimulator("sdrs", scene, {{key, value}});
      ADD_FAILURE() << key << "=" << value << " was accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  }
}

}  // namespace sdrs_simulator_test
}  // namespace arena
