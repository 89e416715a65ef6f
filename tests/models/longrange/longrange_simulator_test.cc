// The longrange model's step bound: P is infinite only where triangles meet, so without a bound a
// Newton step could carry a fast body clean through a thin one (both ends of the step finite).
// The conservative advancement over the triangle pairs (models/incremental_potential/conservative_advancement.h)
// stops every iterate short of contact.
#include <gtest/gtest.h>

#include <memory>

#include "core/scene/scene_builder.h"
#include "models/registry.h"

namespace arena {
namespace longrange_simulator_test {

constexpr double kThin = 0.01;   // m: half thickness of both plates
constexpr double kStart = 0.05;  // m: the moving plate's lowest face above the fixed one's top

// A plate 5 cm above a fixed plate of the same size, no gravity: at 10 m/s downwards one 0.04 s
// step would carry it 0.4 m, through the fixed plate and 0.33 m beyond it.
std::shared_ptr<const Scene> PlateOverPlate() {
  SceneBuilder b("plate_over_plate");
  b.SetGravity(Vec3::Zero());
  const Vec3 half(0.2, 0.2, kThin);
  b.AddCollider(kWorldBody, Box{half}, SE3(), "fixed");
  const int plate = b.AddFreeBody("plate", SpatialInertia::SolidBox(1.0, half), SE3::FromTranslation(Vec3(0.0, 0.0, 2 * kThin + kStart)));
  b.AddCollider(plate, Box{half}, SE3(), "plate").friction = 0.0;
  return b.Build();
}

TEST(LongRangeSimulator, AFastPlateDoesNotPassThroughAThinOne) {
  const std::shared_ptr<const Scene> scene = PlateOverPlate();
  std::unique_ptr<Simulator> sim = MakeSimulator("longrange", scene, {{"timestep", "0.04"}});
  State s = DefaultState(*scene);
  s.v.setZero();
  s.v[5] = -10.0;  // free joint (omega, v): v_z
  const int z = 2;  // free joint (position, quaternion): position z
  for (int k = 0; k < 3; ++k) {
    const StepReport r = sim->Step(s, {});
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_GT(s.q[z], 2 * kThin) << "step " << k << ": the plate's centre is below the fixed plate's top";
  }
}

}  // namespace longrange_simulator_test
}  // namespace arena
