// The hierarchical long-range potential (Algorithm 1; Eq. 4, 6, 8; Ye et al., arXiv 2509.20917)
// between two tessellated spheres: the hierarchy against brute force where every pair is
// resolved exactly, derivatives against finite differences, invariances, the barrier.
#include "models/longrange/long_range_potential.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

#include <gtest/gtest.h>

#include "core/common/error.h"
#include "models/longrange/centered_potential.h"
#include "tests/models/longrange/longrange_test_util.h"

namespace arena::longrange {
namespace long_range_potential_test {

using testing::Flatten;
using testing::Transform;
using testing::Unflatten;

// Two spheres of radius 0.5 (n vertices each), randomly rotated, their centres 1 + gap apart
// along a random direction: the meshes lie inside their spheres, so the mesh gap is >= gap.
struct TwoSpheres {
  std::unique_ptr<BoundingSphereHierarchy> a, b;
  PointsX3 xa, xb;  // world vertices
};
TwoSpheres MakeTwoSpheres(int na, int nb, double gap, Rng& rng) {
  TwoSpheres s;
  const SphereMesh ma = FibonacciSphere(na, 0.5), mb = FibonacciSphere(nb, 0.5);
  s.a = std::make_unique<BoundingSphereHierarchy>(ma.vertices, ma.triangles);
  s.b = std::make_unique<BoundingSphereHierarchy>(mb.vertices, mb.triangles);
  const Vec3 ca = testing::RandomVector(rng, 2.0);
  const Vec3 cb = ca + (1.0 + gap) * testing::RandomUnit(rng);
  s.xa = Transform(ma.vertices, testing::RandomRotation(rng), ca);
  s.xb = Transform(mb.vertices, testing::RandomRotation(rng), cb);
  return s;
}

LongRangeData Evaluate(const TwoSpheres& s, const PointsX3& xa, const PointsX3& xb,
                       const LongRangeOptions& o) {
  BshPose pa, pb;
  PoseFromVertices(*s.a, xa, &pa);
  PoseFromVertices(*s.b, xb, &pb);
  LongRangeData d;
  ComputeLongRangePotential(*s.a, pa, *s.b, pb, o, &d);
  return d;
}

VecX StackedGradient(const LongRangeData& d) {
  VecX g(3 * (d.gradient_a.rows() + d.gradient_b.rows()));
  g << Flatten(d.gradient_a), Flatten(d.gradient_b);
  return g;
}

MatX DenseHessian(const TwoSpheres& s, const LongRangeData& d) {
  return MatX(ExpandHessian(*s.a, *s.b, d.hessian));
}

TEST(LongRange, BshEqualsBruteForceWhereEveryPairIsResolvedExactly) {
  // eps = 1e6 makes d2 = (1 + eps) d1 exceed every centre distance, so Algorithm 1 descends to
  // every leaf pair, and every blend weight is phi <= Phi(r / (eps d1)) <= 10 (r / (eps d1))^3:
  // here r / d1 < 20 (centres at most 1 + gap + 1 apart, leaf radii > 0.05), so phi < 1e-13 and
  // phi' < 1e-12 / d1. The hierarchy then equals Eq. 3 summed by brute force.
  Rng rng(41);
  LongRangeOptions bsh;
  bsh.eps = 1e6;
  LongRangeOptions brute;
  brute.brute_force = true;
  double worst_v = 0.0, worst_g = 0.0, worst_h = 0.0;
  for (double gap : {0.01, 0.3, 3.0}) {
    const TwoSpheres s = MakeTwoSpheres(16, 12, gap, rng);
    const LongRangeData h = Evaluate(s, s.xa, s.xb, bsh);
    const LongRangeData b = Evaluate(s, s.xa, s.xb, brute);
    ASSERT_EQ(h.status, LongRangeStatus::kOk);
    ASSERT_EQ(b.status, LongRangeStatus::kOk);
    EXPECT_EQ(h.stats.centered_terms, 0);
    EXPECT_EQ(h.stats.exact_pairs, s.a->num_triangles() * s.b->num_triangles());
    worst_v = std::max(worst_v, std::abs(h.value - b.value) / b.value);
    worst_g = std::max(worst_g, CorrectedRelativeError(StackedGradient(h), StackedGradient(b)));
    worst_h = std::max(worst_h, CorrectedRelativeError(DenseHessian(s, h), DenseHessian(s, b)));
  }
  std::printf(
      "[LongRange] BSH (eps 1e6) vs brute force: max rel. error value %.2e, gradient "
      "%.2e, Hessian %.2e\n",
      worst_v, worst_g, worst_h);
  EXPECT_LT(worst_v, 1e-9);
  EXPECT_LT(worst_g, 1e-9);
  EXPECT_LT(worst_h, 1e-9);
}

TEST(LongRange, DerivativesMatchFiniteDifferences) {
  // Gradient against central differences of the value, Hessian (point blocks expanded to the
  // vertices) against central differences of the gradient, over every world vertex coordinate.
  Rng rng(42);
  int blended = 0;
  for (double eps : {0.01, 0.5}) {
    double worst_g = 0.0, worst_h = 0.0;
    for (double gap : {0.02, 0.15, 1.0}) {
      const TwoSpheres s = MakeTwoSpheres(10, 9, gap, rng);
      LongRangeOptions o;
      o.eps = eps;
      const LongRangeData d = Evaluate(s, s.xa, s.xb, o);
      ASSERT_EQ(d.status, LongRangeStatus::kOk);
      blended += d.stats.blended_pairs;
      VecX x0(3 * (s.xa.rows() + s.xb.rows()));
      x0 << Flatten(s.xa), Flatten(s.xb);
      const int na = static_cast<int>(3 * s.xa.rows());
      auto at = [&](const VecX& dx, DerivativeOrder order) {
        const VecX x = x0 + dx;
        LongRangeOptions oo = o;
        oo.derivatives = order;
        return Evaluate(s, Unflatten(x.head(na)), Unflatten(x.tail(x.size() - na)), oo);
      };
      FdOptions fd;
      fd.step = 1e-6;
      const FdResult g = FiniteDifferenceJacobian(
          [&](const VecX& dx) { return VecX::Constant(1, at(dx, DerivativeOrder::kValue).value); },
          static_cast<int>(x0.size()), fd);
      const FdResult h = FiniteDifferenceJacobian(
          [&](const VecX& dx) { return StackedGradient(at(dx, DerivativeOrder::kGradient)); },
          static_cast<int>(x0.size()), fd);
      const MatX hess = DenseHessian(s, d);
      worst_g =
          std::max(worst_g, CorrectedRelativeError(StackedGradient(d).transpose(), g.jacobian));
      worst_h = std::max(worst_h, CorrectedRelativeError(hess, h.jacobian));
      EXPECT_LT((hess - hess.transpose()).cwiseAbs().maxCoeff(),
                1e-12 * hess.cwiseAbs().maxCoeff());
    }
    std::printf(
        "[LongRange] eps %g: max rel. error vs central differences: gradient %.2e, "
        "Hessian %.2e (%d blended node pairs so far)\n",
        eps, worst_g, worst_h, blended);
    EXPECT_LT(worst_g, 1e-6) << "eps " << eps;
    EXPECT_LT(worst_h, 1e-5) << "eps " << eps;
  }
  EXPECT_GT(blended, 0) << "no configuration exercised the blend (Eq. 9)";
}

TEST(LongRange, InvariantUnderACommonRigidMotion) {
  // P depends on relative positions and distances only: the forces on the two bodies sum to
  // zero (so do the torques), and moving both bodies together leaves P unchanged.
  Rng rng(43);
  for (bool brute : {false, true}) {
    const TwoSpheres s = MakeTwoSpheres(14, 14, 0.05, rng);
    LongRangeOptions o;
    o.brute_force = brute;
    const LongRangeData d = Evaluate(s, s.xa, s.xb, o);
    Vec3 force = Vec3::Zero(), torque = Vec3::Zero();
    double scale = 0.0;
    for (int i = 0; i < s.xa.rows(); ++i) {
      force += d.gradient_a.row(i).transpose();
      torque += s.xa.row(i).transpose().cross(d.gradient_a.row(i).transpose());
      scale = std::max(scale, d.gradient_a.row(i).norm());
    }
    for (int i = 0; i < s.xb.rows(); ++i) {
      force += d.gradient_b.row(i).transpose();
      torque += s.xb.row(i).transpose().cross(d.gradient_b.row(i).transpose());
    }
    EXPECT_LT(force.norm(), 1e-9 * scale) << (brute ? "brute" : "bsh");
    EXPECT_LT(torque.norm(), 1e-8 * scale) << (brute ? "brute" : "bsh");
    // A net force pushes a away from b (non-prehensile).
    const Vec3 away = s.xa.colwise().mean() - s.xb.colwise().mean();
    EXPECT_GT(-d.gradient_a.colwise().sum().dot(away), 0.0);

    const Mat3 R = testing::RandomRotation(rng);
    const Vec3 t(10.0, -20.0, 5.0);
    const LongRangeData m = Evaluate(s, Transform(s.xa, R, t), Transform(s.xb, R, t), o);
    EXPECT_NEAR(m.value, d.value, 1e-12 * d.value) << (brute ? "brute" : "bsh");
    const LongRangeData shifted =
        Evaluate(s, Transform(s.xa, Mat3::Identity(), t), Transform(s.xb, Mat3::Identity(), t), o);
    EXPECT_LT(CorrectedRelativeError(StackedGradient(shifted), StackedGradient(d)), 1e-9);
  }
}

TEST(LongRange, SwappingTheBodiesSwapsTheOutputs) {
  Rng rng(44);
  const TwoSpheres s = MakeTwoSpheres(14, 10, 0.03, rng);
  TwoSpheres r;
  r.a = std::make_unique<BoundingSphereHierarchy>(*s.b);
  r.b = std::make_unique<BoundingSphereHierarchy>(*s.a);
  const LongRangeData ab = Evaluate(s, s.xa, s.xb, {});
  const LongRangeData ba = Evaluate(r, s.xb, s.xa, {});
  EXPECT_NEAR(ab.value, ba.value, 1e-12 * ab.value);
  EXPECT_LT(CorrectedRelativeError(ab.gradient_a, ba.gradient_b), 1e-9);
  EXPECT_LT(CorrectedRelativeError(ab.gradient_b, ba.gradient_a), 1e-9);
}

// Without body b's derivatives (a static body), body a's are those of the full evaluation: the
// same gradient and the same a-a Hessian block; b's gradient is zero and no block touches b.
// Brute force too. Blends occur at this gap (the hierarchy's cross terms are covered).
TEST(LongRange, DerivativesOfOneBodyOnlyAreItsPartOfTheFullOnes) {
  Rng rng(45);
  const TwoSpheres s = MakeTwoSpheres(14, 10, 0.03, rng);
  for (bool brute : {false, true}) {
    LongRangeOptions o;
    o.brute_force = brute;
    const LongRangeData full = Evaluate(s, s.xa, s.xb, o);
    o.derivatives_b = false;
    const LongRangeData part = Evaluate(s, s.xa, s.xb, o);
    EXPECT_EQ(part.value, full.value);
    EXPECT_LT(CorrectedRelativeError(part.gradient_a, full.gradient_a), 1e-12) << brute;
    EXPECT_EQ(part.gradient_b.norm(), 0.0);
    for (const HessianBlock& h : part.hessian) {
      EXPECT_LT(h.row, part.points.VertexB(0));
      EXPECT_LT(h.col, part.points.VertexB(0));
    }
    const int na = 3 * s.a->num_vertices();
    const MatX ha = DenseHessian(s, full).topLeftCorner(na, na);
    EXPECT_LT(CorrectedRelativeError(DenseHessian(s, part).topLeftCorner(na, na), ha), 1e-12) << brute;
    if (!brute) {
      EXPECT_GT(full.stats.blended_pairs, 0);
    }
  }
}

TEST(LongRange, IntersectingMeshesAreInfinite) {
  Rng rng(45);
  const TwoSpheres s = MakeTwoSpheres(20, 20, -0.3, rng);  // centres 0.7 apart: the shells cross
  for (bool brute : {false, true}) {
    LongRangeOptions o;
    o.brute_force = brute;
    const LongRangeData d = Evaluate(s, s.xa, s.xb, o);
    EXPECT_EQ(d.status, LongRangeStatus::kIntersecting);
    EXPECT_EQ(d.value, std::numeric_limits<double>::infinity());
    EXPECT_TRUE(d.hessian.empty());
    EXPECT_EQ(d.gradient_a.cwiseAbs().maxCoeff(), 0.0);
  }
}

TEST(LongRange, FarBodiesAreOneCentredTerm) {
  // Non-vanishing: 100 m apart the potential is the roots' centred term, with a non-zero
  // repulsive force on every vertex (weight 1/|I|, Lemma A.3, case II.b).
  Rng rng(46);
  const TwoSpheres s = MakeTwoSpheres(18, 18, 99.0, rng);
  const LongRangeData d = Evaluate(s, s.xa, s.xb, {});
  BshPose pa, pb;
  PoseFromVertices(*s.a, s.xa, &pa);
  PoseFromVertices(*s.b, s.xb, &pb);
  const Vec3 diff = pa.centers[s.a->root()] - pb.centers[s.b->root()];
  EXPECT_EQ(d.stats.node_pairs, 1);
  EXPECT_EQ(d.stats.exact_pairs, 0);
  EXPECT_DOUBLE_EQ(d.value, CenteredPotential(diff.norm()).value);
  EXPECT_EQ(d.hessian.size(), 4u);
  for (int i = 0; i < s.xa.rows(); ++i) EXPECT_GT(-d.gradient_a.row(i).dot(diff), 0.0);
}

TEST(LongRange, OutputsAreDeterministicAndOrdersAgree) {
  Rng rng(47);
  const TwoSpheres s = MakeTwoSpheres(24, 24, 0.02, rng);
  BshPose pa, pb;
  PoseFromVertices(*s.a, s.xa, &pa);
  PoseFromVertices(*s.b, s.xb, &pb);
  LongRangeData d1, d2;
  ComputeLongRangePotential(*s.a, pa, *s.b, pb, {}, &d1);
  ComputeLongRangePotential(*s.a, pa, *s.b, pb, {}, &d2);
  ComputeLongRangePotential(*s.a, pa, *s.b, pb, {}, &d2);  // reused data
  EXPECT_EQ(d1.value, d2.value);
  EXPECT_TRUE(d1.gradient_a == d2.gradient_a && d1.gradient_b == d2.gradient_b);
  ASSERT_EQ(d1.hessian.size(), d2.hessian.size());
  for (std::size_t k = 0; k < d1.hessian.size(); ++k) {
    EXPECT_TRUE(d1.hessian[k].row == d2.hessian[k].row && d1.hessian[k].col == d2.hessian[k].col &&
                d1.hessian[k].block == d2.hessian[k].block);
  }
  LongRangeOptions o;
  o.derivatives = DerivativeOrder::kGradient;
  LongRangeData g;
  ComputeLongRangePotential(*s.a, pa, *s.b, pb, o, &g);
  EXPECT_EQ(g.value, d1.value);
  EXPECT_TRUE(g.gradient_a == d1.gradient_a && g.hessian.empty());
  o.derivatives = DerivativeOrder::kValue;
  ComputeLongRangePotential(*s.a, pa, *s.b, pb, o, &g);
  EXPECT_EQ(g.value, d1.value);
  std::printf(
      "[LongRange] 44 x 44 triangles, gap 0.02: %d node pairs, %d exact, %d centred, %d "
      "blended, %d Hessian blocks, Newton trials per exact pair %.1f (max %d)\n",
      d1.stats.node_pairs, d1.stats.exact_pairs, d1.stats.centered_terms, d1.stats.blended_pairs,
      d1.stats.hessian_blocks,
      static_cast<double>(d1.stats.newton_iterations) / std::max(1, d1.stats.exact_pairs),
      d1.stats.max_newton_iterations);
  // Point positions: node points are the world centres.
  EXPECT_EQ(PointPosition(d1.points, pa, pb, d1.points.NodeB(3)), pb.centers[3]);
  EXPECT_TRUE(PointPosition(d1.points, pa, pb, d1.points.VertexA(2)) == s.xa.row(2).transpose());
}

TEST(LongRange, WarmStartsAndSmallInitialDampingKeepTheResult) {
  // Both only change where each pair's Newton solve starts; P is unique, so the outputs agree
  // to the solve tolerance while the number of Newton trials drops.
  Rng rng(49);
  const TwoSpheres s = MakeTwoSpheres(30, 30, 0.03, rng);
  PointsX3 moved = s.xb;
  moved.rowwise() += Vec3(2e-3, -1e-3, 1e-3).transpose();
  BshPose pa, pb, pm;
  PoseFromVertices(*s.a, s.xa, &pa);
  PoseFromVertices(*s.b, s.xb, &pb);
  PoseFromVertices(*s.b, moved, &pm);
  LongRangeData reference;
  ComputeLongRangePotential(*s.a, pa, *s.b, pb, {}, &reference);
  auto agree = [&](const LongRangeData& d, const char* what) {
    EXPECT_NEAR(d.value, reference.value, 1e-12 * reference.value) << what;
    EXPECT_LT(CorrectedRelativeError(StackedGradient(d), StackedGradient(reference)), 1e-9) << what;
    EXPECT_LT(CorrectedRelativeError(DenseHessian(s, d), DenseHessian(s, reference)), 1e-8) << what;
  };
  LongRangeOptions warm;
  warm.warm_start = true;
  LongRangeData w;
  ComputeLongRangePotential(*s.a, pa, *s.b, pm, warm, &w);  // fills the plane cache
  ComputeLongRangePotential(*s.a, pa, *s.b, pb, warm, &w);
  agree(w, "warm start");
  LongRangeOptions newton;
  newton.pair.initial_damping = 1e-6;
  LongRangeData n;
  ComputeLongRangePotential(*s.a, pa, *s.b, pb, newton, &n);
  agree(n, "initial damping 1e-6");
  warm.pair.initial_damping = 1e-6;
  ComputeLongRangePotential(*s.a, pa, *s.b, pm, warm, &w);
  ComputeLongRangePotential(*s.a, pa, *s.b, pb, warm, &w);
  agree(w, "both");
  auto trials = [](const LongRangeData& d) {
    return static_cast<double>(d.stats.newton_iterations) / d.stats.exact_pairs;
  };
  std::printf(
      "[LongRange] Newton trials per exact pair: authors' damping %.1f, initial damping "
      "1e-6 %.1f, and warm started after a 2.4e-3 m motion %.1f\n",
      trials(reference), trials(n), trials(w));
  EXPECT_LT(trials(w), trials(reference));
}

TEST(LongRange, OptionsValidate) {
  EXPECT_EQ(LongRangeOptions{}.Validate(), "");
  LongRangeOptions o;
  o.eps = 0.0;
  EXPECT_NE(o.Validate(), "");
  Rng rng(48);
  const TwoSpheres s = MakeTwoSpheres(6, 6, 1.0, rng);
  BshPose pa, pb;
  PoseFromVertices(*s.a, s.xa, &pa);
  PoseFromVertices(*s.b, s.xb, &pb);
  LongRangeData d;
  EXPECT_THROW(ComputeLongRangePotential(*s.a, pa, *s.b, pb, o, &d), InvalidArgument);
  EXPECT_EQ(ToString(LongRangeStatus::kPairNotConverged), "pair_not_converged");
}

}  // namespace long_range_potential_test
}  // namespace arena::longrange
