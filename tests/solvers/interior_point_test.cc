// Tests of the interior-point NCP solver (solvers/interior_point.h) on small problems with
// known solutions: a scalar LCP, a convex QP, the projection onto a second-order cone and a
// nonlinear (cubic) variant of the QP.
#include "solvers/interior_point.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <thread>

#include "core/common/deadline.h"
#include "solvers/finite_difference.h"

namespace arena {
namespace interior_point_test {

// ---------------------------------------------------------------------------------------------
// Problems.

/// z >= 0, s = 2 z - 2 >= 0, z s = 0 (no primals): the slack row is F = -(2z - 2).
/// Solution z = 1, s = 0; relaxed (z s = rho): z = (1 + sqrt(1 + 2 rho)) / 2.
class ScalarLcp : public ComplementarityProblem {
 public:
  ScalarLcp() { cone_.orthant = 1; }
  int num_primals() const override { return 0; }
  const ConeSpec& cone() const override { return cone_; }
  bool Evaluate(const VecX&, const VecX& z, VecX* r, MatX* J) override {
    r->resize(1);
    (*r)[0] = -(2.0 * z[0] - 2.0);
    if (J) {
      J->resize(1, 1);
      (*J)(0, 0) = -2.0;
    }
    return true;
  }

 private:
  ConeSpec cone_;
};

/// min 1/2 x^T Q x + c^T x  s.t.  G x >= h, as an NCP with y = x:
///   F = [Q x + c - G^T z; -(G x - h)],  so s = G x - h.
/// Parameters theta = (c, h). The default data has x* = (1, 1), z* = (0.5, 0), s* = (0, 3):
/// the first constraint (x0 + x1 >= 2) is active, the second (x0 - x1 >= -3) inactive.
class QpProblem : public ComplementarityProblem {
 public:
  QpProblem() {
    Q << 2.0, 0.5, 0.5, 1.0;
    c << -2.0, -1.0;
    G << 1.0, 1.0, 1.0, -1.0;
    h << 2.0, -3.0;
    cone_.orthant = 2;
  }
  int num_primals() const override { return 2; }
  const ConeSpec& cone() const override { return cone_; }
  bool Evaluate(const VecX& x, const VecX& z, VecX* r, MatX* J) override {
    r->resize(4);
    r->head<2>() = Q * x + c - G.transpose() * z;
    r->tail<2>() = -(G * x - h);
    if (J) {
      J->resize(4, 4);
      J->setZero();
      J->topLeftCorner<2, 2>() = Q;
      J->topRightCorner<2, 2>() = -G.transpose();
      J->bottomLeftCorner<2, 2>() = -G;
    }
    return true;
  }
  void ParameterJacobian(const VecX&, const VecX&, MatX* dF) override {
    dF->setZero(4, 4);
    dF->topLeftCorner<2, 2>().setIdentity();      // dF/dc
    dF->bottomRightCorner<2, 2>().setIdentity();  // dF/dh
  }

  Mat2 Q, G;
  Vec2 c, h;

 private:
  ConeSpec cone_;
};

/// The QP with the cubic term 1/2 sum x_i^4 / 4 added to the objective (optimality rows get
/// + 0.5 x^3): a nonlinear F whose Jacobian depends on the point.
class CubicProblem : public QpProblem {
 public:
  bool Evaluate(const VecX& x, const VecX& z, VecX* r, MatX* J) override {
    QpProblem::Evaluate(x, z, r, J);
    r->head<2>() += 0.5 * x.array().cube().matrix();
    if (J) J->topLeftCorner<2, 2>().diagonal() += 1.5 * x.array().square().matrix();
    return true;
  }
};

/// Projection of `a` onto a cone K: min 1/2 |x - a|^2 s.t. x in K;
///   F = [x - a - z; -x] (so s = x), z o s = 0, and z = x - a is the projection of -a.
class ConeProjection : public ComplementarityProblem {
 public:
  ConeProjection(const ConeSpec& cone, const VecX& a) : a_(a), cone_(cone) {}
  int num_primals() const override { return cone_.size(); }
  const ConeSpec& cone() const override { return cone_; }
  bool Evaluate(const VecX& x, const VecX& z, VecX* r, MatX* J) override {
    const int n = cone_.size();
    r->resize(2 * n);
    r->head(n) = x - a_ - z;
    r->tail(n) = -x;
    if (J) {
      J->resize(2 * n, 2 * n);
      J->setZero();
      J->topLeftCorner(n, n).setIdentity();
      J->topRightCorner(n, n) = -MatX::Identity(n, n);
      J->bottomLeftCorner(n, n) = -MatX::Identity(n, n);
    }
    return true;
  }

 private:
  VecX a_;
  ConeSpec cone_;
};

ConeSpec Soc3() {
  ConeSpec k;
  k.soc = {3};
  return k;
}

/// The projection onto one second-order cone {x0 >= |x1|} in R^3.
class SocProjection : public ConeProjection {
 public:
  explicit SocProjection(const Vec3& a) : ConeProjection(Soc3(), a) {}
};

/// Closed-form projection onto {x0 >= |x1|}.
VecX ProjectOntoSoc(const VecX& a) {
  const double n = a.tail(a.size() - 1).norm();
  if (n <= a[0]) return a;
  if (n <= -a[0]) return VecX::Zero(a.size());
  VecX x(a.size());
  x[0] = 1.0;
  x.tail(a.size() - 1) = a.tail(a.size() - 1) / n;
  return 0.5 * (a[0] + n) * x;
}

/// Closed-form projection onto a product cone, block by block.
VecX ProjectOntoCone(const ConeSpec& k, const VecX& a) {
  VecX x(a.size());
  x.head(k.orthant) = a.head(k.orthant).cwiseMax(0.0);
  int o = k.orthant;
  for (int m : k.soc) {
    x.segment(o, m) = ProjectOntoSoc(a.segment(o, m));
    o += m;
  }
  return x;
}

/// Orthant, then two SOC blocks of different sizes: every block of the cone bookkeeping.
ConeSpec MixedCone() {
  ConeSpec k;
  k.orthant = 2;
  k.soc = {3, 4};
  return k;
}
VecX MixedPoint() {
  return (VecX(9) << -1.0, 2.0, 1.0, 2.0, 1.0, -3.0, 1.0, 0.5, 1.0).finished();
}

/// The QP whose F is NaN everywhere (optionally while claiming success).
class NanProblem : public QpProblem {
 public:
  explicit NanProblem(bool report_failure) : report_failure_(report_failure) {}
  bool Evaluate(const VecX& x, const VecX& z, VecX* r, MatX* J) override {
    QpProblem::Evaluate(x, z, r, J);
    (*r)[1] = std::numeric_limits<double>::quiet_NaN();
    return !report_failure_;
  }

 private:
  bool report_failure_;
};

/// F does not depend on the primal y at all: the Newton matrix has a zero column.
class SingularProblem : public ComplementarityProblem {
 public:
  SingularProblem() { cone_.orthant = 1; }
  int num_primals() const override { return 1; }
  const ConeSpec& cone() const override { return cone_; }
  bool Evaluate(const VecX&, const VecX& z, VecX* r, MatX* J) override {
    r->resize(2);
    *r << 1.0 - z[0], -(z[0] - 1.0);
    if (J) {
      J->resize(2, 2);
      *J << 0.0, -1.0, 0.0, -1.0;
    }
    return true;
  }

 private:
  ConeSpec cone_;
};

InteriorPointOptions Tight(double rho, double tol = 1e-10) {
  InteriorPointOptions o;
  o.complementarity_tolerance = rho;
  o.residual_tolerance = tol;
  o.max_iterations = 100;
  return o;
}

VecX Stack(const VecX& y, const VecX& z, const VecX& s) {
  VecX w(y.size() + z.size() + s.size());
  w << y, z, s;
  return w;
}

VecX SolutionOf(const InteriorPointSolver& solver) {
  return Stack(solver.primals(), solver.duals(), solver.slacks());
}

// ---------------------------------------------------------------------------------------------

TEST(ConeSpec, SizeAndDegree) {
  ConeSpec k;
  k.orthant = 2;
  k.soc = {3, 4};
  EXPECT_EQ(k.size(), 9);
  EXPECT_EQ(k.degree(), 4);
  EXPECT_EQ(ToString(InteriorPointStatus::kNonFinite), "non_finite");
}

// 1. Scalar LCP without primals.
TEST(InteriorPoint, ScalarLcpWithoutPrimals) {
  ScalarLcp problem;
  const double rho = 1e-8;
  InteriorPointSolver solver(Tight(rho, 1e-12));
  const InteriorPointReport report = solver.Solve(problem);
  ASSERT_TRUE(report.converged()) << ToString(report.status);
  EXPECT_EQ(solver.primals().size(), 0);
  const double z = solver.duals()[0], s = solver.slacks()[0];
  EXPECT_NEAR(z, 0.5 * (1.0 + std::sqrt(1.0 + 2.0 * rho)), 1e-12);
  EXPECT_NEAR(z, 1.0, 1e-7);
  EXPECT_NEAR(s, 2.0 * z - 2.0, 1e-12);
  EXPECT_NEAR(z * s, rho, 1e-12);
  EXPECT_LE(report.residual, 1e-12);
  EXPECT_GT(report.iterations, 1);
}

// 2. Convex QP: one constraint active, one inactive.
TEST(InteriorPoint, ConvexQpMatchesActiveSetSolution) {
  QpProblem problem;
  // Reference by the active set {0}: [Q -g0; g0^T 0] [x; z0] = [-c; h0].
  Eigen::Matrix3d kkt;
  kkt << problem.Q, -problem.G.row(0).transpose(), problem.G.row(0), 0.0;
  const Vec3 ref = kkt.lu().solve(Vec3(-problem.c[0], -problem.c[1], problem.h[0]));
  ASSERT_NEAR(ref[0], 1.0, 1e-14);
  ASSERT_NEAR(ref[1], 1.0, 1e-14);
  ASSERT_NEAR(ref[2], 0.5, 1e-14);  // positive multiplier
  ASSERT_GT(problem.G.row(1).dot(ref.head<2>()) - problem.h[1], 1.0);  // strictly inactive

  const double rho = 1e-9;
  for (bool compressed : {true, false}) {
    InteriorPointOptions options = Tight(rho);
    options.compressed = compressed;
    InteriorPointSolver solver(options);
    const InteriorPointReport report = solver.Solve(problem);
    ASSERT_TRUE(report.converged()) << ToString(report.status);
    EXPECT_NEAR(solver.primals()[0], 1.0, 1e-7);
    EXPECT_NEAR(solver.primals()[1], 1.0, 1e-7);
    EXPECT_NEAR(solver.duals()[0], 0.5, 1e-7);
    EXPECT_NEAR(solver.duals()[1], 0.0, 1e-7);
    EXPECT_NEAR(solver.slacks()[0], 0.0, 1e-7);
    EXPECT_NEAR(solver.slacks()[1], 3.0, 1e-7);
    for (int i = 0; i < 2; ++i) {
      EXPECT_NEAR(solver.duals()[i] * solver.slacks()[i], rho, 1e-10) << i;
    }
    EXPECT_LE(report.residual, 1e-10);
    EXPECT_LE(report.complementarity, 1e-10);
    std::cout << "[ QP ] compressed=" << compressed << " iterations=" << report.iterations
              << " line search failures=" << report.line_search_failures << "\n";
  }
}

// 3. The relaxation: z_i s_i ~ rho at every rho, and the solution tends to the exact one.
TEST(InteriorPoint, RelaxedSolutionsApproachExactOne) {
  QpProblem problem;
  const VecX exact = (VecX(6) << 1.0, 1.0, 0.5, 0.0, 0.0, 3.0).finished();
  double previous_error = std::numeric_limits<double>::infinity();
  for (double rho : {1e-2, 1e-4, 1e-6}) {
    const double tol = 1e-10;
    InteriorPointSolver solver(Tight(rho, tol));
    const InteriorPointReport report = solver.Solve(problem);
    ASSERT_TRUE(report.converged()) << rho;
    for (int i = 0; i < 2; ++i) {
      EXPECT_NEAR(solver.duals()[i] * solver.slacks()[i], rho, tol) << "rho " << rho << " i " << i;
    }
    const double error = (SolutionOf(solver) - exact).lpNorm<Eigen::Infinity>();
    EXPECT_LT(error, 0.5 * previous_error) << rho;  // strictly closer as rho shrinks
    EXPECT_LT(error, 10.0 * rho) << rho;            // O(rho): strict complementarity
    previous_error = error;
  }
  EXPECT_LT(previous_error, 1e-5);
}

// 4. Projection onto a second-order cone: outside, inside, and in the polar cone.
TEST(InteriorPoint, SocProjectionMatchesClosedForm) {
  const double rho = 1e-10;
  for (const Vec3& a : {Vec3(1.0, 2.0, 1.0), Vec3(3.0, 1.0, -1.0), Vec3(-3.0, 1.0, 1.0)}) {
    SocProjection problem(a);
    InteriorPointSolver solver(Tight(rho, 1e-11));
    const InteriorPointReport report = solver.Solve(problem);
    ASSERT_TRUE(report.converged()) << a.transpose() << " " << ToString(report.status);
    const Vec3 x = solver.primals();
    const Vec3 expected = ProjectOntoSoc(a);
    EXPECT_LT((x - expected).norm(), 1e-6) << a.transpose() << " -> " << x.transpose();
    // z = x - a is the projection of -a onto the (self-dual) cone.
    EXPECT_LT((solver.duals() - ProjectOntoSoc(-a)).norm(), 1e-6) << a.transpose();
    // Both stay strictly inside the cone.
    EXPECT_GT(x[0], x.tail<2>().norm());
    EXPECT_GT(solver.duals()[0], solver.duals().tail<2>().norm());
  }
  // The three cases really are different: the projections differ from a and from 0 as stated.
  EXPECT_GT((ProjectOntoSoc(Vec3(1.0, 2.0, 1.0)) - Vec3(1.0, 2.0, 1.0)).norm(), 0.5);
  EXPECT_EQ(ProjectOntoSoc(Vec3(-3.0, 1.0, 1.0)), VecX::Zero(3));
}

TEST(InteriorPoint, ProjectionOntoMixedConeMatchesClosedForm) {
  const ConeSpec k = MixedCone();
  const VecX a = MixedPoint();
  ConeProjection problem(k, a);
  for (bool compressed : {true, false}) {
    InteriorPointOptions options = Tight(1e-10, 1e-11);
    options.compressed = compressed;
    InteriorPointSolver solver(options);
    const InteriorPointReport report = solver.Solve(problem);
    ASSERT_TRUE(report.converged()) << ToString(report.status);
    EXPECT_LT((solver.primals() - ProjectOntoCone(k, a)).lpNorm<Eigen::Infinity>(), 1e-6)
        << solver.primals().transpose();
    EXPECT_LT((solver.duals() - ProjectOntoCone(k, -a)).lpNorm<Eigen::Infinity>(), 1e-6)
        << solver.duals().transpose();
  }
}

// A QP, a second-order-cone projection and a mixed-cone projection, to run each through the
// same checks.
struct ThreeProblems {
  QpProblem qp;
  SocProjection soc{Vec3(1.0, 2.0, 1.0)};
  ConeProjection mixed{MixedCone(), MixedPoint()};
  std::vector<ComplementarityProblem*> all() { return {&qp, &soc, &mixed}; }
};

// Solves `problem` with options a and with b: both converge in the same iterations (and line
// search failures) to the same point. Returns the iterations.
int ExpectSameSolve(const InteriorPointOptions& a, const InteriorPointOptions& b, ComplementarityProblem& problem) {
  InteriorPointSolver first(a), second(b);
  const InteriorPointReport ra = first.Solve(problem);
  const InteriorPointReport rb = second.Solve(problem);
  EXPECT_TRUE(ra.converged());
  EXPECT_TRUE(rb.converged());
  EXPECT_EQ(ra.iterations, rb.iterations);
  EXPECT_EQ(ra.line_search_failures, rb.line_search_failures);
  EXPECT_LT((SolutionOf(first) - SolutionOf(second)).lpNorm<Eigen::Infinity>(), 1e-9);
  return ra.iterations;
}

// 5. The compressed and the full system take the same steps.
TEST(InteriorPoint, CompressedAndFullSystemsAgree) {
  ThreeProblems problems;
  for (ComplementarityProblem* problem : problems.all()) {
    InteriorPointOptions compressed = Tight(1e-8), full = compressed;
    compressed.compressed = true;
    full.compressed = false;
    const int iterations = ExpectSameSolve(compressed, full, *problem);
    std::cout << "[ compressed vs full ] iterations " << iterations << "\n";
  }
}

// The Newton system's factorization is an option (issue 18): Eigen's SparseLU solves the same
// problems in the same iterations, to the same point, with the same sensitivities, compressed
// or not.
TEST(InteriorPoint, SparseAndDenseFactorizationsAgree) {
  ThreeProblems problems;
  QpProblem& qp = problems.qp;
  for (bool compressed : {true, false}) {
    for (ComplementarityProblem* problem : problems.all()) {
      InteriorPointOptions dense = Tight(1e-8);
      dense.compressed = compressed;
      InteriorPointOptions sparse = dense;
      sparse.linear_solver = LinearSolver::kSparseLu;
      ExpectSameSolve(dense, sparse, *problem);
    }
    InteriorPointOptions options = Tight(1e-4, 1e-13);
    options.compressed = compressed;
    InteriorPointSolver dense(options);
    options.linear_solver = LinearSolver::kSparseLu;
    InteriorPointSolver sparse(options);
    ASSERT_TRUE(dense.Solve(qp).converged());
    ASSERT_TRUE(sparse.Solve(qp).converged());
    MatX d_dense, d_sparse;
    ASSERT_TRUE(dense.Differentiate(qp, &d_dense));
    ASSERT_TRUE(sparse.Differentiate(qp, &d_sparse));
    EXPECT_LT(CorrectedRelativeError(d_sparse, d_dense, 1e-12), 1e-8);
  }
}

// 6. Sensitivities by the implicit function theorem against central differences of solves.
TEST(InteriorPoint, DifferentiateMatchesFiniteDifferencesOfSolves) {
  const double rho = 1e-4;
  for (bool compressed : {true, false}) {
    QpProblem problem;
    InteriorPointOptions options = Tight(rho, 1e-13);
    options.compressed = compressed;
    InteriorPointSolver solver(options);
    ASSERT_TRUE(solver.Solve(problem).converged());
    MatX analytic;
    ASSERT_TRUE(solver.Differentiate(problem, &analytic));
    ASSERT_EQ(analytic.rows(), 6);
    ASSERT_EQ(analytic.cols(), 4);

    const double h = 1e-5;
    MatX numeric(6, 4);
    for (int j = 0; j < 4; ++j) {
      VecX plus, minus;
      for (double sign : {1.0, -1.0}) {
        QpProblem perturbed;
        if (j < 2) perturbed.c[j] += sign * h;
        else perturbed.h[j - 2] += sign * h;
        InteriorPointSolver fd_solver(options);
        ASSERT_TRUE(fd_solver.Solve(perturbed).converged());
        (sign > 0 ? plus : minus) = SolutionOf(fd_solver);
      }
      numeric.col(j) = (plus - minus) / (2.0 * h);
    }
    const double error = CorrectedRelativeError(analytic, numeric);
    EXPECT_LT(error, 1e-5) << "compressed " << compressed << "\nanalytic\n"
                           << analytic << "\nnumeric\n" << numeric;
    // Not trivially zero: x* moves with c along the active constraint.
    EXPECT_GT(analytic.cwiseAbs().maxCoeff(), 0.1);
    // The other linear algebra (full <-> compressed) gives the same sensitivities.
    solver.options().compressed = !compressed;
    MatX other;
    ASSERT_TRUE(solver.Differentiate(problem, &other));
    EXPECT_LT(CorrectedRelativeError(other, analytic, 1e-12), 1e-9);
  }
}

// 7. Warm start from the solution of a nearby problem.
TEST(InteriorPoint, WarmStartNeedsNoMoreIterationsThanColdStart) {
  const double rho = 1e-6;
  QpProblem nearby;
  InteriorPointOptions options = Tight(rho, 1e-9);
  InteriorPointSolver warm(options);
  ASSERT_TRUE(warm.Solve(nearby).converged());

  QpProblem problem;
  problem.c += Vec2(0.02, -0.01);
  problem.h[0] += 0.01;
  warm.options().warm_start = true;
  const InteriorPointReport warm_report = warm.Solve(problem);
  InteriorPointSolver cold(options);
  const InteriorPointReport cold_report = cold.Solve(problem);
  ASSERT_TRUE(warm_report.converged());
  ASSERT_TRUE(cold_report.converged());
  std::cout << "[ warm start ] warm iterations=" << warm_report.iterations
            << " cold iterations=" << cold_report.iterations << "\n";
  EXPECT_LE(warm_report.iterations, cold_report.iterations);
  EXPECT_LT((SolutionOf(warm) - SolutionOf(cold)).lpNorm<Eigen::Infinity>(), 1e-7);

  // SetStart at the exact solution (with the default backstep) is a warm start too.
  InteriorPointSolver restarted(options);
  restarted.options().warm_start = true;
  restarted.SetStart(cold.primals(), cold.duals(), cold.slacks());
  const InteriorPointReport restarted_report = restarted.Solve(problem);
  ASSERT_TRUE(restarted_report.converged());
  EXPECT_LE(restarted_report.iterations, cold_report.iterations);
  // The backstep really moved the start: without it the start is the solution itself, which
  // converges at the first check (1 iteration).
  EXPECT_GT(restarted_report.iterations, 1);
  restarted.options().warm_start_backstep = 0.0;
  restarted.SetStart(cold.primals(), cold.duals(), cold.slacks());
  const InteriorPointReport exact_report = restarted.Solve(problem);
  ASSERT_TRUE(exact_report.converged());
  EXPECT_EQ(exact_report.iterations, 1);
  EXPECT_EQ(SolutionOf(restarted), SolutionOf(cold));
}

// 8. Failures are reported, not thrown.
TEST(InteriorPoint, IterationLimitIsReported) {
  QpProblem problem;
  InteriorPointOptions options = Tight(1e-9);
  options.max_iterations = 3;
  InteriorPointSolver solver(options);
  InteriorPointReport report;
  EXPECT_NO_THROW(report = solver.Solve(problem));
  EXPECT_EQ(report.status, InteriorPointStatus::kMaxIterations);
  EXPECT_EQ(report.iterations, 3);
  EXPECT_GT(std::max(report.residual, report.complementarity), options.residual_tolerance);
  // The last iterate is kept, finite and strictly inside the cone.
  ASSERT_EQ(solver.duals().size(), 2);
  EXPECT_TRUE(SolutionOf(solver).allFinite());
  EXPECT_GT(solver.duals().minCoeff(), 0.0);
  EXPECT_GT(solver.slacks().minCoeff(), 0.0);
}

// The case's wall-clock budget (core/common/deadline.h) ends a solve at the next iteration.
TEST(InteriorPoint, PassedDeadlineIsReported) {
  QpProblem problem;
  InteriorPointSolver solver(Tight(1e-9));
  const ScopedDeadline deadline(1e-9, "budget");
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  InteriorPointReport report;
  EXPECT_NO_THROW(report = solver.Solve(problem));
  EXPECT_EQ(report.status, InteriorPointStatus::kDeadline);
  EXPECT_EQ(ToString(report.status), "deadline");
  EXPECT_EQ(report.iterations, 0);
  EXPECT_TRUE(SolutionOf(solver).allFinite());
}

TEST(InteriorPoint, NonFiniteResidualIsReported) {
  for (bool report_failure : {true, false}) {
    NanProblem problem(report_failure);
    InteriorPointSolver solver;
    InteriorPointReport report;
    EXPECT_NO_THROW(report = solver.Solve(problem));
    EXPECT_EQ(report.status, InteriorPointStatus::kNonFinite) << report_failure;
    EXPECT_EQ(report.iterations, 1);
  }
}

TEST(InteriorPoint, SingularSystemIsReported) {
  SingularProblem problem;
  for (bool compressed : {true, false}) {
    InteriorPointOptions options;
    options.compressed = compressed;
    InteriorPointSolver solver(options);
    InteriorPointReport report;
    EXPECT_NO_THROW(report = solver.Solve(problem));
    EXPECT_EQ(report.status, InteriorPointStatus::kSingular) << compressed;
    MatX dw;
    EXPECT_FALSE(solver.Differentiate(problem, &dw));
    // Primal regularization makes the same system solvable.
    solver.options().primal_regularization = 1e-6;
    EXPECT_NE(solver.Solve(problem).status, InteriorPointStatus::kSingular);
  }
}

// 9. Forward-difference Jacobians reach the same solution as the analytic ones.
TEST(InteriorPoint, FiniteDifferenceJacobianGivesSameSolution) {
  CubicProblem cubic;
  SocProjection soc(Vec3(1.0, 2.0, 1.0));
  for (ComplementarityProblem* problem : {static_cast<ComplementarityProblem*>(&cubic),
                                          static_cast<ComplementarityProblem*>(&soc)}) {
    InteriorPointOptions options = Tight(1e-8);
    InteriorPointSolver analytic(options);
    options.finite_difference_jacobian = true;
    InteriorPointSolver numeric(options);
    const InteriorPointReport a = analytic.Solve(*problem);
    const InteriorPointReport b = numeric.Solve(*problem);
    ASSERT_TRUE(a.converged());
    ASSERT_TRUE(b.converged());
    EXPECT_LT((SolutionOf(analytic) - SolutionOf(numeric)).lpNorm<Eigen::Infinity>(), 1e-8);
    std::cout << "[ fd jacobian ] iterations analytic=" << a.iterations
              << " finite differences=" << b.iterations << "\n";
  }
  // The cubic term matters: its solution is not the QP's.
  QpProblem qp;
  InteriorPointSolver qp_solver(Tight(1e-8));
  InteriorPointSolver cubic_solver(Tight(1e-8));
  ASSERT_TRUE(qp_solver.Solve(qp).converged());
  ASSERT_TRUE(cubic_solver.Solve(cubic).converged());
  EXPECT_GT((SolutionOf(qp_solver) - SolutionOf(cubic_solver)).norm(), 1e-2);
}

}  // namespace interior_point_test
}  // namespace arena
