// book_stacking (seed 004 Fig. 4, Table 2): the sweep (longrange over mu, sdrs starting at its resting
// gap, every other model once,
// models that cannot run stacked boxes skipped with a note), input checks, rows of short runs on
// two planks (a barrier model stands apart and reports the top plank's force; an engine reports
// no forces and its resting penetration fails the row, not the stability), and the tessellated
// planks the IP models can use (box_max_edge). Its quick profile is checked against the committed
// reference with every experiment's (quick_profiles_test.cc).
#include "experiments/book_stacking/book_stacking.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "core/common/error.h"
#include "core/geometry/mesh.h"
#include "models/incremental_potential/collider_meshes.h"
#include "models/registry.h"
#include "scenes/longrange_scenes.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace book_stacking_test {

using ::testing::HasSubstr;

ProfileConfig Config(const std::string& planks, const std::string& extra = "") {
  return testing_config::QuickConfig("book_stacking", "planks = " + planks +
                                                          "\nduration_s = 0.2\ninitial_gap_m = 1e-3\n"
                                                          "stable_drift_m = 0.05\noverhang_shift = 1e-3\n"
                                                          "start_at_equilibrium_gap = true\n" + extra);
}

const Case& Find(const Sweep& sweep, const std::string& id) {
  for (const Case& c : sweep.cases) {
    if (c.id == id) return c;
  }
  throw InvalidArgument("no case " + id);
}

TEST(BookStacking, SweepsLongrangeOverMuAndRunsTheOthersOnce) {
  const BookStackingExperiment e;
  const Sweep sweep = e.Expand(Config("3", "[quick.sweep.longrange]\nmu = [1e-5, 1e-7]\n"),
                               {"longrange", "ipc", "sdrs", "bilevel", "mujoco"});
  ASSERT_EQ(sweep.cases.size(), 5u);
  EXPECT_EQ(sweep.cases[0].id, "longrange/planks=3/mu=1e-05");
  EXPECT_EQ(sweep.cases[0].model_options.at("mu"), "1e-05");
  EXPECT_EQ(sweep.cases[1].id, "longrange/planks=3/mu=1e-07");
  const Case& ipc = Find(sweep, "ipc/planks=3");
  EXPECT_EQ(ipc.model_options.count("mu"), 0u);
  // longrange starts at its equilibrium gap sqrt(48 mu / m g), sdrs where its potential carries
  // the top plank, the others at initial_gap_m.
  auto gap = [](const Case& c) {
    for (const auto& [k, v] : c.params) {
      if (k == "initial_gap_m") return std::get<double>(v);
    }
    return -1.0;
  };
  EXPECT_NEAR(gap(sweep.cases[0]), std::sqrt(48e-5 / (0.16 * 9.81)), 1e-15);
  EXPECT_DOUBLE_EQ(gap(ipc), 1e-3);
  EXPECT_DOUBLE_EQ(gap(Find(sweep, "sdrs/planks=3")), FindModel("sdrs").stacking_gap({}, 0.16 * 9.81));
  EXPECT_THAT(::testing::PrintToString(sweep.notes), HasSubstr("bilevel: skipped"));
}

TEST(BookStacking, RejectsBadConfigWithTheKey) {
  const BookStackingExperiment e;
  EXPECT_THROW(e.Expand(Config("0"), {"ipc"}), InvalidArgument);
  try {
    e.Expand(testing_config::QuickConfig("book_stacking", "planks = 3\nduration_s = 0.2\ninitial_gap_m = 1e-3\n"
                                                          "stable_drift_m = -1\noverhang_shift = 1e-3\n"
                                                          "start_at_equilibrium_gap = true\n"),
             {"ipc"});
    FAIL() << "a negative threshold was accepted";
  } catch (const InvalidArgument& error) {
    EXPECT_THAT(error.what(), HasSubstr("stable_drift_m"));
  }
}

// IPC's barrier keeps two planks apart at rest and reports the contact force on the top one.
TEST(BookStacking, BarrierModelStandsApartAndReportsTheTopForce) {
  const BookStackingExperiment e;
  const Sweep sweep = e.Expand(Config("2"), {"ipc"});
  const Row row = e.Run(sweep.cases.at(0)).at(0);
  EXPECT_EQ(std::get<bool>(row.at("failed")), false) << ToText(row.at("failure"));
  EXPECT_EQ(std::get<bool>(row.at("stable")), true);
  EXPECT_GT(std::get<double>(row.at("min_distance_m")), 0.0);
  EXPECT_GT(std::get<double>(row.at("top_gap_m")), 0.0);
  EXPECT_LT(std::get<double>(row.at("top_gap_m")), 2e-3);
  // Five steps from 1 mm apart: the force is near the weight, 0.16 x 9.81 N, not yet exactly it.
  EXPECT_NEAR(std::get<double>(row.at("top_force_n")), 0.16 * 9.81, 0.1);
  EXPECT_LT(std::get<double>(row.at("force_error_n")), 0.1);
}

// MuJoCo reports no pair forces (the columns stay empty); its soft contact rests inside the planks,
// which fails the row (no run may end interpenetrating) but not its stability.
TEST(BookStacking, EngineWithoutForcesLeavesThemEmpty) {
  const BookStackingExperiment e;
  const Sweep sweep = e.Expand(Config("2"), {"mujoco"});
  const Row row = e.Run(sweep.cases.at(0)).at(0);
  EXPECT_EQ(row.count("force_error_n"), 0u);
  EXPECT_EQ(std::get<bool>(row.at("upright")), true);
  if (std::get<double>(row.at("end_distance_m")) < 0.0) {
    EXPECT_EQ(std::get<bool>(row.at("failed")), true);
    EXPECT_THAT(ToText(row.at("failure")), HasSubstr("interpenetrating"));
  }
}

// box_max_edge grids every face (cells at most 0.2 m: 10 x 2, 10 x 1 and 2 x 1 per face pair)
// and keeps the mesh closed; 0 keeps the 12 triangles.
TEST(BookStacking, TessellatedPlanksAreClosedGrids) {
  const auto scene = BookStackScene({.planks = 1});
  ColliderMeshOptions options;
  EXPECT_EQ(BuildColliderMeshes(*scene, options)[0].triangles.rows(), 12);
  options.box_max_edge = 0.2;
  const ColliderMesh plank = BuildColliderMeshes(*scene, options)[0];
  EXPECT_EQ(plank.triangles.rows(), 2 * 2 * (10 * 2 + 10 * 1 + 2 * 1));
  EXPECT_EQ(plank.vertices.rows(), 2 + 128 / 2);  // Euler: V = F / 2 + 2 for a closed triangle mesh
  EXPECT_TRUE(IsClosed(*MakeTriangleMesh(plank.vertices, plank.triangles).data));
  EXPECT_NEAR(plank.vertices.col(0).cwiseAbs().maxCoeff(), 1.0, 1e-15);
  EXPECT_NEAR(plank.vertices.col(2).cwiseAbs().maxCoeff(), 0.1, 1e-15);
}

}  // namespace book_stacking_test
}  // namespace arena
