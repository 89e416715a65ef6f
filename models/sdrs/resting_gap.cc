#include "models/sdrs/resting_gap.h"

#include <cmath>
#include <string>

#include "core/common/error.h"
#include "core/common/options.h"

namespace arena::sdrs {
namespace {

// A cube of half-size h with its top face at z = top (the lower box) or its bottom face at
// z = top (upper = true). h is larger than the pruning distance, so only the facing vertices are
// within x0 of any plane between the faces.
PointsX3 Cube(double h, double top, bool upper) {
  PointsX3 v(8, 3);
  const double base = upper ? top : top - 2.0 * h;
  for (int i = 0; i < 8; ++i) {
    v.row(i) << ((i & 1) ? h : -h), ((i & 2) ? h : -h), base + ((i & 4) ? 2.0 * h : 0.0);
  }
  return v;
}

// The upward force (N) on the upper box at gap s: minus the sum of dP/dz over its vertices.
double UpwardForce(const HullPairOptions& options, double s, double h) {
  const PointsX3 lower = Cube(h, 0.0, false);
  const PointsX3 upper = Cube(h, s, true);
  HullPairResult r;
  ComputeHullPairPotential(lower, upper, DerivativeOrder::kGradient, options, nullptr, &r);
  if (r.status == HullPairStatus::kPruned) return 0.0;
  double dz = 0.0;
  for (int i = 0; i < 8; ++i) dz += r.gradient[3 * (8 + i) + 2];
  return -dz;
}

}  // namespace

double RestingGap(const HullPairOptions& options, double weight_n) {
  if (!(weight_n > 0.0 && std::isfinite(weight_n))) {
    throw InvalidArgument("sdrs resting gap: the weight must be positive and finite, got " +
                          options_detail::FormatDouble(weight_n));
  }
  if (const std::string why = options.Validate(); !why.empty()) throw InvalidArgument("sdrs resting gap: " + why);
  const double h = 2.0 * options.PruningDistance();
  double lo = 1e-12 + options.d0, hi = options.PruningDistance();
  while (hi / lo - 1.0 > 1e-10) {
    const double mid = std::sqrt(lo * hi);
    (UpwardForce(options, mid, h) > weight_n ? lo : hi) = mid;
  }
  return std::sqrt(lo * hi);
}

}  // namespace arena::sdrs
