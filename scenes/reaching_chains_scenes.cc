#include "scenes/reaching_chains_scenes.h"

#include <numbers>
#include <string>

#include "core/common/error.h"
#include "core/scene/scene_builder.h"
#include "scenes/capsule_links.h"

namespace arena {

namespace reaching_chains_scenes {

constexpr double kLinkLength = 0.5, kLinkRadius = 0.1;  // m
constexpr double kDensity = 1.0;                       // kg/m^3
constexpr double kLimit = std::numbers::pi / 6.0;     // rad
constexpr double kKp = 1000.0, kKd = 10.0;
constexpr double kFriction = 0.75;
constexpr double kRootHeight = 4.5;                    // m
constexpr double kChainSpacing = 0.6;                  // m along x
const Vec3 kTargetOffset(0.3, 0.0, -0.4);              // from the hanging tip

JointModel Revolute(const std::string& name, const Vec3& axis, const SE3& placement) {
  JointModel j;
  j.type = JointType::kRevolute;
  j.name = name;
  j.axis = axis;
  j.placement = placement;
  j.lower = -kLimit;
  j.upper = kLimit;
  return j;
}

// Chain `c` hanging from `root` (a body or the world at `placement`); returns its last link.
int AddChain(SceneBuilder& b, int c, int root, const SE3& placement, const ReachingChainsOptions& o,
             const ConvexHull& hull) {
  const SpatialInertia link_inertia = CapsuleLinkInertia(kLinkLength, kLinkRadius, kDensity);
  const SpatialInertia none;
  int parent = root, previous = kWorldBody;
  for (int l = 0; l < o.links; ++l) {
    const std::string link = "chain" + std::to_string(c) + "_link" + std::to_string(l);
    const SE3 at = l == 0 ? placement : SE3::FromTranslation(Vec3(kLinkLength, 0.0, 0.0));
    const int swing = b.AddBody(link + "/swing", parent, Revolute(link + "/swing", Vec3::UnitY(), at), none);
    parent = b.AddBody(link, swing, Revolute(link, Vec3::UnitZ(), SE3()), link_inertia);
    b.AddCollider(parent, hull, SE3(), link).friction = kFriction;
    if (previous != kWorldBody) b.ExcludePair(previous, parent);  // they overlap about their joint
    previous = parent;
  }
  return parent;
}

}  // namespace reaching_chains_scenes

ReachingChains ReachingChainsScene(const ReachingChainsOptions& o) {
  using namespace reaching_chains_scenes;
  if (o.links < 1) throw InvalidArgument("reaching chains: links must be >= 1, got " + std::to_string(o.links));
  if (o.cap_points < 4) throw InvalidArgument("reaching chains: cap_points must be >= 4, got " + std::to_string(o.cap_points));
  SceneBuilder b("reaching_chains");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  const ConvexHull hull = CapsuleLinkHull(kLinkLength, kLinkRadius, o.cap_points);
  // The links' +x points down: a quarter turn about y at every root.
  const Mat3 down = (Mat3() << 0, 0, 1, 0, 1, 0, -1, 0, 0).finished();
  ReachingChains out;
  JointModel slide;
  slide.type = JointType::kPrismatic;
  slide.name = "base";
  slide.axis = Vec3::UnitX();
  slide.placement = SE3::FromTranslation(Vec3(0.0, 0.0, kRootHeight));
  const int base = b.AddBody("base", kWorldBody, slide, SpatialInertia());
  Actuator a;
  a.name = "base_x";
  a.type = ActuatorType::kPdTarget;
  a.body = base;
  a.kp = kKp;
  a.kd = kKd;
  b.AddActuator(a);
  out.tip_body = AddChain(b, 0, base, SE3(down, Vec3::Zero()), o, hull);
  for (int c = 1; c < 3; ++c) {
    AddChain(b, c, kWorldBody, SE3(down, Vec3(kChainSpacing * c, 0.0, kRootHeight)), o, hull);
  }
  b.scene().self_collision = true;
  out.scene = b.Build();
  out.tip_local = Vec3(kLinkLength, 0.0, 0.0);
  out.target = Vec3(0.0, 0.0, kRootHeight - kLinkLength * o.links) + kTargetOffset;
  out.base_actuator = 0;
  out.base_x = 0.0;
  return out;
}

}  // namespace arena
