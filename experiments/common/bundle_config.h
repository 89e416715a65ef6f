// The gradient bundle's settings from an experiment config (seed 004's GB baseline,
// trajectory/gradient_bundle.h): bundle_models (the models it wraps), bundle_samples,
// bundle_sigma and bundle_order (first_order or zeroth_order).
#pragma once

#include <string>
#include <vector>

#include "trajectory/gradient_bundle.h"

namespace arena {

class ProfileConfig;

struct BundleConfig {
  std::vector<std::string> models;
  GradientBundleOptions options;
  /// The methods a model runs: "gradient", and "bundle" when it is in `models`.
  std::vector<std::string> MethodsFor(const std::string& model) const;
};

/// Throws InvalidArgument naming the key for a bad sample count, sigma or order.
BundleConfig ReadBundleConfig(const ProfileConfig& config);

}  // namespace arena
