// Tests of the contact kernels of penalty and nimble (models/point_contact/contact_kernels.h): the hull-hull
// kernel (models/point_contact/hull_contacts.h: vertex-face and edge-edge contacts against GJK/EPA's exact
// depth, culling of separated pairs, the models' error for a mesh pair without a hull) and the
// sphere-capsule and capsule-capsule kernels (closed forms); the forward-mode AD of contact
// points, normals and depths against central differences on contact states.
#include "models/point_contact/hull_contacts.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/gjk.h"
#include "core/geometry/mesh.h"
#include "core/math/so3.h"
#include "core/scene/scene_builder.h"
#include "models/point_contact/contact_kernels.h"
#include "models/point_contact/pose_twist_ad.h"
#include "models/registry.h"

namespace arena {
namespace contact_kernels_test {

using ::testing::HasSubstr;
using contact::ColliderGeometry;
using contact::ContactPointT;

contact::PoseT<double> Pose(const SE3& X) { return {X.rotation(), X.translation()}; }

std::vector<ContactPointT<double>> Contacts(const Shape& a, const SE3& XA, const Shape& b,
                                            const SE3& XB) {
  std::vector<ContactPointT<double>> out;
  EXPECT_TRUE(contact::Contacts<double>(contact::MakeColliderGeometry(a), Pose(XA),
                                        contact::MakeColliderGeometry(b), Pose(XB), &out));
  return out;
}

const ContactPointT<double>& Deepest(const std::vector<ContactPointT<double>>& out) {
  size_t k = 0;
  for (size_t i = 0; i < out.size(); ++i) k = out[i].phi < out[k].phi ? i : k;
  return out[k];
}

TEST(HullContacts, CubeRestingOnSlabTouchesAtItsFourLowerCorners) {
  const Shape slab = MakeBoxMesh(Vec3(0.5, 0.5, 0.05));
  const Shape cube = MakeBoxMesh(Vec3(0.1, 0.1, 0.1));
  const SE3 XS = SE3::FromTranslation(Vec3(0, 0, -0.05));
  const SE3 XC = SE3::FromTranslation(Vec3(0.2, -0.1, 0.1 - 1e-3));  // 1 mm into the slab
  const auto out = Contacts(slab, XS, cube, XC);
  ASSERT_EQ(out.size(), 4u);
  for (const auto& c : out) {
    EXPECT_NEAR(c.phi, -1e-3, 1e-12);
    EXPECT_TRUE(c.n_W.isApprox(Vec3::UnitZ(), 1e-12));
    EXPECT_NEAR(c.p_W.z(), -0.5e-3, 1e-12);  // midway between the two faces
  }
  // Swapped, the normals flip and the points stay.
  const auto swapped = Contacts(cube, XC, slab, XS);
  ASSERT_EQ(swapped.size(), 4u);
  for (const auto& c : swapped) EXPECT_TRUE(c.n_W.isApprox(-Vec3::UnitZ(), 1e-12));
}

TEST(HullContacts, SeparatedHullsHaveNoContact) {
  const Shape a = MakeBoxMesh(Vec3(0.1, 0.2, 0.3));
  const SE3 XA = SE3::Identity();
  EXPECT_TRUE(Contacts(a, XA, a, SE3::FromTranslation(Vec3(0.2 + 1e-6, 0, 0))).empty());
  EXPECT_TRUE(Contacts(a, XA, a, SE3(ExpSO3(Vec3(0.3, 0.2, 0.1)), Vec3(0, 0, 1))).empty());
}

// Two cubes turned by 45 degrees, A about x (an edge along x on top), B about y (an edge along
// y below): the edges cross and no corner of either is inside the other.
TEST(HullContacts, CrossingEdgesGiveOneContactAtEPAsDepth) {
  const ConvexHull cube = ConvexHullOfMesh(MakeBoxMesh(Vec3::Constant(0.1)));
  const double top = 0.1 * std::sqrt(2.0);
  const SE3 XA(ExpSO3(Vec3(M_PI / 4, 0, 0)), Vec3::Zero());
  for (const double depth : {1e-4, 2e-3}) {
    const SE3 XB(ExpSO3(Vec3(0, M_PI / 4, 0)), Vec3(0.01, -0.02, 2 * top - depth));
    const auto out = Contacts(cube, XA, cube, XB);
    ASSERT_EQ(out.size(), 1u) << depth;
    const SignedDistanceResult sd = ConvexSignedDistance(cube, XA, cube, XB);
    EXPECT_NEAR(out[0].phi, -depth, 1e-12);
    EXPECT_NEAR(out[0].phi, sd.distance, 1e-10);
    EXPECT_TRUE(out[0].n_W.isApprox(Vec3::UnitZ(), 1e-10));
    EXPECT_TRUE(out[0].p_W.isApprox(Vec3(0.01, 0, top - depth / 2), 1e-10)) << out[0].p_W.transpose();
  }
}

// Random overlapping poses of two different hulls: the deepest contact never claims more than
// EPA's depth, and is EPA's depth when the kernel fell back on crossing features.
TEST(HullContacts, DeepestContactIsBoundedByThePenetrationDepth) {
  const ConvexHull a = ConvexHullOfMesh(MakeBoxMesh(Vec3(0.1, 0.05, 0.08)));
  const ConvexHull b = ConvexHullOfMesh(MakeBoxMesh(Vec3(0.07, 0.12, 0.04)));
  std::mt19937_64 gen(3);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  int overlapping = 0;
  for (int k = 0; k < 300; ++k) {
    const SE3 XA(ExpSO3(Vec3(U(gen), U(gen), U(gen))), Vec3(0, 0, 0));
    const SE3 XB(ExpSO3(Vec3(3 * U(gen), 3 * U(gen), 3 * U(gen))),
                 Vec3(0.2 * U(gen), 0.2 * U(gen), 0.2 * U(gen)));
    const SignedDistanceResult sd = ConvexSignedDistance(a, XA, b, XB);
    const auto out = Contacts(a, XA, b, XB);
    if (sd.distance > 1e-9) {
      EXPECT_TRUE(out.empty());
      continue;
    }
    if (sd.distance > -1e-9) continue;
    ++overlapping;
    ASSERT_FALSE(out.empty()) << "depth " << -sd.distance;
    for (const auto& c : out) EXPECT_LT(c.phi, 0.0);
    EXPECT_GE(Deepest(out).phi, sd.distance - 1e-9);
  }
  EXPECT_GT(overlapping, 50);
}

// Forward-mode AD of a kernel run against central differences of the double kernel, both
// bodies' world twists perturbed (SeedPose's first-order motion: R -> exp([dw]) R, p -> exp([dw]) p + dv).
void ExpectKernelDerivatives(const Shape& a, const SE3& XA, const Shape& b, const SE3& XB) {
  const ColliderGeometry ga = contact::MakeColliderGeometry(a);
  const ColliderGeometry gb = contact::MakeColliderGeometry(b);
  using Ad = contact::AdScalar<12>;
  std::vector<ContactPointT<Ad>> ad;
  contact::Contacts<Ad>(ga, contact::SeedPose<12>(XA, 0), gb, contact::SeedPose<12>(XB, 6), &ad);
  ASSERT_FALSE(ad.empty());
  const auto moved = [](const SE3& X, const Vec6& d) {
    const Mat3 R = ExpSO3(d.head<3>());
    return SE3(R * X.rotation(), R * X.translation() + d.tail<3>());
  };
  const double h = 1e-6;
  for (int k = 0; k < 12; ++k) {
    Vec6 d = Vec6::Zero();
    d[k % 6] = h;
    std::vector<ContactPointT<double>> plus, minus;
    const SE3 XAp = k < 6 ? moved(XA, d) : XA, XAm = k < 6 ? moved(XA, -d) : XA;
    const SE3 XBp = k >= 6 ? moved(XB, d) : XB, XBm = k >= 6 ? moved(XB, -d) : XB;
    contact::Contacts<double>(ga, Pose(XAp), gb, Pose(XBp), &plus);
    contact::Contacts<double>(ga, Pose(XAm), gb, Pose(XBm), &minus);
    ASSERT_EQ(plus.size(), ad.size());
    ASSERT_EQ(minus.size(), ad.size());
    for (size_t i = 0; i < ad.size(); ++i) {
      const double dphi = (plus[i].phi - minus[i].phi) / (2 * h);
      EXPECT_NEAR(ad[i].phi.derivatives()[k], dphi, 1e-7) << "slot " << k << " point " << i;
      for (int r = 0; r < 3; ++r) {
        EXPECT_NEAR(ad[i].p_W[r].derivatives()[k], (plus[i].p_W[r] - minus[i].p_W[r]) / (2 * h), 1e-7);
        EXPECT_NEAR(ad[i].n_W[r].derivatives()[k], (plus[i].n_W[r] - minus[i].n_W[r]) / (2 * h), 1e-7);
      }
    }
  }
}

TEST(HullContacts, VertexFaceDerivativesMatchCentralDifferences) {
  const Shape slab = MakeBoxMesh(Vec3(0.5, 0.4, 0.05));
  const Shape cube = MakeBoxMesh(Vec3(0.1, 0.08, 0.06));
  ExpectKernelDerivatives(slab, SE3(ExpSO3(Vec3(0.1, -0.05, 0.3)), Vec3(0, 0, -0.05)), cube,
                          SE3(ExpSO3(Vec3(0.02, 0.03, 0.5)), Vec3(0.1, 0.05, 0.055)));
}

TEST(HullContacts, EdgeEdgeDerivativesMatchCentralDifferences) {
  const ConvexHull cube = ConvexHullOfMesh(MakeBoxMesh(Vec3(0.1, 0.12, 0.09)));
  const SE3 XA(ExpSO3(Vec3(M_PI / 4, 0.05, 0.02)), Vec3(0.01, 0, 0));
  const SE3 XB(ExpSO3(Vec3(0.03, M_PI / 4, 0.1)), Vec3(0.02, -0.01, 0.255));
  std::vector<ContactPointT<double>> out = Contacts(cube, XA, cube, XB);
  ASSERT_EQ(out.size(), 1u);  // the crossing-edge case, not vertex-face
  ExpectKernelDerivatives(cube, XA, cube, XB);
}

TEST(HullContacts, ModelsRejectAMeshPairWithoutAHull) {
  SceneBuilder builder("flat");
  PointsX3 v(3, 3);
  v << 0, 0, 0, 1, 0, 0, 0, 1, 0;
  TrianglesX3 t(1, 3);
  t << 0, 1, 2;
  builder.AddCollider(kWorldBody, MakeTriangleMesh(v, t), SE3::Identity(), "sheet");
  const int box = builder.AddFreeBody("box", SpatialInertia::SolidBox(1.0, Vec3::Constant(0.1)),
                                      SE3::FromTranslation(Vec3(0.2, 0.2, 0.5)));
  builder.AddCollider(box, MakeBoxMesh(Vec3::Constant(0.1)), SE3::Identity(), "box");
  const auto scene = builder.Build();
  for (const char* model : {"penalty", "nimble"}) {
    try {
      MakeSimulator(model, scene, {});
      ADD_FAILURE() << model << " accepted a flat mesh pair";
    } catch (const Unsupported& e) {
      EXPECT_THAT(e.what(), HasSubstr("'sheet' has none: its vertices are coplanar"));
    }
  }
}

// Two equal boxes stacked exactly aligned, 1 mm into each other: every corner of each lies on a
// side plane of the other (a degenerate box-box case, and the usual tower). The corners must
// still count as inside and take the face they penetrate (the top / bottom one), not the side
// plane they lie on at depth 0, so the stack is held up.
TEST(BoxContacts, AlignedEqualBoxesTouchAtTheirCornersAlongTheStack) {
  const Vec3 h(0.1, 0.1, 0.1);
  const auto c = Contacts(Box{h}, SE3(), Box{h}, SE3::FromTranslation(Vec3(0, 0, 0.199)));
  ASSERT_EQ(c.size(), 8u);  // four corners of each box
  for (const auto& p : c) {
    EXPECT_NEAR(p.phi, -1e-3, 1e-12);
    EXPECT_NEAR(p.n_W.z(), 1.0, 1e-12);  // from A (below) to B
    EXPECT_NEAR(std::abs(p.p_W.x()), 0.1, 1e-12);
    EXPECT_NEAR(std::abs(p.p_W.y()), 0.1, 1e-12);
  }
  // Side by side, touching exactly along x: nothing penetrates, so no contact.
  EXPECT_TRUE(Contacts(Box{h}, SE3(), Box{h}, SE3::FromTranslation(Vec3(0.2, 0, 0))).empty());
}

TEST(CapsuleContacts, CrossingCapsulesTouchAtTheirSegmentsClosestPoints) {
  const Capsule c{0.05, 0.3};
  // A along z through the origin; B along x (turned about y), centred 0.08 to the side and 0.1
  // up: the closest points are (0, 0, 0.1) and (0, 0.08, 0.1), 0.02 m overlap.
  const SE3 XA = SE3::Identity();
  const SE3 XB(ExpSO3(Vec3(0, M_PI / 2, 0)), Vec3(0.0, 0.08, 0.1));
  const auto out = Contacts(c, XA, c, XB);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].phi, 0.08 - 0.1, 1e-12);
  EXPECT_TRUE(out[0].n_W.isApprox(Vec3::UnitY(), 1e-12));
  EXPECT_TRUE(out[0].p_W.isApprox(Vec3(0, 0.04, 0.1), 1e-12));
  // Beyond A's end the closest point of A is its end point (clamped).
  const auto end = Contacts(c, XA, c, SE3(XB.rotation(), Vec3(0.0, 0.02, 0.3 + 0.09)));
  ASSERT_EQ(end.size(), 1u);
  EXPECT_NEAR(end[0].phi, std::hypot(0.02, 0.09) - 0.1, 1e-12);
  EXPECT_TRUE(Contacts(c, XA, c, SE3(XB.rotation(), Vec3(0.0, 0.1 + 1e-9, 0.1))).empty());
}

TEST(CapsuleContacts, SphereAgainstACapsuleMatchesGjk) {
  const Capsule capsule{0.05, 0.2};
  const Sphere ball{0.08};
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  int touching = 0;
  for (int k = 0; k < 200; ++k) {
    const SE3 XC(ExpSO3(Vec3(U(gen), U(gen), U(gen))), Vec3::Zero());
    const SE3 XS = SE3::FromTranslation(Vec3(0.15 * U(gen), 0.15 * U(gen), 0.35 * U(gen)));
    const SignedDistanceResult sd = ConvexSignedDistance(ball, XS, capsule, XC);
    const auto out = Contacts(ball, XS, capsule, XC);
    if (sd.distance >= 0.0) {
      EXPECT_TRUE(out.empty());
      continue;
    }
    ++touching;
    ASSERT_EQ(out.size(), 1u);
    EXPECT_NEAR(out[0].phi, sd.distance, 1e-9);
    EXPECT_GT(out[0].n_W.dot(sd.normal_W), 1 - 1e-9);
  }
  EXPECT_GT(touching, 30);
}

// A capsule lying across a box's edge, both ends off the box: one contact on the edge.
TEST(CapsuleContacts, CapsuleAcrossABoxEdgeTouchesTheEdge) {
  const Box box{Vec3::Constant(0.1)};
  const Capsule capsule{0.05, 0.3};
  const Vec3 bisector = Vec3(1, 0, 1).normalized();
  const SE3 XC(ExpSO3(Vec3(0, 3 * M_PI / 4, 0)), Vec3(0.1, 0.0, 0.1) + 0.04 * bisector);
  const auto out = Contacts(box, SE3::Identity(), capsule, XC);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].phi, -0.01, 1e-12);
  EXPECT_TRUE(out[0].n_W.isApprox(bisector, 1e-12));
  EXPECT_TRUE(out[0].p_W.isApprox(Vec3(0.1, 0.0, 0.1) - 0.005 * bisector, 1e-12));
  const auto swapped = Contacts(capsule, XC, box, SE3::Identity());
  ASSERT_EQ(swapped.size(), 1u);
  EXPECT_TRUE(swapped[0].n_W.isApprox(-bisector, 1e-12));
  // Lying on the top face, longer than the box: held by the two top edges it bridges.
  const auto flat = Contacts(box, SE3::Identity(), capsule,
                             SE3(ExpSO3(Vec3(0, M_PI / 2, 0)), Vec3(0.0, 0.02, 0.149)));
  ASSERT_EQ(flat.size(), 2u);
  for (const auto& c : flat) EXPECT_NEAR(c.phi, -1e-3, 1e-12);
}

TEST(CapsuleContacts, DerivativesMatchCentralDifferences) {
  const Capsule a{0.05, 0.3}, b{0.04, 0.2};
  const SE3 XA(ExpSO3(Vec3(0.1, 0.2, 0.05)), Vec3(0.01, 0.0, 0.02));
  // Interior closest points, then B's end against A's side.
  ExpectKernelDerivatives(a, XA, b, SE3(ExpSO3(Vec3(0.1, 1.4, 0.2)), Vec3(0.0, 0.07, 0.1)));
  ExpectKernelDerivatives(a, XA, b, SE3(ExpSO3(Vec3(M_PI / 2 + 0.1, 0.0, 0.2)), Vec3(0.0, 0.27, 0.1)));
  ExpectKernelDerivatives(Sphere{0.1}, SE3::FromTranslation(Vec3(0.12, 0.0, 0.1)), a, XA);
  const Vec3 bisector = Vec3(1, 0, 1).normalized();
  ExpectKernelDerivatives(Box{Vec3(0.1, 0.12, 0.1)}, SE3(ExpSO3(Vec3(0.02, 0.01, 0.03)), Vec3::Zero()), a,
                          SE3(ExpSO3(Vec3(0.1, 3 * M_PI / 4, 0)), Vec3(0.1, 0.0, 0.1) + 0.04 * bisector));
}

}  // namespace contact_kernels_test
}  // namespace arena
