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

// Four 2-link chains, driven round their circles until their links and the floor are near: one
// design direction at a time, as for a model with thousands of design parameters.
TEST(SdrsDesign, ChainDirectionsMatchRiddersDifferences) {
  const auto scene = RotatingChainsScene({.links = 2, .cap_points = 4});
  auto sim = MakeSimulator("sdrs", scene, {{"timestep", "0.033"}, {"design_derivatives", "true"}});
  State s = DefaultState(*scene);
  Control u;
  StepReport r;
  for (int k = 0; k < 300; ++k) {  // to the first step with a pair within the barrier's reach
    u = Control{RotatingChainsTargets(s.t + 0.033)};
    State next = s;
    r = sim->Step(next, u);
    ASSERT_TRUE(r.ok()) << r.message;
    if (r.contacts > 0) break;
    s = next;
  }
  ASSERT_GT(r.contacts, 0) << "the chains never came within the barrier's reach";
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
    EXPECT_LT(CorrectedRelativeError(ours, reference), 1e-6) << "direction " << d;
  }
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
