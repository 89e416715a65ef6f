// The separating-plane potential of two convex hulls in SDRS (Ye et al., "SDRS: Shape-
// Differentiable Robot Simulator", seed 003 Sec. IV-B):
//   L(p) = w f(1 - |n|) + sum_{v in A} f(n.v + d - d0/2) + sum_{v in B} f(-(n.v + d) - d0/2)
//   P(A, B) = kappa min_p L(p),   p = (n, d) in R^4,
// f the locally supported barrier CLogx (clogx_barrier.h), w the norm-barrier weight, d0 the
// safety gap. A plane that separates the hulls with every vertex at least x0 (+ d0/2) from it
// and |n| <= 1 - x0 costs nothing, so P = 0 beyond the pruning distance 2 (x0 + d0) / (1 - x0);
// closer, L is strictly convex on its feasible set, p* is unique and P is C2. Hulls closer than
// d0 (touching or intersecting when d0 = 0) have no feasible plane: P = +inf.
//
// The plane is found as the authors' code does (Sec. VII): damped Newton, (H + a I) D = -g,
// a from max(1, max|H_ij|), halved after a step that stays feasible and lowers L, tripled
// otherwise; like longrange's solve, a step within L's round-off that lowers the scaled dL/dp is
// accepted too, and convergence is |dL/dp_i| <= max(tolerance, factor x round-off of dL/dp_i).
// Derivatives with respect to the vertices' world positions x (A's, then B's):
//   dP/dx = kappa L_x(p*)                               (envelope theorem; per vertex
//                                                        kappa sign_v f'(s_v) n)
//   d2P/dx2 = kappa (L_xx - L_xp L_pp^-1 L_px)          (implicit function theorem)
//   dp*/dx = -L_pp^-1 L_px
// Only vertices within x0 of the plane (s_v < x0) carry terms, so the Hessian is kept on them.
//
// Relation to longrange (models/longrange/triangle_pair_potential.h, seed 004 Sec. 4): the same
// 4D solve and the same derivative formulas, but for exactly 6 vertices and the global barrier
// 1/x with a fixed norm term 12/(1 - |n|). They stay two kernels: longrange's fixed-size
// (Vec18 / Mat18, unrolled) arithmetic runs millions of times per billiards step and is tuned
// for it, while a hull pair has a variable vertex count, a barrier with compact support (so most
// vertices drop out and the derivatives are kept on the active ones) and a pruning distance.
// Merging them behind one barrier template would make longrange's 6-vertex loops dynamic or
// force both through the same storage layout; neither pays here.
//
// Numerics: the solve runs in coordinates centred between the two hulls' centroids (P is
// translation invariant), which keeps d small for bodies far from the origin.
#pragma once

#include <array>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/geometry/primitives.h"
#include "models/incremental_potential/derivative_order.h"
#include "models/incremental_potential/plane_newton_options.h"

namespace arena::sdrs {

/// The potential's parameters and the plane solve's rules (models/incremental_potential/plane_newton_options.h;
/// the authors stop at |dL/dp| 1e-9, ours at 1e-12 with a round-off floor, for longrange's reason).
struct HullPairOptions : PlaneNewtonOptions {
  double kappa = 1e-2;       // scale of P (energy units); see SdrsModelOptions::kappa
  double x0 = 0.1;           // m: support of the barrier f
  double d0 = 0.0;           // m: safety gap kept between the hulls
  double norm_weight = 1.0;  // weight w of the norm barrier f(1 - |n|) (dimensionless)
  // false: kHessian keeps only the Schur complement's factors (curvature, l_xp, solved,
  // plane_hessian), not the 3K x 3K `hessian`, for a caller that contracts them itself in O(K)
  // (HullPairTwistHessian, models/sdrs/hull_pair_twist.h). An evaluation choice, not physics.
  bool dense_hessian = true;

  /// Beyond this hull distance P = 0 exactly (m): 2 (x0 + d0) / (1 - x0).
  double PruningDistance() const { return 2.0 * (x0 + d0) / (1.0 - x0); }
  /// "" when valid, else the first problem.
  std::string Validate() const;
};

enum class HullPairStatus {
  kConverged,      // the stopping test on dL/dp was met
  kPruned,         // the hulls are at least the pruning distance apart: P = 0, no solve
  kDampingLimit,   // no further decrease of L found (values at the last plane)
  kMaxIterations,  // iteration cap (values at the last plane)
  kIntersecting,   // closer than d0 (touching or overlapping): P = +inf, no derivatives
};
std::string_view ToString(HullPairStatus status);

struct HullPairStats {
  int iterations = -1;  // Newton trials (accepted + rejected); -1 = not run
  int accepted = -1;    // accepted steps
  int gjk_iterations = 0;  // of the cold start's closest points (0: warm start or none)
  double gradient_inf = std::numeric_limits<double>::quiet_NaN();       // |dL/dp|_inf at p*
  double gradient_roundoff = std::numeric_limits<double>::quiet_NaN();  // max_i e_i at p*
  double damping = std::numeric_limits<double>::quiet_NaN();            // final a
  bool warm_started = false;  // the warm-start plane was strictly feasible and used
  void Reset() { *this = HullPairStats{}; }
};

struct HullPairResult {
  HullPairStatus status = HullPairStatus::kConverged;
  double value = std::numeric_limits<double>::quiet_NaN();  // P; +inf intersecting, 0 pruned
  // p* = (n, d) in world coordinates: n.x + d > d0/2 on A, < -d0/2 on B. NaN when intersecting.
  Vec4 plane = Vec4::Constant(std::numeric_limits<double>::quiet_NaN());
  // Vertex numbering: A's rows, then B's. `active`: the vertices with s_v < x0 at p* (the only
  // ones with nonzero derivatives), ascending; `slope`: f'(s_v) for each (<= 0).
  std::vector<int> active;
  std::vector<double> slope;
  VecX gradient;  // dP/dx, 3 (na + nb) (kGradient and up; 0 when intersecting or pruned)
  MatX hessian;   // d2P/dx2 on the active vertices, 3K x 3K in `active` order (kHessian, dense_hessian)
  // The factors of d2P/dx2 = kappa (blockdiag(curvature_i n n^T) - l_xp plane_hessian^-1 l_xp^T)
  // (kHessian): f''(s_v) per active vertex, and L_pp at p* in the centred frame (unscaled).
  std::vector<double> curvature;
  Eigen::Matrix4d plane_hessian = Eigen::Matrix4d::Zero();
  MatX dplane_dx; // dp*/dx, 4 x 3 (na + nb) (kHessian; zero columns off `active`)
  HullPairStats stats;
  // Workspace, kept between calls to save allocations: (x - c, 1) per vertex, L_xp (3K x 4, in
  // `active` order; centred p, world x) and L_pp^-1 L_px on the active vertices.
  std::vector<Vec4> homogeneous;
  Eigen::Matrix<double, Eigen::Dynamic, 4> l_xp;
  Eigen::Matrix<double, 4, Eigen::Dynamic> solved;
};

/// P between the hulls of the rows of `a` (the plane's positive side) and `b`, in world
/// coordinates. `warm_plane` (nullable, world) is the start when strictly feasible and receives
/// p* unless the hulls intersect. Otherwise the start is the plane through the middle of the gap
/// along the closest points' direction, scaled by (d0/2 + 1) / (gap/2 + 1). Never throws.
/// `sides`: derivatives with respect to a's and b's vertices; an unwanted side's entries (a
/// static body's) are left zero and its vertices are not in `active`.
HullPairStatus ComputeHullPairPotential(const PointsX3& a, const PointsX3& b, DerivativeOrder order,
                                        const HullPairOptions& options, Vec4* warm_plane, HullPairResult* out,
                                        std::array<bool, 2> sides = {true, true});

/// L(p) in world coordinates (unscaled by kappa); +inf outside the feasible set.
double HullPairLagrangian(const Vec4& plane, const PointsX3& a, const PointsX3& b, const HullPairOptions& options);

/// The result's Hessian spread over all vertices, 3 (na + nb) square (tests, small pairs).
MatX DenseHullPairHessian(const HullPairResult& r, int vertices);

}  // namespace arena::sdrs
