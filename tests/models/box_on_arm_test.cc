// box_on_arm (issue 16): a cube dropped 15 cm onto the elbow of the welded KR5 arm must come to
// rest ON the arm in every model: still over its last 0.2 s (speed, spin and displacement), its
// lowest corner no deeper than a few millimetres into the arm's top surface (it did not fall
// through the link's mesh, nor on to the ground 0.75 m below), its centre over the elbow's
// footprint (it did not slide off).
//
// With the cube a triangle mesh (box_on_arm) the contact is mesh-mesh. MuJoCo and DART collide
// meshes today; penalty and nimble do not yet (mesh-mesh hull contact is being added): for them
// the test checks the Unsupported error instead, until the model is taken out of
// kMeshMeshPending. With the cube a Box shape (box_on_arm_primitive) the contact is box-mesh,
// which penalty and nimble collide by the mesh's vertices inside the box only: the elbow's flat
// top face has its vertices on its rim, outside the 6 cm cube's footprint, so the cube sinks
// until interior vertices of the link enter it. nimble stops 2.8 mm deep on them and passes;
// penalty goes through the elbow (to the shoulder at dt 0.5 ms) or blows up on the impact
// (1 ms), so its primitive case is skipped (kBoxMeshPending) until a kernel also finds the
// box's corners inside the mesh.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <ostream>
#include <set>
#include <string>

#include "core/common/error.h"
#include "core/math/so3.h"
#include "models/registry.h"
#include "scenes/box_on_arm_scenes.h"

namespace arena {
namespace {

constexpr double kSeconds = 2.0;         // the drop takes 0.18 s; the rest is settling
constexpr double kRestWindow = 0.2;      // s at the end over which the box must be still
constexpr double kRestDrift = 0.002;     // m the centre may move over that window
constexpr double kPenetration = 0.005;   // m below the arm's top surface (penalty sinks softly)

// Models without a mesh-mesh contact kernel yet (issue 16): their mesh-box case expects the
// Unsupported error. Remove a model from here once its kernel lands.
const std::set<std::string> kMeshMeshPending = {"penalty", "nimble"};
// Models whose box-mesh kernel lets the primitive cube through the elbow (see above).
const std::set<std::string> kBoxMeshPending = {"penalty"};

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

// Each model's defaults (penalty runs no case today; its default 10 ms step is unstable on
// this impact: pass a smaller one here when its kernels land).
OptionMap OptionsFor(const std::string&) { return {}; }

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
  if (c.shape == FallingBoxShape::kMesh && kMeshMeshPending.count(c.model)) {
    try {
      MakeSimulator(c.model, scene, OptionsFor(c.model));
      FAIL() << c.model << " now builds box_on_arm: take it out of kMeshMeshPending";
    } catch (const Unsupported& e) {
      EXPECT_NE(std::string(e.what()).find("no contact kernel for the pair mesh-mesh"), std::string::npos)
          << e.what();
      std::cout << "box_on_arm " << Name(c) << ": Unsupported as expected (mesh-mesh pending): " << e.what()
                << "\n";
    }
    return;
  }
  if (c.shape == FallingBoxShape::kBox && kBoxMeshPending.count(c.model)) {
    GTEST_SKIP() << c.model << "'s box-mesh kernel lets the cube through the elbow's top face";
  }
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

}  // namespace
}  // namespace arena
