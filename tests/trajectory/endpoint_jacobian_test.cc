// DifferentiateEndpoint: the Jacobian of world end coordinates with respect to world start
// coordinates through the backward pass, against central differences of the model's own
// rollout. Penalty (smooth, analytical derivatives) on an oblique collision with friction and
// spin, so the bodies end rotated (the output's rotation terms matter) and the contact changes
// the motion; and the refusals.
#include "trajectory/endpoint_jacobian.h"

#include <gtest/gtest.h>

#include "core/common/error.h"
#include "core/scene/scene_builder.h"
#include "models/registry.h"

namespace arena {
namespace endpoint_jacobian_test {

using Kind = BodyCoordinate::Kind;

// Two frictional balls in the plane z = 0, no gravity; ball 1 spins about z and hits ball 2
// off-centre, so friction at the contact turns both.
std::shared_ptr<const Scene> SpinningCollision(double friction = 0.5) {
  SceneBuilder b("spinning_collision");
  b.SetGravity(Vec3::Zero());
  for (int k = 0; k < 2; ++k) {
    const int body = b.AddFreeBody("ball_" + std::to_string(k + 1), SpatialInertia::SolidSphere(1.0, 0.1),
                                   SE3::FromTranslation(Vec3(0.3 * k, 0.06 * k, 0.0)));
    b.AddCollider(body, Sphere{0.1}).friction = friction;
  }
  return b.Build();
}

State Start(const Scene& scene, double spin) {
  State s = DefaultState(scene);
  s.v.segment<3>(scene.model.body(0).idx_v) = Vec3(0.0, 0.0, spin);     // spin about z
  s.v.segment<3>(scene.model.body(0).idx_v + 3) = Vec3(1.0, 0.1, 0.0);  // towards ball 2
  return s;
}

// Moves a start coordinate of an unrotated body by h.
State Nudged(const Scene& scene, State s, const BodyCoordinate& c, double h) {
  const BodyModel& b = scene.model.body(c.body);
  if (c.kind == Kind::kPosition) s.q[b.idx_q + c.axis] += h;
  else s.v[b.idx_v + 3 + c.axis] += h;
  return s;
}

class EndpointJacobianCase : public ::testing::TestWithParam<std::pair<double, double>> {};

TEST_P(EndpointJacobianCase, MatchesCentralDifferencesOfTheRollout) {
  const auto [friction, spin] = GetParam();
  const auto scene = SpinningCollision(friction);
  const auto sim = MakeSimulator("penalty", scene, {{"timestep", "0.002"}, {"stiffness", "1e4"}});
  const State start = Start(*scene, spin);
  const int steps = 150;
  std::vector<BodyCoordinate> coordinates;
  for (int body = 0; body < 2; ++body) {
    for (Kind kind : {Kind::kPosition, Kind::kVelocity}) {
      for (int axis = 0; axis < 2; ++axis) coordinates.push_back({body, kind, axis});
    }
  }
  const EndpointJacobian ej = DifferentiateEndpoint(*sim, start, steps, coordinates, coordinates);
  ASSERT_TRUE(ej.ok()) << ej.rollout.failure;
  ASSERT_GT(ej.rollout.contact_steps(), 0);
  const VecX& q_end = ej.rollout.states.back().q;
  if (spin != 0.0) {
    ASSERT_LT(std::abs(q_end[3]), 0.99) << "ball 1 should end rotated";  // quaternion w
  }
  for (size_t j = 0; j < coordinates.size(); ++j) {
    // Friction regularised over 0.01 m/s with 2 m/s of slip makes the frictional spinning case
    // stiff: its differences reach the backward pass only as h shrinks (h = 1e-6: 1 % off,
    // 1e-7: 1e-4, 1e-8: within 1e-5).
    const double h = 1e-8;
    Rollout plus, minus;
    RunRollout(*sim, Nudged(*scene, start, coordinates[j], h), VecX(), steps, &plus);
    RunRollout(*sim, Nudged(*scene, start, coordinates[j], -h), VecX(), steps, &minus);
    for (size_t i = 0; i < coordinates.size(); ++i) {
      const double fd = (WorldCoordinate(*scene, plus.states.back(), coordinates[i]) -
                         WorldCoordinate(*scene, minus.states.back(), coordinates[i])) / (2 * h);
      EXPECT_NEAR(ej.jacobian(i, j), fd, 1e-5 * std::max(1.0, std::abs(fd))) << "output " << i << ", input " << j;
    }
    EXPECT_NEAR(ej.value[static_cast<Eigen::Index>(j)],
                WorldCoordinate(*scene, ej.rollout.states.back(), coordinates[j]), 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(FrictionAndSpin, EndpointJacobianCase,
                         ::testing::Values(std::make_pair(0.0, 0.0), std::make_pair(0.5, 0.0), std::make_pair(0.0, 20.0),
                                           std::make_pair(0.5, 20.0)));

TEST(EndpointJacobian, RefusesBodiesItCannotReadInWorldCoordinates) {
  const auto scene = SpinningCollision();
  const auto sim = MakeSimulator("penalty", scene, {{"timestep", "0.01"}});
  State rotated = DefaultState(*scene);
  rotated.q.segment<4>(3) = Vec4(0.0, 0.0, 0.0, 1.0);  // ball 1 half a turn about z
  EXPECT_THROW(DifferentiateEndpoint(*sim, rotated, 1, {{1, Kind::kPosition, 0}}, {{0, Kind::kPosition, 0}}),
               InvalidArgument);
  EXPECT_THROW(DifferentiateEndpoint(*sim, DefaultState(*scene), 1, {{2, Kind::kPosition, 0}}, {}), InvalidArgument);
}

}  // namespace endpoint_jacobian_test
}  // namespace arena
