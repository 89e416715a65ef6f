#include "experiments/nimble_scenes.h"

#include <cstdint>
#include <numbers>
#include <string>

#include "core/math/so3.h"
#include "core/scene/loader.h"

namespace arena {

namespace {

// Collision groups: the robot collides with the ground only.
constexpr std::uint32_t kRobotGroup = 2;
constexpr std::uint32_t kGroundGroup = 1;

}  // namespace

std::shared_ptr<const Scene> AtlasStandingScene() {
  UrdfOptions urdf;
  urdf.floating_base = true;
  urdf.friction = 1.0;  // DART's default coefficient: Nimble's Atlas sets none
  Scene scene = LoadUrdf(DartDataDir() + "/sdf/atlas/atlas_v3_no_head.urdf", urdf);
  scene.name = "atlas_standing";
  scene.timestep_hint = 0.001;
  scene.model.set_gravity(Vec3(0.0, -9.81, 0.0));
  for (Collider& c : scene.colliders) {
    c.group = kRobotGroup;
    c.mask = kGroundGroup;
  }
  Collider ground;
  ground.name = "ground";
  ground.body = kWorldBody;
  ground.placement = SE3::FromTranslation(Vec3(0.0, -0.95, 0.0));
  ground.shape = Box{Vec3(12.5, 0.025, 12.5)};
  ground.friction = 1.0;
  ground.group = kGroundGroup;
  ground.mask = kRobotGroup;
  scene.colliders.push_back(ground);

  for (int b = 0; b < scene.model.num_bodies(); ++b) {
    const BodyModel& body = scene.model.body(b);
    for (int k = 0; k < body.joint.nv(); ++k) {
      Actuator a;
      a.name = "tau_" + body.joint.name + (body.joint.nv() > 1 ? "_" + std::to_string(k) : "");
      a.type = ActuatorType::kTorque;
      a.body = b;
      a.dof = k;
      a.gear = 1.0;
      scene.actuators.push_back(a);
    }
  }

  scene.default_q = scene.model.Neutral();
  const int pelvis = 0;  // the URDF root, on the free joint
  const Quat upright(ExpSO3(Vec3(-std::numbers::pi / 2.0, 0.0, 0.0)));
  const int iq = scene.model.body(pelvis).idx_q;
  scene.default_q.segment<4>(iq + 3) << upright.w(), upright.x(), upright.y(), upright.z();
  scene.Validate();
  return std::make_shared<const Scene>(std::move(scene));
}

std::shared_ptr<const Scene> HalfCheetahScene() {
  Scene scene = LoadMjcf(DartDataDir() + "/mjcf/openai/half_cheetah.xml.gz");
  scene.name = "half_cheetah";
  return std::make_shared<const Scene>(std::move(scene));
}

}  // namespace arena
