// The Fig. 9 scene of seed 000 (as the authors' benchmark code sets it), shared by the silico
// and bilevel tests: a pentagon (rows not normalised, b = 0.4, m = 1, J = 0.2, mu = 0.2) on a
// planar joint over the floor, optionally with a torque, a push and a PD hold on its three
// DOFs.
#pragma once

#include <memory>

#include "core/geometry/shape.h"
#include "core/scene/scene_builder.h"

namespace arena::silico_test {

inline std::shared_ptr<const Scene> Fig9Polygon(bool with_actuators = false) {
  SceneBuilder b("fig9");
  b.SetGravity(Vec3(0, -9.81, 0));
  Eigen::Matrix<double, 5, 2> A;
  A << 1.0, 0.2, 0.0, 1.0, -1.0, -0.3, 0.0, -1.0, 0.8, -0.8;
  const int body = b.AddPlanarBody("polygon", 1.0, 0.2, Vec3(0, 1, 0));
  b.AddCollider(body, MakePolygon2(A, VecX::Constant(5, 0.4)), SE3(), "polygon").friction = 0.2;
  b.AddGroundPlane2(0.2);
  if (with_actuators) {
    Actuator torque;
    torque.name = "torque";
    torque.body = body;
    torque.dof = 0;
    b.AddActuator(torque);
    Actuator push;
    push.name = "push_x";
    push.body = body;
    push.dof = 1;
    b.AddActuator(push);
    Actuator hold;
    hold.name = "hold_y";
    hold.type = ActuatorType::kPdTarget;
    hold.body = body;
    hold.dof = 2;
    hold.kp = 50.0;
    hold.kd = 2.0;
    b.AddActuator(hold);
  }
  return b.Build();
}

}  // namespace arena::silico_test
