#include "core/multibody/lie_group.h"

#include <cmath>

#include "core/math/so3.h"

namespace arena {
namespace {

// Below these angles the closed forms lose digits to cancellation; Taylor series take over
// (their truncation error there is below 1e-15).
constexpr double kSe2SmallAngle = 1e-4;
constexpr double kSe3SeriesAngle = 2e-2;

// Barfoot's Q(rho, phi): the lower-left block of the left Jacobian of SE(3) in [omega; v]
// order (eq. 7.86, where the twist is ordered (rho, phi)).
Mat3 BarfootQ(const Vec3& rho, const Vec3& phi) {
  const double t2 = phi.squaredNorm();
  const double t = std::sqrt(t2);
  double c1, c2, c3;
  if (t < kSe3SeriesAngle) {
    c1 = 1.0 / 6.0 - t2 / 120.0 + t2 * t2 / 5040.0;
    c2 = 1.0 / 24.0 - t2 / 720.0 + t2 * t2 / 40320.0;
    c3 = 1.0 / 120.0 - t2 / 2520.0 + t2 * t2 / 120960.0;
  } else {
    const double s = std::sin(t), c = std::cos(t), sh = 2.0 * std::sin(0.5 * t);
    c1 = (t - s) / (t2 * t);
    // t^2 + 2 cos t - 2 == (t - 2 sin(t/2)) (t + 2 sin(t/2)), without cancelling against 2.
    c2 = (t - sh) * (t + sh) / (2.0 * t2 * t2);
    c3 = (2.0 * t - 3.0 * s + t * c) / (2.0 * t2 * t2 * t);
  }
  const Mat3 P = Skew(phi), Rh = Skew(rho);
  const Mat3 PR = P * Rh, RP = Rh * P, PRP = PR * P;
  return 0.5 * Rh + c1 * (PR + RP + PRP) + c2 * (P * PR + RP * P - 3.0 * PRP) +
         c3 * (PRP * P + P * PRP);
}

}  // namespace

Mat2 Se2TranslationMap(double w) {
  double a, b;  // V = [a, -b; b, a]
  if (std::abs(w) < kSe2SmallAngle) {
    a = 1.0 - w * w / 6.0;
    b = 0.5 * w - w * w * w / 24.0;
  } else {
    a = std::sin(w) / w;
    b = (1.0 - std::cos(w)) / w;
  }
  Mat2 V;
  V << a, -b, b, a;
  return V;
}

SE2 ExpSE2(const Vec3& twist) {
  SE2 X;
  X.theta = twist[0];
  X.t = Se2TranslationMap(twist[0]) * twist.tail<2>();
  return X;
}

Vec3 LogSE2(const SE2& X) {
  const double w = X.theta;
  // V(w)^-1 = (w/2) [cot(w/2), 1; -1, cot(w/2)].
  const double h = 0.5 * w;
  const double a =
      std::abs(w) < kSe2SmallAngle ? 1.0 - w * w / 12.0 : h * std::cos(h) / std::sin(h);
  Mat2 Vinv;
  Vinv << a, h, -h, a;
  Vec3 twist;
  twist << w, Vinv * X.t;
  return twist;
}

Mat3 AdjointSE2(const SE2& X) {
  const double c = std::cos(X.theta), s = std::sin(X.theta);
  Mat3 Ad;
  Ad << 1.0, 0.0, 0.0, X.t.y(), c, -s, -X.t.x(), s, c;
  return Ad;
}

Mat6 RightJacobianSE3(const Motion& xi) {
  const Vec3 w = Angular(xi), v = Linear(xi);
  const Mat3 Jw = RightJacobianSO3(w);
  Mat6 J;
  J.topLeftCorner<3, 3>() = Jw;
  J.topRightCorner<3, 3>().setZero();
  // Jr(xi) = Jl(-xi).
  J.bottomLeftCorner<3, 3>() = BarfootQ(-v, -w);
  J.bottomRightCorner<3, 3>() = Jw;
  return J;
}

Mat3 RightJacobianSE2(const Vec3& twist) {
  Motion xi;
  xi << 0.0, 0.0, twist[0], twist[1], twist[2], 0.0;
  // se(2) = span(e_wz, e_vx, e_vy) is a subalgebra of se(3), so the restriction is exact.
  return RightJacobianSE3(xi).block<3, 3>(2, 2);
}

}  // namespace arena
