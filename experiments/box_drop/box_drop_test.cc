// box_drop: the paper's scene and initial conditions, the sweep and its input checks. Its quick
// profile is checked against the committed reference with every experiment's
// (quick_profiles_test.cc), on one thread against a reference written on two.
#include "experiments/box_drop/box_drop.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <numbers>
#include <set>

#include "core/common/error.h"
#include "core/multibody/data.h"
#include "experiments/common/meters/metrics.h"
#include "config/profile_config.h"
#include "harness/runner.h"
#include "models/registry.h"
#include "scenes/box_drop_scenes.h"
#include "tests/experiments/experiment_test_config.h"
#include "tests/scratch_dir.h"
#include "tests/test_paths.h"

namespace arena {
namespace box_drop_test {

namespace fs = std::filesystem;
using ::testing::HasSubstr;


// The paper's polygon (Silico benchmark scripts): its vertices, area 0.580 and max radius 0.656.
TEST(BoxDrop, PlanarSceneIsThePapersPolygon) {
  auto scene = BoxDropScene("planar");
  ASSERT_TRUE(scene->IsPlanar());
  const auto& poly = std::get<Polygon2>(scene->colliders[0].shape);
  const std::vector<Vec2> expected = {{-0.28, -0.4}, {0.10, -0.40}, {0.4167, -0.0833}, {0.32, 0.40}, {-0.52, 0.40}};
  ASSERT_EQ(poly.vertices.rows(), 5);
  for (const Vec2& e : expected) {
    double best = 1e9;
    for (int i = 0; i < 5; ++i) best = std::min(best, (poly.vertices.row(i).transpose() - e).norm());
    EXPECT_LT(best, 1e-4) << e.transpose();  // the paper prints 4 digits
  }
  double area = 0.0, radius = 0.0;
  for (int i = 0; i < 5; ++i) {
    const Vec2 a = poly.vertices.row(i), b = poly.vertices.row((i + 1) % 5);
    area += 0.5 * (a.x() * b.y() - a.y() * b.x());
    radius = std::max(radius, a.norm());
  }
  EXPECT_NEAR(area, 0.580, 5e-4);
  EXPECT_NEAR(radius, 0.656, 5e-4);
  EXPECT_DOUBLE_EQ(scene->model.body(0).inertia.mass(), 1.0);
  EXPECT_DOUBLE_EQ(scene->model.body(0).inertia.inertia_com()(2, 2), 0.2);
  EXPECT_DOUBLE_EQ(scene->colliders[0].friction, 0.2);
}

// Initial conditions lie in the paper's ranges, never start in contact, and are reproducible.
TEST(BoxDrop, InitialConditionsAreInRangeAndDeterministic) {
  for (const std::string variant : {"planar", "spatial"}) {
    auto scene = BoxDropScene(variant);
    MultibodyData data(scene->model);
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
      const State s = BoxDropInitialState(variant, seed);
      const State t = BoxDropInitialState(variant, seed);
      ASSERT_EQ(s.q, t.q);
      ASSERT_EQ(s.v, t.v);
      EXPECT_GT(MinSignedDistance(*scene, data, s.q), 0.0) << variant << " seed " << seed;
      if (variant == "planar") {
        EXPECT_GE(s.q[1], std::sqrt(2.0) / 2.0);
        EXPECT_LE(s.q[1], 1.5);
        EXPECT_GE(s.q[2], 0.0);
        EXPECT_LT(s.q[2], 2.0 * std::numbers::pi);
        // World-frame velocity ranges: vx in [-1, 1], vy in [-2, 0], omega in [-1, 1].
        const Vec2 v_W = Eigen::Rotation2Dd(s.q[2]) * Vec2(s.v[1], s.v[2]);
        EXPECT_LE(std::abs(v_W.x()), 1.0);
        EXPECT_LE(v_W.y(), 0.0);
        EXPECT_GE(v_W.y(), -2.0);
        EXPECT_LE(std::abs(s.v[0]), 1.0);
      }
    }
  }
}

// The same initial conditions are reused in every (frequency, parameter) cell.
TEST(BoxDrop, CellsShareInitialConditions) {
  const ProfileConfig config = ProfileConfig::Load(::arena::testing::SourceDir() + "/experiments/box_drop/config.toml",
                                                   "quick", {}, testing_config::RegisteredModels());
  const BoxDropExperiment exp;
  const Sweep sweep = exp.Expand(config, {"penalty"});
  ASSERT_FALSE(sweep.cases.empty());
  std::map<std::string, std::set<std::uint64_t>> seeds;  // (variant, ic) -> seeds over cells
  std::set<std::string> ids;
  for (const Case& c : sweep.cases) {
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id " << c.id;
    std::string variant, ic;
    for (const auto& [k, v] : c.params) {
      if (k == "variant") variant = ToText(v);
      if (k == "ic") ic = ToText(v);
    }
    seeds[variant + "/" + ic].insert(c.seed);
  }
  for (const auto& [key, s] : seeds) EXPECT_EQ(s.size(), 1u) << key;
}

TEST(BoxDrop, RejectsNonPositiveFrequency) {
  const ProfileConfig config = ProfileConfig::Load(::arena::testing::SourceDir() + "/experiments/box_drop/config.toml",
                                                   "quick", {"frequencies_hz=[10, 0]"}, testing_config::RegisteredModels());
  try {
    BoxDropExperiment().Expand(config, {"penalty"});
    FAIL() << "frequency 0 accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("key 'frequencies_hz' (set by --set): entry 2, 0 is out of range"));
  }
}

// The timestep comes from frequencies_hz: a user setting of <model>.timestep would be silently
// overwritten, so it is an error that says what to set instead.
TEST(BoxDrop, RejectsTimestepOverride) {
  const ProfileConfig config = ProfileConfig::Load(::arena::testing::SourceDir() + "/experiments/box_drop/config.toml",
                                                   "quick", {"penalty.timestep=0.01"}, testing_config::RegisteredModels());
  try {
    BoxDropExperiment().Expand(config, {"penalty"});
    FAIL() << "timestep override accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("penalty.timestep is set by the experiment itself"));
    EXPECT_THAT(e.what(), HasSubstr("frequencies_hz"));
  }
}

std::string Param(const Case& c, const std::string& name) {
  for (const auto& [k, v] : c.params) {
    if (k == name) return ToText(v);
  }
  return "";
}

// The incremental-potential models run the spatial cube only (the planar polygon has no triangle
// mesh): the planar variant is skipped with the reason, as for every unsupported pair. Each
// sweeps its own parameter; longrange runs the first initial condition only ([quick.grid.
// longrange]), the same one as every other model's first.
TEST(BoxDrop, IncrementalPotentialModelsRunTheSpatialCubeOnly) {
  const ProfileConfig config = ProfileConfig::Load(::arena::testing::SourceDir() + "/experiments/box_drop/config.toml",
                                                   "quick", {}, testing_config::RegisteredModels());
  const Sweep sweep = BoxDropExperiment().Expand(config, {"longrange", "ipc", "penalty"});
  const std::string notes = ::testing::PrintToString(sweep.notes);
  EXPECT_THAT(notes, HasSubstr("longrange: skipped variant planar (planar (2D) scenes are not supported)"));
  EXPECT_THAT(notes, HasSubstr("ipc: skipped variant planar (planar (2D) scenes are not supported)"));
  std::map<std::string, std::set<std::string>> swept, ics;  // model -> values
  std::map<std::string, std::uint64_t> first_seed;          // model -> the seed of spatial ic 0
  for (const Case& c : sweep.cases) {
    if (c.model == "penalty") {
      if (Param(c, "variant") == "spatial" && Param(c, "ic") == "0") first_seed[c.model] = c.seed;
      continue;
    }
    EXPECT_EQ(Param(c, "variant"), "spatial") << c.id;
    swept[c.model].insert(Param(c, "param_name") + "=" + Param(c, "param_value"));
    ics[c.model].insert(Param(c, "ic"));
    if (Param(c, "ic") == "0") first_seed[c.model] = c.seed;
  }
  EXPECT_EQ(swept["longrange"], (std::set<std::string>{"mu=1e-06", "mu=1e-08"}));
  EXPECT_EQ(swept["ipc"], (std::set<std::string>{"dhat=0.001", "dhat=1e-04"}));
  EXPECT_EQ(ics["longrange"], (std::set<std::string>{"0"}));
  EXPECT_EQ(ics["ipc"].size(), 10u);
  EXPECT_EQ(first_seed["longrange"], first_seed["penalty"]);
  EXPECT_EQ(first_seed["ipc"], first_seed["penalty"]);
}

// A model's cap on the instances takes only the count key and a registered model; a cap above
// the count changes nothing.
TEST(BoxDrop, ModelGridCapIsCheckedAndCapsOnly) {
  const std::string grid = "variants = [\"spatial\"]\nfrequencies_hz = [50]\ninitial_conditions = 3\nduration_s = 0.1\n";
  const BoxDropExperiment e;
  EXPECT_EQ(e.Expand(testing_config::QuickConfig("box_drop", grid + "[quick.grid.ipc]\ninitial_conditions = 2\n"),
                     {"ipc"}).cases.size(), 2u);
  EXPECT_EQ(e.Expand(testing_config::QuickConfig("box_drop", grid + "[quick.grid.ipc]\ninitial_conditions = 7\n"),
                     {"ipc"}).cases.size(), 3u);
  for (const std::string bad : {"[quick.grid.ipc]\nfrequencies_hz = [10]\n", "[quick.grid.nosuch]\ninitial_conditions = 1\n"}) {
    try {
      e.Expand(testing_config::QuickConfig("box_drop", grid + bad), {"ipc"});
      FAIL() << bad << " accepted";
    } catch (const InvalidArgument& error) {
      EXPECT_THAT(error.what(), HasSubstr("grid.<model>.initial_conditions")) << bad;
    }
  }
  EXPECT_THROW(e.Expand(testing_config::QuickConfig("box_drop", grid + "[quick.grid.ipc]\ninitial_conditions = 0\n"), {"ipc"}),
               InvalidArgument);
}

// Spatial rows record the smallest exact cube-ground distance over the run: the barrier models'
// stays above 0, a soft engine's goes below it; planar rows leave it empty.
TEST(BoxDrop, SpatialRowsRecordTheMinimumMeshDistance) {
  const ProfileConfig config = testing_config::QuickConfig(
      "box_drop", "variants = [\"planar\", \"spatial\"]\nfrequencies_hz = [30]\ninitial_conditions = 1\nduration_s = 1.0\n"
                  "[quick.sweep.longrange]\nmu = [1e-6]\n");
  const BoxDropExperiment e;
  const Sweep sweep = e.Expand(config, {"longrange", "ipc", "penalty"});
  std::map<std::string, double> distance;
  for (const Case& c : sweep.cases) {
    const Row row = e.Run(c).at(0);
    const std::string key = c.model + "/" + Param(c, "variant");
    if (Param(c, "variant") == "planar") {
      EXPECT_EQ(row.count("min_distance_m"), 0u) << key;
      continue;
    }
    if (c.model != "penalty") {
      EXPECT_EQ(std::get<bool>(row.at("failed")), false) << key << ": " << ToText(row.at("failure"));
    }
    distance[key] = std::get<double>(row.at("min_distance_m"));
  }
  ASSERT_EQ(distance.size(), 3u);
  // Both barriers land and rest within their reach: longrange at about 3.5 mm (mu = 1e-6), ipc
  // within dhat = 1 mm.
  EXPECT_GT(distance["longrange/spatial"], 0.0);
  EXPECT_LT(distance["longrange/spatial"], 5e-3);
  EXPECT_GT(distance["ipc/spatial"], 0.0);
  EXPECT_LT(distance["ipc/spatial"], 1e-3);
  // Penalty's springs act only once the cube is inside the ground.
  EXPECT_LT(distance["penalty/spatial"], 0.0);
}

// An invalid option value stops the run before any case runs or any file is written.
TEST(BoxDrop, InvalidOptionValueFailsBeforeRunning) {
  const testing::ScratchDir scratch;
  const fs::path out = scratch.path();
  RunOptions options;
  options.out_dir = out.string();
  options.progress = false;
  options.overrides = {"penalty.stiffness=-5"};
  try {
    RunExperiment(BoxDropExperiment(), options);
    FAIL() << "negative stiffness accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("stiffness must be in [1, 1e+12], got -5"));
  }
  EXPECT_FALSE(fs::exists(out / "box_drop" / "box_drop.csv"));
}

}  // namespace box_drop_test
}  // namespace arena
