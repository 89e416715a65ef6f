#include "scenes/pd_drive.h"

namespace arena {

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
