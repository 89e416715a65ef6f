// Frictional damping of one triangle pair relative to its separating plane (seed 004 App. A.3,
// which takes the damping of seed 003 Sec. IV-C: the plane is a zero-mass body, and each
// vertex's tangential velocity is damped relative to the plane's, not to the other triangle's,
// which keeps the term twice differentiable). With the plane's unit normal n and the vertices'
// normal-force weights w_k (lambda |dP_local/dx_k| at the start of the step, lagged as IPC lags
// its normal forces), the plane's in-plane velocity u (translation only, as the authors' code)
// minimises
//   D(x+) = min_u dt sum_k w_k sqrt(|s_k|^2 + eps),  s_k = P (x+_k - x_k) / dt - u,  P = I - n n^T
// over the six vertices of the pair. Its gradient is the envelope theorem's, its Hessian the
// Schur complement D_xx - D_xu D_uu^-1 D_ux; the derivatives with respect to the lagged data
// (w, n and the start positions x) are what the implicit function theorem needs for the step's
// derivatives with respect to the start state.
#pragma once

#include <array>

#include "core/math/types.h"

namespace arena::longrange {

/// What PlaneFriction computes beyond the value: the gradient, the Hessian too, or everything
/// including the derivatives with respect to the lagged data (for the step's derivatives only).
enum class FrictionOutputs { kValue, kGradient, kHessian, kAll };

struct PlaneFrictionInput {
  std::array<Vec3, 6> x_next;   // x+_k: the pair's six vertices at the end of the step
  std::array<Vec3, 6> x_start;  // x_k: at its start
  std::array<double, 6> weight; // w_k >= 0 (N): lambda times the lagged normal force
  Vec3 normal = Vec3::UnitZ();  // the lagged plane's unit normal
  double dt = 0.04;             // s
  double eps = 1e-4;            // smoothing of the speed, (m/s)^2
  FrictionOutputs outputs = FrictionOutputs::kAll;
  // The vertices whose derivatives are wanted (false: a static mesh's, which nobody reads):
  // the rows of the others (and the Hessian's columns) are left zero, as if not computed.
  std::array<bool, 6> derivatives = {true, true, true, true, true, true};
  // Where Newton starts (null: the weighted mean slip). The minimiser is unique, so a start
  // from a nearby solve's u (the same pair at the previous iterate) changes only the cost.
  const Vec3* start_velocity = nullptr;
};

struct PlaneFrictionResult {
  double value = 0.0;
  Vec3 plane_velocity = Vec3::Zero();  // the minimising u
  // Each written only when `outputs` asks for it (else it keeps an earlier call's values).
  Eigen::Matrix<double, 18, 1> gradient;      // dD/dx+ (kGradient and up)
  Eigen::Matrix<double, 18, 18> hessian;      // d2D/dx+2 (exact, Schur complement; kHessian and up)
  Eigen::Matrix<double, 18, 6> dgradient_dweight;  // d(dD/dx+)/dw (kAll)
  Eigen::Matrix<double, 18, 3> dgradient_dnormal;  // d(dD/dx+)/dn (n as a free 3-vector, P = I - n n^T; kAll)
  bool converged = false;
};

/// Value, derivatives and parameter derivatives of one pair's damping. The derivative with
/// respect to the start positions is -hessian (D depends on x+ - x only, at fixed w and n).
void PlaneFriction(const PlaneFrictionInput& in, PlaneFrictionResult* out);

}  // namespace arena::longrange
