// IPC's barrier functions and per-pair barrier potentials.
//
//   Clamped log barrier (Li et al., "Incremental Potential Contact", SIGGRAPH 2020, Sec. 4):
//     b(d) = -(d - dhat)^2 ln(d / dhat)  for 0 < d < dhat,   0 for d >= dhat.
//     Convention: d and dhat are SQUARED distances (d = dist^2, dhat = dhat_m^2), as IPC's
//     reference implementation evaluates it: the distance kernels (distance.h) are then
//     rational functions with no square root, whose derivatives stay bounded at contact, and b
//     keeps the properties the paper needs (b -> +inf as the distance -> 0; b, b', b'' all
//     vanish at dhat, so the potential is C2 where pairs enter and leave the active set). The
//     caller-facing parameter is the activation distance dhat_m in metres; it is squared here.
//
//   Global inverse-distance barrier (the ablation of Ye et al., "Efficient differentiable
//     contact model with long-range influence", ICLR 2025, App. A.6.3: IPC's distance with a
//     globally supported barrier instead of the clamped log). The paper's global barrier is
//     1/(.)^+ = 1/max(., 0) applied to a length (Sec. 4, Eq. 3: the vertex offsets from a
//     separating plane), so we use the same function of the Euclidean distance:
//       b(dist) = 1 / dist^+ = 1 / sqrt(d)   (d = dist^2 > 0; +inf for d <= 0),
//     with no cut-off (every pair between two bodies contributes).
//
//   Edge-edge mollifier (Li et al. 2020, Sec. 4.3): nearly parallel edge pairs get their
//     barrier multiplied by
//       e(x) = -x^2 / eps_x^2 + 2 x / eps_x  for x < eps_x,   1 otherwise,
//     with x = |(ea1 - ea0) x (eb1 - eb0)|^2 and eps_x = 1e-3 |ea1 - ea0|^2 |eb1 - eb0|^2 from
//     the REST positions (held fixed in the derivatives; for rigid bodies the rest and current
//     edge lengths agree). e is C1 at eps_x (e' = 0 there) and e(0) = 0, so the potential of
//     parallel pairs, whose distance switches type non-smoothly, vanishes.
//
//   Per-pair potentials: point-triangle b(d_PT(x)) and edge-edge e(x) b(d_EE(x)) with value,
//     gradient (12) and Hessian (12x12) with respect to the pair's four vertex world positions,
//     exact (for the implicit-function theorem) or projected to PSD per pair (for projected
//     Newton). The stiffness kappa is applied by the caller.
#pragma once

#include <string>
#include <string_view>

#include "models/ipc/distance.h"

namespace arena::ipc {

enum class BarrierKind {
  kClampedLog,       // IPC: -(d - dhat)^2 ln(d / dhat) on squared distances, 0 beyond dhat
  kInverseDistance,  // seed 004's ablation: 1 / dist, globally supported
};
std::string_view ToString(BarrierKind kind);
bool FromString(std::string_view text, BarrierKind* kind);
std::string EnumValues(BarrierKind);

/// A scalar function and its first two derivatives at one point.
struct ScalarDerivatives {
  double value = 0.0;
  double first = 0.0;
  double second = 0.0;
};

/// IPC's clamped log barrier of the squared distance `d_sq` with squared activation distance
/// `dhat_sq` (> 0). For d_sq <= 0 the limits {+inf, -inf, +inf} are returned.
ScalarDerivatives ClampedLogBarrier(double d_sq, double dhat_sq);
/// 1 / sqrt(d_sq) (= 1 / distance) and its derivatives with respect to d_sq; {+inf, -inf, +inf}
/// for d_sq <= 0.
ScalarDerivatives InverseDistanceBarrier(double d_sq);

struct BarrierParameters {
  BarrierKind kind = BarrierKind::kClampedLog;
  double dhat = 1e-3;  // m; activation distance of kClampedLog (kInverseDistance ignores it)
  /// Empty when valid; otherwise what is wrong (dhat must be finite and > 0 for kClampedLog).
  std::string Validate() const;
};

/// The barrier selected by `params` at the squared distance d_sq (derivatives in d_sq).
ScalarDerivatives EvaluateBarrier(const BarrierParameters& params, double d_sq);
/// Squared distance at and beyond which the barrier is zero: dhat^2, or +inf for the global one.
double ActivationSquaredDistance(const BarrierParameters& params);

/// eps_x = 1e-3 |ea1 - ea0|^2 |eb1 - eb0|^2, from rest positions (Li et al. 2020, Sec. 4.3).
double EdgeEdgeMollifierThreshold(const Vec3& ea0_rest, const Vec3& ea1_rest, const Vec3& eb0_rest,
                                  const Vec3& eb1_rest);
/// e(x) and its derivatives in x (x >= 0 is the squared cross-product norm); e = 1 for
/// x >= eps_x (also when eps_x = 0, a zero-length edge).
ScalarDerivatives EdgeEdgeMollifier(double x, double eps_x);

enum class HessianMode {
  kExact,      // the true Hessian (may be indefinite): for the implicit-function theorem
  kProjected,  // the pair's 12x12 Hessian projected to PSD (psd_projection.h, in the 9-dim
               // complement of the translations, where the pair's Hessian lives): for Newton
};

/// b(d_PT) for point p and triangle t0 t1 t2 (squared point-triangle distance, distance.h).
/// Gradient / Hessian (optional) in (p, t0, t1, t2). Beyond the activation distance the value,
/// gradient and Hessian are 0; at a zero distance the value is +inf and the derivatives are
/// left 0 (a barrier-safe line search never accepts such a state).
double PointTriangleBarrier(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                            const BarrierParameters& params, Vec12* gradient = nullptr,
                            Mat12* hessian = nullptr, HessianMode mode = HessianMode::kExact);

/// e(x) b(d_EE) for edges ea0 ea1 and eb0 eb1 with mollifier threshold eps_x
/// (EdgeEdgeMollifierThreshold of the rest positions). Same conventions as above, in
/// (ea0, ea1, eb0, eb1).
double EdgeEdgeBarrier(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                       double eps_x, const BarrierParameters& params, Vec12* gradient = nullptr,
                       Mat12* hessian = nullptr, HessianMode mode = HessianMode::kExact);

}  // namespace arena::ipc
