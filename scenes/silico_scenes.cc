#include "scenes/silico_scenes.h"

#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <utility>

#include "core/scene/scene_builder.h"

namespace arena {

std::shared_ptr<const Scene> PegInHoleScene() {
  SceneBuilder b("peg_in_hole");
  b.SetGravity(Vec3(0.0, -9.81, 0.0));
  Eigen::Matrix<double, 6, 2> A;
  A << 1, 0, 0, 1, -1, 0, 0, -1, 1, -0.2, -1, -0.2;
  A.rowwise().normalize();
  VecX bb(6);
  bb << 1, 3, 1, 1, 0.9, 0.9;
  bb *= 0.249;
  const int peg = b.AddPlanarBody("peg", 1.0, 0.2, Vec3(0.0, 1.5, 0.3));
  b.AddCollider(peg, MakePolygon2(A, bb), SE3(), "peg").friction = 0.03;
  Eigen::Matrix<double, 4, 2> W;
  W << 1, 0, 0, 1, -1, 0, 0, -1;
  VecX wb(4);
  wb << 0.25, 0.5, 0.25, 0.5;
  const Polygon2 wall = MakePolygon2(W, wb);
  b.AddCollider(kWorldBody, wall, SE3::FromTranslation(Vec3(-0.5, 0.5, 0.0)), "left_wall").friction = 0.03;
  b.AddCollider(kWorldBody, wall, SE3::FromTranslation(Vec3(0.5, 0.5, 0.0)), "right_wall").friction = 0.03;
  b.AddGroundPlane2(0.03);
  return b.Build();
}

namespace {
constexpr double kBundlesFriction = 0.6;
}

std::shared_ptr<const Scene> ConvexBundlesScene() {
  SceneBuilder b("convex_bundles");
  b.SetGravity(Vec3(0.0, -9.81, 0.0));
  const int bundle = b.AddPlanarBody("bundle", 1.0, 0.2, Vec3(0.0, 1.5, -0.2));
  Eigen::Matrix<double, 3, 2> T;
  T << 0, 1, 2.5, -1, -2.5, -1;
  T.rowwise().normalize();
  b.AddCollider(bundle, MakePolygon2(T, VecX::Constant(3, 0.3)), SE3(), "triangle").friction = kBundlesFriction;
  b.AddCollider(bundle, Capsule2{0.15, 2.0}, SE3(), "bar").friction = kBundlesFriction;
  b.AddCollider(bundle, Disk2{0.15}, SE3::FromTranslation(Vec3(-2.0, 0.0, 0.0)), "left_ball").friction =
      kBundlesFriction;
  b.AddCollider(bundle, Disk2{0.15}, SE3::FromTranslation(Vec3(2.0, 0.0, 0.0)), "right_ball").friction =
      kBundlesFriction;
  const int rounded = b.AddPlanarBody("rounded_rhombus", 1.0, 0.2, Vec3(-1.8, 3.5, 0.75));
  Eigen::Matrix<double, 4, 2> R;
  R << 5, 1, -5, 1, 1, 5, 1, -5;
  R.rowwise().normalize();
  b.AddCollider(rounded, MakePaddedPolygon2(R, VecX::Constant(4, 0.3), 0.3), SE3(), "rhombus_plus_disk").friction =
      kBundlesFriction;
  b.AddGroundPlane2(kBundlesFriction);
  return b.Build();
}

namespace {

// A regular octagon of inradius r: the grasp's fingertip (see GraspScene for why not a disk).
Polygon2 FingertipPolygon(double r) {
  constexpr int kSides = 8;
  Eigen::Matrix<double, kSides, 2> A;
  for (int i = 0; i < kSides; ++i) {
    const double a = 2.0 * std::numbers::pi * i / kSides;
    A.row(i) << std::cos(a), std::sin(a);
  }
  return MakePolygon2(A, VecX::Constant(kSides, r));
}

}  // namespace

std::shared_ptr<const Scene> GraspScene(const GraspOptions& options) {
  constexpr std::uint32_t kFingertipGroup = 2;
  constexpr double kFingerFriction = 0.5, kFloorFriction = 0.5 / 3.0, kStiffness = 100.0, kRadius = 0.1;
  SceneBuilder b("grasp");
  b.SetGravity(Vec3(0.0, -9.81, 0.0));
  const double s = std::sin(std::numbers::pi / 3.0), c = std::cos(std::numbers::pi / 3.0);
  Eigen::Matrix<double, 3, 2> A;
  A << 0, -1, s, c, -s, c;
  const Vec3 faces(0.4, 0.1, 0.1);
  const int star = b.AddPlanarBody("star", 0.5, 0.2, Vec3(1.0, 0.4, 0.0));
  b.AddCollider(star, MakePolygon2(A, faces), SE3(), "star_up").friction = kFingerFriction;
  b.AddCollider(star, MakePolygon2(-A, faces), SE3(), "star_down").friction = kFingerFriction;
  const double finger_inertia = 0.5 * kGraspFingerMass * kRadius * kRadius;
  for (const auto& [name, x] : {std::pair{"finger_left", 0.25}, std::pair{"finger_right", 1.75}}) {
    const int finger = b.AddPlanarBody(name, kGraspFingerMass, finger_inertia, Vec3(x, 0.4, 0.0));
    Collider& tip = options.disk_fingertips ? b.AddCollider(finger, Disk2{kRadius}, SE3(), name)
                                            : b.AddCollider(finger, FingertipPolygon(kRadius), SE3(), name);
    tip.friction = kFingerFriction;
    tip.group = kFingertipGroup;
    tip.mask = ~kFingertipGroup;  // the star, not the floor or the other fingertip
    // Targets in the order of the body's (x, y, theta): planar dof 1 = x, 2 = y, 0 = theta.
    for (const auto& [dof, axis] : {std::pair{1, "x"}, std::pair{2, "y"}, std::pair{0, "theta"}}) {
      Actuator a;
      a.name = std::string(name) + "_" + axis;
      a.type = ActuatorType::kPdTarget;
      a.body = finger;
      a.dof = dof;
      a.kp = kStiffness;
      b.AddActuator(a);
    }
  }
  b.AddGroundPlane2(kFloorFriction).mask = ~kFingertipGroup;
  return b.Build();
}

std::shared_ptr<const Scene> FallingSquareScene() {
  SceneBuilder b("solve_time_square");
  b.SetGravity(Vec3(0.0, -9.81, 0.0));
  Eigen::Matrix<double, 4, 2> A;
  A << 1, 0, 0, 1, -1, 0, 0, -1;
  const int body = b.AddPlanarBody("square", 1.0, 0.2, Vec3(0.0, 2.0, 0.0));
  b.AddCollider(body, MakePolygon2(A, VecX::Constant(4, 0.5)), SE3(), "square").friction = 0.1;
  b.AddGroundPlane2(0.1);
  return b.Build();
}

}  // namespace arena
