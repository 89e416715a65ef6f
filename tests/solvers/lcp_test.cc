// The LCP solvers (Dantzig, PGS, Lemke) on random problems with unique solutions, on
// rank-deficient ones (where only w = A x - b is unique), on boxed and friction-coupled
// problems, and on a box resting and sliding on the ground with four corner contacts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <thread>
#include <vector>

#include "core/common/deadline.h"
#include "core/common/error.h"
#include "solvers/boxed_lcp.h"
#include "solvers/contact_lcp_solver.h"
#include "solvers/lcp_active_set.h"
#include "solvers/dantzig_lcp.h"
#include "solvers/lemke_lcp.h"
#include "solvers/pgs_lcp.h"

namespace arena {
namespace lcp_test {

using ::testing::HasSubstr;

MatX RandomMatrix(std::mt19937& rng, int rows, int cols) {
  std::normal_distribution<double> normal(0.0, 1.0);
  MatX R(rows, cols);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) R(i, j) = normal(rng);
  }
  return R;
}

VecX RandomVector(std::mt19937& rng, int n) { return RandomMatrix(rng, n, 1).col(0); }

// PGS run to the precision that a comparison with the pivoting solvers needs.
PgsOptions TightPgs() {
  PgsOptions o;
  o.tolerance = 1e-11;
  o.max_sweeps = 200000;
  return o;
}

// Positive definite: the standard LCP has exactly one solution, so all three solvers must
// return the same x.
TEST(Lcp, SolversAgreeOnRandomPositiveDefiniteProblems) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 2 + trial % 9;
    const MatX R = RandomMatrix(rng, n, n);
    const BoxedLcp lcp = BoxedLcp::Standard(R * R.transpose() + 0.1 * MatX::Identity(n, n), RandomVector(rng, n));
    const LcpResult lemke = SolveLemke(lcp);
    const LcpResult dantzig = SolveDantzig(lcp);
    const LcpResult pgs = SolvePgs(lcp, TightPgs());
    ASSERT_TRUE(lemke.ok()) << trial << " " << ToString(lemke.status);
    ASSERT_TRUE(dantzig.ok()) << trial << " " << ToString(dantzig.status);
    ASSERT_TRUE(pgs.ok()) << trial << " " << ToString(pgs.status);
    EXPECT_LT((dantzig.x - lemke.x).lpNorm<Eigen::Infinity>(), 1e-9 * (1.0 + lemke.x.norm())) << trial;
    EXPECT_LT((pgs.x - lemke.x).lpNorm<Eigen::Infinity>(), 1e-6 * (1.0 + lemke.x.norm())) << trial;
    EXPECT_LT(dantzig.violation, 1e-9);
    // The answer is a real LCP solution, not just three solvers agreeing.
    const VecX w = lcp.A * dantzig.x - lcp.b;
    EXPECT_GE(dantzig.x.minCoeff(), 0.0);
    EXPECT_GE(w.minCoeff(), -1e-9);
    EXPECT_LT(std::abs(dantzig.x.dot(w)), 1e-9 * (1.0 + dantzig.x.norm() * w.norm()));
  }
}

// Rank-deficient PSD (redundant contacts): x is not unique but w is (for symmetric PSD A,
// two solutions differ by a null vector of A).
TEST(Lcp, RankDeficientProblemsAgreeOnW) {
  std::mt19937 rng(11);
  int compared = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 4 + trial % 6;
    const MatX R = RandomMatrix(rng, n, n / 2);
    const MatX A = R * R.transpose();
    // b in the range of A plus a component the nonnegativity can absorb.
    const VecX b = A * RandomVector(rng, n) - VecX::Constant(n, 0.1).cwiseProduct(RandomVector(rng, n).cwiseAbs());
    const BoxedLcp lcp = BoxedLcp::Standard(A, b);
    const LcpResult lemke = SolveLemke(lcp);
    const LcpResult dantzig = SolveDantzig(lcp);
    if (!lemke.ok()) continue;  // an infeasible draw: nothing to compare
    ++compared;
    ASSERT_TRUE(dantzig.ok()) << trial << " " << ToString(dantzig.status) << " violation " << dantzig.violation;
    const VecX w_l = A * lemke.x - b, w_d = A * dantzig.x - b;
    EXPECT_LT((w_l - w_d).lpNorm<Eigen::Infinity>(), 1e-7 * (1.0 + w_l.norm())) << trial;
  }
  EXPECT_GE(compared, 10);
}

// The retry on A + eps I after a failed solve (dantzig_lcp.h) leaves every problem the plain
// pivoting solves exactly as it was, and what it returns is judged on the original A.
TEST(Lcp, CyclingRetryOnlyTouchesFailedSolves) {
  std::mt19937 rng(13);
  DantzigOptions plain;
  plain.cycling_cfm = 0.0;
  plain.max_pivots_per_row = 2;  // tight, so that some degenerate draws fail without the retry
  DantzigOptions retry = plain;
  retry.cycling_cfm = 1e-10;
  int solved_plain = 0, failed_plain = 0, rescued = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 6 + trial % 10;
    const MatX R = RandomMatrix(rng, n, n / 3);
    const MatX A = R * R.transpose();
    const VecX b = A * RandomVector(rng, n).cwiseAbs();
    const BoxedLcp lcp = BoxedLcp::Standard(A, b);
    const LcpResult a = SolveDantzig(lcp, plain), r = SolveDantzig(lcp, retry);
    if (a.ok()) {
      ++solved_plain;
      EXPECT_EQ(r.x, a.x) << trial;
      EXPECT_EQ(r.iterations, a.iterations) << trial;
      continue;
    }
    ++failed_plain;
    if (!r.ok()) continue;
    ++rescued;
    EXPECT_EQ(r.violation, LcpViolation(lcp, r.x)) << trial;
    EXPECT_LE(r.violation, retry.tolerance) << trial;
  }
  // Measured: 37 solved by the plain pivoting, 163 failing at this pivot limit, all 163 rescued.
  EXPECT_GT(solved_plain, 10);
  EXPECT_GT(failed_plain, 10);
  EXPECT_EQ(rescued, failed_plain);
}

// Fixed finite boxes and a positive definite A: one solution, found by Dantzig and PGS alike.
TEST(Lcp, BoxedProblemsAgreeBetweenDantzigAndPgs) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 3 + trial % 8;
    const MatX R = RandomMatrix(rng, n, n);
    BoxedLcp lcp;
    lcp.A = R * R.transpose() + 0.5 * MatX::Identity(n, n);
    lcp.b = 3.0 * RandomVector(rng, n);
    lcp.lo.resize(n);
    lcp.hi.resize(n);
    for (int i = 0; i < n; ++i) {
      lcp.lo[i] = -unit(rng);
      lcp.hi[i] = i % 3 == 0 ? std::numeric_limits<double>::infinity() : unit(rng);
    }
    const LcpResult dantzig = SolveDantzig(lcp);
    const LcpResult pgs = SolvePgs(lcp, TightPgs());
    ASSERT_TRUE(dantzig.ok()) << trial << " " << ToString(dantzig.status);
    ASSERT_TRUE(pgs.ok()) << trial;
    EXPECT_LT((dantzig.x - pgs.x).lpNorm<Eigen::Infinity>(), 1e-7) << trial;
  }
}

// A unit cube (m = 1, I = m/6) with four bottom-corner contacts, one normal and two friction
// rows each (Nimble's 3 rows per contact, as DART lays them out), Y up, over one step of dt = 0.01.
struct CubeOnGround {
  double m = 1.0, dt = 0.01, g = 9.81, mu = 0.5;
  MatX J;         // 3 rows per contact x 6, in (v, omega) world coordinates
  VecX Minv;      // diagonal of M^-1
  BoxedLcp Lcp(const VecX& v) const {
    const int rows = 3 * contacts();
    BoxedLcp lcp;
    const MatX MinvJt = Minv.asDiagonal() * J.transpose();
    lcp.A = J * MinvJt;
    VecX v_free = v;
    v_free[1] -= g * dt;
    lcp.b = -J * v_free;   // w = J v+ = A x - b
    lcp.lo.resize(rows);
    lcp.hi.resize(rows);
    lcp.findex.assign(rows, -1);
    for (int c = 0; c < contacts(); ++c) {
      lcp.lo[3 * c] = 0.0;
      lcp.hi[3 * c] = std::numeric_limits<double>::infinity();
      for (int k = 1; k <= 2; ++k) {
        lcp.lo[3 * c + k] = -mu;
        lcp.hi[3 * c + k] = mu;
        lcp.findex[3 * c + k] = 3 * c;
      }
    }
    return lcp;
  }
  VecX VelocityAfter(const VecX& v, const VecX& x) const {
    VecX v_plus = v + Minv.asDiagonal() * (J.transpose() * x);
    v_plus[1] -= g * dt;
    return v_plus;
  }
  // Contacts at the bottom corners (sx, sz) given, all four by default.
  explicit CubeOnGround(std::vector<Vec2> corners = {{-0.5, -0.5}, {-0.5, 0.5}, {0.5, -0.5}, {0.5, 0.5}})
      : J(3 * corners.size(), 6), Minv(6) {
    Minv << 1 / m, 1 / m, 1 / m, 6 / m, 6 / m, 6 / m;
    const Vec3 n(0, 1, 0), t1(1, 0, 0), t2(0, 0, 1);
    int row = 0;
    for (const Vec2& corner : corners) {
      const Vec3 r(corner.x(), -0.5, corner.y());
      for (const Vec3& d : {n, t1, t2}) {
        J.row(row).head<3>() = d.transpose();
        J.row(row).tail<3>() = r.cross(d).transpose();
        ++row;
      }
    }
  }
  int contacts() const { return static_cast<int>(J.rows()) / 3; }
};

// At rest: the 12 x 12 matrix has rank 6, Dantzig must cope with the redundancy (its free set
// solve falls back to a minimum-norm one), and the answer holds the cube still with the
// normals carrying m g dt.
TEST(Lcp, CubeRestingOnFourCornersStaysPut) {
  const CubeOnGround cube;
  const VecX v = VecX::Zero(6);
  const BoxedLcp lcp = cube.Lcp(v);
  for (const LcpResult& r : {SolveDantzig(lcp), SolvePgs(lcp)}) {
    ASSERT_TRUE(r.ok()) << ToString(r.status) << " violation " << r.violation;
    EXPECT_LT(cube.VelocityAfter(v, r.x).lpNorm<Eigen::Infinity>(), 1e-6);
    EXPECT_NEAR(r.x[0] + r.x[3] + r.x[6] + r.x[9], cube.m * cube.g * cube.dt, 1e-6);
  }
}

// Sliding at 2 m/s along x: every contact's x-friction sits at its bound against the motion
// and the cube loses mu g dt of speed; the validity check (Nimble's 1e-5) passes.
TEST(Lcp, SlidingCubeSaturatesFriction) {
  const CubeOnGround cube;
  VecX v = VecX::Zero(6);
  v[0] = 2.0;
  const BoxedLcp lcp = cube.Lcp(v);
  for (const LcpResult& r : {SolveDantzig(lcp), SolvePgs(lcp)}) {
    ASSERT_TRUE(r.ok()) << ToString(r.status) << " violation " << r.violation;
    EXPECT_TRUE(IsValidLcpSolution(lcp, r.x));
    const double normal = r.x[0] + r.x[3] + r.x[6] + r.x[9];
    const double friction_x = r.x[1] + r.x[4] + r.x[7] + r.x[10];
    EXPECT_NEAR(friction_x, -cube.mu * normal, 1e-7);
    const VecX v_plus = cube.VelocityAfter(v, r.x);
    EXPECT_NEAR(v_plus[0], 2.0 - cube.mu * normal / cube.m, 1e-7);
    EXPECT_NEAR(normal, cube.m * cube.g * cube.dt, 1e-4);  // tipping torque redistributes, not adds
  }
}

// ODE's single pass fixes each friction box when its row is added; the front normals then grow
// and leave the friction inside its box while the cube slides (w != 0): invalid, as Nimble's
// released code warns. The box updates repair it.
TEST(Lcp, OdePassAloneLeavesSlidingFrictionInvalid) {
  const CubeOnGround cube;
  VecX v = VecX::Zero(6);
  v[0] = 2.0;
  DantzigOptions ode;
  ode.max_box_updates = 0;
  const LcpResult single = SolveDantzig(cube.Lcp(v), ode);
  EXPECT_EQ(single.status, LcpStatus::kInvalid);
  EXPECT_GT(single.violation, 0.1);
  EXPECT_TRUE(SolveDantzig(cube.Lcp(v)).ok());
}

// Two identical contact rows (App. B's example): any split of the impulse solves the LCP.
// With both rows clamping (a PGS-like split), the stabilized solution is the even one;
// Dantzig's vertex (1, 0) leaves the second row separating, a different (valid) active set.
TEST(ContactLcp, StabilizationSplitsRedundantContactsEvenly) {
  const BoxedLcp lcp = BoxedLcp::Standard((MatX(2, 2) << 1, 1, 1, 1).finished(), Vec2(1.0, 1.0));
  const LcpActiveSet both = ClassifyLcpSolution(lcp, Vec2(0.7, 0.3));
  ASSERT_EQ(both.Indices(LcpRowClass::kClamping), (std::vector<int>{0, 1}));
  const VecX even = SolveOnActiveSet(lcp, both);
  EXPECT_NEAR(even[0], 0.5, 1e-12);
  EXPECT_NEAR(even[1], 0.5, 1e-12);
  EXPECT_TRUE(IsValidLcpSolution(lcp, even));
  const LcpActiveSet vertex = ClassifyLcpSolution(lcp, SolveDantzig(lcp).x);
  EXPECT_EQ(vertex.Indices(LcpRowClass::kClamping).size(), 1u);
}

// The same two rows through ContactLcpSolver: Dantzig's vertex (1, 0) leaves row 1 touching at
// rest with no impulse (w = 0); the wider stabilization clamps it and takes the even split, and
// without it the vertex stays. A row that leaves (w > 0) is not clamped.
TEST(ContactLcp, WiderStabilizationLoadsContactsAtRest) {
  const BoxedLcp lcp = BoxedLcp::Standard((MatX(2, 2) << 1, 1, 1, 1).finished(), Vec2(1.0, 1.0));
  ContactLcpOptions options;
  options.warm_start = false;
  const ContactLcpSolution wide = ContactLcpSolver(options).Solve(lcp);
  EXPECT_EQ(wide.path, ContactLcpPath::kDantzig);
  EXPECT_NEAR(wide.x[0], 0.5, 1e-12);
  EXPECT_NEAR(wide.x[1], 0.5, 1e-12);
  options.stabilize_degenerate = false;
  const ContactLcpSolution vertex = ContactLcpSolver(options).Solve(lcp);
  EXPECT_NEAR(vertex.x[0] + vertex.x[1], 1.0, 1e-12);
  EXPECT_NEAR(vertex.x[0] * vertex.x[1], 0.0, 1e-12);

  LcpActiveSet set = ClassifyLcpSolution(lcp, Vec2(1.0, 0.0));
  EXPECT_TRUE(ClampDegenerateContacts(lcp, Vec2(1.0, 0.0), 1e-10, &set));
  EXPECT_EQ(set.Indices(LcpRowClass::kClamping), (std::vector<int>{0, 1}));
  const BoxedLcp leaving = BoxedLcp::Standard((MatX(2, 2) << 1, 0.5, 0.5, 1).finished(), Vec2(1.0, 0.4));
  LcpActiveSet apart = ClassifyLcpSolution(leaving, Vec2(1.0, 0.0));  // w_1 = 0.5 - 0.4 > 0
  EXPECT_FALSE(ClampDegenerateContacts(leaving, Vec2(1.0, 0.0), 1e-10, &apart));
}

// A cube sliding on three corners (a tripod: no redundant normals): normals clamping,
// x-friction at its lower bound (against the motion); z-friction is clamping or at a bound
// (the pyramid's corners let the yaw torque saturate it), never separating under a loaded
// normal (Nimble's classification, App. A, with its code's thresholds).
TEST(ContactLcp, ClassifiesSlidingCube) {
  const CubeOnGround cube({{-0.5, -0.5}, {-0.5, 0.5}, {0.5, 0.0}});
  VecX v = VecX::Zero(6);
  v[0] = 2.0;
  ContactLcpSolver solver;
  const ContactLcpSolution s = solver.Solve(cube.Lcp(v));
  ASSERT_LE(s.violation, 1e-5);
  for (int c = 0; c < cube.contacts(); ++c) {
    EXPECT_EQ(s.active_set.rows[3 * c], LcpRowClass::kClamping) << c;
    EXPECT_EQ(s.active_set.rows[3 * c + 1], LcpRowClass::kUpperBound) << c;
    EXPECT_EQ(s.active_set.bound_sign[3 * c + 1], -1) << c;
    EXPECT_NE(s.active_set.rows[3 * c + 2], LcpRowClass::kSeparating) << c;  // loaded: sticks or slides
  }
}

// The warm start gives the motion a cold solve (with stabilization) gives, and counts its hits:
// a cube sliding to rest on a tripod over many steps keeps its active set except when it stops.
TEST(ContactLcp, WarmStartMatchesColdSolveAndCountsHits) {
  const CubeOnGround cube({{-0.5, -0.5}, {-0.5, 0.5}, {0.5, 0.0}});
  VecX v = VecX::Zero(6);
  v[0] = 0.3;
  ContactLcpSolver warm;
  int changes = 0;
  LcpActiveSet last;
  for (int step = 0; step < 100; ++step) {
    const BoxedLcp lcp = cube.Lcp(v);
    const ContactLcpSolution w = warm.Solve(lcp);
    ContactLcpSolver cold_solver;
    const ContactLcpSolution cold = cold_solver.Solve(lcp);
    ASSERT_LE(w.violation, 1e-5) << step;
    // The impulses need not be equal: static friction rows can squeeze the cube between two
    // corners (opposite friction at both bounds) and stay valid. The motion is the same.
    const VecX v_warm = cube.VelocityAfter(v, w.x), v_cold = cube.VelocityAfter(v, cold.x);
    EXPECT_LT((v_warm - v_cold).lpNorm<Eigen::Infinity>(), 1e-9) << step;
    if (step > 0 && !(cold.active_set == last)) ++changes;
    last = cold.active_set;
    v = cube.VelocityAfter(v, w.x);
  }
  EXPECT_LT(std::abs(v[0]), 1e-6);  // friction stopped it (0.3 m/s at mu g = 4.9 m/s^2)
  EXPECT_EQ(warm.attempts(), 99);
  EXPECT_GE(warm.hits(), 99 - 2 * changes);
  EXPECT_GE(warm.hits(), 90);
}

// The cold solve's method and its fallback chain are options (issue 18: configurable solvers).
// On a random standard LCP with a unique solution (A symmetric positive definite) every method
// finds it and the path names it; Lemke on a friction problem is not its problem, so the chain
// goes on (or, with no fallback, the solve reports failure as data).
TEST(ContactLcp, MethodAndFallbacksAreOptions) {
  std::mt19937 rng(18);
  const MatX R = RandomMatrix(rng, 6, 6);
  const BoxedLcp standard = BoxedLcp::Standard(R * R.transpose() + MatX::Identity(6, 6), RandomVector(rng, 6));
  const VecX reference = SolveLemke(standard).x;
  for (LcpMethod m : {LcpMethod::kDantzig, LcpMethod::kPgs, LcpMethod::kLemke}) {
    ContactLcpOptions o;
    o.method = m;
    o.fallbacks = {};
    o.stabilize = false;
    o.pgs = TightPgs();
    ContactLcpSolver solver(o);
    const ContactLcpSolution s = solver.Solve(standard);
    EXPECT_EQ(ToString(s.path), ToString(m));
    EXPECT_LT((s.x - reference).lpNorm<Eigen::Infinity>(), 1e-6) << ToString(m);
    EXPECT_EQ(solver.path_count(s.path), 1);
  }
  const CubeOnGround cube({{-0.5, -0.5}, {-0.5, 0.5}, {0.5, 0.0}});
  VecX v = VecX::Zero(6);
  v[0] = 2.0;
  ContactLcpOptions lemke;
  lemke.method = LcpMethod::kLemke;
  lemke.fallbacks = {};
  EXPECT_EQ(ContactLcpSolver(lemke).Solve(cube.Lcp(v)).path, ContactLcpPath::kFailed);
  lemke.fallbacks = ParseLcpFallbacks("lemke,dantzig");
  const ContactLcpSolution s = ContactLcpSolver(lemke).Solve(cube.Lcp(v));
  EXPECT_EQ(s.path, ContactLcpPath::kDantzig);
  EXPECT_LE(s.violation, 1e-5);
}

// PGS stopped at its sweep cap with the right active set: the solve on that set is a valid
// solution, so the LCP counts as solved by PGS (not failed); without stabilization it fails.
TEST(ContactLcp, StabilizedPgsIterateAtItsSweepCapIsSolved) {
  MatX A(2, 2);
  A << 2, 1, 1, 2;
  const BoxedLcp lcp = BoxedLcp::Standard(A, VecX::Ones(2));  // x = (1/3, 1/3), both rows clamp
  ContactLcpOptions o;
  o.method = LcpMethod::kPgs;
  o.fallbacks = {};
  o.warm_start = false;
  o.pgs.max_sweeps = 1;  // one sweep from 0 ends at (1/2, 1/4)
  const ContactLcpSolution s = ContactLcpSolver(o).Solve(lcp);
  EXPECT_EQ(s.path, ContactLcpPath::kPgs);
  EXPECT_TRUE(s.stabilized);
  EXPECT_NEAR(s.x[0], 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(s.x[1], 1.0 / 3.0, 1e-12);
  o.stabilize = false;
  EXPECT_EQ(ContactLcpSolver(o).Solve(lcp).path, ContactLcpPath::kFailed);
}

TEST(ContactLcp, FallbackListsParseOrNameTheUnknownStage) {
  EXPECT_TRUE(ParseLcpFallbacks("none").empty());
  EXPECT_TRUE(ParseLcpFallbacks("").empty());
  EXPECT_EQ(ParseLcpFallbacks("pgs,frictionless"),
            (std::vector<LcpFallback>{LcpFallback::kPgs, LcpFallback::kFrictionless}));
  try {
    ParseLcpFallbacks("pgs,simplex");
    ADD_FAILURE() << "an unknown stage was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("'simplex'"));
  }
  EXPECT_THROW(ParseLcpFallbacks("pgs,"), InvalidArgument);  // an empty stage
}

TEST(Lcp, ViolationMeasuresEachCondition) {
  BoxedLcp lcp = BoxedLcp::Standard(MatX::Identity(2, 2), VecX::Constant(2, 1.0));
  EXPECT_DOUBLE_EQ(LcpViolation(lcp, Vec2(1.0, 1.0)), 0.0);        // w = 0, interior
  EXPECT_DOUBLE_EQ(LcpViolation(lcp, Vec2(0.0, 1.0)), 1.0);        // at lower bound with w = -1
  EXPECT_DOUBLE_EQ(LcpViolation(lcp, Vec2(2.0, 1.0)), 1.0);        // interior with w = 1
  EXPECT_DOUBLE_EQ(LcpViolation(lcp, Vec2(-0.5, 1.0)), 0.5);       // below its bound
  EXPECT_FALSE(IsValidLcpSolution(lcp, Vec2(0.0, 1.0)));
}

// The case's wall-clock budget (core/common/deadline.h) ends every solver like its iteration
// limit: status kMaxIterations, no exception.
TEST(Lcp, PassedDeadlineEndsEverySolver) {
  std::mt19937 rng(7);
  const MatX R = RandomMatrix(rng, 6, 6);
  const BoxedLcp lcp = BoxedLcp::Standard(R * R.transpose() + MatX::Identity(6, 6), VecX::Constant(6, 1.0));
  ASSERT_TRUE(SolveDantzig(lcp).ok());
  const ScopedDeadline deadline(1e-9, "budget");
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(SolveDantzig(lcp).status, LcpStatus::kMaxIterations);
  EXPECT_EQ(SolveLemke(lcp).status, LcpStatus::kMaxIterations);
  EXPECT_EQ(SolvePgs(lcp).status, LcpStatus::kMaxIterations);
}

// Hard problems end with a status, never an exception; malformed ones throw, naming the row.
TEST(Lcp, FailuresAreDataAndBadInputIsAnError) {
  // A ray: A = 0 and w = -b < 0 can never be raised.
  const BoxedLcp ray = BoxedLcp::Standard(MatX::Zero(2, 2), VecX::Constant(2, 1.0));
  EXPECT_EQ(SolveDantzig(ray).status, LcpStatus::kFailed);
  EXPECT_EQ(SolveLemke(ray).status, LcpStatus::kFailed);
  PgsOptions one_sweep;
  one_sweep.max_sweeps = 1;
  EXPECT_EQ(SolvePgs(ray, one_sweep).status, LcpStatus::kMaxIterations);

  BoxedLcp bad = BoxedLcp::Standard(MatX::Identity(2, 2), VecX::Ones(2));
  bad.lo[1] = 0.5;
  try {
    SolveDantzig(bad);
    FAIL() << "lo > 0 accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("row 1"));
  }
  BoxedLcp friction = BoxedLcp::Standard(MatX::Identity(2, 2), VecX::Ones(2));
  friction.findex = {1, 0};
  EXPECT_THROW(SolvePgs(friction), InvalidArgument);  // row 1 is a friction row, not a normal
  friction.findex = {-1, 0};
  friction.lo[1] = -1.0;
  friction.hi[1] = 1.0;
  EXPECT_THROW(SolveLemke(friction), InvalidArgument);  // boxed: not a standard LCP
}

}  // namespace lcp_test
}  // namespace arena
