// The loaded robots through the multibody algorithms: ABA equals M^-1 (tau - c) with M from
// CRBA and c from RNEA, on random states of Atlas, half_cheetah and the test scenes (planar
// joint, ball joint, massless MJCF chain bodies); and a robot 1 km from the world origin has
// the dynamics it has at the origin.
#include <gtest/gtest.h>

#include <random>

#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "core/scene/loader.h"
#include "tests/test_paths.h"

namespace arena {
namespace loaded_dynamics_test {

const std::string kData = ::arena::testing::TestDataDir() + "/scene/";

void ExpectAbaMatchesCrba(const Scene& scene, int samples, std::uint64_t seed) {
  const MultibodyModel& model = scene.model;
  MultibodyData data(model);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int s = 0; s < samples; ++s) {
    const VecX q = RandomConfiguration(model, rng);
    VecX v(model.nv()), tau(model.nv());
    for (int i = 0; i < model.nv(); ++i) {
      v[i] = normal(rng);
      tau[i] = 10.0 * normal(rng);
    }
    Crba(model, data, q);
    const MatX M = data.M;
    ASSERT_TRUE(M.isApprox(M.transpose(), 1e-12)) << scene.name;
    const Eigen::LLT<MatX> llt(M);
    ASSERT_EQ(llt.info(), Eigen::Success) << scene.name << ": M is not positive definite";
    const VecX c = NonlinearEffects(model, data, q, v);
    const VecX expected = llt.solve(tau - c);
    const VecX ddq = Aba(model, data, q, v, tau);
    // Relative to the size of the accelerations; M's condition number (Atlas: light hands on
    // a heavy torso) bounds the round-off, hence 1e-8 rather than machine epsilon.
    const double scale = 1.0 + expected.cwiseAbs().maxCoeff();
    EXPECT_LT((ddq - expected).cwiseAbs().maxCoeff(), 1e-8 * scale)
        << scene.name << " sample " << s << "\n ddq      " << ddq.transpose()
        << "\n expected " << expected.transpose();
  }
}

TEST(LoadedDynamicsTest, AtlasAbaMatchesCrba) {
  UrdfOptions options;
  options.load_meshes = false;
  ExpectAbaMatchesCrba(LoadUrdf(DartDataDir() + "/sdf/atlas/atlas_v3_no_head.urdf", options), 20, 1);
}

TEST(LoadedDynamicsTest, HalfCheetahAbaMatchesCrba) {
  ExpectAbaMatchesCrba(LoadMjcf(DartDataDir() + "/mjcf/openai/half_cheetah.xml.gz"), 20, 2);
}

TEST(LoadedDynamicsTest, HopperAbaMatchesCrba) {
  ExpectAbaMatchesCrba(LoadMjcf(DartDataDir() + "/mjcf/openai/hopper.xml"), 20, 3);
}

TEST(LoadedDynamicsTest, TestScenesAbaMatchesCrba) {
  UrdfOptions options;
  options.load_meshes = false;
  ExpectAbaMatchesCrba(LoadUrdf(kData + "pkg_demo/urdf/robot.urdf", options), 20, 4);
  ExpectAbaMatchesCrba(LoadMjcf(kData + "features.xml"), 20, 5);
}

// A copy of `model` with every tree moved by r (its root joint placed r further).
MultibodyModel Translated(const MultibodyModel& model, const Vec3& r) {
  MultibodyModel out;
  for (const BodyModel& b : model.bodies()) {
    JointModel joint = b.joint;
    if (b.parent == kWorldBody) joint.placement.translation() += r;
    out.AddBody(b.name, b.parent, joint, b.inertia);
  }
  out.set_gravity(model.gravity());
  return out;
}

double RelativeDifference(const MatX& a, const MatX& b) {
  return (a - b).cwiseAbs().maxCoeff() / (1.0 + b.cwiseAbs().maxCoeff());
}

// The mass matrix, the accelerations (with external wrenches: the same forces at the moved
// points) and the dynamics' derivatives do not depend on where the robot stands. About the
// world origin they lost precision as r^2: half_cheetah's M was off by 1.4e-10 at 1 km and
// Atlas's accelerations by 1.2e-7.
void ExpectSameDynamicsFarAway(const Scene& scene, std::uint64_t seed) {
  const Vec3 r(1000.0, -700.0, 300.0);
  const MultibodyModel& near = scene.model;
  const MultibodyModel far = Translated(near, r);
  MultibodyData dn(near), df(far);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int s = 0; s < 5; ++s) {
    const VecX q = RandomConfiguration(near, rng);
    VecX v(near.nv()), tau(near.nv());
    for (int i = 0; i < near.nv(); ++i) {
      v[i] = normal(rng);
      tau[i] = 10.0 * normal(rng);
    }
    std::vector<Force> f_near(near.num_bodies()), f_far(near.num_bodies());
    for (int b = 0; b < near.num_bodies(); ++b) {
      for (int k = 0; k < 6; ++k) f_near[b][k] = normal(rng);
      f_far[b] = f_near[b];
      f_far[b].head<3>() += r.cross(f_near[b].tail<3>());  // the wrench about the world origin
    }
    Crba(near, dn, q);
    Crba(far, df, q);
    EXPECT_LT(RelativeDifference(df.M, dn.M), 1e-12) << scene.name << " M, sample " << s;
    EXPECT_LT(RelativeDifference(Aba(far, df, q, v, tau), Aba(near, dn, q, v, tau)), 1e-12)
        << scene.name << " ddq, sample " << s;
    EXPECT_LT(RelativeDifference(Aba(far, df, q, v, tau, &f_far), Aba(near, dn, q, v, tau, &f_near)), 1e-12)
        << scene.name << " ddq with wrenches, sample " << s;
    // The poses themselves carry r eps ~ 2e-13 m of round-off at 1 km, which M^-1 amplifies by
    // its condition number in the derivatives of ddq (Atlas: 1.6e-12 seen), hence 1e-10 there.
    AbaDerivatives(near, dn, q, v, tau, &f_near);
    AbaDerivatives(far, df, q, v, tau, &f_far);
    EXPECT_LT(RelativeDifference(df.dtau_dq, dn.dtau_dq), 1e-12) << scene.name << " dtau/dq, sample " << s;
    EXPECT_LT(RelativeDifference(df.dtau_dv, dn.dtau_dv), 1e-12) << scene.name << " dtau/dv, sample " << s;
    EXPECT_LT(RelativeDifference(df.dddq_dq, dn.dddq_dq), 1e-10) << scene.name << " dddq/dq, sample " << s;
  }
}

TEST(LoadedDynamicsTest, AtlasFarFromTheOriginMovesAsAtTheOrigin) {
  UrdfOptions options;
  options.load_meshes = false;
  ExpectSameDynamicsFarAway(LoadUrdf(DartDataDir() + "/sdf/atlas/atlas_v3_no_head.urdf", options), 6);
}

TEST(LoadedDynamicsTest, HalfCheetahFarFromTheOriginMovesAsAtTheOrigin) {
  ExpectSameDynamicsFarAway(LoadMjcf(DartDataDir() + "/mjcf/openai/half_cheetah.xml.gz"), 7);
}

}  // namespace loaded_dynamics_test
}  // namespace arena
