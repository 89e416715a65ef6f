#include "scenes/robot_parts.h"

#include <cmath>

namespace arena {

JointModel Hinge(const std::string& name, const Vec3& axis, const SE3& placement, double range) {
  JointModel j;
  j.type = JointType::kRevolute;
  j.name = name;
  j.axis = axis;
  j.placement = placement;
  if (std::isfinite(range)) {
    j.lower = -range;
    j.upper = range;
  }
  return j;
}

int AddTranslatingRoot(SceneBuilder& b, const std::string& robot, double height) {
  const SpatialInertia none;
  int parent = kWorldBody;
  const char* axes[3] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) {
    JointModel j;
    j.type = JointType::kPrismatic;
    j.name = std::string("root_") + axes[k];
    j.axis = Vec3::Unit(k);
    if (k == 2) j.placement = SE3::FromTranslation(Vec3(0.0, 0.0, height));
    parent = b.AddBody(robot + "/" + axes[k], parent, j, none);
  }
  return parent;
}

void AddPdDrive(SceneBuilder& b, int body, const std::string& name, double kp, double kd) {
  Actuator a;
  a.name = name + "/position";
  a.type = ActuatorType::kPdTarget;
  a.body = body;
  a.kp = kp;
  b.AddActuator(a);
  a.name = name + "/velocity";
  a.type = ActuatorType::kVelocityTarget;
  a.kp = 0.0;
  a.kd = kd;
  b.AddActuator(a);
}

}  // namespace arena
