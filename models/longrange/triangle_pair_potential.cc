#include "models/longrange/triangle_pair_potential.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Cholesky>

#include "core/geometry/primitives.h"
#include "models/longrange/small_cholesky.h"

namespace arena::longrange {

std::string_view ToString(TrianglePairStatus status) {
  switch (status) {
    case TrianglePairStatus::kConverged: return "converged";
    case TrianglePairStatus::kDampingLimit: return "damping_limit";
    case TrianglePairStatus::kMaxIterations: return "max_iterations";
    case TrianglePairStatus::kIntersecting: return "intersecting";
  }
  return "?";
}

namespace {

using Mat4 = Eigen::Matrix4d;
using Mat34 = Eigen::Matrix<double, 3, 4>;

// Vertex m of the pair: m < 3 on triangle a (s = <x, n> + d), m >= 3 on b (s = -<x, n> - d).
inline double Sign(int m) { return m < 3 ? 1.0 : -1.0; }

// The six homogeneous vertices h_m = (x_m - c, 1) in the centred frame; s_m = sign_m <h_m, p>.
struct Vertices {
  std::array<Vec4, 6> h;
};

// Round-off model. s_m = sign <h_m, p> is a sum of terms of size up to |h_m|.|p| that cancel
// to s_m, so it carries an absolute error of about eps |h_m|.|p| (|.| entrywise); through
// 1/s^k this is amplified by k |h_m|.|p| / s_m. At a 1e-6 m gap between triangles 0.5 m wide
// this is ~1e6 eps: L is then only known to ~1e-10 relative, dL/dp to ~1e3 absolute. And p
// itself is only resolved to eps |p|, which moves dL/dp by |H| eps |p| (~1e-6 for parallel
// faces 1e-6 m apart, where the curvature along n is ~1e10).
constexpr double kEps = std::numeric_limits<double>::epsilon();

struct Evaluation {
  double value = 0.0;
  double value_noise = 0.0;  // estimated round-off of value
  Vec4 gradient = Vec4::Zero();
  Vec4 gradient_noise = Vec4::Zero();  // estimated round-off of each gradient component
  Mat4 hessian = Mat4::Zero();
};

// L(p) and its round-off estimate; false when p is infeasible (|n| >= 1 or some s_m <= 0).
// The sum is formed as in Evaluate, so accept/reject decisions compare like with like.
bool Value(const Vec4& p, const Vertices& v, double* value, double* noise) {
  const double r = p.head<3>().norm();
  if (!(r < 1.0)) return false;
  double sum = 12.0 * (1.0 / (1.0 - r));
  double err = 0.0;
  const Vec4 abs_p = p.cwiseAbs();
  for (int m = 0; m < 6; ++m) {
    const double s = Sign(m) * v.h[m].dot(p);
    if (!(s > 0.0)) return false;
    const double is = 1.0 / s;
    sum += is;
    err += v.h[m].cwiseAbs().dot(abs_p) * is * is;
  }
  *value = sum;
  *noise = kEps * (sum + err);
  return true;
}

// L, dL/dp, d2L/dp2 and round-off estimates; false when p is infeasible (or n = 0).
bool Evaluate(const Vec4& p, const Vertices& v, Evaluation* e) {
  const Vec3 n = p.head<3>();
  const double r = n.norm();
  if (!(r < 1.0) || !(r > 0.0)) return false;
  const double inv = 1.0 / (1.0 - r);
  const double w1 = 12.0 * inv * inv;        // d/dr 12/(1-r)
  const double w2 = 24.0 * inv * inv * inv;  // d2/dr2 12/(1-r)
  double sum = 12.0 * inv;
  double err = 0.0;
  e->gradient.head<3>() = (w1 / r) * n;
  e->gradient(3) = 0.0;
  e->gradient_noise << e->gradient.head<3>().cwiseAbs(), 0.0;
  const Mat3 nn = (n / r) * (n / r).transpose();
  e->hessian.setZero();
  e->hessian.topLeftCorner<3, 3>() = w2 * nn + (w1 / r) * (Mat3::Identity() - nn);
  const Vec4 abs_p = p.cwiseAbs();
  for (int m = 0; m < 6; ++m) {
    const double sign = Sign(m);
    const double s = sign * v.h[m].dot(p);
    if (!(s > 0.0)) return false;
    const double is = 1.0 / s;
    const double is2 = is * is;
    sum += is;
    e->gradient -= (sign * is2) * v.h[m];  // d(1/s)/dp = -sign h / s^2
    e->hessian.noalias() += (2.0 * is2 * is) * v.h[m] * v.h[m].transpose();  // 2 h h^T / s^3
    const Vec4 abs_h = v.h[m].cwiseAbs();
    const double cancel = abs_h.dot(abs_p) * is;  // relative error of s over eps
    err += cancel * is;
    e->gradient_noise += (is2 * (1.0 + 2.0 * cancel)) * abs_h;
  }
  e->value = sum;
  e->value_noise = kEps * (sum + err);
  // Plus the resolution of p itself: a change of one ulp in p moves dL/dp by ~|H| eps |p|.
  e->gradient_noise = kEps * (e->gradient_noise + e->hessian.cwiseAbs() * abs_p);
  return true;
}

// max_i |g_i| / max(tol, factor noise_i): <= 1 means converged.
double ScaledGradient(const Evaluation& e, const TrianglePairOptions& o) {
  double worst = 0.0;
  for (int i = 0; i < 4; ++i) {
    const double floor = std::max(o.gradient_tolerance, o.roundoff_factor * e.gradient_noise(i));
    worst = std::max(worst, std::abs(e.gradient(i)) / floor);
  }
  return worst;
}

// Does the closed segment p0 p1 meet the closed triangle (a, b, c) at a point off its plane
// span? Coplanar contacts are left to the distance tests (they show as distance 0).
bool SegmentCrossesTriangle(const Vec3& p0, const Vec3& p1, const Vec3& a, const Vec3& b,
                            const Vec3& c) {
  const Vec3 n = (b - a).cross(c - a);
  const double d0 = n.dot(p0 - a);
  const double d1 = n.dot(p1 - a);
  if ((d0 > 0.0 && d1 > 0.0) || (d0 < 0.0 && d1 < 0.0)) return false;
  if (d0 == d1) return false;  // coplanar (both zero) or degenerate triangle
  const Vec3 q = p0 + (d0 / (d0 - d1)) * (p1 - p0);
  return (b - a).cross(q - a).dot(n) >= 0.0 && (c - b).cross(q - b).dot(n) >= 0.0 &&
         (a - c).cross(q - c).dot(n) >= 0.0;
}

// hessian -= L_xp L_pp^-1 L_px and dplane_dx = -L_pp^-1 L_px on the N rows / columns from
// `first` (N = 18: both triangles, 9: one). With L_pp = C C^T (Cholesky) the first is W^T W,
// W^T = L_xp C^-T; the substitutions run on contiguous columns and the products are
// coefficient-wise (Eigen's general product and triangular solver cost more than the
// arithmetic at these sizes).
template <int N>
void SubtractSchur(const Mat4& l_pp, const Eigen::Matrix<double, 18, 4>& l_xp, int first, TrianglePairResult* out) {
  auto hessian = out->hessian.block<N, N>(first, first);
  Mat4 c;
  if (CholeskyFactor<4>(l_pp, &c)) {
    Eigen::Matrix<double, N, 4> wt = l_xp.middleRows<N>(first);
    for (int i = 0; i < 4; ++i) {  // wt = L_xp C^-T (forward substitution)
      for (int j = 0; j < i; ++j) wt.col(i) -= c(i, j) * wt.col(j);
      wt.col(i) /= c(i, i);
    }
    hessian.noalias() -= wt.lazyProduct(wt.transpose());
    for (int i = 3; i >= 0; --i) {  // wt = L_xp C^-T C^-1 = L_xp L_pp^-1 (back substitution)
      for (int j = i + 1; j < 4; ++j) wt.col(i) -= c(j, i) * wt.col(j);
      wt.col(i) /= c(i, i);
    }
    out->dplane_dx.middleCols<N>(first) = -wt.transpose();
  } else {
    const Eigen::Matrix<double, 4, N> solved = l_pp.ldlt().solve(l_xp.middleRows<N>(first).transpose());
    hessian.noalias() -= l_xp.middleRows<N>(first).lazyProduct(solved);
    out->dplane_dx.middleCols<N>(first) = -solved;
  }
  const Eigen::Matrix<double, N, N> symmetric = 0.5 * (hessian + hessian.transpose());
  hessian = symmetric;
}

}  // namespace

TriangleSeparation SeparateTriangles(const Triangle& a, const Triangle& b) {
  TriangleSeparation out;
  for (int k = 0; k < 3; ++k) {
    if (SegmentCrossesTriangle(a[k], a[(k + 1) % 3], b[0], b[1], b[2]) ||
        SegmentCrossesTriangle(b[k], b[(k + 1) % 3], a[0], a[1], a[2])) {
      out.intersecting = true;
      return out;
    }
  }
  double best = kInf;
  for (int k = 0; k < 3; ++k) {
    const TrianglePoint on_b = ClosestPointOnTriangle(a[k], b[0], b[1], b[2]);
    const double da = (a[k] - on_b.point).squaredNorm();
    if (da < best) {
      best = da;
      out.point_a = a[k];
      out.point_b = on_b.point;
    }
    const TrianglePoint on_a = ClosestPointOnTriangle(b[k], a[0], a[1], a[2]);
    const double db = (b[k] - on_a.point).squaredNorm();
    if (db < best) {
      best = db;
      out.point_a = on_a.point;
      out.point_b = b[k];
    }
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const SegmentPair sp =
          ClosestPointsSegmentSegment(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3]);
      const double d = sp.distance * sp.distance;
      if (d < best) {
        best = d;
        out.point_a = sp.point_p;
        out.point_b = sp.point_q;
      }
    }
  }
  out.distance = std::sqrt(best);
  out.intersecting = !(out.distance > 0.0);
  return out;
}

double SeparationLowerBound(const Triangle& a, const Triangle& b) {
  // Every point of `near` is at least this far from the plane of `face`, on one side.
  auto beyond = [](const Triangle& face, const Triangle& other) {
    const Vec3 n = (face[1] - face[0]).cross(face[2] - face[0]);
    const double length = n.norm();
    if (!(length > 0.0)) return 0.0;
    double lo = kInf, hi = -kInf;
    for (const Vec3& x : other) {
      const double s = n.dot(x - face[0]) / length;
      lo = std::min(lo, s);
      hi = std::max(hi, s);
    }
    return std::max({lo, -hi, 0.0});
  };
  return std::max(beyond(a, b), beyond(b, a));
}

double PairLagrangian(const Vec4& plane, const Triangle& a, const Triangle& b) {
  Vertices v;
  for (int k = 0; k < 3; ++k) {
    v.h[k] << a[k], 1.0;
    v.h[k + 3] << b[k], 1.0;
  }
  double value = kInf, noise = 0.0;
  return Value(plane, v, &value, &noise) ? value : kInf;
}

TrianglePairStatus ComputeTrianglePairPotential(const Triangle& a, const Triangle& b,
                                                DerivativeOrder order,
                                                const TrianglePairOptions& options,
                                                Vec4* warm_plane, TrianglePairResult* out,
                                                std::array<bool, 2> sides) {
  out->stats.Reset();
  if (order != DerivativeOrder::kValue) out->gradient.setZero();
  if (order == DerivativeOrder::kHessian) out->hessian.setZero();

  // Centred frame: origin c between the centroids (P is translation invariant).
  const Vec3 ca = (a[0] + a[1] + a[2]) / 3.0;
  const Vec3 cb = (b[0] + b[1] + b[2]) / 3.0;
  const Vec3 c = 0.5 * (ca + cb);
  Vertices v;
  for (int k = 0; k < 3; ++k) {
    v.h[k] << a[k] - c, 1.0;
    v.h[k + 3] << b[k] - c, 1.0;
  }

  auto intersecting = [&]() {
    out->status = TrianglePairStatus::kIntersecting;
    out->value = kInf;
    out->plane.setConstant(std::numeric_limits<double>::quiet_NaN());
    return out->status;
  };

  // Starting plane: the warm start if strictly feasible, else the scaled bisector of the
  // closest points (the authors' "middle orthogonal plane").
  // Evaluate checks feasibility itself: a feasible warm start is evaluated once.
  Vec4 p;
  Evaluation e;
  bool have_start = false;
  if (warm_plane != nullptr && warm_plane->allFinite()) {
    p << warm_plane->head<3>(), (*warm_plane)(3) + warm_plane->head<3>().dot(c);
    have_start = Evaluate(p, v, &e);
    out->stats.warm_started = have_start;
  }
  if (!have_start) {
    const TriangleSeparation sep = SeparateTriangles(a, b);
    if (sep.intersecting) return intersecting();
    const Vec3 u = (sep.point_a - sep.point_b) / sep.distance;
    double min_a = kInf, max_b = -kInf;
    for (int k = 0; k < 3; ++k) {
      min_a = std::min(min_a, u.dot(v.h[k].head<3>()));
      max_b = std::max(max_b, u.dot(v.h[k + 3].head<3>()));
    }
    const double gap = min_a - max_b;
    if (!(gap > 0.0)) return intersecting();  // touching to round-off
    // Two points a gap g apart have |n*| = 1 / (1 + sqrt(g)) (Eq. 5); balance both barriers so.
    const double alpha = 1.0 / (1.0 + std::sqrt(gap));
    p << alpha * u, -0.5 * alpha * (min_a + max_b);
    if (!Evaluate(p, v, &e)) return intersecting();
  }

  // Damped Newton (the authors' LM-style schedule on the 4D strictly convex problem).
  const double a0 = options.initial_damping * std::max(1.0, e.hessian.cwiseAbs().maxCoeff());
  double damping = a0;
  int iterations = 0, accepted = 0;
  TrianglePairStatus status = TrianglePairStatus::kConverged;
  Evaluation trial_e;
  for (;;) {
    const double scaled = ScaledGradient(e, options);
    if (scaled <= 1.0) {
      status = TrianglePairStatus::kConverged;
      break;
    }
    if (iterations >= options.max_iterations) {
      status = TrianglePairStatus::kMaxIterations;
      break;
    }
    if (damping > options.damping_limit * a0) {
      status = TrianglePairStatus::kDampingLimit;
      break;
    }
    ++iterations;
    Mat4 hd = e.hessian;
    hd.diagonal().array() += damping;
    Mat4 factor;
    if (CholeskyFactor<4>(hd, &factor)) {
      const Vec4 trial = p - CholeskySolve<4>(factor, e.gradient);
      // Evaluated with its derivatives at once: most trials are taken (warm starts near p*).
      if (Evaluate(trial, v, &trial_e)) {
        // Accept a step that lowers L (the authors' test). Near p* the decrease of L sinks
        // below L's round-off long before dL/dp reaches its tolerance; there a step that keeps
        // L within round-off and lowers the scaled gradient is accepted too.
        bool accept = false;
        if (trial_e.value < e.value) {
          accept = true;
        } else if (trial_e.value <= e.value + 2.0 * (e.value_noise + trial_e.value_noise)) {
          accept = ScaledGradient(trial_e, options) < scaled;
        }
        if (accept) e = trial_e;
        if (accept) {
          p = trial;
          damping *= 0.5;
          ++accepted;
          continue;
        }
      }
    }
    damping *= 3.0;
  }
  const Vec4& g = e.gradient;
  out->status = status;
  out->value = e.value;
  out->plane << p.head<3>(), p(3) - p.head<3>().dot(c);
  if (warm_plane != nullptr) *warm_plane = out->plane;
  out->stats.iterations = iterations;
  out->stats.accepted = accepted;
  out->stats.gradient_inf = g.lpNorm<Eigen::Infinity>();
  out->stats.gradient_roundoff = e.gradient_noise.maxCoeff();
  out->stats.damping = damping;
  if (order == DerivativeOrder::kValue || !(sides[0] || sides[1])) return status;

  // Envelope theorem: dP/dx_m = dL/dx_m = -sign_m n / s_m^2 (the wanted vertices [m0, m1)).
  const int m0 = sides[0] ? 0 : 3, m1 = sides[1] ? 6 : 3;
  const Vec3 n = p.head<3>();
  std::array<double, 6> inv_s;
  for (int m = m0; m < m1; ++m) {
    inv_s[m] = 1.0 / (Sign(m) * v.h[m].dot(p));
    out->gradient.segment<3>(3 * m) = (-Sign(m) * inv_s[m] * inv_s[m]) * n;
  }
  if (order != DerivativeOrder::kHessian) return status;

  // IFT / Schur complement: d2P/dx2 = L_xx - L_xp L_pp^{-1} L_px, with per vertex m
  //   L_xx[m,m] = 2 n n^T / s^3,  L_xp[m] = -sign E / s^2 + 2 n h_m^T / s^3,  E = [I 0].
  Eigen::Matrix<double, 18, 4> l_xp;
  for (int m = m0; m < m1; ++m) {
    const double is2 = inv_s[m] * inv_s[m];
    const double is3 = is2 * inv_s[m];
    Mat34 block = (2.0 * is3) * n * v.h[m].transpose();
    block.leftCols<3>().diagonal().array() -= Sign(m) * is2;
    l_xp.middleRows<3>(3 * m) = block;
    out->hessian.block<3, 3>(3 * m, 3 * m) = (2.0 * is3) * n * n.transpose();
  }
  if (m1 - m0 == 6) {
    SubtractSchur<18>(e.hessian, l_xp, 0, out);
  } else {
    out->dplane_dx.setZero();
    SubtractSchur<9>(e.hessian, l_xp, 3 * m0, out);
  }
  return status;
}

}  // namespace arena::longrange
