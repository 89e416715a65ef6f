// Mesh-mesh distance: triangle-triangle distances against closed forms and an independent
// projected-gradient minimisation; mesh distances against closed forms (boxes face-face,
// edge-edge and vertex-vertex apart, a box corner over a face, crossed edges, a tetrahedron over
// a plate, coplanar touching faces, overlap, containment, a dented box whose cavity holds
// another box); the BVH traversal against brute force over all triangle pairs on random meshes.
// ARENA_SOAK=<n> multiplies the sample counts.
#include "core/geometry/mesh_distance.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "tests/core/geometry/geometry_test_util.h"

namespace arena {
namespace mesh_distance_test {

using testing_geometry::Rng;
using testing_geometry::SoakFactor;

constexpr double kPi = 3.14159265358979323846;

// ---- Mesh builders. Closed meshes get outward triangles: each triangle is flipped if its
// normal points towards `inside` (a point from which every face is visible from inside: the
// centre of a convex solid).

TrianglesX3 Orient(const PointsX3& v, std::vector<std::array<int, 3>> tris, const Vec3& inside) {
  TrianglesX3 out(static_cast<int>(tris.size()), 3);
  for (size_t t = 0; t < tris.size(); ++t) {
    auto& f = tris[t];
    const Vec3 a = v.row(f[0]).transpose(), b = v.row(f[1]).transpose(),
               c = v.row(f[2]).transpose();
    if ((b - a).cross(c - a).dot((a + b + c) / 3.0 - inside) < 0.0) std::swap(f[1], f[2]);
    out.row(static_cast<int>(t)) << f[0], f[1], f[2];
  }
  return out;
}

// Box with half extents h: vertex i = (x, y, z) bits of i, 12 outward triangles.
PointsX3 BoxVertices(const Vec3& h) {
  PointsX3 v(8, 3);
  for (int i = 0; i < 8; ++i) {
    v.row(i) << ((i & 1) ? h.x() : -h.x()), ((i & 2) ? h.y() : -h.y()), ((i & 4) ? h.z() : -h.z());
  }
  return v;
}
std::vector<std::array<int, 3>> BoxFaces(bool skip_top = false) {
  std::vector<std::array<int, 3>> tris;
  for (int axis = 0; axis < 3; ++axis) {
    const int u = 1 << ((axis + 1) % 3), w = 1 << ((axis + 2) % 3);
    for (int side = 0; side < 2; ++side) {
      if (skip_top && axis == 2 && side == 1) continue;
      const int base = side ? (1 << axis) : 0;
      const int q[4] = {base, base + u, base + u + w, base + w};
      tris.push_back({q[0], q[1], q[2]});
      tris.push_back({q[0], q[2], q[3]});
    }
  }
  return tris;
}
TriangleMesh BoxMesh(const Vec3& h) {
  const PointsX3 v = BoxVertices(h);
  return MakeTriangleMesh(v, Orient(v, BoxFaces(), Vec3::Zero()));
}

// A box whose top face is pushed in: four triangles to an apex `dent` below the top centre.
TriangleMesh DentedBoxMesh(const Vec3& h, double dent) {
  PointsX3 v(9, 3);
  v.topRows(8) = BoxVertices(h);
  v.row(8) << 0.0, 0.0, h.z() - dent;
  TrianglesX3 sides = Orient(v.topRows(8), BoxFaces(true), Vec3::Zero());
  // The dent's triangles face up, out of the solid and into the cavity.
  std::vector<std::array<int, 3>> top = {{4, 5, 8}, {5, 7, 8}, {7, 6, 8}, {6, 4, 8}};
  TrianglesX3 t(sides.rows() + 4, 3);
  t.topRows(sides.rows()) = sides;
  for (int k = 0; k < 4; ++k) {
    auto f = top[k];
    const Vec3 a = v.row(f[0]).transpose(), b = v.row(f[1]).transpose(),
               c = v.row(f[2]).transpose();
    if ((b - a).cross(c - a).z() < 0.0) std::swap(f[1], f[2]);
    t.row(sides.rows() + k) << f[0], f[1], f[2];
  }
  return MakeTriangleMesh(v, t);
}

// Tetrahedron with its apex at the origin pointing down and its base a unit-side triangle at
// height 1.
TriangleMesh DownTetrahedron() {
  PointsX3 v(4, 3);
  v << 0, 0, 0, 1, 0, 1, -0.5, 0.8, 1, -0.5, -0.8, 1;
  return MakeTriangleMesh(
      v, Orient(v, {{0, 1, 2}, {0, 2, 3}, {0, 3, 1}, {1, 2, 3}}, v.colwise().mean().transpose()));
}

SE3 RotationAbout(const Vec3& axis, double angle, const Vec3& p = Vec3::Zero()) {
  return SE3(Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(), p);
}

MeshDistanceResult Distance(const TriangleMesh& a, const SE3& X_WA, const TriangleMesh& b,
                            const SE3& X_WB) {
  return MeshDistance(*a.data, X_WA, *b.data, X_WB);
}

// ---- Triangle-triangle.

TEST(TriangleTriangleDistance, ClosedForms) {
  const Vec3 a0(0, 0, 0), a1(1, 0, 0), a2(0, 1, 0);
  // Parallel, offset along z: face-face.
  EXPECT_DOUBLE_EQ(TriangleTriangleDistance(a0, a1, a2, a0 + Vec3(0, 0, 0.3), a1 + Vec3(0, 0, 0.3),
                                            a2 + Vec3(0, 0, 0.3))
                       .distance,
                   0.3);
  // A vertex of B above A's interior.
  const TrianglePairDistance vf =
      TriangleTriangleDistance(a0, a1, a2, Vec3(0.2, 0.2, 0.5), Vec3(0, 0, 2), Vec3(1, 1, 2));
  EXPECT_DOUBLE_EQ(vf.distance, 0.5);
  EXPECT_TRUE(vf.point_a.isApprox(Vec3(0.2, 0.2, 0)));
  // Skew edges: B's edge along y at x = 0.5, z = 0.25, crossing above A's edge a0 a1 from
  // outside the triangle (y < 0 side).
  EXPECT_NEAR(TriangleTriangleDistance(a0, a1, a2, Vec3(0.5, -1, 0.25), Vec3(0.5, -0.2, 0.25),
                                       Vec3(0.5, -1, 3))
                  .distance,
              std::hypot(0.2, 0.25), 1e-15);
  // Coplanar, disjoint: in-plane gap between a1 a2's line and B's vertex.
  EXPECT_NEAR(
      TriangleTriangleDistance(a0, a1, a2, Vec3(1, 1, 0), Vec3(2, 1, 0), Vec3(1, 2, 0)).distance,
      std::sqrt(0.5), 1e-15);
  // Coplanar overlapping (a vertex inside, and a star of two triangles whose edges cross with
  // no vertex inside), and piercing: distance 0 and intersecting.
  const TrianglePairDistance star =
      TriangleTriangleDistance(Vec3(0, 0, 0), Vec3(3, 0, 0), Vec3(1.5, 2.6, 0), Vec3(0, 1.7, 0),
                               Vec3(1.5, -0.9, 0), Vec3(3, 1.7, 0));
  EXPECT_EQ(star.distance, 0.0);
  EXPECT_TRUE(star.intersecting);
  const TrianglePairDistance coplanar =
      TriangleTriangleDistance(a0, a1, a2, Vec3(0.2, 0.2, 0), Vec3(2, 0.2, 0), Vec3(0.2, 2, 0));
  EXPECT_EQ(coplanar.distance, 0.0);
  EXPECT_TRUE(coplanar.intersecting);
  const TrianglePairDistance pierce =
      TriangleTriangleDistance(a0, a1, a2, Vec3(0.2, 0.2, -1), Vec3(0.3, 0.2, 1), Vec3(5, 5, 5));
  EXPECT_EQ(pierce.distance, 0.0);
  EXPECT_TRUE(pierce.intersecting);
  EXPECT_NEAR(pierce.point_a.z(), 0.0, 1e-15);
  // Degenerate (collinear) triangle against a triangle: its edges.
  EXPECT_DOUBLE_EQ(
      TriangleTriangleDistance(a0, a1, a2, Vec3(0, 0, 1), Vec3(1, 0, 1), Vec3(2, 0, 1)).distance,
      1.0);
}

// Independent reference: minimise |A l - B m|^2 over the two simplices by accelerated projected
// gradient (the projection onto the simplex by sorting). Its iterate is a feasible pair, so its
// distance is an upper bound on the true one.
Vec3 ProjectToSimplex(const Vec3& y) {
  Vec3 s = y;
  std::sort(s.data(), s.data() + 3, std::greater<double>());
  double cumulative = 0.0, theta = 0.0;
  for (int k = 0; k < 3; ++k) {
    cumulative += s[k];
    const double t = (cumulative - 1.0) / (k + 1);
    if (s[k] - t > 0.0) theta = t;
  }
  return (y.array() - theta).cwiseMax(0.0).matrix();
}
double ReferenceDistance(const Mat3& A, const Mat3& B) {
  Vec3 l = Vec3::Constant(1.0 / 3), m = l, l_prev = l, m_prev = m;
  const double lipschitz = 2.0 * (A.squaredNorm() + B.squaredNorm());
  double best = (A * l - B * m).norm();
  for (int k = 1; k <= 20000; ++k) {
    const double beta = (k - 1.0) / (k + 2.0);
    const Vec3 yl = l + beta * (l - l_prev), ym = m + beta * (m - m_prev);
    const Vec3 r = A * yl - B * ym;
    l_prev = l;
    m_prev = m;
    l = ProjectToSimplex(yl - (2.0 / lipschitz) * A.transpose() * r);
    m = ProjectToSimplex(ym + (2.0 / lipschitz) * B.transpose() * r);
    best = std::min(best, (A * l - B * m).norm());
  }
  return best;
}

TEST(TriangleTriangleDistance, MatchesAnIndependentMinimisation) {
  Rng rng(601);
  double worst_gap = 0.0;
  const int n = 60 * SoakFactor();
  int intersecting = 0;
  for (int i = 0; i < n; ++i) {
    Mat3 A, B;  // vertices as columns
    for (int k = 0; k < 3; ++k) {
      A.col(k) = rng.InBox(1.0);
      B.col(k) = rng.InBox(1.0) + Vec3(0.0, 0.0, rng.Uniform(-0.5, 1.5));
    }
    const TrianglePairDistance d =
        TriangleTriangleDistance(A.col(0), A.col(1), A.col(2), B.col(0), B.col(1), B.col(2));
    // The witnesses lie on the triangles and realise the distance (so it is not too small).
    EXPECT_NEAR(
        (ClosestPointOnTriangle(d.point_a, A.col(0), A.col(1), A.col(2)).point - d.point_a).norm(),
        0.0, 1e-12);
    EXPECT_NEAR(
        (ClosestPointOnTriangle(d.point_b, B.col(0), B.col(1), B.col(2)).point - d.point_b).norm(),
        0.0, 1e-12);
    EXPECT_NEAR((d.point_a - d.point_b).norm(), d.distance, 1e-12);
    // ... and no feasible pair the reference finds is closer (so it is not too large).
    const double ref = ReferenceDistance(A, B);
    EXPECT_LE(d.distance, ref + 1e-12) << i;
    worst_gap = std::max(worst_gap, ref - d.distance);
    intersecting += d.intersecting;
    EXPECT_EQ(d.intersecting, d.distance == 0.0);
  }
  std::printf(
      "[mesh distance] triangle-triangle %d samples (%d intersecting): reference - exact "
      "<= %.1e\n",
      n, intersecting, worst_gap);
  EXPECT_LT(worst_gap, 1e-6);
  EXPECT_GT(intersecting, 0);
}

// ---- The oracle of the BVH traversal: every triangle pair.

struct Brute {
  double distance = std::numeric_limits<double>::infinity();
  int intersecting = 0;
};
// All triangle pairs in the world frame with A at the identity (the frame MeshDistance uses).
Brute BruteForce(const TriangleMeshData& a, const TriangleMeshData& b, const SE3& X_WB) {
  Brute out;
  const auto va = [&](int t, int k) { return Vec3(a.vertices.row(a.triangles(t, k)).transpose()); };
  const auto vb = [&](int t, int k) {
    return X_WB.Act(b.vertices.row(b.triangles(t, k)).transpose());
  };
  for (int i = 0; i < a.triangles.rows(); ++i) {
    for (int j = 0; j < b.triangles.rows(); ++j) {
      const TrianglePairDistance d =
          TriangleTriangleDistance(va(i, 0), va(i, 1), va(i, 2), vb(j, 0), vb(j, 1), vb(j, 2));
      out.distance = std::min(out.distance, d.distance);
      out.intersecting += d.intersecting;
    }
  }
  return out;
}

// ---- Closed forms on meshes.

TEST(MeshDistance, AxisAlignedBoxes) {
  const TriangleMesh a = BoxMesh(Vec3(1, 1, 1));
  const TriangleMesh b = BoxMesh(Vec3(0.5, 0.5, 0.5));
  const SE3 I;
  // Face-face, B beside A's +x face with a gap of 0.2.
  MeshDistanceResult r = Distance(a, I, b, SE3::FromTranslation(Vec3(1.7, 0.1, -0.2)));
  EXPECT_EQ(r.contact, MeshContact::kSeparated);
  EXPECT_NEAR(r.distance, 0.2, 1e-14);
  EXPECT_NEAR((r.point_b_W - r.point_a_W).norm(), 0.2, 1e-14);
  // Edge-edge: parallel vertical edges, gaps 0.3 in x and 0.4 in y.
  r = Distance(a, I, b, SE3::FromTranslation(Vec3(1.8, 1.9, 0.1)));
  EXPECT_NEAR(r.distance, 0.5, 1e-14);
  // Vertex-vertex: gaps 0.1, 0.2, 0.2.
  r = Distance(a, I, b, SE3::FromTranslation(Vec3(1.6, -1.7, 1.7)));
  EXPECT_NEAR(r.distance, 0.3, 1e-14);
  // Vertex-face: B turned so that a body diagonal is vertical, its lowest corner sqrt(3)/2
  // below its centre, above A's top face.
  const Mat3 r_diag = Eigen::Quaterniond::FromTwoVectors(Vec3(1, 1, 1).normalized(), Vec3(0, 0, -1))
                          .toRotationMatrix();
  r = Distance(a, I, b, SE3(r_diag, Vec3(0.1, 0.2, 1.0 + 0.25 + std::sqrt(3.0) / 2)));
  EXPECT_NEAR(r.distance, 0.25, 1e-14);
  // Crossed edges: A turned 45 degrees about y (top edge along y at z = sqrt 2), B turned 45
  // degrees about x (bottom edge along x at its centre minus sqrt(2)/2).
  const SE3 tilted_a = RotationAbout(Vec3::UnitY(), kPi / 4);
  r = Distance(a, tilted_a, b,
               RotationAbout(Vec3::UnitX(), kPi / 4,
                             Vec3(0.05, -0.1, std::sqrt(2.0) + 0.15 + std::sqrt(0.5))));
  EXPECT_NEAR(r.distance, 0.15, 1e-14);
  EXPECT_EQ(r.contact, MeshContact::kSeparated);
}

TEST(MeshDistance, TetrahedronOverAPlate) {
  const TriangleMesh plate = BoxMesh(Vec3(5, 5, 0.05));
  const TriangleMesh tet = DownTetrahedron();
  for (double gap : {1e-6, 0.01, 0.7}) {
    const MeshDistanceResult r =
        Distance(plate, SE3(), tet, SE3::FromTranslation(Vec3(0.3, -0.4, 0.05 + gap)));
    EXPECT_NEAR(r.distance, gap, 1e-14) << gap;
    EXPECT_EQ(r.contact, MeshContact::kSeparated);
  }
  // Pushed 0.02 into the plate: the apex is 0.02 deep.
  const MeshDistanceResult in =
      Distance(plate, SE3(), tet, SE3::FromTranslation(Vec3(0.3, -0.4, 0.03)));
  EXPECT_EQ(in.contact, MeshContact::kPenetrating);
  EXPECT_NEAR(in.distance, -0.02, 1e-14);
}

TEST(MeshDistance, TouchingIntersectingAndContained) {
  const TriangleMesh a = BoxMesh(Vec3(1, 1, 1));
  const TriangleMesh b = BoxMesh(Vec3(0.5, 0.5, 0.5));
  const SE3 I;
  // Coplanar touching faces: 0.
  MeshDistanceResult r = Distance(a, I, b, SE3::FromTranslation(Vec3(1.5, 0.1, 0.2)));
  EXPECT_EQ(r.contact, MeshContact::kTouching);
  EXPECT_EQ(r.distance, 0.0);
  EXPECT_EQ(r.surface_distance, 0.0);
  EXPECT_GT(r.intersecting_pairs, 0);
  // Overlapping by 0.05 along x: B's four -x corners are 0.05 deep in A.
  r = Distance(a, I, b, SE3::FromTranslation(Vec3(1.45, 0.1, 0.2)));
  EXPECT_EQ(r.contact, MeshContact::kPenetrating);
  EXPECT_NEAR(r.distance, -0.05, 1e-14);
  // Same with the meshes swapped.
  r = Distance(b, SE3::FromTranslation(Vec3(1.45, 0.1, 0.2)), a, I);
  EXPECT_NEAR(r.distance, -0.05, 1e-14);
  // Crossed edges pushed 0.01 into each other: no vertex is inside, the crossing edge pieces
  // are. The penetration depth is 0.01 (along z); the estimate is a lower bound, here the
  // depth of the edge midpoint, 0.01 / sqrt 2.
  const SE3 tilted_a = RotationAbout(Vec3::UnitY(), kPi / 4);
  const double top = std::sqrt(2.0), half_diag_b = std::sqrt(0.5);
  r = Distance(a, tilted_a, b,
               RotationAbout(Vec3::UnitX(), kPi / 4, Vec3(0, 0, top + half_diag_b - 0.01)));
  EXPECT_EQ(r.contact, MeshContact::kPenetrating);
  EXPECT_LE(r.distance, -0.5 * 0.01);
  EXPECT_GE(r.distance, -0.01 - 1e-14);
  // ... and just touching (up to the rotation's round-off): not penetrating, |distance| tiny.
  r = Distance(a, tilted_a, b,
               RotationAbout(Vec3::UnitX(), kPi / 4, Vec3(0, 0, top + half_diag_b)));
  EXPECT_NE(r.contact, MeshContact::kPenetrating);
  EXPECT_LT(std::abs(r.distance), 1e-14);
  // Containment: B (corners at x = -0.2 and 0.8, y, z = +-0.5) inside A with disjoint surfaces.
  // Its deepest corners, (-0.2, +-0.5, +-0.5), are 0.5 from A's surface.
  r = Distance(a, I, b, SE3::FromTranslation(Vec3(0.3, 0, 0)));
  EXPECT_EQ(r.intersecting_pairs, 0);
  EXPECT_NEAR(r.surface_distance, 0.2, 1e-14);
  EXPECT_EQ(r.contact, MeshContact::kPenetrating);
  EXPECT_NEAR(r.distance, -0.5, 1e-14);
  r = Distance(b, SE3::FromTranslation(Vec3(0.3, 0, 0)), a, I);
  EXPECT_NEAR(r.distance, -0.5, 1e-14);
  EXPECT_TRUE(r.signed_result);
}

TEST(MeshDistance, ConcaveCavityIsOutside) {
  // A 2x2x2 box with its top pushed 1.5 down to an apex: a small box floating in the cavity
  // lies inside the bounding box but outside the solid.
  const TriangleMesh dented = DentedBoxMesh(Vec3(1, 1, 1), 1.5);
  ASSERT_TRUE(IsClosed(*dented.data));
  EXPECT_NEAR(WindingNumber(*dented.data, Vec3(0, 0, -0.9)), 1.0, 1e-12);
  EXPECT_NEAR(WindingNumber(*dented.data, Vec3(0, 0, 0.5)), 0.0, 1e-12);
  const TriangleMesh cube = BoxMesh(Vec3(0.1, 0.1, 0.1));
  const MeshDistanceResult r = Distance(dented, SE3(), cube, SE3::FromTranslation(Vec3(0, 0, 0.8)));
  EXPECT_EQ(r.contact, MeshContact::kSeparated);
  EXPECT_GT(r.distance, 0.0);
  // The nearest dent faces are slanted: compare with all triangle pairs.
  const double brute =
      BruteForce(*dented.data, *cube.data, SE3::FromTranslation(Vec3(0, 0, 0.8))).distance;
  EXPECT_NEAR(r.distance, brute, 1e-14);
}

TEST(MeshDistance, InvariantUnderACommonRigidMotion) {
  Rng rng(602);
  const TriangleMesh a = BoxMesh(Vec3(1, 0.7, 0.4));
  const TriangleMesh b = DownTetrahedron();
  const SE3 X_AB = SE3(Eigen::AngleAxisd(0.3, Vec3(1, 2, 0).normalized()).toRotationMatrix(),
                       Vec3(0.2, 0.1, 0.7));
  const MeshDistanceResult ref = Distance(a, SE3(), b, X_AB);
  for (int i = 0; i < 10; ++i) {
    const SE3 X = rng.Pose(3.0);
    const MeshDistanceResult r = Distance(a, X, b, X * X_AB);
    EXPECT_NEAR(r.distance, ref.distance, 1e-13);
    EXPECT_EQ(r.contact, ref.contact);
  }
}

// ---- BVH against brute force.

TriangleMesh RandomHullMesh(Rng& rng, int n, double r) {
  PointsX3 p(n, 3);
  for (int i = 0; i < n; ++i) p.row(i) = (r * rng.UnitVector()).transpose();
  const ConvexHull hull = MakeConvexHull(p);
  TrianglesX3 t(static_cast<int>(hull.data->triangles.size()), 3);
  for (int i = 0; i < t.rows(); ++i) t.row(i) = hull.data->triangles[i].transpose();
  return MakeTriangleMesh(hull.data->vertices, t);
}

TriangleMesh RandomSoupMesh(Rng& rng, int n) {
  PointsX3 v(3 * n, 3);
  TrianglesX3 t(n, 3);
  for (int i = 0; i < n; ++i) {
    const Vec3 c = rng.InBox(1.0);
    for (int k = 0; k < 3; ++k) v.row(3 * i + k) = (c + rng.InBox(0.2)).transpose();
    t.row(i) << 3 * i, 3 * i + 1, 3 * i + 2;
  }
  return MakeTriangleMesh(v, t);
}

TEST(MeshDistance, BvhMatchesBruteForceOnRandomMeshes) {
  Rng rng(603);
  int tested = 0, total = 0, separated = 0, penetrating = 0;
  const int n = 30 * SoakFactor();
  for (int trial = 0; trial < n; ++trial) {
    const bool soups = trial % 3 == 2;
    const TriangleMesh a = soups ? RandomSoupMesh(rng, 80) : RandomHullMesh(rng, 40 + trial, 1.0);
    const TriangleMesh b = soups ? RandomSoupMesh(rng, 60) : RandomHullMesh(rng, 30, 0.6);
    // B's centre 1.0 .. 2.0 from A's: separated, touching-close and intersecting.
    const SE3 X_WB(rng.Rotation(), rng.UnitVector() * rng.Uniform(1.0, 2.0));
    const MeshDistanceResult r = MeshDistance(*a.data, SE3(), *b.data, X_WB);
    const Brute ref = BruteForce(*a.data, *b.data, X_WB);
    EXPECT_EQ(r.surface_distance, ref.distance) << trial;
    EXPECT_EQ(r.intersecting_pairs, ref.intersecting) << trial;
    EXPECT_EQ(r.signed_result, !soups);
    if (soups) {
      EXPECT_GE(r.distance, 0.0);
    } else if (ref.intersecting > 0) {
      EXPECT_EQ(r.contact, MeshContact::kPenetrating) << trial;  // random overlaps are deep
      ++penetrating;
    } else {
      EXPECT_EQ(r.distance, ref.distance);
      ++separated;
    }
    tested += r.pairs_tested;
    total += static_cast<int>(a.data->triangles.rows() * b.data->triangles.rows());
  }
  std::printf(
      "[mesh distance] BVH vs brute force, %d mesh pairs (%d separated hulls, %d "
      "penetrating hulls): %d of %d triangle pairs tested\n",
      n, separated, penetrating, tested, total);
  EXPECT_GT(separated, 0);
  EXPECT_GT(penetrating, 0);
}

TEST(MeshDistance, RejectsEmptyMeshesAndNamesContacts) {
  const TriangleMesh a = BoxMesh(Vec3(1, 1, 1));
  EXPECT_THROW(MeshDistance(TriangleMeshData{}, SE3(), *a.data, SE3()), InvalidArgument);
  EXPECT_EQ(ToString(MeshContact::kTouching), "touching");
  EXPECT_EQ(ToString(MeshContact::kPenetrating), "penetrating");
}

}  // namespace mesh_distance_test
}  // namespace arena
