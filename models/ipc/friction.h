// IPC's lagged, smoothed Coulomb friction for one contact pair (Li et al., "Incremental
// Potential Contact", SIGGRAPH 2020, Sec. 5).
//
// At the start of a time step (the lagged state x^t) each active pair fixes
//   - its closest points, as weights w on the stencil's four vertices
//     (distance.h: PointTriangleClosestWeights / EdgeEdgeClosestWeights),
//   - an orthonormal tangent basis P (3 x 2) of the plane orthogonal to the contact normal,
//   - the magnitude lambda of its normal force, kappa |d b / d dist| (times the edge-edge
//     mollifier value), with the squared-distance barrier b(d), d = dist^2:
//     lambda = kappa e(x) |b'(d)| 2 dist.
// During the step the pair's tangential relative displacement is
//   u(x) = P^T sum_k w_k (x_k - x_k^t)     (2-vector, m),
// i.e. the tangential relative velocity times dt, and the friction (dissipative) potential is
//   D(x) = mu lambda f0(|u|),
// with IPC's C1-mollified Coulomb profile written in displacements (eps_u = eps_v dt, m):
//   f1(y) = -y^2 / eps_u^2 + 2 y / eps_u  for y < eps_u,   1 otherwise     (f1 = f0'),
//   f0(y) = -y^3 / (3 eps_u^2) + y^2 / eps_u + eps_u / 3  for y < eps_u,   y otherwise.
// Holding P, w and lambda fixed (as IPC does), the derivatives in the 12 current coordinates are
//   grad_k D = mu lambda w_k P (f1(y) / y) u,
//   hess_kl D = mu lambda w_k w_l P M P^T,   M = (f1 / y) I + (f1' y - f1) / y^3 u u^T.
// For this f1, M's eigenvalues (along u, across u) are f1' = 2 (eps_u - y) / eps_u^2 and
// f1 / y = (2 eps_u - y) / eps_u^2 below eps_u, and 0 and 1 / y above, so M (and the Hessian, a
// Kronecker product of w w^T and P M P^T) is PSD already; the projected mode clamps M's
// eigenvalues anyway, guarding round-off.
#pragma once

#include "models/ipc/barrier.h"

namespace arena::ipc {

using Mat32 = Eigen::Matrix<double, 3, 2>;

/// Lagged data of one pair, computed once per time step from the lagged positions.
struct FrictionStencil {
  Mat32 basis = Mat32::Zero();  // P: orthonormal tangent basis (columns), world frame
  Vec4 weights = Vec4::Zero();  // w: relative displacement = sum_k w_k (x_k - x_k^t)
  double normal_force = 0.0;    // lambda, N; 0 for an inactive pair
};

/// f0 of the mollified Coulomb profile with its derivatives f1 = f0' and f1' (y >= 0, m;
/// eps_u = eps_v dt > 0, m).
ScalarDerivatives FrictionMollifier(double y, double eps_u);

/// Stencil (p, t0, t1, t2) at the lagged positions: closest points and normal from the
/// classified point-triangle distance (the face normal for kFace, otherwise the direction from
/// the closest triangle point to p; any normal when they coincide), lambda from `kappa` and the
/// barrier (0 beyond dhat).
FrictionStencil PointTriangleFrictionStencil(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                             const Vec3& t2, double kappa,
                                             const BarrierParameters& barrier);
/// Stencil (ea0, ea1, eb0, eb1) at the lagged positions: the normal is ea x eb for kEdgeEdge,
/// otherwise the closest-point direction; lambda includes the mollifier value e(x) with
/// threshold eps_x.
FrictionStencil EdgeEdgeFrictionStencil(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0,
                                        const Vec3& eb1, double eps_x, double kappa,
                                        const BarrierParameters& barrier);

struct FrictionParameters {
  double mu = 0.5;      // Coulomb coefficient
  double eps_v = 1e-3;  // m/s; sliding-velocity threshold of the static-friction mollifier
  double dt = 1e-2;     // s; time step (eps_u = eps_v dt)
  /// Empty when valid (mu >= 0, eps_v > 0, dt > 0, all finite).
  std::string Validate() const;
};

/// D = mu lambda f0(|u|) for the stencil's vertices displaced by `displacement` = x - x^t
/// (stacked, 12). Gradient / Hessian (optional) in the 12 current coordinates, with P, w and
/// lambda held fixed; kProjected clamps the 2x2 core M to PSD.
double FrictionPotential(const FrictionStencil& stencil, const Vec12& displacement,
                         const FrictionParameters& params, Vec12* gradient = nullptr,
                         Mat12* hessian = nullptr, HessianMode mode = HessianMode::kProjected);

}  // namespace arena::ipc
