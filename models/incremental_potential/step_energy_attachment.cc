// The design derivatives of the step energy's gradient for joint attachment points (seed 003
// Sec. III-B: "the attachment point of each joint is a design variable"; T_k = T_p(k) L_k(a) J_k).
// Moving body c's joint frame by da in its parent's frame translates c's subtree by the world
// vector t = R_p da, at every configuration the energy reads: the step's end (a virtual DOF z of
// world twist (0, t) between the parent's DOFs and c's own, whose mixed Hessian column the
// tangent chain gives), its start X^t and the step before X^{t-1} (the inertia's target
// C = 2 X^t - X^{t-1}, so dA_k = -(2 t^t - t^{t-1}) [P^T M] / dt^2), and the lagged contact terms'
// start points (their mixed blocks with the start twist (0, t^t)).
#include <vector>

#include "models/incremental_potential/step_energy.h"

namespace arena {
namespace step_energy_attachment {

// The world direction of axis `a` of body c's parent frame at the chain's configuration.
Vec3 ParentAxis(const MultibodyModel& model, const TangentChain& chain, int c, int a) {
  const int p = model.body(c).parent;
  return p == kWorldBody ? Vec3::Unit(a) : Vec3(chain.pose(p).rotation().col(a));
}

Motion Translation(const Vec3& t) {
  Motion s;
  s << Vec3::Zero(), t;
  return s;
}

}  // namespace step_energy_attachment

void StepEnergy::AttachmentJacobian(const VecX& q, const std::vector<int>& bodies, MatX* dg_da) {
  using namespace step_energy_attachment;
  const MultibodyModel& model = scene_->model;
  const int nv = model.nv();
  const double dt2 = options_.timestep * options_.timestep;
  dg_da->setZero(nv, 3 * static_cast<int>(bodies.size()));
  if (exact_blocks_q_.size() != nv || exact_blocks_q_ != q) {
    VecX g(nv);
    MatX H;
    Evaluate(q, &g, &H, false);  // blocks_ and G_: the exact body Hessian and gradients at q
  } else {
    chain_.Update(q);  // the twists and poses the columns read
  }
  const std::map<std::pair<int, int>, Mat6> lagged = LaggedTwistBlocks(q);  // chain_ stays at q
  TangentChain at_start(model), at_prev(model);
  at_start.Update(start_.q);
  at_prev.Update(q_prev_);
  VecX column(nv);
  for (size_t b = 0; b < bodies.size(); ++b) {
    const int c = bodies[b];
    for (int a = 0; a < 3; ++a) {
      column.setZero();
      chain_.AddSubtreeColumn(blocks_, G_, c, Translation(ParentAxis(model, chain_, c, a)), &column);
      const Vec3 t_start = ParentAxis(model, at_start, c, a), t_prev = ParentAxis(model, at_prev, c, a);
      for (int k : dynamic_) {
        if (!model.IsInSubtree(k, c)) continue;
        const Mat34 dA = -(2.0 * t_start - t_prev) * moments_[k].W.row(3) / dt2;
        const Vec6 gk = PoseGradient(chain_.pose(k), dA);
        for (int i : chain_.path(k)) column[i] += chain_.dof_twist(i).dot(gk);
      }
      const Motion s_start = Translation(t_start);
      for (const auto& [kl, block] : lagged) {
        if (!model.IsInSubtree(kl.second, c)) continue;
        const Vec6 v = block * s_start;
        for (int i : chain_.path(kl.first)) column[i] += chain_.dof_twist(i).dot(v);
      }
      dg_da->col(3 * static_cast<int>(b) + a) = column;
    }
  }
}

}  // namespace arena
