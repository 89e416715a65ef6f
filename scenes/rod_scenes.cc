#include "scenes/rod_scenes.h"

#include <cmath>
#include <string>

#include "core/common/error.h"
#include "core/common/random.h"
#include "core/scene/scene_builder.h"

namespace arena {

namespace {

constexpr double kPushCubeHalf = 0.15, kCubeLift = 0.01, kRodAbove = 0.17;

// Appends the rod's joint chain and returns the body that carries the rod.
int AddRod(SceneBuilder& b, const Vec3& centre, int dofs, double kd) {
  const Vec3 axes[6] = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ(), Vec3::UnitZ(), Vec3::UnitY(), Vec3::UnitX()};
  const char* names[6] = {"rod_x", "rod_y", "rod_z", "rod_yaw", "rod_pitch", "rod_roll"};
  const Vec3 rod_half(0.05, 0.4, 0.05);
  int parent = kWorldBody;
  for (int k = 0; k < dofs; ++k) {
    JointModel j;
    j.type = k < 3 ? JointType::kPrismatic : JointType::kRevolute;
    j.name = names[k];
    j.axis = axes[k];
    if (k == 0) j.placement = SE3::FromTranslation(centre);
    const bool last = k == dofs - 1;
    const std::string name = last ? "rod" : names[k];
    const SpatialInertia inertia =
        last ? SpatialInertia::SolidBox(8.0 * rod_half.prod(), rod_half) : SpatialInertia::SolidSphere(1e-3, 0.01);
    parent = b.AddBody(name, parent, j, inertia);
    Actuator a;
    a.name = std::string(names[k]) + "_velocity";
    a.type = ActuatorType::kVelocityTarget;
    a.body = parent;
    a.kd = kd;
    a.ctrl_lower = -1.0;
    a.ctrl_upper = 1.0;
    b.AddActuator(a);
  }
  b.AddCollider(parent, Box{rod_half}, SE3(), "rod").friction = 0.5;
  return parent;
}

}  // namespace

std::shared_ptr<const Scene> RodAndCubesScene(const RodAndCubesOptions& o) {
  if (o.cubes.empty()) throw InvalidArgument(o.name + ": no cubes");
  if (o.rod_dofs != 3 && o.rod_dofs != 4 && o.rod_dofs != 6) {
    throw InvalidArgument(o.name + ": rod_dofs must be 3, 4 or 6, got " + std::to_string(o.rod_dofs));
  }
  if (!(o.rod_kd > 0.0) || !std::isfinite(o.rod_kd)) throw InvalidArgument(o.name + ": rod_kd must be > 0 and finite");
  SceneBuilder b(o.name);
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  const Vec3 half = Vec3::Constant(kPushCubeHalf);
  const double z = kPushCubeHalf + kCubeLift;
  for (size_t i = 0; i < o.cubes.size(); ++i) {
    const std::string name = "cube" + std::to_string(i);
    const int cube = b.AddFreeBody(name, SpatialInertia::SolidBox(8.0 * half.prod(), half),
                                   SE3::FromTranslation(Vec3(o.cubes[i].x(), o.cubes[i].y(), z)));
    b.AddCollider(cube, Box{half}, SE3(), name).friction = 0.5;
  }
  AddRod(b, Vec3(o.rod.x(), o.rod.y(), z + kRodAbove), o.rod_dofs, o.rod_kd);
  b.AddGround(0.5);
  return b.Build();
}

std::shared_ptr<const Scene> PushScene() {
  RodAndCubesOptions o;
  o.name = "push";
  o.cubes = {Vec2::Zero()};
  return RodAndCubesScene(o);
}

std::vector<Vec2> ScatteredCubes() {
  Rng rng(2025);  // a fixed draw: every model and run sees the same cubes
  std::vector<Vec2> cubes;
  while (cubes.size() < 10) {
    const Vec2 c(Uniform(rng, -2.0, 2.0), Uniform(rng, -2.0, 2.0));
    bool clear = true;
    for (const Vec2& other : cubes) clear = clear && (c - other).norm() >= 0.6;
    if (clear) cubes.push_back(c);
  }
  return cubes;
}

namespace {

// Fig. 8's layout with the rod driven in its first `rod_dofs` joints.
std::shared_ptr<const Scene> ScatteredCubesScene(const std::string& name, int rod_dofs) {
  RodAndCubesOptions o;
  o.name = name;
  o.cubes = ScatteredCubes();
  o.rod = Vec2(-3.0, 0.0);
  o.rod_dofs = rod_dofs;
  return RodAndCubesScene(o);
}

}  // namespace

std::shared_ptr<const Scene> GatherScene() { return ScatteredCubesScene("gather", 4); }

std::shared_ptr<const Scene> SortScene() { return ScatteredCubesScene("sort", 3); }

}  // namespace arena
