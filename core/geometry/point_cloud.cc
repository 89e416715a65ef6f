#include "core/geometry/point_cloud.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "core/common/error.h"
#include "core/geometry/mesh.h"

namespace arena {

namespace {

constexpr double kPi = std::numbers::pi;

// Uniform doubles in [0, 1) from the top 53 bits of mt19937_64 (portable across libraries).
class Uniform {
 public:
  explicit Uniform(std::uint64_t seed) : gen_(seed) {}
  double operator()() { return static_cast<double>(gen_() >> 11) * 0x1.0p-53; }

 private:
  std::mt19937_64 gen_;
};

// Index i with cumulative[i-1] <= u * total < cumulative[i] (area-weighted choice).
int Pick(const std::vector<double>& cumulative, double u) {
  const double x = u * cumulative.back();
  const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), x);
  return std::min(static_cast<int>(it - cumulative.begin()),
                  static_cast<int>(cumulative.size()) - 1);
}

std::vector<double> Cumulative(const std::vector<double>& weights) {
  std::vector<double> c(weights.size());
  double s = 0.0;
  for (size_t i = 0; i < weights.size(); ++i) c[i] = (s += weights[i]);
  return c;
}

// Uniform on the unit sphere (Archimedes: z is uniform in [-1, 1]).
Vec3 UnitSphere(Uniform& u) {
  const double z = 1.0 - 2.0 * u();
  const double phi = 2.0 * kPi * u();
  const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
  return Vec3(r * std::cos(phi), r * std::sin(phi), z);
}

// Uniform in a triangle (square-root parametrisation).
Vec3 InTriangle(Uniform& u, const Vec3& a, const Vec3& b, const Vec3& c) {
  const double r1 = std::sqrt(u()), r2 = u();
  return (1.0 - r1) * a + r1 * (1.0 - r2) * b + r1 * r2 * c;
}

struct Sampler {
  Uniform& u;
  OrientedPointCloud* out;
  int i = 0;
  void Add(const Vec3& p, const Vec3& n) {
    out->points.row(i) = p.transpose();
    out->normals.row(i) = n.transpose();
    ++i;
  }
};

void SampleTriangles(const PointsX3& V, const std::vector<Eigen::Vector3i>& T, Sampler& s,
                     int count) {
  std::vector<double> area(T.size());
  std::vector<Vec3> normal(T.size());
  for (size_t t = 0; t < T.size(); ++t) {
    const Vec3 a = V.row(T[t][0]), b = V.row(T[t][1]), c = V.row(T[t][2]);
    const Vec3 cr = (b - a).cross(c - a);
    area[t] = 0.5 * cr.norm();
    normal[t] = area[t] > 0.0 ? Vec3(cr.normalized()) : Vec3::Zero();
  }
  const std::vector<double> cum = Cumulative(area);
  if (!(cum.back() > 0.0)) throw InvalidArgument("SamplePointCloud: surface of zero area");
  for (int k = 0; k < count; ++k) {
    const int t = Pick(cum, s.u());
    s.Add(InTriangle(s.u, V.row(T[t][0]), V.row(T[t][1]), V.row(T[t][2])), normal[t]);
  }
}

}  // namespace

OrientedPointCloud SamplePointCloud(const Shape& shape, int count, std::uint64_t seed) {
  if (count < 0) throw InvalidArgument("SamplePointCloud: count must be >= 0");
  const ShapeType type = TypeOf(shape);
  if (type == ShapeType::kHalfSpace || type == ShapeType::kHalfPlane2) {
    throw InvalidArgument("SamplePointCloud: '" + std::string(ToString(type)) +
                          "' is unbounded and has no finite surface to sample");
  }
  OrientedPointCloud cloud;
  cloud.points.resize(count, 3);
  cloud.normals.resize(count, 3);
  Uniform u(seed);
  Sampler s{u, &cloud};

  switch (type) {
    case ShapeType::kSphere: {
      const double r = std::get<Sphere>(shape).radius;
      for (int k = 0; k < count; ++k) {
        const Vec3 n = UnitSphere(u);
        s.Add(r * n, n);
      }
      break;
    }
    case ShapeType::kEllipsoid: {
      // Rejection from the sphere map x = a * s: its area element is a_x a_y a_z |s / a|.
      const Vec3 a = std::get<Ellipsoid>(shape).radii;
      const double g_max = a.prod() / a.minCoeff();
      for (int k = 0; k < count; ++k) {
        Vec3 n = UnitSphere(u);
        for (int attempt = 0; attempt < 100000; ++attempt) {
          if (u() * g_max <= a.prod() * n.cwiseQuotient(a).norm()) break;
          n = UnitSphere(u);
        }
        s.Add(a.cwiseProduct(n), n.cwiseQuotient(a).normalized());
      }
      break;
    }
    case ShapeType::kBox: {
      const Vec3 h = std::get<Box>(shape).half_extents;
      const Vec3 face_area(h.y() * h.z(), h.x() * h.z(), h.x() * h.y());
      const std::vector<double> cum = Cumulative({face_area.x(), face_area.x(), face_area.y(),
                                                  face_area.y(), face_area.z(), face_area.z()});
      for (int k = 0; k < count; ++k) {
        const int f = Pick(cum, u());
        const int axis = f / 2;
        const double sign = f % 2 == 0 ? 1.0 : -1.0;
        Vec3 p;
        p[axis] = sign * h[axis];
        p[(axis + 1) % 3] = (2.0 * u() - 1.0) * h[(axis + 1) % 3];
        p[(axis + 2) % 3] = (2.0 * u() - 1.0) * h[(axis + 2) % 3];
        s.Add(p, sign * Vec3::Unit(axis));
      }
      break;
    }
    case ShapeType::kCapsule: {
      const Capsule& c = std::get<Capsule>(shape);
      const std::vector<double> cum =
          Cumulative({2.0 * kPi * c.radius * 2.0 * c.half_length, 4.0 * kPi * c.radius * c.radius});
      for (int k = 0; k < count; ++k) {
        if (Pick(cum, u()) == 0) {
          const double phi = 2.0 * kPi * u();
          const double z = (2.0 * u() - 1.0) * c.half_length;
          const Vec3 n(std::cos(phi), std::sin(phi), 0.0);
          s.Add(c.radius * n + Vec3(0, 0, z), n);
        } else {
          const Vec3 n = UnitSphere(u);
          s.Add(c.radius * n + Vec3(0, 0, n.z() >= 0.0 ? c.half_length : -c.half_length), n);
        }
      }
      break;
    }
    case ShapeType::kCylinder: {
      const Cylinder& c = std::get<Cylinder>(shape);
      const double cap = kPi * c.radius * c.radius;
      const std::vector<double> cum =
          Cumulative({2.0 * kPi * c.radius * 2.0 * c.half_length, cap, cap});
      for (int k = 0; k < count; ++k) {
        const int part = Pick(cum, u());
        const double phi = 2.0 * kPi * u();
        const Vec3 radial(std::cos(phi), std::sin(phi), 0.0);
        if (part == 0) {
          s.Add(c.radius * radial + Vec3(0, 0, (2.0 * u() - 1.0) * c.half_length), radial);
        } else {
          const double sign = part == 1 ? 1.0 : -1.0;
          s.Add(c.radius * std::sqrt(u()) * radial + Vec3(0, 0, sign * c.half_length),
                sign * Vec3::UnitZ());
        }
      }
      break;
    }
    case ShapeType::kCone: {
      const Cone& c = std::get<Cone>(shape);
      const double L = std::hypot(c.radius, c.height);
      const double zb = -0.25 * c.height, za = 0.75 * c.height;
      const std::vector<double> cum = Cumulative({kPi * c.radius * L, kPi * c.radius * c.radius});
      for (int k = 0; k < count; ++k) {
        const int part = Pick(cum, u());
        const double phi = 2.0 * kPi * u();
        const Vec3 radial(std::cos(phi), std::sin(phi), 0.0);
        const double t = std::sqrt(u());  // area grows with the square of the distance to the apex
        if (part == 0) {
          const Vec3 n = (c.height * radial + Vec3(0, 0, c.radius)) / L;
          s.Add(t * c.radius * radial + Vec3(0, 0, za - t * c.height), n);
        } else {
          s.Add(t * c.radius * radial + Vec3(0, 0, zb), -Vec3::UnitZ());
        }
      }
      break;
    }
    case ShapeType::kConvexHull: {
      if (std::get<ConvexHull>(shape).radius > 0.0) {
        throw Unsupported("surface sampling of a padded convex hull is not implemented");
      }
      const ConvexHullData& h = *std::get<ConvexHull>(shape).data;
      SampleTriangles(h.vertices, h.triangles, s, count);
      break;
    }
    case ShapeType::kMesh: {
      const TriangleMeshData& m = *std::get<TriangleMesh>(shape).data;
      std::vector<Eigen::Vector3i> tris(m.triangles.rows());
      for (int t = 0; t < m.triangles.rows(); ++t) tris[t] = m.triangles.row(t).transpose();
      SampleTriangles(m.vertices, tris, s, count);
      break;
    }
    case ShapeType::kPolygon2: {
      // Padded polygon: the core's edges moved out by r along their normals (same lengths), and
      // at each vertex the arc of radius r between its two edge normals (length r theta). The
      // arcs have zero weight when r = 0, which leaves the plain polygon's samples unchanged.
      const Polygon2& poly = std::get<Polygon2>(shape);
      const auto& V = poly.vertices;
      const double r = poly.radius;
      const int n = static_cast<int>(V.rows());
      std::vector<Vec2> nrm(n);
      std::vector<double> len(2 * n);
      for (int i = 0; i < n; ++i) {
        const Vec2 e = V.row((i + 1) % n) - V.row(i);
        len[i] = e.norm();
        nrm[i] = Vec2(e.y(), -e.x()).normalized();  // outward, counter-clockwise order
      }
      std::vector<double> turn(n);  // exterior angle at vertex i: from nrm[i - 1] to nrm[i]
      for (int i = 0; i < n; ++i) {
        const Vec2& n0 = nrm[(i + n - 1) % n];
        const Vec2& n1 = nrm[i];
        turn[i] = std::atan2(n0.x() * n1.y() - n0.y() * n1.x(), n0.dot(n1));
        len[n + i] = r * turn[i];
      }
      const std::vector<double> cum = Cumulative(len);
      for (int k = 0; k < count; ++k) {
        const int part = Pick(cum, u());
        if (part < n) {
          const int i = part;
          const Vec2 a = V.row(i).transpose(), e = V.row((i + 1) % n).transpose() - a;
          const Vec2 p = a + u() * e + r * nrm[i];
          s.Add(Vec3(p.x(), p.y(), 0.0), Vec3(nrm[i].x(), nrm[i].y(), 0.0));
        } else {
          const int i = part - n;
          const double phi = u() * turn[i];
          const Vec2& n0 = nrm[(i + n - 1) % n];
          const Vec2 dir(std::cos(phi) * n0.x() - std::sin(phi) * n0.y(),
                         std::sin(phi) * n0.x() + std::cos(phi) * n0.y());
          const Vec2 p = V.row(i).transpose() + r * dir;
          s.Add(Vec3(p.x(), p.y(), 0.0), Vec3(dir.x(), dir.y(), 0.0));
        }
      }
      break;
    }
    case ShapeType::kDisk2: {
      const double r = std::get<Disk2>(shape).radius;
      for (int k = 0; k < count; ++k) {
        const double phi = 2.0 * kPi * u();
        const Vec3 n(std::cos(phi), std::sin(phi), 0.0);
        s.Add(r * n, n);
      }
      break;
    }
    case ShapeType::kCapsule2: {
      const Capsule2& c = std::get<Capsule2>(shape);
      const double side = 2.0 * c.half_length;
      const std::vector<double> cum = Cumulative({side, side, 2.0 * kPi * c.radius});
      for (int k = 0; k < count; ++k) {
        const int part = Pick(cum, u());
        if (part < 2) {
          const double sign = part == 0 ? 1.0 : -1.0;
          s.Add(Vec3((2.0 * u() - 1.0) * c.half_length, sign * c.radius, 0.0),
                sign * Vec3::UnitY());
        } else {
          const double phi = 2.0 * kPi * u();
          const Vec3 n(std::cos(phi), std::sin(phi), 0.0);
          s.Add(c.radius * n + Vec3(n.x() >= 0.0 ? c.half_length : -c.half_length, 0, 0), n);
        }
      }
      break;
    }
    default:
      break;
  }
  if (!cloud.points.allFinite() || !cloud.normals.allFinite()) {
    throw InvalidArgument("SamplePointCloud: shape '" + std::string(ToString(type)) +
                          "' has a degenerate surface (non-finite samples)");
  }
  return cloud;
}

}  // namespace arena
