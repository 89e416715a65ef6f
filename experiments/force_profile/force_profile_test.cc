// force_profile (seed 001 Figs. 1, 5): the sweep's paths and checks, one line end to end for
// scm and mujoco (forces away from the fixed sphere, zero far away), and the smoothness measures
// behind the claims on profiles with known shape. Its quick profile is checked against the
// committed reference with every experiment's (quick_profiles_test.cc).
#include "experiments/force_profile/force_profile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "tests/experiments/experiment_test_config.h"

namespace arena {
namespace force_profile_test {

using testing_config::CasesById;
using testing_config::NumberParam;
using testing_config::QuickConfig;

const char* kConfig =
    "timestep_s = 1e-3\n"
    "line_samples = 11\n"
    "line_offsets_m = [0.0, 0.1]\n"
    "half_width_m = 0.3\n"
    "grid_samples = 3\n";

TEST(ForceProfile, SweepHasALinePerOffsetAndAGridPerModel) {
  const Sweep sweep = ForceProfileExperiment().Expand(QuickConfig("force_profile", kConfig), {"scm", "mujoco"});
  const auto cases = CasesById(sweep);
  ASSERT_EQ(cases.size(), 6u);
  ASSERT_TRUE(cases.count("scm/line/x=0.1"));
  EXPECT_EQ(cases.at("scm/line/x=0.1")->model_options.at("timestep"), "0.001");
  EXPECT_DOUBLE_EQ(NumberParam(*cases.at("scm/line/x=0.1"), "line_offset_m"), 0.1);
  EXPECT_DOUBLE_EQ(NumberParam(*cases.at("mujoco/grid"), "samples"), 3.0);
  EXPECT_THROW(ForceProfileExperiment().Expand(QuickConfig("force_profile", std::string(kConfig) + "[quick.options.scm]\ntimestep = 0.01\n"),
                                               {"scm"}),
               InvalidArgument);
  EXPECT_THROW(ForceProfileExperiment().Expand(QuickConfig("force_profile", "timestep_s = 0\nline_samples = 11\n"
                                                                            "line_offsets_m = [0.0]\nhalf_width_m = 0.3\n"
                                                                            "grid_samples = 0\n"),
                                               {"scm"}),
               InvalidArgument);
}

// Through the centres: far away no force; overlapping, the probe is pushed away from the fixed
// sphere (f_y has the sign of y) by both models.
TEST(ForceProfile, LineThroughTheCentresPushesTheProbeOut) {
  const Sweep sweep = ForceProfileExperiment().Expand(QuickConfig("force_profile", kConfig), {"scm", "mujoco"});
  for (const std::string id : {"scm/line/x=0", "mujoco/line/x=0"}) {
    const std::vector<Row> rows = ForceProfileExperiment().Run(*CasesById(sweep).at(id));
    ASSERT_EQ(rows.size(), 11u);
    for (const Row& r : rows) {
      const double y = std::get<double>(r.at("y_m")), gap = std::get<double>(r.at("gap_m"));
      const double fy = std::get<double>(r.at("fy_n"));
      EXPECT_FALSE(std::get<bool>(r.at("failed"))) << id;
      if (gap > 0.1) {
        EXPECT_NEAR(fy, 0.0, 1e-6) << id << " y " << y;
      }
      if (gap < -0.01 && std::abs(y) > 0.06) {
        EXPECT_GT(fy * y, 0.0) << id << " y " << y;
      }
    }
  }
}

// A smooth bump and a kinked ramp on the same 41 samples: bend is small for the first, O(1)
// for the second; the claims read the line beside the centres.
TEST(ForceProfile, BendSeparatesASmoothProfileFromAKink) {
  std::ostringstream csv;
  csv << "model,path,line_offset_m,y_m,gap_m,fy_n,force_n\n";
  for (int k = 0; k <= 40; ++k) {
    const double y = -0.3 + 0.015 * k, gap = std::abs(y) - 0.15;
    const double smooth = 100.0 * std::exp(-gap / 0.02) / (1.0 + std::exp(-gap / 0.02));
    const double kink = 1000.0 * std::max(0.0, -gap);
    csv << "scm,line,0.1," << y << "," << gap << "," << (y < 0 ? -smooth : smooth) << "," << smooth << "\n";
    csv << "mujoco,line,0.1," << y << "," << gap << "," << (y < 0 ? -kink : kink) << "," << kink << "\n";
  }
  const ResultTable t = ResultTable::ParseCsv(csv.str(), "table");
  std::map<std::string, ClaimResult> claims;
  for (const ClaimResult& c : ForceProfileExperiment().Summarize(t)) claims[c.id] = c;
  ASSERT_EQ(claims.size(), 2u);
  EXPECT_LT(claims.at("force_profile.scm_smooth").ours, 0.3);
  EXPECT_GT(claims.at("force_profile.scm_smooth").values.at("reach_m"), 0.05);
  EXPECT_GT(claims.at("force_profile.mujoco_discontinuous").ours, 0.5);
  EXPECT_NEAR(claims.at("force_profile.mujoco_discontinuous").values.at("jump_x100mm"), (135.0 + 150.0) / 150.0, 1e-9)
      << "the flip of f_y across y = 0 (from -135 N at y = -0.015 to +150 N) over its largest 150 N";
}

}  // namespace force_profile_test
}  // namespace arena
