#include "scenes/longrange_scenes.h"

#include <cmath>
#include <numbers>

#include "core/common/error.h"
#include "core/scene/scene_builder.h"

namespace arena {

std::shared_ptr<const Scene> BookStackScene(const BookStackOptions& o) {
  if (o.planks < 1 || o.planks > 1000) throw InvalidArgument("book stack: planks must be in [1, 1000]");
  if (!(o.shift >= 0.0 && o.shift < 0.5)) throw InvalidArgument("book stack: shift must be in [0, 0.5)");
  if (!(o.gap >= 0.0 && o.gap < 1.0)) throw InvalidArgument("book stack: gap must be in [0, 1) m");
  const Vec3 h(1.0, 0.2, 0.1);  // half extents: 2.0 x 0.4 x 0.2 m
  const double L = 2.0 * h.x(), mass = 0.16;
  SceneBuilder b("book_stack");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  double x = 0.0, z = h.z() + o.gap;
  for (int i = 0; i < o.planks; ++i) {
    if (i > 0) {
      const int from_top = o.planks - i;  // the overhang of plank i over plank i - 1: L / (2 k)
      x += L / (2.0 * from_top) - o.shift * L;
      z += 2.0 * h.z() + o.gap;
    }
    const int plank = b.AddFreeBody("plank" + std::to_string(i), SpatialInertia::SolidBox(mass, h),
                                    SE3::FromTranslation(Vec3(x, 0.0, z)));
    b.AddCollider(plank, Box{h}, SE3(), "plank" + std::to_string(i)).friction = 0.5;
  }
  b.AddGround(0.5);
  return b.Build();
}

std::shared_ptr<const Scene> BilliardsScene(double gap) {
  const double r = 0.5, rho = 0.55;  // ball radius; the layout parameter (1.1 rho = 0.605 = r + 0.105)
  const double mass = 4.0 / 3.0 * std::numbers::pi * r * r * r;  // density 1
  SceneBuilder b("billiards");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  auto ball = [&](const std::string& name, double x, double y) {
    const int body = b.AddFreeBody(name, SpatialInertia::SolidSphere(mass, r), SE3::FromTranslation(Vec3(x, y, r + gap)));
    b.AddCollider(body, Sphere{r}, SE3(), name).friction = 0.2;
  };
  int n = 0;
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j <= i; ++j) ball("ball" + std::to_string(n++), 1.1 * rho * (4 - i) + 2.2 * rho * j, -1.6 * rho * i);
  }
  ball("cue", 4.4 * rho, 4.4 * rho);
  b.AddGround(0.2);
  return b.Build();
}

std::shared_ptr<const Scene> PushScene(const PushSceneOptions& o) {
  if (!(o.rod_kd > 0.0) || !std::isfinite(o.rod_kd)) throw InvalidArgument("push: rod_kd must be > 0 and finite");
  SceneBuilder b("push");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  const Vec3 box_half = Vec3::Constant(0.15), rod_half(0.05, 0.4, 0.05);
  const double box_z = box_half.z() + 0.01;
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(8.0 * box_half.prod(), box_half),
                                SE3::FromTranslation(Vec3(0.0, 0.0, box_z)));
  b.AddCollider(box, Box{box_half}, SE3(), "box").friction = 0.5;
  // The rod's chain: slides x, y, z, then hinges z, y, x (Euler angles about the moving axes).
  const Vec3 axes[6] = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ(), Vec3::UnitZ(), Vec3::UnitY(), Vec3::UnitX()};
  const char* names[6] = {"rod_x", "rod_y", "rod_z", "rod_yaw", "rod_pitch", "rod"};
  int parent = kWorldBody;
  for (int k = 0; k < 6; ++k) {
    JointModel j;
    j.type = k < 3 ? JointType::kPrismatic : JointType::kRevolute;
    j.name = names[k];
    j.axis = axes[k];
    if (k == 0) j.placement = SE3::FromTranslation(Vec3(0.7, 0.1, box_z + 0.17));
    const SpatialInertia inertia =
        k < 5 ? SpatialInertia::SolidSphere(1e-3, 0.01) : SpatialInertia::SolidBox(8.0 * rod_half.prod(), rod_half);
    parent = b.AddBody(names[k], parent, j, inertia);
    Actuator a;
    a.name = std::string(names[k]) + "_velocity";
    a.type = ActuatorType::kVelocityTarget;
    a.body = parent;
    a.kd = o.rod_kd;
    a.ctrl_lower = -1.0;
    a.ctrl_upper = 1.0;
    b.AddActuator(a);
  }
  b.AddCollider(parent, Box{rod_half}, SE3(), "rod").friction = 0.5;
  b.AddGround(0.5);
  return b.Build();
}

std::shared_ptr<const Scene> BallPairScene(double gap) {
  const double r = 0.5, mass = 4.0 / 3.0 * std::numbers::pi * r * r * r;  // billiards' balls
  SceneBuilder b("ball_pair");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  for (int k = 0; k < 2; ++k) {
    const std::string name = k == 0 ? "left" : "right";
    const double x = (k == 0 ? -1.0 : 1.0) * (r + 0.5 * gap);
    const int body = b.AddFreeBody(name, SpatialInertia::SolidSphere(mass, r), SE3::FromTranslation(Vec3(x, 0.0, r + gap)));
    b.AddCollider(body, Sphere{r}, SE3(), name).friction = 0.2;
  }
  b.AddGround(0.2);
  return b.Build();
}

}  // namespace arena
