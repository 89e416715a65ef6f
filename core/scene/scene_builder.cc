#include "core/scene/scene_builder.h"

#include <utility>

#include "core/common/error.h"

namespace arena {

namespace {

// Neutral configuration block of one joint: zeros, identity quaternions.
VecX NeutralJointPosition(const JointModel& joint) {
  VecX q = VecX::Zero(joint.nq());
  if (joint.type == JointType::kBall) q[0] = 1.0;
  if (joint.type == JointType::kFree) q[3] = 1.0;
  return q;
}

}  // namespace

SceneBuilder::SceneBuilder(std::string name) {
  scene_.name = std::move(name);
  scene_.source = "builtin:" + scene_.name;
}

SceneBuilder& SceneBuilder::SetGravity(const Vec3& g) {
  scene_.model.set_gravity(g);
  return *this;
}

int SceneBuilder::AddBody(const std::string& name, int parent, const JointModel& joint,
                          const SpatialInertia& inertia) {
  const int nq_before = scene_.model.nq();
  int index = 0;
  try {
    index = scene_.model.AddBody(name, parent, joint, inertia);
  } catch (const InvalidArgument& e) {
    throw InvalidArgument("scene '" + scene_.name + "': " + e.what());
  }
  // Keep default_q in step with the model: the new joint starts at its neutral position.
  if (scene_.default_q.size() != nq_before) {
    scene_.default_q = scene_.model.Neutral();
  } else {
    scene_.default_q.conservativeResize(scene_.model.nq());
    scene_.default_q.tail(joint.nq()) = NeutralJointPosition(joint);
  }
  return index;
}

int SceneBuilder::AddFreeBody(const std::string& name, const SpatialInertia& inertia,
                              const SE3& X_WB) {
  JointModel joint;
  joint.type = JointType::kFree;
  joint.name = name;
  const int body = AddBody(name, kWorldBody, joint, inertia);
  const Quat quat(X_WB.rotation());
  VecX q(7);
  q << X_WB.translation(), quat.w(), quat.x(), quat.y(), quat.z();
  SetDefaultJointPosition(body, q);
  return body;
}

int SceneBuilder::AddPlanarBody(const std::string& name, double mass, double inertia_z,
                                const Vec3& xytheta) {
  JointModel joint;
  joint.type = JointType::kPlanar;
  joint.name = name;
  // Only the z inertia enters the planar dynamics; the same value on x and y keeps the 3D
  // inertia physically valid (a thin disk would have half of it on x and y).
  const SpatialInertia inertia(mass, Vec3::Zero(), Mat3::Identity() * inertia_z);
  const int body = AddBody(name, kWorldBody, joint, inertia);
  SetDefaultJointPosition(body, xytheta);
  return body;
}

Collider& SceneBuilder::AddCollider(int body, const Shape& shape, const SE3& X_BS,
                                    const std::string& name) {
  if (body < kWorldBody || body >= scene_.model.num_bodies()) {
    throw InvalidArgument("scene '" + scene_.name + "': collider '" + name + "' on body " +
                          std::to_string(body) + ", which does not exist");
  }
  Collider c;
  c.name = name.empty() ? std::string(ToString(TypeOf(shape))) + "_" +
                              std::to_string(scene_.colliders.size())
                        : name;
  c.body = body;
  c.placement = X_BS;
  c.shape = shape;
  scene_.colliders.push_back(std::move(c));
  return scene_.colliders.back();
}

Collider& SceneBuilder::AddGround(double friction) {
  Collider& c = AddCollider(kWorldBody, HalfSpace{}, SE3::Identity(), "ground");
  c.friction = friction;
  return c;
}

Collider& SceneBuilder::AddGroundPlane2(double friction) {
  Collider& c = AddCollider(kWorldBody, HalfPlane2{}, SE3::Identity(), "ground");
  c.friction = friction;
  return c;
}

Actuator& SceneBuilder::AddActuator(const Actuator& actuator) {
  scene_.actuators.push_back(actuator);
  return scene_.actuators.back();
}

DesignParameter& SceneBuilder::AddDesignParameter(const std::string& name, double value) {
  DesignParameter p;
  p.name = name;
  p.value = value;
  scene_.design.push_back(std::move(p));
  return scene_.design.back();
}

void SceneBuilder::ExcludePair(int body_a, int body_b) {
  const int n = scene_.model.num_bodies();
  if (body_a < kWorldBody || body_a >= n || body_b < kWorldBody || body_b >= n) {
    throw InvalidArgument("scene '" + scene_.name + "': ExcludePair(" + std::to_string(body_a) +
                          ", " + std::to_string(body_b) + ") names a missing body");
  }
  scene_.excluded_body_pairs.emplace_back(body_a, body_b);
}

void SceneBuilder::SetDefaultJointPosition(int body, const VecX& q_joint) {
  if (body < 0 || body >= scene_.model.num_bodies()) {
    throw InvalidArgument("scene '" + scene_.name + "': SetDefaultJointPosition on missing body " +
                          std::to_string(body));
  }
  const BodyModel& b = scene_.model.body(body);
  if (q_joint.size() != b.joint.nq()) {
    throw InvalidArgument("scene '" + scene_.name + "': body '" + b.name + "' has a " +
                          std::string(ToString(b.joint.type)) + " joint with nq = " +
                          std::to_string(b.joint.nq()) + ", got " +
                          std::to_string(q_joint.size()) + " values");
  }
  if (scene_.default_q.size() != scene_.model.nq()) scene_.default_q = scene_.model.Neutral();
  scene_.default_q.segment(b.idx_q, b.joint.nq()) = q_joint;
}

std::shared_ptr<const Scene> SceneBuilder::Build() {
  scene_.Validate();
  return std::make_shared<const Scene>(scene_);
}

}  // namespace arena
