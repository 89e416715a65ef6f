#include "scenes/nimble_robots.h"

#include <cstdint>
#include <numbers>
#include <string>

#include "core/math/so3.h"
#include "core/scene/loader.h"
#include "core/scene/scene_builder.h"

namespace arena {

namespace {

// Collision groups: the robot collides with the ground only.
constexpr std::uint32_t kRobotGroup = 2;
constexpr std::uint32_t kGroundGroup = 1;

// A force/torque actuator (gear 1) on `body`'s 1-DOF joint, its control within +-limit.
void AddSymmetricActuator(SceneBuilder& b, const std::string& name, int body, double limit) {
  Actuator a;
  a.name = name;
  a.body = body;
  a.ctrl_lower = -limit;
  a.ctrl_upper = limit;
  b.AddActuator(a);
}

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

namespace {

constexpr std::uint32_t kProjectileGroup = 4;
const Vec3 kGravityY(0.0, -9.81, 0.0);

// Unit inertia (DART's default "I") about the centre of mass at `com`.
SpatialInertia UnitInertia(const Vec3& com) { return SpatialInertia(1.0, com, Mat3::Identity()); }

Collider& AddBoxCollider(SceneBuilder& b, int body, const Vec3& half, const Vec3& at, std::uint32_t group,
                         std::uint32_t mask, const std::string& name) {
  Collider& c = b.AddCollider(body, Box{half}, SE3::FromTranslation(at), name);
  c.friction = 1.0;  // DART's default
  c.group = group;
  c.mask = mask;
  return c;
}

// DART's TranslationalJoint2D in the XY plane: prismatic x, then prismatic y (a massless body
// between them). Returns the moving body, a 0.1 m cube of mass 1 and unit inertia.
int AddTranslation2d(SceneBuilder& b, const std::string& name, std::uint32_t group, std::uint32_t mask) {
  JointModel x;
  x.type = JointType::kPrismatic;
  x.name = name + "_x";
  x.axis = Vec3::UnitX();
  const int carrier = b.AddBody(name + "/x", kWorldBody, x, SpatialInertia(0.0, Vec3::Zero(), Mat3::Zero()));
  JointModel y;
  y.type = JointType::kPrismatic;
  y.name = name + "_y";
  y.axis = Vec3::UnitY();
  const int body = b.AddBody(name, carrier, y, UnitInertia(Vec3::Zero()));
  AddBoxCollider(b, body, Vec3::Constant(0.05), Vec3::Zero(), group, mask, name);
  return body;
}

// Three revolute segments about z (Jump-Worm's, as Nimble's public benchmark code sets them):
// 0.05 x 0.25 x 0.05 boxes of mass 1, unit inertia, each turning about its bottom end; the
// first at the centre of `root`, the others at the top of the previous one. Each has a torque
// actuator limited to +-`torque`.
void AddSegments(SceneBuilder& b, int root, double torque, std::uint32_t group, std::uint32_t mask,
                 const std::string& prefix) {
  int parent = root;
  for (int i = 1; i <= 3; ++i) {
    JointModel hinge;
    hinge.type = JointType::kRevolute;
    hinge.name = prefix + "_joint" + std::to_string(i);
    hinge.axis = Vec3::UnitZ();
    // The previous segment's frame is at its joint (its bottom end): its top is 0.25 above.
    hinge.placement = SE3::FromTranslation(Vec3(0.0, i == 1 ? 0.0 : 0.25, 0.0));
    hinge.lower = 0.0;
    hinge.upper = 3.1415;  // the scripts' pi
    // The body frame is the joint frame; the segment's centre sits 0.125 above it.
    const std::string name = prefix + "_segment" + std::to_string(i);
    const int body = b.AddBody(name, parent, hinge, UnitInertia(Vec3(0.0, 0.125, 0.0)));
    AddBoxCollider(b, body, Vec3(0.025, 0.125, 0.025), Vec3(0.0, 0.125, 0.0), group, mask, name);
    AddSymmetricActuator(b, hinge.name, body, torque);
    parent = body;
  }
}

}  // namespace

std::shared_ptr<const Scene> JumpWormScene() {
  SceneBuilder b("jump_worm");
  b.SetGravity(kGravityY);
  const int root = AddTranslation2d(b, "root", kRobotGroup, kGroundGroup);
  AddSegments(b, root, 100.0, kRobotGroup, kGroundGroup, "worm");
  AddBoxCollider(b, kWorldBody, Vec3(1.25, 0.125, 0.25), Vec3(0.0, -0.7, 0.0), kGroundGroup, kRobotGroup, "floor");
  Scene& scene = b.scene();
  scene.timestep_hint = 0.001;
  const double pi = std::numbers::pi;
  scene.default_q = VecX(5);
  scene.default_q << 0.0, -0.14, pi / 2, pi / 2, pi / 4;  // [0, 0, 90, 90, 45 deg], root y = -0.14
  return b.Build();
}

std::shared_ptr<const Scene> CatapultScene() {
  SceneBuilder b("catapult");
  b.SetGravity(kGravityY);
  AddTranslation2d(b, "projectile", kProjectileGroup, kGroundGroup | kRobotGroup);
  JointModel weld;
  weld.type = JointType::kFixed;
  weld.name = "catapult_root";
  weld.placement = SE3::FromTranslation(Vec3(0.5, -0.45, 0.0));
  const int root = b.AddBody("catapult_root", kWorldBody, weld, UnitInertia(Vec3::Zero()));
  AddSegments(b, root, 1000.0, kRobotGroup, kGroundGroup | kProjectileGroup, "catapult");
  AddBoxCollider(b, kWorldBody, Vec3(1.75, 0.125, 0.25), Vec3(1.2, -0.7, 0.0), kGroundGroup,
                 kRobotGroup | kProjectileGroup, "floor");
  Scene& scene = b.scene();
  scene.timestep_hint = 0.001;
  scene.default_q = VecX(5);
  // The benchmark state of Nimble's public benchmark code.
  scene.default_q << 0.0, 0.0, 0.65, 0.0, std::numbers::pi / 4;
  return b.Build();
}

std::shared_ptr<const Scene> HalfCheetahScene() {
  Scene scene = LoadMjcf(DartDataDir() + "/mjcf/openai/half_cheetah.xml.gz");
  scene.name = "half_cheetah";
  return std::make_shared<const Scene>(std::move(scene));
}

std::shared_ptr<const Scene> PrismaticBallScene(const PrismaticBallOptions& o) {
  SceneBuilder b("prismatic_ball");
  b.SetGravity(o.gravity);
  JointModel slider;
  slider.type = JointType::kPrismatic;
  slider.name = "lift";
  slider.axis = Vec3::UnitY();
  const int ball = b.AddBody("ball", kWorldBody, slider, SpatialInertia::SolidSphere(o.mass, o.radius));
  Collider& sphere = b.AddCollider(ball, Sphere{o.radius}, SE3(), "ball");
  sphere.friction = 0.0;
  sphere.restitution = o.restitution;
  b.AddCollider(kWorldBody, Box{Vec3(2.5, 0.5, 2.5)}, SE3(), "floor").friction = 1.0;  // min(0, 1) = 0
  AddSymmetricActuator(b, "thrust", ball, o.force_limit);
  Scene& scene = b.scene();
  scene.timestep_hint = 0.001;
  scene.default_q = VecX::Constant(1, 0.5 + o.radius - 1e-4);
  return b.Build();
}

namespace {

// The cart and `poles` poles, each hinged at the bottom end of the previous one.
std::shared_ptr<const Scene> CartWithPoles(int poles) {
  SceneBuilder b(poles == 1 ? "cartpole" : "double_cartpole");
  b.SetGravity(Vec3(0.0, -9.81, 0.0));
  JointModel slider;
  slider.type = JointType::kPrismatic;
  slider.name = "cart_x";
  slider.axis = Vec3::UnitX();
  const int cart = b.AddBody("cart", kWorldBody, slider, SpatialInertia::SolidBox(1.0, Vec3(0.25, 0.05, 0.05)));
  AddSymmetricActuator(b, "cart_force", cart, 10.0);
  int parent = cart;
  for (int i = 1; i <= poles; ++i) {
    JointModel hinge;
    hinge.type = JointType::kRevolute;
    hinge.name = "pole" + std::to_string(i);
    hinge.axis = Vec3::UnitZ();
    // The first pole turns about the cart's centre, the next about the previous one's bottom end.
    hinge.placement = SE3::FromTranslation(Vec3(0.0, i == 1 ? 0.0 : -1.0, 0.0));
    const SpatialInertia box = SpatialInertia::SolidBox(1.0, Vec3(0.05, 0.5, 0.05));
    parent = b.AddBody(hinge.name, parent, hinge, SpatialInertia(1.0, Vec3(0.0, -0.5, 0.0), box.inertia_com()));
  }
  Scene& scene = b.scene();
  scene.timestep_hint = 0.01;
  scene.default_q = VecX::Zero(1 + poles);
  scene.default_q.head<2>() << 1.0, 1.0;
  return b.Build();
}

}  // namespace

std::shared_ptr<const Scene> CartpoleScene() { return CartWithPoles(1); }
std::shared_ptr<const Scene> DoubleCartpoleScene() { return CartWithPoles(2); }

}  // namespace arena
