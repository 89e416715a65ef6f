// The conformance suite: what every registered model must do, tested for each without a test
// of its own (parameterised over the registry, so a model added by one line in
// models/registry.cc is tested here). A model states what its contact law allows in its
// registry entry (ConformanceSpec: resting drift, derivative tolerance, bit reproducibility).
//
//   - bad input: a wrong-sized state or control is an InvalidArgument; a NaN or inf state or
//     control is a failed StepReport that leaves the state as it was; never a crash;
//   - a box resting on the ground stays within the model's declared drift for 1 s;
//   - where the model has derivatives: Derivatives() agrees with Ridders differences of its own
//     Step at a contact state and at a free-flight state; Vjp equals J^T times the cotangents
//     to 1e-8 relative; asking a model without derivatives is Unsupported;
//   - each optional interface (mesh_potential, last_solve_breakdown, design_vertices,
//     collider_points, collider_hulls, ContactForces) is null or consistent with the model's
//     other outputs on the resting box;
//   - two instances stepping on two threads give the states one instance gives on one thread,
//     bit for bit (to 1e-9 where the model declares it is not bit-reproducible).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <thread>

#include "core/common/error.h"
#include "core/scene/scene_builder.h"
#include "scenes/nimble_robots.h"
#include "models/contact_criteria.h"
#include "models/finite_difference_derivatives.h"
#include "models/incremental_potential/contact_potential.h"
#include "models/registry.h"

namespace arena {
namespace conformance_test {

constexpr double kHalf = 0.2;      // the box: a 0.4 m cube (square), 1 kg, mu 0.5
constexpr double kFriction = 0.5;

// A box resting on the ground (its bottom face on z = 0, or y = 0 for planar scenes), or
// `clearance` above it.
std::shared_ptr<const Scene> RestingBox(bool planar, double clearance) {
  if (planar) {
    SceneBuilder b("conformance_box_planar");
    b.SetGravity(Vec3(0.0, -9.81, 0.0));
    Eigen::Matrix<double, 4, 2> A;
    A << 1, 0, 0, 1, -1, 0, 0, -1;
    const int body = b.AddPlanarBody("box", 1.0, 1.0 / 6.0 * 4 * kHalf * kHalf, Vec3(0.0, kHalf + clearance, 0.0));
    b.AddCollider(body, MakePolygon2(A, VecX::Constant(4, kHalf)), SE3(), "box").friction = kFriction;
    b.AddGroundPlane2(kFriction);
    return b.Build();
  }
  SceneBuilder b("conformance_box");
  b.SetGravity(Vec3(0.0, 0.0, -9.81));
  const Vec3 h = Vec3::Constant(kHalf);
  const int body = b.AddFreeBody("box", SpatialInertia::SolidBox(1.0, h), SE3::FromTranslation(Vec3(0, 0, kHalf + clearance)));
  b.AddCollider(body, Box{h}, SE3(), "box").friction = kFriction;
  b.AddGround(kFriction);
  return b.Build();
}

// The box this model can simulate: 3D if it can, else planar (nullptr: neither).
std::shared_ptr<const Scene> BoxFor(const ModelInfo& info) {
  for (bool planar : {false, true}) {
    std::shared_ptr<const Scene> scene = RestingBox(planar, info.conformance.resting_clearance_m);
    if (CheckSupport(info.capabilities, *scene).empty()) return scene;
  }
  return nullptr;
}

// A scene with actuators for the control checks: the cartpole, or the planar box pushed along x.
std::unique_ptr<Simulator> ActuatedSimulator(const ModelInfo& info) {
  std::vector<std::shared_ptr<const Scene>> candidates = {CartpoleScene()};
  {
    SceneBuilder b("conformance_pushed_box_planar");
    b.SetGravity(Vec3(0.0, -9.81, 0.0));
    Eigen::Matrix<double, 4, 2> A;
    A << 1, 0, 0, 1, -1, 0, 0, -1;
    const int body = b.AddPlanarBody("box", 1.0, 0.03, Vec3(0.0, kHalf, 0.0));
    b.AddCollider(body, MakePolygon2(A, VecX::Constant(4, kHalf)), SE3(), "box");
    b.AddGroundPlane2(kFriction);
    Actuator push;
    push.name = "push";
    push.body = body;
    push.dof = 1;  // x of the planar joint's (theta, x, y)
    b.AddActuator(push);
    candidates.push_back(b.Build());
  }
  for (const auto& scene : candidates) {
    if (!CheckSupport(info.capabilities, *scene).empty()) continue;
    try {
      return MakeSimulator(info.name, scene, {});
    } catch (const Unsupported&) {
    }
  }
  return nullptr;
}

// Bit for bit (NaNs included).
bool BitEqual(const State& a, const State& b) {
  return a.q.size() == b.q.size() && a.v.size() == b.v.size() && std::memcmp(&a.t, &b.t, sizeof(double)) == 0 &&
         std::memcmp(a.q.data(), b.q.data(), sizeof(double) * a.q.size()) == 0 &&
         std::memcmp(a.v.data(), b.v.data(), sizeof(double) * a.v.size()) == 0;
}

class Conformance : public ::testing::TestWithParam<std::string> {
 protected:
  const ModelInfo& info() const { return FindModel(GetParam()); }
};

TEST_P(Conformance, BadStateIsAnErrorOrAFailedStep) {
  const auto scene = BoxFor(info());
  ASSERT_NE(scene, nullptr) << "the model runs neither the 3D nor the planar box";
  auto sim = MakeSimulator(info().name, scene, {});
  const State good = DefaultState(*scene);

  State wrong = good;
  wrong.q.resize(good.q.size() + 1);
  EXPECT_THROW(sim->Step(wrong, {}), InvalidArgument);
  wrong = good;
  wrong.v.resize(0);
  EXPECT_THROW(sim->Step(wrong, {}), InvalidArgument);
  EXPECT_THROW(sim->Step(*std::make_unique<State>(good), Control{VecX::Zero(scene->nu() + 1)}), InvalidArgument);

  for (int which = 0; which < 3; ++which) {
    State bad = good;
    if (which == 0) bad.q[0] = std::numeric_limits<double>::quiet_NaN();
    if (which == 1) bad.v[bad.v.size() - 1] = std::numeric_limits<double>::infinity();
    if (which == 2) bad.t = std::numeric_limits<double>::quiet_NaN();
    const State before = bad;
    const StepReport r = sim->Step(bad, {});
    EXPECT_EQ(r.status, StepStatus::kNonFinite) << "case " << which;
    EXPECT_FALSE(r.message.empty());
    EXPECT_TRUE(BitEqual(bad, before)) << "a failed step changed the state (case " << which << ")";
  }
  // The model still steps after refusing bad input.
  State s = good;
  EXPECT_TRUE(sim->Step(s, {}).ok());
}

TEST_P(Conformance, BadControlIsAnErrorOrAFailedStep) {
  auto sim = ActuatedSimulator(info());
  if (sim == nullptr) GTEST_SKIP() << "no actuated scene this model runs";
  const int nu = sim->scene().nu();
  ASSERT_GT(nu, 0);
  State s = DefaultState(sim->scene());
  const State before = s;
  EXPECT_THROW(sim->Step(s, Control{VecX::Zero(nu + 1)}), InvalidArgument);
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    const StepReport r = sim->Step(s, Control{VecX::Constant(nu, bad)});
    EXPECT_EQ(r.status, StepStatus::kNonFinite);
    EXPECT_TRUE(BitEqual(s, before));
  }
  EXPECT_TRUE(sim->Step(s, Control{VecX::Constant(nu, 0.5)}).ok());
}

TEST_P(Conformance, RestingBoxStaysPut) {
  const auto scene = BoxFor(info());
  ASSERT_NE(scene, nullptr);
  auto sim = MakeSimulator(info().name, scene, info().conformance.resting_options);
  State s = DefaultState(*scene);
  const State start = s;
  const int steps = static_cast<int>(std::lround(1.0 / sim->timestep()));
  double drift = 0.0;
  for (int i = 0; i < steps; ++i) {
    const StepReport r = sim->Step(s, {});
    ASSERT_TRUE(r.status == StepStatus::kOk || r.status == StepStatus::kNotConverged)
        << "step " << i << ": " << ToString(r.status) << " " << r.message;
    // The box's position: the free joint's translation (q 0..2) or the planar joint's (x, y).
    const int n = scene->IsPlanar() ? 2 : 3;
    const VecX p = s.q.head(n), p0 = start.q.head(n);
    drift = std::max(drift, (p - p0).norm());
  }
  EXPECT_LE(drift, info().conformance.resting_drift_m) << "over 1 s at " << sim->timestep() << " s steps";
  RecordProperty("resting_drift_m", options_detail::FormatDouble(drift));
}

// A model that reports its contact points gives, for the box resting 1 s later, points whose
// normal forces carry its weight (1 kg: 9.81 N, to 2 %) without pulling; none before the first
// step or after a refused one. (Friction inside the cone is not asked: a resting box's four
// corners are statically indeterminate, and nimble's boxed friction rows reach outside the
// circular cone, which the criteria are there to show.)
TEST_P(Conformance, ContactPointsCarryTheRestingWeight) {
  const auto scene = BoxFor(info());
  ASSERT_NE(scene, nullptr);
  auto sim = MakeSimulator(info().name, scene, info().conformance.resting_options);
  if (!sim->ReportsContactPoints()) GTEST_SKIP() << "the model does not report contact points";
  EXPECT_TRUE(sim->ContactPoints().empty());
  State s = DefaultState(*scene);
  const int steps = static_cast<int>(std::lround(1.0 / sim->timestep()));
  for (int i = 0; i < steps; ++i) ASSERT_TRUE(sim->Step(s, {}).ok() || i + 1 < steps);
  MultibodyData data(scene->model);
  const ContactCriteria c = MeasureContactCriteria(*scene, data, s, sim->timestep(), sim->ContactPoints());
  EXPECT_GT(c.points, 0);
  EXPECT_NEAR(c.normal_force_n, 9.81, 0.02 * 9.81);
  EXPECT_LE(c.adhesion_n, 1e-6 * 9.81);
  State bad = s;
  bad.v[0] = std::numeric_limits<double>::quiet_NaN();
  sim->Step(bad, {});
  EXPECT_TRUE(sim->ContactPoints().empty());
}

// Measuring is free of side effects: an instance whose contact points are read after every step
// takes the same steps as one never asked (the box sliding onto its corner, 30 steps).
TEST_P(Conformance, ReadingContactPointsChangesNoStep) {
  const auto scene = BoxFor(info());
  ASSERT_NE(scene, nullptr);
  auto measured = MakeSimulator(info().name, scene, info().conformance.resting_options);
  auto plain = MakeSimulator(info().name, scene, info().conformance.resting_options);
  if (!measured->ReportsContactPoints()) GTEST_SKIP() << "the model does not report contact points";
  State a = DefaultState(*scene);
  a.v[scene->IsPlanar() ? 1 : 3] = 0.5;  // sliding along x
  State b = a;
  for (int i = 0; i < 30; ++i) {
    measured->Step(a, {});
    (void)measured->ContactPoints();
    plain->Step(b, {});
    if (info().conformance.bit_reproducible) {
      ASSERT_TRUE(BitEqual(a, b)) << "step " << i;
    } else {
      ASSERT_LT((a.q - b.q).lpNorm<Eigen::Infinity>(), 1e-9) << "step " << i;
    }
  }
}

// --- The optional interfaces (models/simulator.h): each is null, or consistent with the model's
// other outputs on the resting box (collider 0 the box, collider 1 the ground).

// Options under which the model makes the most of its optional interfaces: its design
// parameters on, where it has that option.
OptionMap InterfaceOptions(const ModelInfo& info) {
  OptionMap options = info.conformance.resting_options;
  for (const OptionInfo& o : info.options()) {
    if (o.key == "design_derivatives") options["design_derivatives"] = "true";
  }
  return options;
}

// Collider meshes: one per collider in collider order, their world vertices at q where the
// scene puts the box (its lowest corner at the start clearance), and the potential's active
// contacts those of the step's report.
TEST_P(Conformance, MeshPotentialIsNullOrDescribesTheColliders) {
  const auto scene = BoxFor(info());
  ASSERT_NE(scene, nullptr);
  auto sim = MakeSimulator(info().name, scene, InterfaceOptions(info()));
  MeshPotential* mesh = sim->mesh_potential();
  if (mesh == nullptr) GTEST_SKIP() << "no collider meshes";
  const std::vector<ColliderMesh>& meshes = mesh->meshes();
  ASSERT_EQ(meshes.size(), scene->colliders.size());
  State s = DefaultState(*scene);
  ContactConfiguration x;
  mesh->MeshConfiguration(s.q, &x);
  ASSERT_EQ(x.world.size(), meshes.size());
  for (size_t m = 0; m < meshes.size(); ++m) {
    EXPECT_EQ(meshes[m].collider, static_cast<int>(m));
    EXPECT_EQ(x.world[m].rows(), meshes[m].vertices.rows());
  }
  EXPECT_EQ(meshes[0].body, 0);
  EXPECT_NEAR(x.world[0].col(2).minCoeff(), info().conformance.resting_clearance_m, 1e-12);  // the box's bottom
  mesh->contact_potential().BeginStep(x);
  EXPECT_TRUE(std::isfinite(mesh->contact_potential().Evaluate(x, nullptr, false, false)));
  const StepReport r = sim->Step(s, {});
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.contacts, mesh->contact_potential().ActiveContacts());
}

// The solve's breakdown: the step's iterations, phases that fit inside the step's time.
TEST_P(Conformance, SolveBreakdownIsNullOrFitsInsideTheStep) {
  const auto scene = BoxFor(info());
  ASSERT_NE(scene, nullptr);
  auto sim = MakeSimulator(info().name, scene, InterfaceOptions(info()));
  State s = DefaultState(*scene);
  const StepReport r = sim->Step(s, {});
  ASSERT_TRUE(r.ok()) << r.message;
  const SolveBreakdown* b = sim->last_solve_breakdown();
  if (b == nullptr) GTEST_SKIP() << "no solve breakdown";
  EXPECT_EQ(b->newton_iterations, r.iterations);
  EXPECT_GE(b->line_search_evaluations, 0);
  for (double t : {b->contact_s, b->step_bound_s, b->linear_solve_s}) EXPECT_GE(t, 0.0);
  EXPECT_LE(b->contact_s + b->step_bound_s + b->linear_solve_s, r.wall_time_s);
}

// Design vertices: three design parameters per id, named after it, and a body point's design
// Jacobian of 3 x np.
TEST_P(Conformance, DesignVerticesAreNullOrNameTheDesignParameters) {
  const auto scene = BoxFor(info());
  ASSERT_NE(scene, nullptr);
  auto sim = MakeSimulator(info().name, scene, InterfaceOptions(info()));
  const DesignVertices* design = sim->design_vertices();
  if (design == nullptr) GTEST_SKIP() << "no design vertices";
  const std::vector<DesignVertexId> ids = design->DesignVertexIds();
  const std::vector<std::string> names = sim->DesignParameterNames();
  ASSERT_EQ(names.size(), 3 * ids.size());
  EXPECT_EQ(sim->DesignParameters().size(), static_cast<int>(names.size()));
  for (size_t k = 0; k < ids.size(); ++k) {
    EXPECT_EQ(names[3 * k + 2], "vertex:" + ids[k].collider + ":" + std::to_string(ids[k].vertex) + ":z");
  }
  const MatX J = design->BodyPointDesignJacobian(DefaultState(*scene).q, 0);
  EXPECT_EQ(J.rows(), 3);
  EXPECT_EQ(J.cols(), static_cast<int>(names.size()));
}

// Surface points: some on every collider, and more on the box than its 8 corners.
TEST_P(Conformance, ColliderPointsAreNullOrSampleTheBox) {
  const auto scene = BoxFor(info());
  ASSERT_NE(scene, nullptr);
  auto sim = MakeSimulator(info().name, scene, InterfaceOptions(info()));
  const ColliderPoints* points = sim->collider_points();
  if (points == nullptr) GTEST_SKIP() << "no collider points";
  EXPECT_GT(points->PointCount(0), 8);
  EXPECT_GT(points->PointCount(1), 0);
}

// Convex hulls: one per collider in collider order; the box is convex, its hull its 8 corners.
TEST_P(Conformance, ColliderHullsAreNullOrOnePerCollider) {
  const auto scene = BoxFor(info());
  ASSERT_NE(scene, nullptr);
  auto sim = MakeSimulator(info().name, scene, InterfaceOptions(info()));
  const ColliderHulls* hulls = sim->collider_hulls();
  if (hulls == nullptr) GTEST_SKIP() << "no collider hulls";
  const std::vector<ColliderHullSummary> h = hulls->Hulls();
  ASSERT_EQ(h.size(), scene->colliders.size());
  for (size_t i = 0; i < h.size(); ++i) {
    EXPECT_EQ(h[i].collider, static_cast<int>(i));
    EXPECT_LE(h[i].hull_vertices, h[i].mesh_vertices);
  }
  EXPECT_TRUE(h[0].convex);
  EXPECT_EQ(h[0].hull_vertices, 8);
  EXPECT_NEAR(h[0].hull_volume, std::pow(2 * kHalf, 3), 1e-12);
}

// Contact forces are the contact points' pair sums (friction aside), and for the box resting 1 s
// the ground's force on it carries its weight; a model that does not report them gives none.
TEST_P(Conformance, ContactForcesAreThePairSumsOfContactPoints) {
  const auto scene = BoxFor(info());
  ASSERT_NE(scene, nullptr);
  auto sim = MakeSimulator(info().name, scene, info().conformance.resting_options);
  State s = DefaultState(*scene);
  const int steps = static_cast<int>(std::lround(1.0 / sim->timestep()));
  for (int i = 0; i < steps; ++i) ASSERT_TRUE(sim->Step(s, {}).ok() || i + 1 < steps);
  const std::vector<BodyPairForce> forces = sim->ContactForces();
  if (!sim->ReportsContactForces()) {
    EXPECT_TRUE(forces.empty());
    GTEST_SKIP() << "the model does not report contact forces";
  }
  const std::vector<BodyPairForce> sums = SumPairForces(sim->ContactPoints());
  ASSERT_EQ(forces.size(), sums.size());
  ASSERT_EQ(forces.size(), 1u) << "one pair: the box and the ground";
  EXPECT_EQ(forces[0].body_a, sums[0].body_a);
  EXPECT_EQ(forces[0].force_on_a, sums[0].force_on_a);
  const double up = forces[0].body_a == 0 ? forces[0].force_on_a.z() : -forces[0].force_on_a.z();
  EXPECT_NEAR(up, 9.81, 0.02 * 9.81);
}

// A contact state and a free-flight state, both moving. In contact: the box tilted so that one
// corner (planar: one vertex) is `depth` into the ground (1 mm; barrier models: 1 mm above it),
// sliding and turning. A single corner
// keeps the contact problem non-degenerate (four coplanar corners are not: their impulses are
// not unique), and 1 mm of depth keeps the contact under the differences' perturbations, so the
// step is smooth there. In flight: the box 0.3 m up (silico's interior point needs more
// iterations the farther a body is from the ground: past its 30 at 1 m with this velocity).
std::vector<State> DerivativeStates(const Scene& scene, double depth) {
  State contact = DefaultState(scene);
  State flight = DefaultState(scene);
  if (scene.IsPlanar()) {  // (x, y, theta), v = (omega_z, v_x, v_y)
    const double theta = 0.3;
    contact.q << 0.0, kHalf * (std::cos(theta) + std::sin(theta)) - depth, theta;
    contact.v << 0.4, 0.3, -0.2;
    flight.q[1] += 1.0;
    flight.v << 0.3, 0.2, -0.1;
  } else {  // free joint: (p, quaternion w x y z), v = (omega_B, v_B) (core/multibody/joint.h)
    const Quat R = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitX())) * Quat(Eigen::AngleAxisd(0.2, Vec3::UnitY()));
    double lowest = 0.0;
    for (int i = 0; i < 8; ++i) {
      const Vec3 corner(i & 1 ? kHalf : -kHalf, i & 2 ? kHalf : -kHalf, i & 4 ? kHalf : -kHalf);
      lowest = std::min(lowest, (R * corner).z());
    }
    contact.q.head<3>() = Vec3(0.0, 0.0, -lowest - depth);
    contact.q.segment<4>(3) << R.w(), R.x(), R.y(), R.z();
    contact.v << 0.3, 0.0, -0.2, 0.5, -0.3, 0.2;
    flight.q[2] += 0.3;
    flight.v << 0.2, -0.1, 0.3, 0.4, 0.1, -0.2;
  }
  return {contact, flight};
}

TEST_P(Conformance, DerivativesMatchDifferencesOfItsOwnStep) {
  const auto scene = BoxFor(info());
  ASSERT_NE(scene, nullptr);
  if (!info().capabilities.has_derivatives()) {
    auto sim = MakeSimulator(info().name, scene, {});
    StepDerivatives d;
    EXPECT_THROW(sim->Derivatives(DefaultState(*scene), {}, &d), Unsupported);
    StepGradient g;
    EXPECT_THROW(sim->Vjp(DefaultState(*scene), {}, VecX::Zero(scene->nv()), VecX::Zero(scene->nv()), &g), Unsupported);
    return;
  }
  auto sim = MakeSimulator(info().name, scene, info().conformance.derivative_options);
  FdOptions ridders;
  ridders.method = FdMethod::kRidders;
  ridders.ridders_step = info().conformance.ridders_step;
  const char* names[] = {"contact", "free flight"};
  const std::vector<State> states = DerivativeStates(*scene, info().conformance.contact_depth_m);
  for (size_t k = 0; k < states.size(); ++k) {
    StepDerivatives analytic;
    sim->Derivatives(states[k], {}, &analytic);
    const StepDerivatives reference = FiniteDifferenceStepDerivatives(*sim, states[k], {}, ridders);
    const double error = MaxStepDerivativeError(analytic, reference);
    EXPECT_LE(error, info().conformance.derivative_tolerance) << names[k] << " state";
    RecordProperty(std::string("derivative_error_") + (k == 0 ? "contact" : "flight"), options_detail::FormatDouble(error));
  }
  State nan = states[0];
  nan.v[0] = std::numeric_limits<double>::quiet_NaN();
  StepDerivatives d;
  EXPECT_THROW(sim->Derivatives(nan, {}, &d), InvalidArgument);
}

TEST_P(Conformance, VjpIsTheTransposedJacobianProduct) {
  const auto scene = BoxFor(info());
  ASSERT_NE(scene, nullptr);
  if (!info().capabilities.has_derivatives()) GTEST_SKIP() << "no derivatives";
  auto sim = MakeSimulator(info().name, scene, info().conformance.derivative_options);
  const int nv = scene->nv();
  const VecX lq = VecX::LinSpaced(nv, -1.0, 2.0), lv = VecX::LinSpaced(nv, 0.5, -1.5);
  for (const State& s : DerivativeStates(*scene, info().conformance.contact_depth_m)) {
    StepDerivatives d;
    sim->Derivatives(s, {}, &d);
    StepGradient expected, got;
    TransposedJacobianProduct(d, lq, lv, &expected);
    sim->Vjp(s, {}, lq, lv, &got);
    EXPECT_FALSE(got.alternative);
    for (const auto& [a, b] : {std::pair{&got.q, &expected.q}, {&got.v, &expected.v}, {&got.u, &expected.u}, {&got.p, &expected.p}}) {
      ASSERT_EQ(a->size(), b->size());
      if (b->size() == 0) continue;
      EXPECT_LE((*a - *b).norm(), 1e-8 * std::max(1.0, b->norm()));
    }
  }
  StepGradient g;
  EXPECT_THROW(sim->Vjp(DefaultState(*scene), {}, VecX::Zero(nv + 1), lv, &g), InvalidArgument);
}

// 60 steps of a box dropped from 0.3 m: landing, bouncing, settling.
std::vector<State> DropTrajectory(Simulator& sim, const Scene& scene) {
  State s = DefaultState(scene);
  s.q[scene.IsPlanar() ? 1 : 2] += 0.3;  // y of the planar joint (x, y, theta), z of the free joint
  std::vector<State> out;
  for (int i = 0; i < 60; ++i) {
    sim.Step(s, {});
    out.push_back(s);
  }
  return out;
}

TEST_P(Conformance, TwoThreadsGiveTheStatesOfOne) {
  const auto scene = BoxFor(info());
  ASSERT_NE(scene, nullptr);
  const std::vector<State> reference = DropTrajectory(*MakeSimulator(info().name, scene, {}), *scene);
  auto a = MakeSimulator(info().name, scene, {});
  auto b = MakeSimulator(info().name, scene, {});
  std::vector<State> ra, rb;
  std::thread ta([&] { ra = DropTrajectory(*a, *scene); });
  std::thread tb([&] { rb = DropTrajectory(*b, *scene); });
  ta.join();
  tb.join();
  ASSERT_EQ(ra.size(), reference.size());
  ASSERT_EQ(rb.size(), reference.size());
  for (size_t i = 0; i < reference.size(); ++i) {
    for (const std::vector<State>* r : {&ra, &rb}) {
      if (info().conformance.bit_reproducible) {
        ASSERT_TRUE(BitEqual((*r)[i], reference[i])) << "step " << i;
      } else {
        ASSERT_LE((((*r)[i].q - reference[i].q).norm() + ((*r)[i].v - reference[i].v).norm()), 1e-9) << "step " << i;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryModel, Conformance, ::testing::ValuesIn(ModelNames()),
                         [](const auto& param) { return param.param; });

}  // namespace conformance_test
}  // namespace arena
