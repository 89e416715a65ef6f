// The contact terms of the `longrange` model (seed 004, Ye et al.) as a ContactPotential of the
// incremental-potential core (models/incremental_potential/contact_potential.h):
//   mu P      the bounding-sphere-hierarchy potential P_BSH (Sec. 4-5, Algorithm 1;
//             models/longrange/long_range_potential.h) summed over every pair of meshes the
//             scene lets collide (Scene::CollisionPairs), the static environment included;
//   D         frictional damping (App. A.3, the final formula): for every triangle pair within
//             d2 at the step's start, the local potential P_local = (1 - phi) P_ij (Eq. 12: the
//             leaf blend with 0 as its far term) gives each vertex a lagged normal force
//             |mu dP_local/dx_k|, and the pair's vertices are damped relative to the pair's
//             lagged separating plane (models/incremental_potential/plane_friction.h) with weight
//             lambda |mu dP_local/dx_k|, lambda the pair's friction coefficient (the smaller of
//             its colliders'). The lagged data are differentiated exactly for the step's
//             derivatives with respect to its start.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "models/incremental_potential/conservative_advancement.h"
#include "models/incremental_potential/contact_potential.h"
#include "models/longrange/long_range_potential.h"
#include "models/incremental_potential/plane_friction.h"
#include "models/longrange/point_block_sum.h"

namespace arena {

struct LongRangeContactStats {
  long exact_pairs = 0;       // triangle-pair solves in the last Evaluate
  long centered_terms = 0;
  long unconverged_pairs = 0;
};

class LongRangeContact final : public ContactPotential {
 public:
  /// `mu` scales P (the paper's contact coefficient); `options` are the hierarchy's; `dt` and
  /// `friction_eps` (the damping's smoothing, (m/s)^2) are the friction's.
  LongRangeContact(const std::vector<ColliderMesh>& meshes, double mu, const longrange::LongRangeOptions& options,
                   double dt, double friction_eps);

  double Evaluate(const ContactConfiguration& x, ContactDerivativeSink* sink, bool hessian, bool project) override;
  /// P is a global barrier, +inf only where triangles of two bodies meet; the line search's
  /// energies reject intersecting trial points, but a step could pass one body through another
  /// between them. The solver's bound (MaxStepOnPath) therefore tracks every triangle pair that
  /// could come within 0.1 of its distance along the path (models/incremental_potential/conservative_advancement.h).
  /// MaxStep, for straight-line displacements, is not used by the solver and returns 1.
  double MaxStep(const ContactConfiguration& x, const std::vector<PointsX3>& displacement) override;
  double MaxStepOnPath(const ContactConfiguration& x, ContactPath& path) override;
  /// The last MaxStepOnPath's advancement.
  const AdvancementStats& advancement() const { return advancement_; }
  void BeginStep(const ContactConfiguration& start) override;
  /// Per pair of meshes: mu P's force and the plane friction's on the moving mesh (the first
  /// unless it is static), at the mean of its vertices weighted by their share of the force.
  void PairContacts(const ContactConfiguration& x, std::vector<MeshPairContact>* out) override;
  void StartDerivatives(const ContactConfiguration& x, ContactStartSink* sink) override;
  const LongRangeContactStats& stats() const { return stats_; }
  int ActiveContacts() const override { return static_cast<int>(stats_.exact_pairs); }
  /// Triangle pairs whose friction the current step lags.
  int friction_pairs() const { return static_cast<int>(friction_.size()); }

 private:
  struct Pair {
    int a = 0, b = 0;  // mesh indices
    longrange::LongRangeData data;
    int friction_begin = 0, friction_end = 0;  // its lagged friction pairs in friction_
  };
  // One triangle pair's lagged friction data (App. A.3).
  struct FrictionPair {
    int mesh_a = 0, mesh_b = 0;
    std::array<std::pair<int, int>, 6> vertices;  // (mesh, vertex): triangle a's, then b's
    std::array<Vec3, 6> x_start;
    std::array<double, 6> weight;                 // lambda |mu dP_local/dx_k|
    Vec3 normal = Vec3::UnitZ();
    Eigen::Matrix<double, 6, 18> dweight_dx;      // d weight / d x_start
    Eigen::Matrix<double, 3, 18> dnormal_dx;      // d normal / d x_start
  };
  // Calls leaf(ta, tb) for every triangle pair of meshes a, b (posed in poses_) whose leaf spheres
  // are within `reach` of each other beyond their radii, |x_I - x_J| - (R_I + R_J) * scale <= reach:
  // with the layered radii a parent's test bounds its children's (Def. 5.3).
  void ForEachNearLeafPair(int a, int b, double scale, double reach, const std::function<void(int, int)>& leaf) const;
  // The triangle pair's world triangles at x.
  std::pair<longrange::Triangle, longrange::Triangle> Triangles(const ContactConfiguration& x, int a, int ta, int b, int tb) const;
  // Adds the lagged data of the triangle pair (ta of p.a, tb of p.b) if it lies within d2.
  void LagPair(const ContactConfiguration& start, Pair& p, int ta, int tb, double lambda);
  // Evaluates the plane friction (eq. 12) of `f` at the trial configuration `x`.
  // Starts from (and updates) the pair's friction_velocity_ entry: the step's pair set is fixed
  // and consecutive iterates are close, so the inner Newton usually needs one or two steps.
  void EvaluateFriction(const ContactConfiguration& x, int pair, FrictionOutputs outputs,
                        PlaneFrictionResult<6>* r);
  // Adds friction pair `pair`'s value and gradient, and its Hessian blocks to blocks_ (numbered
  // as the body pair's `points`).
  void AddFriction(const ContactConfiguration& x, int pair, const longrange::PairPoints& points,
                   ContactDerivativeSink* sink, bool hessian, double* value);
  // Friction pair `pair`'s mixed derivatives (end, start) to blocks_ (numbered as `points`).
  void AddStartBlocks(const ContactConfiguration& x, int pair, const longrange::PairPoints& points);
  // mu P's gradient to the sink; with `hessian`, starts blocks_ with its blocks.
  void AddPotential(const Pair& p, ContactDerivativeSink* sink, bool hessian);
  // The body pair's summed blocks (potential and friction) to the sink.
  void AddBlocks(const Pair& p, ContactDerivativeSink* sink) const;

  double mu_;
  longrange::LongRangeOptions options_;
  double dt_, friction_eps_;
  std::vector<double> mesh_friction_;  // per mesh: its collider's coefficient
  // Per mesh: fixed to the world. The sink drops its points' derivatives (ContactDerivativeSink),
  // so the potential does not compute them.
  std::vector<bool> mesh_static_;
  std::vector<FrictionPair> friction_;
  std::vector<Vec3> friction_velocity_;  // per friction pair: its last plane velocity u (NaN: none yet)
  PlaneFrictionResult<6> friction_result_;  // scratch (large: kept off the stack)
  longrange::TrianglePairResult lag_result_;  // scratch of LagPair
  longrange::LongRangeData measure_data_;     // scratch of PairContacts (the pairs' own keep their warm starts)
  longrange::PointBlockSum blocks_;  // one body pair's Hessian blocks, summed per point pair
  std::vector<std::unique_ptr<longrange::BoundingSphereHierarchy>> bsh_;  // per mesh
  std::vector<longrange::BshPose> poses_;
  std::vector<Pair> pairs_;
  LongRangeContactStats stats_;
  // The step bound's workspace: tracked triangle pairs (mesh a, triangle a, mesh b, triangle b).
  std::vector<std::array<int, 4>> tracked_triangles_;
  std::vector<TrackedDistance> tracked_;
  ContactConfiguration path_point_;
  AdvancementStats advancement_;
};

}  // namespace arena
