// How far a contact kernel differentiates (the per-pair kernels of the incremental-potential
// models: longrange's triangle pairs, sdrs's hull pairs).
#pragma once

#include <string_view>

namespace arena {

/// What to compute: the value only, also the gradient, or also the Hessian.
enum class DerivativeOrder { kValue = 0, kGradient = 1, kHessian = 2 };

inline std::string_view ToString(DerivativeOrder order) {
  switch (order) {
    case DerivativeOrder::kValue: return "value";
    case DerivativeOrder::kGradient: return "gradient";
    case DerivativeOrder::kHessian: return "hessian";
  }
  return "?";
}

}  // namespace arena
