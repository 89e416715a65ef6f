#include "core/multibody/model.h"

#include <cmath>

#include "core/common/error.h"

namespace arena {

namespace {

void CheckInertia(const std::string& where, const SpatialInertia& inertia) {
  if (!(inertia.mass() >= 0.0) || !std::isfinite(inertia.mass())) {
    throw InvalidArgument(where + ": mass must be finite and >= 0, got " +
                          std::to_string(inertia.mass()));
  }
  if (!inertia.com().allFinite() || !inertia.inertia_com().allFinite()) {
    throw InvalidArgument(where + ": non-finite centre of mass or inertia");
  }
}

}  // namespace

void MultibodyModel::set_inertia(int body, const SpatialInertia& inertia) {
  if (body < 0 || body >= num_bodies()) {
    throw InvalidArgument("set_inertia: body index " + std::to_string(body) + " does not exist");
  }
  CheckInertia("body '" + bodies_[body].name + "'", inertia);
  bodies_[body].inertia = inertia;
}

void MultibodyModel::set_joint_placement(int body, const SE3& placement) {
  if (body < 0 || body >= num_bodies()) {
    throw InvalidArgument("set_joint_placement: body index " + std::to_string(body) + " does not exist");
  }
  if (!placement.rotation().allFinite() || !placement.translation().allFinite()) {
    throw InvalidArgument("set_joint_placement: body '" + bodies_[body].name + "': the placement is not finite");
  }
  bodies_[body].joint.placement = placement;
}

int MultibodyModel::AddBody(const std::string& name, int parent, const JointModel& joint,
                            const SpatialInertia& inertia) {
  const std::string where = "body '" + name + "'";
  if (parent < kWorldBody || parent >= num_bodies()) {
    throw InvalidArgument(where + ": parent index " + std::to_string(parent) + " does not exist");
  }
  CheckInertia(where, inertia);
  if ((joint.type == JointType::kRevolute || joint.type == JointType::kPrismatic) &&
      std::abs(joint.axis.norm() - 1.0) > 1e-9) {
    throw InvalidArgument(where + ": joint axis must be a unit vector");
  }
  if (joint.lower > joint.upper) {
    throw InvalidArgument(where + ": joint lower limit exceeds upper limit");
  }
  BodyModel body;
  body.name = name;
  body.parent = parent;
  body.joint = joint;
  body.inertia = inertia;
  body.idx_q = nq_;
  body.idx_v = nv_;
  nq_ += joint.nq();
  nv_ += joint.nv();
  bodies_.push_back(std::move(body));
  return num_bodies() - 1;
}

int MultibodyModel::FindBody(const std::string& name) const {
  for (int i = 0; i < num_bodies(); ++i) {
    if (bodies_[i].name == name) return i;
  }
  return -1;
}

int MultibodyModel::FindJoint(const std::string& joint_name) const {
  for (int i = 0; i < num_bodies(); ++i) {
    if (bodies_[i].joint.name == joint_name) return i;
  }
  return -1;
}

double MultibodyModel::TotalMass() const {
  double m = 0.0;
  for (const auto& b : bodies_) m += b.inertia.mass();
  return m;
}

VecX MultibodyModel::Neutral() const {
  VecX q = VecX::Zero(nq_);
  for (const auto& b : bodies_) {
    if (b.joint.type == JointType::kBall) q[b.idx_q] = 1.0;
    if (b.joint.type == JointType::kFree) q[b.idx_q + 3] = 1.0;
  }
  return q;
}

bool MultibodyModel::IsInSubtree(int b, int ancestor) const {
  while (b > ancestor) b = bodies_[b].parent;
  return b == ancestor;
}

}  // namespace arena
