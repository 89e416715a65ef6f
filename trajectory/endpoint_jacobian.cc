#include "trajectory/endpoint_jacobian.h"

#include <cmath>

#include "core/common/error.h"
#include "core/math/so3.h"
#include "trajectory/trajectory_backprop.h"

namespace arena {

namespace {

const BodyModel& FreeBody(const Scene& scene, int body) {
  if (body < 0 || body >= scene.model.num_bodies()) {
    throw InvalidArgument("DifferentiateEndpoint: no body " + std::to_string(body));
  }
  const BodyModel& b = scene.model.body(body);
  if (b.joint.type != JointType::kFree || b.parent != kWorldBody) {
    throw InvalidArgument("DifferentiateEndpoint: body '" + b.name + "' is not on a free joint to the world");
  }
  return b;
}

// q = (p, quaternion w x y z) and the twist (omega, v) in the body frame (core/multibody/joint.h).
Mat3 BodyRotation(const BodyModel& b, const VecX& q) {
  return Quat(q[b.idx_q + 3], q[b.idx_q + 4], q[b.idx_q + 5], q[b.idx_q + 6]).normalized().toRotationMatrix();
}

// dL/d(q_T, v_T) for L = the output coordinate. A tangent perturbation (dtheta, dt) of a free
// joint moves the origin by R dt and turns the body by R Exp(dtheta); the origin's world
// velocity is R v, so d(R v)/d(dtheta) = -R [v]x.
void SeedOutput(const BodyModel& b, const State& end, const BodyCoordinate& c, VecX* dl_dq, VecX* dl_dv) {
  const Mat3 R = BodyRotation(b, end.q);
  const Vec3 e = R.transpose().col(c.axis);  // R^T e_axis
  if (c.kind == BodyCoordinate::Kind::kPosition) {
    dl_dq->segment<3>(b.idx_v + 3) = e;
  } else {
    dl_dv->segment<3>(b.idx_v + 3) = e;
    dl_dq->segment<3>(b.idx_v) = Skew(end.v.segment<3>(b.idx_v + 3)) * e;
  }
}

}  // namespace

double WorldCoordinate(const Scene& scene, const State& state, const BodyCoordinate& c) {
  const BodyModel& b = FreeBody(scene, c.body);
  if (c.kind == BodyCoordinate::Kind::kPosition) return state.q[b.idx_q + c.axis];
  return (BodyRotation(b, state.q) * state.v.segment<3>(b.idx_v + 3))[c.axis];
}

EndpointJacobian DifferentiateEndpoint(Simulator& sim, const State& start, int steps,
                                       const std::vector<BodyCoordinate>& outputs,
                                       const std::vector<BodyCoordinate>& inputs) {
  const Scene& scene = sim.scene();
  for (const BodyCoordinate& c : inputs) {
    const BodyModel& b = FreeBody(scene, c.body);
    if (!(std::abs(std::abs(start.q[b.idx_q + 3]) - 1.0) < 1e-12)) {
      throw InvalidArgument("DifferentiateEndpoint: input body '" + b.name + "' must start unrotated");
    }
  }
  for (const BodyCoordinate& c : outputs) FreeBody(scene, c.body);

  EndpointJacobian out;
  RunRollout(sim, start, VecX(), steps, &out.rollout);
  if (!out.rollout.ok()) return out;
  const State& end = out.rollout.states.back();
  const int nv = scene.model.nv();
  out.value.resize(static_cast<Eigen::Index>(outputs.size()));
  out.jacobian.resize(static_cast<Eigen::Index>(outputs.size()), static_cast<Eigen::Index>(inputs.size()));
  TrajectoryLossGradient seed;
  seed.q.resize(out.rollout.states.size());
  seed.v.resize(out.rollout.states.size());
  TrajectoryGradient gradient;
  for (size_t k = 0; k < outputs.size(); ++k) {
    const BodyModel& b = scene.model.body(outputs[k].body);
    out.value[k] = WorldCoordinate(scene, end, outputs[k]);
    seed.q.back() = VecX::Zero(nv);
    seed.v.back() = VecX::Zero(nv);
    SeedOutput(b, end, outputs[k], &seed.q.back(), &seed.v.back());
    BackpropagateTrajectory(sim, out.rollout, VecX(), seed, &gradient);
    out.alternative_steps += gradient.alternative_steps;
    for (size_t j = 0; j < inputs.size(); ++j) {
      const BodyModel& in = scene.model.body(inputs[j].body);
      const VecX& g = inputs[j].kind == BodyCoordinate::Kind::kPosition ? gradient.q0 : gradient.v0;
      out.jacobian(k, j) = g[in.idx_v + 3 + inputs[j].axis];  // unrotated: tangent = world
    }
  }
  return out;
}

}  // namespace arena
