#include "experiments/common/sweeps/sweep_limits.h"

#include <cmath>

#include "config/profile_config.h"
#include "core/common/error.h"
#include "core/common/options.h"

namespace arena {

void CheckSweepSize(const ProfileConfig& config, const std::string& experiment,
                    const std::vector<SweepAxis>& axes) {
  double product = 1.0;
  std::string factors;
  for (const auto& [name, size] : axes) {
    product *= size;
    factors += (factors.empty() ? "" : " x ") + name + " " + options_detail::FormatDouble(size);
  }
  const std::string where = config.file() + " [" + config.profile() + "]: ";
  if (product > static_cast<double>(config.max_cases())) {
    throw InvalidArgument(where + experiment + " would run " + options_detail::FormatDouble(product) +
                          " cases (" + factors + "), more than the " + std::to_string(config.max_cases()) +
                          " a sweep may have; make one of them smaller");
  }
}

std::int64_t CheckedSteps(const ProfileConfig& config, const std::string& duration_key, double duration_s,
                          const std::string& frequency_key, double frequency_hz) {
  const double steps = std::floor(duration_s * frequency_hz + 1e-9);
  const std::string where = config.file() + " [" + config.profile() + "]: ";
  const std::string how = duration_key + " " + options_detail::FormatDouble(duration_s) + " s at " +
                          frequency_key + " " + options_detail::FormatDouble(frequency_hz) + " Hz";
  if (!(steps >= 1.0)) {
    throw InvalidArgument(where + how + " is less than one step (" + duration_key +
                          " * frequency < 1); a case must take at least one step: make " + duration_key +
                          " longer");
  }
  if (steps > static_cast<double>(kMaxStepsPerCase)) {
    throw InvalidArgument(where + how + " is " + options_detail::FormatDouble(steps) + " steps, more than the " +
                          std::to_string(kMaxStepsPerCase) + " a case may take; make " + duration_key +
                          " shorter");
  }
  return static_cast<std::int64_t>(steps);
}

}  // namespace arena
