#include "solvers/finite_difference.h"

#include <cmath>
#include <limits>

#include "core/common/error.h"

namespace arena {

std::string_view ToString(FdMethod method) {
  switch (method) {
    case FdMethod::kForward: return "forward";
    case FdMethod::kBackward: return "backward";
    case FdMethod::kCentral: return "central";
    case FdMethod::kRidders: return "ridders";
  }
  return "?";
}

bool FromString(std::string_view text, FdMethod* method) {
  for (FdMethod m : {FdMethod::kForward, FdMethod::kBackward, FdMethod::kCentral, FdMethod::kRidders}) {
    if (text == ToString(m)) {
      *method = m;
      return true;
    }
  }
  return false;
}

std::string EnumValues(FdMethod) { return "forward|backward|central|ridders"; }

namespace {

VecX Column(const LocalFunction& f, int n, int i, double h, int* evaluations) {
  VecX dx = VecX::Zero(n);
  dx[i] = h;
  const VecX plus = f(dx);
  dx[i] = -h;
  const VecX minus = f(dx);
  *evaluations += 2;
  return (plus - minus) / (2.0 * h);
}

// Ridders' method: central differences at geometrically shrinking steps, extrapolated to
// h -> 0 by Neville's tableau; the estimate with the smallest tableau error is kept.
VecX RiddersColumn(const LocalFunction& f, int n, int i, const FdOptions& o, int* evaluations,
                   double* error) {
  const double c = o.ridders_shrink, c2 = c * c;
  const int rows = o.ridders_rows;
  std::vector<std::vector<VecX>> a(rows, std::vector<VecX>(rows));
  double h = o.ridders_step;
  a[0][0] = Column(f, n, i, h, evaluations);
  VecX best = a[0][0];
  *error = std::numeric_limits<double>::infinity();
  for (int r = 1; r < rows; ++r) {
    h /= c;
    a[0][r] = Column(f, n, i, h, evaluations);
    double factor = c2;
    for (int k = 1; k <= r; ++k) {
      a[k][r] = (a[k - 1][r] * factor - a[k - 1][r - 1]) / (factor - 1.0);
      factor *= c2;
      const double e = std::max((a[k][r] - a[k - 1][r]).lpNorm<Eigen::Infinity>(),
                                (a[k][r] - a[k - 1][r - 1]).lpNorm<Eigen::Infinity>());
      if (e <= *error) {
        *error = e;
        best = a[k][r];
      }
    }
    // Stop when the higher-order estimate gets worse by a clear margin (round-off dominates).
    if ((a[r][r] - a[r - 1][r - 1]).lpNorm<Eigen::Infinity>() >= 2.0 * *error) break;
  }
  return best;
}

}  // namespace

FdResult FiniteDifferenceJacobian(const LocalFunction& f, int n, const FdOptions& o) {
  if (n < 0) throw InvalidArgument("finite differences: negative input dimension");
  if (!(o.step > 0.0) || !(o.ridders_step > 0.0) || !(o.ridders_shrink > 1.0) || o.ridders_rows < 2) {
    throw InvalidArgument("finite differences: steps must be > 0, shrink > 1, rows >= 2");
  }
  FdResult result;
  result.error_estimate = VecX::Zero(n);
  VecX f0;
  if (o.method == FdMethod::kForward || o.method == FdMethod::kBackward) {
    f0 = f(VecX::Zero(n));
    result.evaluations = 1;
  }
  for (int i = 0; i < n; ++i) {
    VecX col;
    switch (o.method) {
      case FdMethod::kForward:
      case FdMethod::kBackward: {
        const double h = o.method == FdMethod::kForward ? o.step : -o.step;
        VecX dx = VecX::Zero(n);
        dx[i] = h;
        col = (f(dx) - f0) / h;
        ++result.evaluations;
        break;
      }
      case FdMethod::kCentral:
        col = Column(f, n, i, o.step, &result.evaluations);
        break;
      case FdMethod::kRidders:
        col = RiddersColumn(f, n, i, o, &result.evaluations, &result.error_estimate[i]);
        break;
    }
    if (i == 0) result.jacobian.resize(col.size(), n);
    result.jacobian.col(i) = col;
  }
  return result;
}

double CorrectedRelativeError(const MatX& a, const MatX& b, double floor) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) {
    throw InvalidArgument("CorrectedRelativeError: shape mismatch");
  }
  if (a.size() == 0) return 0.0;
  const double scale = floor + b.cwiseAbs().maxCoeff();
  return (a - b).cwiseAbs().maxCoeff() / scale;
}

}  // namespace arena
