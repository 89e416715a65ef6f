// The incremental-potential core with a test contact potential (a smooth 1/z barrier of every
// moving vertex against the plane z = 0): the step energy's gradient and Hessian against
// second differences on the configuration manifold (free bodies and a chain with limits, PD
// and torque actuators); its input derivatives against differences of the gradient; a free
// flight in closed form; the step's implicit-function derivatives against Ridders differences
// of the step itself, in flight and in contact; a box at rest on the barrier stays above z = 0.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/math/so3.h"
#include "core/multibody/configuration.h"
#include "core/scene/scene_builder.h"
#include "models/finite_difference_derivatives.h"
#include "models/incremental_potential/ip_simulator.h"
#include "solvers/finite_difference.h"

namespace arena {
namespace ip_simulator_test {


// kappa / z for every vertex of a moving mesh: smooth, global, infinite at z <= 0.
class GroundBarrier final : public ContactPotential {
 public:
  explicit GroundBarrier(double kappa) : kappa_(kappa) {}
  double Evaluate(const ContactConfiguration& x, ContactDerivativeSink* sink, bool hessian, bool) override {
    double e = 0.0;
    for (size_t m = 0; m < x.world.size(); ++m) {
      if ((*x.meshes)[m].body == kWorldBody) continue;
      for (Eigen::Index v = 0; v < x.world[m].rows(); ++v) {
        const double z = x.world[m](v, 2);
        if (z <= 0.0) return kInf;
        e += kappa_ / z;
        if (sink == nullptr) continue;
        VecX g = VecX::Zero(3);
        g[2] = -kappa_ / (z * z);
        MatX H = MatX::Zero(3, 3);
        H(2, 2) = 2.0 * kappa_ / (z * z * z);
        sink->AddStencil(x, {{static_cast<int>(m), static_cast<int>(v)}}, g, hessian ? &H : nullptr);
      }
    }
    return e;
  }
  double MaxStep(const ContactConfiguration& x, const std::vector<PointsX3>& d) override {
    double alpha = 1.0;
    for (size_t m = 0; m < x.world.size(); ++m) {
      for (Eigen::Index v = 0; v < x.world[m].rows(); ++v) {
        if (d[m](v, 2) < 0.0) alpha = std::min(alpha, x.world[m](v, 2) / -d[m](v, 2));
      }
    }
    return alpha;
  }

 private:
  double kappa_;
};

class TestIpSimulator final : public IncrementalPotentialSimulator {
 public:
  TestIpSimulator(std::shared_ptr<const Scene> scene, const IpOptions& options, double kappa)
      : IncrementalPotentialSimulator(std::move(scene), options, [kappa](const std::vector<ColliderMesh>&) {
          return kappa > 0.0 ? std::make_unique<GroundBarrier>(kappa) : nullptr;
        }) {}
  std::string_view name() const override { return "ip_test"; }
  Capabilities capabilities() const override {
    Capabilities c;
    c.spatial = c.articulated = true;
    c.derivatives = DerivativeSource::kAnalytical;
    return c;
  }
};

// A free box and a three-link chain (revolute with limits, prismatic, ball) hanging from the
// world, with a PD, a torque and a velocity-target actuator.
std::shared_ptr<const Scene> BoxAndChain() {
  SceneBuilder b("ip_core_test");
  b.SetGravity(Vec3(0, 0, -9.81));
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(1.0, Vec3(0.2, 0.15, 0.1)),
                                SE3(ExpSO3(Vec3(0.2, -0.1, 0.3)), Vec3(0.0, 0.0, 0.5)));
  b.AddCollider(box, Box{Vec3(0.2, 0.15, 0.1)});
  JointModel hinge;
  hinge.type = JointType::kRevolute;
  hinge.axis = Vec3::UnitY();
  hinge.lower = -1.0;
  hinge.upper = 1.0;
  hinge.placement = SE3::FromTranslation(Vec3(1.0, 0.0, 1.5));
  hinge.damping = 0.3;
  hinge.armature = 0.05;
  const int l1 = b.AddBody("l1", kWorldBody, hinge, SpatialInertia::SolidBox(0.5, Vec3(0.05, 0.05, 0.2)));
  b.AddCollider(l1, Box{Vec3(0.05, 0.05, 0.2)}, SE3::FromTranslation(Vec3(0, 0, -0.2)));
  JointModel slide;
  slide.type = JointType::kPrismatic;
  slide.axis = Vec3::UnitZ();
  slide.placement = SE3::FromTranslation(Vec3(0.0, 0.0, -0.4));
  slide.stiffness = 20.0;
  slide.spring_reference = -0.05;
  const int l2 = b.AddBody("l2", l1, slide, SpatialInertia::SolidBox(0.3, Vec3(0.04, 0.04, 0.1)));
  b.AddCollider(l2, Box{Vec3(0.04, 0.04, 0.1)}, SE3::FromTranslation(Vec3(0, 0, -0.1)));
  JointModel ball;
  ball.type = JointType::kBall;
  ball.placement = SE3::FromTranslation(Vec3(0.0, 0.0, -0.2));
  const int l3 = b.AddBody("l3", l2, ball, SpatialInertia::SolidBox(0.2, Vec3(0.03, 0.03, 0.1)));
  b.AddCollider(l3, Box{Vec3(0.03, 0.03, 0.1)}, SE3::FromTranslation(Vec3(0, 0, -0.1)));
  Actuator pd;
  pd.name = "pd";
  pd.type = ActuatorType::kPdTarget;
  pd.body = l1;
  pd.kp = 30.0;
  pd.kd = 2.0;
  b.AddActuator(pd);
  Actuator motor;
  motor.name = "motor";
  motor.body = l2;
  motor.gear = 2.0;
  motor.ctrl_lower = -5.0;
  motor.ctrl_upper = 5.0;
  b.AddActuator(motor);
  Actuator servo;  // a velocity target on the slide, beside its motor
  servo.name = "servo";
  servo.type = ActuatorType::kVelocityTarget;
  servo.body = l2;
  servo.kd = 4.0;
  b.AddActuator(servo);
  b.AddGround(0.5);
  return b.Build();
}

State MovingState(const Scene& scene) {
  State s = DefaultState(scene);
  s.v = VecX::LinSpaced(scene.nv(), -0.4, 0.5);
  s.q = Integrate(scene.model, s.q, VecX::LinSpaced(scene.nv(), 0.1, -0.1));
  return s;
}

// Gradient and Hessian of e(eps) at 0 by central and second differences.
template <class F>
void Differences(const F& e, int n, double h, VecX* g, MatX* H) {
  g->resize(n);
  H->resize(n, n);
  for (int i = 0; i < n; ++i) {
    const VecX a = h * VecX::Unit(n, i);
    (*g)[i] = (e(a) - e(-a)) / (2 * h);
    for (int j = 0; j < n; ++j) {
      const VecX b = h * VecX::Unit(n, j);
      (*H)(i, j) = (e(a + b) - e(a - b) - e(-a + b) + e(-a - b)) / (4 * h * h);
    }
  }
}

TEST(StepEnergy, GradientAndHessianMatchDifferences) {
  const auto scene = BoxAndChain();
  for (bool lumped : {true, false}) {
    GroundBarrier barrier(1e-3);
    StepEnergyOptions o;
    o.timestep = 0.02;
    o.lumped_mass = lumped;
    StepEnergy energy(scene, BuildColliderMeshes(*scene, {}), &barrier, o);
    energy.Begin(MovingState(*scene), Control{Vec3(0.3, 1.5, -0.4)});
    const VecX q = Integrate(scene->model, MovingState(*scene).q, VecX::LinSpaced(scene->nv(), 0.02, -0.03));
    VecX g;
    MatX H;
    energy.Evaluate(q, &g, &H, false);
    VecX g_fd;
    MatX H_fd;
    Differences([&](const VecX& eps) { return energy.Evaluate(Integrate(scene->model, q, eps), nullptr, nullptr, false); },
                scene->nv(), 1e-4, &g_fd, &H_fd);
    EXPECT_LT(CorrectedRelativeError(g, g_fd), 1e-7) << "lumped " << lumped;
    EXPECT_LT(CorrectedRelativeError(H, H_fd), 1e-5) << "lumped " << lumped;
  }
}

TEST(StepEnergy, InputDerivativesMatchDifferencesOfTheGradient) {
  const auto scene = BoxAndChain();
  GroundBarrier barrier(1e-3);
  StepEnergyOptions o;
  o.timestep = 0.02;
  StepEnergy energy(scene, BuildColliderMeshes(*scene, {}), &barrier, o);
  const State start = MovingState(*scene);
  const VecX u = Vec3(0.3, 1.5, -0.4);
  const VecX q = Integrate(scene->model, start.q, VecX::LinSpaced(scene->nv(), 0.02, -0.03));
  energy.Begin(start, Control{u});
  MatX dq, dv, du;
  energy.InputDerivatives(q, &dq, &dv, &du);
  const int nv = scene->nv(), nu = scene->nu();
  const LocalFunction gradient_of = [&](const VecX& dx) {
    State s = start;
    s.q = Integrate(scene->model, start.q, dx.head(nv));
    s.v = start.v + dx.segment(nv, nv);
    energy.Begin(s, Control{u + dx.tail(nu)});
    VecX g;
    energy.Evaluate(q, &g, nullptr, false);
    return g;
  };
  const MatX fd = FiniteDifferenceJacobian(gradient_of, 2 * nv + nu, {}).jacobian;
  MatX got(nv, 2 * nv + nu);
  got << dq, dv, du;
  EXPECT_LT(CorrectedRelativeError(got, fd), 1e-6);
}

TEST(IpSimulator, FreeFlightIsSymplecticEuler) {
  SceneBuilder b("flight");
  b.SetGravity(Vec3(0, 0, -9.81));
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(2.0, Vec3(0.1, 0.2, 0.3)), SE3::FromTranslation(Vec3(0, 0, 3)));
  b.AddCollider(box, Box{Vec3(0.1, 0.2, 0.3)});
  IpOptions o;
  o.timestep = 0.01;
  TestIpSimulator sim(b.Build(), o, 0.0);
  State s = DefaultState(sim.scene());
  s.v << 0, 0, 0, 0.5, -0.2, 1.0;  // translating, not rotating
  const State s0 = s;
  ASSERT_TRUE(sim.Step(s, {}).ok());
  const Vec3 v1 = Vec3(0.5, -0.2, 1.0) + 0.01 * Vec3(0, 0, -9.81);
  EXPECT_LT((s.v.tail<3>() - v1).norm(), 1e-9);
  EXPECT_LT(s.v.head<3>().norm(), 1e-9);
  EXPECT_LT((s.q.head<3>() - (s0.q.head<3>() + 0.01 * v1)).norm(), 1e-10);
}

TEST(IpSimulator, DerivativesMatchRiddersInFlightAndInContact) {
  const auto scene = BoxAndChain();
  IpOptions o;
  o.timestep = 0.02;
  TestIpSimulator sim(scene, o, 1e-3);
  FdOptions ridders;
  ridders.method = FdMethod::kRidders;
  ridders.ridders_step = 1e-4;
  State flight = MovingState(*scene);
  State contact = MovingState(*scene);
  contact.q[2] = 0.2;  // the box a few cm above the plane: the barrier acts
  for (const State* s : {&flight, &contact}) {
    StepDerivatives analytic;
    const Control u{Vec3(0.3, 1.5, -0.4)};
    sim.Derivatives(*s, u, &analytic);
    const StepDerivatives reference = FiniteDifferenceStepDerivatives(sim, *s, u, ridders);
    EXPECT_LT(MaxStepDerivativeError(analytic, reference), 1e-6) << (s == &flight ? "flight" : "contact");
  }
}

// The height of the box's lowest corner (half extents 0.2, 0.15, 0.1; its pose is q[0..6]).
double LowestBoxCorner(const State& s) {
  const Mat3 R = Quat(s.q[3], s.q[4], s.q[5], s.q[6]).normalized().toRotationMatrix();
  double lowest = kInf;
  for (int c = 0; c < 8; ++c) {
    const Vec3 corner(c & 1 ? 0.2 : -0.2, c & 2 ? 0.15 : -0.15, c & 4 ? 0.1 : -0.1);
    lowest = std::min(lowest, (R * corner).z() + s.q[2]);
  }
  return lowest;
}

// The box drops onto the barrier and settles: its lowest corner never reaches z = 0, and its
// rocking dies out (implicit Euler damps it; without friction it may keep sliding sideways).
TEST(IpSimulator, BoxRestsAboveTheBarrier) {
  const auto scene = BoxAndChain();
  IpOptions o;
  o.timestep = 0.02;
  TestIpSimulator sim(scene, o, 1e-4);
  State s = DefaultState(*scene);
  double lowest = kInf;
  for (int i = 0; i < 150; ++i) {
    const StepReport r = sim.Step(s, {});
    ASSERT_TRUE(r.ok()) << i << ": " << r.message;
    lowest = std::min(lowest, LowestBoxCorner(s));
  }
  EXPECT_GT(lowest, 0.0);
  // Without friction it may spin about z and slide; it no longer tips or bounces.
  const Mat3 R = Quat(s.q[3], s.q[4], s.q[5], s.q[6]).normalized().toRotationMatrix();
  const Vec3 omega_W = R * s.v.head<3>(), v_W = R * s.v.segment<3>(3);
  EXPECT_LT(omega_W.head<2>().norm(), 1e-3);
  EXPECT_LT(std::abs(v_W.z()), 1e-3);
}

// Steps `a` and `b` from the same state `steps` times, each step from a's state (a comparison per
// step, not of trajectories): every q+ of b within `tolerance` of a's. *last is a's last state,
// *lowest its lowest box corner over the steps.
void StepBoth(TestIpSimulator& a, TestIpSimulator& b, const Scene& scene, int steps, double tolerance, State* last,
              double* lowest) {
  State sa = DefaultState(scene), sb = sa;
  *lowest = kInf;
  for (int i = 0; i < steps; ++i) {
    ASSERT_TRUE(a.Step(sa, {}).ok()) << i;
    *lowest = std::min(*lowest, LowestBoxCorner(sa));
    const StepReport rb = b.Step(sb, {});
    ASSERT_TRUE(rb.ok()) << i << ": " << rb.message;
    ASSERT_LT((sa.q - sb.q).lpNorm<Eigen::Infinity>(), tolerance) << i;
    sb = sa;
  }
  *last = sa;
}

// solver=lm (Levenberg-Marquardt) minimises the same incremental potential: over the box's drop
// onto the barrier and the chain's swing (150 steps) every step lands on the line-search solver's minimiser
// (to well within newton_tolerance's effect on q), and the derivatives agree.
TEST(IpSimulator, LevenbergMarquardtTakesTheSameSteps) {
  const auto scene = BoxAndChain();
  IpOptions newton;
  newton.timestep = 0.02;
  IpOptions lm = newton;
  lm.solver = NewtonMethod::kLevenbergMarquardt;
  TestIpSimulator a(scene, newton, 1e-4), b(scene, lm, 1e-4);
  State sa;
  double lowest = kInf;
  ASSERT_NO_FATAL_FAILURE(StepBoth(a, b, *scene, 150, 1e-8, &sa, &lowest));
  // The box came down onto the barrier (it rests ~1.5 mm up), so contact steps were compared.
  EXPECT_LT(lowest, 5e-3);
  StepDerivatives da, db;
  a.Derivatives(sa, {}, &da);
  b.Derivatives(sa, {}, &db);
  EXPECT_LT((da.dv_dv - db.dv_dv).lpNorm<Eigen::Infinity>(), 1e-6);
}

// linear_solver=sparse_llt factorizes the same Newton systems: the same steps to round-off.
TEST(IpSimulator, SparseCholeskyTakesTheSameSteps) {
  const auto scene = BoxAndChain();
  IpOptions dense;
  dense.timestep = 0.02;
  IpOptions sparse = dense;
  sparse.linear_solver = CholeskySolver::kSparse;
  TestIpSimulator a(scene, dense, 1e-4), b(scene, sparse, 1e-4);
  State last;
  double lowest = kInf;
  ASSERT_NO_FATAL_FAILURE(StepBoth(a, b, *scene, 100, 1e-9, &last, &lowest));
}

}  // namespace ip_simulator_test
}  // namespace arena
