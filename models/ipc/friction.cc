// IPC's lagged smoothed friction per pair (Li et al. 2020, Sec. 5); formulas in friction.h.
#include "models/ipc/friction.h"

#include <cmath>

#include "models/ipc/psd_projection.h"

namespace arena::ipc {

namespace {

// A deterministic unit vector orthogonal to the unit vector n.
Vec3 AnyOrthogonalTo(const Vec3& n) {
  int k = 0;  // the axis least aligned with n
  if (std::abs(n.y()) < std::abs(n[k])) k = 1;
  if (std::abs(n.z()) < std::abs(n[k])) k = 2;
  return n.cross(Vec3::Unit(k)).normalized();
}

// Orthonormal basis of the plane orthogonal to `normal` (any nonzero vector; the z axis when
// zero), whose first column is `preferred` made orthogonal to the normal when that is possible.
Mat32 TangentBasis(const Vec3& normal, const Vec3& preferred) {
  const double len = normal.norm();
  const Vec3 n = len > 0.0 ? Vec3(normal / len) : Vec3::UnitZ();
  Vec3 t1 = preferred - preferred.dot(n) * n;
  const double t1_len = t1.norm();
  // Accept the preferred direction only when it is not (nearly) along the normal.
  t1 = t1_len > 1e-12 * preferred.norm() && t1_len > 0.0 ? Vec3(t1 / t1_len) : AnyOrthogonalTo(n);
  Mat32 basis;
  basis.col(0) = t1;
  basis.col(1) = n.cross(t1);
  return basis;
}

// lambda = kappa e |b'(d)| 2 dist: the normal force of the squared-distance barrier.
double NormalForce(double d_sq, double mollifier, double kappa, const BarrierParameters& barrier) {
  if (!(d_sq > 0.0) || d_sq >= ActivationSquaredDistance(barrier)) return 0.0;
  const ScalarDerivatives b = EvaluateBarrier(barrier, d_sq);
  return kappa * mollifier * std::abs(b.first) * 2.0 * std::sqrt(d_sq);
}

Vec3 Combine(const Vec4& w, const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3) {
  return w[0] * x0 + w[1] * x1 + w[2] * x2 + w[3] * x3;
}

}  // namespace

ScalarDerivatives FrictionMollifier(double y, double eps_u) {
  if (y >= eps_u) return {y, 1.0, 0.0};
  const double r = y / eps_u;
  // f0 = -y^3/(3 eps^2) + y^2/eps + eps/3;  f1 = -y^2/eps^2 + 2 y/eps;  f1' = -2 y/eps^2 + 2/eps.
  return {eps_u * (-r * r * r / 3.0 + r * r + 1.0 / 3.0), r * (2.0 - r), 2.0 * (1.0 - r) / eps_u};
}

FrictionStencil PointTriangleFrictionStencil(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                             const Vec3& t2, double kappa,
                                             const BarrierParameters& barrier) {
  const PointTriangleType type = ClassifyPointTriangle(p, t0, t1, t2);
  FrictionStencil out;
  out.weights = PointTriangleClosestWeights(p, t0, t1, t2, type);
  const Vec3 face_normal = (t1 - t0).cross(t2 - t0);
  const Vec3 v = Combine(out.weights, p, t0, t1, t2);  // p minus its closest triangle point
  Vec3 normal = v, preferred = Vec3::Zero();
  switch (type) {
    case PointTriangleType::kFace:
      normal = face_normal;
      preferred = t1 - t0;
      break;
    case PointTriangleType::kEdge01: preferred = t1 - t0; break;
    case PointTriangleType::kEdge12: preferred = t2 - t1; break;
    case PointTriangleType::kEdge20: preferred = t0 - t2; break;
    default: break;
  }
  if (!(normal.squaredNorm() > 0.0)) normal = face_normal;
  out.basis = TangentBasis(normal, preferred);
  out.normal_force =
      NormalForce(PointTriangleSquaredDistance(p, t0, t1, t2, type), 1.0, kappa, barrier);
  return out;
}

FrictionStencil EdgeEdgeFrictionStencil(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0,
                                        const Vec3& eb1, double eps_x, double kappa,
                                        const BarrierParameters& barrier) {
  const EdgeEdgeType type = ClassifyEdgeEdge(ea0, ea1, eb0, eb1);
  FrictionStencil out;
  out.weights = EdgeEdgeClosestWeights(ea0, ea1, eb0, eb1, type);
  const Vec3 a = ea1 - ea0, b = eb1 - eb0;
  const Vec3 v = Combine(out.weights, ea0, ea1, eb0, eb1);  // closest point on a minus on b
  Vec3 normal = v, preferred = Vec3::Zero();
  switch (type) {
    case EdgeEdgeType::kEdgeEdge:
      normal = a.cross(b);
      preferred = a;
      break;
    case EdgeEdgeType::kA0EdgeB:
    case EdgeEdgeType::kA1EdgeB: preferred = b; break;
    case EdgeEdgeType::kB0EdgeA:
    case EdgeEdgeType::kB1EdgeA: preferred = a; break;
    default: break;
  }
  if (!(normal.squaredNorm() > 0.0)) normal = a.cross(b);
  out.basis = TangentBasis(normal, preferred);
  const double e = EdgeEdgeMollifier(EdgeEdgeCrossSquaredNorm(ea0, ea1, eb0, eb1), eps_x).value;
  out.normal_force =
      NormalForce(EdgeEdgeSquaredDistance(ea0, ea1, eb0, eb1, type), e, kappa, barrier);
  return out;
}

std::string FrictionParameters::Validate() const {
  if (!(mu >= 0.0 && std::isfinite(mu))) return "mu must be finite and >= 0";
  if (!(eps_v > 0.0 && std::isfinite(eps_v))) return "eps_v must be finite and > 0";
  if (!(dt > 0.0 && std::isfinite(dt))) return "dt must be finite and > 0";
  return {};
}

double FrictionPotential(const FrictionStencil& stencil, const Vec12& displacement,
                         const FrictionParameters& params, Vec12* gradient, Mat12* hessian,
                         HessianMode mode) {
  if (gradient != nullptr) gradient->setZero();
  if (hessian != nullptr) hessian->setZero();
  const double scale = params.mu * stencil.normal_force;
  if (scale == 0.0) return 0.0;
  const double eps_u = params.eps_v * params.dt;
  const Vec3 rel = Combine(stencil.weights, displacement.segment<3>(0), displacement.segment<3>(3),
                           displacement.segment<3>(6), displacement.segment<3>(9));
  const Vec2 u = stencil.basis.transpose() * rel;
  const double y = u.norm();
  const ScalarDerivatives f = FrictionMollifier(y, eps_u);
  if (gradient == nullptr && hessian == nullptr) return scale * f.value;
  // f1(y) / y, finite at y = 0: (2 eps - y) / eps^2 below eps_u, 1 / y above.
  const double f1_over_y = y < eps_u ? (2.0 * eps_u - y) / (eps_u * eps_u) : 1.0 / y;
  if (gradient != nullptr) {
    const Vec3 g = stencil.basis * (f1_over_y * u);
    for (int k = 0; k < 4; ++k) gradient->segment<3>(3 * k) = (scale * stencil.weights[k]) * g;
  }
  if (hessian != nullptr) {
    // M = (f1/y) I + (f1' y - f1)/y^3 u u^T; the coefficient is -1/(eps^2 y) below eps_u and
    // -1/y^3 above, and the u u^T term vanishes as y -> 0 (its norm is y/eps^2).
    Mat2 m = f1_over_y * Mat2::Identity();
    if (y > 0.0) {
      const double c = y < eps_u ? -1.0 / (eps_u * eps_u * y) : -1.0 / (y * y * y);
      m += c * u * u.transpose();
    }
    if (mode == HessianMode::kProjected) m = ProjectToPsd<2>(m);
    const Mat3 k3 = stencil.basis * m * stencil.basis.transpose();
    for (int k = 0; k < 4; ++k) {
      for (int l = 0; l < 4; ++l) {
        hessian->block<3, 3>(3 * k, 3 * l) = (scale * stencil.weights[k] * stencil.weights[l]) * k3;
      }
    }
  }
  return scale * f.value;
}

}  // namespace arena::ipc
