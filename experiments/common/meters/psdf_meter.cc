#include "experiments/common/meters/psdf_meter.h"

#include <algorithm>

#include "models/silico/planar_problem.h"

namespace arena {

PsdfMeter::PsdfMeter(const Scene& scene) : solver_(silico::PsdfSolverOptions()) {
  const silico::PlanarProblem problem(scene);
  for (const silico::PlanarPair& pair : problem.pairs()) {
    if (!pair.child_is_floor()) continue;
    programs_.emplace_back(pair);
    idx_q_.push_back(problem.bodies().at(pair.body_p).idx_q);
  }
}

double PsdfMeter::Violation(const VecX& q) {
  double worst = 0.0;
  for (size_t i = 0; i < programs_.size(); ++i) {
    programs_[i].SetPoses(q.segment<3>(idx_q_[i]), Vec3::Zero());
    const silico::CollisionResult r = silico::SolveCollision(programs_[i], solver_);
    worst = std::max(worst, -r.phi);
  }
  return worst;
}

}  // namespace arena
