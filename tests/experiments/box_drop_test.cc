// box_drop: the paper's scene and initial conditions, the sweep and its input checks. Its quick
// profile is checked against the committed reference with every experiment's
// (quick_profiles_test.cc), on one thread against a reference written on two.
#include "experiments/box_drop.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <numbers>
#include <set>

#include <unistd.h>

#include "core/common/error.h"
#include "core/multibody/data.h"
#include "experiments/common/metrics.h"
#include "config/profile_config.h"
#include "harness/runner.h"
#include "models/registry.h"
#include "scenes/box_drop_scenes.h"

namespace arena {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::vector<std::string> ModelNames() {
  std::vector<std::string> names;
  for (const auto& m : Models()) names.push_back(m.name);
  return names;
}

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
  const ProfileConfig config = ProfileConfig::Load(std::string(ARENA_SOURCE_DIR) + "/experiments/configs/box_drop.toml",
                                                   "quick", {}, ModelNames());
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
  const ProfileConfig config = ProfileConfig::Load(std::string(ARENA_SOURCE_DIR) + "/experiments/configs/box_drop.toml",
                                                   "quick", {"frequencies_hz=[10, 0]"}, ModelNames());
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
  const ProfileConfig config = ProfileConfig::Load(std::string(ARENA_SOURCE_DIR) + "/experiments/configs/box_drop.toml",
                                                   "quick", {"penalty.timestep=0.01"}, ModelNames());
  try {
    BoxDropExperiment().Expand(config, {"penalty"});
    FAIL() << "timestep override accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("penalty.timestep is set by the experiment itself"));
    EXPECT_THAT(e.what(), HasSubstr("frequencies_hz"));
  }
}

// An invalid option value stops the run before any case runs or any file is written.
TEST(BoxDrop, InvalidOptionValueFailsBeforeRunning) {
  const fs::path out = fs::temp_directory_path() / ("arena_box_drop_bad_" + std::to_string(::getpid()));
  fs::remove_all(out);
  RunOptions options;
  options.out_dir = out.string();
  options.progress = false;
  options.overrides = {"penalty.stiffness=-5"};
  try {
    RunExperiment(BoxDropExperiment(), options);
    FAIL() << "negative stiffness accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("stiffness must be >= 0"));
  }
  EXPECT_FALSE(fs::exists(out / "box_drop" / "box_drop.csv"));
  fs::remove_all(out);
}

}  // namespace
}  // namespace arena
