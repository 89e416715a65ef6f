// Tests of the `mujoco` engine model: the Scene -> MJCF translation against our own dynamics
// (contact-free trajectories that must match `penalty`'s to round-off where the integrators
// agree, and an exactly characterised first-order gap where they do not), rest heights against
// `penalty`, finite-difference derivatives against the closed form dv/du = dt M^-1 B, and clear
// errors for what MuJoCo 2.2.2 cannot represent.
#include "models/engines/mujoco/mujoco_simulator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/mesh.h"
#include "core/math/so3.h"
#include "core/multibody/data.h"
#include "core/multibody/dynamics.h"
#include "core/scene/scene_builder.h"
#include "models/finite_difference_derivatives.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"
#include "tests/models/engines/engine_test_support.h"

namespace arena {
namespace mujoco_test {

using ::testing::HasSubstr;
using engine_test::BodyTwist;
using engine_test::DoublePendulum;
using engine_test::FlyingBody;
using engine_test::MaxAbsDifference;
using engine_test::RestingBoxScene;
using engine_test::Simulate;
using engine_test::UnsupportedMessage;

std::unique_ptr<Simulator> Make(const std::string& model, std::shared_ptr<const Scene> scene,
                                OptionMap options = {}) {
  return MakeSimulator(model, std::move(scene), options);
}

// ------------------------------------------------------------------ contact: rest heights

// The box of penalty's RestingBoxCarriesItsWeight (2 kg, 0.1 m tall, flat on the ground) comes
// to rest within 2 mm of penalty's height. MuJoCo's soft contact (solref 0.02 1, solimp 0.9
// 0.95 0.001) lets it sink a fraction of a millimetre, penalty's 1e5 N/m springs 0.05 mm.
TEST(Mujoco, RestingBoxAgreesWithPenalty) {
  auto scene = RestingBoxScene();
  auto penalty = Make("penalty", scene, {{"timestep", "0.0005"}, {"stiffness", "1e5"}, {"damping_ratio", "1"}});
  auto mujoco = Make("mujoco", scene);
  const State p = Simulate(*penalty, DefaultState(*scene), 3.0);
  State m = Simulate(*mujoco, DefaultState(*scene), 3.0);
  EXPECT_NEAR(m.q[2], p.q[2], 2e-3);
  EXPECT_LT(m.q[2], 0.05);  // soft contact: it sinks, it does not float
  EXPECT_LT(m.v.norm(), 1e-4);
  // At rest the solver's start (the last acceleration, or zero) is already optimal: Newton's
  // first line search cannot improve it, so MuJoCo reports 0 iterations (residual then not
  // computed). Pressed into the ground and moving, the contact makes it iterate.
  const StepReport rest = mujoco->Step(m, {});
  EXPECT_EQ(rest.contacts, 4);
  EXPECT_LT(rest.min_signed_distance, 0.0);
  EXPECT_GT(rest.min_signed_distance, -2e-3);
  EXPECT_EQ(rest.iterations, 0);
  EXPECT_TRUE(std::isnan(rest.residual));
  State pressed = m;
  pressed.q[2] -= 1e-3;
  pressed.v[5] = -0.1;
  const StepReport r = mujoco->Step(pressed, {});
  EXPECT_EQ(r.contacts, 4);
  EXPECT_GE(r.iterations, 1);
  EXPECT_LT(r.residual, 1e-8);  // Newton's scaled gradient: below MuJoCo's tolerance
  EXPECT_GT(pressed.v[5], -0.1);  // braked (soft contact: over a 0.02 s time constant)
}

// A 0.5 m cube (box_drop's spatial variant: 1 kg, mu 0.2) dropped tilted, sliding and spinning
// lands, tumbles onto a face and rests at the height penalty gives it, within 2 mm.
TEST(Mujoco, DroppedCubeRestsWherePenaltyRestsIt) {
  auto scene = MakeScene("box");
  State s = DefaultState(*scene);
  const Quat quat(Eigen::AngleAxisd(0.5, Vec3(1, 1, 0).normalized()));
  s.q << 0.0, 0.0, 1.0, quat.w(), quat.x(), quat.y(), quat.z();
  s.v = BodyTwist(quat.toRotationMatrix(), Vec3(0.5, -0.3, 0.2), Vec3(0.3, -0.2, -1.0));
  auto penalty = Make("penalty", scene, {{"timestep", "0.001"}});
  auto mujoco = Make("mujoco", scene);
  const State p = Simulate(*penalty, s, 4.0);
  const State m = Simulate(*mujoco, s, 4.0);
  EXPECT_NEAR(m.q[2], p.q[2], 2e-3);
  EXPECT_NEAR(m.q[2], 0.25, 2e-3);
  EXPECT_LT(m.v.norm(), 1e-3);
  EXPECT_LT(p.v.norm(), 1e-3);
}

// Every supported shape rests on the ground at its lowest point, less MuJoCo's sink (< 2 mm).
TEST(Mujoco, EveryShapeRestsAtItsHeight) {
  PointsX3 corners(8, 3);
  for (int i = 0; i < 8; ++i) {
    corners.row(i) << (i & 1 ? 0.25 : -0.25), (i & 2 ? 0.25 : -0.25), (i & 4 ? 0.25 : -0.25);
  }
  TrianglesX3 faces(12, 3);
  faces << 0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
           2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5;
  const SE3 lying(ExpSO3(Vec3(M_PI / 2, 0, 0)), Vec3::Zero());
  struct Case {
    std::string name;
    Shape shape;
    SE3 placement;
    double height;  // of the body origin when the shape touches z = 0
  };
  const std::vector<Case> cases = {
      {"sphere", Sphere{0.1}, SE3(), 0.1},
      {"capsule", Capsule{0.05, 0.2}, lying, 0.05},
      {"cylinder", Cylinder{0.1, 0.15}, SE3(), 0.15},
      {"ellipsoid", Ellipsoid{Vec3(0.2, 0.1, 0.05)}, SE3(), 0.05},
      {"convex_hull", MakeConvexHull(corners), SE3(), 0.25},
      {"mesh", MakeTriangleMesh(corners, faces), SE3(), 0.25},
  };
  for (const Case& c : cases) {
    SceneBuilder b(c.name);
    const int body = b.AddFreeBody(c.name, SpatialInertia::SolidSphere(1.0, 0.1),
                                   SE3::FromTranslation(Vec3(0, 0, c.height + 0.01)));
    b.AddCollider(body, c.shape, c.placement, c.name);
    b.AddGround();
    auto scene = b.Build();
    auto sim = Make("mujoco", scene);
    const State s = Simulate(*sim, DefaultState(*scene), 2.0);
    EXPECT_LT(s.q[2], c.height) << c.name;
    EXPECT_GT(s.q[2], c.height - 2e-3) << c.name;
    EXPECT_LT(s.v.norm(), 1e-3) << c.name;
  }
}

// Every integrator, solver and cone runs the resting box to the same rest within 2 mm.
TEST(Mujoco, OptionsMapToMujocosAndAllRest) {
  auto scene = RestingBoxScene();
  const double reference = Simulate(*Make("mujoco", scene), DefaultState(*scene), 2.0).q[2];
  for (const char* integrator : {"euler", "rk4", "implicit"}) {
    for (const char* solver : {"pgs", "cg", "newton"}) {
      for (const char* cone : {"pyramidal", "elliptic"}) {
        auto sim = Make("mujoco", scene, {{"integrator", integrator}, {"solver", solver}, {"cone", cone},
                                          {"impratio", "2"}, {"iterations", "200"}, {"tolerance", "1e-10"}});
        State s = DefaultState(*scene);
        const int steps = static_cast<int>(2.0 / sim->timestep());
        for (int i = 0; i < steps; ++i) sim->Step(s, {});  // PGS may end unconverged: still a state
        EXPECT_NEAR(s.q[2], reference, 2e-3) << integrator << " " << solver << " " << cone;
      }
    }
  }
}

// ------------------------------------------------------------------ free flight vs penalty

// Without rotation, both integrators are semi-implicit Euler on the position: p += dt v+,
// v+ = v + dt g (penalty in the body frame, which then does not turn). 100 steps agree to
// round-off.
TEST(MujocoFreeFlight, TranslationMatchesPenalty) {
  auto scene = FlyingBody(Vec3(0, 0, -9.81));
  State s = DefaultState(*scene);
  const Quat quat(Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized()));
  s.q << 0.1, -0.2, 1.0, quat.w(), quat.x(), quat.y(), quat.z();
  s.v = BodyTwist(quat.toRotationMatrix(), Vec3::Zero(), Vec3(1.0, -0.5, 2.0));
  auto penalty = Make("penalty", scene, {{"timestep", "0.002"}});
  auto mujoco = Make("mujoco", scene, {{"timestep", "0.002"}});
  const State p = Simulate(*penalty, s, 0.2), m = Simulate(*mujoco, s, 0.2);
  EXPECT_LT(MaxAbsDifference(p, m), 1e-6);
  EXPECT_LT(MaxAbsDifference(p, m), 1e-13);  // in fact: round-off
  EXPECT_NEAR(m.t, 0.2, 1e-12);
}

// A torque-free spin (no gravity, no linear velocity): both update omega by explicit Euler on
// Euler's equations and the orientation by R Exp(dt omega+). 100 steps agree to round-off.
TEST(MujocoFreeFlight, SpinMatchesPenalty) {
  auto scene = FlyingBody(Vec3::Zero());
  State s = DefaultState(*scene);
  s.v << 1.0, 2.0, -0.5, 0.0, 0.0, 0.0;
  auto penalty = Make("penalty", scene, {{"timestep", "0.002"}});
  auto mujoco = Make("mujoco", scene, {{"timestep", "0.002"}});
  const State p = Simulate(*penalty, s, 0.2), m = Simulate(*mujoco, s, 0.2);
  EXPECT_LT(MaxAbsDifference(p, m), 1e-6);
  EXPECT_LT(MaxAbsDifference(p, m), 1e-13);
}

// Spinning while translating, the two integrators differ at first order, so 1e-6 over 100
// steps is out of reach, for a known reason: MuJoCo moves the origin with its world-frame
// velocity (R^3 x SO(3): p += dt v_W+, exact for a force-free body whose COM is the origin),
// penalty with the body twist on SE(3) (v_B += dt (-omega x v_B), p += R V(dt omega) dt v_B),
// whose error in the rotating body frame is O(dt) over a fixed time. Checked: MuJoCo's origin
// is on the exact straight line to round-off, the rotation parts still agree to round-off, and
// the gap halves with the timestep.
TEST(MujocoFreeFlight, SpinningTranslationDiffersAtFirstOrderInPenaltysIntegrator) {
  auto scene = FlyingBody(Vec3::Zero());
  State s = DefaultState(*scene);
  const Vec3 v_W(1.0, -0.5, 2.0), omega_W(1.0, 2.0, -0.5);
  s.v = BodyTwist(Mat3::Identity(), omega_W, v_W);
  const double T = 0.2;
  std::vector<double> gap;
  for (const double dt : {0.002, 0.001}) {
    const OptionMap options = {{"timestep", options_detail::FormatDouble(dt)}};
    const State p = Simulate(*Make("penalty", scene, options), s, T);
    const State m = Simulate(*Make("mujoco", scene, options), s, T);
    EXPECT_LT((m.q.head<3>() - T * v_W).norm(), 1e-12) << dt;       // exact line
    EXPECT_LT((m.q.segment<4>(3) - p.q.segment<4>(3)).cwiseAbs().maxCoeff(), 1e-13) << dt;
    EXPECT_LT((m.v.head<3>() - p.v.head<3>()).cwiseAbs().maxCoeff(), 1e-13) << dt;
    gap.push_back((p.q.head<3>() - m.q.head<3>()).norm());
  }
  EXPECT_GT(gap[0], 1e-6);  // the requested 1e-6 is not achievable here
  EXPECT_NEAR(gap[0] / gap[1], 2.0, 0.1);  // first order in dt
}

// ------------------------------------------------------------------ articulated, no contact

// A tree with every translated feature: a massless prismatic-prismatic-revolute chain (merged
// into one MuJoCo body with offset joint anchors, as MJCF loads of half_cheetah produce), a
// tilted revolute joint with stiffness, spring reference and armature, a ball joint, and torque
// (with a clamped control), PD and prismatic actuators, a non-diagonal inertia. No joint
// damping (MuJoCo's Euler treats it implicitly, penalty explicitly), so both are semi-implicit
// Euler on the same coordinates: 200 steps agree to round-off (measured 3e-15; a 1e-10 gap per
// step appears if MuJoCo diagonalises the inertia itself, see scene_to_mjcf.cc).
std::shared_ptr<const Scene> ArticulatedScene() {
  SceneBuilder b("articulated");
  auto joint = [](JointType type, const SE3& placement, const Vec3& axis = Vec3::UnitZ()) {
    JointModel j;
    j.type = type;
    j.placement = placement;
    j.axis = axis.normalized();
    return j;
  };
  const Mat3 I1 = Vec3(0.02, 0.03, 0.04).asDiagonal();
  Mat3 I2;
  I2 << 0.05, 0.004, -0.002, 0.004, 0.04, 0.001, -0.002, 0.001, 0.03;  // A + B >= C
  const int x = b.AddBody("root/x", kWorldBody, joint(JointType::kPrismatic, SE3::FromTranslation(Vec3(0, 0, 1)), Vec3::UnitX()), SpatialInertia());
  const int z = b.AddBody("root/z", x, joint(JointType::kPrismatic, SE3::FromTranslation(Vec3(0.1, 0, 0)), Vec3::UnitZ()), SpatialInertia());
  const int root = b.AddBody("root", z, joint(JointType::kRevolute, SE3::FromTranslation(Vec3(0, 0.02, 0.05)), Vec3::UnitY()),
                             SpatialInertia(2.0, Vec3(0.05, 0, -0.02), I2));
  JointModel tilted = joint(JointType::kRevolute, SE3(ExpSO3(Vec3(0.2, -0.1, 0.3)), Vec3(0.3, 0, -0.1)), Vec3(0.3, 1, 0.2));
  tilted.stiffness = 5.0;
  tilted.spring_reference = 0.2;
  tilted.armature = 0.05;
  const int upper = b.AddBody("upper", root, tilted, SpatialInertia(1.0, Vec3(0, 0, -0.15), I1));
  const int lower = b.AddBody("lower", upper, joint(JointType::kBall, SE3(ExpSO3(Vec3(0, 0.4, 0)), Vec3(0, 0, -0.3))),
                              SpatialInertia(0.7, Vec3(0.02, 0, -0.1), I2));
  JointModel slide = joint(JointType::kPrismatic, SE3::FromTranslation(Vec3(0, 0, -0.2)), Vec3(0, 0.2, 1));
  slide.stiffness = 20.0;
  const int tip = b.AddBody("tip", lower, slide, SpatialInertia(0.3, Vec3::Zero(), I1));
  Actuator a;
  a.name = "push";
  a.body = x;
  a.ctrl_lower = -0.5;
  a.ctrl_upper = 0.5;
  b.AddActuator(a);
  a = Actuator{};
  a.name = "shoulder";
  a.body = upper;
  a.gear = 2.5;
  b.AddActuator(a);
  a = Actuator{};
  a.name = "tip_pd";
  a.type = ActuatorType::kPdTarget;
  a.body = tip;
  a.kp = 40.0;
  a.kd = 2.0;
  b.AddActuator(a);
  a = Actuator{};
  a.name = "root_servo";  // a velocity target: MuJoCo's <general> with gain kd, bias -kd qdot
  a.type = ActuatorType::kVelocityTarget;
  a.body = root;
  a.kd = 3.0;
  b.AddActuator(a);
  return b.Build();
}

State ArticulatedState(const Scene& scene) {
  State s = DefaultState(scene);
  const Quat ball(Eigen::AngleAxisd(0.5, Vec3(1, 0.2, 0.3).normalized()));
  s.q << 0.1, -0.05, 0.3, -0.4, ball.w(), ball.x(), ball.y(), ball.z(), 0.02;
  s.v << 0.2, -0.1, 0.5, -0.3, 0.4, 0.1, -0.2, 0.05;
  return s;
}

TEST(MujocoArticulated, TrajectoryMatchesPenaltyToRoundOff) {
  auto scene = ArticulatedScene();
  const Control u{(VecX(4) << 1.0, 0.3, 0.05, -0.7).finished()};  // the first is clamped to 0.5
  auto penalty = Make("penalty", scene, {{"timestep", "0.002"}});
  auto mujoco = Make("mujoco", scene, {{"timestep", "0.002"}});
  const State s = ArticulatedState(*scene);
  const State p = Simulate(*penalty, s, 0.4, u), m = Simulate(*mujoco, s, 0.4, u);
  EXPECT_LT(MaxAbsDifference(p, m), 1e-12);
  EXPECT_GT((m.q - s.q).norm(), 0.1);  // it did move
  // The massless chain became one MuJoCo body: root, upper, lower, tip.
  const std::string& xml = static_cast<const MujocoSimulator&>(*mujoco).mjcf();
  size_t bodies = 0;
  for (size_t at = xml.find("<body "); at != std::string::npos; at = xml.find("<body ", at + 1)) ++bodies;
  EXPECT_EQ(bodies, 4u);
}

// ------------------------------------------------------------------ derivatives

// Contact-free pendulum: central and Ridders differences agree, and dv/du is the closed form
// dt M^-1 B of semi-implicit Euler (M from our CRBA, armature included; B = diag(gear)),
// dq/du = dt dv/du. Tolerances: central differences of a step that is linear in u carry only
// round-off, ~eps / fd_step = 2e-10 relative.
TEST(MujocoDerivatives, PendulumMatchesClosedFormAndRidders) {
  auto scene = DoublePendulum(0.02);  // armature on the shoulder
  State s = DefaultState(*scene);
  s.q << 0.4, -0.3;
  s.v << 0.5, 0.2;
  const Control u{Vec2(0.1, -0.2)};
  const double dt = 0.002;
  auto central = Make("mujoco", scene, {{"timestep", "0.002"}});
  auto ridders = Make("mujoco", scene, {{"timestep", "0.002"}, {"fd_method", "ridders"}});
  StepDerivatives dc, dr;
  central->Derivatives(s, u, &dc);
  ridders->Derivatives(s, u, &dr);
  EXPECT_LT(MaxStepDerivativeError(dc, dr), 1e-7);

  MultibodyData data(scene->model);
  Crba(scene->model, data, s.q);
  const Mat2 B = Vec2(2.0, 3.0).asDiagonal();
  const MatX expected = dt * data.M.inverse() * B;
  EXPECT_LT(CorrectedRelativeError(dc.dv_du, expected), 1e-7);
  EXPECT_LT(CorrectedRelativeError(dr.dv_du, expected), 1e-9);
  EXPECT_LT(CorrectedRelativeError(dc.dq_du, dt * expected), 1e-7);
  // The check has teeth: dropping the armature from M is visible.
  MatX M_bare = data.M;
  M_bare(0, 0) -= 0.02;
  EXPECT_GT(CorrectedRelativeError(dc.dv_du, dt * M_bare.inverse() * B), 1e-3);
  // dv/dv = I + O(dt).
  EXPECT_LT((dc.dv_dv - MatX::Identity(2, 2)).cwiseAbs().maxCoeff(), 0.05);
}

// Loaded half_cheetah lifted off its floor: MuJoCo's Euler integrates joint damping implicitly,
// so dv/du = dt (M + dt D)^-1 B with D the joint dampings, M our CRBA of the loaded scene. This
// checks the translation of a loaded robot: inertias (settotalmass), armature, the merged
// rootx-rootz-rooty chain, gears.
TEST(MujocoDerivatives, HalfCheetahControlJacobianIsImplicitEuler) {
  auto scene = MakeScene("half_cheetah");
  auto sim = Make("mujoco", scene, {{"timestep", "0.01"}});
  State s = DefaultState(*scene);
  s.q[1] = 2.0;  // rootz: far above the floor, no contact
  StepDerivatives d;
  sim->Derivatives(s, {}, &d);
  const int nv = scene->nv(), nu = scene->nu();
  MultibodyData data(scene->model);
  Crba(scene->model, data, s.q);
  MatX D = MatX::Zero(nv, nv), B = MatX::Zero(nv, nu);
  for (const BodyModel& body : scene->model.bodies()) {
    if (body.joint.nv() == 1) D(body.idx_v, body.idx_v) = body.joint.damping;
  }
  for (int i = 0; i < nu; ++i) {
    const Actuator& a = scene->actuators[i];
    B(scene->model.body(a.body).idx_v + a.dof, i) = a.gear;
  }
  const double dt = 0.01;
  const MatX expected = dt * (data.M + dt * D).inverse() * B;
  EXPECT_LT(CorrectedRelativeError(d.dv_du, expected), 1e-6);
  EXPECT_GT(CorrectedRelativeError(d.dv_du, dt * data.M.inverse() * B), 1e-3);  // explicit damping: off
}

// In contact the finite differences stay finite, and pressing the resting box down pushes it
// back up (dv_z+/dq_z < 0 in the box frame, which is the world frame here).
TEST(MujocoDerivatives, RestingContactIsFiniteAndRestoring) {
  auto scene = RestingBoxScene();
  auto sim = Make("mujoco", scene);
  const State s = Simulate(*sim, DefaultState(*scene), 1.0);
  StepDerivatives d;
  sim->Derivatives(s, {}, &d);
  for (const MatX* m : {&d.dq_dq, &d.dq_dv, &d.dv_dq, &d.dv_dv}) {
    EXPECT_TRUE(m->allFinite());
    EXPECT_EQ(m->rows(), 6);
  }
  EXPECT_LT(d.dv_dq(5, 5), 0.0);
  EXPECT_EQ(d.dv_du.cols(), 0);
}

// ------------------------------------------------------------------ the Step contract

// Steps are reproducible: rollouts in two simulators give the same bits, and a step that does
// not continue the previous one starts the solver cold, so repeating it repeats the result. A
// step that continues the previous one starts from its acceleration (MuJoCo's own warm start)
// unless warm_start = false, and then matches a fresh simulator's step bit for bit.
TEST(Mujoco, StepsAreReproducible) {
  auto scene = RestingBoxScene();
  auto a = Make("mujoco", scene), b = Make("mujoco", scene);
  const State r1 = Simulate(*a, DefaultState(*scene), 0.2), r2 = Simulate(*b, DefaultState(*scene), 0.2);
  EXPECT_EQ(r1.q, r2.q);
  EXPECT_EQ(r1.v, r2.v);
  State x = DefaultState(*scene), y = x, z = x;
  x.q[2] -= 1e-3;
  y.q[2] -= 1e-3;
  z.q[2] -= 1e-3;
  a->Step(x, {});
  a->Step(y, {});
  b->Step(z, {});
  EXPECT_EQ(x.q, y.q);
  EXPECT_EQ(x.q, z.q);

  auto cold = Make("mujoco", scene, {{"warm_start", "false"}});
  State s = Simulate(*cold, DefaultState(*scene), 0.2);
  State s_fresh = s;
  cold->Step(s, {});
  Make("mujoco", scene, {{"warm_start", "false"}})->Step(s_fresh, {});
  EXPECT_EQ(s.q, s_fresh.q);
  EXPECT_EQ(s.v, s_fresh.v);
}

TEST(Mujoco, NumericalTroubleIsReportedNotThrown) {
  auto scene = DoublePendulum(0.02);
  auto sim = Make("mujoco", scene);
  State s = DefaultState(*scene);
  s.v[0] = std::nan("");
  EXPECT_EQ(sim->Step(s, {}).status, StepStatus::kNonFinite);
  s = DefaultState(*scene);
  const StepReport r = sim->Step(s, Control{Vec2(std::nan(""), 0.0)});
  EXPECT_EQ(r.status, StepStatus::kNonFinite);
  EXPECT_THAT(r.message, HasSubstr("u[0]"));
  // A blow-up: MuJoCo flags the bad acceleration and resets; we report it and keep the input.
  s.v << 1e12, -1e12;
  const State before = s;
  const StepReport blown = sim->Step(s, {});
  EXPECT_EQ(blown.status, StepStatus::kNonFinite) << blown.message;
  EXPECT_EQ(s.q, before.q);
  // Wrong sizes are programming errors.
  State wrong;
  wrong.q = VecX::Zero(3);
  wrong.v = VecX::Zero(2);
  EXPECT_THROW(sim->Step(wrong, {}), InvalidArgument);
}

// ------------------------------------------------------------------ errors and registry

TEST(Mujoco, UnsupportedScenesNameTheProblem) {
  {  // MuJoCo 2.2.2 has no cone geom.
    SceneBuilder b("cone");
    const int body = b.AddFreeBody("top", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
    b.AddCollider(body, Cone{0.1, 0.2}, SE3(), "spinning_top");
    b.AddGround();
    auto scene = b.Build();
    const std::string via_registry = UnsupportedMessage([&] { Make("mujoco", scene); });
    EXPECT_THAT(via_registry, HasSubstr("cone"));
    EXPECT_THAT(via_registry, HasSubstr("spinning_top"));
    const std::string direct = UnsupportedMessage([&] { MujocoSimulator sim(scene, MujocoOptions{}); });
    EXPECT_THAT(direct, HasSubstr("MuJoCo 2.2.2 has no cone geom"));
    EXPECT_THAT(direct, HasSubstr("spinning_top"));
  }
  {  // A half-space on a moving body: MuJoCo planes are static.
    SceneBuilder b("moving_plane");
    const int body = b.AddFreeBody("paddle", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
    b.AddCollider(body, HalfSpace{}, SE3(), "paddle_face");
    b.AddCollider(kWorldBody, Sphere{0.1}, SE3::FromTranslation(Vec3(0, 0, -1)), "ball");
    auto scene = b.Build();
    const std::string message = UnsupportedMessage([&] { MujocoSimulator sim(scene, MujocoOptions{}); });
    EXPECT_THAT(message, HasSubstr("paddle_face"));
    EXPECT_THAT(message, HasSubstr("static"));
  }
  {  // A planar joint below another body (MuJoCo's slide-slide-hinge moves bodies of the world).
    SceneBuilder b("planar_child");
    const int base = b.AddPlanarBody("base", 1.0, 0.1, Vec3::Zero());
    JointModel planar;
    planar.type = JointType::kPlanar;
    planar.name = "elbow";
    b.AddBody("forearm", base, planar, SpatialInertia::SolidSphere(1.0, 0.1));
    auto scene = b.Build();
    EXPECT_THAT(UnsupportedMessage([&] { MujocoSimulator sim(scene, MujocoOptions{}); }),
                HasSubstr("joint 'elbow' of body 'forearm' is a planar joint below another body"));
  }
  {  // A rounded polygon has no MuJoCo geom.
    SceneBuilder b("rounded");
    b.SetGravity(Vec3(0, -9.81, 0));
    const int body = b.AddPlanarBody("tile", 1.0, 0.1, Vec3(0, 1, 0));
    Eigen::Matrix<double, 4, 2> A;
    A << 1, 0, 0, 1, -1, 0, 0, -1;
    b.AddCollider(body, MakePaddedPolygon2(A, VecX::Constant(4, 0.1), 0.02), SE3(), "tile");
    b.AddGroundPlane2();
    auto scene = b.Build();
    EXPECT_THAT(UnsupportedMessage([&] { MujocoSimulator sim(scene, MujocoOptions{}); }),
                HasSubstr("padded polygon collider 'tile'"));
  }
  {  // Actuators on multi-DOF joints.
    SceneBuilder b("ball_motor");
    JointModel ball;
    ball.type = JointType::kBall;
    const int body = b.AddBody("arm", kWorldBody, ball, SpatialInertia::SolidSphere(1.0, 0.1));
    Actuator a;
    a.name = "wrist";
    a.body = body;
    a.dof = 1;
    b.AddActuator(a);
    auto scene = b.Build();
    EXPECT_THAT(UnsupportedMessage([&] { MujocoSimulator sim(scene, MujocoOptions{}); }),
                HasSubstr("actuator 'wrist' drives the ball joint"));
  }
}

TEST(Mujoco, BadOptionsAreRejected) {
  auto scene = RestingBoxScene();
  try {
    Make("mujoco", scene, {{"integrator", "verlet"}});
    ADD_FAILURE() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("euler|rk4|implicit"));
  }
  EXPECT_THROW(Make("mujoco", scene, {{"timestep", "-1"}}), InvalidArgument);
  EXPECT_THROW(Make("mujoco", scene, {{"iterations", "0"}}), InvalidArgument);
  EXPECT_THROW(Make("mujoco", scene, {{"cone", "round"}}), InvalidArgument);
  EXPECT_THROW(Make("mujoco", scene, {{"solref", "0.02"}}), InvalidArgument);
  const ModelInfo& info = FindModel("mujoco");
  EXPECT_TRUE(info.capabilities.engine);
  EXPECT_EQ(info.capabilities.derivatives, DerivativeSource::kFiniteDifferences);
  EXPECT_FALSE(info.capabilities.Supports(ShapeType::kCone));
  bool found = false;
  for (const OptionInfo& o : info.options()) {
    if (o.key == "solver") {
      found = true;
      EXPECT_EQ(o.type, "pgs|cg|newton");
      EXPECT_EQ(o.default_value, "newton");
    }
  }
  EXPECT_TRUE(found);
}

// The pair filter and friction rule are ours: one explicit pair per Scene::CollisionPairs()
// entry, friction the smaller of the two, condim 1 when it is zero.
TEST(MujocoTranslation, PairsFollowTheScene) {
  SceneBuilder b("pairs");
  const int a = b.AddFreeBody("a", SpatialInertia::SolidSphere(1.0, 0.1), SE3::FromTranslation(Vec3(0, 0, 1)));
  const int c = b.AddFreeBody("c", SpatialInertia::SolidSphere(1.0, 0.1), SE3::FromTranslation(Vec3(1, 0, 1)));
  b.AddCollider(a, Sphere{0.1}, SE3(), "a").friction = 0.3;
  b.AddCollider(c, Sphere{0.1}, SE3(), "c").friction = 0.0;
  b.AddGround(0.8);
  b.ExcludePair(a, c);
  auto scene = b.Build();
  MujocoSimulator sim(scene, MujocoOptions{});
  const std::string& xml = sim.mjcf();
  size_t pairs = 0;
  for (size_t at = xml.find("<pair "); at != std::string::npos; at = xml.find("<pair ", at + 1)) ++pairs;
  EXPECT_EQ(pairs, scene->CollisionPairs().size());
  EXPECT_EQ(pairs, 2u);
  EXPECT_THAT(xml, HasSubstr("friction=\"0.29999999999999999 0.29999999999999999"));
  EXPECT_THAT(xml, HasSubstr("condim=\"1\""));
  EXPECT_THAT(xml, HasSubstr("contype=\"0\" conaffinity=\"0\""));
}

// A loaded robot runs: half_cheetah dropped on its floor settles.
TEST(Mujoco, HalfCheetahSettlesOnTheFloor) {
  auto scene = MakeScene("half_cheetah");
  auto sim = Make("mujoco", scene, {{"timestep", "0.01"}});
  State s = Simulate(*sim, DefaultState(*scene), 3.0);
  EXPECT_LT(s.v.norm(), 0.05);
  const StepReport r = sim->Step(s, {});
  EXPECT_GT(r.contacts, 0);
  EXPECT_GT(r.min_signed_distance, -0.01);
}

}  // namespace mujoco_test
}  // namespace arena
