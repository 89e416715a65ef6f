// What an incremental-potential model's contact law provides (the one thing the models of seeds
// 003, 004 and IPC do not share): a potential of the world positions of the collider meshes'
// vertices, with its gradient and Hessian, summed over per-pair kernels (IPC Toolkit's habit:
// each kernel FD-tested on its own). The shared step (models/incremental_potential/step_energy.h) carries the
// derivatives from vertices to joint coordinates through a ContactDerivativeSink.
#pragma once

#include <limits>
#include <utility>
#include <vector>

#include "core/geometry/primitives.h"
#include "core/math/se3.h"
#include "models/incremental_potential/collider_meshes.h"

namespace arena {

/// The meshes at one configuration: their bodies' world poses and their vertices' world positions.
struct ContactConfiguration {
  const std::vector<ColliderMesh>* meshes = nullptr;
  std::vector<SE3> pose;        // per mesh: the world pose of its body (identity when static)
  std::vector<PointsX3> world;  // per mesh, N x 3: pose * vertices
};

/// A point a contact term depends on: a mesh vertex, or any point fixed to a mesh's body (a
/// bounding-sphere centre), given by its mesh and its position in the body frame.
struct MeshPoint {
  int mesh = 0;
  Vec3 local = Vec3::Zero();
  // The mesh vertex the point is (its row in the mesh's vertices), or -1 for any other point.
  // Design derivatives with respect to vertex positions (StepEnergy::DesignJacobian) need it.
  int vertex = -1;
};

/// Receives a contact term's derivatives with respect to world point positions and carries them
/// to the bodies (models/incremental_potential/step_energy.cc). AddHessian takes d2E/dx_p dx_q for every ORDERED
/// pair (p, q) of points, so a symmetric term gives both (p, q) and (q, p). Points of static
/// meshes are dropped.
class ContactDerivativeSink {
 public:
  virtual ~ContactDerivativeSink() = default;
  virtual void AddGradient(const MeshPoint& p, const Vec3& g) = 0;
  virtual void AddHessian(const MeshPoint& p, const MeshPoint& q, const Mat3& block) = 0;
  /// Whether a term may give its Hessian already carried to its bodies' twists (AddTwistHessian)
  /// instead of as point blocks: sdrs's hull pairs do, in O(K) rather than O(K^2) blocks.
  virtual bool TakesTwistHessians() const { return false; }
  /// sum_pq B_p^T (d2E/dx_p dx_q) B_q over the term's points p on mesh_p's body and q on
  /// mesh_q's, B = dx/dxi = [-[x]x, I] for a world twist xi = [omega; v] applied on the left
  /// (models/incremental_potential/pose_derivatives.h), for every ORDERED pair of meshes as AddHessian. The
  /// gradient still goes point by point (AddGradient: the pose's second-order term is built from
  /// it). Called only when TakesTwistHessians(); the default throws Unsupported.
  virtual void AddTwistHessian(int mesh_p, int mesh_q, const Mat6& block);
  /// A stencil of mesh vertices: gradient 3 n (vertex-major), Hessian 3 n x 3 n (or null).
  void AddStencil(const ContactConfiguration& x, const std::vector<std::pair<int, int>>& vertices, const VecX& gradient,
                  const MatX* hessian);
};

/// Receives the mixed derivatives d2E / dx+_p dx_q of a term that depends on the step's start
/// (lagged friction): p a point at the end configuration, q at the start configuration.
class ContactStartSink {
 public:
  virtual ~ContactStartSink() = default;
  virtual void AddMixed(const MeshPoint& p, const MeshPoint& q, const Mat3& block) = 0;
};

/// The solver's trial path of one line search, x(alpha) = x(q (+) alpha d) for alpha in [0, 1]:
/// vertices of rotating bodies move on arcs, not along their chords.
class ContactPath {
 public:
  virtual ~ContactPath() = default;
  /// The configuration at alpha.
  virtual void At(double alpha, ContactConfiguration* out) = 0;
  /// Per mesh, per vertex: a bound on |dx/dalpha| over the whole path, so a vertex moves at
  /// most |b - a| times it between alpha = a and b (models/incremental_potential/path_speed.h).
  virtual const std::vector<VecX>& SpeedBounds() = 0;
  /// Per vertex of `mesh`: a bound on how fast it moves in the frame of body `frame` (the mesh's
  /// body or an ancestor of it) over the whole path (models/incremental_potential/path_speed.h,
  /// RelativePathSpeedBound). Null when `frame` is neither, or when the path cannot say (callers
  /// keep to world-fixed bounds).
  virtual const VecX* SpeedBoundsIn(int mesh, int frame) {
    (void)mesh;
    (void)frame;
    return nullptr;
  }
};

/// The contact between two meshes at one configuration, summed over the pair's terms: what the
/// physical criteria of contact measure (models/contact_criteria.h, Simulator::ContactPoints).
struct MeshPairContact {
  int mesh_a = 0, mesh_b = 0;
  Vec3 repulsion_on_a = Vec3::Zero();  // N: the potential's force on mesh a (friction aside)
  Vec3 friction_on_a = Vec3::Zero();   // N: the friction term's force on mesh a
  // Where the repulsion acts on a: the mean of the points of a that carry it, weighted by the
  // magnitude of their share (the closest points of IPC's primitive pairs; longrange's vertices).
  Vec3 point_a = Vec3::Zero();
};

class ContactPotential {
 public:
  virtual ~ContactPotential() = default;
  /// Called once per step, before any Evaluate, with the start configuration: terms lagged at
  /// the start (friction's normal forces and planes, as IPC lags them) are set up here.
  virtual void BeginStep(const ContactConfiguration& start) { (void)start; }
  /// Every pair of meshes with a nonzero repulsion at x (see MeshPairContact). Empty by default.
  virtual void PairContacts(const ContactConfiguration& x, std::vector<MeshPairContact>* out) {
    (void)x;
    out->clear();
  }
  /// The mixed derivatives of the lagged terms at the end configuration x, for the implicit
  /// function theorem's derivatives with respect to the start state (nothing without such terms).
  virtual void StartDerivatives(const ContactConfiguration& x, ContactStartSink* sink) {
    (void)x;
    (void)sink;
  }
  /// The potential at `x` (+inf where it is not defined: intersecting meshes). With a sink,
  /// each term's gradient and, when `hessian`, its Hessian: exact, or projected to positive
  /// semidefinite per term when `project` (Newton needs a descent direction; the implicit
  /// function theorem needs the exact one).
  virtual double Evaluate(const ContactConfiguration& x, ContactDerivativeSink* sink, bool hessian, bool project) = 0;
  /// Whether the gradient and Hessian cost little beyond the energy (longrange's: the exact pair
  /// and friction solves are most of both, a Hessian evaluation about 1.8 energies). The step
  /// then evaluates a line search's first trial with its derivatives and keeps them for the
  /// next iterate (models/incremental_potential/ip_simulator.cc). The others (ipc, sdrs) keep
  /// their energy-only trials: sdrs's design derivatives against Ridders differences moved
  /// from passing to 3e-6 .. 1.4e-5 with kept trials (its step map at rounding level).
  virtual bool CheapDerivatives() const { return false; }
  /// The largest alpha in (0, 1] for which moving every vertex linearly from x by alpha times
  /// `displacement` keeps the potential finite (a conservative continuous-collision bound).
  virtual double MaxStep(const ContactConfiguration& x, const std::vector<PointsX3>& displacement) = 0;
  /// The largest alpha in (0, 1] for which the potential stays finite along the solver's true
  /// path from x = path.At(0). The solver calls this one; by default it is MaxStep with the
  /// chords path.At(1) - x (potentials whose bound does not depend on the path's shape).
  virtual double MaxStepOnPath(const ContactConfiguration& x, ContactPath& path);
  /// The contact terms active at the last Evaluate (the step's StepReport::contacts): IPC's
  /// primitive pairs within dhat, longrange's triangle pairs resolved exactly.
  virtual int ActiveContacts() const { return 0; }
  /// The terms with nonzero derivatives at the last Evaluate, where the potential counts them
  /// (IPC's primitive pairs within dhat, sdrs's hull vertices within x0 of their plane); NaN
  /// where it does not. What potential_cost compares the methods' costs per term by.
  virtual double ActiveTerms() const { return std::numeric_limits<double>::quiet_NaN(); }
};

}  // namespace arena
