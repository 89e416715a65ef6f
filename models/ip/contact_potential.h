// What an incremental-potential model's contact law provides (the one thing the models of seeds
// 003, 004 and IPC do not share): a potential of the world positions of the collider meshes'
// vertices, with its gradient and Hessian, summed over per-pair kernels (IPC Toolkit's habit:
// each kernel FD-tested on its own). The shared step (models/ip/step_energy.h) carries the
// derivatives from vertices to joint coordinates through a ContactDerivativeSink.
#pragma once

#include <span>
#include <vector>

#include "core/geometry/primitives.h"
#include "models/ip/collider_meshes.h"

namespace arena {

/// A vertex of a collider mesh: (mesh index in the meshes vector, vertex index in that mesh).
struct VertexRef {
  int mesh = 0;
  int vertex = 0;
};

/// The meshes and their vertices' world positions at one configuration.
struct ContactConfiguration {
  const std::vector<ColliderMesh>* meshes = nullptr;
  std::vector<PointsX3> world;  // per mesh, N x 3
};

/// Receives one term's derivatives over a stencil of vertices: gradient (3 n, vertex-major
/// x, y, z) and, when not null, its Hessian (3 n x 3 n). Static vertices may be in a stencil;
/// the sink drops what does not move.
class ContactDerivativeSink {
 public:
  virtual ~ContactDerivativeSink() = default;
  virtual void Add(std::span<const VertexRef> stencil, const VecX& gradient, const MatX* hessian) = 0;
};

class ContactPotential {
 public:
  virtual ~ContactPotential() = default;
  /// The potential at `x` (+inf where it is not defined: intersecting meshes). With a sink,
  /// each term's gradient and, when `hessian`, its Hessian: exact, or projected to positive
  /// semidefinite per term when `project` (Newton needs a descent direction; the implicit
  /// function theorem needs the exact one).
  virtual double Evaluate(const ContactConfiguration& x, ContactDerivativeSink* sink, bool hessian, bool project) = 0;
  /// The largest alpha in (0, 1] for which moving every vertex linearly from x by alpha times
  /// `displacement` keeps the potential finite (a conservative continuous-collision bound).
  virtual double MaxStep(const ContactConfiguration& x, const std::vector<PointsX3>& displacement) = 0;
};

}  // namespace arena
