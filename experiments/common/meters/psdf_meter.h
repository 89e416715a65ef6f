// The violation metric of Silico Fig. 9 as the paper measured it: the P-SDF phi = alpha* - 1 of
// each (moving shape, floor) pair from a standalone alpha-scaling collision program (P14) solved
// at the paper's settings (relaxation 1e-4, tolerance 1e-5, 20 iterations, cold start), and the
// violation max(0, -phi). phi is relative (a scale factor), not metres; box_drop reports metres
// separately with our exact geometry. The same meter measures every model.
#pragma once

#include <vector>

#include "core/scene/scene.h"
#include "models/silico/collision_program.h"

namespace arena {

class PsdfMeter {
 public:
  /// Planar scenes only; the pairs are the scene's (moving shape, half-plane) pairs.
  explicit PsdfMeter(const Scene& scene);

  /// max over floor pairs of max(0, -phi) at configuration q.
  double Violation(const VecX& q);

 private:
  std::vector<silico::CollisionProgram> programs_;
  std::vector<int> idx_q_;  // q index of each pair's body pose (x, y, theta)
  InteriorPointSolver solver_;
};

}  // namespace arena
