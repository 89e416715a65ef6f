// The sdrs ContactPotential over collider meshes: broad phase against brute force, the same
// sums with one and two threads, balanced forces per pair, a sound step bound, and measuring
// without side effects.
#include "models/sdrs/sdrs_contact.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>
#include <utility>

#include <Eigen/Eigenvalues>

#include <gtest/gtest.h>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "models/incremental_potential/pose_derivatives.h"
#include "solvers/finite_difference.h"
#include "tests/models/sdrs/sdrs_test_util.h"

namespace arena {
namespace sdrs_contact_test {

using sdrs::testing::Cube;
using sdrs::testing::RandomPoints;
using sdrs::testing::RandomRotation;

// Meshes with vertices only (the potential reads no triangles): `count` bodies scattered in a
// box of side `spread`, each mesh a cube or a random point set of 8 to 30 points, plus a static
// slab below them; every pair may collide.
struct Meshes {
  std::vector<ColliderMesh> meshes;
  ContactConfiguration x;
};

Meshes Scatter(Rng& rng, int count, double spread) {
  Meshes m;
  for (int i = 0; i < count; ++i) {
    ColliderMesh mesh;
    mesh.body = i;
    mesh.collider = i;
    const Vec3 c(Uniform(rng, 0, spread), Uniform(rng, 0, spread), Uniform(rng, 0.5, 0.5 + spread));
    mesh.vertices = i % 2 == 0 ? Cube(c, Uniform(rng, 0.05, 0.2), RandomRotation(rng))
                               : RandomPoints(rng, 8 + static_cast<int>(rng() % 23), c, Uniform(rng, 0.05, 0.2));
    m.meshes.push_back(mesh);
  }
  ColliderMesh ground;
  ground.body = kWorldBody;
  ground.collider = count;
  ground.vertices = Cube(Vec3(0.5 * spread, 0.5 * spread, -5.0), 5.0);
  m.meshes.push_back(ground);
  for (int i = 0; i < static_cast<int>(m.meshes.size()); ++i) {
    for (int j = i + 1; j < static_cast<int>(m.meshes.size()); ++j) m.meshes[i].partners.push_back(j);
  }
  m.x.meshes = &m.meshes;
  m.x.pose.assign(m.meshes.size(), SE3());
  for (const ColliderMesh& mesh : m.meshes) m.x.world.push_back(mesh.vertices);
  return m;
}

// Drops meshes that overlap an earlier one (the potential would be +inf).
void Separate(Meshes* m) {
  for (size_t i = 0; i < m->meshes.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (sdrs::SeparatePointSets(m->meshes[i].vertices, m->meshes[j].vertices).intersecting) {
        m->meshes[i].vertices.rowwise() += Vec3(0, 0, 100.0 + 10.0 * i).transpose();
        m->x.world[i] = m->meshes[i].vertices;
      }
    }
  }
}

// Records the derivatives as they arrive, keyed by (mesh, local point).
class RecordingSink final : public ContactDerivativeSink {
 public:
  using Key = std::tuple<int, double, double, double>;
  static Key KeyOf(const MeshPoint& p) { return {p.mesh, p.local.x(), p.local.y(), p.local.z()}; }
  void AddGradient(const MeshPoint& p, const Vec3& g) override {
    auto [it, fresh] = gradient.try_emplace(KeyOf(p), Vec3::Zero());
    it->second += g;
  }
  void AddHessian(const MeshPoint& p, const MeshPoint& q, const Mat3& block) override {
    auto [it, fresh] = hessian.try_emplace({KeyOf(p), KeyOf(q)}, Mat3::Zero());
    it->second += block;
  }
  std::map<Key, Vec3> gradient;
  std::map<std::pair<Key, Key>, Mat3> hessian;
};

TEST(SdrsContact, BroadPhaseMatchesBruteForce) {
  Rng rng(41);
  const sdrs::HullPairOptions options;
  for (int s = 0; s < 5; ++s) {
    Meshes m = Scatter(rng, 12, 1.5);
    Separate(&m);
    SdrsContact contact(m.meshes, options);
    const auto broad = contact.CandidatePairs(m.x);
    const auto brute = contact.CandidatePairs(m.x, /*brute_force=*/true);
    // Conservative: every pair within the pruning distance is a candidate.
    for (const auto& pair : brute) EXPECT_NE(std::find(broad.begin(), broad.end(), pair), broad.end());
    // And the potential is the sum over every allowed pair, each solved on its own over its
    // hulls' vertices (a random set's interior points are not seen).
    auto hull = [](const PointsX3& p) {
      const ConvexHull h = MakeConvexHull(p);
      const std::vector<int>& index = h.data->input_indices;
      PointsX3 out(index.size(), 3);
      for (size_t k = 0; k < index.size(); ++k) out.row(k) = p.row(index[k]);
      return out;
    };
    double expected = 0.0;
    for (size_t i = 0; i < m.meshes.size(); ++i) {
      for (int j : m.meshes[i].partners) {
        if (m.meshes[i].body == kWorldBody && m.meshes[j].body == kWorldBody) continue;
        sdrs::HullPairResult r;
        sdrs::ComputeHullPairPotential(hull(m.meshes[i].vertices), hull(m.meshes[j].vertices), DerivativeOrder::kValue, options,
                                       nullptr, &r);
        expected += r.value;
      }
    }
    const double total = contact.Evaluate(m.x, nullptr, false, false);
    EXPECT_GT(total, 0.0);
    // The same solves up to the order of the hull's vertices (qhull's against ascending).
    EXPECT_NEAR(total, expected, 1e-12 * expected);
    EXPECT_EQ(contact.stats().candidate_pairs, static_cast<int>(broad.size()));
  }
}

TEST(SdrsContact, OneAndTwoThreadsGiveTheSameSums) {
  Rng rng(42);
  Meshes m = Scatter(rng, 16, 1.2);
  Separate(&m);
  auto run = [&](int threads, bool project) {
    SdrsContact contact(m.meshes, sdrs::HullPairOptions{});
    contact.set_max_threads(threads);
    RecordingSink sink;
    const double value = contact.Evaluate(m.x, &sink, true, project);
    EXPECT_GE(contact.stats().candidate_pairs, 4) << "too few pairs to run in parallel";
    return std::make_pair(value, sink);
  };
  for (bool project : {false, true}) {
    const auto [v1, s1] = run(1, project);
    const auto [v2, s2] = run(2, project);
    EXPECT_EQ(v1, v2);
    ASSERT_EQ(s1.gradient.size(), s2.gradient.size());
    for (const auto& [key, g] : s1.gradient) EXPECT_EQ(g, s2.gradient.at(key));
    ASSERT_EQ(s1.hessian.size(), s2.hessian.size());
    for (const auto& [key, h] : s1.hessian) EXPECT_EQ(h, s2.hessian.at(key));
  }
}

TEST(SdrsContact, ForcesBalanceAndProjectionIsPsd) {
  Rng rng(43);
  // Two bodies 1 cm apart: their forces are opposite; the projected Hessian has no negative
  // eigenvalue.
  std::vector<ColliderMesh> meshes(2);
  meshes[0].body = 0;
  meshes[0].vertices = RandomPoints(rng, 20, Vec3(0, 0, 0.5), 0.3);
  meshes[1].body = 1;
  meshes[1].vertices = RandomPoints(rng, 15, Vec3(0, 0, 0.5), 0.3);
  sdrs::testing::PlaceAtDistance(meshes[0].vertices, &meshes[1].vertices, Vec3::UnitZ(), 0.01);
  meshes[0].partners = {1};
  ContactConfiguration x;
  x.meshes = &meshes;
  x.pose.assign(2, SE3());
  x.world = {meshes[0].vertices, meshes[1].vertices};
  SdrsContact contact(meshes, sdrs::HullPairOptions{});
  RecordingSink sink;
  EXPECT_GT(contact.Evaluate(x, &sink, true, true), 0.0);
  std::array<Vec3, 2> force = {Vec3::Zero(), Vec3::Zero()};
  for (const auto& [key, g] : sink.gradient) force[std::get<0>(key)] -= g;
  EXPECT_GT(force[0].z(), 0.0);  // a is above b: pushed up
  EXPECT_LT((force[0] + force[1]).norm(), 1e-9 * force[0].norm());
  // The projected Hessian as one matrix over the recorded points.
  std::map<RecordingSink::Key, int> index;
  for (const auto& [key, g] : sink.gradient) index.emplace(key, static_cast<int>(index.size()));
  MatX H = MatX::Zero(3 * index.size(), 3 * index.size());
  for (const auto& [key, block] : sink.hessian) H.block<3, 3>(3 * index.at(key.first), 3 * index.at(key.second)) = block;
  const Eigen::SelfAdjointEigenSolver<MatX> eig(H);
  EXPECT_GE(eig.eigenvalues().minCoeff(), -1e-9 * eig.eigenvalues().cwiseAbs().maxCoeff());
  // PairContacts: the same repulsion, and measuring changes no later evaluation.
  std::vector<MeshPairContact> pairs;
  contact.PairContacts(x, &pairs);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_LT((pairs[0].repulsion_on_a - force[pairs[0].mesh_a]).norm(), 1e-9 * force[0].norm());
  EXPECT_EQ(contact.ActiveContacts(), 1);
}

TEST(SdrsContact, MaxStepKeepsEveryPairFinite) {
  Rng rng(44);
  for (int s = 0; s < 10; ++s) {
    Meshes m = Scatter(rng, 8, 1.0);
    Separate(&m);
    SdrsContact contact(m.meshes, sdrs::HullPairOptions{});
    // Every body pulled towards the centre (and down): some pairs would cross at alpha = 1.
    std::vector<PointsX3> displacement(m.meshes.size());
    for (size_t i = 0; i < m.meshes.size(); ++i) {
      displacement[i] = PointsX3::Zero(m.x.world[i].rows(), 3);
      if (m.meshes[i].body == kWorldBody) continue;
      const Vec3 c = m.x.world[i].colwise().mean().transpose();
      displacement[i].rowwise() = (Vec3(0.5, 0.5, -0.2) - c).transpose();
    }
    const double alpha = contact.MaxStep(m.x, displacement);
    EXPECT_GT(alpha, 0.0);
    EXPECT_LE(alpha, 1.0);
    ContactConfiguration moved = m.x;
    for (size_t i = 0; i < m.meshes.size(); ++i) moved.world[i] += alpha * displacement[i];
    EXPECT_TRUE(std::isfinite(contact.Evaluate(moved, nullptr, false, false))) << "sample " << s;
  }
}

// A cube 1 cm above a static slab, sliding along x: the lagged friction (Sec. IV-C) resists the
// slip, scales with the coefficient and is absent at mu = 0; measuring keeps the steps' state.
TEST(SdrsContact, FrictionOpposesTheSlip) {
  auto make = [](double mu) {
    std::vector<ColliderMesh> meshes(2);
    meshes[0].body = 0;
    meshes[0].friction = mu;
    meshes[0].vertices = Cube(Vec3(0, 0, 0.21), 0.2);
    meshes[1].body = kWorldBody;
    meshes[1].friction = 1.0;
    meshes[1].vertices = Cube(Vec3(0, 0, -1.0), 1.0);
    meshes[0].partners = {1};
    return meshes;
  };
  double previous = 0.0;
  for (double mu : {0.0, 0.3, 0.6}) {
    const std::vector<ColliderMesh> meshes = make(mu);
    ContactConfiguration start;
    start.meshes = &meshes;
    start.pose.assign(2, SE3());
    start.world = {meshes[0].vertices, meshes[1].vertices};
    ContactConfiguration next = start;
    next.world[0].rowwise() += Vec3(0.01, 0.0, 0.0).transpose();  // 0.25 m/s over 0.04 s
    SdrsContact contact(meshes, sdrs::HullPairOptions{}, 0.04, 1e-6);
    contact.BeginStep(start);
    EXPECT_EQ(contact.friction_pairs(), mu > 0.0 ? 1 : 0);
    RecordingSink sink;
    contact.Evaluate(next, &sink, true, false);
    Vec3 total = Vec3::Zero();  // repulsion and friction on the cube
    for (const auto& [key, g] : sink.gradient) total -= g;
    std::vector<MeshPairContact> pairs;
    contact.PairContacts(next, &pairs);
    ASSERT_EQ(pairs.size(), 1u);
    const Vec3 force = total - pairs[0].repulsion_on_a;  // the friction alone
    EXPECT_LT((pairs[0].friction_on_a - force).norm(), 1e-9 * std::max(1.0, force.norm()));
    if (mu == 0.0) {
      EXPECT_EQ(pairs[0].friction_on_a.norm(), 0.0);
    } else {
      // Sliding far above the smoothing speed: about mu times the normal force, against the slip.
      EXPECT_LT(force.x(), 0.0);
      EXPECT_NEAR(-force.x(), mu * pairs[0].repulsion_on_a.z(), 0.05 * mu * pairs[0].repulsion_on_a.z());
      EXPECT_GT(-force.x(), previous);
      previous = -force.x();
    }
  }
}

class RecordingStartSink final : public ContactStartSink {
 public:
  void AddMixed(const MeshPoint& p, const MeshPoint& q, const Mat3& block) override {
    auto [it, fresh] = mixed.try_emplace({RecordingSink::KeyOf(p), RecordingSink::KeyOf(q)}, Mat3::Zero());
    it->second += block;
  }
  std::map<std::pair<RecordingSink::Key, RecordingSink::Key>, Mat3> mixed;
};

// The potential with its friction on a tilted cube sliding 1 cm above a slab (the world frame
// is every mesh's frame here, so the sink's points are the world positions): gradient,
// Hessian and the mixed derivatives with respect to the step's start (the lagged weights and
// normal) against central differences over the cube's 24 coordinates.
TEST(SdrsContact, FrictionDerivativesMatchDifferences) {
  std::vector<ColliderMesh> meshes(2);
  meshes[0].body = 0;
  meshes[0].friction = 0.5;
  meshes[0].vertices = Cube(Vec3(0, 0, 0.3), 0.2, Eigen::AngleAxisd(0.4, Vec3(1, 1, 0).normalized()).toRotationMatrix());
  meshes[1].body = kWorldBody;
  meshes[1].friction = 0.5;
  meshes[1].vertices = Cube(Vec3(0, 0, -1.0), 1.0);
  sdrs::testing::PlaceAtDistance(meshes[1].vertices, &meshes[0].vertices, -Vec3::UnitZ(), 0.01);
  meshes[0].partners = {1};
  ContactConfiguration start;
  start.meshes = &meshes;
  start.pose.assign(2, SE3());
  start.world = {meshes[0].vertices, meshes[1].vertices};
  ContactConfiguration next = start;
  next.world[0].rowwise() += Vec3(0.004, -0.002, 0.001).transpose();
  const int n = 3 * static_cast<int>(meshes[0].vertices.rows());
  auto at = [&](const VecX& dx_next, const VecX& dx_start, RecordingSink* sink) {
    ContactConfiguration s = start, x = next;
    for (int v = 0; v < n / 3; ++v) {
      s.world[0].row(v) += dx_start.segment<3>(3 * v).transpose();
      x.world[0].row(v) += dx_next.segment<3>(3 * v).transpose();
    }
    SdrsContact contact(meshes, sdrs::HullPairOptions{}, 0.04, 1e-6);
    contact.BeginStep(s);
    EXPECT_EQ(contact.friction_pairs(), 1);
    return contact.Evaluate(x, sink, sink != nullptr, false);
  };
  // The analytic derivatives, keyed by vertex (the cube's points are its world vertices).
  auto index_of = [&](const RecordingSink::Key& key) {
    for (int v = 0; v < n / 3; ++v) {
      if (RecordingSink::KeyOf({0, meshes[0].vertices.row(v).transpose()}) == key) return v;
    }
    return -1;
  };
  auto gradient_of = [&](const RecordingSink& sink) {
    VecX g = VecX::Zero(n);
    for (const auto& [key, value] : sink.gradient) {
      if (const int v = index_of(key); v >= 0) g.segment<3>(3 * v) += value;
    }
    return g;
  };
  RecordingSink sink;
  at(VecX::Zero(n), VecX::Zero(n), &sink);
  const VecX gradient = gradient_of(sink);
  MatX hessian = MatX::Zero(n, n);
  for (const auto& [key, block] : sink.hessian) hessian.block<3, 3>(3 * index_of(key.first), 3 * index_of(key.second)) += block;
  SdrsContact contact(meshes, sdrs::HullPairOptions{}, 0.04, 1e-6);
  contact.BeginStep(start);
  RecordingStartSink start_sink;
  contact.Evaluate(next, nullptr, false, false);
  contact.StartDerivatives(next, &start_sink);
  MatX mixed = MatX::Zero(n, n);
  for (const auto& [key, block] : start_sink.mixed) mixed.block<3, 3>(3 * index_of(key.first), 3 * index_of(key.second)) += block;
  ASSERT_GT(mixed.cwiseAbs().maxCoeff(), 0.0);

  FdOptions fd;
  fd.step = 1e-6;
  const VecX zero = VecX::Zero(n);
  const FdResult g = FiniteDifferenceJacobian([&](const VecX& dx) { return VecX::Constant(1, at(dx, zero, nullptr)); }, n, fd);
  const FdResult h = FiniteDifferenceJacobian([&](const VecX& dx) {
    RecordingSink s;
    at(dx, zero, &s);
    return gradient_of(s);
  }, n, fd);
  const FdResult m = FiniteDifferenceJacobian([&](const VecX& dx) {
    RecordingSink s;
    at(zero, dx, &s);
    return gradient_of(s);
  }, n, fd);
  const double eg = CorrectedRelativeError(gradient.transpose(), g.jacobian);
  const double eh = CorrectedRelativeError(hessian, h.jacobian);
  const double em = CorrectedRelativeError(mixed, m.jacobian);
  std::printf("[SdrsContact] with friction: rel. error gradient %.2e, Hessian %.2e, mixed %.2e\n", eg, eh, em);
  EXPECT_LT(eg, 1e-6);
  EXPECT_LT(eh, 1e-5);
  EXPECT_LT(em, 1e-5);
}

// Collects the Hessian per ordered pair of meshes in twist space: from point blocks through
// B = [-[x]x, I], or as the twist blocks themselves when `twist` (the step's sink takes those).
class TwistSink final : public ContactDerivativeSink {
 public:
  TwistSink(const ContactConfiguration& x, bool twist) : x_(x), twist_(twist) {}
  void AddGradient(const MeshPoint&, const Vec3&) override {}
  void AddHessian(const MeshPoint& p, const MeshPoint& q, const Mat3& block) override {
    Block(p.mesh, q.mesh) += PointPairTwistHessian(x_.pose[p.mesh].Act(p.local), block, x_.pose[q.mesh].Act(q.local));
  }
  bool TakesTwistHessians() const override { return twist_; }
  void AddTwistHessian(int mesh_p, int mesh_q, const Mat6& block) override { Block(mesh_p, mesh_q) += block; }
  Mat6& Block(int p, int q) { return blocks.try_emplace({p, q}, Mat6::Zero()).first->second; }
  std::map<std::pair<int, int>, Mat6> blocks;

 private:
  const ContactConfiguration& x_;
  bool twist_;
};

// The twist path (O(K) per pair) gives the exact Hessian the point path gives (O(K^2) blocks);
// projected, the assembled twist Hessian of all the bodies is positive semidefinite.
TEST(SdrsContact, TwistHessiansEqualPointHessiansCarriedToTheBodies) {
  Rng rng(45);
  Meshes m = Scatter(rng, 10, 1.0);
  Separate(&m);
  SdrsContact contact(m.meshes, sdrs::HullPairOptions{});
  TwistSink points(m.x, false), twists(m.x, true);
  const double v1 = contact.Evaluate(m.x, &points, true, false);
  const double v2 = contact.Evaluate(m.x, &twists, true, false);
  EXPECT_NEAR(v1, v2, 1e-12 * v1);  // the second solve is warm-started from the first's planes
  ASSERT_GE(contact.stats().active_pairs, 3);
  ASSERT_EQ(points.blocks.size(), twists.blocks.size());
  double scale = 0.0;
  for (const auto& [key, block] : points.blocks) scale = std::max(scale, block.cwiseAbs().maxCoeff());
  for (const auto& [key, block] : points.blocks) {
    ASSERT_TRUE(twists.blocks.count(key)) << key.first << ", " << key.second;
    EXPECT_LT((twists.blocks.at(key) - block).cwiseAbs().maxCoeff(), 1e-10 * scale) << key.first << ", " << key.second;
  }
  TwistSink projected(m.x, true);
  contact.Evaluate(m.x, &projected, true, true);
  const int n = static_cast<int>(m.meshes.size());
  MatX H = MatX::Zero(6 * n, 6 * n);
  for (const auto& [key, block] : projected.blocks) H.block<6, 6>(6 * key.first, 6 * key.second) += block;
  const double lowest = Eigen::SelfAdjointEigenSolver<MatX>(H).eigenvalues().minCoeff();
  EXPECT_GE(lowest, -1e-10 * H.cwiseAbs().maxCoeff());
}

TEST(SdrsContact, BadOptionsAreRejected) {
  sdrs::HullPairOptions o;
  o.x0 = 2.0;
  EXPECT_THROW(SdrsContact(std::vector<ColliderMesh>{}, o), InvalidArgument);
}

}  // namespace sdrs_contact_test
}  // namespace arena
