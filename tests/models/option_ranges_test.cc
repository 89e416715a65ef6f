// Every option of every registered model has a valid range that Validate() enforces and that
// `arena models --options` prints; per model, a table of bad values (each rejected with the key
// and the range in the message) and of the values our configs, tests and docs use (accepted).
// The registry's validate applies options without building a simulator, so this is fast.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/common/error.h"
#include "models/registry.h"

namespace arena {
namespace option_ranges_test {

struct Bad {
  std::string key, value;
  std::string message;  // a part of the error: the key, the range and the value given
};
struct Good {
  std::string key, value;
};

std::string ErrorOf(const std::string& model, const OptionMap& options) {
  try {
    FindModel(model).validate(options);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "";
}

void CheckTable(const std::string& model, const std::vector<Bad>& bad, const std::vector<Good>& good) {
  for (const Bad& b : bad) {
    const std::string error = ErrorOf(model, {{b.key, b.value}});
    EXPECT_NE(error.find(b.message), std::string::npos)
        << model << "." << b.key << "=" << b.value << ": got \"" << error << "\"";
  }
  for (const Good& g : good) {
    EXPECT_EQ(ErrorOf(model, {{g.key, g.value}}), "") << model << "." << g.key << "=" << g.value;
  }
}

TEST(OptionRanges, EveryNumericOptionOfEveryModelHasAPrintedRange) {
  for (const ModelInfo& m : Models()) {
    for (const OptionInfo& o : m.options()) {
      if (o.type != "double" && o.type != "int") continue;
      EXPECT_FALSE(o.valid.empty()) << m.name << "." << o.key << " has no valid range";
      EXPECT_NE(o.doc.find("; valid: " + o.valid), std::string::npos) << m.name << "." << o.key << ": " << o.doc;
    }
  }
}

// Derived from each printed range, so a new option is covered without a new row: the default and
// both ends are accepted; NaN, the infinities and values just outside are rejected.
TEST(OptionRanges, EveryRangeIsEnforcedAtBothEnds) {
  int checked = 0;
  for (const ModelInfo& m : Models()) {
    for (const OptionInfo& o : m.options()) {
      if (o.valid.empty()) continue;
      ++checked;
      const bool zero_or = o.valid.rfind("0 or ", 0) == 0;
      const std::string interval = zero_or ? o.valid.substr(5) : o.valid;
      const size_t comma = interval.find(',');
      const double lo = std::stod(interval.substr(1, comma - 1));
      const double hi = std::stod(interval.substr(comma + 2, interval.size() - comma - 3));
      const bool lo_open = interval[0] == '(';
      const std::string what = m.name + "." + o.key + " " + o.valid;
      auto accepts = [&](const std::string& value) { return ErrorOf(m.name, {{o.key, value}}).empty(); };
      auto rejects_with_range = [&](const std::string& value) {
        const std::string error = ErrorOf(m.name, {{o.key, value}});
        return error.find(o.key) != std::string::npos && error.find(o.valid.substr(zero_or ? 5 : 0)) != std::string::npos;
      };
      EXPECT_TRUE(accepts(o.default_value)) << what << ": default " << o.default_value;
      EXPECT_TRUE(accepts(options_detail::FormatDouble(hi))) << what;
      EXPECT_EQ(accepts(options_detail::FormatDouble(lo)), !lo_open || (zero_or && lo == 0.0)) << what;
      if (zero_or) {
        EXPECT_TRUE(accepts("0")) << what;
      }
      if (o.type == "int") {
        EXPECT_TRUE(rejects_with_range(std::to_string(static_cast<long long>(hi) + 1))) << what;
        EXPECT_TRUE(rejects_with_range(std::to_string(static_cast<long long>(lo) - 1))) << what;
        continue;
      }
      EXPECT_TRUE(rejects_with_range(options_detail::FormatDouble(std::nextafter(hi, 2.0 * hi + 1.0)))) << what;
      if (lo != 0.0) {
        EXPECT_TRUE(rejects_with_range(options_detail::FormatDouble(std::nextafter(lo, 0.0)))) << what;
      }
      EXPECT_TRUE(rejects_with_range(options_detail::FormatDouble(-hi))) << what;
      for (const char* value : {"nan", "inf", "-inf", "1e308"}) {
        EXPECT_TRUE(rejects_with_range(value)) << what << ": " << value;
      }
    }
  }
  EXPECT_GE(checked, 32);  // penalty 4, silico 8, bilevel 9, nimble 2, mujoco 6, dart 3
}

TEST(OptionRanges, Penalty) {
  CheckTable("penalty",
             {{"stiffness", "0", "stiffness must be in [1, 1e+12], got 0"},  // the box falls 12 m
              {"stiffness", "-1e4", "stiffness must be in [1, 1e+12]"},
              {"friction_velocity", "inf", "friction_velocity must be in [1e-06, 1], got inf"},  // no friction
              {"friction_velocity", "0", "friction_velocity must be in [1e-06, 1]"},
              {"damping_ratio", "-0.5", "damping_ratio must be in [0, 100]"},
              {"timestep", "0", "timestep must be in [1e-06, 1], got 0"},
              {"timestep", "10", "timestep must be in [1e-06, 1]"}},
             {{"stiffness", "1e2"}, {"stiffness", "1e7"}, {"stiffness", "2e4"}, {"damping_ratio", "0"},
              {"damping_ratio", "1"}, {"timestep", "1e-4"}, {"timestep", "0.1"}, {"friction_velocity", "0.01"}});
}

TEST(OptionRanges, Silico) {
  CheckTable("silico",
             {{"rho", "1e308", "rho must be in [1e-16, 0.01], got 1e+308"},  // the step does nothing
              {"rho", "0", "rho must be in [1e-16, 0.01]"},
              {"residual_tolerance", "inf", "residual_tolerance must be 0 or in [1e-14, 0.001], got inf"},
              {"residual_tolerance", "1e-300", "residual_tolerance must be 0 or in [1e-14, 0.001]"},
              {"max_iterations", "2000000000", "max_iterations must be in [1, 1000], got 2000000000"},
              {"max_iterations", "0", "max_iterations must be in [1, 1000]"},
              {"max_iterations", "1e10", "out of range for an integer"},
              {"derivative_rho", "1", "derivative_rho must be 0 or in [1e-16, 0.01]"},
              {"warm_start_backstep", "-1", "warm_start_backstep must be in [0, 1]"},
              {"primal_regularization", "nan", "primal_regularization must be in [0, 0.01]"}},
             {{"rho", "1e-3"}, {"rho", "1e-9"}, {"rho", "1e-10"}, {"residual_tolerance", "0"},
              {"residual_tolerance", "1e-5"}, {"residual_tolerance", "1e-13"}, {"max_iterations", "200"},
              {"derivative_rho", "0"}, {"primal_regularization", "1e-6"}, {"timestep", "0.05"}});
}

TEST(OptionRanges, Bilevel) {
  CheckTable("bilevel",
             {{"rho", "1e308", "rho must be in [1e-16, 0.01]"},
              {"max_iterations", "2000000000", "max_iterations must be in [1, 1000]"},
              {"inner_max_iterations", "2000000000", "inner_max_iterations must be in [1, 1000]"},
              {"inner_residual_tolerance", "1e-300", "inner_residual_tolerance must be in [1e-14, 0.001]"},
              {"inner_residual_tolerance", "0", "inner_residual_tolerance must be in [1e-14, 0.001]"},
              {"inner_rho", "inf", "inner_rho must be in [1e-16, 0.01]"},
              {"residual_tolerance", "-1", "residual_tolerance must be 0 or in [1e-14, 0.001]"},
              {"dual_regularization", "1", "dual_regularization must be in [0, 0.01]"}},
             {{"rho", "1e-5"}, {"rho", "1e-10"}, {"residual_tolerance", "1e-6"}, {"primal_regularization", "1e-6"},
              {"dual_regularization", "1e-8"}, {"inner_rho", "1e-5"}, {"inner_residual_tolerance", "1e-4"},
              {"inner_residual_tolerance", "1e-11"}, {"inner_max_iterations", "200"}});
}

TEST(OptionRanges, Nimble) {
  CheckTable("nimble",
             {{"max_contact_depth", "0", "max_contact_depth must be in [1e-06, 100], got 0"},
              {"max_contact_depth", "inf", "max_contact_depth must be in [1e-06, 100]"},
              {"timestep", "-0.001", "timestep must be in [1e-06, 1]"}},
             {{"max_contact_depth", "0.03"}, {"max_contact_depth", "10"}, {"timestep", "0.01"}});
}

TEST(OptionRanges, Mujoco) {
  CheckTable("mujoco",
             {{"iterations", "2000000000", "iterations must be in [1, 1000]"},
              {"iterations", "0", "iterations must be in [1, 1000]"},
              {"tolerance", "1", "tolerance must be in [0, 0.001], got 1"},
              {"impratio", "0", "impratio must be in [0.01, 100]"},
              {"fd_step", "-1e-6", "fd_step must be in [1e-12, 0.1]"},
              {"fd_ridders_step", "inf", "fd_ridders_step must be in [1e-12, 1]"}},
             {{"iterations", "200"}, {"tolerance", "1e-10"}, {"tolerance", "0"}, {"impratio", "2"},
              {"timestep", "0.0005"}, {"fd_ridders_step", "1e-5"}});
}

TEST(OptionRanges, Dart) {
  CheckTable("dart",
             {{"timestep", "0", "timestep must be in [1e-06, 1], got 0"},
              {"fd_step", "-1e-6", "fd_step must be in [1e-12, 0.1]"},
              {"fd_ridders_step", "0", "fd_ridders_step must be in [1e-12, 1]"}},
             {{"timestep", "0.001"}, {"fd_step", "1e-6"}, {"fd_ridders_step", "1e-3"}});
}

TEST(OptionRanges, Sdrs) {
  CheckTable("sdrs",
             {{"kappa", "0", "kappa must be in [1e-08, 10000], got 0"},  // no contact at all
              {"x0", "1", "x0 must be in [1e-04, 0.9], got 1"},          // the norm barrier needs x0 < 1
              {"d0", "-0.01", "d0 must be in [0, 0.1]"},
              {"norm_weight", "0", "norm_weight must be in [1e-06, 1e+06]"}},  // L has no minimum
             {{"kappa", "1e-2"}, {"kappa", "1e-4"}, {"x0", "0.1"}, {"x0", "0.01"}, {"d0", "0"}, {"d0", "0.005"},
              {"norm_weight", "1"}, {"timestep", "0.01"}});
}

// The hang: a cap far above any use and a tolerance no solver reaches.
TEST(OptionRanges, SolverLimitsThatWouldHangAreRejected) {
  EXPECT_NE(ErrorOf("silico", {{"max_iterations", "2000000000"}, {"residual_tolerance", "1e-300"}}), "");
  EXPECT_NE(ErrorOf("bilevel", {{"inner_max_iterations", "2000000000"}, {"inner_residual_tolerance", "1e-300"}}), "");
  EXPECT_NE(ErrorOf("mujoco", {{"iterations", "2000000000"}, {"tolerance", "0"}}), "");
}

}  // namespace option_ranges_test
}  // namespace arena
