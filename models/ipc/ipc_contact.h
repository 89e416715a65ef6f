// The contact terms of the `ipc` model (Li et al., "Incremental Potential Contact", SIGGRAPH
// 2020) as a ContactPotential of the incremental-potential core (models/incremental_potential/contact_potential.h),
// over the collider meshes' world vertices:
//
//   B(x) = kappa sum_pairs b(d_pair(x))   (Sec. 4)
//     over the point-triangle pairs (vertices of either mesh against triangles of the other) and
//     edge-edge pairs (times the mollifier of Sec. 4.3) between every two meshes the scene lets
//     collide (Scene::CollisionPairs: a body never against itself or its parent, groups,
//     masks, excluded pairs, self_collision), the static environment included. b is the clamped
//     log barrier of the squared distance with activation distance dhat (models/ipc/barrier.h),
//     or the global 1/dist barrier of seed 004's ablation (Ye et al., ICLR 2025, App. A.6.3:
//     every pair, no cut-off). Pairs are not merged by their closest features: a vertex above a
//     shared triangle edge counts once per triangle, which keeps the sum continuous when the
//     vertex crosses into a face region (merging, as IPC's code does, makes it jump there).
//   D(x) = sum_pairs mu lambda f0(|P^T sum_k w_k (x_k - x_k^t)|)   (Sec. 5)
//     lagged friction: at BeginStep every pair the barrier acts on at the start (within dhat;
//     every pair for the global barrier) fixes its normal force lambda, closest-point weights w
//     and tangent basis P (models/ipc/friction.h); mu is the smaller of its two colliders'
//     coefficients, eps_u = eps_v dt.
//
// Hessians are exact, or projected to PSD per pair when Evaluate's `project` asks.
// StartDerivatives gives d(grad_x+ D)/dx^t exactly: through the slip's x^t and through lambda,
// w and P, which depend on the start positions (forward-mode automatic differentiation of the
// same formulas, the closest-feature types held at the start's).
//
// Step bound (in place of the continuous collision detection along straight vertex paths that
// filters IPC's line search):
// conservative advancement along the solver's true path. Every pair closer than
// r = (L_a + L_b) / (1 - eta) at alpha = 0 (L the largest vertex speed bound of each mesh,
// models/incremental_potential/path_speed.h) is tracked; the others start farther than r and approach by at most
// L_a + L_b, so they stay farther than eta r. The tracked pairs advance together: at alpha,
// with distances d_p(alpha), the path can go on by tau = min_p (d_p(alpha) - eta d_p(0)) / l_p
// (l_p the pair's largest speed bound on each side, summed), since no distance shrinks faster
// than l_p; repeated until alpha = 1 or no progress. Every pair thus keeps at least eta = 0.1
// of its distance at the start of the line search (as ConservativeStepBound, but a pair sliding
// along a surface advances at the rate of its own clearance instead of being held at one
// fraction of it). A pair with d_p(alpha) - (1 - alpha) l_p >= eta d_p(0) cannot bind for the
// rest of the path and is dropped (the bound is the same; the iterations are cheaper).
#pragma once

#include <array>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "models/incremental_potential/conservative_advancement.h"
#include "models/incremental_potential/contact_potential.h"
#include "models/ipc/barrier.h"
#include "models/ipc/candidates.h"
#include "models/ipc/friction.h"

namespace arena {

struct IpcContactParameters {
  ipc::BarrierParameters barrier;  // kind and activation distance dhat (m)
  double kappa = 1.0;              // barrier stiffness: N/m^3 (clamped log of squared m), N m^2 (1/dist)
  double friction_eps_v = 1e-3;    // m/s: sliding speed below which friction is mollified
  double dt = 0.04;                // s: the step, for eps_u = eps_v dt
  /// "" when valid.
  std::string Validate() const;
};

/// Counts of the last call of each kind (reset by it).
struct IpcContactStats {
  int candidate_pairs = 0;  // broad-phase pairs in the last Evaluate
  int active_pairs = 0;     // pairs with a nonzero barrier in the last Evaluate
  double min_distance = std::numeric_limits<double>::infinity();  // m, over those candidates
  int advance_iterations = 0;  // conservative-advancement iterations of the last MaxStepOnPath
  int tracked_pairs = 0;       // pairs it tracked
};

class IpcContact final : public ContactPotential {
 public:
  /// Throws InvalidArgument for invalid parameters or meshes (ipc::MakeSurfaceTopology).
  IpcContact(const std::vector<ColliderMesh>& meshes, const IpcContactParameters& params);

  double Evaluate(const ContactConfiguration& x, ContactDerivativeSink* sink, bool hessian, bool project) override;
  /// ipc::ConservativeStepBound with each chord inflated by pi/2: sound when every body moves
  /// along one screw (a free body, or a joint from the world) by at most pi, since an arc of
  /// angle theta <= pi is at most (theta / 2) / sin(theta / 2) <= pi / 2 times its chord.
  double MaxStep(const ContactConfiguration& x, const std::vector<PointsX3>& displacement) override;
  /// Conservative advancement along the true path (above): sound for any joint tree.
  double MaxStepOnPath(const ContactConfiguration& x, ContactPath& path) override;
  void BeginStep(const ContactConfiguration& start) override;
  /// Per pair of meshes: the barrier's force and the lagged friction's on the first, at the
  /// |force|-weighted mean of its primitive pairs' closest points on the first.
  void PairContacts(const ContactConfiguration& x, std::vector<MeshPairContact>* out) override;
  void StartDerivatives(const ContactConfiguration& x, ContactStartSink* sink) override;

  const IpcContactParameters& parameters() const { return params_; }
  const IpcContactStats& stats() const { return stats_; }
  int ActiveContacts() const override { return stats_.active_pairs; }
  double ActiveTerms() const override { return stats_.active_pairs; }
  /// Pairs whose friction the current step lags.
  int friction_pairs() const { return static_cast<int>(friction_.size()); }

 private:
  struct MeshPair {
    int a = 0, b = 0;  // mesh indices, a < b, a pair of Scene::CollisionPairs
  };
  // One pair's stencil: point-triangle (p, t0, t1, t2) or edge-edge (ea0, ea1, eb0, eb1).
  struct Stencil {
    bool edge_edge = false;
    std::array<std::pair<int, int>, 4> vertices;  // (mesh, vertex)
    double eps_x = 0.0;                           // edge-edge mollifier threshold (rest lengths)
  };
  struct FrictionPair {
    Stencil stencil;
    ipc::Vec12 x_start = ipc::Vec12::Zero();
    ipc::FrictionStencil lagged;
    double mu = 0.0;
    int type = 0;  // the closest-feature type at the start (ipc::PointTriangleType or EdgeEdgeType)
  };

  // Every stencil of the broad phase between meshes a and b at positions x within `radius`.
  void Stencils(const ContactConfiguration& x, const MeshPair& p, double radius, std::vector<Stencil>* out) const;
  ipc::Vec12 Positions(const ContactConfiguration& x, const Stencil& s) const;
  ipc::FrictionParameters Friction(double mu) const;

  IpcContactParameters params_;
  std::vector<ipc::SurfaceTopology> topology_;     // per mesh
  std::vector<VecX> edge_length2_;                 // per mesh, per edge: squared rest length
  std::vector<double> mesh_friction_;              // per mesh
  std::vector<MeshPair> pairs_;
  std::vector<FrictionPair> friction_;
  IpcContactStats stats_;
  // Workspace.
  std::vector<Stencil> stencils_;
  std::vector<Stencil> tracked_stencils_;  // the step bound's pairs (TrackedDistance::id)
  std::vector<TrackedDistance> tracked_;
  ContactConfiguration path_point_;
};

}  // namespace arena
