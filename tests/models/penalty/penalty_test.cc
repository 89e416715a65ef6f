// Tests of the `penalty` reference model: closed-form resting force, conservation in a
// frictionless undamped collision, analytical step derivatives vs finite differences (in and
// out of contact, free, planar and articulated bodies), and clear errors.
#include "models/penalty/penalty.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/mesh.h"
#include "core/geometry/signed_distance.h"
#include "core/math/so3.h"
#include "core/multibody/configuration.h"
#include "core/multibody/data.h"
#include "core/multibody/energy.h"
#include "core/scene/scene_builder.h"
#include "models/finite_difference_derivatives.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace penalty_test {

using ::testing::HasSubstr;

// The square [-h, h]^2 padded by r.
Polygon2 PaddedSquare(double h, double r) {
  Eigen::Matrix<double, Eigen::Dynamic, 2> A(4, 2);
  A << 1, 0, -1, 0, 0, 1, 0, -1;
  return MakePaddedPolygon2(A, VecX::Constant(4, h), r);
}

std::unique_ptr<Simulator> Make(std::shared_ptr<const Scene> scene, OptionMap options) {
  return MakeSimulator("penalty", std::move(scene), options);
}

// A box resting flat on the ground settles where its four bottom corners carry its weight:
// k * depth * 4 = m g. Tolerance 1e-3 relative: the damped transient has decayed by then.
TEST(Penalty, RestingBoxCarriesItsWeight) {
  SceneBuilder b("rest");
  const Vec3 h(0.2, 0.1, 0.05);
  const double m = 2.0, k = 1e5;
  const int box = b.AddFreeBody("box", SpatialInertia::SolidBox(m, h), SE3::FromTranslation(Vec3(0, 0, h.z())));
  b.AddCollider(box, Box{h});
  b.AddGround();
  auto sim = Make(b.Build(), {{"timestep", "0.0005"}, {"stiffness", "1e5"}, {"damping_ratio", "1"}});
  State s = DefaultState(sim->scene());
  for (int i = 0; i < 6000; ++i) ASSERT_TRUE(sim->Step(s, {}).ok());
  const double depth = h.z() - s.q[2];
  EXPECT_NEAR(depth, m * 9.81 / (4.0 * k), 1e-3 * m * 9.81 / (4.0 * k));
  EXPECT_LT(s.v.norm(), 1e-6);
  const StepReport r = sim->Step(s, {});
  EXPECT_EQ(r.contacts, 4);
  EXPECT_NEAR(r.min_signed_distance, -depth, 1e-9);
}

// Two spheres collide head-on without gravity, friction or damping: the contact wrenches are
// equal and opposite, so momentum is conserved to round-off; symplectic Euler keeps the energy
// within O(dt) of its start (1% here) and the spheres separate.
TEST(Penalty, HeadOnCollisionConservesMomentum) {
  SceneBuilder b("spheres");
  b.SetGravity(Vec3::Zero());
  const int s1 = b.AddFreeBody("s1", SpatialInertia::SolidSphere(1.0, 0.1), SE3::FromTranslation(Vec3(-0.3, 0, 0)));
  const int s2 = b.AddFreeBody("s2", SpatialInertia::SolidSphere(3.0, 0.1), SE3::FromTranslation(Vec3(0.3, 0.01, 0)));
  b.AddCollider(s1, Sphere{0.1}).friction = 0.0;
  b.AddCollider(s2, Sphere{0.1}).friction = 0.0;
  auto scene = b.Build();
  auto sim = Make(scene, {{"timestep", "1e-4"}, {"stiffness", "1e5"}, {"damping_ratio", "0"}});
  State s = DefaultState(*scene);
  s.v.segment<3>(3) = Vec3(1.0, 0, 0);   // s1 moves +x (body frame = world frame at identity)
  s.v.segment<3>(9) = Vec3(-0.5, 0, 0);
  MultibodyData data(scene->model);
  const Force p0 = SpatialMomentum(scene->model, data, s.q, s.v);
  const double e0 = KineticEnergy(scene->model, data, s.q, s.v);
  int contact_steps = 0;
  for (int i = 0; i < 5000; ++i) {
    const StepReport r = sim->Step(s, {});
    ASSERT_TRUE(r.ok());
    contact_steps += r.contacts > 0;
  }
  EXPECT_GT(contact_steps, 0);
  const Force p1 = SpatialMomentum(scene->model, data, s.q, s.v);
  EXPECT_LT((p1 - p0).norm(), 1e-10 * (1.0 + p0.norm()));
  EXPECT_NEAR(KineticEnergy(scene->model, data, s.q, s.v), e0, 1e-2 * e0);
}

// A padded square (half side h, radius r) resting flat on the planar ground settles on its
// padding: its two bottom corners, each r above the contact line, carry its weight,
// 2 k depth = m g, so the centre rests at h + r - m g / (2 k).
TEST(Penalty, PaddedSquareRestsOnItsPadding) {
  const double h = 0.1, r = 0.05, m = 1.5, k = 1e5;
  SceneBuilder b("padded_rest");
  b.SetGravity(Vec3(0, -9.81, 0));
  const int body = b.AddPlanarBody("square", m, 0.01, Vec3(0.3, h + r + 0.01, 0));
  b.AddCollider(body, PaddedSquare(h, r)).friction = 0.5;
  b.AddGroundPlane2(0.5);
  auto sim = Make(b.Build(), {{"timestep", "0.0005"}, {"stiffness", "1e5"}, {"damping_ratio", "1"}});
  State s = DefaultState(sim->scene());
  for (int i = 0; i < 6000; ++i) ASSERT_TRUE(sim->Step(s, {}).ok());
  const double depth = m * 9.81 / (2.0 * k);
  EXPECT_NEAR(s.q[1], h + r - depth, 1e-3 * depth);
  EXPECT_NEAR(s.q[2], 0.0, 1e-9);  // stays flat
  EXPECT_LT(s.v.norm(), 1e-6);
  const StepReport rep = sim->Step(s, {});
  EXPECT_EQ(rep.contacts, 2);
  EXPECT_NEAR(rep.min_signed_distance, -depth, 1e-3 * depth);
}

// Kernel level: a padded polygon over the half-plane makes contact at each vertex v whose
// padding reaches below the line: phi = (v - r n) . n, applied midway into the overlap; the
// same core without padding has no contact at all in this pose.
TEST(PenaltyKernels, PaddedPolygonOnHalfPlaneShiftsTheVertexPointsByTheRadius) {
  const double h = 0.1, r = 0.05, theta = 0.3, y = 0.15;
  const contact::ColliderGeometry ground = contact::MakeColliderGeometry(HalfPlane2{});
  const contact::ColliderGeometry padded = contact::MakeColliderGeometry(PaddedSquare(h, r));
  const contact::ColliderGeometry plain = contact::MakeColliderGeometry(PaddedSquare(h, 0.0));
  const contact::PoseT<double> XG{Mat3::Identity(), Vec3::Zero()};
  const Mat3 R = ExpSO3(Vec3(0, 0, theta));
  const contact::PoseT<double> XB{R, Vec3(0.2, y, 0)};
  std::vector<contact::ContactPointT<double>> out;
  ASSERT_TRUE(contact::Contacts<double>(ground, XG, plain, XB, &out));
  EXPECT_TRUE(out.empty());  // lowest core vertex at y - h (cos + sin) = 0.0249 > 0
  ASSERT_TRUE(contact::Contacts<double>(ground, XG, padded, XB, &out));
  ASSERT_EQ(out.size(), 1u);
  const Vec3 v = XB.Act(Vec3(-h, -h, 0));  // the lowest corner after a positive turn
  const double phi = v.y() - r;
  EXPECT_NEAR(out[0].phi, phi, 1e-15);
  EXPECT_LT(out[0].phi, 0.0);
  EXPECT_TRUE(out[0].n_W.isApprox(Vec3::UnitY()));
  // Midway between the padded corner's lowest point v - r n and the line.
  EXPECT_TRUE(out[0].p_W.isApprox(Vec3(v.x(), 0.5 * phi, 0), 1e-14));
  // Swapped order: same points, normal from the polygon to the ground.
  out.clear();
  ASSERT_TRUE(contact::Contacts<double>(padded, XB, ground, XG, &out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].n_W.isApprox(-Vec3::UnitY()));
}

// Kernel level, padded polygon against a disk and against another padded polygon: the deepest
// contact is the exact signed distance of the pair (GJK / closed form), with its normal; none
// when the padded shapes are apart.
TEST(PenaltyKernels, PaddedPolygonPairsMatchTheSignedDistance) {
  Eigen::Matrix<double, Eigen::Dynamic, 2> V(5, 2);
  V << 0.3, 0.05, 0.05, 0.28, -0.25, 0.15, -0.2, -0.22, 0.22, -0.25;
  const Polygon2 core = MakePolygon2FromVertices(V);
  const Polygon2 pa = MakePaddedPolygon2(core.A, core.b, 0.08);
  const Polygon2 pb = PaddedSquare(0.15, 0.05);
  const Disk2 disk{0.1};
  std::mt19937_64 gen(5);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const auto pose = [&](double t) {
    return SE3(ExpSO3(Vec3(0, 0, 3.2 * U(gen))), Vec3(t * U(gen), t * U(gen), 0));
  };
  const auto kpose = [](const SE3& X) {
    return contact::PoseT<double>{X.rotation(), X.translation()};
  };
  int overlapping_pairs = 0, deep_disks = 0;
  for (int k = 0; k < 400; ++k) {
    const SE3 XA = pose(0.1), XB = pose(0.7), XD = pose(0.6);
    for (int which = 0; which < 2; ++which) {
      const Shape& other = which == 0 ? Shape(pb) : Shape(disk);
      const SE3& XO = which == 0 ? XB : XD;
      const SignedDistanceResult sd = SignedDistance(pa, XA, other, XO);
      std::vector<contact::ContactPointT<double>> out;
      ASSERT_TRUE(contact::Contacts<double>(contact::MakeColliderGeometry(pa), kpose(XA),
                                            contact::MakeColliderGeometry(other), kpose(XO), &out));
      if (sd.distance >= 1e-9) {
        EXPECT_TRUE(out.empty()) << sd.distance;
        continue;
      }
      if (sd.distance > -1e-9) continue;  // touching: either way
      // Disks: exact for any overlap. Padded polygons: exact while the cores are apart (a corner
      // is then a closest feature); with overlapping cores the kernel's corner contacts bound
      // the depth from above, like the plain polygon kernel (and crossing cores with no corner
      // inside the other give none).
      const bool cores_apart =
          which == 0 && ConvexSignedDistance(core, XA, PaddedSquare(0.15, 0.0), XB).distance > 0;
      const bool exact = which == 1 || cores_apart;
      if (!exact && out.empty()) continue;
      ASSERT_FALSE(out.empty()) << "which " << which << " d " << sd.distance;
      size_t deepest = 0;
      for (size_t i = 0; i < out.size(); ++i) {
        EXPECT_LT(out[i].phi, 0.0);
        if (out[i].phi < out[deepest].phi) deepest = i;
      }
      if (exact) {
        EXPECT_NEAR(out[deepest].phi, sd.distance, 1e-9) << "which " << which;
        EXPECT_GT(out[deepest].n_W.dot(sd.normal_W), 1 - 1e-6);
        // Applied midway between the two witnesses.
        EXPECT_LT((out[deepest].p_W - 0.5 * (sd.p_WA + sd.p_WB)).norm(), 1e-6);
        ++overlapping_pairs;
        const Vec2 centre_A = XA.ActInv(XD.translation()).head<2>();
        deep_disks += which == 1 && PointDistance2(core, centre_A).distance < 0;
      } else {
        EXPECT_GE(out[deepest].phi, sd.distance - 1e-9);
      }
    }
  }
  EXPECT_GT(overlapping_pairs, 40);
  EXPECT_GT(deep_disks, 5);  // disk centres inside the core polygon were exercised
  // Closed form, corner to corner: the square turned by 45 degrees with its left corner 0.1 to
  // the right of the pentagon's vertex (0.3, 0.05), each in the other's vertex region. One
  // contact (not one from each side): phi = 0.1 - 0.08 - 0.05, normal +x, midway between the
  // padded surfaces at x = 0.38 and x = 0.35.
  const SE3 XS(ExpSO3(Vec3(0, 0, M_PI / 4)), Vec3(0.4 + 0.15 * std::sqrt(2.0), 0.05, 0));
  for (int order = 0; order < 2; ++order) {
    std::vector<contact::ContactPointT<double>> out;
    const contact::ColliderGeometry gp = contact::MakeColliderGeometry(pa);
    const contact::ColliderGeometry gs = contact::MakeColliderGeometry(pb);
    const contact::PoseT<double> I{Mat3::Identity(), Vec3::Zero()};
    if (order == 0) {
      ASSERT_TRUE(contact::Contacts<double>(gp, I, gs, kpose(XS), &out));
    } else {
      ASSERT_TRUE(contact::Contacts<double>(gs, kpose(XS), gp, I, &out));
    }
    ASSERT_EQ(out.size(), 1u) << "order " << order;
    EXPECT_NEAR(out[0].phi, 0.1 - 0.13, 1e-12);
    EXPECT_TRUE(out[0].n_W.isApprox((order == 0 ? 1.0 : -1.0) * Vec3::UnitX(), 1e-12));
    EXPECT_TRUE(out[0].p_W.isApprox(Vec3(0.365, 0.05, 0), 1e-12));
  }
}

struct DerivativeCase {
  std::string name;
  std::shared_ptr<const Scene> scene;
  State state;
  VecX u;
  bool expect_contact;
};

std::vector<DerivativeCase> DerivativeCases() {
  std::vector<DerivativeCase> cases;
  {  // A tilted cube with one corner in the ground, moving and spinning.
    SceneBuilder b("cube_corner");
    const Vec3 h = Vec3::Constant(0.25);
    const int body = b.AddFreeBody("cube", SpatialInertia::SolidBox(1.0, h), SE3());
    b.AddCollider(body, Box{h}).friction = 0.3;
    b.AddGround(0.3);
    auto scene = b.Build();
    State s = DefaultState(*scene);
    const Quat q(Eigen::AngleAxisd(0.4, Vec3(1, 2, 0.5).normalized()));
    const Mat3 R = q.toRotationMatrix();
    double lowest = 1e9;
    for (int i = 0; i < 8; ++i) {
      const Vec3 c((i & 1 ? 1 : -1) * 0.25, (i & 2 ? 1 : -1) * 0.25, (i & 4 ? 1 : -1) * 0.25);
      lowest = std::min(lowest, (R * c).z());
    }
    s.q << 0.1, -0.2, -lowest - 0.003, q.w(), q.x(), q.y(), q.z();
    s.v << 0.3, -0.2, 0.5, 0.4, 0.2, -0.3;
    cases.push_back({"cube_corner_contact", scene, s, VecX(), true});
    State flying = s;
    flying.q[2] += 0.5;
    cases.push_back({"cube_flying", scene, flying, VecX(), false});
  }
  {  // The paper's planar polygon (box_drop's) with one vertex in the ground.
    auto scene = MakeScene("polygon");
    const Polygon2& poly = std::get<Polygon2>(scene->colliders[0].shape);
    State s = DefaultState(*scene);
    const double theta = 0.3;
    double lowest = 1e9;
    for (int i = 0; i < poly.vertices.rows(); ++i) {
      lowest = std::min(lowest, (Eigen::Rotation2Dd(theta) * Vec2(poly.vertices.row(i).transpose())).y());
    }
    s.q << 0.2, -lowest - 0.004, theta;
    s.v << 0.7, 0.4, -0.3;
    cases.push_back({"polygon_vertex_contact", scene, s, VecX(), true});
  }
  {  // The same polygon padded: its core vertex is above the ground, its padding is not.
    SceneBuilder b("padded_polygon");
    b.SetGravity(Vec3(0, -9.81, 0));
    Eigen::Matrix<double, 5, 2> A;
    A << 1.0, 0.2, 0.0, 1.0, -1.0, -0.3, 0.0, -1.0, 0.8, -0.8;
    const double r = 0.05;
    const int body = b.AddPlanarBody("polygon", 1.0, 0.2, Vec3::Zero());
    const Polygon2 poly = MakePaddedPolygon2(A, VecX::Constant(5, 0.4), r);
    b.AddCollider(body, poly).friction = 0.2;
    b.AddGroundPlane2(0.2);
    auto scene = b.Build();
    State s = DefaultState(*scene);
    const double theta = 0.3;
    double lowest = 1e9;
    for (int i = 0; i < poly.vertices.rows(); ++i) {
      lowest = std::min(lowest, (Eigen::Rotation2Dd(theta) * Vec2(poly.vertices.row(i).transpose())).y());
    }
    s.q << 0.2, -lowest + r - 0.004, theta;
    s.v << 0.7, 0.4, -0.3;
    cases.push_back({"padded_polygon_vertex_contact", scene, s, VecX(), true});
    State above = s;
    above.q[1] += 0.006;  // the padding 2 mm above the ground
    cases.push_back({"padded_polygon_flying", scene, above, VecX(), false});
  }
  {  // Body-body in the plane: a padded square touching a padded polygon (corner in the other's
     // padding, cores apart) and a disk in a padded polygon's padding; no gravity.
    SceneBuilder b("padded_pairs");
    b.SetGravity(Vec3::Zero());
    Eigen::Matrix<double, Eigen::Dynamic, 2> V(5, 2);
    V << 0.3, 0.05, 0.05, 0.28, -0.25, 0.15, -0.2, -0.22, 0.22, -0.25;
    const Polygon2 core = MakePolygon2FromVertices(V);
    const int p1 = b.AddPlanarBody("pentagon", 1.0, 0.05, Vec3::Zero());
    const int p2 = b.AddPlanarBody("square", 0.7, 0.02, Vec3::Zero());
    const int d = b.AddPlanarBody("disk", 0.3, 0.002, Vec3::Zero());
    b.AddCollider(p1, MakePaddedPolygon2(core.A, core.b, 0.08)).friction = 0.3;
    b.AddCollider(p2, PaddedSquare(0.15, 0.05)).friction = 0.3;
    b.AddCollider(d, Disk2{0.1}).friction = 0.3;
    b.ExcludePair(p2, d);
    auto scene = b.Build();
    State s = DefaultState(*scene);
    // Square turned by 45 degrees, its left corner 0.15 sqrt(2) from its centre, placed 0.1
    // right of the pentagon's vertex (0.3, 0.05): core gap 0.1 < 0.08 + 0.05.
    s.q << 0.0, 0.0, 0.0,                                   // pentagon
        0.3 + 0.1 + 0.15 * std::sqrt(2.0), 0.05, M_PI / 4,  // square
        -0.25 - 0.15, 0.15, 0.0;  // disk: 0.15 left of the vertex (-0.25, 0.15) < 0.08 + 0.1
    s.v << 0.2, -0.1, 0.3, -0.4, 0.2, -0.5, 0.3, 0.1, 0.2;
    cases.push_back({"padded_polygon_pairs", scene, s, VecX(), true});
  }
  {  // Articulated: a free base box with a revolute arm whose sphere tip touches the ground,
     // driven by a torque actuator.
    SceneBuilder b("arm");
    const int base = b.AddFreeBody("base", SpatialInertia::SolidBox(2.0, Vec3(0.2, 0.2, 0.1)),
                                   SE3::FromTranslation(Vec3(0, 0, 0.6)));
    JointModel hinge;
    hinge.type = JointType::kRevolute;
    hinge.name = "hinge";
    hinge.axis = Vec3::UnitY();
    hinge.placement = SE3::FromTranslation(Vec3(0.2, 0, 0));
    hinge.damping = 0.1;
    const int arm = b.AddBody("arm", base, hinge, SpatialInertia(0.5, Vec3(0, 0, -0.25), Mat3::Identity() * 0.01));
    b.AddCollider(arm, Sphere{0.1}, SE3::FromTranslation(Vec3(0, 0, -0.5))).friction = 0.5;
    b.AddGround(0.5);
    Actuator act;
    act.name = "hinge_motor";
    act.body = arm;
    act.gear = 2.0;
    b.AddActuator(act);
    auto scene = b.Build();
    State s = DefaultState(*scene);
    const double angle = 0.05;
    s.q[7] = angle;
    s.q[2] = 0.5 * std::cos(angle) + 0.1 - 0.004;  // tip sphere 4 mm into the ground
    s.v << 0.1, -0.2, 0.05, 0.3, 0.1, -0.2, 0.4;
    VecX u(1);
    u << 0.7;
    cases.push_back({"arm_tip_contact", scene, s, u, true});
  }
  {  // A free hull (a tetrahedron) with one vertex 3 mm into a fixed ground box (vertex-face:
     // a robot's mesh foot on a ground box, as Nimble's Atlas stands).
    SceneBuilder b("hull_on_box");
    b.SetGravity(Vec3(0.0, -9.81, 0.0));
    PointsX3 pts(4, 3);
    pts << 0.0, -0.2, 0.0, 0.2, 0.1, 0.0, -0.1, 0.1, 0.17, -0.1, 0.1, -0.17;
    const int body = b.AddFreeBody("tetra", SpatialInertia::SolidBox(1.0, Vec3::Constant(0.1)), SE3());
    b.AddCollider(body, MakeConvexHull(pts), SE3(), "tetra").friction = 0.6;
    b.AddCollider(kWorldBody, Box{Vec3(2.0, 0.05, 2.0)}, SE3::FromTranslation(Vec3(0.0, -0.05, 0.0)), "ground")
        .friction = 0.6;
    auto scene = b.Build();
    State s = DefaultState(*scene);
    const Quat tilt(Eigen::AngleAxisd(0.03, Vec3::UnitZ()));
    s.q << 0.01, 0.2 - 0.003, 0.0, tilt.w(), tilt.x(), tilt.y(), tilt.z();
    s.v << 0.1, -0.2, 0.05, 0.2, -0.1, 0.1;
    cases.push_back({"hull_vertex_in_box", scene, s, VecX(), true});
  }
  {  // Two free boxes, the upper one's corners inside the lower one (body-body contact).
    SceneBuilder b("stack");
    const Vec3 h(0.2, 0.2, 0.1);
    const int lower = b.AddFreeBody("lower", SpatialInertia::SolidBox(1.0, h), SE3::FromTranslation(Vec3(0, 0, 0.1)));
    const int upper = b.AddFreeBody("upper", SpatialInertia::SolidBox(0.5, h), SE3::FromTranslation(Vec3(0.05, 0.02, 0.297)));
    b.AddCollider(lower, Box{h}).friction = 0.4;
    b.AddCollider(upper, Box{h}).friction = 0.4;
    auto scene = b.Build();
    State s = DefaultState(*scene);
    const Quat tilt(Eigen::AngleAxisd(0.02, Vec3::UnitX()));
    s.q.segment<4>(10) << tilt.w(), tilt.x(), tilt.y(), tilt.z();
    s.v << 0.1, 0, 0.05, 0.1, 0, -0.1, -0.05, 0.2, 0, 0.2, 0.1, -0.3;
    cases.push_back({"box_box_contact", scene, s, VecX(), true});
  }
  {  // Mesh-mesh as hulls: a mesh cube with a corner 3 mm into a fixed mesh slab (vertex-face).
    SceneBuilder b("mesh_on_mesh");
    const Vec3 h(0.1, 0.08, 0.06);
    const int cube = b.AddFreeBody("cube", SpatialInertia::SolidBox(1.0, h), SE3());
    b.AddCollider(cube, MakeBoxMesh(h), SE3(), "cube").friction = 0.4;
    b.AddCollider(kWorldBody, MakeBoxMesh(Vec3(1.0, 1.0, 0.05)), SE3::FromTranslation(Vec3(0, 0, -0.05)), "slab")
        .friction = 0.4;
    auto scene = b.Build();
    State s = DefaultState(*scene);
    const Quat q(Eigen::AngleAxisd(0.3, Vec3(1, -2, 0.5).normalized()));
    double lowest = 1e9;
    for (int i = 0; i < 8; ++i) {
      lowest = std::min(lowest, (q * Vec3((i & 1 ? 1 : -1) * h.x(), (i & 2 ? 1 : -1) * h.y(), (i & 4 ? 1 : -1) * h.z())).z());
    }
    s.q << 0.1, -0.05, -lowest - 0.003, q.w(), q.x(), q.y(), q.z();
    s.v << 0.2, -0.1, 0.3, 0.2, 0.1, -0.2;
    cases.push_back({"mesh_vertex_in_mesh", scene, s, VecX(), true});
  }
  {  // Two free hull cubes whose edges cross, no corner inside the other (edge-edge), no gravity.
    SceneBuilder b("crossing_edges");
    b.SetGravity(Vec3::Zero());
    const Vec3 h = Vec3::Constant(0.1);
    const ConvexHull cube = ConvexHullOfMesh(MakeBoxMesh(h));
    const Quat qa(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitX()));
    const Quat qb(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitY()));
    const int lower = b.AddFreeBody("lower", SpatialInertia::SolidBox(1.0, h), SE3(qa.toRotationMatrix(), Vec3::Zero()));
    const int upper = b.AddFreeBody("upper", SpatialInertia::SolidBox(0.5, h),
                                    SE3(qb.toRotationMatrix(), Vec3(0.01, -0.02, 0.2 * std::sqrt(2.0) - 0.002)));
    b.AddCollider(lower, cube).friction = 0.4;
    b.AddCollider(upper, cube).friction = 0.4;
    auto scene = b.Build();
    State s = DefaultState(*scene);
    s.v << 0.1, 0, 0.05, 0.1, 0, -0.1, -0.05, 0.2, 0, 0.2, 0.1, -0.3;
    cases.push_back({"hull_edge_edge_contact", scene, s, VecX(), true});
  }
  return cases;
}

// Central differences with a 1e-6 step: truncation ~1e-12 relative, round-off ~eps/h ~1e-10
// (measured errors are 1e-10..1e-8), so 1e-6 leaves a margin while catching any missing term
// (dropping the contact term gives O(1) errors).
TEST(Penalty, StepDerivativesMatchFiniteDifferences) {
  FdOptions fd;
  fd.method = FdMethod::kCentral;
  fd.step = 1e-6;
  for (const DerivativeCase& c : DerivativeCases()) {
    SCOPED_TRACE(c.name);
    auto sim = Make(c.scene, {{"timestep", "0.005"}, {"stiffness", "2e4"}});
    State probe = c.state;
    const StepReport r = sim->Step(probe, Control{c.u});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.contacts > 0, c.expect_contact);
    StepDerivatives analytic;
    sim->Derivatives(c.state, Control{c.u}, &analytic);
    const StepDerivatives numeric = FiniteDifferenceStepDerivatives(*sim, c.state, Control{c.u}, fd);
    EXPECT_LT(MaxStepDerivativeError(analytic, numeric), 1e-6);
  }
}

TEST(Penalty, RejectsBadOptionsWithClearErrors) {
  SceneBuilder b("one");
  const int body = b.AddFreeBody("ball", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
  b.AddCollider(body, Sphere{0.1});
  auto scene = b.Build();
  try {
    Make(scene, {{"timestep", "-0.01"}});
    FAIL() << "negative timestep accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("timestep must be in [1e-06, 1], got -0.01"));
  }
  try {
    Make(scene, {{"stifness", "1"}});
    FAIL() << "misspelled key accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown option 'stifness'"));
    EXPECT_THAT(e.what(), HasSubstr("stiffness"));
  }
  EXPECT_THROW(Make(scene, {{"stiffness", "abc"}}), InvalidArgument);
}

TEST(Penalty, UnsupportedPairNamesTheShapes) {
  SceneBuilder b("capsule_mesh");
  const int c = b.AddFreeBody("c", SpatialInertia::SolidCapsule(1.0, 0.1, 0.2), SE3());
  const int x = b.AddFreeBody("x", SpatialInertia::SolidBox(1.0, Vec3::Constant(0.1)), SE3::FromTranslation(Vec3(1, 0, 0)));
  b.AddCollider(c, Capsule{0.1, 0.2}, SE3(), "rod");
  b.AddCollider(x, MakeBoxMesh(Vec3::Constant(0.1)), SE3(), "block");
  try {
    Make(b.Build(), {});
    FAIL() << "capsule-mesh accepted";
  } catch (const Unsupported& e) {
    EXPECT_THAT(e.what(), HasSubstr("capsule-mesh"));
    EXPECT_THAT(e.what(), HasSubstr("'rod'"));
  }
}

// Degenerate input: a cube exactly touching (phi = 0 on a whole face) and two spheres with
// coincident centres give finite states, and a non-finite state is reported, not thrown.
TEST(Penalty, DegenerateInputStaysFinite) {
  SceneBuilder b("degenerate");
  b.SetGravity(Vec3::Zero());
  const int s1 = b.AddFreeBody("s1", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
  const int s2 = b.AddFreeBody("s2", SpatialInertia::SolidSphere(1.0, 0.1), SE3());
  const int cube = b.AddFreeBody("cube", SpatialInertia::SolidBox(1.0, Vec3::Constant(0.1)), SE3::FromTranslation(Vec3(0, 0, 0.1)));
  b.AddCollider(s1, Sphere{0.1});
  b.AddCollider(s2, Sphere{0.1});
  b.AddCollider(cube, Box{Vec3::Constant(0.1)});
  b.AddGround();
  b.ExcludePair(s1, cube);
  b.ExcludePair(s2, cube);
  auto sim = Make(b.Build(), {});
  State s = DefaultState(sim->scene());
  s.q[2] = s.q[9] = 5.0;  // spheres far above the ground, centres coincident
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(sim->Step(s, {}).ok());
  EXPECT_TRUE(s.q.allFinite());
  State bad = s;
  bad.v[0] = std::nan("");
  const StepReport r = sim->Step(bad, {});
  EXPECT_EQ(r.status, StepStatus::kNonFinite);
  EXPECT_THAT(r.message, HasSubstr("not finite: state v[0] = nan"));
}

}  // namespace penalty_test
}  // namespace arena

namespace arena {
namespace penalty_test {

// A loaded articulated robot: half_cheetah (MJCF, capsules, collision filter bits) dropped on
// its floor settles on it. Its links only collide with the floor (contype/conaffinity), so
// every pair has a kernel. At rest the capsules carry the weight: penetration stays below a
// centimetre and the speed decays.
TEST(Penalty, HalfCheetahSettlesOnTheFloor) {
  auto scene = MakeScene("half_cheetah");
  auto sim = MakeSimulator("penalty", scene, {{"timestep", "0.001"}, {"stiffness", "3e4"}, {"damping_ratio", "1"}});
  State s = DefaultState(*scene);
  MultibodyData data(scene->model);
  for (int i = 0; i < 3000; ++i) ASSERT_TRUE(sim->Step(s, {}).ok()) << "step " << i;
  EXPECT_LT(s.v.norm(), 0.05);
  const StepReport r = sim->Step(s, {});
  EXPECT_GT(r.contacts, 0);
  EXPECT_GT(r.min_signed_distance, -0.01);
}

}  // namespace penalty_test
}  // namespace arena
