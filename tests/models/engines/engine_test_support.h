// Scenes and helpers shared by the engine tests (mujoco_test.cc, dart_test.cc and the
// cross-engine checks in cross_engine_test.cc): the same resting box, flying body and double
// pendulum for every model, and the loops that step them. The thrown cube is the registered
// scene box (scenes/scene_registry.h).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>

#include "core/common/error.h"
#include "core/common/options.h"
#include "core/math/so3.h"
#include "core/scene/scene_builder.h"
#include "models/registry.h"

namespace arena::engine_test {

// penalty's RestingBoxCarriesItsWeight box: 0.4 x 0.2 x 0.1 m, 2 kg, placed flat on the ground.
inline std::shared_ptr<const Scene> RestingBoxScene() {
  SceneBuilder b("rest");
  const Vec3 h(0.2, 0.1, 0.05);
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(2.0, h), SE3::FromTranslation(Vec3(0, 0, h.z())));
  b.AddCollider(box, Box{h}, SE3(), "box");
  b.AddGround();
  return b.Build();
}

// The free joint's velocity (omega_B, v_B) from world-frame velocities at orientation R_WB.
inline VecX BodyTwist(const Mat3& R_WB, const Vec3& omega_W, const Vec3& v_W) {
  VecX v(6);
  v << R_WB.transpose() * omega_W, R_WB.transpose() * v_W;
  return v;
}

// A single free body thrown from height z, turned by `rotation` (a rotation vector), with
// world velocities v_W and w_W.
inline State Throw(const Scene& scene, double z, const Vec3& rotation, const Vec3& v_W, const Vec3& w_W) {
  State s = DefaultState(scene);
  const Quat q(ExpSO3(rotation));
  s.q << 0.0, 0.0, z, q.w(), q.x(), q.y(), q.z();
  s.v = BodyTwist(q.toRotationMatrix(), w_W, v_W);
  return s;
}

// A free body without contact (asymmetric inertia, COM at the origin) under `gravity`.
inline std::shared_ptr<const Scene> FlyingBody(const Vec3& gravity) {
  SceneBuilder b("flight");
  b.SetGravity(gravity);
  b.AddFreeBody("body", SpatialInertia::SolidBox(1.5, Vec3(0.3, 0.2, 0.1)), SE3());
  return b.Build();
}

// A contact-free double pendulum on two y-axis hinges with torque motors (gears 2 and 3);
// `armature` on the shoulder (DART 6.12 has none: pass 0 for scenes it must run).
inline std::shared_ptr<const Scene> DoublePendulum(double armature) {
  SceneBuilder b("double_pendulum");
  JointModel j;
  j.type = JointType::kRevolute;
  j.axis = Vec3::UnitY();
  j.placement = SE3::FromTranslation(Vec3(0, 0, 1));
  j.armature = armature;
  const Mat3 I = Vec3(0.01, 0.012, 0.003).asDiagonal();
  const int upper = b.AddBody("upper", kWorldBody, j, SpatialInertia(1.0, Vec3(0, 0, -0.25), I));
  j.placement = SE3::FromTranslation(Vec3(0, 0, -0.5));
  j.armature = 0.0;
  const int lower = b.AddBody("lower", upper, j, SpatialInertia(0.5, Vec3(0.02, 0, -0.2), I));
  Actuator a;
  a.name = "shoulder_motor";
  a.body = upper;
  a.gear = 2.0;
  b.AddActuator(a);
  a.name = "elbow_motor";
  a.body = lower;
  a.gear = 3.0;
  b.AddActuator(a);
  return b.Build();
}

// Penalty stiff enough to rest within 0.1 mm of contact (m g / (n k) <= 1e-4 m), critically
// damped: the 2 mm reference for the engines' rest heights. Explicit damping needs
// c dt n / m < 2 (n contact points): the timestep must be small.
inline std::unique_ptr<Simulator> MakeStiffPenalty(std::shared_ptr<const Scene> scene, double timestep) {
  return MakeSimulator("penalty", std::move(scene),
                       {{"timestep", options_detail::FormatDouble(timestep)}, {"stiffness", "1e5"}, {"damping_ratio", "1"}});
}

// Steps `sim` n times from `s`; every step must succeed.
inline State StepMany(Simulator& sim, State s, int steps, const Control& control = {}) {
  for (int i = 0; i < steps; ++i) {
    const StepReport r = sim.Step(s, control);
    EXPECT_TRUE(r.ok()) << sim.name() << " step " << i << ": " << r.message;
    if (!r.ok()) break;
  }
  return s;
}

// Steps for `seconds` (rounded to whole steps).
inline State Simulate(Simulator& sim, State s, double seconds, const Control& control = {}) {
  return StepMany(sim, std::move(s), static_cast<int>(std::lround(seconds / sim.timestep())), control);
}

inline double MaxAbsDifference(const State& a, const State& b) {
  return std::max((a.q - b.q).cwiseAbs().maxCoeff(), (a.v - b.v).cwiseAbs().maxCoeff());
}

// Runs a and b side by side from s for n steps; the largest state difference along the way.
inline double MaxDeviation(Simulator& a, Simulator& b, const State& s, int steps) {
  State x = s, y = s;
  double worst = 0.0;
  for (int i = 0; i < steps; ++i) {
    EXPECT_TRUE(a.Step(x, {}).ok()) << a.name() << " step " << i;
    EXPECT_TRUE(b.Step(y, {}).ok()) << b.name() << " step " << i;
    worst = std::max(worst, MaxAbsDifference(x, y));
  }
  return worst;
}

// The message of the Unsupported error `f` throws ("" if it throws none).
inline std::string UnsupportedMessage(const std::function<void()>& f) {
  try {
    f();
  } catch (const Unsupported& e) {
    return e.what();
  }
  return "";
}

}  // namespace arena::engine_test
