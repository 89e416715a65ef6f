// IPC's clamped log barrier and per-pair barrier potentials (Li et al. 2020, Sec. 4), the
// edge-edge mollifier (Sec. 4.3), and the global 1/d barrier of Ye et al. (ICLR 2025, App.
// A.6.3); conventions in barrier.h.
#include "models/ipc/barrier.h"

#include <cmath>
#include <limits>

#include "models/ipc/psd_projection.h"

namespace arena::ipc {

namespace {

constexpr ScalarDerivatives kAtContact = {kInf, -kInf, kInf};

// Zeroes whichever outputs were requested.
void ClearOutputs(Vec12* gradient, Mat12* hessian) {
  if (gradient != nullptr) gradient->setZero();
  if (hessian != nullptr) hessian->setZero();
}

}  // namespace

std::string_view ToString(BarrierKind kind) {
  switch (kind) {
    case BarrierKind::kClampedLog: return "clamped_log";
    case BarrierKind::kInverseDistance: return "inverse_distance";
  }
  return "?";
}

bool FromString(std::string_view text, BarrierKind* kind) {
  for (BarrierKind k : {BarrierKind::kClampedLog, BarrierKind::kInverseDistance}) {
    if (text == ToString(k)) {
      *kind = k;
      return true;
    }
  }
  return false;
}

std::string EnumValues(BarrierKind) { return "clamped_log|inverse_distance"; }

ScalarDerivatives ClampedLogBarrier(double d_sq, double dhat_sq) {
  if (d_sq >= dhat_sq) return {};
  if (!(d_sq > 0.0)) return kAtContact;
  // b = -(d - dh)^2 ln(d/dh);  b' = -2 (d - dh) ln(d/dh) - (d - dh)^2 / d;
  // b'' = -2 ln(d/dh) - 4 (d - dh) / d + (d - dh)^2 / d^2.  All three vanish at d = dh.
  const double l = std::log(d_sq / dhat_sq);
  const double diff = d_sq - dhat_sq;
  const double q = diff / d_sq;
  return {-diff * diff * l, -2.0 * diff * l - diff * q, -2.0 * l - 4.0 * q + q * q};
}

ScalarDerivatives InverseDistanceBarrier(double d_sq) {
  if (!(d_sq > 0.0)) return kAtContact;
  // b = d^(-1/2), b' = -1/2 d^(-3/2), b'' = 3/4 d^(-5/2).
  const double inv = 1.0 / std::sqrt(d_sq);
  const double inv_d = 1.0 / d_sq;
  return {inv, -0.5 * inv * inv_d, 0.75 * inv * inv_d * inv_d};
}

std::string BarrierParameters::Validate() const {
  if (kind == BarrierKind::kClampedLog && !(dhat > 0.0 && std::isfinite(dhat))) {
    return "dhat must be finite and > 0 for the clamped log barrier";
  }
  return {};
}

ScalarDerivatives EvaluateBarrier(const BarrierParameters& params, double d_sq) {
  switch (params.kind) {
    case BarrierKind::kClampedLog: return ClampedLogBarrier(d_sq, params.dhat * params.dhat);
    case BarrierKind::kInverseDistance: return InverseDistanceBarrier(d_sq);
  }
  return {};
}

double ActivationSquaredDistance(const BarrierParameters& params) {
  return params.kind == BarrierKind::kClampedLog ? params.dhat * params.dhat : kInf;
}

double EdgeEdgeMollifierThreshold(const Vec3& ea0_rest, const Vec3& ea1_rest, const Vec3& eb0_rest,
                                  const Vec3& eb1_rest) {
  return 1e-3 * (ea1_rest - ea0_rest).squaredNorm() * (eb1_rest - eb0_rest).squaredNorm();
}

ScalarDerivatives EdgeEdgeMollifier(double x, double eps_x) {
  if (x >= eps_x) return {1.0, 0.0, 0.0};
  // e = (2 - x/eps) x/eps;  e' = 2 (1 - x/eps) / eps;  e'' = -2 / eps^2.
  const double r = x / eps_x;
  return {(2.0 - r) * r, 2.0 * (1.0 - r) / eps_x, -2.0 / (eps_x * eps_x)};
}

double PointTriangleBarrier(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                            const BarrierParameters& params, Vec12* gradient, Mat12* hessian,
                            HessianMode mode) {
  const PointTriangleType type = ClassifyPointTriangle(p, t0, t1, t2);
  const double d = PointTriangleSquaredDistance(p, t0, t1, t2, type);
  ClearOutputs(gradient, hessian);
  if (d >= ActivationSquaredDistance(params)) return 0.0;
  if (!(d > 0.0)) return kInf;
  const ScalarDerivatives b = EvaluateBarrier(params, d);
  if (gradient == nullptr && hessian == nullptr) return b.value;
  Vec12 gd;
  Mat12 hd;
  PointTriangleSquaredDistance(p, t0, t1, t2, type, &gd, hessian ? &hd : nullptr);
  if (gradient != nullptr) *gradient = b.first * gd;
  if (hessian != nullptr) {
    // Chain rule: (b o d)'' = b'' d' d'^T + b' d''.
    *hessian = b.second * gd * gd.transpose() + b.first * hd;
    if (mode == HessianMode::kProjected) *hessian = ProjectTranslationInvariantToPsd(*hessian);
  }
  return b.value;
}

double EdgeEdgeBarrier(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                       double eps_x, const BarrierParameters& params, Vec12* gradient,
                       Mat12* hessian, HessianMode mode) {
  const EdgeEdgeType type = ClassifyEdgeEdge(ea0, ea1, eb0, eb1);
  const double d = EdgeEdgeSquaredDistance(ea0, ea1, eb0, eb1, type);
  ClearOutputs(gradient, hessian);
  if (d >= ActivationSquaredDistance(params)) return 0.0;
  if (!(d > 0.0)) return kInf;
  const ScalarDerivatives b = EvaluateBarrier(params, d);
  const double x = EdgeEdgeCrossSquaredNorm(ea0, ea1, eb0, eb1);
  const ScalarDerivatives e = EdgeEdgeMollifier(x, eps_x);
  const double value = e.value * b.value;
  if (gradient == nullptr && hessian == nullptr) return value;
  Vec12 gd;
  Mat12 hd;
  EdgeEdgeSquaredDistance(ea0, ea1, eb0, eb1, type, &gd, hessian ? &hd : nullptr);
  const bool mollified = x < eps_x;
  Vec12 gx = Vec12::Zero();
  Mat12 hx = Mat12::Zero();
  if (mollified) EdgeEdgeCrossSquaredNorm(ea0, ea1, eb0, eb1, &gx, hessian ? &hx : nullptr);
  // Product rule for e(x(q)) b(d(q)):
  //   grad = b e' x' + e b' d',
  //   hess = b (e'' x' x'^T + e' x'') + e (b'' d' d'^T + b' d'') + e' b' (x' d'^T + d' x'^T).
  if (gradient != nullptr) *gradient = e.value * b.first * gd + b.value * e.first * gx;
  if (hessian != nullptr) {
    *hessian = e.value * (b.second * gd * gd.transpose() + b.first * hd);
    if (mollified) {
      *hessian += b.value * (e.second * gx * gx.transpose() + e.first * hx) +
                  (e.first * b.first) * (gx * gd.transpose() + gd * gx.transpose());
    }
    if (mode == HessianMode::kProjected) *hessian = ProjectTranslationInvariantToPsd(*hessian);
  }
  return value;
}

}  // namespace arena::ipc
