// The exact per-triangle-pair contact potential of Ye et al., "Efficient Differentiable Contact
// Model with Long-Range Influence" (arXiv 2509.20917), Sec. 4 (the terms of Eq. 3):
//   L_ij(p) = 12 / (1 - |n|)^+ + sum_k 1 / (<x_i(k), n> + d)^+ + sum_k 1 / (-<x_j(k), n> - d)^+
//   P_ij    = min_p L_ij(p),   p = (n, d) in R^4,   1/(.)^+ = 1/max(., 0),
// a zero-mass separating plane between triangle a = t_i (on its positive side) and b = t_j.
// L_ij is strictly convex on its feasible set, so p* is unique and P_ij is C2 (Lemma 4.1).
//
// The plane is found by the damped Newton iteration of SDRS (Ye et al., T-RO 2025, Sec. V, as
// in the authors' code): solve (H + a I) D = -g; a starts at max(1, max|H_ij|), halves after a
// step that stays feasible and lowers L, triples otherwise. One addition: where the decrease of
// L is below its round-off, a step that keeps L within round-off and lowers dL/dp is accepted
// too (without it the iteration stalls far above the gradient tolerance near contact).
// Derivatives with respect to the 18 vertex coordinates x = (a0, a1, a2, b0, b1, b2):
//   gradient (envelope theorem):       dP/dx = L_x(p*)
//   Hessian (implicit function theorem, Schur complement; proof of Lemma 4.1, Smoothness):
//                                      d2P/dx2 = L_xx - L_xp L_pp^{-1} L_px   at p*.
// Intersecting or touching triangles have no separating plane: P_ij = +inf (Barrier-Form).
//
// Numerics: the solve runs in coordinates centred between the two centroids (P_ij is invariant
// to translations, so the derivatives are unchanged), which keeps the plane offset small for
// bodies far from the world origin.
#pragma once

#include <array>
#include <limits>
#include <string>
#include <string_view>

#include "core/math/types.h"
#include "models/incremental_potential/derivative_order.h"
#include "models/incremental_potential/plane_newton_options.h"

namespace arena::longrange {

using Triangle = std::array<Vec3, 3>;
using Vec18 = Eigen::Matrix<double, 18, 1>;
using Mat18 = Eigen::Matrix<double, 18, 18>;

/// The plane solve's stopping and damping rules (models/incremental_potential/plane_newton_options.h).
struct TrianglePairOptions : PlaneNewtonOptions {
  /// Empty if valid, else the first problem found.
  std::string Validate() const { return ValidateNewton(); }
};

enum class TrianglePairStatus {
  kConverged,      // the stopping test on dL/dp was met
  kDampingLimit,   // no further decrease of L found (returned values are at the last plane)
  kMaxIterations,  // iteration cap (returned values are at the last plane)
  kIntersecting,   // the triangles intersect or touch: P = +inf, no derivatives
};
std::string_view ToString(TrianglePairStatus status);

struct TrianglePairStats {
  int iterations = -1;  // Newton trials (accepted + rejected); -1 = not run
  int accepted = -1;    // accepted steps
  double gradient_inf = std::numeric_limits<double>::quiet_NaN();       // |dL/dp|_inf at p*
  double gradient_roundoff = std::numeric_limits<double>::quiet_NaN();  // max_i e_i at p*
  double damping = std::numeric_limits<double>::quiet_NaN();            // final a
  bool warm_started = false;  // the warm-start plane was feasible and used
  void Reset() { *this = TrianglePairStats{}; }
};

struct TrianglePairResult {
  TrianglePairStatus status = TrianglePairStatus::kConverged;
  double value = std::numeric_limits<double>::quiet_NaN();  // P_ij; +inf when intersecting
  // p* = (n, d) in world coordinates: <x, n> + d > 0 on triangle a, < 0 on triangle b.
  Vec4 plane = Vec4::Constant(std::numeric_limits<double>::quiet_NaN());
  Vec18 gradient = Vec18::Zero();  // dP/dx, x = (a0, a1, a2, b0, b1, b2); 0 when intersecting
  Mat18 hessian = Mat18::Zero();   // d2P/dx2 (exact, indefinite in general); 0 when intersecting
  // dp*/dx, the plane's sensitivity (implicit function theorem; with the Hessian only).
  Eigen::Matrix<double, 4, 18> dplane_dx = Eigen::Matrix<double, 4, 18>::Zero();
  TrianglePairStats stats;
};

/// P_ij between triangle a (positive side) and triangle b. `warm_plane` (nullable, world
/// coordinates) is used as the starting plane when it is strictly feasible, and receives p*
/// unless the triangles intersect. Otherwise the start is the bisector plane of the closest
/// points scaled to |n| = 1 / (1 + sqrt(gap)) (the optimum of two points a gap apart, Eq. 5).
/// Never throws; non-convergence is reported in the status. Derivatives beyond `order` are not
/// written (they keep the values of an earlier call). `sides`: derivatives with respect to
/// triangle a's and b's vertices; the gradient entries and Hessian rows and columns (and
/// dplane_dx columns) of an unwanted triangle are zero (a static body's, which nobody reads).
TrianglePairStatus ComputeTrianglePairPotential(const Triangle& a, const Triangle& b,
                                                DerivativeOrder order,
                                                const TrianglePairOptions& options,
                                                Vec4* warm_plane, TrianglePairResult* out,
                                                std::array<bool, 2> sides = {true, true});

/// L_ij(p) of Sec. 4 in world coordinates; +inf outside the feasible set.
double PairLagrangian(const Vec4& plane, const Triangle& a, const Triangle& b);

/// Closest points of two triangles, or `intersecting` when they share a point (closed sets).
struct TriangleSeparation {
  bool intersecting = false;
  double distance = 0.0;
  Vec3 point_a = Vec3::Zero();
  Vec3 point_b = Vec3::Zero();
};
/// Exact up to round-off: the minimum over the 6 vertex-triangle and 9 edge-edge distances,
/// after the 6 edge-triangle crossing tests that detect a piercing edge.
TriangleSeparation SeparateTriangles(const Triangle& a, const Triangle& b);

/// A cheap lower bound on the triangles' distance (0 when it finds none): how far one triangle
/// lies beyond the other's plane, the larger of the two ways round. A culling test before
/// SeparateTriangles (exact for a face against the plane it faces).
double SeparationLowerBound(const Triangle& a, const Triangle& b);

}  // namespace arena::longrange
