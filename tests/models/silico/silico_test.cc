// silico (seed 000): the paper's box-on-ground system (App. C), rest of a stacked pair, step
// derivatives against finite differences (rho = 1e-3, in and out of contact), and the rank of
// the collision program vs the single-level Jacobian in face-to-face contact (eq. 19).
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include <Eigen/LU>
#include <gtest/gtest.h>

#include "core/common/error.h"
#include "core/scene/scene_builder.h"
#include "models/finite_difference_derivatives.h"
#include "models/registry.h"
#include "models/silico/collision_program.h"
#include "models/silico/planar_problem.h"
#include "models/silico/silico.h"
#include "tests/models/silico/residual_differences.h"
#include "tests/models/silico/fig9_scene.h"

namespace arena {
namespace silico_test {
using silico_test::Fig9Polygon;

using silico::PlanarPair;

Eigen::Matrix<double, Eigen::Dynamic, 2> SquareFaces() {
  Eigen::Matrix<double, 4, 2> A;
  A << 0, -1, 1, 0, 0, 1, -1, 0;  // the appendix's order: bottom, right, top, left
  return A;
}

std::shared_ptr<const Scene> BoxOnGround(double half, double mass, double y, double mu = 0.5) {
  SceneBuilder b("box_on_ground");
  b.SetGravity(Vec3(0, -9.81, 0));
  const int body = b.AddPlanarBody("box", mass, 0.2, Vec3(0, y, 0));
  b.AddCollider(body, MakePolygon2(SquareFaces(), VecX::Constant(4, half)), SE3(), "box").friction = mu;
  b.AddGroundPlane2(mu);
  return b.Build();
}

std::unique_ptr<SilicoSimulator> MakeSilico(std::shared_ptr<const Scene> scene, SilicoOptions o) {
  return std::make_unique<SilicoSimulator>(std::move(scene), o);
}

// App. C (eqs. 57-59): a unit box (b = 1) resting on the ground at x = x- = (0, 1), theta = 0.
// The paper states the solution: contact point (0, 0), alpha = 1, lambda_P = (1, 0, 0, 0),
// floor dual 1, normal impulse 1, s_P = (0, 1, 2, 1), s_alpha = 1. Its normal impulse of 1
// corresponds to m g dt = 1, so the mass is chosen that way.
TEST(Silico, BoxOnGroundMatchesTheAppendixSolution) {
  const double dt = 0.1;
  const double mass = 1.0 / (9.81 * dt);
  auto scene = BoxOnGround(1.0, mass, 1.0);
  SilicoOptions o;
  o.timestep = dt;
  o.rho = 1e-8;
  o.max_iterations = 60;
  auto sim = MakeSilico(scene, o);
  State s = DefaultState(*scene);
  const StepReport r = sim->Step(s, Control{});
  ASSERT_TRUE(r.ok()) << r.message;
  const auto& pair = sim->problem().pairs().at(0);
  const VecX& y = sim->solver().primals();
  const VecX& z = sim->solver().duals();
  const VecX& sl = sim->solver().slacks();
  const int yo = pair.y_offset, zo = pair.z_offset;
  // Contact point c + x_P = (0, 0), alpha = 1.
  EXPECT_NEAR(y[yo + 0], 0.0, 1e-5);
  EXPECT_NEAR(y[yo + 1], -1.0, 1e-5);
  EXPECT_NEAR(y[yo + 2], 1.0, 1e-5);
  EXPECT_NEAR(z[zo + 0], 1.0, 1e-5);  // gamma
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(z[zo + 5 + i], i == 0 ? 1.0 : 0.0, 1e-5) << "lambda_P " << i;
  EXPECT_NEAR(z[zo + 9], 1.0, 1e-5);  // floor dual
  const double s_expected[4] = {0.0, 1.0, 2.0, 1.0};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(sl[zo + 5 + i], s_expected[i], 1e-5) << "s_P " << i;
  EXPECT_NEAR(sl[zo + 4], 1.0, 1e-5);  // s_alpha = alpha
  // At rest: no velocity, no sinking.
  EXPECT_LT(s.v.norm(), 1e-6);
  EXPECT_NEAR(s.q[1], 1.0, 1e-6);
}

// The paper's Fig. 8 (right) stack: two 0.5 m squares at rest, dt = 0.1 s, rho = 1e-10, 25
// steps. The tower must stay at rest: momentum within the solver tolerance. (The relaxation
// opens a gap alpha - 1 = rho / gamma in the first step, so the residual motion scales with
// rho / dt^2; at Fig. 8's settings it is ~1e-9.)
TEST(Silico, StackedPairStaysAtRest) {
  SceneBuilder b("stack");
  b.SetGravity(Vec3(0, -9.81, 0));
  const auto poly = MakePolygon2(SquareFaces(), VecX::Constant(4, 0.25));
  const int lower = b.AddPlanarBody("lower", 1.0, 0.2, Vec3(0.2, 0.25, 0));
  const int upper = b.AddPlanarBody("upper", 1.0, 0.2, Vec3(0.0, 0.75, 0));
  b.AddCollider(lower, poly, SE3(), "lower").friction = 0.5;
  b.AddCollider(upper, poly, SE3(), "upper").friction = 0.5;
  b.AddGroundPlane2(0.5);
  auto scene = b.Build();
  SilicoOptions o;
  o.timestep = 0.1;
  o.rho = 1e-10;
  auto sim = MakeSilico(scene, o);
  State s = DefaultState(*scene);
  const VecX q0 = s.q;
  double max_momentum = 0.0;
  for (int k = 0; k < 25; ++k) {
    const StepReport r = sim->Step(s, Control{});
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << r.message;
    EXPECT_EQ(r.contacts, 2);  // lower-floor and upper-lower; upper-floor is apart
    // Total linear momentum (m = 1 each) and angular (J = 0.2 each).
    const Vec2 p = Eigen::Rotation2Dd(s.q[2]) * s.v.segment<2>(1) + Eigen::Rotation2Dd(s.q[5]) * s.v.segment<2>(4);
    max_momentum = std::max({max_momentum, p.norm(), 0.2 * std::abs(s.v[0] + s.v[3])});
  }
  EXPECT_LT(max_momentum, 1e-7);
  EXPECT_LT((s.q - q0).norm(), 1e-7);
}

// The Fig. 9 polygon in contact / in flight, and an actuated body: IFT derivatives at rho = 1e-3
// against central differences of the step solved to a tight tolerance.
struct DerivativeCase {
  const char* name;
  std::shared_ptr<const Scene> scene;
  State state;
  VecX u;
  bool expect_contact;
};

// Frictionless contact (mu = 0): the cone of mu = 0 has no interior, so the pair keeps its
// friction variables in the cone of mu = 1 and applies none of them. The square slides on at its
// launch speed, resting on the floor.
TEST(Silico, FrictionlessSquareSlidesOnAtItsSpeed) {
  auto scene = BoxOnGround(0.25, 1.0, 0.25, 0.0);
  SilicoOptions o;
  o.timestep = 0.01;
  o.rho = 1e-8;
  o.max_iterations = 60;
  auto sim = MakeSilico(scene, o);
  State s = DefaultState(*scene);
  s.v << 0.0, 1.0, 0.0;  // (omega, v_x, v_y)
  for (int k = 0; k < 50; ++k) {
    const StepReport r = sim->Step(s, Control{});
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << r.message;
  }
  EXPECT_NEAR(s.v[1], 1.0, 1e-6);
  EXPECT_NEAR(s.q[0], 0.5, 1e-6);
  EXPECT_NEAR(s.q[1], 0.25, 1e-4);
}

TEST(Silico, StepDerivativesMatchFiniteDifferences) {
  std::vector<DerivativeCase> cases;
  {
    auto scene = Fig9Polygon(false);
    State s = DefaultState(*scene);
    s.q << 0.1, 0.42, 0.3;  // a corner pressed into the floor
    s.v << 0.5, 0.3, -0.8;
    cases.push_back({"corner contact", scene, s, VecX(), true});
    State f = DefaultState(*scene);
    f.q << 0.0, 1.2, 0.7;
    f.v << -0.4, 0.2, -1.0;
    cases.push_back({"free flight", scene, f, VecX(), false});
  }
  {
    auto scene = Fig9Polygon(true);
    State s = DefaultState(*scene);
    s.q << 0.0, 0.41, 0.1;
    s.v << 0.2, 0.5, -0.3;
    VecX u(3);
    u << 0.3, 2.0, 0.45;
    cases.push_back({"actuated, in contact", scene, s, u, true});
  }
  {
    SceneBuilder b("pair");
    b.SetGravity(Vec3(0, -9.81, 0));
    const auto poly = MakePolygon2(SquareFaces(), VecX::Constant(4, 0.25));
    const int lower = b.AddPlanarBody("lower", 1.0, 0.2, Vec3(0.05, 0.25, 0));
    const int upper = b.AddPlanarBody("upper", 1.0, 0.2, Vec3(0.0, 0.74, 0.05));
    b.AddCollider(lower, poly, SE3(), "lower").friction = 0.5;
    b.AddCollider(upper, poly, SE3(), "upper").friction = 0.5;
    b.AddGroundPlane2(0.5);
    auto scene = b.Build();
    State s = DefaultState(*scene);
    s.v << 0.1, 0.2, -0.1, -0.2, 0.3, -0.5;
    cases.push_back({"two blocks", scene, s, VecX(), true});
  }
  {
    // Frictionless: the square slides on at its speed, and the derivatives hold.
    auto scene = BoxOnGround(0.25, 1.0, 0.25 - 1e-3, 0.0);
    State s = DefaultState(*scene);
    s.v << 0.0, 1.0, 0.0;
    cases.push_back({"frictionless slide", scene, s, VecX(), true});
  }
  for (const DerivativeCase& c : cases) {
    SCOPED_TRACE(c.name);
    SilicoOptions o;
    o.timestep = 0.05;
    o.rho = 1e-3;
    o.residual_tolerance = 1e-13;
    o.max_iterations = 200;
    auto sim = MakeSilico(c.scene, o);
    State probe = c.state;
    const StepReport r = sim->Step(probe, Control{c.u});
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_EQ(r.contacts > 0, c.expect_contact);
    StepDerivatives analytic;
    sim->Derivatives(c.state, Control{c.u}, &analytic);
    FdOptions fd;
    fd.step = 1e-6;
    const StepDerivatives numeric = FiniteDifferenceStepDerivatives(*sim, c.state, Control{c.u}, fd);
    EXPECT_LT(MaxStepDerivativeError(analytic, numeric), 1e-5);
  }
}

// The step's Jacobian dF/d(y, z) (geometry by AD, duals by hand: planar_problem.cc) and the
// parameter Jacobian dF/dtheta against central differences of the residual, at a generic point
// (primals and duals away from any solution), for every kind of pair: a padded polygon (a
// Minkowski sum), a capsule and a disk on moving bodies, against each other, a fixed wall and
// the floor.
TEST(Silico, StepJacobiansMatchFiniteDifferencesForEveryShapePair) {
  SceneBuilder b("shapes");
  b.SetGravity(Vec3(0, -9.81, 0));
  const int padded = b.AddPlanarBody("padded", 1.0, 0.2, Vec3(0.0, 0.5, 0.2));
  const int capsule = b.AddPlanarBody("capsule", 1.0, 0.1, Vec3(0.6, 0.4, -0.3));
  const int disk = b.AddPlanarBody("disk", 0.5, 0.05, Vec3(-0.5, 0.3, 0.0));
  const Mat3 turn = Eigen::AngleAxisd(0.3, Vec3::UnitZ()).toRotationMatrix();
  b.AddCollider(padded, MakePaddedPolygon2(SquareFaces(), VecX::Constant(4, 0.2), 0.05),
                SE3::FromTranslation(Vec3(0.05, 0.0, 0.0)), "padded")
      .friction = 0.4;
  b.AddCollider(capsule, Capsule2{0.1, 0.2}, SE3(turn, Vec3(0.0, 0.02, 0.0)), "capsule").friction = 0.6;
  // The disk is frictionless: its four pairs check the columns of a frictionless pair (friction
  // variables in the cone of mu = 1, no tangential impulse).
  b.AddCollider(disk, Disk2{0.15}, SE3(), "disk").friction = 0.0;
  b.AddCollider(kWorldBody, MakePolygon2(SquareFaces(), VecX::Constant(4, 0.3)),
                SE3::FromTranslation(Vec3(1.5, 0.3, 0.0)), "wall");
  b.AddGroundPlane2(0.5);
  auto scene = b.Build();
  silico::PlanarProblem problem(*scene);
  ASSERT_EQ(problem.pairs().size(), 9u);  // 3 moving pairs, 3 against the wall, 3 on the floor

  std::mt19937 rng(7);
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  const int nb = 3, ny = problem.num_primals(), nz = problem.cone().size();
  VecX theta(problem.num_parameters());
  for (int i = 0; i < theta.size(); ++i) theta[i] = uniform(-0.5, 0.5);
  for (int k = 0; k < nb; ++k) theta[3 * k + 1] += 0.5;  // heights
  VecX y(ny), z(nz);
  for (int i = 0; i < ny; ++i) y[i] = uniform(-0.5, 0.5);
  for (int i = 0; i < nz; ++i) z[i] = uniform(0.1, 1.0);
  for (const PlanarPair& pair : problem.pairs()) y[pair.y_offset + 2] = uniform(0.8, 1.2);  // alpha
  const double dt = 0.05;
  auto set_step = [&](const VecX& th) {
    problem.SetStep(dt, th.head(3 * nb), th.segment(3 * nb, 3 * nb), th.tail(problem.num_parameters() - 6 * nb));
  };
  set_step(theta);

  VecX F(ny + nz), F_plus(ny + nz), F_minus(ny + nz);
  MatX J, dF_dtheta;
  ASSERT_TRUE(problem.Evaluate(y, z, &F, &J));
  problem.ParameterJacobian(y, z, &dF_dtheta);
  const double h = 1e-6;
  silico_testing::ExpectYzColumns(problem, y, z, J, h);
  for (int j = 0; j < theta.size(); ++j) {
    VecX shifted = theta;
    shifted[j] += h;
    set_step(shifted);
    problem.Evaluate(y, z, &F_plus, nullptr);
    shifted[j] = theta[j] - h;
    set_step(shifted);
    problem.Evaluate(y, z, &F_minus, nullptr);
    silico_testing::ExpectColumn(dF_dtheta.col(j), F_plus, F_minus, h, "dF/dtheta", j);
  }
}

// The full KKT Jacobian [dF/dy dF/dz [0;I]; 0 S Z] at exact complementarity (the smaller of
// each z_i, s_i set to 0), without the cone entries listed in `drop`; returns (rank, size).
std::pair<int, int> KktRank(const MatX& dF_dyz, int ny, VecX z, VecX s, const std::vector<int>& drop) {
  const int nz = static_cast<int>(z.size()), n = ny + 2 * nz;
  for (int i = 0; i < nz; ++i) (z[i] > s[i] ? s[i] : z[i]) = 0.0;
  MatX J = MatX::Zero(n, n);
  J.topLeftCorner(ny + nz, ny + nz) = dF_dyz;
  J.block(ny, ny + nz, nz, nz).setIdentity();
  J.block(ny + nz, ny, nz, nz) = s.asDiagonal();
  J.block(ny + nz, ny + nz, nz, nz) = z.asDiagonal();
  std::vector<int> keep;
  for (int k = 0; k < n; ++k) {
    const int cone_index = k < ny ? -1 : (k - ny) % nz;
    if (cone_index >= 0 && std::find(drop.begin(), drop.end(), cone_index) != drop.end()) continue;
    keep.push_back(k);
  }
  MatX K(keep.size(), keep.size());
  for (size_t i = 0; i < keep.size(); ++i) {
    for (size_t j = 0; j < keep.size(); ++j) K(i, j) = J(keep[i], keep[j]);
  }
  for (int j = 0; j < K.cols(); ++j) K.col(j) /= std::max(K.col(j).norm(), 1e-300);
  Eigen::FullPivLU<MatX> lu(K);
  lu.setThreshold(1e-9);
  return {static_cast<int>(lu.rank()), static_cast<int>(K.rows())};
}

// Paper eq. 19 / App. C: a box resting face-down on the ground. The standalone collision
// program's KKT Jacobian is rank deficient (the contact point can slide along the face); the
// single-level system, where the point also sets the contact torque, is full rank. Both at
// exact complementarity; the single-level friction block is left out as in the appendix's
// frictionless system (with no tangential load its complementarity pairs are degenerate).
TEST(Silico, FaceToFaceCollisionProgramIsRankDeficientSingleLevelIsNot) {
  auto scene = BoxOnGround(0.5, 1.0, 0.5);
  SilicoOptions o;
  o.timestep = 0.01;
  o.rho = 1e-10;
  o.max_iterations = 60;
  auto sim = MakeSilico(scene, o);
  State s = DefaultState(*scene);
  ASSERT_TRUE(sim->Step(s, Control{}).ok());
  silico::PlanarProblem problem = sim->problem();
  const int zo = problem.pairs().at(0).z_offset;
  VecX F;
  MatX dF;
  problem.Evaluate(sim->solver().primals(), sim->solver().duals(), &F, &dF);
  const auto [rank_single, n_single] = KktRank(dF, problem.num_primals(), sim->solver().duals(),
                                               sim->solver().slacks(), {zo + 1, zo + 2, zo + 3});
  EXPECT_EQ(rank_single, n_single);

  silico::CollisionProgram program(problem.pairs().at(0));
  program.SetPoses(s.q.head<3>(), Vec3::Zero());
  InteriorPointOptions io = silico::PsdfSolverOptions();
  io.complementarity_tolerance = 1e-10;
  io.residual_tolerance = 1e-11;
  io.max_iterations = 100;
  InteriorPointSolver solver(io);
  const auto result = silico::SolveCollision(program, solver);
  ASSERT_TRUE(result.report.converged());
  EXPECT_NEAR(result.alpha, 1.0, 1e-4);
  program.Evaluate(solver.primals(), solver.duals(), &F, &dF);
  const auto [rank_collision, n_collision] =
      KktRank(dF, program.num_primals(), solver.duals(), solver.slacks(), {});
  EXPECT_EQ(rank_collision, n_collision - 1);
}

TEST(Silico, RejectsBadOptionsAndUnsupportedScenes) {
  auto scene = BoxOnGround(0.5, 1.0, 1.0);
  EXPECT_THROW(MakeSimulator("silico", scene, {{"rho", "-1"}}), InvalidArgument);
  EXPECT_THROW(MakeSimulator("silico", scene, {{"timestep", "0"}}), InvalidArgument);
  EXPECT_THROW(MakeSimulator("silico", scene, {{"bogus", "1"}}), InvalidArgument);
  EXPECT_THROW(MakeSimulator("silico", scene, {{"friction_cone", "cone"}}), InvalidArgument);
  // Spatial scenes are supported (spatial_test.cc), but not yet with actuators.
  SceneBuilder b("cube");
  const int body = b.AddFreeBody("cube", SpatialInertia::SolidBox(1.0, Vec3::Constant(0.1)), SE3());
  b.AddCollider(body, Box{Vec3::Constant(0.1)});
  b.AddGround();
  Actuator push;
  push.name = "push";
  push.body = body;
  b.AddActuator(push);
  EXPECT_THROW(MakeSimulator("silico", b.Build(), {}), Unsupported);
}

TEST(Silico, NonFiniteStateIsReportedNotThrown) {
  auto scene = BoxOnGround(0.5, 1.0, 1.0);
  auto sim = MakeSilico(scene, SilicoOptions{});
  State s = DefaultState(*scene);
  s.v[1] = std::nan("");
  const StepReport r = sim->Step(s, Control{});
  EXPECT_EQ(r.status, StepStatus::kNonFinite);
}

}  // namespace silico_test
}  // namespace arena
