// The Fig. 9 scene of seed 000, shared by the silico and bilevel tests: box_drop's pentagon (the
// registered scene polygon: rows not normalised, b = 0.4, m = 1, J = 0.2, mu = 0.2) on a planar
// joint over the floor, optionally with a torque, a push and a PD hold on its three DOFs.
#pragma once

#include <memory>
#include <utility>

#include "scenes/scene_registry.h"

namespace arena::silico_test {

inline std::shared_ptr<const Scene> Fig9Polygon(bool with_actuators = false) {
  std::shared_ptr<const Scene> polygon = MakeScene("polygon");
  if (!with_actuators) return polygon;
  Scene scene = *polygon;
  const int body = scene.model.FindBody("polygon");
  Actuator torque;
  torque.name = "torque";
  torque.body = body;
  torque.dof = 0;
  scene.actuators.push_back(torque);
  Actuator push;
  push.name = "push_x";
  push.body = body;
  push.dof = 1;
  scene.actuators.push_back(push);
  Actuator hold;
  hold.name = "hold_y";
  hold.type = ActuatorType::kPdTarget;
  hold.body = body;
  hold.dof = 2;
  hold.kp = 50.0;
  hold.kd = 2.0;
  scene.actuators.push_back(hold);
  scene.Validate();
  return std::make_shared<const Scene>(std::move(scene));
}

}  // namespace arena::silico_test
