// sdrs's design derivatives (seed 003 Sec. V): d(q+, v+)/dp for the body-frame positions of the
// moving hulls' vertices, by the implicit function theorem, against Ridders' differences of the
// step with the vertices moved: every column on a box resting on the ground (contact, friction,
// lumped inertia) and spinning in free flight (inertia alone), random directions on swinging
// chains; and the parameters' names, values and errors.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/common/error.h"
#include "core/common/random.h"
#include "core/multibody/kinematics.h"
#include "models/finite_difference_derivatives.h"
#include "models/registry.h"
#include "models/sdrs/sdrs_simulator.h"
#include "tests/models/sdrs/sdrs_test_util.h"
#include "scenes/rotating_chains_scenes.h"
#include "solvers/finite_difference.h"

namespace arena {
namespace sdrs_design_test {

constexpr double kHalf = 0.2;

// A 1 kg cube `gap` above the ground, sliding and spinning.
std::shared_ptr<const Scene> Cube(double gap) { return sdrs::testing::CubeAboveGround(gap, kHalf); }

FdOptions Ridders() {
  FdOptions o;
  o.method = FdMethod::kRidders;
  o.ridders_step = 1e-4;
  return o;
}

struct Case {
  std::string what;
  double gap;     // m above the ground
  bool contact;   // the step must report contact
};

class SdrsDesignColumns : public ::testing::TestWithParam<Case> {};

TEST_P(SdrsDesignColumns, MatchRiddersDifferences) {
  const Case& c = GetParam();
  const auto scene = Cube(c.gap);
  auto sim = MakeSimulator("sdrs", scene, {{"timestep", "0.01"}, {"design_derivatives", "true"}});
  ASSERT_TRUE(sim->capabilities().design_derivatives);
  ASSERT_EQ(sim->DesignParameterNames().size(), 24u);  // the cube's 8 vertices; the ground is static
  State s = DefaultState(*scene);
  s.v << 0.7, -0.4, 1.1, 0.3, 0.2, -0.1;  // free joint: (omega, v) in the body frame
  State probe = s;
  const StepReport r = sim->Step(probe, {});
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.contacts > 0, c.contact) << c.what;
  StepDerivatives analytic;
  sim->Derivatives(s, {}, &analytic);
  const StepDerivatives reference = FiniteDifferenceStepDerivatives(*sim, s, {}, Ridders());
  // In free flight only the lumped inertia depends on the vertices: a smaller, nonzero effect.
  EXPECT_GT(analytic.dq_dp.norm(), c.contact ? 1e-2 : 1e-5) << c.what << ": the shape moves the step";
  EXPECT_LT(CorrectedRelativeError(analytic.dq_dp, reference.dq_dp), 1e-6) << c.what;
  EXPECT_LT(CorrectedRelativeError(analytic.dv_dp, reference.dv_dp), 1e-6) << c.what;
}

INSTANTIATE_TEST_SUITE_P(Cube, SdrsDesignColumns,
                         ::testing::Values(Case{"resting on the ground", 0.01, true},
                                           Case{"in free flight", 1.0, false}),
                         [](const auto& info) { return info.param.contact ? "Contact" : "FreeFlight"; });

// Four 2-link chains: one design direction at a time, as for a model with thousands of design
// parameters. The design moves the links' hull vertices and, through them, the second links'
// joints (design_attachments, on by default), at the step's end, start and the step before.
State ChainsNearContact(Simulator& sim, const Scene& scene, Control* u) {
  State s = DefaultState(scene);
  for (int k = 0; k < 300; ++k) {  // to the first step with a pair within the barrier's reach
    *u = Control{RotatingChainsTargets(s.t + 0.033)};
    State next = s;
    const StepReport r = sim.Step(next, *u);
    if (!r.ok()) ADD_FAILURE() << r.message;
    if (!r.ok() || r.contacts > 0) return s;
    s = next;
  }
  ADD_FAILURE() << "the chains never came within the barrier's reach";
  return s;
}

struct ChainCase {
  std::string what;
  bool contact;
  bool attachments;
};

class SdrsChainDesign : public ::testing::TestWithParam<ChainCase> {};

TEST_P(SdrsChainDesign, DirectionsMatchRiddersDifferences) {
  const ChainCase& c = GetParam();
  const auto scene = RotatingChainsScene({.links = 2, .cap_points = 4});
  auto sim = MakeSimulator("sdrs", scene,
                           {{"timestep", "0.033"}, {"design_derivatives", "true"},
                            {"design_attachments", c.attachments ? "true" : "false"}});
  Control u;
  State s = DefaultState(*scene);
  if (c.contact) {
    s = ChainsNearContact(*sim, *scene, &u);
  } else {
    s.v.setConstant(0.3);  // swinging, every pair beyond the barrier's reach
  }
  State probe = s;
  const StepReport r = sim->Step(probe, u);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.contacts > 0, c.contact) << c.what;
  StepDerivatives analytic;
  sim->Derivatives(s, u, &analytic);
  const int np = static_cast<int>(sim->DesignParameters().size());
  ASSERT_EQ(analytic.dq_dp.cols(), np);
  Rng rng(7);
  for (int d = 0; d < 3; ++d) {
    VecX w(np);
    for (int i = 0; i < np; ++i) w[i] = Uniform(rng, -1.0, 1.0);
    w /= w.norm();
    const VecX reference = FiniteDifferenceDesignDirection(*sim, s, u, w, Ridders());
    VecX ours(reference.size());
    ours << analytic.dq_dp * w, analytic.dv_dp * w;
    EXPECT_GT(ours.norm(), 1e-6) << c.what << ": the shape moves the step";
    EXPECT_LT(CorrectedRelativeError(ours, reference), 1e-6) << c.what << ", direction " << d;
  }
}

INSTANTIATE_TEST_SUITE_P(
    RotatingChains, SdrsChainDesign,
    ::testing::Values(ChainCase{"near contact, joints following", true, true},
                      ChainCase{"in free flight, joints following", false, true},
                      ChainCase{"near contact, joints fixed", true, false}),
    [](const auto& info) {
      return std::string(info.param.contact ? "Contact" : "FreeFlight") + (info.param.attachments ? "Attached" : "Fixed");
    });

// Translating a parent's hull translates its child's joint by as much (the convex weights sum to
// one), and the child moves as BodyPointDesignJacobian says.
TEST(SdrsDesign, AttachmentsFollowTheParentHull) {
  const auto scene = RotatingChainsScene({.links = 2, .cap_points = 4});
  SdrsModelOptions o;
  o.design_derivatives = true;
  SdrsSimulator sim(scene, o);
  int child = -1;  // the first body whose parent carries a hull
  for (int b = 0; b < scene->model.num_bodies() && child < 0; ++b) {
    for (const Collider& c : scene->colliders) {
      if (c.body != kWorldBody && c.body == scene->model.body(b).parent) child = b;
    }
  }
  ASSERT_GE(child, 0);
  const int parent = scene->model.body(child).parent;
  const Vec3 before = scene->model.body(child).joint.placement.translation();
  const std::vector<std::string> names = sim.DesignParameterNames();
  const VecX p0 = sim.DesignParameters();
  VecX p = p0;
  const Vec3 shift(0.05, -0.02, 0.03);
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string collider = names[i].substr(7, names[i].find(':', 7) - 7);  // "vertex:<collider>:..."
    for (const Collider& c : scene->colliders) {
      if (c.name == collider && c.body == parent) p[static_cast<int>(i)] += shift[static_cast<int>(i % 3)];
    }
  }
  ASSERT_NE(p, p0) << "the parent carries no design vertices";
  const VecX q = DefaultState(*scene).q;
  const MatX J = sim.BodyPointDesignJacobian(q, child);
  MultibodyData data(scene->model);
  ForwardKinematics(scene->model, data, q);
  const Vec3 x0 = data.X_WB[child].translation();
  sim.SetDesignParameters(p);
  EXPECT_LT((sim.scene().model.body(child).joint.placement.translation() - (before + shift)).norm(), 1e-12);
  EXPECT_EQ(scene->model.body(child).joint.placement.translation(), before) << "the caller's scene is not touched";
  ForwardKinematics(sim.scene().model, data, q);
  EXPECT_GT((data.X_WB[child].translation() - x0).norm(), 1e-2);
  EXPECT_LT((data.X_WB[child].translation() - x0 - J * (p - p0)).norm(), 1e-12);
}

TEST(SdrsDesign, ParametersAreTheMovingHullsVertices) {
  const auto scene = Cube(0.01);
  auto plain = MakeSimulator("sdrs", scene, {});
  EXPECT_FALSE(plain->capabilities().design_derivatives);
  EXPECT_TRUE(plain->DesignParameterNames().empty());
  EXPECT_THROW(plain->SetDesignParameters(VecX::Zero(3)), Unsupported);

  auto sim = MakeSimulator("sdrs", scene, {{"design_derivatives", "true"}});
  const std::vector<std::string> names = sim->DesignParameterNames();
  EXPECT_EQ(names.front(), "vertex:cube:0:x");
  VecX p = sim->DesignParameters();
  EXPECT_DOUBLE_EQ(p[0], -kHalf);
  EXPECT_THROW(sim->SetDesignParameters(VecX::Zero(5)), InvalidArgument);
  p[4] = std::numeric_limits<double>::quiet_NaN();
  try {
    sim->SetDesignParameters(p);
    FAIL() << "a NaN design parameter was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("vertex:cube:1:y"), std::string::npos) << e.what();
  }
  // A larger cube rests higher: the new vertices are simulated.
  p = 1.5 * sim->DesignParameters();
  sim->SetDesignParameters(p);
  EXPECT_EQ(sim->DesignParameters(), p);
}

}  // namespace sdrs_design_test
}  // namespace arena
