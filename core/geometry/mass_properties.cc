#include "core/geometry/mass_properties.h"

#include <cmath>
#include <numbers>
#include <string>

#include "core/common/error.h"
#include "core/geometry/mesh.h"

namespace arena {

namespace {

constexpr double kPi = std::numbers::pi;

// Volume, first and second moments (unit density) of a closed triangulated surface, by signed
// tetrahedra from a reference point (the vertex mean, to limit cancellation far from the origin).
struct Moments {
  double volume = 0.0;
  Vec3 first = Vec3::Zero();   // int x dV, about the reference point
  Mat3 second = Mat3::Zero();  // int x x^T dV, about the reference point
  Vec3 ref = Vec3::Zero();
};

template <class TriangleAt>
Moments SurfaceMoments(const PointsX3& V, int num_triangles, const TriangleAt& triangle) {
  Moments m;
  m.ref = V.colwise().mean().transpose();
  for (int t = 0; t < num_triangles; ++t) {
    const Eigen::Vector3i tri = triangle(t);
    const Vec3 a = V.row(tri[0]).transpose() - m.ref;
    const Vec3 b = V.row(tri[1]).transpose() - m.ref;
    const Vec3 c = V.row(tri[2]).transpose() - m.ref;
    const double vol = a.dot(b.cross(c)) / 6.0;
    const Vec3 s = a + b + c;
    m.volume += vol;
    m.first += vol * s / 4.0;
    m.second += vol / 20.0 *
                (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  if (m.volume < 0.0) {  // consistently inward-oriented: same body, opposite sign
    m.volume = -m.volume;
    m.first = -m.first;
    m.second = -m.second;
  }
  return m;
}

SpatialInertia FromMoments(const Moments& m, double density, const std::string& what) {
  if (!(m.volume > 0.0)) throw InvalidArgument("MassProperties: " + what + " encloses no volume");
  const double mass = density * m.volume;
  const Vec3 c = m.first / m.volume;  // about the reference point
  const Mat3 C = density * m.second;
  const Mat3 I_ref = C.trace() * Mat3::Identity() - C;
  const Mat3 I_com = I_ref - mass * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  return SpatialInertia(mass, m.ref + c, I_com);
}

// The hull of an unpadded ConvexHull; a padded one (hull (+) ball) has no closed-form inertia
// here: its body needs an explicit inertia.
const ConvexHullData& PlainHull(const Shape& shape) {
  const ConvexHull& hull = std::get<ConvexHull>(shape);
  if (hull.radius > 0.0) {
    throw Unsupported("mass properties of a padded convex hull (radius " + std::to_string(hull.radius) +
                      ") are not implemented; give the body an explicit inertia");
  }
  return *hull.data;
}

Moments HullMoments(const ConvexHullData& h) {
  return SurfaceMoments(h.vertices, static_cast<int>(h.triangles.size()),
                        [&](int t) { return h.triangles[t]; });
}

Moments MeshMoments(const TriangleMeshData& mesh) {
  if (!IsClosed(mesh)) {
    throw InvalidArgument(
        "MassProperties: the mesh is not closed (every edge must be shared by exactly two "
        "consistently oriented triangles)");
  }
  return SurfaceMoments(mesh.vertices, static_cast<int>(mesh.triangles.rows()),
                        [&](int t) { return Eigen::Vector3i(mesh.triangles.row(t).transpose()); });
}

// Polygon (counter-clockwise vertices): area, centroid and polar moment about the origin.
void PolygonMoments(const Eigen::Matrix<double, Eigen::Dynamic, 2>& V, double* area, Vec2* centroid,
                    double* polar_origin) {
  const int n = static_cast<int>(V.rows());
  double a2 = 0.0, j = 0.0;
  Vec2 c = Vec2::Zero();
  for (int i = 0; i < n; ++i) {
    const Vec2 p = V.row(i).transpose(), q = V.row((i + 1) % n).transpose();
    const double cr = p.x() * q.y() - q.x() * p.y();
    a2 += cr;
    c += cr * (p + q);
    j += cr * (p.squaredNorm() + p.dot(q) + q.squaredNorm());
  }
  *area = 0.5 * a2;
  *centroid = c / (3.0 * a2);
  *polar_origin = j / 12.0;
}

// Padded polygon P (+) disk(r) (counter-clockwise core vertices): area, centroid and polar
// moment about the origin, exactly. The sum splits into disjoint pieces: the core P; on each
// edge i (length L_i, outward unit normal n_i) the rectangle swept by the edge moved out by
// s in [0, r] along n_i; at each vertex v_i the circular sector of radius r between the normals
// n_{i-1} and n_i of its two edges (opening angle theta_i, the exterior angle; sum 2 pi).
//   rectangle: area L r, centroid m + (r / 2) n (m the edge midpoint),
//              polar moment about its centroid L r (L^2 + r^2) / 12;
//   sector about its apex: area theta r^2 / 2, first moment (r^3 / 3) (w_y, -w_x) with
//              w = n_i - n_{i-1} (the integral of the unit direction over the arc, rotated),
//              polar moment theta r^4 / 4; moved to the origin by the parallel-axis rule
//              J_O = J_apex + 2 v . F_apex + |v|^2 area.
void PaddedPolygonMoments(const Eigen::Matrix<double, Eigen::Dynamic, 2>& V, double r,
                          double* area, Vec2* centroid, double* polar_origin) {
  double a = 0.0, j = 0.0;
  Vec2 c;
  PolygonMoments(V, &a, &c, &j);
  if (r == 0.0) {
    *area = a;
    *centroid = c;
    *polar_origin = j;
    return;
  }
  Vec2 first = a * c;
  const int n = static_cast<int>(V.rows());
  const auto outward = [&](int i) {  // unit outward normal of edge i (v_i -> v_{i+1})
    const Vec2 e = V.row((i + 1) % n) - V.row(i);
    return Vec2(Vec2(e.y(), -e.x()).normalized());
  };
  for (int i = 0; i < n; ++i) {
    const Vec2 v = V.row(i).transpose(), w = V.row((i + 1) % n).transpose();
    const double L = (w - v).norm();
    // Edge rectangle.
    if (L > 0.0) {
      const Vec2 nrm = outward(i);
      const double ar = L * r;
      const Vec2 cr = 0.5 * (v + w) + 0.5 * r * nrm;
      a += ar;
      first += ar * cr;
      j += ar * (L * L + r * r) / 12.0 + ar * cr.squaredNorm();
    }
    // Vertex sector between the normals of the edges before and after v_i.
    const Vec2 n0 = outward((i + n - 1) % n), n1 = outward(i);
    const double theta = std::atan2(n0.x() * n1.y() - n0.y() * n1.x(), n0.dot(n1));
    const Vec2 dn = n1 - n0;
    const double as = 0.5 * theta * r * r;
    const Vec2 fs = (r * r * r / 3.0) * Vec2(dn.y(), -dn.x());  // about the apex v
    a += as;
    first += as * v + fs;
    j += 0.25 * theta * r * r * r * r + 2.0 * v.dot(fs) + v.squaredNorm() * as;
  }
  *area = a;
  *centroid = first / a;
  *polar_origin = j;
}

SpatialInertia Planar(double mass, const Vec2& com, double izz) {
  return SpatialInertia(mass, Vec3(com.x(), com.y(), 0.0), Vec3(0.0, 0.0, izz).asDiagonal());
}

}  // namespace

SpatialInertia MassProperties(const Shape& shape, double density) {
  if (!(density > 0.0) || !std::isfinite(density)) {
    throw InvalidArgument("MassProperties: density must be > 0 and finite");
  }
  const double m = density * Volume(shape);
  switch (TypeOf(shape)) {
    case ShapeType::kSphere:
      return SpatialInertia::SolidSphere(m, std::get<Sphere>(shape).radius);
    case ShapeType::kBox:
      return SpatialInertia::SolidBox(m, std::get<Box>(shape).half_extents);
    case ShapeType::kCapsule: {
      const Capsule& c = std::get<Capsule>(shape);
      return SpatialInertia::SolidCapsule(m, c.radius, c.half_length);
    }
    case ShapeType::kCylinder: {
      const Cylinder& c = std::get<Cylinder>(shape);
      return SpatialInertia::SolidCylinder(m, c.radius, c.half_length);
    }
    case ShapeType::kEllipsoid: {
      const Vec3 a2 = std::get<Ellipsoid>(shape).radii.array().square();
      return SpatialInertia(
          m, Vec3::Zero(),
          Vec3(a2.y() + a2.z(), a2.x() + a2.z(), a2.x() + a2.y()).asDiagonal() * (m / 5.0));
    }
    case ShapeType::kCone: {
      // The frame origin is the centroid (base at -h/4, apex at +3h/4).
      const Cone& c = std::get<Cone>(shape);
      const double r2 = c.radius * c.radius, h2 = c.height * c.height;
      const double ixx = m * (3.0 * r2 / 20.0 + 3.0 * h2 / 80.0);
      return SpatialInertia(m, Vec3::Zero(), Vec3(ixx, ixx, 0.3 * m * r2).asDiagonal());
    }
    case ShapeType::kConvexHull:
      return FromMoments(HullMoments(PlainHull(shape)), density, "convex hull");
    case ShapeType::kMesh:
      return FromMoments(MeshMoments(*std::get<TriangleMesh>(shape).data), density, "mesh");
    case ShapeType::kPolygon2: {
      const Polygon2& p = std::get<Polygon2>(shape);
      double area = 0.0, j = 0.0;
      Vec2 c;
      PaddedPolygonMoments(p.vertices, p.radius, &area, &c, &j);
      return Planar(m, c, density * j - m * c.squaredNorm());
    }
    case ShapeType::kDisk2: {
      const double r = std::get<Disk2>(shape).radius;
      return Planar(m, Vec2::Zero(), 0.5 * m * r * r);
    }
    case ShapeType::kCapsule2: {
      // A 2hl x 2r rectangle plus two half-disks centred on its short sides.
      const Capsule2& c = std::get<Capsule2>(shape);
      const double r = c.radius, hl = c.half_length;
      const double m_rect = density * 4.0 * hl * r, m_disk = density * kPi * r * r;
      const double izz = m_rect * (4.0 * hl * hl + 4.0 * r * r) / 12.0 +
                         m_disk * (0.5 * r * r + hl * hl + 8.0 * hl * r / (3.0 * kPi));
      return Planar(m, Vec2::Zero(), izz);
    }
    default:
      break;
  }
  throw InvalidArgument("MassProperties: unsupported shape");
}

double Volume(const Shape& shape) {
  switch (TypeOf(shape)) {
    case ShapeType::kSphere: {
      const double r = std::get<Sphere>(shape).radius;
      return 4.0 / 3.0 * kPi * r * r * r;
    }
    case ShapeType::kBox:
      return 8.0 * std::get<Box>(shape).half_extents.prod();
    case ShapeType::kCapsule: {
      const Capsule& c = std::get<Capsule>(shape);
      return kPi * c.radius * c.radius * (2.0 * c.half_length + 4.0 / 3.0 * c.radius);
    }
    case ShapeType::kCylinder: {
      const Cylinder& c = std::get<Cylinder>(shape);
      return kPi * c.radius * c.radius * 2.0 * c.half_length;
    }
    case ShapeType::kEllipsoid:
      return 4.0 / 3.0 * kPi * std::get<Ellipsoid>(shape).radii.prod();
    case ShapeType::kCone: {
      const Cone& c = std::get<Cone>(shape);
      return kPi * c.radius * c.radius * c.height / 3.0;
    }
    case ShapeType::kConvexHull:
      return HullMoments(PlainHull(shape)).volume;
    case ShapeType::kMesh:
      return MeshMoments(*std::get<TriangleMesh>(shape).data).volume;
    case ShapeType::kPolygon2: {
      // A0 + perimeter r + pi r^2 for a padded polygon.
      const Polygon2& p = std::get<Polygon2>(shape);
      double area = 0.0, j = 0.0;
      Vec2 c;
      PaddedPolygonMoments(p.vertices, p.radius, &area, &c, &j);
      return area;
    }
    case ShapeType::kDisk2: {
      const double r = std::get<Disk2>(shape).radius;
      return kPi * r * r;
    }
    case ShapeType::kCapsule2: {
      const Capsule2& c = std::get<Capsule2>(shape);
      return 4.0 * c.half_length * c.radius + kPi * c.radius * c.radius;
    }
    case ShapeType::kHalfSpace:
    case ShapeType::kHalfPlane2:
      throw InvalidArgument("Volume: '" + std::string(ToString(TypeOf(shape))) + "' is unbounded");
  }
  throw InvalidArgument("Volume: unsupported shape");
}

}  // namespace arena
