// The pose derivatives and the tangent chain of the incremental-potential models against
// finite differences of the scalar energy on the configuration manifold: E(q (+) eps), second
// differences in eps, on random trees with every joint type (free, ball, planar, revolute,
// prismatic, fixed) and an energy of body vertices with cross-body coupling.
#include <gtest/gtest.h>

#include <cmath>

#include "core/math/so3.h"
#include "core/multibody/configuration.h"
#include "models/incremental_potential/pose_derivatives.h"
#include "models/incremental_potential/tangent_chain.h"
#include "solvers/finite_difference.h"
#include "tests/core/multibody/multibody_test_util.h"

namespace arena {
namespace tangent_chain_test {

using testing::RandomRotation;
using testing::RandomTreeSample;
using testing::RandomVec3;
using testing::Uniform;

SE3 RandomSE3(std::mt19937_64& rng) { return SE3(RandomRotation(rng), RandomVec3(rng, 1.0)); }

// Gradient and Hessian of e(xi) at 0 by central and second differences.
template <class F>
void DifferenceDerivatives(const F& e, int n, double h, VecX* g, MatX* H) {
  g->resize(n);
  H->resize(n, n);
  auto unit = [n](int i) { return VecX(VecX::Unit(n, i)); };
  for (int i = 0; i < n; ++i) {
    (*g)[i] = (e(h * unit(i)) - e(-h * unit(i))) / (2 * h);
    for (int j = 0; j < n; ++j) {
      const VecX a = h * unit(i), b = h * unit(j);
      (*H)(i, j) = (e(a + b) - e(a - b) - e(-a + b) + e(-a - b)) / (4 * h * h);
    }
  }
}

// The structured product the contact sink uses equals the product of the point Jacobians.
TEST(PoseDerivatives, PointPairTwistHessianIsTheJacobianProduct) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 5; ++trial) {
    const Vec3 xp = RandomVec3(rng, 2.0), xq = RandomVec3(rng, 2.0);
    Mat3 H;
    for (int c = 0; c < 3; ++c) H.col(c) = RandomVec3(rng, 1.0);
    const Mat6 expected = PointTwistJacobian(xp).transpose() * H * PointTwistJacobian(xq);
    EXPECT_LT((PointPairTwistHessian(xp, H, xq) - expected).cwiseAbs().maxCoeff(), 1e-14 * (1.0 + expected.norm()));
    // The accumulating form adds the same block to what is there.
    Mat6 sum = Mat6::Constant(0.5);
    AddPointPairTwistHessian(xp, H, xq, &sum);
    EXPECT_LT((sum - Mat6::Constant(0.5) - expected).cwiseAbs().maxCoeff(), 1e-14 * (1.0 + expected.norm()));
  }
}

TEST(PoseDerivatives, LinearAndQuadraticTermsMatchDifferences) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 5; ++trial) {
    const SE3 T = RandomSE3(rng);
    Mat34 A;
    for (int i = 0; i < 12; ++i) A(i % 3, i / 3) = Uniform(rng, -1.0, 1.0);
    Mat34 C;
    for (int i = 0; i < 12; ++i) C(i % 3, i / 3) = Uniform(rng, -1.0, 1.0);
    Eigen::Matrix4d W = Eigen::Matrix4d::Random();
    W = W * W.transpose();
    // Linear: E = A : T.
    auto linear = [&](const VecX& xi) { return (A.array() * TopRows(ExpSE3(xi) * T).array()).sum(); };
    VecX g;
    MatX H;
    DifferenceDerivatives(linear, 6, 1e-4, &g, &H);
    EXPECT_LT(CorrectedRelativeError(PoseGradient(T, A), g), 1e-7);
    EXPECT_LT(CorrectedRelativeError(PoseSecondOrder(T, A), H), 1e-5);
    // Quadratic: E = 1/2 tr(D W D^T), D = T - C: A = D W, Hessian Q + S(A).
    auto quadratic = [&](const VecX& xi) {
      const Mat34 D = TopRows(ExpSE3(xi) * T) - C;
      return 0.5 * (D * W * D.transpose()).trace();
    };
    DifferenceDerivatives(quadratic, 6, 1e-4, &g, &H);
    const Mat34 AD = (TopRows(T) - C) * W;
    EXPECT_LT(CorrectedRelativeError(PoseGradient(T, AD), g), 1e-7);
    EXPECT_LT(CorrectedRelativeError(PoseQuadratic(T, W) + PoseSecondOrder(T, AD), H), 1e-5);
  }
}

// E(q) = sum over bodies of a smooth function of two body points, plus a spring between points
// of different bodies (cross blocks). Its derivatives through the chain equal the differences.
TEST(TangentChain, GradientAndHessianMatchDifferencesOnRandomTrees) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    auto [model, q, v, rng] = RandomTreeSample(seed, 100 + seed, {.num_bodies = 7});
    const int nb = model.num_bodies();
    std::vector<Vec3> p1(nb), p2(nb);
    for (int k = 0; k < nb; ++k) p1[k] = RandomVec3(rng, 0.5), p2[k] = RandomVec3(rng, 0.5);
    const Vec3 a = RandomVec3(rng, 1.0);
    // f(x) = a.x + sin(x0) x1 + |x|^2 / 2 per point; spring between body k's p1 and body k+1's p2.
    auto point_energy = [&](const Vec3& x, Vec3* gx, Mat3* Hx) {
      if (gx != nullptr) *gx = a + Vec3(std::cos(x[0]) * x[1], std::sin(x[0]), 0.0) + x;
      if (Hx != nullptr) {
        *Hx = Mat3::Identity();
        (*Hx)(0, 0) += -std::sin(x[0]) * x[1];
        (*Hx)(0, 1) += std::cos(x[0]);
        (*Hx)(1, 0) += std::cos(x[0]);
      }
      return a.dot(x) + std::sin(x[0]) * x[1] + 0.5 * x.squaredNorm();
    };
    TangentChain chain(model);
    auto energy_at = [&](const VecX& qq) {
      chain.Update(qq);
      double e = 0.0;
      for (int k = 0; k < nb; ++k) {
        e += point_energy(chain.pose(k).Act(p1[k]), nullptr, nullptr) + point_energy(chain.pose(k).Act(p2[k]), nullptr, nullptr);
        if (k + 1 < nb) e += 0.5 * (chain.pose(k).Act(p1[k]) - chain.pose(k + 1).Act(p2[k + 1])).squaredNorm();
      }
      return e;
    };
    // Analytical: per-point gradients into A_k, Hessians through B.
    chain.Update(q);
    std::vector<Vec6> G(nb, Vec6::Zero());
    BodyHessian blocks;
    blocks.Reset(nb);
    std::vector<Mat34> A(nb, Mat34::Zero());
    auto add_point = [&](int k, const Vec3& local, const Vec3& gx, const Mat3& Hx) {
      Eigen::Vector4d vh;
      vh << local, 1.0;
      A[k] += gx * vh.transpose();
      const auto B = PointTwistJacobian(chain.pose(k).Act(local));
      blocks.Add(k, k, B.transpose() * Hx * B);
    };
    for (int k = 0; k < nb; ++k) {
      for (const Vec3* p : {&p1[k], &p2[k]}) {
        Vec3 gx;
        Mat3 Hx;
        point_energy(chain.pose(k).Act(*p), &gx, &Hx);
        add_point(k, *p, gx, Hx);
      }
      if (k + 1 < nb) {
        const Vec3 d = chain.pose(k).Act(p1[k]) - chain.pose(k + 1).Act(p2[k + 1]);
        add_point(k, p1[k], d, Mat3::Identity());
        add_point(k + 1, p2[k + 1], -d, Mat3::Identity());
        const auto Bk = PointTwistJacobian(chain.pose(k).Act(p1[k]));
        const auto Bl = PointTwistJacobian(chain.pose(k + 1).Act(p2[k + 1]));
        blocks.Add(k, k + 1, -Bk.transpose() * Bl);
      }
    }
    for (int k = 0; k < nb; ++k) {
      G[k] = PoseGradient(chain.pose(k), A[k]);
      blocks.self[k] += PoseSecondOrder(chain.pose(k), A[k]);
    }
    VecX g;
    chain.Gradient(G, &g);
    MatX H = MatX::Zero(model.nv(), model.nv());
    chain.AddHessian(blocks, G, &H);
    VecX g_fd;
    MatX H_fd;
    DifferenceDerivatives([&](const VecX& eps) { return energy_at(Integrate(model, q, eps)); }, model.nv(), 1e-4, &g_fd,
                          &H_fd);
    EXPECT_LT(CorrectedRelativeError(g, g_fd), 1e-7) << "seed " << seed;
    EXPECT_LT(CorrectedRelativeError(H, H_fd), 1e-5) << "seed " << seed;
    EXPECT_LT((H - H.transpose()).cwiseAbs().maxCoeff(), 1e-12);
  }
}

}  // namespace tangent_chain_test
}  // namespace arena
