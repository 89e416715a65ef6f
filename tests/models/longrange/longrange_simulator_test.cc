// The longrange model's step bound: P is infinite only where triangles meet, so without a bound a
// Newton step could carry a fast body clean through a thin one (both ends of the step finite).
// The conservative advancement over the triangle pairs (models/incremental_potential/conservative_advancement.h)
// stops every iterate short of contact.
#include <gtest/gtest.h>

#include <memory>

#include <tbb/task_arena.h>

#include "core/scene/scene_builder.h"
#include "models/registry.h"
#include "scenes/longrange_scenes.h"

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

// The body pairs are evaluated in parallel (models/longrange/longrange_contact.cc): each on its
// own data, the sums in the pairs' order, so one thread and two give the same steps to the bit.
TEST(LongRangeSimulator, StepsAreTheSameOnOneThreadAndOnTwo) {
  const auto scene = BilliardsScene();
  auto run = [&](int threads) {
    tbb::task_arena arena(threads);
    auto sim = MakeSimulator("longrange", scene, {{"sphere_vertices", "12"}, {"ground_mesh", "top"}, {"mu", "1e-7"}});
    State s = DefaultState(*scene);
    s.v.segment<3>(3) = Vec3(1.0, 0.4, 0.0);  // a rack ball (body 0; its v after omega) rolls into the others
    arena.execute([&] {
      for (int k = 0; k < 6; ++k) ASSERT_TRUE(sim->Step(s, {}).ok());
    });
    return s;
  };
  const State one = run(1), two = run(2);
  EXPECT_TRUE(one.q == two.q);
  EXPECT_TRUE(one.v == two.v);
}

}  // namespace longrange_simulator_test
}  // namespace arena
