#include "scenes/spider_scenes.h"

#include <cmath>
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

namespace spider_scenes {

// The authors' spider (seed 003 App. A.6), in metres.
constexpr double kBodyRadius = 0.2 * 2.0 / 3.0;
constexpr double kLegRadius = 0.08 * 2.0 / 3.0;
const double kUpperLength = (0.2 * std::numbers::sqrt2 + 0.16) * 2.0 / 3.0 * 0.5;
constexpr double kLowerLength = 0.295;
constexpr double kFootRadius = 0.04;             // ours: each foot hull's sphere
constexpr double kToeReach = 0.02;               // ours: the front hull's centre beyond the tip
constexpr double kDropHeight = 0.04;             // ours: the start's clearance of the feet
constexpr double kDensity = 1000.0;              // [GUESS] kg/m^3
constexpr double kLift = 10.0 * std::numbers::pi / 180.0;
constexpr double kKneeBend = 70.0 * std::numbers::pi / 180.0;  // 60 degrees below the horizontal
constexpr double kRange = std::numbers::pi / 2.0;              // hips and knees: +-90 degrees

Mat3 RotY(double angle) { return Eigen::AngleAxisd(angle, Vec3::UnitY()).toRotationMatrix(); }
Mat3 RotZ(double angle) { return Eigen::AngleAxisd(angle, Vec3::UnitZ()).toRotationMatrix(); }

// Leg `i` on `body`: swing and lift hinges at the body's surface, the upper leg, the knee, the
// lower leg and its foot hulls.
void AddLeg(SceneBuilder& b, int body, int i, const SpiderOptions& o) {
  const std::string leg = "leg" + std::to_string(i);
  const double yaw = std::numbers::pi / 4.0 + i * std::numbers::pi / 2.0;
  const SE3 hip(RotZ(yaw), RotZ(yaw) * Vec3(kBodyRadius, 0.0, 0.0));
  const SpatialInertia none;
  // Lifting is a turn of +x towards +z: about -y.
  const int swing = b.AddBody(leg + "/swing", body, Hinge(leg + "_swing", Vec3::UnitZ(), hip, kRange), none);
  const int upper = b.AddBody(leg + "_upper", swing, Hinge(leg + "_lift", Vec3::UnitY(), SE3(RotY(-kLift), Vec3::Zero()), kRange),
                              CapsuleLinkInertia(kUpperLength, kLegRadius, kDensity));
  b.AddCollider(upper, CapsuleLinkHull(kUpperLength, kLegRadius, o.cap_points), SE3(), leg + "_upper").friction = o.friction;
  const SE3 knee(RotY(kKneeBend), Vec3(kUpperLength, 0.0, 0.0));
  const int lower = b.AddBody(leg + "_lower", upper, Hinge(leg + "_knee", Vec3::UnitY(), knee, kRange),
                              CapsuleLinkInertia(kLowerLength, kLegRadius, kDensity));
  // The lower leg's capsule ends at the tip, where the foot takes over.
  b.AddCollider(lower, CapsuleLinkHull(kLowerLength - kLegRadius, kLegRadius, o.cap_points), SE3(), leg + "_lower").friction =
      o.friction;
  // Three overlapping hulls about the tip: one on the leg's axis beyond it, two beside it.
  const ConvexHull foot = MakeConvexHull(FibonacciSphere(o.foot_points, kFootRadius).vertices);
  const Vec3 centres[3] = {Vec3(kLowerLength + kToeReach, 0.0, 0.0), Vec3(kLowerLength, 0.025, 0.0),
                           Vec3(kLowerLength, -0.025, 0.0)};
  for (int k = 0; k < 3; ++k) {
    b.AddCollider(lower, foot, SE3::FromTranslation(centres[k]), std::string(kSpiderFootPrefix) + std::to_string(i) + "_" + std::to_string(k))
        .friction = o.friction;
  }
  AddPdDrive(b, swing, leg + "_swing", o.kp, o.kd);
  AddPdDrive(b, upper, leg + "_lift", o.kp, o.kd);
  AddPdDrive(b, lower, leg + "_knee", o.kp, o.kd);
}

// Height of the body's centre at which the rest pose's feet touch the ground (their lowest
// point: the front foot hull's sphere below its centre).
double StandingHeight() {
  const double drop = (kLowerLength + kToeReach) * std::sin(kKneeBend - kLift) - kUpperLength * std::sin(kLift);
  return drop + kFootRadius;
}

void CheckOptions(const SpiderOptions& o) {
  if (!(o.slope_deg >= 0.0 && o.slope_deg < 45.0)) {
    throw InvalidArgument("spider: slope_deg must be in [0, 45), got " + std::to_string(o.slope_deg));
  }
  if (!(o.kp > 0.0) || !(o.kd >= 0.0) || !(o.friction >= 0.0) || o.foot_points < 4 || o.cap_points < 4) {
    throw InvalidArgument("spider: kp > 0, kd >= 0, friction >= 0, foot_points >= 4 and cap_points >= 4 needed");
  }
}

// The spider, its slope (gravity tilted: down the slope is +x) and the ground.
void AddSpider(SceneBuilder& b, const SpiderOptions& o) {
  CheckOptions(o);
  const double slope = o.slope_deg * std::numbers::pi / 180.0;
  b.SetGravity(9.81 * Vec3(std::sin(slope), 0.0, -std::cos(slope)));
  // 4 cm above its standing height: the barrier models cannot start touching, and the feet's
  // design (experiments/common/tasks/walker_task.h: vertices within 2 cm of the start in each coordinate of
  // the lower leg's frame, at most 2.8 cm lower) never makes the start intersect the ground.
  const int z = AddTranslatingRoot(b, "spider", StandingHeight() + kDropHeight);
  const double body_mass = kDensity * 4.0 / 3.0 * std::numbers::pi * std::pow(kBodyRadius, 3);
  const int body = b.AddBody(kSpiderBody, z, Hinge("root_yaw", Vec3::UnitZ()),
                             SpatialInertia::SolidSphere(body_mass, kBodyRadius));
  b.AddCollider(body, MakeConvexHull(FibonacciSphere(48, kBodyRadius).vertices), SE3(), kSpiderBody).friction = o.friction;
  for (int i = 0; i < 4; ++i) AddLeg(b, body, i, o);
  b.AddGround(o.friction);
  b.scene().self_collision = false;  // the legs never meet on this gait; only the ground and a box are touched
}

}  // namespace spider_scenes

std::shared_ptr<const Scene> SpiderScene(const SpiderOptions& o) {
  SceneBuilder b("spider");
  spider_scenes::AddSpider(b, o);
  return b.Build();
}

std::shared_ptr<const Scene> AntPushScene(const AntPushOptions& o) {
  if (!(o.box_size > 0.0) || !(o.box_density > 0.0) || !(o.box_ahead > 0.5 * o.box_size + 0.3)) {
    throw InvalidArgument("ant_push: box_size > 0, box_density > 0 and box_ahead > box_size / 2 + 0.3 m (clear of the "
                          "front feet) needed");
  }
  SceneBuilder b("ant_push");
  spider_scenes::AddSpider(b, o.spider);
  const Vec3 half = Vec3::Constant(0.5 * o.box_size);
  // Resting on the ground at the start: the barrier models need it a hair above (1 mm).
  const int box = b.AddFreeBody(kAntPushBox, SpatialInertia::SolidBox(o.box_density * o.box_size * o.box_size * o.box_size, half),
                                SE3::FromTranslation(Vec3(o.box_ahead, 0.0, half.z() + 1e-3)));
  b.AddCollider(box, Box{half}, SE3(), kAntPushBox).friction = o.spider.friction;
  return b.Build();
}

}  // namespace arena
