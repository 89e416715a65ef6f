#include "scenes/biped_scenes.h"

#include <numbers>
#include <string>

#include <Eigen/Geometry>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/sphere_mesh.h"
#include "core/scene/scene_builder.h"
#include "scenes/capsule_links.h"
#include "scenes/robot_parts.h"

namespace arena {

namespace biped_scenes {

// Ours (the paper gives none): a 1.1 m tall biped of density 500 kg/m^3, 10.4 kg.
const Vec3 kTorsoHalf(0.08, 0.12, 0.15);
constexpr double kHipWidth = 0.09;             // each hip's offset from the middle (y)
constexpr double kThigh = 0.35, kShin = 0.35;  // m
constexpr double kLegRadius = 0.04;
constexpr double kFootRadius = 0.035;          // each foot hull's sphere
constexpr double kDensity = 500.0;
constexpr double kDropHeight = 0.04;           // the start's clearance of the feet
constexpr double kRange = std::numbers::pi / 2.0;

// Leg `i` (0 left, 1 right) from the torso's bottom: thigh and shin capsule hulls along +x of
// their frames, which a quarter turn about y points down; the ankle turns the foot's frame back
// (+x forward, z up).
void AddLeg(SceneBuilder& b, int torso, int i, const BipedOptions& o) {
  const std::string leg = "leg" + std::to_string(i);
  const Mat3 down = Eigen::AngleAxisd(std::numbers::pi / 2.0, Vec3::UnitY()).toRotationMatrix();  // +x -> -z
  const SE3 hip(down, Vec3(0.0, (i == 0 ? 1.0 : -1.0) * kHipWidth, -kTorsoHalf.z()));
  const int thigh = b.AddBody(leg + "_thigh", torso, Hinge(leg + "_hip", Vec3::UnitY(), hip, kRange),
                              CapsuleLinkInertia(kThigh, kLegRadius, kDensity));
  b.AddCollider(thigh, CapsuleLinkHull(kThigh, kLegRadius, o.cap_points), SE3(), leg + "_thigh").friction = o.friction;
  const SE3 knee = SE3::FromTranslation(Vec3(kThigh, 0, 0));
  const int shin = b.AddBody(leg + "_shin", thigh, Hinge(leg + "_knee", Vec3::UnitY(), knee, kRange),
                             CapsuleLinkInertia(kShin, kLegRadius, kDensity));
  b.AddCollider(shin, CapsuleLinkHull(kShin - kLegRadius, kLegRadius, o.cap_points), SE3(), leg + "_shin").friction =
      o.friction;
  const SE3 ankle(down.transpose(), Vec3(kShin, 0, 0));
  const double foot_mass = 3.0 * kDensity * 4.0 / 3.0 * std::numbers::pi * kFootRadius * kFootRadius * kFootRadius;
  const int foot = b.AddBody(leg + "_foot", shin, Hinge(leg + "_ankle", Vec3::UnitY(), ankle, kRange),
                             SpatialInertia::SolidSphere(foot_mass, 0.05));
  const ConvexHull ball = MakeConvexHull(FibonacciSphere(o.foot_points, kFootRadius).vertices);
  const Vec3 centres[3] = {Vec3(-0.03, 0.03, -kFootRadius), Vec3(-0.03, -0.03, -kFootRadius), Vec3(0.07, 0.0, -kFootRadius)};
  for (int k = 0; k < 3; ++k) {
    b.AddCollider(foot, ball, SE3::FromTranslation(centres[k]),
                  std::string(kBipedFootPrefix) + std::to_string(i) + "_" + std::to_string(k))
        .friction = o.friction;
  }
  AddPdDrive(b, thigh, leg + "_hip", o.kp, o.kd);
  AddPdDrive(b, shin, leg + "_knee", o.kp, o.kd);
  AddPdDrive(b, foot, leg + "_ankle", o.kp, o.kd);
}

}  // namespace biped_scenes

std::shared_ptr<const Scene> BipedScene(const BipedOptions& o) {
  using namespace biped_scenes;
  if (!(o.kp > 0.0) || !(o.kd >= 0.0) || !(o.friction >= 0.0) || o.foot_points < 4 || o.cap_points < 4) {
    throw InvalidArgument("biped: kp > 0, kd >= 0, friction >= 0, foot_points >= 4 and cap_points >= 4 needed");
  }
  SceneBuilder b("biped");
  b.SetGravity(Vec3(0, 0, -9.81));
  const SpatialInertia none;
  // The torso's centre above the ground at the start: its half height, both legs, the feet's
  // hull spheres and the drop (a barrier model cannot start touching).
  const double height = kTorsoHalf.z() + kThigh + kShin + 2.0 * kFootRadius + kDropHeight;
  const int z = AddTranslatingRoot(b, "biped", height);
  const int roll = b.AddBody("biped/roll", z, Hinge("root_roll", Vec3::UnitX()), none);
  const int pitch = b.AddBody("biped/pitch", roll, Hinge("root_pitch", Vec3::UnitY()), none);
  const double torso_mass = kDensity * 8.0 * kTorsoHalf.x() * kTorsoHalf.y() * kTorsoHalf.z();
  const int torso = b.AddBody(kBipedTorso, pitch, Hinge("root_yaw", Vec3::UnitZ()),
                              SpatialInertia::SolidBox(torso_mass, kTorsoHalf));
  b.AddCollider(torso, Box{kTorsoHalf}, SE3(), kBipedTorso).friction = o.friction;
  for (int i = 0; i < 2; ++i) AddLeg(b, torso, i, o);
  b.AddGround(o.friction);
  b.scene().self_collision = false;  // its legs never meet standing or stepping in place
  return b.Build();
}

}  // namespace arena
