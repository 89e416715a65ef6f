#include "trajectory/launch_objective.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/common/error.h"

namespace arena {

LaunchObjective::LaunchObjective(Simulator& sim, State start, int body, int steps,
                                 std::shared_ptr<const TrajectoryLoss> loss)
    : sim_(sim), start_(std::move(start)), steps_(steps), loss_(std::move(loss)) {
  const Scene& scene = sim_.scene();
  ValidateState(scene, start_);
  if (steps_ <= 0) throw InvalidArgument("LaunchObjective: steps must be > 0");
  if (loss_ == nullptr) throw InvalidArgument("LaunchObjective: no loss");
  if (body < 0 || body >= scene.model.num_bodies()) {
    throw InvalidArgument("LaunchObjective: no body " + std::to_string(body));
  }
  const BodyModel& b = scene.model.body(body);
  if (b.joint.type != JointType::kFree || b.parent != kWorldBody) {
    throw InvalidArgument("LaunchObjective: body '" + b.name + "' is not on a free joint to the world");
  }
  idx_q_ = b.idx_q;
  idx_v_ = b.idx_v;
  // q = (p, quaternion w x y z); the twist (omega, v) is in the body frame, which is the world
  // frame only while the body is unrotated.
  if (!(std::abs(std::abs(start_.q[idx_q_ + 3]) - 1.0) < 1e-12)) {
    throw InvalidArgument("LaunchObjective: body '" + b.name + "' must start unrotated");
  }
}

VecX LaunchObjective::Launch() const {
  VecX x(4);
  x << start_.q[idx_q_], start_.q[idx_q_ + 1], start_.v[idx_v_ + 3], start_.v[idx_v_ + 4];
  return x;
}

State LaunchObjective::StartAt(const VecX& x) const {
  State s = start_;
  s.q[idx_q_] = x[0];
  s.q[idx_q_ + 1] = x[1];
  s.v[idx_v_ + 3] = x[2];
  s.v[idx_v_ + 4] = x[3];
  return s;
}

double LaunchObjective::Evaluate(const VecX& x, VecX* gradient) {
  if (x.size() != 4) throw InvalidArgument("LaunchObjective: x has " + std::to_string(x.size()) + " entries, expected 4");
  ++rollouts_;
  RunRollout(sim_, StartAt(x), VecX(), steps_, &rollout_);
  if (!rollout_.ok()) return kInf;
  const double loss = loss_->Value(sim_.scene(), rollout_.states, VecX());
  if (!std::isfinite(loss)) return kInf;
  if (gradient == nullptr) return loss;
  ++backward_passes_;
  loss_->Gradient(sim_.scene(), rollout_.states, VecX(), &loss_gradient_);
  BackpropagateTrajectory(sim_, rollout_, VecX(), loss_gradient_, &gradient_);
  gradient->resize(4);
  // Unrotated at the start: the tangent's translation part is the world displacement.
  *gradient << gradient_.q0[idx_v_ + 3], gradient_.q0[idx_v_ + 4], gradient_.v0[idx_v_ + 3], gradient_.v0[idx_v_ + 4];
  return loss;
}

}  // namespace arena
