#include "scenes/solver_compare_scenes.h"

#include <cmath>
#include <string>

#include "core/common/error.h"
#include "core/common/options.h"
#include "core/scene/scene_builder.h"

namespace arena {

namespace {

constexpr double kMass = 1.0;
constexpr double kG = 9.81;

void CheckClearance(const std::string& scene, double clearance) {
  if (!(clearance >= 0.0 && clearance <= 0.1)) {
    throw InvalidArgument(scene + ": the clearance must be in [0, 0.1] m, got " + options_detail::FormatDouble(clearance));
  }
}

// The cube, `clearance` above the ground, under gravity `g`.
std::shared_ptr<const Scene> Cube(const std::string& name, const Vec3& g, double clearance) {
  CheckClearance(name, clearance);
  SceneBuilder b(name);
  b.SetGravity(g);
  const Vec3 h = Vec3::Constant(kContactProblemHalfSize);
  const int body = b.AddFreeBody("cube", SpatialInertia::SolidBox(kMass, h),
                                 SE3::FromTranslation(Vec3(0.0, 0.0, kContactProblemHalfSize + clearance)));
  b.AddCollider(body, Box{h}, SE3(), "cube").friction = kContactProblemFriction;
  b.AddGround(kContactProblemFriction);
  return b.Build();
}

// The ball, `clearance` above the ground, under gravity `g`.
std::shared_ptr<const Scene> Ball(const std::string& name, const Vec3& g, double clearance) {
  CheckClearance(name, clearance);
  SceneBuilder b(name);
  b.SetGravity(g);
  const double r = kContactProblemHalfSize;
  const int body = b.AddFreeBody("ball", SpatialInertia::SolidSphere(kMass, r), SE3::FromTranslation(Vec3(0.0, 0.0, r + clearance)));
  b.AddCollider(body, Sphere{r}, SE3(), "ball").friction = kContactProblemFriction;
  b.AddGround(kContactProblemFriction);
  return b.Build();
}

}  // namespace

std::shared_ptr<const Scene> CubeOnGroundScene(double clearance) {
  return Cube("cube_on_ground", Vec3(0.0, 0.0, -kG), clearance);
}

std::shared_ptr<const Scene> BallOnGroundScene(double clearance) {
  return Ball("ball_on_ground", Vec3(0.0, 0.0, -kG), clearance);
}

// A constant force at the centre of mass is a uniform field on the one body: gravity g + F / m.
std::shared_ptr<const Scene> BallUnderForceScene(const Vec3& force_n, double clearance) {
  if (!force_n.allFinite()) throw InvalidArgument("ball_under_force: the force must be finite");
  return Ball("ball_under_force", Vec3(0.0, 0.0, -kG) + force_n / kMass, clearance);
}

std::shared_ptr<const Scene> SquareOnFloorScene(double clearance) {
  CheckClearance("square_on_floor", clearance);
  SceneBuilder b("square_on_floor");
  b.SetGravity(Vec3(0.0, -kG, 0.0));
  const double h = kContactProblemHalfSize;
  Eigen::Matrix<double, 4, 2> A;
  A << 1, 0, 0, 1, -1, 0, 0, -1;
  // A square's rotational inertia m (2h)^2 / 6.
  const int body = b.AddPlanarBody("square", kMass, kMass * 4.0 * h * h / 6.0, Vec3(0.0, h + clearance, 0.0));
  b.AddCollider(body, MakePolygon2(A, VecX::Constant(4, h)), SE3(), "square").friction = kContactProblemFriction;
  b.AddGroundPlane2(kContactProblemFriction);
  return b.Build();
}

std::shared_ptr<const Scene> BoxTowerScene(int boxes, double clearance) {
  if (boxes < 1 || boxes > 50) {
    throw InvalidArgument("box_tower: the number of boxes must be in [1, 50], got " + std::to_string(boxes));
  }
  CheckClearance("box_tower", clearance);
  SceneBuilder b("box_tower");
  b.SetGravity(Vec3(0.0, 0.0, -kG));
  const Vec3 h = Vec3::Constant(kContactProblemHalfSize);
  const double side = 2.0 * kContactProblemHalfSize;
  for (int i = 0; i < boxes; ++i) {
    const std::string name = "box" + std::to_string(i);
    const double z = kContactProblemHalfSize + clearance + i * (side + clearance);
    const int body = b.AddFreeBody(name, SpatialInertia::SolidBox(kMass, h), SE3::FromTranslation(Vec3(0.0, 0.0, z)));
    b.AddCollider(body, Box{h}, SE3(), name).friction = kContactProblemFriction;
  }
  b.AddGround(kContactProblemFriction);
  return b.Build();
}

std::shared_ptr<const Scene> MassRatioStackScene(double light_kg, double heavy_kg, double clearance) {
  if (!(light_kg > 0.0) || !(heavy_kg > 0.0)) {
    throw InvalidArgument("mass_ratio_stack: the masses must be > 0 kg, got " + options_detail::FormatDouble(light_kg) +
                          " and " + options_detail::FormatDouble(heavy_kg));
  }
  CheckClearance("mass_ratio_stack", clearance);
  SceneBuilder b("mass_ratio_stack");
  b.SetGravity(Vec3(0.0, 0.0, -kG));
  const double h = kContactProblemHalfSize;
  const Vec3 half = Vec3::Constant(h);
  const int light = b.AddFreeBody("light", SpatialInertia::SolidBox(light_kg, half), SE3::FromTranslation(Vec3(0, 0, h + clearance)));
  b.AddCollider(light, Box{half}, SE3(), "light").friction = kMassRatioStackCubeFriction;
  const int heavy = b.AddFreeBody("heavy", SpatialInertia::SolidBox(heavy_kg, half),
                                  SE3::FromTranslation(Vec3(0, 0, 3.0 * h + 2.0 * clearance)));
  b.AddCollider(heavy, Box{half}, SE3(), "heavy").friction = kMassRatioStackCubeFriction;
  b.AddGround(kMassRatioStackGroundFriction);
  return b.Build();
}

std::shared_ptr<const Scene> TiltedBoxScene(double slope_over_mu, double clearance) {
  if (!(slope_over_mu >= 0.0 && slope_over_mu <= 1.9)) {
    throw InvalidArgument("tilted_box: slope_over_mu must be in [0, 1.9], got " + options_detail::FormatDouble(slope_over_mu));
  }
  // A slope of angle a under gravity g is the horizontal ground under g (sin a, 0, -cos a).
  const double a = std::atan(slope_over_mu * kContactProblemFriction);
  return Cube("tilted_box", Vec3(kG * std::sin(a), 0.0, -kG * std::cos(a)), clearance);
}

}  // namespace arena
