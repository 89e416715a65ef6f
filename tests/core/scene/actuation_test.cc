#include "core/scene/actuation.h"

#include <gtest/gtest.h>

#include <numbers>

#include "core/multibody/configuration.h"
#include "core/scene/scene_builder.h"

namespace arena {
namespace actuation_test {

// A planar body with a PD target on each of theta, x and y, and a torque along its own x axis.
std::shared_ptr<const Scene> PlanarPdScene() {
  SceneBuilder b("planar_pd");
  b.SetGravity(Vec3(0.0, -9.81, 0.0));
  const int body = b.AddPlanarBody("puck", 2.0, 0.1, Vec3(0.3, -0.2, 0.7));
  b.AddCollider(body, Disk2{0.1}, SE3(), "puck");
  for (int dof : {0, 1, 2}) {
    Actuator a;
    a.name = "target" + std::to_string(dof);
    a.type = ActuatorType::kPdTarget;
    a.body = body;
    a.dof = dof;
    a.kp = 10.0 + dof;
    a.kd = 0.5 + dof;
    b.AddActuator(a);
  }
  Actuator push;
  push.name = "push";
  push.body = body;
  push.dof = 1;
  push.gear = 2.0;
  b.AddActuator(push);
  return b.Build();
}

State PlanarState(double theta) {
  State s;
  s.q = Vec3(0.3, -0.2, theta);
  s.v = Vec3(0.4, -0.6, 0.9);  // omega, body-frame v_x, v_y
  return s;
}

const Control kTargets{Eigen::Vector4d(0.2, 1.0, -0.5, 0.3)};

// A target on x or y pulls along the world axis, whatever the body's angle; on theta it turns
// the body. The body-frame force, turned to the world, is kp (u - c) - kd c' on each coordinate.
TEST(ActuationTest, PlanarTargetsActOnWorldCoordinates) {
  const auto scene = PlanarPdScene();
  const State s = PlanarState(std::numbers::pi / 2);
  const VecX tau = ActuatorForces(*scene, s, kTargets);
  const Mat2 R = Eigen::Rotation2Dd(s.q[2]).toRotationMatrix();
  const Vec2 world_rate = R * s.v.segment<2>(1);
  const Vec2 pd_world(11.0 * (1.0 - s.q[0]) - 1.5 * world_rate[0], 12.0 * (-0.5 - s.q[1]) - 2.5 * world_rate[1]);
  const Vec2 push_world = R * Vec2(2.0 * 0.3, 0.0);  // the torque actuator: along the body's x
  EXPECT_TRUE((R * tau.segment<2>(1)).isApprox(pd_world + push_world, 1e-12)) << tau.transpose();
  EXPECT_NEAR(tau[0], 10.0 * (0.2 - s.q[2]) - 0.5 * s.v[0], 1e-12);
}

// ActuationJacobians against central differences of ActuatorForces, in tangent coordinates
// (q moved by Integrate), at several angles.
TEST(ActuationTest, PlanarJacobiansMatchDifferences) {
  const auto scene = PlanarPdScene();
  const double h = 1e-6;
  for (double theta : {0.0, 0.7, 2.5, -1.9}) {
    const State s = PlanarState(theta);
    const GeneralizedForceJacobians J = ActuationJacobians(*scene, s, kTargets);
    for (int i = 0; i < 3; ++i) {
      const VecX e = VecX::Unit(3, i);
      State plus = s, minus = s;
      plus.q = Integrate(scene->model, s.q, h * e);
      minus.q = Integrate(scene->model, s.q, -h * e);
      const VecX dq = (ActuatorForces(*scene, plus, kTargets) - ActuatorForces(*scene, minus, kTargets)) / (2 * h);
      EXPECT_TRUE(J.dtau_dq.col(i).isApprox(dq, 1e-7)) << "theta " << theta << " q" << i << ": "
                                                        << J.dtau_dq.col(i).transpose() << " vs " << dq.transpose();
      plus = s;
      minus = s;
      plus.v[i] += h;
      minus.v[i] -= h;
      const VecX dv = (ActuatorForces(*scene, plus, kTargets) - ActuatorForces(*scene, minus, kTargets)) / (2 * h);
      EXPECT_TRUE(J.dtau_dv.col(i).isApprox(dv, 1e-7)) << "theta " << theta << " v" << i;
    }
    for (int k = 0; k < 4; ++k) {
      Control plus = kTargets, minus = kTargets;
      plus.u[k] += h;
      minus.u[k] -= h;
      const VecX du = (ActuatorForces(*scene, s, plus) - ActuatorForces(*scene, s, minus)) / (2 * h);
      EXPECT_TRUE(J.dtau_du.col(k).isApprox(du, 1e-7)) << "theta " << theta << " u" << k;
    }
  }
}

}  // namespace actuation_test
}  // namespace arena
