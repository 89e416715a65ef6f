// The jacobians experiment (Nimble Tables II and III) and its robots: the Atlas pose the paper
// benchmarks, the cases each model can run, and what a case measures.
#include "experiments/jacobians/jacobians.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/error.h"
#include "core/geometry/mesh.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"
#include "config/profile_config.h"
#include "tests/experiments/experiment_test_config.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace jacobians_test {

using ::testing::HasSubstr;

// Nimble's Atlas (Sec. 8.1): both soles reach 2 mm into the ground in the benchmark pose, DART
// finds their contacts, and over 0.1 s the feet stay put (the ERP lifts them by < 1 mm) while
// the unactuated legs fold.
TEST(NimbleScenes, AtlasStandsOnBothSolesInDart) {
  auto scene = MakeScene("atlas");
  ASSERT_EQ(scene->nv(), 33);
  ASSERT_EQ(scene->nu(), 33);
  const State start = DefaultState(*scene);
  MultibodyData data(scene->model);
  ForwardKinematics(scene->model, data, start.q, start.v);
  const int feet[2] = {scene->model.FindBody("l_foot"), scene->model.FindBody("r_foot")};
  Vec2 foot_y0;
  for (int f = 0; f < 2; ++f) {
    const int body = feet[f];
    ASSERT_GE(body, 0);
    foot_y0[f] = data.X_WB[body].translation().y();
    double lowest = std::numeric_limits<double>::infinity();
    for (const Collider& c : scene->colliders) {
      if (c.body != body) continue;
      const auto* mesh = std::get_if<TriangleMesh>(&c.shape);
      ASSERT_NE(mesh, nullptr);
      const SE3 X_WS = data.X_WB[body] * c.placement;
      for (Eigen::Index i = 0; i < mesh->data->vertices.rows(); ++i) {
        lowest = std::min(lowest, X_WS.Act(mesh->data->vertices.row(i).transpose()).y());
      }
    }
    EXPECT_LT(lowest, -0.925) << "foot " << f;
    EXPECT_GT(lowest, -0.93) << "foot " << f;
  }
  auto sim = MakeSimulator("dart", scene, {{"timestep", "0.001"}});
  State s = start;
  for (int i = 0; i < 100; ++i) {
    const StepReport r = sim->Step(s, {});
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_GE(r.contacts, 2);
    EXPECT_LT(r.min_signed_distance, -1e-3);  // both soles ~2 mm in, corrected at 1 mm/s
    EXPECT_GT(r.min_signed_distance, -3e-3);
  }
  ForwardKinematics(scene->model, data, s.q, s.v);
  for (int f = 0; f < 2; ++f) {
    EXPECT_NEAR(data.X_WB[feet[f]].translation().y(), foot_y0[f], 1e-3) << "foot " << f;
  }
}


// Jump-Worm and Catapult (seed 002 Sec. VII-A, built as Nimble's benchmark code builds them): 5
// DOF (a 2D translation and three hinges), three motors, and in Nimble's benchmark state (after
// its one step) the paper's 2 contacts with nimble: the worm's last segment on the floor, the
// catapult's arm on the projectile.
TEST(NimbleScenes, JumpWormAndCatapultHaveThePapersContacts) {
  for (const std::string robot : {"jump_worm", "catapult"}) {
    auto scene = MakeScene(robot);
    EXPECT_EQ(scene->nv(), 5) << robot;
    EXPECT_EQ(scene->nu(), 3) << robot;
    auto sim = MakeSimulator("nimble", scene, {{"timestep", "0.001"}});
    State s = JacobiansExperiment::BenchmarkState(robot, *sim);
    const StepReport r = sim->Step(s, {});
    ASSERT_TRUE(r.ok()) << robot << ": " << r.message;
    EXPECT_EQ(r.contacts, 2) << robot;
  }
}

ProfileConfig Config(const std::string& body) { return testing_config::QuickConfig("jacobians", body); }

const char kQuick[] =
    "models = [\"dart\", \"mujoco\", \"penalty\"]\nrobots = [\"atlas\", \"half_cheetah\"]\nsamples = 1\n"
    "central_step = 1e-6\nridders_step = 1e-5\n";

Case FindCase(const Sweep& sweep, const std::string& id) {
  for (const Case& c : sweep.cases) {
    if (c.id == id) return c;
  }
  ADD_FAILURE() << "no case " << id;
  return {};
}

// Each model runs the robots it can simulate; the others are skipped with the reason.
TEST(Jacobians, ExpandsTheRobotsEachModelSupports) {
  const JacobiansExperiment e;
  const ProfileConfig config = Config(kQuick);
  const Sweep sweep = e.Expand(config, config.Strings("models"));
  std::vector<std::string> ids;
  for (const Case& c : sweep.cases) ids.push_back(c.id);
  EXPECT_THAT(ids, ::testing::ElementsAre("atlas/dart", "atlas/penalty", "half_cheetah/mujoco", "half_cheetah/penalty"));
  EXPECT_EQ(FindCase(sweep, "atlas/dart").model_options.at("timestep"), "0.001");
  EXPECT_EQ(FindCase(sweep, "half_cheetah/mujoco").model_options.at("timestep"), "0.01");
  const std::string notes = ::testing::PrintToString(sweep.notes);
  EXPECT_THAT(notes, HasSubstr("mujoco: skipped atlas"));
  EXPECT_THAT(notes, HasSubstr("free joint"));
  EXPECT_THAT(notes, HasSubstr("dart: skipped half_cheetah"));
  EXPECT_THAT(notes, HasSubstr("armature"));
}

TEST(Jacobians, RejectsBadConfigWithTheKey) {
  const JacobiansExperiment e;
  auto expect_error = [&](const std::string& body, const std::string& what) {
    try {
      e.Expand(Config(body), {"penalty"});
      ADD_FAILURE() << "accepted: " << body;
    } catch (const InvalidArgument& error) {
      EXPECT_THAT(error.what(), HasSubstr(what));
    }
  };
  expect_error("robots = [\"spot\"]\nsamples = 1\ncentral_step = 1e-6\nridders_step = 1e-5\n", "unknown robot 'spot'");
  expect_error("robots = [\"atlas\"]\nsamples = 0\ncentral_step = 1e-6\nridders_step = 1e-5\n", "key 'samples' (line 3): 0 is out of range");
  expect_error("robots = [\"atlas\"]\nsamples = 1\ncentral_step = -1\nridders_step = 1e-5\n", "key 'central_step' (line 4): -1 is out of range");
}

// A case measures every method from one state: central differences take 2 (2 nv + nu) + 1
// steps (the nominal one included), and on the settled cheetah (two feet on the floor) the
// penalty model's analytical Jacobians and both engines' differences agree with Ridders.
TEST(Jacobians, HalfCheetahCasesAgreeWithRidders) {
  const JacobiansExperiment e;
  const ProfileConfig config = Config(kQuick);
  const Sweep sweep = e.Expand(config, {"mujoco", "penalty"});
  for (const std::string model : {"mujoco", "penalty"}) {
    const std::vector<Row> rows = e.Run(FindCase(sweep, "half_cheetah/" + model));
    std::vector<std::string> methods;
    for (const Row& r : rows) {
      methods.push_back(std::get<std::string>(r.at("method")));
      EXPECT_EQ(std::get<std::int64_t>(r.at("nv")), 9);
      EXPECT_EQ(std::get<std::int64_t>(r.at("nu")), 6);
      EXPECT_EQ(std::get<std::int64_t>(r.at("contacts")), 2) << model;
      EXPECT_TRUE(std::get<bool>(r.at("finite"))) << model;
      EXPECT_EQ(std::get<bool>(r.at("engine")), model == "mujoco");
      EXPECT_GT(std::get<double>(r.at("jacobian_time_s")), 0.0);
      const std::string method = methods.back();
      if (method == "central") {
        EXPECT_EQ(std::get<std::int64_t>(r.at("jacobian_steps")), 2 * (2 * 9 + 6) + 1);
      }
      if (method != "ridders") {
        EXPECT_LT(std::get<double>(r.at("max_rel_error_vs_ridders")), 1e-6) << model << " " << method;
      }
      if (method != "analytical") {
        EXPECT_EQ(std::get<std::int64_t>(r.at("contact_changes")), 0) << model;
      }
    }
    if (model == "penalty") {
      EXPECT_THAT(methods, ::testing::ElementsAre("central", "ridders", "analytical"));
    } else {
      EXPECT_THAT(methods, ::testing::ElementsAre("central", "ridders"));  // an engine has no analytical rows
    }
  }
}

// Nimble's stabilized LCP (the minimum-norm impulses on the active set, App. B) makes the Atlas
// step a smooth function of its inputs where DART's is not (next test): central differences
// agree with Ridders, no perturbation changes the 24 contacts or the LCP's active set, and the
// analytical Jacobians agree with Ridders too (Table II's accuracy check).
TEST(Jacobians, NimbleAtlasAnalyticalAndDifferencesAgreeWithRidders) {
  const JacobiansExperiment e;
  const Sweep sweep = e.Expand(Config(kQuick), {"nimble"});
  const std::vector<Row> rows = e.Run(FindCase(sweep, "atlas/nimble"));
  ASSERT_EQ(rows.size(), 3u);
  const Row& central = rows[0];
  EXPECT_EQ(std::get<std::string>(central.at("method")), "central");
  EXPECT_EQ(std::get<std::int64_t>(central.at("contacts")), 24);
  EXPECT_EQ(std::get<std::int64_t>(central.at("contact_changes")), 0);
  EXPECT_LT(std::get<double>(central.at("max_rel_error_vs_ridders")), 1e-6);
  EXPECT_EQ(std::get<std::int64_t>(rows[1].at("contact_changes")), 0);
  const Row& analytical = rows[2];
  EXPECT_EQ(std::get<std::string>(analytical.at("method")), "analytical");
  EXPECT_LT(std::get<double>(analytical.at("max_rel_error_vs_ridders")), 1e-6);
}

// Why DART's Atlas differences disagree with Ridders (docs/deviations.md): in the benchmark
// pose, a 1e-9 change of almost any velocity changes the next velocity by centimetres per
// second while the 66 contacts stay the same. The sole contacts are redundant (66 rows for two
// rigid feet), the boxed LCP has many solutions, and Dantzig's pivoting picks another one.
TEST(Jacobians, DartAtlasStepJumpsUnderTinyPerturbations) {
  auto scene = MakeScene("atlas");
  auto sim = MakeSimulator("dart", scene, {{"timestep", "0.001"}});
  const State start = DefaultState(*scene);
  State nominal = start;
  const StepReport r0 = sim->Step(nominal, {});
  int jumps = 0;
  for (int k = 0; k < scene->nv(); ++k) {
    State perturbed = start;
    perturbed.v[k] += 1e-9;
    const StepReport r = sim->Step(perturbed, {});
    EXPECT_EQ(r.contacts, r0.contacts);
    if ((perturbed.v - nominal.v).lpNorm<Eigen::Infinity>() > 1e-3) ++jumps;
  }
  EXPECT_GE(jumps, scene->nv() / 2);
}

}  // namespace jacobians_test
}  // namespace arena
