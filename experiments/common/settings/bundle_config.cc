#include "experiments/common/settings/bundle_config.h"

#include <algorithm>

#include "config/profile_config.h"
#include "core/common/error.h"
#include "experiments/common/settings/case_params.h"

namespace arena {

namespace {
constexpr std::int64_t kMaxBundleSamples = 10'000;
}  // namespace

std::vector<std::string> BundleConfig::MethodsFor(const std::string& model) const {
  std::vector<std::string> methods = {"gradient"};
  if (std::find(models.begin(), models.end(), model) != models.end()) methods.push_back("bundle");
  return methods;
}

BundleConfig ReadBundleConfig(const ProfileConfig& config) {
  BundleConfig b;
  b.models = config.Strings("bundle_models");
  b.options.samples = static_cast<int>(config.Int("bundle_samples", 1, kMaxBundleSamples));
  b.options.sigma = config.PositiveFiniteDouble("bundle_sigma");
  const std::string order = config.String("bundle_order");
  if (!FromString(order, &b.options.order)) {
    throw InvalidArgument(config.file() + ": key bundle_order: '" + order + "' is neither first_order nor zeroth_order");
  }
  return b;
}

void AppendBundleParams(const GradientBundleOptions& options, std::vector<std::pair<std::string, Value>>* params) {
  params->push_back({"bundle_samples", static_cast<std::int64_t>(options.samples)});
  params->push_back({"bundle_sigma", options.sigma});
  params->push_back({"bundle_order", std::string(ToString(options.order))});
}

std::optional<GradientBundleOptions> BundleOptionsOf(const Case& c) {
  if (!HasParam(c, "method") || ParamText(c, "method") != "bundle") return std::nullopt;
  GradientBundleOptions b;
  b.samples = static_cast<int>(ParamNumber(c, "bundle_samples"));
  b.sigma = ParamNumber(c, "bundle_sigma");
  FromString(ParamText(c, "bundle_order"), &b.order);
  b.seed = c.seed;
  return b;
}

}  // namespace arena
