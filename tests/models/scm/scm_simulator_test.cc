// The `scm` simulator: a box rests where the pair's one spring carries its weight, RK4 and the
// C2 damping shape have derivatives that match Ridders differences of their own step (the
// conformance suite checks the default, Euler), and bad scenes and options are clear errors.
#include "models/scm/scm_simulator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "core/common/error.h"
#include "core/scene/scene_builder.h"
#include "models/finite_difference_derivatives.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace scm_simulator_test {

constexpr double kHalf = 0.2;

std::shared_ptr<const Scene> BoxOnGround(double z) {
  SceneBuilder b("scm_box");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(1.0, Vec3::Constant(kHalf)), SE3::FromTranslation(Vec3(0, 0, z)));
  b.AddCollider(box, Box{Vec3::Constant(kHalf)}).friction = 0.5;
  b.AddGround(0.5);
  return b.Build();
}

TEST(Scm, BoxRestsWhereOneSpringCarriesItsWeight) {
  auto sim = MakeSimulator("scm", BoxOnGround(kHalf), {});
  State s = DefaultState(sim->scene());
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(sim->Step(s, {}).ok());
  // k s+(-phi) = m g: s+(x) = eps log(1 + e^(x / eps)) = 9.81e-4 m at k = 1e4, eps = 1e-3.
  const double depth = 1e-3 * std::log(std::exp(9.81e-4 / 1e-3) - 1.0);
  EXPECT_NEAR(s.q[2], kHalf - depth, 2e-6);
  EXPECT_LT(s.v.norm(), 1e-4);
}

// A capsule lying on the ground and a cylinder standing on its disc come to rest where the
// spring carries them (within the softplus's width of touching), as the box does.
TEST(Scm, CapsuleAndCylinderRestOnTheGround) {
  const double r = 0.05, h = 0.1;
  for (const Shape& shape : {Shape(Capsule{r, h}), Shape(Cylinder{r, h})}) {
    SCOPED_TRACE(std::string(ToString(TypeOf(shape))));
    const bool capsule = std::holds_alternative<Capsule>(shape);
    // The capsule's axis (z in its frame) along x; the cylinder upright.
    const SE3 pose(capsule ? Mat3(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitY())) : Mat3::Identity(),
                   Vec3(0.0, 0.0, capsule ? r : h));
    SceneBuilder b("scm_round");
    b.SetGravity(Vec3(0.0, 0.0, -9.81));
    const int body = b.AddFreeBody("body", SpatialInertia::SolidCylinder(1.0, r, h), pose);
    b.AddCollider(body, shape).friction = 0.5;
    b.AddGround(0.5);
    auto sim = MakeSimulator("scm", b.Build(), {{"patch_size", "0.02"}});
    State s = DefaultState(sim->scene());
    for (int i = 0; i < 1000; ++i) ASSERT_TRUE(sim->Step(s, {}).ok());
    EXPECT_NEAR(s.q[2], capsule ? r : h, 2e-3);
    EXPECT_LT(s.v.norm(), 1e-3);
  }
}

// Two threads over the points give the very numbers of one: the step and its derivatives, on the
// T-push T (4224 patches) with the finger pressed into its foot.
TEST(Scm, ThreadsDoNotChangeTheResult) {
  auto scene = MakeScene("tpush");
  State s = DefaultState(*scene);
  s.q[4] = -0.1375 - 0.01 + 5e-4;
  std::vector<State> next;
  std::vector<StepDerivatives> d(2);
  for (const char* threads : {"1", "2"}) {
    auto sim = MakeSimulator("scm", scene, {{"patch_size", "0.0048"}, {"threads", threads}, {"stiffness", "1e3"}});
    State t = s;
    ASSERT_TRUE(sim->Step(t, {}).ok());
    next.push_back(t);
    sim->Derivatives(s, {}, &d[next.size() - 1]);
  }
  EXPECT_EQ(next[0].q, next[1].q);
  EXPECT_EQ(next[0].v, next[1].v);
  EXPECT_GT(next[0].v.norm(), 0.0);
  EXPECT_EQ(d[0].dv_dq, d[1].dv_dq);
  EXPECT_EQ(d[0].dv_dv, d[1].dv_dv);
}

// The box tilted onto one corner 1 mm deep, sliding and turning (as the conformance suite's).
State CornerState(const Scene& scene) {
  State s = DefaultState(scene);
  const Quat R = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitX())) * Quat(Eigen::AngleAxisd(0.2, Vec3::UnitY()));
  double lowest = 0.0;
  for (int i = 0; i < 8; ++i) {
    lowest = std::min(lowest, (R * Vec3(i & 1 ? kHalf : -kHalf, i & 2 ? kHalf : -kHalf, i & 4 ? kHalf : -kHalf)).z());
  }
  s.q.head<3>() = Vec3(0.0, 0.0, -lowest - 1e-3);
  s.q.segment<4>(3) << R.w(), R.x(), R.y(), R.z();
  s.v << 0.3, 0.0, -0.2, 0.5, -0.3, 0.2;
  return s;
}

void ExpectDerivativesMatch(const OptionMap& options) {
  auto sim = MakeSimulator("scm", BoxOnGround(1.0), options);
  FdOptions ridders;
  ridders.method = FdMethod::kRidders;
  ridders.ridders_step = 1e-5;  // well inside the softplus width (1 mm), as the conformance suite
  State flight = DefaultState(sim->scene());
  flight.v << 0.2, -0.1, 0.3, 0.4, 0.1, -0.2;
  for (const State& s : {CornerState(sim->scene()), flight}) {
    StepDerivatives analytic;
    sim->Derivatives(s, {}, &analytic);
    const StepDerivatives reference = FiniteDifferenceStepDerivatives(*sim, s, {}, ridders);
    EXPECT_LE(MaxStepDerivativeError(analytic, reference), 1e-6);
  }
}

TEST(Scm, Rk4DerivativesMatchDifferences) { ExpectDerivativesMatch({{"integrator", "rk4"}}); }

TEST(Scm, C2DampingDerivativesMatchDifferences) {
  ExpectDerivativesMatch({{"damping_shape", "c2"}, {"timestep", "0.005"}});
}

TEST(Scm, UnsupportedShapesAndBadOptionsAreClearErrors) {
  SceneBuilder b("ellipsoid");
  const int body = b.AddFreeBody("egg", SpatialInertia::SolidBox(1.0, Vec3::Constant(0.1)), SE3());
  b.AddCollider(body, Ellipsoid{Vec3(0.05, 0.1, 0.2)});
  b.AddGround();
  try {
    MakeSimulator("scm", b.Build(), {});
    FAIL() << "scm has no ellipsoid";
  } catch (const Unsupported& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("ellipsoid"));
  }
  EXPECT_THROW(MakeSimulator("scm", BoxOnGround(1.0), {{"integrator", "rk5"}}), InvalidArgument);
  EXPECT_THROW(MakeSimulator("scm", BoxOnGround(1.0), {{"patch_size", "-1"}}), InvalidArgument);
}

}  // namespace scm_simulator_test
}  // namespace arena
