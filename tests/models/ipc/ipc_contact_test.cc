// The ipc model's contact potential (models/ipc/ipc_contact.h) on a small scene where every
// kind of pair is active (tests/models/ipc/ipc_test_scenes.h): its gradient and exact Hessian
// against central differences in the world vertex positions, barrier and lagged friction
// (sliding and sticking pairs) together, for both barriers; the projected Hessian is PSD; the
// friction's start derivatives d(grad_x+ D)/dx^t against differences of the gradient in the
// start positions; the same checks at a no-contact state (every pair beyond dhat); the step
// bound keeps every pair apart along a curved path.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include <Eigen/Eigenvalues>

#include "core/common/options.h"
#include "core/geometry/mesh.h"
#include "core/geometry/mesh_distance.h"
#include "models/ipc/ipc_contact.h"
#include "models/ipc/ipc_simulator.h"
#include "solvers/finite_difference.h"
#include "tests/models/ipc/ipc_test_scenes.h"

namespace arena {
namespace ipc_contact_test {

using ipc_testing::BodyPoses;
using ipc_testing::TwoBoxesScene;

// Every vertex of every mesh as one vector: mesh m's vertex v at 3 (offset[m] + v).
struct Layout {
  explicit Layout(const std::vector<ColliderMesh>& meshes) : meshes(meshes) {
    for (const ColliderMesh& m : meshes) {
      offset.push_back(size);
      size += static_cast<int>(m.vertices.rows());
    }
  }
  int Index(const MeshPoint& p) const {
    const PointsX3& v = meshes[p.mesh].vertices;
    for (Eigen::Index r = 0; r < v.rows(); ++r) {
      if (v.row(r).transpose() == p.local) return offset[p.mesh] + static_cast<int>(r);
    }
    ADD_FAILURE() << "a point that is not a vertex";
    return 0;
  }
  ContactConfiguration At(const VecX& y) const {
    ContactConfiguration x;
    x.meshes = &meshes;
    for (size_t m = 0; m < meshes.size(); ++m) {
      x.pose.emplace_back();
      PointsX3 w(meshes[m].vertices.rows(), 3);
      for (Eigen::Index r = 0; r < w.rows(); ++r) w.row(r) = y.segment<3>(3 * (offset[m] + r)).transpose();
      x.world.push_back(w);
    }
    return x;
  }
  const std::vector<ColliderMesh>& meshes;
  std::vector<int> offset;
  int size = 0;
};

class DenseSink final : public ContactDerivativeSink {
 public:
  explicit DenseSink(const Layout& layout) : layout_(layout), g(VecX::Zero(3 * layout.size)), H(MatX::Zero(3 * layout.size, 3 * layout.size)) {}
  void AddGradient(const MeshPoint& p, const Vec3& v) override { g.segment<3>(3 * layout_.Index(p)) += v; }
  void AddHessian(const MeshPoint& p, const MeshPoint& q, const Mat3& b) override {
    H.block<3, 3>(3 * layout_.Index(p), 3 * layout_.Index(q)) += b;
  }
  const Layout& layout_;
  VecX g;
  MatX H;
};

class DenseStartSink final : public ContactStartSink {
 public:
  explicit DenseStartSink(const Layout& layout) : layout_(layout), M(MatX::Zero(3 * layout.size, 3 * layout.size)) {}
  void AddMixed(const MeshPoint& p, const MeshPoint& q, const Mat3& b) override {
    M.block<3, 3>(3 * layout_.Index(p), 3 * layout_.Index(q)) += b;
  }
  const Layout& layout_;
  MatX M;
};

// The two-box scene's meshes and vertex positions; the start is the end moved back so that box
// A slides 0.32 mm on the ground (beyond eps_u = 40 um) and box B sticks on A (14 um of slip).
// With `lift` > 0, A is raised by lift and B by 2 lift: every pair is then at least
// lift + 0.4 mm apart (a no-contact state for the clamped barrier once that exceeds dhat).
struct Fixture {
  explicit Fixture(double lift = 0.0) : scene(TwoBoxesScene()), meshes(BuildColliderMeshes(*scene, {})), layout(meshes) {
    const std::vector<SE3> poses = BodyPoses(*scene, DefaultState(*scene).q);
    end = VecX(3 * layout.size);
    start = VecX(3 * layout.size);
    const Vec3 slide_a(3e-4, 1e-4, 0.0), slide_b = slide_a + Vec3(1e-5, 1e-5, 0.0);
    for (size_t m = 0; m < meshes.size(); ++m) {
      const int body = meshes[m].body;
      for (Eigen::Index r = 0; r < meshes[m].vertices.rows(); ++r) {
        const Vec3 local = meshes[m].vertices.row(r).transpose();
        const Vec3 world = body == kWorldBody ? local : poses[body].Act(local);
        const Vec3 back = body == 0 ? slide_a : body == 1 ? slide_b : Vec3::Zero();
        const Vec3 up = body == 0 ? Vec3(0.0, 0.0, lift) : body == 1 ? Vec3(0.0, 0.0, 2.0 * lift) : Vec3::Zero();
        end.segment<3>(3 * (layout.offset[m] + r)) = world + up;
        start.segment<3>(3 * (layout.offset[m] + r)) = world + up - back;
      }
    }
  }
  IpcContactParameters Parameters(ipc::BarrierKind kind) const {
    IpcContactParameters p;
    p.barrier.kind = kind;
    p.barrier.dhat = 1e-3;
    p.kappa = IpcSimulator::AutomaticKappa(*scene, 1e-3, kind == ipc::BarrierKind::kClampedLog ? IpcBarrier::kClampedLog : IpcBarrier::kGlobal);
    p.dt = 0.04;
    return p;
  }
  std::shared_ptr<const Scene> scene;
  std::vector<ColliderMesh> meshes;
  Layout layout;
  VecX end, start;
};

// Ridders from 10 um (1/40 of the smallest gap, and of sticking B's distance to eps_u: no
// closest-feature type or friction regime changes within it).
FdOptions Ridders() {
  FdOptions fd;
  fd.method = FdMethod::kRidders;
  fd.ridders_step = 1e-5;
  fd.ridders_rows = 5;  // down to 2.6 um, extrapolated
  return fd;
}

double Energy(IpcContact& contact, const Layout& layout, const VecX& y) {
  return contact.Evaluate(layout.At(y), nullptr, false, false);
}

class IpcContactTest : public ::testing::TestWithParam<ipc::BarrierKind> {};

TEST_P(IpcContactTest, EveryPairKindIsActive) {
  Fixture f;
  IpcContact contact(f.meshes, f.Parameters(GetParam()));
  contact.BeginStep(f.layout.At(f.start));
  contact.Evaluate(f.layout.At(f.end), nullptr, false, false);
  if (GetParam() == ipc::BarrierKind::kClampedLog) {
    // A's corner on the ground; B's two lowest vertices on A's faces; B's edge on A's diagonal.
    EXPECT_EQ(contact.stats().active_pairs, 4);
    EXPECT_EQ(contact.friction_pairs(), 4);
    EXPECT_NEAR(contact.stats().min_distance, ipc_testing::kGapA, 1e-12);  // A's corner
  } else {
    EXPECT_GT(contact.stats().active_pairs, 500);
    EXPECT_EQ(contact.friction_pairs(), contact.stats().active_pairs);
  }
}

// Gradient and exact Hessian against Ridders differences (from `ridders_step`) at the fixture's
// state; the projected Hessian is PSD with the same gradient.
void CheckDerivatives(const Fixture& f, ipc::BarrierKind kind, double ridders_step = 1e-5) {
  IpcContact contact(f.meshes, f.Parameters(kind));
  contact.BeginStep(f.layout.At(f.start));
  DenseSink sink(f.layout);
  const double e = contact.Evaluate(f.layout.At(f.end), &sink, true, false);
  ASSERT_TRUE(std::isfinite(e));
  FdOptions fd = Ridders();
  fd.ridders_step = ridders_step;
  const int n = 3 * f.layout.size;
  const MatX g_fd =
      FiniteDifferenceJacobian([&](const VecX& dy) { return VecX::Constant(1, Energy(contact, f.layout, f.end + dy)); }, n, fd)
          .jacobian;
  const MatX H_fd = FiniteDifferenceJacobian(
                        [&](const VecX& dy) {
                          DenseSink s(f.layout);
                          contact.Evaluate(f.layout.At(f.end + dy), &s, false, false);
                          return s.g;
                        },
                        n, fd)
                        .jacobian;
  const double g_error = CorrectedRelativeError(sink.g.transpose(), g_fd);
  const double H_error = CorrectedRelativeError(sink.H, H_fd);
  EXPECT_LE(g_error, 1e-6);
  EXPECT_LE(H_error, 1e-6);
  EXPECT_LE((sink.H - sink.H.transpose()).cwiseAbs().maxCoeff(), 1e-12 * sink.H.cwiseAbs().maxCoeff());
  ::testing::Test::RecordProperty("gradient_error", options_detail::FormatDouble(g_error));
  ::testing::Test::RecordProperty("hessian_error", options_detail::FormatDouble(H_error));

  // Projected per pair: positive semidefinite, same gradient.
  DenseSink projected(f.layout);
  contact.Evaluate(f.layout.At(f.end), &projected, true, true);
  EXPECT_EQ(projected.g, sink.g);
  const Eigen::SelfAdjointEigenSolver<MatX> eig(projected.H);
  EXPECT_GE(eig.eigenvalues().minCoeff(), -1e-10 * eig.eigenvalues().cwiseAbs().maxCoeff());
}

TEST_P(IpcContactTest, GradientAndHessianMatchDifferences) { CheckDerivatives(Fixture(), GetParam()); }

// No contact: every pair 3.8 mm or more apart (beyond dhat = 1 mm). The clamped barrier and its
// friction vanish there, derivatives included; the global barrier still acts on every pair
// (with friction lagged at the start), and its derivatives are checked the same way, from a
// smaller step: raised off A, several of B's pairs with A have normals nearly along B's 14 um
// slip on A and so tangential slips of 0.6 to 5 um, where the friction Hessian has the kink of
// |u| at u = 0 (f1(y) / y = (2 eps_u - y) / eps_u^2). Ridders from 10 um extrapolates across
// it (Hessian error 8e-5, and 9e-6 from 2 um); from 0.3 um, below the smallest slip, it
// converges to the analytical Hessian (1e-9; barrier alone: 1e-11 from 10 um).
TEST_P(IpcContactTest, NoContactStateDerivativesMatchDifferences) {
  const Fixture f(3.4e-3);
  {
    IpcContact contact(f.meshes, f.Parameters(GetParam()));
    contact.BeginStep(f.layout.At(f.start));
    DenseSink sink(f.layout);
    const double e = contact.Evaluate(f.layout.At(f.end), &sink, true, false);
    if (GetParam() == ipc::BarrierKind::kClampedLog) {
      EXPECT_EQ(e, 0.0);
      EXPECT_EQ(contact.stats().active_pairs, 0);
      EXPECT_EQ(contact.friction_pairs(), 0);
      EXPECT_TRUE(sink.g.isZero(0.0));
      EXPECT_TRUE(sink.H.isZero(0.0));
    } else {
      EXPECT_GT(e, 0.0);
      EXPECT_GT(contact.friction_pairs(), 0);
    }
  }
  CheckDerivatives(f, GetParam(), 3e-7);
}

TEST_P(IpcContactTest, FrictionStartDerivativesMatchDifferences) {
  Fixture f;
  IpcContact contact(f.meshes, f.Parameters(GetParam()));
  const ContactConfiguration x = f.layout.At(f.end);
  contact.BeginStep(f.layout.At(f.start));
  DenseStartSink sink(f.layout);
  contact.StartDerivatives(x, &sink);
  const FdOptions fd = Ridders();
  const MatX M_fd = FiniteDifferenceJacobian(
                        [&](const VecX& ds) {
                          contact.BeginStep(f.layout.At(f.start + ds));
                          DenseSink s(f.layout);
                          contact.Evaluate(x, &s, false, false);
                          return s.g;
                        },
                        3 * f.layout.size, fd)
                        .jacobian;
  const double error = CorrectedRelativeError(sink.M, M_fd);
  EXPECT_LE(error, 1e-6);
  RecordProperty("start_derivative_error", options_detail::FormatDouble(error));

  // At the no-contact state (NoContactStateDerivativesMatchDifferences): no lagged pairs for the
  // clamped barrier; every pair for the global one, from the same small step for the same kink.
  const Fixture apart(3.4e-3);
  const ContactConfiguration y = apart.layout.At(apart.end);
  contact.BeginStep(apart.layout.At(apart.start));
  EXPECT_EQ(contact.friction_pairs() == 0, GetParam() == ipc::BarrierKind::kClampedLog);
  DenseStartSink apart_sink(apart.layout);
  contact.StartDerivatives(y, &apart_sink);
  FdOptions small = fd;
  small.ridders_step = 3e-7;
  const MatX apart_fd = FiniteDifferenceJacobian(
                            [&](const VecX& ds) {
                              contact.BeginStep(apart.layout.At(apart.start + ds));
                              DenseSink s(apart.layout);
                              contact.Evaluate(y, &s, false, false);
                              return s.g;
                            },
                            3 * apart.layout.size, small)
                            .jacobian;
  const double apart_error = CorrectedRelativeError(apart_sink.M, apart_fd);
  EXPECT_LE(apart_error, 1e-6);
  RecordProperty("no_contact_start_derivative_error", options_detail::FormatDouble(apart_error));

  // The lagged data's own terms matter: without them (only -Hessian of D in x+) the mixed
  // derivatives would be far off.
  contact.BeginStep(f.layout.At(f.start));
  DenseSink h(f.layout);
  contact.Evaluate(x, &h, true, false);
  DenseSink barrier_only(f.layout);
  IpcContact frictionless(f.meshes, f.Parameters(GetParam()));
  frictionless.Evaluate(x, &barrier_only, true, false);
  const MatX minus_friction_hessian = -(h.H - barrier_only.H);
  EXPECT_GT(CorrectedRelativeError(minus_friction_hessian, M_fd), 1e-3);
}

INSTANTIATE_TEST_SUITE_P(Barriers, IpcContactTest,
                         ::testing::Values(ipc::BarrierKind::kClampedLog, ipc::BarrierKind::kInverseDistance),
                         [](const auto& info) { return std::string(ipc::ToString(info.param)); });

// A path that moves box B down onto A along an arc (a screw about a far axis), faster than any
// chord suggests: the conservative advancement stops before any pair closes, and the chord
// bound with its pi/2 inflation (sound for one screw of at most pi) does too.
class ScrewPath final : public ContactPath {
 public:
  ScrewPath(const Fixture& f, const Vec3& omega, const Vec3& axis_point, double drop)
      : f_(f), omega_(omega), c_(axis_point), drop_(drop) {
    speed_.resize(f.meshes.size());
    for (size_t m = 0; m < f.meshes.size(); ++m) {
      speed_[m] = VecX::Zero(f.meshes[m].vertices.rows());
      if (f.meshes[m].body != 1) continue;
      for (Eigen::Index r = 0; r < speed_[m].size(); ++r) {
        const Vec3 x = f.end.segment<3>(3 * (f.layout.offset[m] + r));
        speed_[m][r] = omega_.norm() * (x - c_).norm() + drop_;  // |omega x (x - c)| + |v|
      }
    }
  }
  void At(double alpha, ContactConfiguration* out) override {
    VecX y = f_.end;
    const Mat3 R = Eigen::AngleAxisd(alpha * omega_.norm(), omega_.normalized()).toRotationMatrix();
    for (size_t m = 0; m < f_.meshes.size(); ++m) {
      if (f_.meshes[m].body != 1) continue;
      for (Eigen::Index r = 0; r < f_.meshes[m].vertices.rows(); ++r) {
        const Vec3 x = f_.end.segment<3>(3 * (f_.layout.offset[m] + r));
        y.segment<3>(3 * (f_.layout.offset[m] + r)) = c_ + R * (x - c_) - alpha * drop_ * Vec3::UnitZ();
      }
    }
    *out = f_.layout.At(y);
  }
  const std::vector<VecX>& SpeedBounds() override { return speed_; }

 private:
  const Fixture& f_;
  Vec3 omega_, c_;
  double drop_;
  std::vector<VecX> speed_;
};

// The exact distance between meshes a and b of a configuration (core/geometry/mesh_distance.h).
double MeshGap(const ContactConfiguration& x, int a, int b) {
  const auto& meshes = *x.meshes;
  const TriangleMesh A = MakeTriangleMesh(x.world[a], meshes[a].triangles);
  const TriangleMesh B = MakeTriangleMesh(x.world[b], meshes[b].triangles);
  return MeshDistance(*A.data, SE3(), *B.data, SE3()).distance;
}

TEST(IpcContactStepBound, KeepsEveryPairApartAlongACurvedPath) {
  Fixture f;
  IpcContact contact(f.meshes, f.Parameters(ipc::BarrierKind::kClampedLog));
  const ContactConfiguration x = f.layout.At(f.end);
  // B (mesh 1) swings about an axis 1 m away while dropping 5 mm: at alpha = 1 it is inside A.
  ScrewPath path(f, Vec3(0.0, 0.02, 0.0), Vec3(0.0, -1.0, 0.5), 5e-3);
  ContactConfiguration y;
  path.At(1.0, &y);
  ASSERT_LT(MeshGap(y, 0, 1), 0.0);
  const double gap0 = MeshGap(x, 0, 1);
  const double alpha = contact.MaxStepOnPath(x, path);
  EXPECT_GT(alpha, 0.05);
  EXPECT_LT(alpha, 1.0);
  EXPECT_GT(contact.stats().tracked_pairs, 0);
  double smallest = gap0;
  for (int k = 0; k <= 100; ++k) {
    path.At(alpha * k / 100.0, &y);
    smallest = std::min(smallest, MeshGap(y, 0, 1));
  }
  EXPECT_GE(smallest, 0.1 * gap0 * (1.0 - 1e-9));  // every pair keeps eta = 0.1 of its distance
  RecordProperty("alpha", options_detail::FormatDouble(alpha));
  RecordProperty("advance_iterations", contact.stats().advance_iterations);
  // The chord bound with its pi/2 inflation on the same motion (one screw of 0.02 rad).
  std::vector<PointsX3> chord(y.world.size());
  path.At(1.0, &y);
  for (size_t m = 0; m < chord.size(); ++m) chord[m] = y.world[m] - x.world[m];
  const double chord_alpha = contact.MaxStep(x, chord);
  EXPECT_GT(chord_alpha, 0.0);
  EXPECT_LT(chord_alpha, 1.0);
  for (int k = 0; k <= 100; ++k) {
    path.At(chord_alpha * k / 100.0, &y);
    EXPECT_GT(MeshGap(y, 0, 1), 0.0);
  }
}

}  // namespace ipc_contact_test
}  // namespace arena
