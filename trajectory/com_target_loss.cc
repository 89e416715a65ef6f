#include "trajectory/com_target_loss.h"

#include <string>

#include "core/common/error.h"

namespace arena {

namespace {

// Pose of a free body from its joint's q block (x, y, z, qw, qx, qy, qz).
void FreePose(const Scene& scene, int body, const VecX& q, Mat3* R, Vec3* p) {
  const int i = scene.model.body(body).idx_q;
  *p = q.segment<3>(i);
  *R = Quat(q[i + 3], q[i + 4], q[i + 5], q[i + 6]).normalized().toRotationMatrix();
}

void Check(const ComTargetLoss& loss, const Scene& scene, const std::vector<State>& states) {
  if (std::string problem = loss.Validate(scene); !problem.empty()) throw InvalidArgument("ComTargetLoss: " + problem);
  if (states.empty()) throw InvalidArgument("ComTargetLoss: no states");
}

}  // namespace

std::string ComTargetLoss::Validate(const Scene& scene) const {
  if (bodies.size() != targets.size()) return "bodies and targets differ in size";
  if (!(tolerance >= 0.0)) return "tolerance must be >= 0";
  for (int b : bodies) {
    if (b < 0 || b >= scene.model.num_bodies()) return "body " + std::to_string(b) + " does not exist";
    const BodyModel& body = scene.model.body(b);
    if (body.parent != kWorldBody || body.joint.type != JointType::kFree) {
      return "body '" + body.name + "' is not on a free joint to the world";
    }
  }
  return "";
}

double ComTargetLoss::Value(const Scene& scene, const std::vector<State>& states, const VecX&) const {
  Check(*this, scene, states);
  double L = 0.0;
  for (size_t k = 0; k < bodies.size(); ++k) {
    Mat3 R;
    Vec3 p;
    FreePose(scene, bodies[k], states.back().q, &R, &p);
    const Vec3 x = p + R * scene.model.body(bodies[k]).inertia.com();
    L += std::max(0.0, (x - targets[k]).squaredNorm() - tolerance * tolerance);
  }
  return L;
}

void ComTargetLoss::Gradient(const Scene& scene, const std::vector<State>& states, const VecX&,
                             TrajectoryLossGradient* g) const {
  Check(*this, scene, states);
  g->q.assign(states.size(), VecX());
  g->v.assign(states.size(), VecX());
  g->u.resize(0);
  VecX& dq = g->q.back();
  dq = VecX::Zero(scene.nv());
  for (size_t k = 0; k < bodies.size(); ++k) {
    Mat3 R;
    Vec3 p;
    FreePose(scene, bodies[k], states.back().q, &R, &p);
    const Vec3 c = scene.model.body(bodies[k]).inertia.com();
    const Vec3 x = p + R * c;
    if ((x - targets[k]).squaredNorm() - tolerance * tolerance <= 0.0) continue;  // the hinge is flat
    const Vec3 local = R.transpose() * (2.0 * (x - targets[k]));
    const int i = scene.model.body(bodies[k]).idx_v;  // (omega, v) in the body frame
    dq.segment<3>(i) += c.cross(local);
    dq.segment<3>(i + 3) += local;
  }
}

}  // namespace arena
