#include "core/geometry/shape.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/common/error.h"
#include "core/common/strings.h"

namespace arena {

namespace {
constexpr std::array<std::string_view, kNumShapeTypes> kNames = {
    "sphere", "box", "capsule", "cylinder", "ellipsoid", "cone", "half_space", "convex_hull",
    "mesh", "polygon2", "disk2", "capsule2", "half_plane2"};
}  // namespace

std::string_view ToString(ShapeType type) { return kNames[static_cast<size_t>(type)]; }

ShapeType ShapeTypeFromString(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<ShapeType>(i);
  }
  const std::vector<std::string> valid(kNames.begin(), kNames.end());
  throw InvalidArgument("unknown shape type '" + std::string(name) + "'; valid: " + Join(valid));
}

bool IsPlanar(ShapeType type) {
  return type == ShapeType::kPolygon2 || type == ShapeType::kDisk2 ||
         type == ShapeType::kCapsule2 || type == ShapeType::kHalfPlane2;
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
