// The physical criteria of contact on hand-built contact states whose violations are known by
// hand: a 2 kg box on the ground (mu 0.5), at rest or sliding, with forces placed inside, on
// and outside the cone, at a distance, pulling, and against the slip.
#include "models/contact_criteria.h"

#include <gtest/gtest.h>

#include "core/common/error.h"
#include "core/multibody/configuration.h"
#include "core/scene/scene_builder.h"

namespace arena {
namespace contact_criteria_test {

constexpr double kMu = 0.5;
constexpr double kDt = 0.01;

std::shared_ptr<const Scene> BoxOnGround() {
  SceneBuilder b("box");
  b.SetGravity(Vec3(0, 0, -9.81));
  const Vec3 h(0.1, 0.1, 0.1);
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(2.0, h), SE3::FromTranslation(Vec3(0, 0, 0.1)));
  b.AddCollider(box, Box{h}).friction = kMu;
  b.AddGround(kMu);
  return b.Build();
}

class ContactCriteriaTest : public ::testing::Test {
 protected:
  ContactCriteriaTest() : scene_(BoxOnGround()), data_(scene_->model), state_(DefaultState(*scene_)) {}
  // A point under the box's centre, ground (world) pushing the box.
  ContactPoint Point(double gap, const Vec3& force, bool at_start = false) const {
    ContactPoint p;
    p.body_a = box_;
    p.body_b = kWorldBody;
    p.position = Vec3(0, 0, 0);
    p.normal = Vec3::UnitZ();
    p.gap = gap;
    p.at_start = at_start;
    p.force_on_a = force;
    p.friction = kMu;
    return p;
  }
  // The box translating with world velocity v (free joint: v holds the body-frame twist, and
  // the box is not rotated, so the linear part is the world velocity).
  void Translate(const Vec3& v) { state_.v.segment<3>(3) = v; }
  ContactCriteria Measure(const std::vector<ContactPoint>& points) {
    return MeasureContactCriteria(*scene_, data_, state_, kDt, points);
  }

  const int box_ = 0;
  std::shared_ptr<const Scene> scene_;
  MultibodyData data_;
  State state_;
};

TEST_F(ContactCriteriaTest, ResolvedRestingContactViolatesNothing) {
  const ContactCriteria c = Measure({Point(0.0, Vec3(3.0, -4.0, 19.62))});  // |f_t| = 5 <= 9.81
  EXPECT_EQ(c.points, 1);
  EXPECT_EQ(c.sliding, 0);
  EXPECT_DOUBLE_EQ(c.penetration_m, 0.0);
  EXPECT_DOUBLE_EQ(c.signorini_n_m, 0.0);
  EXPECT_DOUBLE_EQ(c.adhesion_n, 0.0);
  EXPECT_DOUBLE_EQ(c.coulomb_n, 0.0);
  EXPECT_DOUBLE_EQ(c.dissipation_n, 0.0);
  EXPECT_DOUBLE_EQ(c.normal_force_n, 19.62);
}

TEST_F(ContactCriteriaTest, ForceAtADistanceAndPenetration) {
  // 2 mm apart carrying 10 N; a second point 3 mm deep.
  const ContactCriteria c = Measure({Point(2e-3, Vec3(0, 0, 10.0)), Point(-3e-3, Vec3(0, 0, 5.0))});
  EXPECT_NEAR(c.signorini_n_m, 10.0 * 2e-3, 1e-15);
  EXPECT_NEAR(c.penetration_m, 3e-3, 1e-15);
  EXPECT_NEAR(c.normal_force_n, 15.0, 1e-12);
}

TEST_F(ContactCriteriaTest, PullingIsAdhesion) {
  const ContactCriteria c = Measure({Point(0.0, Vec3(1.0, 0, -4.0))});
  EXPECT_NEAR(c.adhesion_n, 4.0, 1e-15);
  // A pulling contact has no cone: all of its friction is outside.
  EXPECT_NEAR(c.coulomb_n, 1.0, 1e-15);
}

TEST_F(ContactCriteriaTest, FrictionOutsideTheCone) {
  // f_n = 10, mu f_n = 5, |f_t| = 13.
  const ContactCriteria c = Measure({Point(0.0, Vec3(5.0, 12.0, 10.0))});
  EXPECT_NEAR(c.coulomb_n, 8.0, 1e-12);
}

TEST_F(ContactCriteriaTest, SlidingAgainstTheSlipDissipatesMaximally) {
  Translate(Vec3(1.0, 0, 0));
  const ContactCriteria c = Measure({Point(0.0, Vec3(-5.0, 0, 10.0))});
  EXPECT_EQ(c.sliding, 1);
  EXPECT_NEAR(c.dissipation_n, 0.0, 1e-12);
  EXPECT_NEAR(c.coulomb_n, 0.0, 1e-12);
}

TEST_F(ContactCriteriaTest, SlidingFrictionInsideTheConeOrAskewDefects) {
  Translate(Vec3(1.0, 0, 0));
  // Half the friction the slip asks for: |(-2.5, 0) + (5, 0)| = 2.5.
  EXPECT_NEAR(Measure({Point(0.0, Vec3(-2.5, 0, 10.0))}).dissipation_n, 2.5, 1e-12);
  // On the cone's edge but at right angles to the slip (a pyramid's facet): |(0, -5) + (5, 0)|.
  EXPECT_NEAR(Measure({Point(0.0, Vec3(0, -5.0, 10.0))}).dissipation_n, 5.0 * std::sqrt(2.0), 1e-12);
  // No friction at all while sliding.
  EXPECT_NEAR(Measure({Point(0.0, Vec3(0, 0, 10.0))}).dissipation_n, 5.0, 1e-12);
}

TEST_F(ContactCriteriaTest, SlowerThanTheSlipSpeedSticks) {
  Translate(Vec3(5e-4, 0, 0));
  const ContactCriteria c = Measure({Point(0.0, Vec3(0, 0, 10.0))});
  EXPECT_EQ(c.sliding, 0);
  EXPECT_DOUBLE_EQ(c.dissipation_n, 0.0);
}

TEST_F(ContactCriteriaTest, AStartGapIsCarriedToTheStepsEnd) {
  // Detected 1 mm deep at the start, leaving at 0.15 m/s: 0.5 mm apart at the end, pushing.
  Translate(Vec3(0, 0, 0.15));
  ContactCriteria c = Measure({Point(-1e-3, Vec3(0, 0, 10.0), /*at_start=*/true)});
  EXPECT_NEAR(c.penetration_m, 0.0, 1e-15);
  EXPECT_NEAR(c.signorini_n_m, 10.0 * 5e-4, 1e-15);
  // Leaving at 0.05 m/s: still 0.5 mm deep.
  Translate(Vec3(0, 0, 0.05));
  c = Measure({Point(-1e-3, Vec3(0, 0, 10.0), /*at_start=*/true)});
  EXPECT_NEAR(c.penetration_m, 5e-4, 1e-15);
  EXPECT_NEAR(c.signorini_n_m, 0.0, 1e-15);
}

TEST_F(ContactCriteriaTest, RotationMakesSlipAtThePoint) {
  // Spinning about z at 1 rad/s: a point 0.1 m off the axis slides at 0.1 m/s along y.
  state_.v(2) = 1.0;
  ContactPoint p = Point(0.0, Vec3(0, -5.0, 10.0));
  p.position = Vec3(0.1, 0, 0);
  const ContactCriteria c = Measure({p});
  EXPECT_EQ(c.sliding, 1);
  EXPECT_NEAR(c.dissipation_n, 0.0, 1e-12);
}

TEST_F(ContactCriteriaTest, NoPointsMeasureNothing) {
  const ContactCriteria c = Measure({});
  EXPECT_EQ(c.points, 0);
  EXPECT_DOUBLE_EQ(c.normal_force_n, 0.0);
}

TEST_F(ContactCriteriaTest, BadPointsAreErrors) {
  ContactPoint p = Point(0.0, Vec3(0, 0, 1));
  p.body_a = 7;
  EXPECT_THROW(Measure({p}), InvalidArgument);
  p = Point(0.0, Vec3(0, 0, 1));
  p.normal = Vec3(0, 0, 2);
  EXPECT_THROW(Measure({p}), InvalidArgument);
}

TEST_F(ContactCriteriaTest, MechanicalEnergyIsKineticPlusPotential) {
  Translate(Vec3(3.0, 0, 0));
  // 1/2 2 9 + 2 9.81 0.1
  EXPECT_NEAR(MechanicalEnergy(*scene_, data_, state_), 9.0 + 2.0 * 9.81 * 0.1, 1e-12);
}

}  // namespace contact_criteria_test
}  // namespace arena
