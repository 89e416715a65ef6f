#include "scenes/rotating_chains_scenes.h"

#include <array>
#include <cmath>
#include <numbers>
#include <string>

#include "core/common/error.h"
#include "core/scene/scene_builder.h"
#include "scenes/capsule_links.h"

namespace arena {

namespace {

constexpr double kChainLinkLength = 0.5;    // m
constexpr double kChainLinkRadius = 0.24;   // m
constexpr double kChainDensity = 1.0;       // kg/m^3
constexpr double kChainLimit = std::numbers::pi / 6.0;  // rad
constexpr double kChainKp = 1000.0, kChainKd = 10.0;
constexpr double kChainFriction = 0.75;     // the authors' simulator default
constexpr double kChainOmega = 2.0;         // rad/s of the driven roots
constexpr std::array<double, 3> kChainRadii = {4.5, 3.0, 1.5};

JointModel Joint(JointType type, const std::string& name, const Vec3& axis, const SE3& placement = SE3()) {
  JointModel j;
  j.type = type;
  j.name = name;
  j.axis = axis;
  j.placement = placement;
  if (type == JointType::kRevolute) {
    j.lower = -kChainLimit;
    j.upper = kChainLimit;
  }
  return j;
}

// Chain `c` of `links` links; returns nothing, adds bodies, colliders and (driven chains)
// actuators. Chains 0-2 translate and rotate at their root, chain 3 only rotates.
void AddChain(SceneBuilder& b, int c, const RotatingChainsOptions& o, const ConvexHull& hull) {
  const std::string chain = "chain" + std::to_string(c);
  const SE3 root = SE3::FromTranslation(Vec3(0.0, 0.0, static_cast<double>(c)));
  const SpatialInertia none;  // the massless joint-chain links
  int parent = kWorldBody;
  const std::string first = chain + "_link0";
  if (c < 3) {
    const std::array<Vec3, 3> axes = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()};
    const std::array<const char*, 3> names = {"x", "y", "z"};
    for (int k = 0; k < 3; ++k) {
      const std::string name = first + "/" + names[k];
      parent = b.AddBody(name, parent, Joint(JointType::kPrismatic, name, axes[k], k == 0 ? root : SE3()), none);
      Actuator a;
      a.name = chain + "_root_" + names[k];
      a.type = ActuatorType::kPdTarget;
      a.body = parent;
      a.kp = kChainKp;
      a.kd = kChainKd;
      b.AddActuator(a);
      if (k == 0) b.SetDefaultJointPosition(parent, VecX::Constant(1, kChainRadii[c]));
    }
  }
  parent = b.AddBody(first, parent, Joint(JointType::kBall, first, Vec3::UnitZ(), c < 3 ? SE3() : root), CapsuleLinkInertia(kChainLinkLength, kChainLinkRadius, kChainDensity));
  b.AddCollider(parent, hull, SE3(), first).friction = kChainFriction;
  for (int l = 1; l < o.links; ++l) {
    const std::string link = chain + "_link" + std::to_string(l);
    const SE3 at_end = SE3::FromTranslation(Vec3(kChainLinkLength, 0.0, 0.0));
    const int swing = b.AddBody(link + "/swing", parent, Joint(JointType::kRevolute, link + "/swing", Vec3::UnitY(), at_end), none);
    const int previous = parent;
    parent = b.AddBody(link, swing, Joint(JointType::kRevolute, link, Vec3::UnitZ()), CapsuleLinkInertia(kChainLinkLength, kChainLinkRadius, kChainDensity));
    b.AddCollider(parent, hull, SE3(), link).friction = kChainFriction;
    // Consecutive links overlap around their joint; the massless swing link between them makes
    // them grandparent and grandchild, which the scene's parent-child rule does not exclude.
    b.ExcludePair(previous, parent);
  }
}

}  // namespace

std::shared_ptr<const Scene> RotatingChainsScene(const RotatingChainsOptions& o) {
  if (o.links < 1) throw InvalidArgument("rotating chains: links must be >= 1, got " + std::to_string(o.links));
  if (o.cap_points < 4) throw InvalidArgument("rotating chains: cap_points must be >= 4, got " + std::to_string(o.cap_points));
  SceneBuilder b("rotating_chains");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  const ConvexHull hull = CapsuleLinkHull(kChainLinkLength, kChainLinkRadius, o.cap_points);
  for (int c = 0; c < 4; ++c) AddChain(b, c, o, hull);
  // The floor box [-150, 30]^2 x [-8, -6].
  b.AddCollider(kWorldBody, Box{Vec3(90.0, 90.0, 1.0)}, SE3::FromTranslation(Vec3(-60.0, -60.0, -7.0)), "floor").friction = kChainFriction;
  b.scene().self_collision = true;  // links of one chain collide (not a link and its parent)
  return b.Build();
}

VecX RotatingChainsTargets(double t) {
  VecX u(9);
  const double lead = kChainKd / kChainKp;
  for (int c = 0; c < 3; ++c) {
    const double R = kChainRadii[c], w = kChainOmega;
    u.segment<3>(3 * c) << R * (std::cos(w * t) - lead * w * std::sin(w * t)),
        R * (std::sin(w * t) + lead * w * std::cos(w * t)), 0.0;
  }
  return u;
}

int RotatingChainsDof(int links) { return 8 * links + 13; }

}  // namespace arena
