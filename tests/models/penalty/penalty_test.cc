// Tests of the `penalty` reference model: closed-form resting force, conservation in a
// frictionless undamped collision, analytical step derivatives vs finite differences (in and
// out of contact, free, planar and articulated bodies), and clear errors.
#include "models/penalty/penalty.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "core/common/error.h"
#include "core/math/so3.h"
#include "core/multibody/configuration.h"
#include "core/multibody/data.h"
#include "core/multibody/energy.h"
#include "core/scene/loader.h"
#include "core/scene/scene_builder.h"
#include "models/finite_difference_derivatives.h"
#include "models/registry.h"

namespace arena {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<Simulator> Make(std::shared_ptr<const Scene> scene, OptionMap options) {
  return MakeSimulator("penalty", std::move(scene), options);
}

// A box resting flat on the ground settles where its four bottom corners carry its weight:
// k * depth * 4 = m g. Tolerance 1e-3 relative: the damped transient has decayed by then.
TEST(Penalty, RestingBoxCarriesItsWeight) {
  SceneBuilder b("rest");
  const Vec3 h(0.2, 0.1, 0.05);
  const double m = 2.0, k = 1e5;
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(m, h), SE3::FromTranslation(Vec3(0, 0, h.z())));
  b.AddCollider(box, Box{h});
  b.AddGround();
  auto sim = Make(b.Build(), {{"timestep", "0.0005"}, {"stiffness", "1e5"}, {"damping_ratio", "1"}});
  State s = DefaultState(sim->scene());
  for (int i = 0; i < 6000; ++i) ASSERT_TRUE(sim->Step(s, {}).ok());
  const double depth = h.z() - s.q[2];
  EXPECT_NEAR(depth, m * 9.81 / (4.0 * k), 1e-3 * m * 9.81 / (4.0 * k));
  EXPECT_LT(s.v.norm(), 1e-6);
  const StepReport r = sim->Step(s, {});
  EXPECT_EQ(r.contacts, 4);
  EXPECT_NEAR(r.min_signed_distance, -depth, 1e-9);
}

// Two spheres collide head-on without gravity, friction or damping: the contact wrenches are
// equal and opposite, so momentum is conserved to round-off; symplectic Euler keeps the energy
// within O(dt) of its start (1% here) and the spheres separate.
TEST(Penalty, HeadOnCollisionConservesMomentum) {
  SceneBuilder b("spheres");
  b.SetGravity(Vec3::Zero());
  const int s1 = b.AddFreeBody("s1", SpatialInertia::SolidSphere(1.0, 0.1), SE3::FromTranslation(Vec3(-0.3, 0, 0)));
  const int s2 = b.AddFreeBody("s2", SpatialInertia::SolidSphere(3.0, 0.1), SE3::FromTranslation(Vec3(0.3, 0.01, 0)));
  b.AddCollider(s1, Sphere{0.1}).friction = 0.0;
  b.AddCollider(s2, Sphere{0.1}).friction = 0.0;
  auto scene = b.Build();
  auto sim = Make(scene, {{"timestep", "1e-4"}, {"stiffness", "1e5"}, {"damping_ratio", "0"}});
  State s = DefaultState(*scene);
  s.v.segment<3>(3) = Vec3(1.0, 0, 0);   // s1 moves +x (body frame = world frame at identity)
  s.v.segment<3>(9) = Vec3(-0.5, 0, 0);
  MultibodyData data(scene->model);
  const Force p0 = SpatialMomentum(scene->model, data, s.q, s.v);
  const double e0 = KineticEnergy(scene->model, data, s.q, s.v);
  int contact_steps = 0;
  for (int i = 0; i < 5000; ++i) {
    const StepReport r = sim->Step(s, {});
    ASSERT_TRUE(r.ok());
    contact_steps += r.contacts > 0;
  }
  EXPECT_GT(contact_steps, 0);
  const Force p1 = SpatialMomentum(scene->model, data, s.q, s.v);
  EXPECT_LT((p1 - p0).norm(), 1e-10 * (1.0 + p0.norm()));
  EXPECT_NEAR(KineticEnergy(scene->model, data, s.q, s.v), e0, 1e-2 * e0);
}

struct DerivativeCase {
  std::string name;
  std::shared_ptr<const Scene> scene;
  State state;
  VecX u;
  bool expect_contact;
};

std::vector<DerivativeCase> DerivativeCases() {
  std::vector<DerivativeCase> cases;
  {  // A tilted cube with one corner in the ground, moving and spinning.
    SceneBuilder b("cube_corner");
    const Vec3 h = Vec3::Constant(0.25);
    const int body = b.AddFreeBody("cube", SpatialInertia::SolidBox(1.0, h), SE3());
    b.AddCollider(body, Box{h}).friction = 0.3;
    b.AddGround(0.3);
    auto scene = b.Build();
    State s = DefaultState(*scene);
    const Quat q(Eigen::AngleAxisd(0.4, Vec3(1, 2, 0.5).normalized()));
    const Mat3 R = q.toRotationMatrix();
    double lowest = 1e9;
    for (int i = 0; i < 8; ++i) {
      const Vec3 c((i & 1 ? 1 : -1) * 0.25, (i & 2 ? 1 : -1) * 0.25, (i & 4 ? 1 : -1) * 0.25);
      lowest = std::min(lowest, (R * c).z());
    }
    s.q << 0.1, -0.2, -lowest - 0.003, q.w(), q.x(), q.y(), q.z();
    s.v << 0.3, -0.2, 0.5, 0.4, 0.2, -0.3;
    cases.push_back({"cube_corner_contact", scene, s, VecX(), true});
    State flying = s;
    flying.q[2] += 0.5;
    cases.push_back({"cube_flying", scene, flying, VecX(), false});
  }
  {  // The paper's planar polygon with one vertex in the ground.
    SceneBuilder b("polygon");
    b.SetGravity(Vec3(0, -9.81, 0));
    Eigen::Matrix<double, 5, 2> A;
    A << 1.0, 0.2, 0.0, 1.0, -1.0, -0.3, 0.0, -1.0, 0.8, -0.8;
    const int body = b.AddPlanarBody("polygon", 1.0, 0.2, Vec3::Zero());
    const Polygon2 poly = MakePolygon2(A, VecX::Constant(5, 0.4));
    b.AddCollider(body, poly).friction = 0.2;
    b.AddGroundPlane2(0.2);
    auto scene = b.Build();
    State s = DefaultState(*scene);
    const double theta = 0.3;
    double lowest = 1e9;
    for (int i = 0; i < poly.vertices.rows(); ++i) {
      lowest = std::min(lowest, (Eigen::Rotation2Dd(theta) * Vec2(poly.vertices.row(i).transpose())).y());
    }
    s.q << 0.2, -lowest - 0.004, theta;
    s.v << 0.7, 0.4, -0.3;
    cases.push_back({"polygon_vertex_contact", scene, s, VecX(), true});
  }
  {  // Articulated: a free base box with a revolute arm whose sphere tip touches the ground,
     // driven by a torque actuator.
    SceneBuilder b("arm");
    const int base = b.AddFreeBody("base", SpatialInertia::SolidBox(2.0, Vec3(0.2, 0.2, 0.1)),
                                   SE3::FromTranslation(Vec3(0, 0, 0.6)));
    JointModel hinge;
    hinge.type = JointType::kRevolute;
    hinge.name = "hinge";
    hinge.axis = Vec3::UnitY();
    hinge.placement = SE3::FromTranslation(Vec3(0.2, 0, 0));
    hinge.damping = 0.1;
    const int arm = b.AddBody("arm", base, hinge, SpatialInertia(0.5, Vec3(0, 0, -0.25), Mat3::Identity() * 0.01));
    b.AddCollider(arm, Sphere{0.1}, SE3::FromTranslation(Vec3(0, 0, -0.5))).friction = 0.5;
    b.AddGround(0.5);
    Actuator act;
    act.name = "hinge_motor";
    act.body = arm;
    act.gear = 2.0;
    b.AddActuator(act);
    auto scene = b.Build();
    State s = DefaultState(*scene);
    const double angle = 0.05;
    s.q[7] = angle;
    s.q[2] = 0.5 * std::cos(angle) + 0.1 - 0.004;  // tip sphere 4 mm into the ground
    s.v << 0.1, -0.2, 0.05, 0.3, 0.1, -0.2, 0.4;
    VecX u(1);
    u << 0.7;
    cases.push_back({"arm_tip_contact", scene, s, u, true});
  }
  {  // Two free boxes, the upper one's corners inside the lower one (body-body contact).
    SceneBuilder b("stack");
    const Vec3 h(0.2, 0.2, 0.1);
    const int lower = b.AddFreeBody("lower", SpatialInertia::SolidBox(1.0, h), SE3::FromTranslation(Vec3(0, 0, 0.1)));
    const int upper = b.AddFreeBody("upper", SpatialInertia::SolidBox(0.5, h), SE3::FromTranslation(Vec3(0.05, 0.02, 0.297)));
    b.AddCollider(lower, Box{h}).friction = 0.4;
    b.AddCollider(upper, Box{h}).friction = 0.4;
    auto scene = b.Build();
    State s = DefaultState(*scene);
    const Quat tilt(Eigen::AngleAxisd(0.02, Vec3::UnitX()));
    s.q.segment<4>(10) << tilt.w(), tilt.x(), tilt.y(), tilt.z();
    s.v << 0.1, 0, 0.05, 0.1, 0, -0.1, -0.05, 0.2, 0, 0.2, 0.1, -0.3;
    cases.push_back({"box_box_contact", scene, s, VecX(), true});
  }
  return cases;
}

// Central differences with a 1e-6 step: truncation ~1e-12 relative, round-off ~eps/h ~1e-10
// (measured errors are 1e-10..1e-8), so 1e-6 leaves a margin while catching any missing term
// (dropping the contact term gives O(1) errors).
TEST(Penalty, StepDerivativesMatchFiniteDifferences) {
  FdOptions fd;
  fd.method = FdMethod::kCentral;
  fd.step = 1e-6;
  for (const DerivativeCase& c : DerivativeCases()) {
    SCOPED_TRACE(c.name);
    auto sim = Make(c.scene, {{"timestep", "0.005"}, {"stiffness", "2e4"}});
    State probe = c.state;
    const StepReport r = sim->Step(probe, Control{c.u});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.contacts > 0, c.expect_contact);
    StepDerivatives analytic;
    sim->Derivatives(c.state, Control{c.u}, &analytic);
    const StepDerivatives numeric = FiniteDifferenceStepDerivatives(*sim, c.state, Control{c.u}, fd);
    EXPECT_LT(MaxStepDerivativeError(analytic, numeric), 1e-6);
  }
}

TEST(Penalty, RejectsBadOptionsWithClearErrors) {
  SceneBuilder b("one");
  const int body = b.AddFreeBody("ball", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
  b.AddCollider(body, Sphere{0.1});
  auto scene = b.Build();
  try {
    Make(scene, {{"timestep", "-0.01"}});
    FAIL() << "negative timestep accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("timestep must be > 0"));
  }
  try {
    Make(scene, {{"stifness", "1"}});
    FAIL() << "misspelled key accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown option 'stifness'"));
    EXPECT_THAT(e.what(), HasSubstr("stiffness"));
  }
  EXPECT_THROW(Make(scene, {{"stiffness", "abc"}}), InvalidArgument);
}

TEST(Penalty, UnsupportedPairNamesTheShapes) {
  SceneBuilder b("capsule_box");
  const int c = b.AddFreeBody("c", SpatialInertia::SolidCapsule(1.0, 0.1, 0.2), SE3());
  const int x = b.AddFreeBody("x", SpatialInertia::SolidBox(1.0, Vec3::Constant(0.1)), SE3::FromTranslation(Vec3(1, 0, 0)));
  b.AddCollider(c, Capsule{0.1, 0.2}, SE3(), "rod");
  b.AddCollider(x, Box{Vec3::Constant(0.1)}, SE3(), "block");
  try {
    Make(b.Build(), {});
    FAIL() << "capsule-box accepted";
  } catch (const Unsupported& e) {
    EXPECT_THAT(e.what(), HasSubstr("capsule-box"));
    EXPECT_THAT(e.what(), HasSubstr("'rod'"));
  }
}

// Degenerate input: a cube exactly touching (phi = 0 on a whole face) and two spheres with
// coincident centres give finite states, and a non-finite state is reported, not thrown.
TEST(Penalty, DegenerateInputStaysFinite) {
  SceneBuilder b("degenerate");
  b.SetGravity(Vec3::Zero());
  const int s1 = b.AddFreeBody("s1", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
  const int s2 = b.AddFreeBody("s2", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
  const int cube = b.AddFreeBody("cube", SpatialInertia::SolidBox(1.0, Vec3::Constant(0.1)), SE3::FromTranslation(Vec3(0, 0, 0.1)));
  b.AddCollider(s1, Sphere{0.1});
  b.AddCollider(s2, Sphere{0.1});
  b.AddCollider(cube, Box{Vec3::Constant(0.1)});
  b.AddGround();
  b.ExcludePair(s1, cube);
  b.ExcludePair(s2, cube);
  auto sim = Make(b.Build(), {});
  State s = DefaultState(sim->scene());
  s.q[2] = s.q[9] = 5.0;  // spheres far above the ground, centres coincident
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(sim->Step(s, {}).ok());
  EXPECT_TRUE(s.q.allFinite());
  State bad = s;
  bad.v[0] = std::nan("");
  const StepReport r = sim->Step(bad, {});
  EXPECT_EQ(r.status, StepStatus::kNonFinite);
  EXPECT_THAT(r.message, HasSubstr("not finite: v[0] = nan"));
}

}  // namespace
}  // namespace arena

namespace arena {
namespace {

// A loaded articulated robot: half_cheetah (MJCF, capsules, collision filter bits) dropped on
// its floor settles on it. Its links only collide with the floor (contype/conaffinity), so
// every pair has a kernel. At rest the capsules carry the weight: penetration stays below a
// centimetre and the speed decays.
TEST(Penalty, HalfCheetahSettlesOnTheFloor) {
  auto scene = std::make_shared<const Scene>(LoadMjcf(DartDataDir() + "/mjcf/openai/half_cheetah.xml.gz"));
  auto sim = MakeSimulator("penalty", scene, {{"timestep", "0.001"}, {"stiffness", "3e4"}, {"damping_ratio", "1"}});
  State s = DefaultState(*scene);
  MultibodyData data(scene->model);
  for (int i = 0; i < 3000; ++i) ASSERT_TRUE(sim->Step(s, {}).ok()) << "step " << i;
  EXPECT_LT(s.v.norm(), 0.05);
  const StepReport r = sim->Step(s, {});
  EXPECT_GT(r.contacts, 0);
  EXPECT_GT(r.min_signed_distance, -0.01);
}

}  // namespace
}  // namespace arena
