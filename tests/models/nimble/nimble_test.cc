// The nimble forward model (Nimble Sec. III, App. A-B): Y-up scenes as the paper's, a resting
// and a sliding box against closed forms, free flight with Nimble's parallel position update,
// Atlas standing on both soles with the LCP warm start, and bad input.
#include "models/nimble/nimble.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "core/common/error.h"
#include "core/math/so3.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"
#include "core/scene/scene_builder.h"
#include "models/contact_criteria.h"
#include "models/nimble/contact_reduction.h"
#include "tests/models/nimble/nimble_test_scenes.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace nimble_test {

using ::testing::HasSubstr;

using nimble_test::BoxOnGround;
using nimble_test::kG;
using nimble_test::kSink;
using nimble_test::MakeNimble;

// Resting on four corners: the LCP holds the box exactly (v+ = 0), so nothing moves over 1 s,
// and after the first step the warm start (last step's active set) solves every step.
TEST(Nimble, RestingBoxStaysExactlyPut) {
  auto scene = BoxOnGround(0.5);
  auto sim = MakeNimble(scene);
  State s = DefaultState(*scene);
  const VecX q0 = s.q;
  for (int i = 0; i < 1000; ++i) {
    const StepReport r = sim->Step(s, {});
    ASSERT_TRUE(r.ok()) << i << ": " << r.message;
    ASSERT_EQ(r.contacts, 4);
  }
  EXPECT_LT(s.v.lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_LT((s.q - q0).lpNorm<Eigen::Infinity>(), 1e-12);
  const auto& lcp = static_cast<NimbleSimulator&>(*sim).lcp_solver();
  EXPECT_EQ(lcp.attempts(), 999);
  EXPECT_EQ(lcp.hits(), 999);
}

// Sliding at 1 m/s along x with mu = 0.3: Coulomb friction takes mu g dt per step until it
// stops (after 1 / (0.3 g) = 0.34 s), with the box flat on the ground all along.
TEST(Nimble, SlidingBoxDeceleratesAtMuG) {
  const double mu = 0.3, dt = 0.001;
  auto scene = BoxOnGround(mu);
  auto sim = MakeNimble(scene);
  State s = DefaultState(*scene);
  s.v[3] = 1.0;  // body-frame linear x = world x (identity orientation)
  for (int i = 1; i <= 200; ++i) {
    ASSERT_TRUE(sim->Step(s, {}).ok());
    ASSERT_NEAR(s.v[3], 1.0 - i * mu * kG * dt, 1e-9) << i;
    ASSERT_NEAR(s.v[4], 0.0, 1e-9);
  }
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(sim->Step(s, {}).ok());
  EXPECT_NEAR(s.v[3], 0.0, 1e-12);  // stopped, held by static friction
  EXPECT_NEAR(s.q[1], 0.1 - kSink, 1e-9);
}

// The physical criteria see what Nimble's friction rows are (models/contact_criteria.h): each
// tangent row is boxed to +-mu f_n on its own, so a box sliding along a row's axis gets Coulomb
// friction exactly (on the cone, against the slip), while one sliding diagonally gets both rows
// saturated: |f_t| = sqrt(2) mu f_n, outside the circular cone by (sqrt(2) - 1) mu f_n and off
// the maximum-dissipation force by as much. A sphere, so that one contact point carries it all
// (a box's four corners share friction in many ways).
TEST(Nimble, ContactPointsShowTheBoxedFrictionRows) {
  const double mu = 0.3, weight = 2.0 * kG;
  SceneBuilder b("sphere_on_ground");
  b.SetGravity(Vec3(0.0, -kG, 0.0));
  const int ball = b.AddFreeBody("ball", SpatialInertia::SolidSphere(2.0, 0.1), SE3::FromTranslation(Vec3(0, 0.1 - kSink, 0)));
  b.AddCollider(ball, Sphere{0.1}, SE3(), "ball").friction = mu;
  b.AddCollider(kWorldBody, Box{Vec3(10.0, 0.05, 10.0)}, SE3::FromTranslation(Vec3(0, -0.05, 0)), "ground").friction = mu;
  auto scene = b.Build();
  MultibodyData data(scene->model);
  for (bool diagonal : {false, true}) {
    auto sim = MakeNimble(scene);
    State s = DefaultState(*scene);
    s.v[3] = diagonal ? std::sqrt(0.5) : 1.0;  // body-frame x and z = world x and z
    s.v[5] = diagonal ? std::sqrt(0.5) : 0.0;
    ASSERT_TRUE(sim->Step(s, {}).ok());
    const ContactCriteria c = MeasureContactCriteria(*scene, data, s, sim->timestep(), sim->ContactPoints());
    SCOPED_TRACE(diagonal ? "diagonal" : "along x");
    EXPECT_EQ(c.points, 1);
    EXPECT_EQ(c.sliding, 1);
    EXPECT_NEAR(c.normal_force_n, weight, 1e-9 * weight);
    const double excess = diagonal ? (std::sqrt(2.0) - 1.0) * mu * weight : 0.0;
    EXPECT_NEAR(c.coulomb_n, excess, 1e-9 * weight);
    EXPECT_NEAR(c.dissipation_n, excess, 1e-9 * weight);
    EXPECT_LT(c.penetration_m, 2.0 * kSink);
  }
}

// The LCP method is an option (lcp_solver, lcp_fallbacks, pgs_*): the sliding box decelerates
// at mu g with Dantzig or with PGS, and the counters name the path that solved each step. With
// lemke and no fallback its friction rows are not Lemke's problem: every contact step reports
// its failure as data (lcp_solved_by_failed), the step itself goes on.
TEST(Nimble, LcpSolverIsAnOption) {
  const double mu = 0.3, dt = 0.001;
  auto scene = BoxOnGround(mu);
  for (const char* method : {"dantzig", "pgs"}) {
    auto sim = MakeNimble(scene, {{"lcp_solver", method}, {"warm_start", "false"}, {"pgs_tolerance", "1e-12"}});
    // (warm starts off: every step is a cold solve by the chosen method)
    State s = DefaultState(*scene);
    s.v[3] = 1.0;
    for (int i = 1; i <= 100; ++i) {
      ASSERT_TRUE(sim->Step(s, {}).ok()) << method;
      ASSERT_NEAR(s.v[3], 1.0 - i * mu * kG * dt, 1e-6) << method << " step " << i;
    }
    const auto& lcp = static_cast<NimbleSimulator&>(*sim).lcp_solver();
    const ContactLcpPath path = std::string(method) == "pgs" ? ContactLcpPath::kPgs : ContactLcpPath::kDantzig;
    // Every step solved; on 7 of them Dantzig's answer for the four redundant corners fails the
    // check and the PGS fallback takes over (the default chain), so Dantzig's count is below 100.
    EXPECT_EQ(lcp.path_count(ContactLcpPath::kFailed), 0) << method;
    const long by_fallback = path == ContactLcpPath::kPgs ? 0 : lcp.path_count(ContactLcpPath::kPgs);
    EXPECT_EQ(lcp.path_count(path) + by_fallback, 100) << method;
    EXPECT_GT(lcp.path_count(path), 0) << method;
  }
  auto lemke = MakeNimble(scene, {{"lcp_solver", "lemke"}, {"lcp_fallbacks", "none"}});
  State s = DefaultState(*scene);
  for (int i = 0; i < 10; ++i) lemke->Step(s, {});
  EXPECT_EQ(static_cast<NimbleSimulator&>(*lemke).lcp_solver().path_count(ContactLcpPath::kFailed), 10);
  try {
    MakeNimble(scene, {{"lcp_fallbacks", "pgs,simplex"}});
    FAIL() << "an unknown fallback was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("lcp_fallbacks"));
    EXPECT_THAT(e.what(), HasSubstr("simplex"));
  }
}

// Free flight with the parallel update: positions move with the pre-step velocity, so after
// k steps y = y0 + k dt v0 - g dt^2 k (k - 1) / 2 exactly; with parallel_position_update =
// false (semi-implicit) the last term is k (k + 1) / 2.
TEST(Nimble, FreeFlightUsesThePreStepVelocity) {
  auto scene = BoxOnGround(0.5);
  for (bool parallel : {true, false}) {
    auto sim = MakeNimble(scene, {{"parallel_position_update", parallel ? "true" : "false"}});
    State s = DefaultState(*scene);
    s.q[1] = 2.0;
    s.v[4] = 3.0;
    const int k = 100;
    const double dt = 0.001;
    for (int i = 0; i < k; ++i) ASSERT_EQ(sim->Step(s, {}).contacts, 0);
    const double drop = kG * dt * dt * (parallel ? k * (k - 1) : k * (k + 1)) / 2.0;
    EXPECT_NEAR(s.q[1], 2.0 + k * dt * 3.0 - drop, 1e-12) << parallel;
    EXPECT_NEAR(s.v[4], 3.0 - k * kG * dt, 1e-12);
  }
}

// Nimble's Atlas pose (as its benchmark code sets it): both soles 2 mm in the ground box. Of
// the 22 sole vertices inside the ground, the 12 strict corners of each sole's hull are kept: 24
// contacts, the paper's Fig. 1 ("12 per foot"); without the reduction all 44. The LCP holds the
// feet where they are over 0.1 s while the unactuated legs fold, and the warm start is right on
// most steps (the paper: more than 95 %).
TEST(Nimble, AtlasStandsOnBothSoles) {
  auto scene = MakeScene("atlas");
  auto sim = MakeNimble(scene);
  State s = DefaultState(*scene);
  MultibodyData data(scene->model);
  const int feet[2] = {scene->model.FindBody("l_foot"), scene->model.FindBody("r_foot")};
  ForwardKinematics(scene->model, data, s.q);
  const Vec3 foot0[2] = {data.X_WB[feet[0]].translation(), data.X_WB[feet[1]].translation()};
  for (int i = 0; i < 100; ++i) {
    const StepReport r = sim->Step(s, {});
    ASSERT_TRUE(r.ok()) << i << ": " << r.message;
    EXPECT_EQ(r.contacts, 24) << i;
  }
  ForwardKinematics(scene->model, data, s.q);
  for (int f = 0; f < 2; ++f) {
    EXPECT_LT((data.X_WB[feet[f]].translation() - foot0[f]).norm(), 1e-3) << f;
  }
  const auto& lcp = static_cast<NimbleSimulator&>(*sim).lcp_solver();
  EXPECT_EQ(lcp.attempts(), 99);
  EXPECT_GT(static_cast<double>(lcp.hits()) / lcp.attempts(), 0.9);
  State all = DefaultState(*scene);
  EXPECT_EQ(MakeNimble(scene, {{"hull_contacts", "false"}})->Step(all, {}).contacts, 44);
}

// The cold solve of that pose (72 rows, redundant sole contacts, warm start off): Dantzig's
// pivoting cycles to its pivot limit on this degenerate problem. The minimum-norm solution on
// its active set widened by the contacts at rest solves the LCP (to 1e-16), so the step is
// Dantzig's; without the wider set the PGS fallback takes over, and dantzig_cycling_cfm's retry
// on A + eps I solves it inside Dantzig.
TEST(Nimble, AtlasColdStepIsSolvedFromDantzigsActiveSet) {
  auto scene = MakeScene("atlas");
  struct Case {
    const char* degenerate;
    const char* cfm;
    ContactLcpPath path;
  };
  for (const Case& c : {Case{"true", "0", ContactLcpPath::kDantzig}, Case{"false", "0", ContactLcpPath::kPgs},
                        Case{"false", "1e-10", ContactLcpPath::kDantzig}}) {
    auto sim = MakeNimble(
        scene, {{"warm_start", "false"}, {"stabilize_degenerate", c.degenerate}, {"dantzig_cycling_cfm", c.cfm}});
    State s = DefaultState(*scene);
    const StepReport r = sim->Step(s, {});
    ASSERT_TRUE(r.ok()) << r.message;
    const auto& nimble = static_cast<NimbleSimulator&>(*sim);
    EXPECT_EQ(nimble.lcp_solver().path_count(c.path), 1) << c.degenerate << " " << c.cfm;
    // Dantzig's answers to round-off; PGS's within the validity tolerance.
    EXPECT_LT(nimble.last_lcp_solution().violation, c.path == ContactLcpPath::kDantzig ? 1e-12 : 1e-5)
        << c.degenerate << " " << c.cfm;
  }
}

// A 3 x 3 grid of coplanar contacts keeps its 4 corners (edge midpoints are collinear, the
// centre is inside); another pair's contacts and a contact with another normal are untouched.
TEST(NimbleContacts, ReducesFlatPatchesToHullCorners) {
  std::vector<nimble::Contact> contacts;
  for (int i = -1; i <= 1; ++i) {
    for (int j = -1; j <= 1; ++j) {
      contacts.push_back({0, kWorldBody, Vec3(0.1 * i, 0.0, 0.1 * j), Vec3::UnitY(), 1e-3, 0.5, 0});
    }
  }
  contacts.push_back({1, kWorldBody, Vec3(2, 0, 0), Vec3::UnitY(), 1e-3, 0.5, 1});  // another pair
  contacts.push_back({0, kWorldBody, Vec3(0, 0, 0), Vec3::UnitX(), 1e-3, 0.5, 0});  // another normal
  nimble::ReduceToHullCorners(&contacts);
  ASSERT_EQ(contacts.size(), 6u);
  int corners = 0;
  for (const nimble::Contact& c : contacts) {
    if (c.normal_W == Vec3::UnitY() && c.body_a == 0) {
      EXPECT_NEAR(std::abs(c.point_W.x()), 0.1, 1e-15);
      EXPECT_NEAR(std::abs(c.point_W.z()), 0.1, 1e-15);
      ++corners;
    }
  }
  EXPECT_EQ(corners, 4);
}

TEST(Nimble, RejectsBadInputWithClearErrors) {
  auto scene = BoxOnGround(0.5);
  try {
    MakeNimble(scene, {{"timestep", "-1"}});
    FAIL() << "negative timestep accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("timestep"));
  }
  SceneBuilder planar("planar");
  const int body = planar.AddPlanarBody("disk", 1.0, 0.1, Vec3(0, 1, 0));
  planar.AddCollider(body, Disk2{0.1});
  planar.AddGroundPlane2();
  EXPECT_THROW(MakeNimble(planar.Build()), Unsupported);
  State bad = DefaultState(*scene);
  bad.v[0] = std::nan("");
  EXPECT_EQ(MakeNimble(scene)->Step(bad, {}).status, StepStatus::kNonFinite);
}

}  // namespace nimble_test
}  // namespace arena
