// spider (seed 003 Fig. 11): the scene stands on its feet; the objective's gradient (the sines
// and the feet's shape) against central differences of its value at a contact state, as the
// issue's directional gradcheck; the sweep's variants and input checks; a run of both variants;
// the claim from a table. Its quick profile is checked against the committed reference with
// every experiment's (quick_profiles_test.cc).
#include "experiments/spider/spider.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "core/common/random.h"
#include "experiments/common/settings/design_file.h"
#include "experiments/common/meters/hull_distances.h"
#include "experiments/common/tasks/walker_task.h"
#include "harness/design_export.h"
#include "models/registry.h"
#include "scenes/spider_scenes.h"
#include "tests/experiments/experiment_test_config.h"
#include "tests/scratch_dir.h"
#include "trajectory/rollout.h"

namespace arena {
namespace spider_test {

using ::testing::HasSubstr;
using testing_config::InvalidArgumentMessage;
using testing_config::QuickConfig;
using testing_config::RowNumber;
using options_detail::FormatDouble;

std::unique_ptr<Simulator> Sdrs(bool codesign) {
  OptionMap options{{"timestep", "0.01"}, {"x0", "0.02"}};
  if (codesign) {
    options["design_derivatives"] = "true";
    options["design_colliders"] = kSpiderFootPrefix;
  }
  return MakeSimulator("sdrs", SpiderScene(), options);
}

// With its targets at zero the spider drops its 4 cm onto its feet and stands on the slope:
// the feet (and only they) touch, the body stays up and in place, no hull reaches the ground.
TEST(Spider, StandsOnItsFeetOnTheSlope) {
  auto sim = Sdrs(false);
  const Scene& scene = sim->scene();
  EXPECT_EQ(scene.nv(), 16);
  EXPECT_EQ(scene.nu(), 24);
  Rollout r;
  RunRollout(*sim, DefaultState(scene), VecX::Zero(60 * scene.nu()), &r);
  ASSERT_TRUE(r.ok()) << r.failure;
  EXPECT_GT(r.reports.back().contacts, 0);
  // Falling through the tilted gravity it drifts ~1 cm down the slope, then stays.
  const State& end = r.states.back();
  EXPECT_LT(std::abs(end.q[kSpiderRootX] - r.states[40].q[kSpiderRootX]), 1e-3) << "it slides down the slope";
  EXPECT_LT(end.v.head<3>().norm(), 0.01);
  EXPECT_GT(end.q[kSpiderRootZ], -0.05) << "the body sank";
  EXPECT_GT(MinimumHullDistance(*sim, r.states), 0.0);
}

// dL/dx . w against (L(x + h w) - L(x - h w)) / 2h over 20 steps, the feet on the ground in the
// last ten: the directional gradcheck of the co-design gradient at 1e-5.
void CheckDirections(bool codesign) {
  auto sim = Sdrs(codesign);
  auto& ip = *sim;
  WalkerTaskOptions o;
  o.steps = 20;
  WalkerObjective objective(ip, o, codesign);
  const VecX x = objective.Start();
  VecX g;
  ASSERT_TRUE(std::isfinite(objective.Evaluate(x, &g)));
  ASSERT_EQ(g.size(), objective.dimension());
  EXPECT_GT(objective.last_rollout().contact_steps(), 5);
  EXPECT_EQ(objective.num_design_parameters() > 0, codesign);
  Rng rng(5);
  for (int d = 0; d < 3; ++d) {
    VecX w(x.size());
    for (int i = 0; i < w.size(); ++i) w[i] = Uniform(rng, -1.0, 1.0);
    w /= w.norm();
    const double h = 1e-5;
    const double fd = (objective.Evaluate(x + h * w, nullptr) - objective.Evaluate(x - h * w, nullptr)) / (2.0 * h);
    EXPECT_NEAR(g.dot(w), fd, 1e-5 * std::max(1.0, std::abs(fd))) << "direction " << d;
    EXPECT_GT(std::abs(fd), 1e-4) << "direction " << d << ": the loss moves";
  }
  if (codesign) {  // the feet alone
    VecX w = VecX::Zero(x.size());
    for (int i = x.size() - objective.num_design_parameters(); i < w.size(); ++i) w[i] = Uniform(rng, -1.0, 1.0);
    w /= w.norm();
    const double h = 1e-5;
    const double fd = (objective.Evaluate(x + h * w, nullptr) - objective.Evaluate(x - h * w, nullptr)) / (2.0 * h);
    EXPECT_NEAR(g.dot(w), fd, 1e-5 * std::max(1e-3, std::abs(fd))) << "design direction";
    EXPECT_GT(std::abs(fd), 1e-7) << "the feet move the loss";
  }
}

TEST(Spider, ControlGradientMatchesDifferences) { CheckDirections(false); }
TEST(Spider, CodesignGradientMatchesDifferencesAtAContactState) { CheckDirections(true); }

TEST(Spider, DesignIsBoundedAboutTheStart) {
  auto sim = Sdrs(true);
  WalkerObjective objective(*sim, {}, true);
  const int np = objective.num_design_parameters();
  ASSERT_EQ(np, 4 * 3 * 32 * 3);  // 4 feet of 3 hulls of 32 vertices
  EXPECT_TRUE(objective.upper().head(objective.dimension() - np).array().isInf().all());
  EXPECT_DOUBLE_EQ(objective.upper()[objective.dimension() - 1], 0.2);  // 2 cm in units of 0.1 m
  VecX x = objective.Start();
  EXPECT_EQ(objective.DesignOf(x), sim->DesignParameters());
  x.tail(np).setConstant(0.2);
  EXPECT_NEAR((objective.DesignOf(x) - sim->DesignParameters()).maxCoeff(), 0.02, 1e-15);
}

const char* kConfig =
    "models = [\"sdrs\"]\n"
    "variants = [\"control\", \"codesign\"]\n"
    "timestep_s = 0.01\n"
    "steps = 12\n"
    "terms = 1\n"
    "iterations = 2\n"
    "learning_rate = 1e-2\n"
    "adam_beta1 = 0.9\n"
    "adam_beta2 = 0.999\n"
    "slope_deg = 10\n"
    "target_distance_m = 10\n"
    "initial_amplitude_rad = 0.2\n"
    "design = \"\"\n"
    "[quick.options.sdrs]\n"
    "x0 = 0.02\n";

TEST(Spider, ExpandsVariantsAndChecksThem) {
  const Sweep sweep = SpiderExperiment().Expand(QuickConfig("spider", kConfig), {"sdrs", "ipc", "mujoco"});
  ASSERT_EQ(sweep.cases.size(), 3u);  // sdrs both, ipc control only (no design derivatives), no mujoco
  EXPECT_THAT(sweep.notes.back(), HasSubstr("mujoco: skipped"));
  EXPECT_EQ(sweep.cases[0].id, "sdrs/control");
  EXPECT_EQ(sweep.cases[1].model_options.at("design_colliders"), kSpiderFootPrefix);
  EXPECT_EQ(sweep.cases[2].id, "ipc/control");
  std::string bad = kConfig;
  bad.replace(bad.find("\"codesign\""), 10, "\"shape\"");
  EXPECT_THAT(InvalidArgumentMessage([&] { SpiderExperiment().Expand(QuickConfig("spider", bad), {"sdrs"}); }),
              HasSubstr("variants: unknown 'shape'"));
  std::string steep = kConfig;
  steep.replace(steep.find("slope_deg = 10"), 14, "slope_deg = 60");
  EXPECT_THAT(InvalidArgumentMessage([&] { SpiderExperiment().Expand(QuickConfig("spider", steep), {"sdrs"}); }),
              HasSubstr("slope_deg"));
}

TEST(Spider, RunsBothVariants) {
  const SpiderExperiment e;
  for (const Case& c : e.Expand(QuickConfig("spider", kConfig), {"sdrs"}).cases) {
    SCOPED_TRACE(c.id);
    const std::vector<Row> rows = e.Run(c);
    int iterations = 0, feet = 0;
    const Row* last = nullptr;
    for (const Row& r : rows) {
      const std::string record = std::get<std::string>(r.at("record"));
      if (record == "iteration") {
        ++iterations;
        last = &r;
      }
      feet += record == "design";
    }
    ASSERT_EQ(iterations, 3);  // the start and 2 iterations
    EXPECT_EQ(feet, c.id == "sdrs/codesign" ? 2 * 4 * 3 * 32 : 0);  // every foot hull vertex, initial and optimised
    EXPECT_GT(RowNumber(*last, "min_distance_m"), 0.0) << "a hull reached the ground";
    EXPECT_LE(RowNumber(*last, "best_loss"), RowNumber(rows.front(), "loss"));
  }
}

// A run's optimised feet, written by `arena export-design` and read back with --set design: the
// next run starts from them (both variants), and a file that does not fit says why.
TEST(Spider, StartsFromAnExportedDesign) {
  const SpiderExperiment e;
  const Sweep first = e.Expand(QuickConfig("spider", kConfig), {"sdrs"});
  const Case& codesign = first.cases.at(1);
  ASSERT_EQ(codesign.id, "sdrs/codesign");
  const std::vector<Row> rows = e.Run(codesign);
  // The CSV with the design rows, then the OBJ file.
  std::ostringstream csv;
  csv << "case_id,record,stage,collider,vertex,x_m,y_m,z_m\n";
  VecX optimised;
  for (const Row& r : rows) {
    if (std::get<std::string>(r.at("record")) != "design" || std::get<std::string>(r.at("stage")) != "optimised") continue;
    csv << codesign.id << ",design,optimised," << std::get<std::string>(r.at("collider")) << "," << RowNumber(r, "vertex") << ","
        << FormatDouble(RowNumber(r, "x_m")) << "," << FormatDouble(RowNumber(r, "y_m")) << "," << FormatDouble(RowNumber(r, "z_m")) << "\n";
    optimised.conservativeResize(optimised.size() + 3);
    optimised.tail<3>() << RowNumber(r, "x_m"), RowNumber(r, "y_m"), RowNumber(r, "z_m");
  }
  const testing::ScratchDir scratch;
  const std::string& dir = scratch.path();
  std::ofstream(dir + "/spider.csv") << csv.str();
  DesignExportOptions export_options;
  export_options.csv = dir + "/spider.csv";
  export_options.out = dir + "/feet.obj";
  ExportDesign(export_options);
  // Read back: the same numbers, in the design parameters' order.
  auto sim = Sdrs(true);
  auto& ip = *sim;
  EXPECT_LT((DesignFromFile(ip, dir + "/feet.obj") - optimised).lpNorm<Eigen::Infinity>(), 1e-15);
  // A sweep that starts there: both variants carry the design.
  std::string config = kConfig;
  config.replace(config.find("design = \"\""), 11, "design = \"" + dir + "/feet.obj\"");
  const Sweep second = e.Expand(QuickConfig("spider", config), {"sdrs"});
  for (const Case& c : second.cases) EXPECT_EQ(c.model_options.at("design_derivatives"), "true") << c.id;
  const std::vector<Row> again = e.Run(second.cases.at(1));
  for (const Row& r : again) {
    if (std::get<std::string>(r.at("record")) == "design" && std::get<std::string>(r.at("stage")) == "initial") {
      EXPECT_EQ(std::get<std::string>(r.at("collider")).rfind("foot", 0), 0u);
    }
  }
  // The initial design rows of the second run are the first run's optimised ones.
  VecX initial;
  for (const Row& r : again) {
    if (std::get<std::string>(r.at("record")) != "design" || std::get<std::string>(r.at("stage")) != "initial") continue;
    initial.conservativeResize(initial.size() + 3);
    initial.tail<3>() << RowNumber(r, "x_m"), RowNumber(r, "y_m"), RowNumber(r, "z_m");
  }
  EXPECT_LT((initial - optimised).lpNorm<Eigen::Infinity>(), 1e-15);
  // Files that do not fit.
  std::ofstream(dir + "/short.obj") << "o foot0_0\nv 0 0 0\n";
  EXPECT_THAT(InvalidArgumentMessage([&] { DesignFromFile(ip, dir + "/short.obj"); }),
              HasSubstr("object 'foot0_0' has 1 points, its collider 32"));
  std::ofstream(dir + "/other.obj") << "o hand\nv 0 0 0\n";
  EXPECT_THAT(InvalidArgumentMessage([&] { DesignFromFile(ip, dir + "/other.obj"); }), HasSubstr("no object 'foot0_0'"));
  std::ofstream(dir + "/bad.obj") << "v 0 0 0\n";
  EXPECT_THROW(ReadDesignFile(dir + "/bad.obj"), ParseError);
  std::ofstream(dir + "/nan.obj") << "o foot0_0\nv 0 nan 0\n";
  EXPECT_THROW(ReadDesignFile(dir + "/nan.obj"), ParseError);
  config.replace(config.find(dir + "/feet.obj"), (dir + "/feet.obj").size(), dir + "/missing.obj");
  EXPECT_THAT(InvalidArgumentMessage([&] { e.Expand(QuickConfig("spider", config), {"sdrs"}); }), HasSubstr("missing.obj"));
}

TEST(Spider, SummarizesTheClaim) {
  const ResultTable t = ResultTable::ParseCsv(
      "model,variant,record,iterations,steps,loss,best_loss,distance_m,best_distance_m,failure\n"
      "sdrs,control,iteration,1,5,90,90,0.5,0.5,\n"
      "sdrs,control,iteration,1,5,80,80,1.0,1.0,\n"
      "sdrs,codesign,iteration,1,5,90,90,0.5,0.5,\n"
      "sdrs,codesign,iteration,1,5,70,70,1.5,1.5,\n",
      "table");
  const std::vector<ClaimResult> claims = SpiderExperiment().Summarize(t);
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].id, "spider.codesign_distance_ratio");
  EXPECT_DOUBLE_EQ(claims[0].ours, 1.5);
  EXPECT_DOUBLE_EQ(claims[0].values.at("control_distance_m"), 1.0);
  EXPECT_THAT(claims[0].note, HasSubstr("co-design 1.5 m, control only 1 m"));
}

}  // namespace spider_test
}  // namespace arena
