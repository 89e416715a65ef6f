#include "trajectory/gradient_bundle.h"

#include <cmath>
#include <limits>

#include "core/common/error.h"

namespace arena {

std::string_view ToString(BundleOrder order) {
  switch (order) {
    case BundleOrder::kFirst: return "first_order";
    case BundleOrder::kZeroth: return "zeroth_order";
  }
  return "?";
}

bool FromString(std::string_view text, BundleOrder* order) {
  if (text == "first_order") {
    *order = BundleOrder::kFirst;
  } else if (text == "zeroth_order") {
    *order = BundleOrder::kZeroth;
  } else {
    return false;
  }
  return true;
}

std::string GradientBundleOptions::Validate() const {
  if (samples < 1) return "samples must be >= 1";
  if (!(sigma > 0.0) || !std::isfinite(sigma)) return "sigma must be > 0 and finite";
  return "";
}

GradientBundleObjective::GradientBundleObjective(Objective& inner, const GradientBundleOptions& options)
    : inner_(inner), options_(options), rng_(options.seed) {
  if (std::string why = options_.Validate(); !why.empty()) throw InvalidArgument("gradient bundle: " + why);
}

double GradientBundleObjective::Evaluate(const VecX& x, VecX* gradient) {
  const double f0 = inner_.Evaluate(x, nullptr);
  if (gradient == nullptr) return f0;
  const int n = dimension();
  const bool first = options_.order == BundleOrder::kFirst;
  if (!first && !std::isfinite(f0)) return f0;  // zeroth order differences need f(x)
  VecX sum = VecX::Zero(n);
  w_.resize(n);
  last_used_ = 0;
  for (int i = 0; i < options_.samples; ++i) {
    for (int k = 0; k < n; ++k) w_[k] = options_.sigma * StandardNormal(rng_);
    if (first) {
      const double f = inner_.Evaluate(x + w_, &sample_gradient_);
      if (!std::isfinite(f)) continue;
      sum += sample_gradient_;
    } else {
      const double f = inner_.Evaluate(x + w_, nullptr);
      if (!std::isfinite(f)) continue;
      sum += ((f - f0) / (options_.sigma * options_.sigma)) * w_;
    }
    ++last_used_;
  }
  if (last_used_ == 0) return std::numeric_limits<double>::infinity();
  *gradient = sum / last_used_;
  return f0;
}

}  // namespace arena
