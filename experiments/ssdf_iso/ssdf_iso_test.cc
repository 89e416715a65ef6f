// ssdf_iso (seed 001 Fig. 4): the zero iso-contour of a 2D box's SSDF lies on the box at a small
// temperature and on an ellipse, far from the box, at a large one; the sweep and its checks; the
// claim from a table. Its quick profile is checked against the committed reference with every
// experiment's (quick_profiles_test.cc).
#include "experiments/ssdf_iso/ssdf_iso.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace ssdf_iso_test {

using testing_config::CasesById;
using testing_config::QuickConfig;

const char* kConfig =
    "half_extents_m = [0.5, 0.25]\n"
    "patch_size_m = 0.125\n"
    "angles = 256\n"
    "temperatures_m2 = [1e-3, 2.0]\n";

std::map<std::string, double> Summary(const std::vector<Row>& rows) {
  std::map<std::string, double> out;
  for (const auto& [k, v] : rows.back()) {
    if (const auto* d = std::get_if<double>(&v)) out[k] = *d;
    if (const auto* i = std::get_if<std::int64_t>(&v)) out[k] = static_cast<double>(*i);
  }
  return out;
}

TEST(SsdfIso, SmallTemperatureGivesTheBoxLargeAnEllipse) {
  const Sweep sweep = SsdfIsoExperiment().Expand(QuickConfig("ssdf_iso", kConfig), {"scm", "mujoco"});
  ASSERT_EQ(sweep.cases.size(), 2u);
  ASSERT_EQ(sweep.notes.size(), 1u) << "mujoco is skipped with a note";
  const auto cases = CasesById(sweep);
  const std::vector<Row> sharp = SsdfIsoExperiment().Run(*cases.at("scm/eps1=0.001"));
  ASSERT_EQ(sharp.size(), 257u);
  // The ray along +x crosses the box's edge at x = 0.5 (a patch centre lies on that ray).
  EXPECT_NEAR(std::get<double>(sharp.front().at("x_m")), 0.5, 1e-9);
  const std::map<std::string, double> s = Summary(sharp);
  EXPECT_EQ(s.at("patches"), 24.0);
  EXPECT_LT(s.at("box_hausdorff_m"), 0.01);
  const std::map<std::string, double> round = Summary(SsdfIsoExperiment().Run(*cases.at("scm/eps1=2")));
  EXPECT_GT(round.at("box_hausdorff_m"), 0.5);
  EXPECT_LT(round.at("ellipse_distance_m"), 0.01 * round.at("ellipse_a_m"));
  EXPECT_GT(round.at("ellipse_a_m"), round.at("ellipse_b_m")) << "the rectangle's long axis survives";
  EXPECT_THROW(SsdfIsoExperiment().Expand(QuickConfig("ssdf_iso", "half_extents_m = [0.5]\npatch_size_m = 0.1\n"
                                                                  "angles = 64\ntemperatures_m2 = [1e-3]\n"),
                                          {"scm"}),
               InvalidArgument);
}

TEST(SsdfIso, ClaimReadsTheSmallestAndLargestTemperature) {
  const ResultTable t = ResultTable::ParseCsv(
      "record,eps1_m2,box_hausdorff_m,ellipse_distance_m\n"
      "summary,1e-3,0.002,0.12\nsummary,0.1,0.1,0.07\nsummary,2,1.2,0.001\ncontour,2,,\n",
      "table");
  const std::vector<ClaimResult> claims = SsdfIsoExperiment().Summarize(t);
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_DOUBLE_EQ(claims[0].ours, 0.002);
  EXPECT_DOUBLE_EQ(claims[0].values.at("box_distance_largest_eps"), 1.2);
  EXPECT_DOUBLE_EQ(claims[0].values.at("ellipsoid_distance_largest_eps"), 0.001);
}

}  // namespace ssdf_iso_test
}  // namespace arena
