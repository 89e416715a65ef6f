#include "experiments/common/settings/bundle_config.h"

#include <algorithm>

#include "config/profile_config.h"
#include "core/common/error.h"

namespace arena {

void BundleSettings::Check(const ProfileConfig& config) const {
  GradientBundleOptions parsed;
  if (!FromString(*bundle_order, &parsed.order)) {
    throw InvalidArgument(config.file() + ": key bundle_order: '" + *bundle_order +
                          "' is neither first_order nor zeroth_order");
  }
}

std::vector<std::string> BundleSettings::MethodsFor(const std::string& model) const {
  std::vector<std::string> methods = {"gradient"};
  if (std::find(bundle_models.begin(), bundle_models.end(), model) != bundle_models.end()) methods.push_back("bundle");
  return methods;
}

void BundleSettings::KeepFor(const std::string& method) {
  if (method == "bundle") return;
  bundle_samples.reset();
  bundle_sigma.reset();
  bundle_order.reset();
}

std::optional<GradientBundleOptions> BundleSettings::options(std::uint64_t seed) const {
  if (!bundle_samples) return std::nullopt;
  GradientBundleOptions b;
  b.samples = static_cast<int>(*bundle_samples);
  b.sigma = *bundle_sigma;
  FromString(*bundle_order, &b.order);
  b.seed = seed;
  return b;
}

}  // namespace arena
