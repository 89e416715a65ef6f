#include "models/sdrs/hull_pair_potential.h"

#include <algorithm>
#include <utility>
#include <cmath>

#include <Eigen/Cholesky>

#include "models/sdrs/clogx_barrier.h"
#include "models/sdrs/point_set_distance.h"

namespace arena::sdrs {

std::string HullPairOptions::Validate() const {
  if (!(kappa > 0.0) || !std::isfinite(kappa)) return "kappa must be > 0 and finite";
  if (!(x0 > 0.0 && x0 < 1.0)) return "x0 must be in (0, 1) (the norm barrier f(1 - |n|) needs x0 < 1)";
  if (!(d0 >= 0.0) || !std::isfinite(d0)) return "d0 must be >= 0 and finite";
  if (!(norm_weight > 0.0) || !std::isfinite(norm_weight)) {
    return "norm_weight must be > 0 (without the norm barrier L has no minimum)";
  }
  return ValidateNewton();
}

std::string_view ToString(HullPairStatus status) {
  switch (status) {
    case HullPairStatus::kConverged: return "converged";
    case HullPairStatus::kPruned: return "pruned";
    case HullPairStatus::kDampingLimit: return "damping_limit";
    case HullPairStatus::kMaxIterations: return "max_iterations";
    case HullPairStatus::kIntersecting: return "intersecting";
  }
  return "?";
}

namespace {

using Mat4 = Eigen::Matrix4d;
constexpr double kEps = std::numeric_limits<double>::epsilon();

// The problem in centred coordinates: h_m = (x_m - c, 1), s_m = sign_m <h_m, p> - d0/2.
struct Problem {
  const std::vector<Vec4>* h = nullptr;
  int na = 0;  // h[0, na) on A (sign +1), the rest on B (sign -1)
  const HullPairOptions* options = nullptr;
  double Sign(int m) const { return m < na ? 1.0 : -1.0; }
  double Gap(int m, const Vec4& p) const { return Sign(m) * (*h)[m].dot(p) - 0.5 * options->d0; }
};

struct Evaluation {
  double value = 0.0;
  double value_noise = 0.0;
  Vec4 gradient = Vec4::Zero();
  Vec4 gradient_noise = Vec4::Zero();
  Mat4 hessian = Mat4::Zero();
};

// Round-off model (as longrange's): s_m is a sum of terms up to |h_m|.|p| that cancel, so it
// carries an absolute error ~ eps |h_m|.|p|, which f' and f'' carry into L and dL/dp.
bool Value(const Vec4& p, const Problem& pr, double* value, double* noise) {
  const HullPairOptions& o = *pr.options;
  const double r = p.head<3>().norm();
  if (!(r < 1.0)) return false;
  double sum = 0.0, err = 0.0;
  if (1.0 - r < o.x0) sum += o.norm_weight * Clogx(1.0 - r, o.x0);
  const Vec4 abs_p = p.cwiseAbs();
  const std::vector<Vec4>& h = *pr.h;
  for (int m = 0; m < static_cast<int>(h.size()); ++m) {
    const double s = pr.Gap(m, p);
    if (!(s > 0.0)) return false;
    if (s >= o.x0) continue;
    const ClogxValue f = ClogxDerivatives(s, o.x0);
    sum += f.value;
    err += std::abs(f.slope) * h[m].cwiseAbs().dot(abs_p);
  }
  *value = sum;
  *noise = kEps * (sum + err);
  return true;
}

bool Evaluate(const Vec4& p, const Problem& pr, Evaluation* e) {
  const HullPairOptions& o = *pr.options;
  const Vec3 n = p.head<3>();
  const double r = n.norm();
  if (!(r < 1.0)) return false;
  e->value = 0.0;
  e->gradient.setZero();
  e->hessian.setZero();
  e->gradient_noise.setZero();
  // Norm barrier w f(1 - r): gradient -w f' n / r, Hessian w (f'' n n^T / r^2 - f' (I - n n^T / r^2) / r).
  if (1.0 - r < o.x0 && r > 0.0) {
    const ClogxValue f = ClogxDerivatives(1.0 - r, o.x0);
    const Vec3 u = n / r;
    const Mat3 uu = u * u.transpose();
    e->value += o.norm_weight * f.value;
    e->gradient.head<3>() = (-o.norm_weight * f.slope) * u;
    e->hessian.topLeftCorner<3, 3>() = o.norm_weight * (f.curvature * uu - (f.slope / r) * (Mat3::Identity() - uu));
    e->gradient_noise.head<3>() = e->gradient.head<3>().cwiseAbs();
  }
  double err = 0.0;
  const Vec4 abs_p = p.cwiseAbs();
  const std::vector<Vec4>& h = *pr.h;
  for (int m = 0; m < static_cast<int>(h.size()); ++m) {
    const double s = pr.Gap(m, p);
    if (!(s > 0.0)) return false;
    if (s >= o.x0) continue;
    const ClogxValue f = ClogxDerivatives(s, o.x0);
    const double sign = pr.Sign(m);
    e->value += f.value;
    e->gradient += (sign * f.slope) * h[m];
    e->hessian.noalias() += f.curvature * h[m] * h[m].transpose();
    const Vec4 abs_h = h[m].cwiseAbs();
    const double cancel = abs_h.dot(abs_p);  // error of s over eps
    err += std::abs(f.slope) * cancel;
    e->gradient_noise += (std::abs(f.slope) + std::abs(f.curvature) * cancel) * abs_h;
  }
  e->value_noise = kEps * (e->value + err);
  e->gradient_noise = kEps * (e->gradient_noise + e->hessian.cwiseAbs() * abs_p);
  return true;
}

double ScaledGradient(const Evaluation& e, const HullPairOptions& o) {
  double worst = 0.0;
  for (int i = 0; i < 4; ++i) {
    const double floor = std::max(o.gradient_tolerance, o.roundoff_factor * e.gradient_noise(i));
    worst = std::max(worst, floor > 0.0 ? std::abs(e.gradient(i)) / floor : (e.gradient(i) == 0.0 ? 0.0 : kInf));
  }
  return worst;
}

}  // namespace

double HullPairLagrangian(const Vec4& plane, const PointsX3& a, const PointsX3& b, const HullPairOptions& options) {
  std::vector<Vec4> h(a.rows() + b.rows());
  for (int k = 0; k < a.rows(); ++k) h[k] << a.row(k).transpose(), 1.0;
  for (int k = 0; k < b.rows(); ++k) h[a.rows() + k] << b.row(k).transpose(), 1.0;
  Problem pr{&h, static_cast<int>(a.rows()), &options};
  double value = kInf, noise = 0.0;
  return Value(plane, pr, &value, &noise) ? value : kInf;
}

MatX DenseHullPairHessian(const HullPairResult& r, int vertices) {
  MatX dense = MatX::Zero(3 * vertices, 3 * vertices);
  const int k = static_cast<int>(r.active.size());
  if (r.hessian.rows() != 3 * k) return dense;
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) dense.block<3, 3>(3 * r.active[i], 3 * r.active[j]) = r.hessian.block<3, 3>(3 * i, 3 * j);
  }
  return dense;
}

HullPairStatus ComputeHullPairPotential(const PointsX3& a, const PointsX3& b, DerivativeOrder order,
                                        const HullPairOptions& options, Vec4* warm_plane, HullPairResult* out,
                                        std::array<bool, 2> sides) {
  const int na = static_cast<int>(a.rows()), nb = static_cast<int>(b.rows()), nv = na + nb;
  out->stats.Reset();
  out->active.clear();
  out->slope.clear();
  out->curvature.clear();
  if (order != DerivativeOrder::kValue) out->gradient.setZero(3 * nv);
  if (order == DerivativeOrder::kHessian) {
    out->hessian.resize(0, 0);
    out->dplane_dx.setZero(4, 3 * nv);
  }
  auto finish = [&](HullPairStatus status, double value) {
    out->status = status;
    out->value = value;
    if (status == HullPairStatus::kIntersecting) out->plane.setConstant(std::numeric_limits<double>::quiet_NaN());
    return status;
  };
  if (na == 0 || nb == 0) return finish(HullPairStatus::kPruned, 0.0);

  // Centred frame: c between the centroids.
  const Vec3 c = 0.5 * (a.colwise().mean() + b.colwise().mean()).transpose();
  std::vector<Vec4>& h = out->homogeneous;
  h.resize(nv);
  for (int k = 0; k < na; ++k) h[k] << a.row(k).transpose() - c, 1.0;
  for (int k = 0; k < nb; ++k) h[na + k] << b.row(k).transpose() - c, 1.0;
  const Problem pr{&h, na, &options};

  Vec4 p;
  double start_value = 0.0, start_noise = 0.0;
  bool have_start = false;
  if (warm_plane != nullptr && warm_plane->allFinite()) {
    p << warm_plane->head<3>(), (*warm_plane)(3) + warm_plane->head<3>().dot(c);
    have_start = Value(p, pr, &start_value, &start_noise);
    out->stats.warm_started = have_start;
  }
  if (!have_start) {
    const PointSetSeparation sep = SeparatePointSets(a, b);
    out->stats.gjk_iterations = sep.iterations;
    if (sep.intersecting) return finish(HullPairStatus::kIntersecting, kInf);
    const Vec3 u = (sep.point_a - sep.point_b) / sep.distance;
    double min_a = kInf, max_b = -kInf;
    for (int k = 0; k < na; ++k) min_a = std::min(min_a, u.dot(h[k].head<3>()));
    for (int k = na; k < nv; ++k) max_b = std::max(max_b, u.dot(h[k].head<3>()));
    // The gap along u bounds the hull distance below: pruning on it is conservative.
    const double gap = min_a - max_b;
    if (!(gap > options.d0)) return finish(HullPairStatus::kIntersecting, kInf);
    // Seed 003 Sec. IV-B: the plane through the middle of the gap, scaled so |n| < 1 and every
    // vertex keeps a positive clearance s_v >= alpha gap / 2 - d0 / 2 > 0.
    const double alpha = (0.5 * options.d0 + 1.0) / (0.5 * gap + 1.0);
    p << alpha * u, -0.5 * alpha * (min_a + max_b);
    if (gap >= options.PruningDistance()) {
      out->plane << p.head<3>(), p(3) - p.head<3>().dot(c);
      if (warm_plane != nullptr) *warm_plane = out->plane;
      return finish(HullPairStatus::kPruned, 0.0);
    }
    if (!Value(p, pr, &start_value, &start_noise)) return finish(HullPairStatus::kIntersecting, kInf);
  }

  // Damped Newton on the strictly convex 4D problem (Sec. VII, the authors' schedule).
  Evaluation e, trial_e;
  Evaluate(p, pr, &e);
  const double a0 = options.initial_damping * std::max(1.0, e.hessian.cwiseAbs().maxCoeff());
  double damping = a0;
  int iterations = 0, accepted = 0;
  HullPairStatus status = HullPairStatus::kConverged;
  for (;;) {
    const double scaled = ScaledGradient(e, options);
    if (scaled <= 1.0) {
      status = HullPairStatus::kConverged;
      break;
    }
    if (iterations >= options.max_iterations) {
      status = HullPairStatus::kMaxIterations;
      break;
    }
    if (damping > options.damping_limit * a0) {
      status = HullPairStatus::kDampingLimit;
      break;
    }
    ++iterations;
    Mat4 hd = e.hessian;
    hd.diagonal().array() += damping;
    const Eigen::LLT<Mat4> llt(hd);
    if (llt.info() == Eigen::Success) {
      const Vec4 trial = p - llt.solve(e.gradient);
      // One pass gives the trial's value and, if it is taken, its derivatives.
      if (Evaluate(trial, pr, &trial_e)) {
        bool accept = false;
        if (trial_e.value < e.value) {
          accept = true;
        } else if (trial_e.value <= e.value + 2.0 * (e.value_noise + trial_e.value_noise)) {
          // Below L's round-off: judge by the scaled gradient (as longrange's solve).
          accept = ScaledGradient(trial_e, options) < scaled;
        }
        if (accept) {
          std::swap(e, trial_e);
          p = trial;
          damping *= 0.5;
          ++accepted;
          continue;
        }
      }
    }
    damping *= 3.0;
  }
  out->plane << p.head<3>(), p(3) - p.head<3>().dot(c);
  if (warm_plane != nullptr) *warm_plane = out->plane;
  out->stats.iterations = iterations;
  out->stats.accepted = accepted;
  out->stats.gradient_inf = e.gradient.lpNorm<Eigen::Infinity>();
  out->stats.gradient_roundoff = e.gradient_noise.maxCoeff();
  out->stats.damping = damping;
  finish(status, options.kappa * e.value);

  // The active vertices of the wanted sides and their barrier slopes.
  const Vec3 n = p.head<3>();
  for (int m = 0; m < nv; ++m) {
    if (!sides[m < na ? 0 : 1]) continue;
    const double s = pr.Gap(m, p);
    if (s >= options.x0) continue;
    out->active.push_back(m);
    out->slope.push_back(ClogxDerivatives(s, options.x0).slope);
  }
  if (order == DerivativeOrder::kValue) return status;
  const int k = static_cast<int>(out->active.size());
  for (int i = 0; i < k; ++i) {
    const int m = out->active[i];
    out->gradient.segment<3>(3 * m) = (options.kappa * pr.Sign(m) * out->slope[i]) * n;
  }
  if (order != DerivativeOrder::kHessian || k == 0) return status;

  // Schur complement on the active vertices: per vertex m,
  //   L_xx[m,m] = f'' n n^T,  L_xp[m] = f'' n h_m^T + sign_m f' [I 0].
  Eigen::Matrix<double, Eigen::Dynamic, 4>& l_xp = out->l_xp;
  l_xp.resize(3 * k, 4);
  out->curvature.resize(k);
  out->plane_hessian = e.hessian;
  for (int i = 0; i < k; ++i) {
    const int m = out->active[i];
    const double curvature = ClogxDerivatives(pr.Gap(m, p), options.x0).curvature;
    out->curvature[i] = curvature;
    auto block = l_xp.middleRows<3>(3 * i);
    block.noalias() = curvature * n * h[m].transpose();
    block.leftCols<3>().diagonal().array() += pr.Sign(m) * out->slope[i];
  }
  // L_pp^-1 L_px by Cholesky (L_pp is positive definite at a strict minimum; LDLT otherwise).
  Eigen::Matrix<double, 4, Eigen::Dynamic>& solved = out->solved;
  solved.resize(4, 3 * k);
  const Eigen::LLT<Mat4> llt(e.hessian);
  if (llt.info() == Eigen::Success) {
    solved = llt.solve(l_xp.transpose());
  } else {
    solved = e.hessian.ldlt().solve(l_xp.transpose());
  }
  if (options.dense_hessian) {
    MatX& H = out->hessian;
    H.setZero(3 * k, 3 * k);
    for (int i = 0; i < k; ++i) H.block<3, 3>(3 * i, 3 * i) = out->curvature[i] * n * n.transpose();
    H.noalias() -= l_xp * solved;
    for (int j = 0; j < 3 * k; ++j) {  // symmetric part, in place (no temporary)
      for (int i = j + 1; i < 3 * k; ++i) H(i, j) = H(j, i) = 0.5 * (H(i, j) + H(j, i));
    }
    H *= options.kappa;
  }
  // solved is dp*/dx in the centred frame (c held fixed: it only re-parametrises d, so P and its
  // derivatives do not see it); the world offset is d - n.c.
  solved.row(3) -= c.transpose() * solved.topRows<3>();
  for (int i = 0; i < k; ++i) out->dplane_dx.middleCols<3>(3 * out->active[i]) = -solved.middleCols<3>(3 * i);
  return status;
}

}  // namespace arena::sdrs
