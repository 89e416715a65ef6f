// SCM's SSDF and pair wrenches (seed 001 eqs. 9-23): the SSDF's sign and its approach to the
// exact distance as eps1 falls, forces that push bodies apart, Newton's third law for the forces,
// and a total force that does not grow with the number of points in contact.
#include "models/scm/smooth_collision.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <vector>

#include "models/scm/patch_cloud.h"

namespace arena::scm {
namespace {

WorldCloud<double> Place(const PatchCloud& c, const Vec3& offset, const Vec3& velocity = Vec3::Zero(),
                         const Mat3& R = Mat3::Identity(), bool tree = false) {
  WorldCloud<double> w;
  w.plane = c.plane;
  for (int i = 0; i < c.patches.points.rows(); ++i) {
    w.p.push_back(R * c.patches.points.row(i).transpose() + offset);
    w.n.push_back(R * c.patches.normals.row(i).transpose());
    w.v.push_back(velocity);
  }
  if (tree) {
    w.tree = c.tree.get();
    w.R = R;
    w.t = offset;
  }
  return w;
}

TEST(Ssdf, SignAndApproachToTheBoxDistance) {
  const PatchCloud box = MakePatchCloud(Box{Vec3(0.2, 0.2, 0.2)}, 0.05);
  const WorldCloud<double> w = Place(box, Vec3::Zero());
  SoftmaxTerms<double> scratch;
  // Outside over a face centre, inside below it: the exact distances are 0.05 and -0.05.
  for (double eps1 : {1e-2, 1e-3, 1e-4}) {
    const double out = Ssdf(w, Vec3(0.03, 0.01, 0.25), eps1, &scratch);
    const double in = Ssdf(w, Vec3(0.03, 0.01, 0.15), eps1, &scratch);
    EXPECT_GT(out, 0.0);
    EXPECT_LT(in, 0.0);
    if (eps1 <= 1e-4) {
      EXPECT_NEAR(out, 0.05, 1e-6);
      EXPECT_NEAR(in, -0.05, 1e-6);
    }
  }
  // Deep inside (the centre) it is negative, nearer the surface less so.
  EXPECT_LT(Ssdf(w, Vec3(0, 0, 0), 1e-3, &scratch), Ssdf(w, Vec3(0, 0, 0.1), 1e-3, &scratch));
}

struct Result {
  Wrench<double> wa = Wrench<double>::Zero(), wb = Wrench<double>::Zero();
  double phi_min = 0.0;
};

Result Pair(const WorldCloud<double>& a, const WorldCloud<double>& b, double mu = 0.5) {
  const ContactLaw law{1e3, 1e-3, 0.1, 0.05, mu, DampingShape::kC1};
  Result r;
  r.phi_min = PairWrenches<double>(law, {6.25e-6, 1e-3}, a, b, &r.wa, &r.wb);  // eps1 = (0.02 / 8)^2
  return r;
}

TEST(PairWrenches, BoxOnTheGroundIsPushedUpByOnePairsSpring) {
  const WorldCloud<double> ground = Place(MakePatchCloud(HalfSpace{}, 0.1), Vec3::Zero());
  for (double spacing : {0.1, 0.05, 0.02}) {
    const WorldCloud<double> box = Place(MakePatchCloud(Box{Vec3(0.2, 0.2, 0.2)}, spacing), Vec3(0.3, -0.1, 0.2 - 2e-3));
    const Result r = Pair(box, ground);
    EXPECT_NEAR(r.phi_min, -2e-3, 1e-12);
    // Every bottom patch is 2 mm deep with equal weight; the side patches' lowest row lies half
    // a patch higher (weights e^-10 at 2 cm patches, e^-50 at 10 cm): the force is one spring's
    // k s+(2 mm), whatever the number of points (eq. 23), less the side rows' share of weight.
    EXPECT_NEAR(r.wa(5), 1e3 * Softplus(2e-3, 1e-3), 1e-5 * r.wa(5)) << spacing;
    EXPECT_NEAR(r.wa.segment<2>(3).norm(), 0.0, 1e-12);
    // No net torque about the box's centre (symmetric patches).
    const Vec3 c(0.3, -0.1, 0.2 - 2e-3);
    EXPECT_NEAR((r.wa.head<3>() - c.cross(Vec3(r.wa.tail<3>()))).norm(), 0.0, 1e-10);
  }
}

TEST(PairWrenches, SpheresArePushedApartAlongTheirCentresWithOppositeForces) {
  const PatchCloud ball = MakePatchCloud(Sphere{0.1}, 0.02);
  const Vec3 d = Vec3(1.0, 0.4, -0.2).normalized();
  const WorldCloud<double> a = Place(ball, Vec3::Zero()), b = Place(ball, 0.198 * d, Vec3(0.05, 0, 0));
  const Result r = Pair(a, b, 0.0);
  const Vec3 fa = r.wa.tail<3>(), fb = r.wb.tail<3>();
  EXPECT_LT((fa + fb).norm(), 1e-12 * fb.norm()) << "third law";
  EXPECT_GT(fb.dot(d), 0.0);
  EXPECT_LT(fb.normalized().cross(d).norm(), 0.05) << "along the centre line, up to the patches' facets";
  // Far apart: the softplus spring has all but vanished (20 softplus widths).
  const Result far = Pair(a, Place(ball, 0.22 * d), 0.0);
  EXPECT_LT(far.wb.tail<3>().norm(), 1e-6 * fb.norm());
}

// Skipping the softmax terms below e^-36 of the largest changes nothing above round-off.
TEST(PairWrenches, SkippingNegligibleWeightsIsExact) {
  const ContactLaw law{1e3, 1e-3, 0.1, 0.05, 0.5, DampingShape::kC1};
  const PatchCloud ball = MakePatchCloud(Sphere{0.1}, 0.02);
  const Vec3 d = Vec3(1.0, 0.4, -0.2).normalized();
  const WorldCloud<double> a = Place(ball, Vec3::Zero(), Vec3(0.0, 0.1, 0.0)), b = Place(ball, 0.197 * d, Vec3(0.05, 0, 0));
  SoftminSettings all{2.5e-5, 1e-3}, skip{2.5e-5, 1e-3, 36.0};
  Wrench<double> wa = Wrench<double>::Zero(), wb = Wrench<double>::Zero();
  Wrench<double> sa = Wrench<double>::Zero(), sb = Wrench<double>::Zero();
  PairWrenches<double>(law, all, a, b, &wa, &wb);
  PairWrenches<double>(law, skip, a, b, &sa, &sb);
  EXPECT_GT(wb.norm(), 1.0);
  EXPECT_LE((sa - wa).norm(), 1e-12 * wa.norm());
  EXPECT_LE((sb - wb).norm(), 1e-12 * wb.norm());
}

// A box's 4k patches against a sphere's 96, as the T-push finger meets the T, rotated and
// translated.
struct FingerOnBar {
  ContactLaw law{1e3, 1e-3, 0.1, 0.05, 0.5, DampingShape::kC1};
  PatchCloud box = MakePatchCloud(Box{Vec3(0.125, 0.025, 0.025)}, 0.0048);
  PatchCloud ball = MakePatchCloud(Sphere{0.01}, 0.0048);
  Mat3 R = Eigen::AngleAxisd(0.7, Vec3(0.2, -0.3, 1.0).normalized()).toRotationMatrix();
  Vec3 o = Vec3(0.3, -0.1, 0.05);
};

// The k-d tree finds the same terms as the scan, for rotated and translated clouds of two sizes
// (a box's 4k patches against a sphere's 96, as the T-push finger meets the T).
TEST(PairWrenches, TreeLookupEqualsTheScan) {
  const FingerOnBar scene;
  const auto& [law, box, ball, R, o] = scene;
  // The ball 0.5 mm into the box's +y face, off its centre.
  const Vec3 ball_at = o + R * Vec3(0.04, 0.025 + 0.0095, 0.003);
  const SoftminSettings eps{std::pow(0.0048 / 4, 2), 1e-3, 36.0};
  for (bool tree : {false, true}) {
    SCOPED_TRACE(tree ? "tree" : "scan");
    const WorldCloud<double> a = Place(box, o, Vec3(0.01, 0, 0), R, tree), b = Place(ball, ball_at, Vec3(0, -0.02, 0), R, tree);
    Wrench<double> wa = Wrench<double>::Zero(), wb = Wrench<double>::Zero();
    PairWrenches<double>(law, eps, a, b, &wa, &wb);
    static Wrench<double> scan_a, scan_b;
    if (!tree) {
      scan_a = wa;
      scan_b = wb;
      EXPECT_GT(wb.tail<3>().norm(), 0.1);
    } else {
      EXPECT_LE((wa - scan_a).norm(), 1e-12 * scan_a.norm());
      EXPECT_LE((wb - scan_b).norm(), 1e-12 * scan_b.norm());
      // On two threads: the same numbers, bit for bit (the shares are summed in order).
      tbb::task_arena two(2);
      Wrench<double> ta = Wrench<double>::Zero(), tb = Wrench<double>::Zero();
      PairWrenches<double>(law, eps, a, b, &ta, &tb, nullptr, 1e-3, &two);
      EXPECT_EQ(ta, wa);
      EXPECT_EQ(tb, wb);
    }
  }
}


// The bound of field_pruning.h holds at random points of random balls around a box's cloud, near
// and far, inside and outside.
TEST(SsdfLowerBound, BelowTheSsdfEverywhereInItsBall) {
  const PatchCloud box = MakePatchCloud(Box{Vec3(0.125, 0.025, 0.025)}, 0.0048);
  const Mat3 R = Eigen::AngleAxisd(0.4, Vec3(1.0, 2.0, -0.5).normalized()).toRotationMatrix();
  const WorldCloud<double> w = Place(box, Vec3(0.1, 0.2, -0.3), Vec3::Zero(), R, true);
  const double eps1 = std::pow(0.0048 / 4, 2);
  SoftmaxTerms<double> scratch;
  std::srand(7);
  auto uniform = [] { return 2.0 * std::rand() / RAND_MAX - 1.0; };
  int checked = 0, positive = 0;
  for (int ball = 0; ball < 200; ++ball) {
    const Vec3 m = Vec3(0.1, 0.2, -0.3) + 0.2 * Vec3(uniform(), uniform(), uniform());
    const double rho = 0.03 * std::abs(uniform());
    const double bound = SsdfLowerBound(w, m, rho, eps1, 36.0);
    positive += bound > 0.0;
    for (int k = 0; k < 20; ++k) {
      const Vec3 x = m + rho * Vec3(uniform(), uniform(), uniform()) / std::sqrt(3.0);
      EXPECT_LE(bound, Ssdf(w, x, eps1, &scratch, 36.0)) << "ball " << ball << " at " << m.transpose();
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4000);
  EXPECT_GT(positive, 50);  // the bound says something away from the box
}

// Leaving out the points the bound rules out changes nothing: the same wrenches, bit for bit,
// with the finger in contact, near and far, and most of the 4k-point box's SSDFs not computed
// when the finger touches it.
TEST(PairWrenches, PruningLeavesTheResultUnchanged) {
  const FingerOnBar scene;
  const auto& [law, box, ball, R, o] = scene;
  const WorldCloud<double> a = Place(box, o, Vec3(0.01, 0, 0), R, true);
  for (double gap : {-0.0005, 0.002, 0.02, 0.08}) {
    SCOPED_TRACE(gap);
    const WorldCloud<double> b = Place(ball, o + R * Vec3(0.04, 0.025 + 0.01 + gap, 0.003), Vec3(0, -0.02, 0), R, true);
    SoftminSettings eps{std::pow(0.0048 / 4, 2), 1e-3, 36.0};
    eps.skip_out_of_reach = false;  // pinned below
    Wrench<double> wa[2], wb[2];
    std::vector<FieldPoint> field[2];
    double phi_min[2];
    for (int prune : {0, 1}) {
      eps.prune_points = prune == 1;
      wa[prune].setZero();
      wb[prune].setZero();
      phi_min[prune] = PairWrenches<double>(law, eps, a, b, &wa[prune], &wb[prune], &field[prune], 0.0);
    }
    EXPECT_EQ(wa[0], wa[1]);
    EXPECT_EQ(wb[0], wb[1]);
    EXPECT_EQ(phi_min[0], phi_min[1]);
    ASSERT_EQ(field[0].size(), field[1].size());
    for (std::size_t k = 0; k < field[0].size(); ++k) EXPECT_EQ(field[0][k].weight, field[1][k].weight);
    if (gap < 0.0) {
      const WorldCloud<double>* const clouds[2] = {&a, &b};
      const int offset[2] = {0, a.size()};
      int computed = 0;
      const FieldPlan plan = PlanField(eps, clouds, offset, [&](int, std::span<const int>) {
        ++computed;
        return phi_min[0];
      });
      EXPECT_LT(computed + static_cast<int>(plan.tasks.size()), (a.size() + b.size()) / 4);
    }
  }
}

// A pair beyond the springs' reach is skipped whole: its wrenches are those of the full sum to
// e^-36 of k eps3 (the full sum's are that small too), and the bound it returns lies below the
// exact min Phi_12 and above the reach. Pairs within reach give the same numbers bit for bit.
TEST(PairWrenches, PairsBeyondTheSpringsReachAreSkipped) {
  const FingerOnBar scene;
  const auto& [law, box, ball, R, o] = scene;
  const Vec3 box_velocity(0.01, 0, 0), ball_velocity(0, -0.02, 0);
  const WorldCloud<double> a = Place(box, o, box_velocity, R, true);
  const double reach = SpringReach(law, 36.0, box_velocity.norm() + ball_velocity.norm());
  EXPECT_GT(reach, 0.036);
  EXPECT_LT(reach, 0.04);
  for (double gap : {-0.0005, 0.01, 0.03, 0.06, 0.15}) {
    SCOPED_TRACE(gap);
    const WorldCloud<double> b = Place(ball, o + R * Vec3(0.04, 0.025 + 0.01 + gap, 0.003), ball_velocity, R, true);
    SoftminSettings eps{std::pow(0.0048 / 4, 2), 1e-3, 36.0};
    Wrench<double> wa[2], wb[2];
    double phi_min[2];
    for (int skip : {0, 1}) {
      eps.skip_out_of_reach = skip == 1;
      wa[skip].setZero();
      wb[skip].setZero();
      phi_min[skip] = PairWrenches<double>(law, eps, a, b, &wa[skip], &wb[skip]);
    }
    const WorldCloud<double>* const clouds[2] = {&a, &b};
    const int offset[2] = {0, a.size()};
    const FieldPlan plan = PlanField(eps, clouds, offset, [](int, std::span<const int>) { return 0.0; }, reach);
    if (gap < 0.02) {
      EXPECT_FALSE(plan.out_of_reach);
      EXPECT_EQ(wa[0], wa[1]);
      EXPECT_EQ(wb[0], wb[1]);
      EXPECT_EQ(phi_min[0], phi_min[1]);
    } else if (gap > 0.05) {
      ASSERT_TRUE(plan.out_of_reach);
      EXPECT_EQ(wa[1].norm() + wb[1].norm(), 0.0);
      const double scale = law.stiffness * law.softplus_width * std::exp(-36.0);
      EXPECT_LE(wb[0].tail<3>().norm(), scale);
      EXPECT_LE(wa[0].tail<3>().norm(), scale);
      EXPECT_LE(phi_min[1], phi_min[0]);
      EXPECT_GT(phi_min[1], reach);
    }
  }
}

}  // namespace
}  // namespace arena::scm
