#include "scenes/tpush_scenes.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include <Eigen/Geometry>

#include "core/scene/scene_builder.h"

namespace arena {

namespace tpush_scenes {

const Vec3 kBarHalf(0.5 * kTPushBarLength, 0.5 * kTPushBarWidth, 0.5 * kTPushThickness);
const Vec3 kStemHalf(0.5 * kTPushStemWidth, 0.5 * kTPushStemLength, 0.5 * kTPushThickness);

// Masses of the two parts by area (a uniform T).
double BarMass() {
  const double bar = kTPushBarLength * kTPushBarWidth, stem = kTPushStemWidth * kTPushStemLength;
  return kTPushMass * bar / (bar + stem);
}

SpatialInertia TInertia() {
  const SpatialInertia bar = SpatialInertia::SolidBox(BarMass(), kBarHalf);
  const SpatialInertia stem = SpatialInertia::SolidBox(kTPushMass - BarMass(), kStemHalf);
  return bar.Transformed(SE3::FromTranslation(TPushBarCentre())) +
         stem.Transformed(SE3::FromTranslation(TPushStemCentre()));
}

JointModel Joint(JointType type, const std::string& name, const Vec3& axis, double damping) {
  JointModel j;
  j.type = type;
  j.name = name;
  j.axis = axis;
  j.damping = damping;
  return j;
}

const SpatialInertia kMassless(0.0, Vec3::Zero(), Mat3::Zero());

}  // namespace tpush_scenes

// The bar spans y in [0.15, 0.2] and the stem [0, 0.15] from the stem's foot; the centre of mass
// is at the area-weighted mean of the two centres.
Vec3 TPushBarCentre() {
  const double m_bar = tpush_scenes::BarMass() / kTPushMass;
  const double bar_y = kTPushStemLength + 0.5 * kTPushBarWidth, stem_y = 0.5 * kTPushStemLength;
  const double com_y = m_bar * bar_y + (1.0 - m_bar) * stem_y;
  return Vec3(0.0, bar_y - com_y, 0.0);
}

Vec3 TPushStemCentre() {
  return TPushBarCentre() - Vec3(0.0, 0.5 * (kTPushBarWidth + kTPushStemLength), 0.0);
}

double TPushYawInertia() {
  const SpatialInertia I = tpush_scenes::TInertia();
  return I.inertia_com()(2, 2);
}

std::shared_ptr<const Scene> TPushScene() {
  using namespace tpush_scenes;
  SceneBuilder b("tpush");
  b.SetGravity(Vec3::Zero());
  // The T: slide x, slide y, hinge z; damping c on the slides and c I/m on the hinge (the same
  // decay time in translation and rotation).
  const double c = kTPushLinearDamping;
  const int tx = b.AddBody("t/x", kWorldBody, Joint(JointType::kPrismatic, "t_x", Vec3::UnitX(), c), kMassless);
  const int ty = b.AddBody("t/y", tx, Joint(JointType::kPrismatic, "t_y", Vec3::UnitY(), c), kMassless);
  const int t = b.AddBody("t", ty, Joint(JointType::kRevolute, "t_yaw", Vec3::UnitZ(), c * TPushYawInertia() / kTPushMass),
                          TInertia());
  b.AddCollider(t, Box{kBarHalf}, SE3::FromTranslation(TPushBarCentre()), "bar").friction = kTPushFriction;
  b.AddCollider(t, Box{kStemHalf}, SE3::FromTranslation(TPushStemCentre()), "stem").friction = kTPushFriction;
  // The finger: slide x, slide y, each driven by a PD actuator towards its target.
  const int fx = b.AddBody("finger/x", kWorldBody, Joint(JointType::kPrismatic, "finger_x", Vec3::UnitX(), 0.0), kMassless);
  const int f = b.AddBody("finger", fx, Joint(JointType::kPrismatic, "finger_y", Vec3::UnitY(), 0.0),
                          SpatialInertia::SolidSphere(kTPushFingerMass, kTPushFingerRadius));
  b.AddCollider(f, Sphere{kTPushFingerRadius}, SE3(), "finger").friction = kTPushFriction;
  for (const auto& [body, name] : {std::pair{fx, "finger_x"}, std::pair{f, "finger_y"}}) {
    Actuator a;
    a.name = name;
    a.type = ActuatorType::kPdTarget;
    a.body = body;
    a.kp = kTPushFingerKp;
    a.kd = kTPushFingerKd;
    b.AddActuator(a);
  }
  b.SetDefaultJointPosition(f, VecX::Constant(1, -0.3));
  return b.Build();
}

Vec3 TPushPose(const VecX& q) { return q.head<3>(); }
Vec2 TPushFinger(const VecX& q) { return q.segment<2>(3); }

double TPushDistance(const Vec3& pose, const Vec2& point) {
  using namespace tpush_scenes;
  const Eigen::Rotation2Dd R(pose.z());
  const Vec2 local = R.inverse() * (point - pose.head<2>());
  double d = std::numeric_limits<double>::infinity();
  for (const auto& [centre, half] : {std::pair{TPushBarCentre(), kBarHalf}, std::pair{TPushStemCentre(), kStemHalf}}) {
    const Vec2 outside = ((local - centre.head<2>()).cwiseAbs() - half.head<2>()).cwiseMax(0.0);
    d = std::min(d, outside.norm());
  }
  return d;
}

double TPushFingerGap(const VecX& q) { return TPushDistance(TPushPose(q), TPushFinger(q)) - kTPushFingerRadius; }

}  // namespace arena
