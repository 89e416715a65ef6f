// nimble's analytical Jacobians (Nimble Sec. IV-V), link-mass derivatives included, against
// Ridders' differences of its own step,
// in each kind of contact state the LCP can be in: clamping (a box resting on four corners,
// Atlas on both soles), sliding (friction rows at their bound), separating (contacts present
// but leaving), free flight, and on every benchmark robot from random states. A state counts
// only when no Ridders step changed the contact set or the LCP's active set (contact_mode):
// across such a change differences are not derivatives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "core/common/error.h"
#include "core/common/random.h"
#include "core/multibody/configuration.h"
#include "models/counting_simulator.h"
#include "core/geometry/mesh.h"
#include "models/finite_difference_derivatives.h"
#include "models/nimble/nimble.h"
#include "scenes/scene_registry.h"
#include "solvers/finite_difference.h"
#include "tests/models/nimble/nimble_test_scenes.h"

namespace arena {
namespace nimble_derivatives_test {

using nimble_test::BoxOnGround;
using nimble_test::MakeNimble;

struct Check {
  double error = 0.0;        // largest corrected relative error over the six state blocks
  // ... over dq+/dm, dv+/dm (link masses). Where v+ does not depend on the mass (a resting or
  // sliding box: impulses scale with the weight) the block is 0 and Ridders' round-off,
  // ~1e-11, over the error's 1e-6 floor sets the reading: it is held to 1e-5.
  double mass_error = 0.0;
  bool smooth = true;        // no Ridders step changed the contacts or the mode
  int clamping = 0, sliding = 0, separating = 0;
};

Check CheckAgainstRidders(Simulator& sim, const State& s, const Control& u = {}) {
  Check c;
  State probe = s;
  const StepReport nominal = sim.Step(probe, u);
  EXPECT_TRUE(nominal.ok()) << nominal.message;
  const LcpActiveSet& set = static_cast<NimbleSimulator&>(sim).last_lcp_solution().active_set;
  c.clamping = static_cast<int>(set.Indices(LcpRowClass::kClamping).size());
  c.sliding = static_cast<int>(set.Indices(LcpRowClass::kUpperBound).size());
  c.separating = static_cast<int>(set.Indices(LcpRowClass::kSeparating).size());
  StepDerivatives analytic;
  sim.Derivatives(s, u, &analytic);
  CountingSimulator counting(sim);
  counting.Reset(nominal.contacts, nominal.contact_mode);
  FdOptions ridders;
  ridders.method = FdMethod::kRidders;
  ridders.ridders_step = 1e-5;
  StepDerivatives reference = FiniteDifferenceStepDerivatives(counting, s, u, ridders);
  c.smooth = counting.contact_changes() == 0;
  c.mass_error = std::max(CorrectedRelativeError(analytic.dq_dp, reference.dq_dp),
                          CorrectedRelativeError(analytic.dv_dp, reference.dv_dp));
  if (c.smooth) {
    EXPECT_LT(c.mass_error, 1e-5);
  }
  for (StepDerivatives* d : {&analytic, &reference}) {
    d->dq_dp.resize(0, 0);
    d->dv_dp.resize(0, 0);
  }
  c.error = MaxStepDerivativeError(analytic, reference);
  return c;
}

// Resting on four corners with static friction. Dantzig returns a basic solution that loads
// two diagonal corners; their 6 rows clamp (no row slides, so v+ and its derivative are unique
// whatever the solver's choice among the redundant contacts). Here without the wider
// stabilization, which loads all four corners (12 clamping rows, Q of rank 6): dv+/dq is then
// still 0 (analytic: 1e-17), but Ridders' differences through the rank-6 decomposition carry
// ~7e-12 of round-off, which over the error's 1e-6 floor reads 6.7e-6 (as the mass blocks'
// round-off does below). The next test pins what the wider set does change.
TEST(NimbleDerivatives, RestingBoxMatchesRidders) {
  auto scene = BoxOnGround(0.5);
  auto sim = MakeNimble(scene, {{"stabilize_degenerate", "false"}});
  const Check c = CheckAgainstRidders(*sim, DefaultState(*scene));
  EXPECT_TRUE(c.smooth);
  EXPECT_GE(c.clamping, 6);
  EXPECT_EQ(c.sliding, 0);
  EXPECT_LT(c.error, 1e-7);
}

// The wider stabilization spreads the weight over the four corners (each carries an impulse)
// and leaves the velocity as it was: with no row sliding, v+ is unique.
TEST(NimbleDerivatives, RestingBoxWiderStabilizationMovesImpulsesNotVelocities) {
  auto scene = BoxOnGround(0.5);
  State vertex = DefaultState(*scene), central = vertex;
  auto plain = MakeNimble(scene, {{"stabilize_degenerate", "false"}});
  auto wide = MakeNimble(scene);
  ASSERT_TRUE(plain->Step(vertex, {}).ok());
  ASSERT_TRUE(wide->Step(central, {}).ok());
  const ContactLcpSolution& spread = static_cast<NimbleSimulator&>(*wide).last_lcp_solution();
  const ContactLcpSolution& basic = static_cast<NimbleSimulator&>(*plain).last_lcp_solution();
  ASSERT_EQ(spread.x.size(), 12);
  int loaded_spread = 0, loaded_basic = 0;
  for (int contact = 0; contact < 4; ++contact) {
    loaded_spread += spread.x[3 * contact] > 1e-6;
    loaded_basic += basic.x[3 * contact] > 1e-6;
  }
  EXPECT_EQ(loaded_spread, 4);
  EXPECT_LT(loaded_basic, 4);
  EXPECT_LT((central.v - vertex.v).lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_LT((central.q.array() - vertex.q.array()).abs().maxCoeff(), 1e-12);
}

// Sliding at 1 m/s with mu = 0.3: the friction rows sit at their bound (upper-bound class).
// Also with positions moved by v+ (parallel_position_update off: dq+ chains through dv+).
TEST(NimbleDerivatives, SlidingBoxMatchesRidders) {
  auto scene = BoxOnGround(0.3);
  for (const char* parallel : {"true", "false"}) {
    auto sim = MakeNimble(scene, {{"parallel_position_update", parallel}});
    State s = DefaultState(*scene);
    s.v[3] = 1.0;  // world x (the free joint's linear velocity)
    const Check c = CheckAgainstRidders(*sim, s);
    EXPECT_TRUE(c.smooth) << parallel;
    EXPECT_GT(c.sliding, 0) << parallel;
    EXPECT_LT(c.error, 1e-6) << parallel;
  }
}

// Touching but leaving at 0.5 m/s: every row separates, so v+ is the free update.
TEST(NimbleDerivatives, SeparatingBoxMatchesRidders) {
  auto scene = BoxOnGround(0.5);
  auto sim = MakeNimble(scene);
  State s = DefaultState(*scene);
  s.v[4] = 0.5;
  const Check c = CheckAgainstRidders(*sim, s);
  EXPECT_TRUE(c.smooth);
  EXPECT_EQ(c.clamping + c.sliding, 0);
  EXPECT_EQ(c.separating, 12);
  EXPECT_LT(c.error, 1e-7);
}

// A mesh box resting 0.1 mm into a fixed mesh slab, tilted by 2e-4 rad so that its corners'
// depths differ: the mesh-mesh (hull) kernel's four corner contacts. (Level, qhull's facet normals
// carry ~1e-17 rounding that ties the four corners, and Dantzig's pick among the redundant
// contacts flips under Ridders' perturbations: v+ stays right, 5e-10, but the mode changes.
// Tilted, the pick still depends on round-off: since the dynamics run about each tree's root
// (core/multibody/spatial_ops.h, TreeFramePose), tilts of 1e-4, 5e-4 and 7e-4 rad land on a
// mode with 2 clamping and 4 sliding rows whose derivatives are not the step's (error ~1),
// 2e-4 and 3e-4 on 6 clamping rows (7.6e-10, 1.3e-9): nimble's redundant contacts, not the kernel.)
TEST(NimbleDerivatives, RestingMeshOnMeshMatchesRidders) {
  SceneBuilder b("mesh_on_mesh");
  b.SetGravity(Vec3(0.0, -nimble_test::kG, 0.0));
  const Vec3 h(0.2, 0.1, 0.2);
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(2.0, h),
                                SE3::FromTranslation(Vec3(0, h.y() - nimble_test::kSink, 0)));
  b.AddCollider(kWorldBody, MakeBoxMesh(Vec3(10.0, 0.05, 10.0)), SE3::FromTranslation(Vec3(0, -0.05, 0)), "ground")
      .friction = 0.5;
  b.AddCollider(box, MakeBoxMesh(h), SE3(), "box").friction = 0.5;
  auto scene = b.Build();
  auto sim = MakeNimble(scene);
  State s = DefaultState(*scene);
  const Quat tilt(Eigen::AngleAxisd(2e-4, Vec3(1, 0, 0.5).normalized()));
  s.q.tail<4>() << tilt.w(), tilt.x(), tilt.y(), tilt.z();
  const Check c = CheckAgainstRidders(*sim, s);
  EXPECT_TRUE(c.smooth);
  EXPECT_GT(c.clamping, 0);
  EXPECT_LT(c.error, 1e-7);
}

// Nimble's Atlas pose: both soles flat, 24 clamping contacts (72 rows).
TEST(NimbleDerivatives, AtlasOnBothSolesMatchesRidders) {
  auto scene = MakeScene("atlas");
  auto sim = MakeNimble(scene);
  const Check c = CheckAgainstRidders(*sim, DefaultState(*scene));
  EXPECT_TRUE(c.smooth);
  EXPECT_GT(c.clamping, 0);
  EXPECT_LT(c.error, 1e-6);
}

// Random states of the four benchmark robots (a perturbation of the default state, then some of
// the model's own steps, random controls): every smooth state within 1e-5, a smooth state in
// contact on every robot, and all three row classes met over the robots. Atlas gets few
// steps: falling over, its LCPs need the slow fallbacks, and Ridders takes 637 steps per state.
TEST(NimbleDerivatives, BenchmarkRobotsMatchRiddersOnRandomStates) {
  Rng rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  int classes[3] = {0, 0, 0};
  struct Robot {
    std::string name;
    std::shared_ptr<const Scene> scene;
    double max_steps;
  };
  for (const auto& [name, scene, max_steps] : {Robot{"atlas", MakeScene("atlas"), 20.0},
                                               Robot{"half_cheetah", MakeScene("half_cheetah"), 300.0},
                                               Robot{"jump_worm", MakeScene("jump_worm"), 300.0},
                                               Robot{"catapult", MakeScene("catapult"), 300.0}}) {
    auto sim = MakeNimble(scene);
    int smooth_in_contact = 0;
    for (int i = 0; i < 5; ++i) {
      State s = DefaultState(*scene);
      VecX dq(scene->nv());
      for (int k = 0; k < scene->nv(); ++k) dq[k] = (name == "atlas" ? 0.005 : 0.05) * normal(rng);
      s.q = Integrate(scene->model, s.q, dq);
      for (int k = 0; k < scene->nv(); ++k) s.v[k] = 0.3 * normal(rng);
      const int steps = static_cast<int>(Uniform(rng, 0.0, max_steps));
      for (int k = 0; k < steps; ++k) {
        State next = s;
        if (!sim->Step(next, {}).ok()) break;
        s = next;
      }
      Control u;
      u.u.resize(scene->nu());
      for (int k = 0; k < scene->nu(); ++k) u.u[k] = Uniform(rng, -1.0, 1.0);
      const Check c = CheckAgainstRidders(*sim, s, u);
      std::printf("%s state %d: smooth %d, rows C/U/S %d/%d/%d, error %.3g\n", name.c_str(), i, c.smooth, c.clamping,
                  c.sliding, c.separating, c.error);
      if (!c.smooth) continue;
      EXPECT_LT(c.error, 1e-5) << name << " state " << i;
      if (c.clamping + c.sliding + c.separating > 0) ++smooth_in_contact;
      classes[0] += c.clamping;
      classes[1] += c.sliding;
      classes[2] += c.separating;
    }
    EXPECT_GE(smooth_in_contact, 1) << name;
  }
  EXPECT_GT(classes[0], 0);
  EXPECT_GT(classes[1], 0);
  EXPECT_GT(classes[2], 0);
}

// Derivatives right after Step reuse its snapshot; a fresh simulator solves the step itself.
// Both give the same Jacobians.
TEST(NimbleDerivatives, SnapshotAndFreshSolveAgree) {
  auto scene = MakeScene("atlas");
  auto stepped = MakeNimble(scene);
  auto fresh = MakeNimble(scene);
  const State s = DefaultState(*scene);
  State next = s;
  stepped->Step(next, {});
  StepDerivatives a, b;
  stepped->Derivatives(s, {}, &a);
  fresh->Derivatives(s, {}, &b);
  EXPECT_LT(MaxStepDerivativeError(a, b), 1e-9);
}

TEST(NimbleDerivatives, RejectsNonFiniteStates) {
  auto scene = BoxOnGround(0.5);
  auto sim = MakeNimble(scene);
  State s = DefaultState(*scene);
  s.v[2] = std::nan("");
  StepDerivatives d;
  EXPECT_THROW(sim->Derivatives(s, {}, &d), InvalidArgument);
}

}  // namespace nimble_derivatives_test
}  // namespace arena
