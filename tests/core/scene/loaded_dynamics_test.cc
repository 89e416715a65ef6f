// The loaded robots through the multibody algorithms: ABA equals M^-1 (tau - c) with M from
// CRBA and c from RNEA, on random states of Atlas, half_cheetah and the test scenes (planar
// joint, ball joint, massless MJCF chain bodies).
#include <gtest/gtest.h>

#include <random>

#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "core/scene/loader.h"

namespace arena {
namespace loaded_dynamics_test {

const std::string kData = std::string(ARENA_TEST_DATA_DIR) + "/scene/";

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

}  // namespace loaded_dynamics_test
}  // namespace arena
