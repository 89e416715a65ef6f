// The contact terms of the `sdrs` model (seed 003, Ye et al., "SDRS: Shape-Differentiable
// Robot Simulator") as a ContactPotential of the incremental-potential core
// (models/incremental_potential/contact_potential.h): every collider mesh is a convex hull (its vertex set; the
// paper decomposes links into convex pieces, we take each collider as one), and every pair of
// hulls the scene lets collide, not both static, adds the separating-plane potential
// P(A, B) = kappa min_p L(p) of Sec. IV-B (models/sdrs/hull_pair_potential.h).
//
// P vanishes beyond the pruning distance 2 (x0 + d0) / (1 - x0), so a broad phase keeps only
// the pairs whose world AABBs (of the hull vertices), each grown by half that distance, overlap
// (checked against every pair in the tests). The pair solves run in parallel (TBB) with one
// warm-start plane and one result per pair; their derivatives reach the sink afterwards in pair
// order, so the sum does not depend on the thread count.
//
// Step bound: every tracked vertex must keep a fraction of its distance to a separating plane
// of its pair (the middle plane of the closest points) along the solver's path; the hulls are
// convex, so vertices on the two sides of one plane keep the hulls apart
// (models/incremental_potential/conservative_advancement.h does the advancing). The plane is fixed in the world, or,
// when one body of the pair carries the other (links of one chain), fixed to the carrier, so that
// only their relative motion is bounded (models/incremental_potential/path_speed.h, RelativePathSpeedBound).
//
// Friction (Sec. IV-C; the authors' code keeps only the plane's translational velocity): at the
// step's start (BeginStep) every pair with P > 0 and a nonzero coefficient mu (the smaller of its
// colliders') lags its plane's unit normal and its active vertices' normal forces
// lambda_v = kappa |f'(s_v)| |n|; during the step those vertices are damped relative to the plane
// (models/incremental_potential/plane_friction.h, with weights mu lambda_v). The lagged data are differentiated
// exactly (through the pair's Hessian and dp*/dx) for the step's derivatives with respect to its
// start (StartDerivatives), as longrange does.
#pragma once

#include <array>
#include <utility>
#include <limits>
#include <vector>

#include "models/incremental_potential/conservative_advancement.h"
#include "models/incremental_potential/contact_potential.h"
#include "models/incremental_potential/plane_friction.h"
#include "models/sdrs/hull_pair_potential.h"
#include "models/sdrs/hull_pair_twist.h"

namespace arena {

struct SdrsContactStats {
  int candidate_pairs = 0;     // pairs past the broad phase in the last Evaluate
  int active_pairs = 0;        // with P > 0
  int active_vertices = 0;     // summed over those pairs: vertices within x0 of their plane (the terms)
  int unconverged_pairs = 0;   // damping or iteration limit
  long newton_trials = 0;      // summed over the pairs
  int warm_started_pairs = 0;  // whose warm plane was feasible
};

class SdrsContact final : public ContactPotential {
 public:
  /// Throws InvalidArgument for bad options. `dt` (s) and `friction_eps` ((m/s)^2, the smoothing
  /// of the slip speed) are the friction's.
  SdrsContact(const std::vector<ColliderMesh>& meshes, const sdrs::HullPairOptions& options, double dt = 0.04,
              double friction_eps = 1e-6);

  double Evaluate(const ContactConfiguration& x, ContactDerivativeSink* sink, bool hessian, bool project) override;
  /// alpha keeping every vertex on its side of its pair's middle plane (straight-line motion).
  double MaxStep(const ContactConfiguration& x, const std::vector<PointsX3>& displacement) override;
  /// The same along the solver's path, by conservative advancement of the vertex-plane distances.
  double MaxStepOnPath(const ContactConfiguration& x, ContactPath& path) override;
  /// Per pair with P > 0: the repulsion on the moving mesh (the first unless it is static), at
  /// the mean of its active vertices weighted by their force. Leaves the warm starts alone.
  void PairContacts(const ContactConfiguration& x, std::vector<MeshPairContact>* out) override;
  int ActiveContacts() const override { return stats_.active_pairs; }
  double ActiveTerms() const override { return stats_.active_vertices; }
  void BeginStep(const ContactConfiguration& start) override;
  void StartDerivatives(const ContactConfiguration& x, ContactStartSink* sink) override;
  /// Pairs whose friction the current step lags.
  int friction_pairs() const { return static_cast<int>(friction_.size()); }
  const SdrsContactStats& stats() const { return stats_; }
  const AdvancementStats& advancement() const { return advancement_; }

  /// The pairs (mesh a, mesh b) the broad phase keeps at x, ascending; `brute_force`: every
  /// allowed pair (tests compare the two).
  std::vector<std::array<int, 2>> CandidatePairs(const ContactConfiguration& x, bool brute_force = false);
  /// Threads for the pair solves: 0 = TBB's default, 1 = serial (tests of determinism).
  void set_max_threads(int threads) { max_threads_ = threads; }

 private:
  struct Pair {
    int a = 0, b = 0;  // mesh indices, a < b
    Vec4 plane = Vec4::Constant(std::numeric_limits<double>::quiet_NaN());  // warm start
    sdrs::HullPairResult result;
    sdrs::Mat12 twist = sdrs::Mat12::Zero();  // the twist Hessian, when the sink takes one
  };
  // The hull vertices of every mesh at x into world_, and their AABBs.
  void PoseHulls(const ContactConfiguration& x);
  // The mesh point of vertex m of pair p's numbering (a's hull vertices, then b's).
  MeshPoint PointOf(const ContactConfiguration& x, const Pair& p, int m) const;
  // Solves the candidate pairs (in parallel when there are several); `project`: their Hessians
  // clamped to PSD; `twist`: carried to the bodies' twists (HullPairTwistHessian) instead of kept
  // per vertex.
  void SolvePairs(DerivativeOrder order, bool project, bool twist);

  // One pair's lagged friction data (Sec. IV-C): its active vertices at the step's start.
  struct FrictionPair {
    int pair = 0;                                    // index in pairs_
    std::vector<std::pair<int, int>> vertices;       // (mesh, vertex)
    std::vector<bool> moving;                        // per vertex: not on a static mesh
    PlaneFrictionInput<Eigen::Dynamic> input;        // x_start, weights, normal, dt, eps
    MatX dweight_dx;                                 // K x 3K: d weight / d x_start
    MatX dnormal_dx;                                 // 3 x 3K: d normal / d x_start
    Vec3 velocity = Vec3::Constant(std::numeric_limits<double>::quiet_NaN());  // last u (warm start)
  };
  MeshPoint MeshPointOf(const ContactConfiguration& x, const std::pair<int, int>& vertex) const;
  // Evaluates friction pair `f` at x (its plane velocity warm-starts and is kept).
  void EvaluateFriction(const ContactConfiguration& x, FrictionPair& f, FrictionOutputs outputs);

  sdrs::HullPairOptions options_;
  double dt_ = 0.04, friction_eps_ = 1e-6;
  std::vector<double> friction_coefficient_;  // per mesh: its collider's
  std::vector<FrictionPair> friction_;
  PlaneFrictionResult<Eigen::Dynamic> friction_result_;  // scratch
  std::vector<std::vector<int>> hull_;  // per mesh: the vertices of its convex hull
  std::vector<bool> static_;            // per mesh: fixed to the world
  std::vector<Pair> pairs_;
  std::vector<PointsX3> world_;         // per mesh: its hull vertices at the current x
  std::vector<std::array<Vec3, 2>> box_;  // per mesh: AABB of world_ (min, max)
  std::vector<int> candidates_;         // pairs_ indices past the broad phase
  int max_threads_ = 0;
  SdrsContactStats stats_;
  sdrs::HullPairResult scratch_;        // PairContacts' cold solves
  // MaxStepOnPath's workspace: per tracked vertex, its pair's plane facing it (in the world, or in
  // the frame of the anchor mesh's body), its mesh and row, and the anchor (-1: the world).
  struct TrackedVertex {
    Vec4 plane;
    int mesh = 0, vertex = 0, anchor = -1;
  };
  std::vector<TrackedVertex> tracked_vertices_;
  std::vector<TrackedDistance> tracked_;
  std::vector<double> fastest_;  // per mesh: its fastest vertex's world speed bound
  ContactConfiguration path_point_;
  AdvancementStats advancement_;
};

}  // namespace arena
