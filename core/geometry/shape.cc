#include "core/geometry/shape.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "core/common/error.h"
#include "core/geometry/mesh.h"

namespace arena {

namespace {

// "radius -0.1 must be finite and > 0", or "" when x passes.
std::string Positive(const char* what, double x) {
  if (std::isfinite(x) && x > 0.0) return "";
  return fmt::format("{} {} must be finite and > 0", what, x);
}
std::string NonNegative(const char* what, double x) {
  if (std::isfinite(x) && x >= 0.0) return "";
  return fmt::format("{} {} must be finite and >= 0", what, x);
}
std::string PositiveVec(const char* what, const Vec3& v) {
  if (v.allFinite() && (v.array() > 0.0).all()) return "";
  return fmt::format("{} ({}, {}, {}) must be finite and > 0", what, v.x(), v.y(), v.z());
}

// Volume enclosed by outward triangles (signed tetrahedra from the vertex mean), and the
// bounding-box diagonal of the vertices.
template <class Vertices, class TriangleAt>
std::string FlatProblem(const char* what, const Vertices& V, int num_triangles,
                        const TriangleAt& triangle) {
  const Vec3 ref = V.colwise().mean().transpose();
  double volume = 0.0;
  for (int t = 0; t < num_triangles; ++t) {
    const Eigen::Vector3i tri = triangle(t);
    const Vec3 a = V.row(tri[0]).transpose() - ref;
    const Vec3 b = V.row(tri[1]).transpose() - ref;
    const Vec3 c = V.row(tri[2]).transpose() - ref;
    volume += a.dot(b.cross(c)) / 6.0;
  }
  const double diagonal = (V.colwise().maxCoeff() - V.colwise().minCoeff()).norm();
  if (std::abs(volume) > kFlatVolumeRatio * diagonal * diagonal * diagonal) return "";
  return fmt::format(
      "{} is flat (volume {:.3g} m^3 for a bounding-box diagonal of {:.3g} m): a collider on "
      "a moving body needs a closed solid; use a mesh with thickness or a primitive shape",
      what, std::abs(volume), diagonal);
}

constexpr std::array<std::string_view, kNumShapeTypes> kNames = {
    "sphere", "box", "capsule", "cylinder", "ellipsoid", "cone", "half_space", "convex_hull",
    "mesh", "polygon2", "disk2", "capsule2", "half_plane2"};
}  // namespace

std::string_view ToString(ShapeType type) { return kNames[static_cast<size_t>(type)]; }

bool IsPlanar(ShapeType type) {
  return type == ShapeType::kPolygon2 || type == ShapeType::kDisk2 ||
         type == ShapeType::kCapsule2 || type == ShapeType::kHalfPlane2;
}

std::string ValidateShape(const Shape& shape, bool needs_volume) {
  std::string p;
  switch (TypeOf(shape)) {
    case ShapeType::kSphere:
      return Positive("sphere radius", std::get<Sphere>(shape).radius);
    case ShapeType::kBox:
      // Stored as half extents; files give full sizes, which are twice these.
      return PositiveVec("box half extents", std::get<Box>(shape).half_extents);
    case ShapeType::kCapsule: {
      const Capsule& c = std::get<Capsule>(shape);
      if (!(p = Positive("capsule radius", c.radius)).empty()) return p;
      return NonNegative("capsule half length", c.half_length);
    }
    case ShapeType::kCylinder: {
      const Cylinder& c = std::get<Cylinder>(shape);
      if (!(p = Positive("cylinder radius", c.radius)).empty()) return p;
      return Positive("cylinder half length", c.half_length);
    }
    case ShapeType::kEllipsoid:
      return PositiveVec("ellipsoid radii", std::get<Ellipsoid>(shape).radii);
    case ShapeType::kCone: {
      const Cone& c = std::get<Cone>(shape);
      if (!(p = Positive("cone radius", c.radius)).empty()) return p;
      return Positive("cone height", c.height);
    }
    case ShapeType::kHalfSpace:
    case ShapeType::kHalfPlane2:
      return "";
    case ShapeType::kConvexHull: {
      const ConvexHull& h = std::get<ConvexHull>(shape);
      if (!h.data) return "convex hull without data";
      if (!(p = NonNegative("convex hull padding radius", h.radius)).empty()) return p;
      const ConvexHullData& d = *h.data;
      if (d.vertices.rows() < 4 || d.triangles.empty()) {
        return h.radius > 0.0 ? "" : "convex hull with fewer than 4 vertices";
      }
      if (!d.vertices.allFinite()) return "convex hull with non-finite vertex coordinates";
      if (h.radius > 0.0) return "";
      return FlatProblem("convex hull", d.vertices, static_cast<int>(d.triangles.size()),
                         [&](int t) { return d.triangles[t]; });
    }
    case ShapeType::kMesh: {
      const TriangleMesh& m = std::get<TriangleMesh>(shape);
      if (!m.data) return "mesh without data";
      const TriangleMeshData& d = *m.data;
      if (d.triangles.rows() == 0) return "mesh without triangles";
      if (!d.vertices.allFinite()) return "mesh with non-finite vertex coordinates";
      if (!needs_volume) return "";
      // The contact models see a mesh through its convex hull (support function, signed
      // distance); without a hull the vertices are coplanar.
      if (!d.hull) {
        return "mesh is flat (its vertices are coplanar): a collider on a moving body needs a "
               "closed solid; use a mesh with thickness or a primitive shape";
      }
      const ConvexHullData& hull = *d.hull;
      return FlatProblem("mesh", hull.vertices, static_cast<int>(hull.triangles.size()),
                         [&](int t) { return hull.triangles[t]; });
    }
    case ShapeType::kPolygon2: {
      const Polygon2& poly = std::get<Polygon2>(shape);
      if (!poly.A.allFinite() || !poly.b.allFinite()) return "polygon with non-finite faces";
      if (poly.b.size() != poly.A.rows()) return "polygon with a different number of faces and offsets";
      if (poly.b.size() > 0 && !(poly.b.minCoeff() > 0.0)) {
        return "polygon offsets b must be > 0 (the origin strictly inside)";
      }
      if (poly.vertices.rows() < 3 || !poly.vertices.allFinite()) {
        return "polygon without 3 finite vertices (build it with MakePolygon2)";
      }
      return NonNegative("polygon padding radius", poly.radius);
    }
    case ShapeType::kDisk2:
      return Positive("disk radius", std::get<Disk2>(shape).radius);
    case ShapeType::kCapsule2: {
      const Capsule2& c = std::get<Capsule2>(shape);
      if (!(p = Positive("capsule radius", c.radius)).empty()) return p;
      return NonNegative("capsule half length", c.half_length);
    }
  }
  return "unknown shape type";
}

Polygon2 MakePolygon2(const Eigen::Matrix<double, Eigen::Dynamic, 2>& A, const VecX& b) {
  const int m = static_cast<int>(A.rows());
  if (m < 3 || b.size() != m) {
    throw InvalidArgument("polygon: need at least 3 faces and one offset per face");
  }
  for (int i = 0; i < m; ++i) {
    if (!(b[i] > 0.0)) {
      throw InvalidArgument("polygon: offset b[" + std::to_string(i) +
                            "] must be > 0 (the origin must be strictly inside)");
    }
    if (!(A.row(i).norm() > 0.0)) throw InvalidArgument("polygon: zero face normal");
  }
  // Vertices: pairwise intersections of the face lines that satisfy every constraint.
  std::vector<Vec2> verts;
  const double tol = 1e-10 * (1.0 + b.cwiseAbs().maxCoeff());
  for (int i = 0; i < m; ++i) {
    for (int j = i + 1; j < m; ++j) {
      Mat2 M;
      M << A.row(i), A.row(j);
      if (std::abs(M.determinant()) < 1e-12 * A.row(i).norm() * A.row(j).norm()) continue;
      const Vec2 p = M.inverse() * Vec2(b[i], b[j]);
      if (((A * p - b).array() <= tol).all()) verts.push_back(p);
    }
  }
  // Deduplicate and order counter-clockwise by angle about the origin (inside the polygon).
  std::sort(verts.begin(), verts.end(), [](const Vec2& a, const Vec2& c) {
    return std::atan2(a.y(), a.x()) < std::atan2(c.y(), c.x());
  });
  std::vector<Vec2> unique;
  for (const Vec2& p : verts) {
    if (unique.empty() || (p - unique.back()).norm() > 1e-9) unique.push_back(p);
  }
  if (unique.size() > 1 && (unique.front() - unique.back()).norm() <= 1e-9) unique.pop_back();
  if (unique.size() < 3) throw InvalidArgument("polygon: A p <= b is unbounded or degenerate");
  // Bounded iff the face normals positively span the plane: every direction has a face
  // whose normal makes an acute angle with it. Check with the largest angular gap < pi.
  std::vector<double> angles;
  for (int i = 0; i < m; ++i) angles.push_back(std::atan2(A(i, 1), A(i, 0)));
  std::sort(angles.begin(), angles.end());
  double max_gap = angles.front() + 2.0 * M_PI - angles.back();
  for (size_t i = 1; i < angles.size(); ++i) max_gap = std::max(max_gap, angles[i] - angles[i - 1]);
  if (max_gap >= M_PI) throw InvalidArgument("polygon: A p <= b is unbounded");

  Polygon2 poly;
  poly.A = A;
  poly.b = b;
  poly.vertices.resize(static_cast<int>(unique.size()), 2);
  for (size_t i = 0; i < unique.size(); ++i) poly.vertices.row(static_cast<int>(i)) = unique[i];
  return poly;
}

Polygon2 MakePolygon2FromVertices(const Eigen::Matrix<double, Eigen::Dynamic, 2>& vertices) {
  const int n = static_cast<int>(vertices.rows());
  if (n < 3) throw InvalidArgument("polygon: need at least 3 vertices");
  // Andrew's monotone chain convex hull (counter-clockwise).
  std::vector<Vec2> pts(n);
  for (int i = 0; i < n; ++i) pts[i] = vertices.row(i).transpose();
  std::sort(pts.begin(), pts.end(), [](const Vec2& a, const Vec2& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  auto cross = [](const Vec2& o, const Vec2& a, const Vec2& b) {
    return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
  };
  std::vector<Vec2> hull(2 * n);
  int k = 0;
  for (int i = 0; i < n; ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  for (int i = n - 2, t = k + 1; i >= 0; --i) {
    while (k >= t && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  hull.resize(k - 1);
  if (hull.size() < 3) throw InvalidArgument("polygon: vertices are collinear");
  const int h = static_cast<int>(hull.size());
  Eigen::Matrix<double, Eigen::Dynamic, 2> A(h, 2);
  VecX b(h);
  for (int i = 0; i < h; ++i) {
    const Vec2 e = hull[(i + 1) % h] - hull[i];
    const Vec2 nrm = Vec2(e.y(), -e.x()).normalized();  // outward for counter-clockwise order
    A.row(i) = nrm.transpose();
    b[i] = nrm.dot(hull[i]);
  }
  return MakePolygon2(A, b);
}

Polygon2 MakePaddedPolygon2(const Eigen::Matrix<double, Eigen::Dynamic, 2>& A, const VecX& b,
                            double radius) {
  if (!(radius >= 0.0) || !std::isfinite(radius)) {
    throw InvalidArgument("padded polygon: radius must be >= 0 and finite, got " +
                          std::to_string(radius));
  }
  Polygon2 poly = MakePolygon2(A, b);
  poly.radius = radius;
  return poly;
}

}  // namespace arena
