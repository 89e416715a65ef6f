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

/// Seconds in each phase of the contact terms since they were built, summed over the threads
/// that ran them (the bench's and `make perf`'s per-phase counters).
struct LongRangePhaseSeconds {
  double potential = 0.0;  // mu P: the hierarchy and its exact pair solves
  double friction = 0.0;   // D: the lagged plane friction of the triangle pairs near at the start
  double assembly = 0.0;   // Hessian blocks summed per point pair and carried to the bodies' twists
  double lag = 0.0;        // BeginStep: the friction's lagged weights and planes
};

class LongRangeContact final : public ContactPotential {
 public:
  /// `mu` scales P (the paper's contact coefficient); `options` are the hierarchy's; `dt` and
  /// `friction_eps` (the damping's smoothing, (m/s)^2) are the friction's.
  LongRangeContact(const std::vector<ColliderMesh>& meshes, double mu, const longrange::LongRangeOptions& options,
                   double dt, double friction_eps);
  ~LongRangeContact() override;

  /// mu P's and D's Hessians are the exact ones whatever `project` asks.
  double Evaluate(const ContactConfiguration& x, ContactDerivativeSink* sink, bool hessian, bool project) override;
  bool CheapDerivatives() const override { return true; }
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
  LongRangePhaseSeconds phase_seconds() const;
  int ActiveContacts() const override { return static_cast<int>(stats_.exact_pairs); }
  /// Triangle pairs whose friction the current step lags.
  int friction_pairs() const { return static_cast<int>(friction_.size()); }

 private:
  struct Pair {
    int a = 0, b = 0;  // mesh indices
    longrange::LongRangeData data;
    int friction_begin = 0, friction_end = 0;  // its lagged friction pairs in friction_
    // The last Evaluate's results beyond data, made in parallel over the pairs and handed to
    // the sink in the pairs' order (so that sums do not depend on the thread count).
    double friction_value = 0.0;
    // The poses and derivative order data was last computed at (valid: computed at all). A
    // step's first iterate is the previous step's end, so its mu P is the one already there.
    bool data_valid = false;
    DerivativeOrder data_order = DerivativeOrder::kValue;
    SE3 data_pose_a, data_pose_b;
    // With a sink that takes twist Hessians: the pair's Hessian carried to the twists of its
    // meshes' bodies, twist[i][j] for meshes (a, b)[i] and (a, b)[j], where twist_wanted says.
    Mat6 twist[2][2];
    bool twist_wanted[2][2] = {{false, false}, {false, false}};
    // With any other sink: its point blocks (potential and friction), summed per point pair.
    std::vector<longrange::HessianBlock> blocks;
  };
  // What one Evaluate computes and how it hands it on.
  struct EvaluateMode {
    DerivativeOrder order = DerivativeOrder::kValue;
    bool twist = false;  // the sink takes twist Hessians
  };
  // Per thread: the friction's result and the pair's block sum; and one per thread.
  struct Scratch;
  struct Workspace;
  // One triangle pair's lagged friction data (App. A.3).
  struct FrictionPair {
    int mesh_a = 0, mesh_b = 0;
    std::array<std::pair<int, int>, 6> vertices;  // (mesh, vertex): triangle a's, then b's
    std::array<Vec3, 6> x_start;
    std::array<double, 6> weight;                 // lambda |mu dP_local/dx_k|
    Vec3 normal = Vec3::UnitZ();
    Eigen::Matrix<double, 6, 18> dweight_dx;      // d weight / d x_start
    Eigen::Matrix<double, 3, 18> dnormal_dx;      // d normal / d x_start
    std::array<int, 6> ids;  // the vertices as the body pair's points (PairPoints); -1: a static mesh's
  };
  // Calls leaf(ta, tb) for every triangle pair of meshes a, b (posed in poses_) whose leaf spheres
  // are within `reach` of each other beyond their radii, |x_I - x_J| - (R_I + R_J) * scale <= reach:
  // with the layered radii a parent's test bounds its children's (Def. 5.3).
  // (A template: the callback runs for every leaf pair of the traversal, inlined.)
  template <class Leaf>
  void ForEachNearLeafPair(int a, int b, double scale, double reach, const Leaf& leaf) const;
  // The triangle pair's world triangles at x.
  std::pair<longrange::Triangle, longrange::Triangle> Triangles(const ContactConfiguration& x, int a, int ta, int b, int tb) const;
  // Adds the lagged data of the triangle pair (ta of p.a, tb of p.b) if it lies within d2.
  // Appends it to `out`, with `scratch` for the pair solve (pairs are lagged in parallel).
  void LagPair(const ContactConfiguration& start, Pair& p, int ta, int tb, double lambda,
               longrange::TrianglePairResult& scratch, std::vector<FrictionPair>* out) const;
  // Evaluates the plane friction (eq. 12) of `f` at the trial configuration `x`.
  // Starts from (and updates) the pair's friction_velocity_ entry: the step's pair set is fixed
  // and consecutive iterates are close, so the inner Newton usually needs one or two steps.
  void EvaluateFriction(const ContactConfiguration& x, int pair, FrictionOutputs outputs,
                        PlaneFrictionResult<6>* r);
  // Calls work(i, scratch) for every body pair i, in parallel (isolated: a thread waiting here
  // must not pick up another case's task), each thread with its own scratch. `work` touches only
  // pair i's data, so the callers' sums, in the pairs' order, do not depend on the thread count.
  template <class Work>
  void ForEachPairInParallel(const Work& work);
  // mu P and D of one body pair at x (Pair's results; false: its meshes intersect). Touches
  // only the pair's own data and friction pairs, so pairs run in parallel.
  bool EvaluatePair(const ContactConfiguration& x, const EvaluateMode& mode, Pair& p, Scratch& w);
  // Evaluates friction pair `pair`; its gradient to friction_gradient_, its Hessian blocks to
  // the scratch's block sum (numbered as its body pair's points, FrictionPair::ids).
  void EvaluateFrictionPair(const ContactConfiguration& x, int pair, const EvaluateMode& mode, Scratch& w, double* value);
  // Friction pair `pair`'s mixed derivatives (end, start) to blocks_ (numbered as its body pair's points).
  void AddStartBlocks(const ContactConfiguration& x, int pair);
  // Pair p's summed point blocks carried to its bodies' twists (Pair::twist).
  void TwistBlocks(const ContactConfiguration& x, const longrange::PointBlockSum& blocks, Pair& p) const;
  // Pair p's gradients (mu P's and D's) and Hessian to the sink.
  void SendToSink(const ContactConfiguration& x, const Pair& p, const EvaluateMode& mode,
                  ContactDerivativeSink* sink) const;
  // World position of a point of pair p (a vertex or a node centre) and its MeshPoint.
  Vec3 PointWorld(const ContactConfiguration& x, const Pair& p, int point) const;
  MeshPoint PointOf(const Pair& p, int point) const;

  double mu_;
  longrange::LongRangeOptions options_;
  double dt_, friction_eps_;
  std::vector<double> mesh_friction_;  // per mesh: its collider's coefficient
  // Per mesh: fixed to the world. The sink drops its points' derivatives (ContactDerivativeSink),
  // so the potential does not compute them.
  std::vector<bool> mesh_static_;
  std::vector<FrictionPair> friction_;
  std::vector<Vec3> friction_velocity_;  // per friction pair: its last plane velocity u (NaN: none yet)
  std::vector<longrange::Vec18> friction_gradient_;  // per friction pair: dD/dx+ of the last Evaluate
  std::unique_ptr<Workspace> workspace_;  // per-thread scratch of the parallel Evaluate
  PlaneFrictionResult<6> friction_result_;  // scratch (large: kept off the stack)
  std::vector<std::vector<FrictionPair>> lagged_;  // per body pair: BeginStep's friction pairs
  longrange::LongRangeData measure_data_;     // scratch of PairContacts (the pairs' own keep their warm starts)
  longrange::PointBlockSum blocks_;  // one body pair's Hessian blocks, summed per point pair
  double send_seconds_ = 0.0;        // the serial hand-over to the sink (assembly)
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
