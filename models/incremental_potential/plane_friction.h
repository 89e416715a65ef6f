// Frictional damping of a set of vertices relative to a separating plane (seed 003 Sec. IV-C:
// the plane is a zero-mass body, and each vertex's tangential velocity is damped relative to
// the plane's, not to the other body's, which keeps the term twice differentiable; seed 004
// App. A.3 takes the same damping for its triangle pairs). With the plane's unit normal n and
// the vertices' normal-force weights w_k (the friction coefficient times the vertex's normal
// force at the start of the step, lagged as IPC lags its normal forces), the plane's in-plane
// velocity u (translation only, as the authors' code) minimises
//   D(x+) = min_u dt sum_k w_k sqrt(|s_k|^2 + eps),  s_k = P (x+_k - x_k) / dt - u,  P = I - n n^T
// over the vertices of the pair: longrange's triangle pairs have 6 (N = 6), sdrs's hull pairs
// any number (N = Eigen::Dynamic). Its gradient is the envelope theorem's, its Hessian the
// Schur complement D_xx - D_xu D_uu^-1 D_ux; the derivatives with respect to the lagged data
// (w, n and the start positions x) are what the implicit function theorem needs for the step's
// derivatives with respect to the start state.
#pragma once

#include <array>
#include <type_traits>
#include <vector>

#include "core/math/types.h"

namespace arena {

/// What PlaneFriction computes beyond the value: the gradient, the Hessian too, or everything
/// including the derivatives with respect to the lagged data (for the step's derivatives only).
enum class FrictionOutputs { kValue, kGradient, kHessian, kAll };

/// 3 N coordinates for N vertices (Eigen::Dynamic stays dynamic).
constexpr int PlaneFrictionCoordinates(int n) { return n == Eigen::Dynamic ? Eigen::Dynamic : 3 * n; }

/// Per-vertex storage: an array of N, or a vector for N = Eigen::Dynamic.
template <int N, class T>
using PerVertex = std::conditional_t<N == Eigen::Dynamic, std::vector<T>, std::array<T, (N > 0 ? N : 1)>>;

template <int N>
struct PlaneFrictionInput {
  PerVertex<N, Vec3> x_next;   // x+_k: the pair's vertices at the end of the step
  PerVertex<N, Vec3> x_start;  // x_k: at its start
  PerVertex<N, double> weight; // w_k >= 0 (N): the friction coefficient times the lagged normal force
  Vec3 normal = Vec3::UnitZ(); // the lagged plane's unit normal
  double dt = 0.04;            // s
  double eps = 1e-4;           // smoothing of the speed, (m/s)^2
  FrictionOutputs outputs = FrictionOutputs::kAll;
  // The vertices whose derivatives are wanted (false: a static mesh's, which nobody reads): the
  // rows of the others (and the Hessian's columns) are left zero, as if not computed. Empty
  // (N = Eigen::Dynamic only): all of them.
  PerVertex<N, bool> derivatives = AllWanted();
  // Where Newton starts (null: the weighted mean slip). The minimiser is unique, so a start
  // from a nearby solve's u (the same pair at the previous iterate) changes only the cost.
  const Vec3* start_velocity = nullptr;

  static PerVertex<N, bool> AllWanted() {
    PerVertex<N, bool> all{};
    if constexpr (N != Eigen::Dynamic) all.fill(true);
    return all;
  }
};

template <int N>
struct PlaneFrictionResult {
  static constexpr int kCoordinates = PlaneFrictionCoordinates(N);
  double value = 0.0;
  Vec3 plane_velocity = Vec3::Zero();  // the minimising u
  // Each written only when `outputs` asks for it (else it keeps an earlier call's values).
  Eigen::Matrix<double, kCoordinates, 1> gradient;               // dD/dx+ (kGradient and up)
  Eigen::Matrix<double, kCoordinates, kCoordinates> hessian;     // d2D/dx+2 (Schur complement; kHessian and up)
  Eigen::Matrix<double, kCoordinates, N> dgradient_dweight;      // d(dD/dx+)/dw (kAll)
  Eigen::Matrix<double, kCoordinates, 3> dgradient_dnormal;      // d(dD/dx+)/dn (n a free 3-vector, P = I - n n^T; kAll)
  bool converged = false;
};

/// Value, derivatives and parameter derivatives of one pair's damping. The derivative with
/// respect to the start positions is -hessian (D depends on x+ - x only, at fixed w and n).
/// Instantiated for N = 6 (longrange's triangle pairs) and Eigen::Dynamic (sdrs's hull pairs).
template <int N>
void PlaneFriction(const PlaneFrictionInput<N>& in, PlaneFrictionResult<N>* out);

extern template void PlaneFriction<6>(const PlaneFrictionInput<6>&, PlaneFrictionResult<6>*);
extern template void PlaneFriction<Eigen::Dynamic>(const PlaneFrictionInput<Eigen::Dynamic>&,
                                                   PlaneFrictionResult<Eigen::Dynamic>*);

}  // namespace arena
