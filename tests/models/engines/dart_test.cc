// Tests of the `dart` engine model (DART 6.12): resting and dropped boxes settle where penalty's
// do; contact-free motion follows penalty's (and where the integrators differ, exactly DART's
// own conventions: free-joint translation, small-angle rotation, implicit springs and
// dampers); DART's contact pair rules and joint limits; every 3D shape rests at its height;
// finite-difference derivatives are consistent; steps do not leak state; Nimble's Atlas stands
// on both soles; bad options and unsupported scenes give clear errors.
#include "models/engines/dart/dart_simulator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/mesh.h"
#include "core/math/so3.h"
#include "core/multibody/data.h"
#include "core/multibody/dynamics.h"
#include "core/multibody/kinematics.h"
#include "core/scene/scene_builder.h"
#include "tests/models/engines/engine_test_support.h"
#include "models/finite_difference_derivatives.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace dart_test {

using ::testing::HasSubstr;
using engine_test::DoublePendulum;
using engine_test::MakeStiffPenalty;
using engine_test::MaxDeviation;
using engine_test::RestingBoxScene;
using engine_test::StepMany;
using engine_test::Throw;

Mat3 Rotation(const State& s) { return Quat(s.q[3], s.q[4], s.q[5], s.q[6]).normalized().toRotationMatrix(); }

std::unique_ptr<Simulator> MakeDart(std::shared_ptr<const Scene> scene, const OptionMap& options = {}) {
  return MakeSimulator("dart", std::move(scene), options);
}

// A 0.4 x 0.2 x 0.1 m box (2 kg) placed flat on the ground: DART's rigid contact holds it at
// h_z (to the ERP's 1e-3 m/s correction of the g dt^2 sink), penalty's springs 5e-5 m lower.
TEST(DartModel, RestingBoxRestsWherePenaltyDoes) {
  auto scene = RestingBoxScene();
  const double half_height = 0.05;
  auto dart = MakeDart(scene);
  const State d = StepMany(*dart, DefaultState(*scene), 2000);
  auto penalty = MakeStiffPenalty(scene, 0.0005);
  const State p = StepMany(*penalty, DefaultState(*scene), 4000);
  EXPECT_NEAR(d.q[2], p.q[2], 2e-3);
  EXPECT_NEAR(d.q[2], half_height, 2e-3);
  EXPECT_LT(d.v.norm(), 1e-3);
  State probe = d;
  const StepReport r = dart->Step(probe, {});
  EXPECT_GT(r.contacts, 0);
  EXPECT_LT(r.min_signed_distance, 0.0);
  EXPECT_GT(r.min_signed_distance, -1e-3);
}

// box_drop's spatial cube thrown three ways (as the experiment's initial conditions: tumbling,
// sliding, falling): after 3 s it lies on a face, its centre 0.25 m up, in DART and penalty.
TEST(DartModel, DroppedBoxSettlesWherePenaltyDoes) {
  auto scene = MakeScene("box");
  const std::vector<State> starts = {
      Throw(*scene, 1.2, Vec3(0.4, -0.9, 0.3), Vec3(0.5, -0.3, -1.0), Vec3(0.8, -0.2, 0.6)),
      Throw(*scene, 0.6, Vec3(2.0, 0.5, -1.0), Vec3(-0.9, 0.7, -1.8), Vec3(-0.5, 0.9, -0.7)),
      Throw(*scene, 1.5, Vec3(0.0, 0.0, 0.0), Vec3(0.2, 0.1, 0.0), Vec3(0.0, 0.0, 0.0)),
  };
  for (size_t i = 0; i < starts.size(); ++i) {
    SCOPED_TRACE(i);
    const State& start = starts[i];
    auto dart = MakeDart(scene);
    const State d = StepMany(*dart, start, 3000);
    auto penalty = MakeStiffPenalty(scene, 0.00025);
    const State p = StepMany(*penalty, start, 12000);
    EXPECT_NEAR(d.q[2], p.q[2], 2e-3);
    EXPECT_NEAR(d.q[2], 0.25, 2e-3);
    EXPECT_LT(d.v.norm(), 1e-2);
  }
}

// A free body without contact, under gravity. DART 6.12 and our Lie-group integrator agree on
// the velocity update and on the rotation (R+ = R Exp(w+ dt)), but not on the translation:
// DART's FreeJoint moves the origin along the world velocity held constant over the step,
// p+ = p + R (v_B+ dt) (and then re-expresses v_B in the new frame), while ours follows the
// body twist held constant, p+ = p + R V(w+ dt) v_B+ dt (the SE(3) exponential). The two
// coincide when the body does not spin, so there DART must follow penalty to round-off.
SceneBuilder FlyingBody() {
  SceneBuilder b("flight");
  const int body = b.AddFreeBody("body", SpatialInertia(1.5, Vec3::Zero(), Vec3(0.02, 0.05, 0.07).asDiagonal()),
                                 SE3(ExpSO3(Vec3(0.3, -0.2, 0.5)), Vec3(0.1, -0.2, 2.0)));
  b.AddCollider(body, Box{Vec3(0.1, 0.1, 0.1)});
  return b;
}

TEST(DartModel, FreeFlightWithoutSpinFollowsPenalty) {
  auto scene = FlyingBody().Build();
  State s = DefaultState(*scene);
  s.v << 0.0, 0.0, 0.0, 1.0, -0.5, 2.0;
  auto dart = MakeDart(scene);
  auto penalty = MakeSimulator("penalty", scene, {{"timestep", "0.001"}});
  const double max_error = MaxDeviation(*dart, *penalty, s, 100);
  EXPECT_LT(max_error, 1e-6);
  EXPECT_LT(max_error, 1e-12);  // measured: round-off only
  EXPECT_NEAR(StepMany(*dart, s, 100).t, 0.1, 1e-12);
}

TEST(DartModel, SpinningFreeFlightDiffersFromPenaltyOnlyByTheTranslationConvention) {
  auto scene = FlyingBody().Build();
  State s = DefaultState(*scene);
  s.v << 0.8, -1.1, 1.7, 1.0, -0.5, 2.0;
  auto dart = MakeDart(scene);
  auto penalty = MakeSimulator("penalty", scene, {{"timestep", "0.001"}});
  const double dt = 0.001;
  const Vec3 g = scene->model.gravity();
  const Mat3 R0 = Rotation(s);
  const Vec3 p0 = s.q.head<3>(), pdot0 = R0 * s.v.tail<3>();
  State d = s, p = s;
  double rotation_error = 0.0, translation_error = 0.0, penalty_translation_gap = 0.0;
  for (int k = 1; k <= 100; ++k) {
    ASSERT_TRUE(dart->Step(d, {}).ok());
    ASSERT_TRUE(penalty->Step(p, {}).ok());
    rotation_error = std::max({rotation_error, (d.q.segment<4>(3) - p.q.segment<4>(3)).cwiseAbs().maxCoeff(),
                               (d.v.head<3>() - p.v.head<3>()).cwiseAbs().maxCoeff()});
    // DART's translation: symplectic Euler in the world frame, p_k = p0 + k dt pdot0 + k(k+1)/2 dt^2 g.
    const Vec3 expected = p0 + k * dt * pdot0 + 0.5 * k * (k + 1) * dt * dt * g;
    translation_error = std::max(translation_error, (d.q.head<3>() - expected).cwiseAbs().maxCoeff());
    // Its world velocity pdot0 + k dt g, read back in the new body frame.
    const Mat3 R = Rotation(d);
    EXPECT_LT((R * d.v.tail<3>() - (pdot0 + k * dt * g)).cwiseAbs().maxCoeff(), 1e-12);
    penalty_translation_gap = std::max(penalty_translation_gap, (d.q.head<3>() - p.q.head<3>()).cwiseAbs().maxCoeff());
  }
  EXPECT_LT(rotation_error, 1e-12);
  EXPECT_LT(translation_error, 1e-12);
  // The convention gap after 0.1 s (measured 1.0e-4 m here): O(|w| |v| t dt), not round-off.
  RecordProperty("penalty_translation_gap_m", options_detail::FormatDouble(penalty_translation_gap));
  EXPECT_GT(penalty_translation_gap, 1e-6);
  EXPECT_LT(penalty_translation_gap, 1e-3);
}

// The other joint types without contact, against penalty: a ball-joint pendulum (its rotation
// integrates as R Exp(w+ dt) in both), a revolute-prismatic chain, and a body on a planar
// joint translating in its plane without turning (DART integrates (x, y, theta) with the
// J-frame velocity held constant, ours the body twist on SE(2): they coincide at omega = 0).
// Tolerance 1e-6 (the free-flight bound), not round-off: the pendulum turns by |w| dt ~ 1e-3
// per step, where DART's rotation exponential is second order (next test), measured 4e-9.
TEST(DartModel, JointConventionsMatchPenaltyWithoutContact) {
  SceneBuilder b("joints");
  b.SetGravity(Vec3(0.0, -9.81, 0.0));
  JointModel ball;
  ball.type = JointType::kBall;
  ball.name = "ball";
  ball.placement = SE3::FromTranslation(Vec3(0, 2, 0));
  b.AddBody("bob", kWorldBody, ball, SpatialInertia(1.2, Vec3(0.1, -0.6, 0.05), Vec3(0.03, 0.01, 0.02).asDiagonal()));
  JointModel hinge;
  hinge.type = JointType::kRevolute;
  hinge.name = "hinge";
  hinge.axis = Vec3(0, 0.6, 0.8);
  hinge.placement = SE3(ExpSO3(Vec3(0.2, 0, 0.1)), Vec3(3, 1, 0));
  const int arm = b.AddBody("arm", kWorldBody, hinge, SpatialInertia(0.8, Vec3(0.3, 0, 0), Vec3(0.01, 0.02, 0.02).asDiagonal()));
  JointModel slider;
  slider.type = JointType::kPrismatic;
  slider.name = "slider";
  slider.axis = Vec3(1, 0, 0);
  slider.placement = SE3::FromTranslation(Vec3(0.5, 0, 0));
  b.AddBody("slide", arm, slider, SpatialInertia(0.3, Vec3(0, 0.1, 0), Vec3(0.002, 0.002, 0.002).asDiagonal()));
  const int puck = b.AddPlanarBody("puck", 0.5, 0.01, Vec3(-2, 1, 0.4));
  b.AddCollider(puck, Box{Vec3(0.1, 0.1, 0.1)}, SE3(), "puck");
  auto scene = b.Build();
  State s = DefaultState(*scene);
  const Quat tilt(ExpSO3(Vec3(0.3, -0.2, 0.4)));
  s.q.head<4>() << tilt.w(), tilt.x(), tilt.y(), tilt.z();
  s.q.segment<2>(4) << 0.4, -0.1;
  s.v << 0.5, -0.3, 0.8, 1.1, 0.2, 0.0, 0.6, -0.4;
  auto dart = MakeDart(scene);
  auto penalty = MakeSimulator("penalty", scene, {{"timestep", "0.001"}});
  const double max_error = MaxDeviation(*dart, *penalty, s, 100);
  EXPECT_LT(max_error, 1e-6);
}

// DART 6.12's math::expMapRot switches to I + [w] + [w]^2 / 2 below |w| = 1e-3: not a rotation
// matrix, and the log that stores the joint position reads an angle O(|w|^3) too large
// (|w|^3 / 3 from the identity, |w|^3 / 6 from the 0.7 rad pose we probed). A body turning by
// theta = |w| dt per step therefore overshoots by O(theta^3) below 1e-3 and is exact above: a
// jump of up to ~3e-10 rad at the switch, which finite differences across it see as a kink.
TEST(DartModel, SmallRotationStepsUseDartsSecondOrderExponential) {
  SceneBuilder b("spinner");
  b.SetGravity(Vec3::Zero());
  const int body = b.AddFreeBody("ball", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
  b.AddCollider(body, Sphere{0.1});
  auto scene = b.Build();
  auto sim = MakeDart(scene);
  const Vec3 axis = Vec3(0.3, -0.2, 0.2).normalized();
  for (double theta : {4e-4, 8e-4, 1.2e-3, 2e-3}) {
    State s = DefaultState(*scene);
    s.v.head<3>() = axis * theta / 0.001;  // a sphere: no torque, w stays constant
    ASSERT_TRUE(sim->Step(s, {}).ok());
    const double excess = 2.0 * std::atan2(s.q.segment<3>(4).norm(), s.q[3]) - theta;
    if (theta < 1e-3) {
      EXPECT_NEAR(excess, theta * theta * theta / 3.0, 1e-3 * theta * theta * theta) << theta;
    } else {
      EXPECT_LT(std::abs(excess), 1e-15) << theta;
    }
  }
}

// DART integrates joint springs and dampers implicitly: for one DOF of inertia I,
// a = (-k (q + dt v - q_ref) - d v) / (I + dt d + dt^2 k); ours (penalty) is explicit.
TEST(DartModel, JointSpringsAndDampersAreImplicit) {
  const double I = 0.5, d = 0.3, k = 40.0, ref = 0.05, dt = 0.001;
  SceneBuilder b("hinge");
  JointModel hinge;
  hinge.type = JointType::kRevolute;
  hinge.name = "hinge";
  hinge.damping = d;
  hinge.stiffness = k;
  hinge.spring_reference = ref;
  // Only I_zz enters (the hinge is about z); the others keep the inertia physical.
  b.AddBody("arm", kWorldBody, hinge, SpatialInertia(1.0, Vec3::Zero(), Vec3(0.3, 0.3, I).asDiagonal()));
  auto scene = b.Build();
  State s = DefaultState(*scene);
  s.q[0] = 0.2;
  s.v[0] = 1.0;
  const double q = s.q[0], v = s.v[0];
  ASSERT_TRUE(MakeDart(scene)->Step(s, {}).ok());
  const double a = (-k * (q + dt * v - ref) - d * v) / (I + dt * d + dt * dt * k);
  EXPECT_NEAR(s.v[0], v + dt * a, 1e-14);
  EXPECT_NEAR(s.q[0], q + dt * s.v[0], 1e-14);
}

// A hinge pushed against its upper limit by a constant torque stops there with joint_limits
// on (DART's joint-limit constraint; its ERP leaves a small overshoot) and swings through with
// it off.
TEST(DartModel, JointLimitsAreEnforcedOnRequest) {
  SceneBuilder b("limited");
  b.SetGravity(Vec3::Zero());
  JointModel hinge;
  hinge.type = JointType::kRevolute;
  hinge.name = "hinge";
  hinge.lower = -0.1;
  hinge.upper = 0.1;
  const int arm = b.AddBody("arm", kWorldBody, hinge, SpatialInertia(1.0, Vec3::Zero(), Vec3(0.1, 0.1, 0.1).asDiagonal()));
  Actuator motor;
  motor.name = "motor";
  motor.body = arm;
  b.AddActuator(motor);
  auto scene = b.Build();
  const Control push{VecX::Constant(1, 0.5)};
  for (const bool limits : {true, false}) {
    auto sim = MakeDart(scene, {{"joint_limits", limits ? "true" : "false"}});
    State s = DefaultState(*scene);
    for (int i = 0; i < 1000; ++i) ASSERT_TRUE(sim->Step(s, push).ok());
    if (limits) {
      EXPECT_NEAR(s.q[0], 0.1, 1e-3);
      EXPECT_LT(std::abs(s.v[0]), 1e-2);
    } else {
      EXPECT_NEAR(s.q[0], 0.5 * 5.0 * 1.0, 1e-2);  // q = (tau / I) t^2 / 2
    }
  }
}

// DART's pair rules: friction the smaller coefficient (ours too), a four-sided friction box
// (sliding along a diagonal decelerates at sqrt(2) mu g), restitution the product of the two
// coefficients (ours: the larger).
TEST(DartModel, ContactPairRulesAreDarts) {
  {
    SceneBuilder b("slide");
    const Vec3 h = Vec3::Constant(0.1);
    const int body = b.AddFreeBody("box", SpatialInertia::SolidBox(1.0, h), SE3::FromTranslation(Vec3(0, 0, 0.1)));
    b.AddCollider(body, Box{h}, SE3(), "box").friction = 0.2;
    b.AddGround(0.8);
    auto scene = b.Build();
    auto sim = MakeDart(scene);
    for (const Vec2& direction : {Vec2(1, 0), Vec2(1, 1).normalized()}) {
      State s = DefaultState(*scene);
      s.v.segment<2>(3) = 2.0 * direction;
      s = StepMany(*sim, s, 10);
      const Vec2 v1 = s.v.segment<2>(3);
      s = StepMany(*sim, s, 100);
      const double decel = (v1 - s.v.segment<2>(3)).norm() / 0.1;
      const double box_factor = std::abs(direction.x()) + std::abs(direction.y());
      EXPECT_NEAR(decel, 0.2 * 9.81 * box_factor, 1e-4) << direction.transpose();
    }
  }
  {
    SceneBuilder b("bounce");
    const Vec3 h = Vec3::Constant(0.1);
    const int body = b.AddFreeBody("box", SpatialInertia::SolidBox(1.0, h), SE3::FromTranslation(Vec3(0, 0, 0.6)));
    Collider& box = b.AddCollider(body, Box{h}, SE3(), "box");
    box.restitution = 0.8;
    box.friction = 0.0;
    b.AddGround(0.0).restitution = 0.5;
    auto scene = b.Build();
    auto sim = MakeDart(scene);
    State s = DefaultState(*scene);
    double v_in = 0.0, v_out = 0.0;
    for (int i = 0; i < 1000 && v_out == 0.0; ++i) {
      const double before = s.v[5];
      ASSERT_TRUE(sim->Step(s, {}).ok());
      if (before < -1.0 && s.v[5] > 0.0) {
        v_in = before - 9.81 * 0.001;  // the approach speed the LCP saw
        v_out = s.v[5];
      }
    }
    ASSERT_LT(v_in, -1.0);
    EXPECT_NEAR(-v_out / v_in, 0.8 * 0.5, 1e-4);  // product 0.4; the larger would be 0.8
  }
}

// A contact-free double pendulum with torque actuators (gears 2 and 0.5): central and Ridders
// differences agree, and dv+/du = dt M(q)^-1 diag(gear), M from our CRBA (DART integrates
// v+ = v + dt M^-1 (B u - c), linear in u: the difference is exact up to round-off).
TEST(DartModel, FiniteDifferenceDerivativesAreConsistent) {
  auto scene = DoublePendulum(0.0);  // DART 6.12 has no armature
  State s = DefaultState(*scene);
  s.q << 0.3, -0.7;
  s.v << 0.5, -1.2;
  const Control u{Vec2(0.7, -0.4)};
  auto central = MakeDart(scene, {{"fd_method", "central"}});
  auto ridders = MakeDart(scene, {{"fd_method", "ridders"}});
  StepDerivatives dc, dr;
  central->Derivatives(s, u, &dc);
  ridders->Derivatives(s, u, &dr);
  // Central with step 1e-6: truncation ~1e-12, round-off ~eps |y| / 1e-6 ~ 1e-10 absolute
  // (|y| ~ 1), which is large relative to the dt^2-sized dq+/du: compare absolutely (floor 1).
  EXPECT_LT(MaxStepDerivativeError(dc, dr, 1.0), 1e-8);

  MultibodyData data(scene->model);
  Crba(scene->model, data, s.q);
  const MatX Minv = MatX(data.M.selfadjointView<Eigen::Lower>()).inverse();
  const MatX expected = 0.001 * Minv * Vec2(2.0, 3.0).asDiagonal();  // gears
  EXPECT_LT(CorrectedRelativeError(dr.dv_du, expected), 1e-9);
  EXPECT_LT(CorrectedRelativeError(dc.dv_du, expected), 1e-7);
  // Positions follow v+ (revolute joints: q+ = q + dt v+), so dq+/du = dt dv+/du, to the
  // differences' absolute round-off.
  EXPECT_LT((dr.dq_du - 0.001 * dr.dv_du).cwiseAbs().maxCoeff(), 1e-12);
}

// DART keeps no state between steps: the same input gives the same output after other steps
// (contact rows, LCP start and forces are rebuilt every step). Equal to round-off, not bit for
// bit: FCL's incrementally updated broadphase returns the cube-ground pair in alternating
// order, which swaps the two bodies of every contact row (the same LCP, rounded differently).
TEST(DartModel, StepsDoNotLeakState) {
  auto scene = MakeScene("box");
  auto sim = MakeDart(scene);
  State s = DefaultState(*scene);
  s.q << 0.05, 0.0, 0.249, std::cos(0.05), std::sin(0.05), 0.0, 0.0;
  s.v << 0.3, -0.2, 0.1, 0.4, 0.1, -0.5;
  State first = s;
  const StepReport r1 = sim->Step(first, {});
  ASSERT_TRUE(r1.ok());
  EXPECT_GT(r1.contacts, 0);
  StepMany(*sim, Throw(*scene, 0.5, Vec3(0.3, 0.2, 0.1), Vec3(1, 0, -1), Vec3(0, 1, 0)), 300);
  State second = s;
  const StepReport r2 = sim->Step(second, {});
  EXPECT_LT((first.q - second.q).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_LT((first.v - second.v).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_EQ(r1.contacts, r2.contacts);
}

// Every 3D shape rests on the ground at its geometric height: capsules (a cylinder and two
// spheres in DART), cones (our 32-sided mesh), meshes and hulls (MeshShapes); 1 mm slack for
// FCL's tessellation of spheres, cylinders and ellipsoids.
TEST(DartModel, PrimitiveShapesRestOnTheGround) {
  struct Case {
    std::string name;
    Shape shape;
    SE3 pose;
    double rest_z;
  };
  const Mat3 lying = ExpSO3(Vec3(std::numbers::pi / 2, 0, 0));
  PointsX3 pts(6, 3);
  pts << 0.2, 0, 0, -0.2, 0, 0, 0, 0.15, 0, 0, -0.15, 0, 0, 0, 0.1, 0, 0, -0.1;
  const TriangleMesh octahedron = MakeTriangleMesh(pts, (TrianglesX3(8, 3) << 0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4,
                                                         2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5).finished());
  const std::vector<Case> cases = {
      {"sphere", Sphere{0.1}, SE3::FromTranslation(Vec3(0, 0, 0.1)), 0.1},
      {"capsule_lying", Capsule{0.05, 0.2}, SE3(lying, Vec3(0, 0, 0.05)), 0.05},
      {"capsule_upright", Capsule{0.05, 0.2}, SE3::FromTranslation(Vec3(0, 0, 0.25)), 0.25},
      {"cylinder", Cylinder{0.1, 0.05}, SE3::FromTranslation(Vec3(0, 0, 0.05)), 0.05},
      {"cone", Cone{0.1, 0.2}, SE3::FromTranslation(Vec3(0, 0, 0.05)), 0.05},
      {"ellipsoid", Ellipsoid{Vec3(0.2, 0.15, 0.1)}, SE3::FromTranslation(Vec3(0, 0, 0.1)), 0.1},
      {"mesh", octahedron, SE3::FromTranslation(Vec3(0, 0, 0.1)), 0.1},
      {"hull", MakeConvexHull(pts), SE3::FromTranslation(Vec3(0, 0, 0.1)), 0.1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    SceneBuilder b(c.name);
    const int body = b.AddFreeBody("body", SpatialInertia::SolidSphere(1.0, 0.1), c.pose);
    b.AddCollider(body, c.shape, SE3(), c.name).friction = 0.8;
    b.AddGround(0.8);
    auto scene = b.Build();
    auto sim = MakeDart(scene);
    const State s = StepMany(*sim, DefaultState(*scene), 500);
    EXPECT_NEAR(s.q[2], c.rest_z, 1e-3);
    EXPECT_LT(s.v.norm(), 2e-2);
  }
}

TEST(DartModel, RejectsBadOptionsWithClearErrors) {
  auto scene = FlyingBody().Build();
  try {
    MakeDart(scene, {{"timestep", "0"}});
    FAIL() << "zero timestep accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("timestep must be in [1e-06, 1], got 0"));
  }
  try {
    MakeDart(scene, {{"collision_detector", "ode"}});
    FAIL() << "ode accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("not one of fcl|dart"));
  }
  try {
    MakeDart(scene, {{"split_impulse", "true"}});
    FAIL() << "unknown key accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown option 'split_impulse'"));
  }
  EXPECT_THROW(MakeDart(scene, {{"fd_step", "-1e-6"}}), InvalidArgument);
  EXPECT_THROW(MakeDart(scene, {{"lcp_solver", "lemke"}}), InvalidArgument);
}

TEST(DartModel, UnsupportedScenesNameTheProblem) {
  {  // A capsule under DART's own detector.
    SceneBuilder b("capsule");
    const int body = b.AddFreeBody("rod", SpatialInertia::SolidCapsule(1.0, 0.1, 0.2), SE3());
    b.AddCollider(body, Capsule{0.1, 0.2}, SE3(), "rod");
    b.AddGround();
    try {
      MakeDart(b.Build(), {{"collision_detector", "dart"}});
      FAIL() << "capsule accepted by the dart detector";
    } catch (const Unsupported& e) {
      EXPECT_THAT(e.what(), HasSubstr("'capsule'"));
      EXPECT_THAT(e.what(), HasSubstr("'rod'"));
    }
  }
  {  // Joint armature (rotor inertia).
    SceneBuilder b("armature");
    JointModel hinge;
    hinge.type = JointType::kRevolute;
    hinge.name = "hinge";
    hinge.armature = 0.1;
    b.AddBody("arm", kWorldBody, hinge, SpatialInertia(1.0, Vec3(0, 0, -0.5), Mat3::Identity() * 0.01));
    try {
      MakeDart(b.Build());
      FAIL() << "armature accepted";
    } catch (const Unsupported& e) {
      EXPECT_THAT(e.what(), HasSubstr("armature"));
      EXPECT_THAT(e.what(), HasSubstr("'hinge'"));
    }
  }
  {  // A planar scene (2D shapes).
    SceneBuilder b("planar");
    b.SetGravity(Vec3(0, -9.81, 0));
    const int body = b.AddPlanarBody("disk", 1.0, 0.01, Vec3(0, 1, 0));
    b.AddCollider(body, Disk2{0.1}, SE3(), "disk");
    b.AddGroundPlane2();
    try {
      MakeDart(b.Build());
      FAIL() << "planar scene accepted";
    } catch (const Unsupported& e) {
      EXPECT_THAT(e.what(), HasSubstr("planar"));
    }
  }
}

TEST(DartModel, NonFiniteStateIsReportedNotThrown) {
  auto scene = FlyingBody().Build();
  auto sim = MakeDart(scene);
  State s = DefaultState(*scene);
  s.v[4] = std::nan("");
  const StepReport r = sim->Step(s, {});
  EXPECT_EQ(r.status, StepStatus::kNonFinite);
  EXPECT_THAT(r.message, HasSubstr("v[4] = nan"));
}

}  // namespace dart_test
}  // namespace arena
