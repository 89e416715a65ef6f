// box_on_arm (issue 16): a cube dropped 15 cm onto the elbow of the welded KR5 arm must come to
// rest ON the arm in every model: still over its last 0.2 s (speed, spin and displacement), its
// lowest corner no deeper than a few millimetres into the arm's top surface (it did not fall
// through the link's mesh, nor on to the ground 0.75 m below), its centre over the elbow's
// footprint (it did not slide off).
//
// With the cube a triangle mesh (box_on_arm) the contact is mesh-mesh (penalty and nimble:
// the hull-hull kernel, models/point_contact/hull_contacts.h); with a Box shape (box_on_arm_primitive) it is
// box-mesh (the link's vertices inside the box and the box's corners inside the link's hull).
// The elbow's flat top face has its vertices on its rim, outside the 6 cm cube's footprint, so
// the cube is held by its own corners inside the link's hull in both.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <ostream>
#include <string>

#include "core/common/error.h"
#include "core/math/so3.h"
#include "models/registry.h"
#include "scenes/box_on_arm_scenes.h"

namespace arena {
namespace box_on_arm_test {

constexpr double kSeconds = 2.0;         // the drop takes 0.18 s; the rest is settling
constexpr double kRestWindow = 0.2;      // s at the end over which the box must be still
constexpr double kRestDrift = 0.002;     // m the centre may move over that window
constexpr double kPenetration = 0.005;   // m below the arm's top surface (penalty sinks softly)

// Largest speed (m/s) and spin (rad/s) of the box over the rest window. DART: 0.02, as it drops
// a resting contact for one step every ~0.7 s (one step of free fall, g dt = 0.0098 m/s, then
// caught again; the position does not move). MuJoCo 2.2.2 collides a box or mesh with a mesh by
// MPR, one contact point per pair: the cube cannot rest flat on one point, so it rocks in place
// from corner to corner for as long as it runs (measured over 6 s: one contact every step,
// speed up to 0.016 m/s and spin up to 1.2 rad/s, the centre within 5 mm of where it landed).
// For MuJoCo "at rest" is therefore "rocking in place": the bounds below and kRestDrift.
struct RestBounds {
  double speed, spin;
};
RestBounds RestBoundsFor(const std::string& model) {
  if (model == "mujoco") return {0.05, 2.5};
  return {0.02, 0.5};
}

// Each model's defaults, except penalty's: at its default 10 ms, and at 1 ms, the cube's impact
// ends in a blow-up (the explicit regularised friction, stiff at 1 cm/s, spins the cube up);
// at 0.2 ms it lands and rests.
OptionMap OptionsFor(const std::string& model) {
  if (model == "penalty") return {{"timestep", "0.0002"}};
  return {};
}

struct Case {
  std::string model;
  FallingBoxShape shape;
};

std::string Name(const Case& c) { return c.model + (c.shape == FallingBoxShape::kMesh ? "_mesh" : "_primitive"); }
std::string CaseName(const testing::TestParamInfo<Case>& info) { return Name(info.param); }
void PrintTo(const Case& c, std::ostream* os) { *os << Name(c); }

class BoxOnArm : public testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(Kr5UrdfPath())) GTEST_SKIP() << "no dart-doc data at " << Kr5UrdfPath();
  }
};

// World y of the cube's lowest corner (the box's free joint is q[0..6]: position, quaternion).
double LowestCornerY(const VecX& q, double half) {
  const Mat3 R = Quat(q[3], q[4], q[5], q[6]).normalized().toRotationMatrix();
  return q[1] - half * R.row(1).cwiseAbs().sum();
}

TEST_P(BoxOnArm, ComesToRestOnTheArm) {
  const Case& c = GetParam();
  std::shared_ptr<const Scene> scene = BoxOnArmScene(c.shape);
  const BoxOnArmLayout layout = ComputeBoxOnArmLayout();
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, OptionsFor(c.model));
  State s = DefaultState(*scene);
  const int steps = static_cast<int>(std::lround(kSeconds / sim->timestep()));
  const int window = static_cast<int>(std::lround(kRestWindow / sim->timestep()));
  double speed = 0.0, spin = 0.0, drift = 0.0, lowest = 1e300;
  Vec3 window_start = Vec3::Zero();
  for (int i = 0; i < steps; ++i) {
    const StepReport r = sim->Step(s, {});
    ASSERT_TRUE(r.ok()) << c.model << " step " << i << ": " << r.message;
    if (i == steps - window) window_start = s.q.head<3>();
    if (i >= steps - window) {
      drift = std::max(drift, (s.q.head<3>() - window_start).norm());
      // Free-joint velocity: body-frame (omega, v); norms are frame-free.
      speed = std::max(speed, s.v.tail<3>().norm());
      spin = std::max(spin, s.v.head<3>().norm());
    }
    if (i * sim->timestep() > 0.1) lowest = std::min(lowest, LowestCornerY(s.q, layout.box_half_extent));
  }
  const double bottom = LowestCornerY(s.q, layout.box_half_extent);
  std::cout << "box_on_arm " << Name(c) << ": dt " << sim->timestep() << " s, rest centre ("
            << s.q[0] << ", " << s.q[1] << ", " << s.q[2] << "), bottom " << bottom << " (surface "
            << layout.surface_height << ", deepest " << lowest << "), last " << kRestWindow << " s max speed "
            << speed << " m/s, spin " << spin << " rad/s, drift " << drift << " m\n";
  const RestBounds rest = RestBoundsFor(c.model);
  EXPECT_LT(speed, rest.speed) << "still moving";
  EXPECT_LT(spin, rest.spin) << "still turning";
  EXPECT_LT(drift, kRestDrift) << "still moving";
  EXPECT_GT(bottom, layout.surface_height - kPenetration) << "sank into or fell off the arm";
  EXPECT_LT(bottom, layout.surface_height + kPenetration) << "not resting on the surface";
  const Aabb& foot = layout.landing_bounds;
  EXPECT_TRUE(s.q[0] > foot.lower.x() && s.q[0] < foot.upper.x() && s.q[2] > foot.lower.z() &&
              s.q[2] < foot.upper.z())
      << "centre left the " << layout.landing_link << "'s footprint";
}

INSTANTIATE_TEST_SUITE_P(Models, BoxOnArm,
                         testing::Values(Case{"mujoco", FallingBoxShape::kMesh}, Case{"dart", FallingBoxShape::kMesh},
                                         Case{"penalty", FallingBoxShape::kMesh},
                                         Case{"nimble", FallingBoxShape::kMesh},
                                         Case{"mujoco", FallingBoxShape::kBox}, Case{"dart", FallingBoxShape::kBox},
                                         Case{"penalty", FallingBoxShape::kBox},
                                         Case{"nimble", FallingBoxShape::kBox}),
                         CaseName);

}  // namespace box_on_arm_test
}  // namespace arena
