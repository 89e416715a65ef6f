// The gradient bundle's settings (seed 004's GB baseline, trajectory/gradient_bundle.h), a group
// an experiment's settings forward to: bundle_models (the models it wraps), and bundle_samples,
// bundle_sigma and bundle_order (first_order or zeroth_order), parameters of the bundle cases only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiments/common/settings/settings.h"
#include "trajectory/gradient_bundle.h"

namespace arena {

struct BundleSettings {
  std::vector<std::string> bundle_models;
  std::optional<std::int64_t> bundle_samples;
  std::optional<double> bundle_sigma;
  std::optional<std::string> bundle_order;

  template <class V>
  void VisitFields(V&& v) {
    constexpr SettingRole kSome = SettingRole::kConfigAndSomeCases;
    v("bundle_models", bundle_models, "the models the bundle wraps", "", std::nullopt, SettingRole::kConfigList);
    v("bundle_samples", bundle_samples, "bundle: samples per gradient", "", Closed(1, 10'000), kSome);
    v("bundle_sigma", bundle_sigma, "bundle: std of the perturbations", "", Positive(), kSome);
    v("bundle_order", bundle_order, "bundle: first_order or zeroth_order", "", std::nullopt, kSome);
  }

  /// Throws InvalidArgument naming the key when bundle_order is neither first_order nor zeroth_order.
  void Check(const ProfileConfig& config) const;
  /// The methods a model runs: "gradient", and "bundle" when it is in bundle_models.
  std::vector<std::string> MethodsFor(const std::string& model) const;
  /// A case of `method` keeps the bundle's parameters only when it is "bundle".
  void KeepFor(const std::string& method);
  /// A bundle case's options, seeded with `seed`; nullopt for a case of another method.
  std::optional<GradientBundleOptions> options(std::uint64_t seed) const;
};

}  // namespace arena
