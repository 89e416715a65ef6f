// The gradient bundle's settings from an experiment config (seed 004's GB baseline,
// trajectory/gradient_bundle.h): bundle_models (the models it wraps), bundle_samples,
// bundle_sigma and bundle_order (first_order or zeroth_order).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "experiments/experiment.h"
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

/// The params (columns) of a case of method bundle: bundle_samples, bundle_sigma, bundle_order.
void AppendBundleParams(const GradientBundleOptions& options, std::vector<std::pair<std::string, Value>>* params);
/// Those options read back from a case whose method is bundle, seeded with the case's seed;
/// nullopt for any other case.
std::optional<GradientBundleOptions> BundleOptionsOf(const Case& c);

}  // namespace arena
