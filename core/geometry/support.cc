#include "core/geometry/support.h"

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "core/common/error.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/mesh.h"

namespace arena {

namespace {


Vec3 UnitOr(const Vec3& d, const Vec3& fallback) {
  const double n = d.norm();
  return n > 0.0 ? Vec3(d / n) : fallback;
}

Vec2 UnitOr2(const Vec2& d, const Vec2& fallback) {
  const double n = d.norm();
  return n > 0.0 ? Vec2(d / n) : fallback;
}


// Unit radial direction of (d_x, d_y), or zero when d is along the axis.
Vec3 Radial(const Vec3& d) {
  const double rho = std::hypot(d.x(), d.y());
  return rho > 0.0 ? Vec3(d.x() / rho, d.y() / rho, 0.0) : Vec3::Zero();
}

Vec3 SupportOfVertices(const PointsX3& v, const Vec3& dir) {
  int best = 0;
  double best_value = -kInf;
  for (int i = 0; i < v.rows(); ++i) {
    const double x = v.row(i).dot(dir);
    if (x > best_value) {
      best_value = x;
      best = i;
    }
  }
  return v.row(best).transpose();
}

}  // namespace

Vec3 Support(const Shape& shape, const Vec3& dir) {
  return std::visit(
      [&](const auto& s) -> Vec3 {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, Sphere>) {
          return s.radius * UnitOr(dir, Vec3::UnitX());
        } else if constexpr (std::is_same_v<T, Box>) {
          return Vec3(SupportSign(dir.x()) * s.half_extents.x(), SupportSign(dir.y()) * s.half_extents.y(),
                      SupportSign(dir.z()) * s.half_extents.z());
        } else if constexpr (std::is_same_v<T, Capsule>) {
          return Vec3(0, 0, SupportSign(dir.z()) * s.half_length) + s.radius * UnitOr(dir, Vec3::UnitX());
        } else if constexpr (std::is_same_v<T, Cylinder>) {
          return s.radius * Radial(dir) + Vec3(0, 0, SupportSign(dir.z()) * s.half_length);
        } else if constexpr (std::is_same_v<T, Ellipsoid>) {
          // argmax d.x on x^T A^-2 x <= 1 is A^2 d / |A d| with A = diag(radii).
          const Vec3 ad = s.radii.cwiseProduct(dir);
          const double n = ad.norm();
          if (!(n > 0.0)) return Vec3(s.radii.x(), 0, 0);
          return s.radii.cwiseProduct(ad) / n;
        } else if constexpr (std::is_same_v<T, Cone>) {
          const Vec3 apex(0, 0, 0.75 * s.height);
          const Vec3 rim = s.radius * Radial(dir) + Vec3(0, 0, -0.25 * s.height);
          return dir.dot(apex) >= dir.dot(rim) ? apex : rim;
        } else if constexpr (std::is_same_v<T, ConvexHull>) {
          const Vec3 v = s.data->vertices.row(HullSupportVertex(*s.data, dir)).transpose();
          return s.radius > 0.0 ? Vec3(v + s.radius * UnitOr(dir, Vec3::UnitX())) : v;
        } else if constexpr (std::is_same_v<T, TriangleMesh>) {
          if (s.data->hull) {
            return s.data->hull->vertices.row(HullSupportVertex(*s.data->hull, dir)).transpose();
          }
          return SupportOfVertices(s.data->vertices, dir);
        } else {
          throw InvalidArgument("Support: shape '" + std::string(ToString(TypeOf(shape))) +
                                "' is not a bounded 3D shape");
        }
      },
      shape);
}

Vec2 PolygonCoreSupport(const Polygon2& polygon, const Vec2& dir) {
  int best = 0;
  double best_value = -kInf;
  for (int i = 0; i < polygon.vertices.rows(); ++i) {
    const double x = polygon.vertices.row(i).dot(dir);
    if (x > best_value) {
      best_value = x;
      best = i;
    }
  }
  return polygon.vertices.row(best).transpose();
}

Vec2 Support2(const Shape& shape, const Vec2& dir) {
  if (const auto* p = std::get_if<Polygon2>(&shape)) {
    // Padded polygon: the core's support point pushed out by the radius along the direction.
    const Vec2 v = PolygonCoreSupport(*p, dir);
    return p->radius > 0.0 ? Vec2(v + p->radius * UnitOr2(dir, Vec2::UnitX())) : v;
  }
  if (const auto* d = std::get_if<Disk2>(&shape)) return d->radius * UnitOr2(dir, Vec2::UnitX());
  if (const auto* c = std::get_if<Capsule2>(&shape)) {
    return Vec2(SupportSign(dir.x()) * c->half_length, 0.0) + c->radius * UnitOr2(dir, Vec2::UnitX());
  }
  throw InvalidArgument("Support2: shape '" + std::string(ToString(TypeOf(shape))) +
                        "' is not a bounded 2D shape");
}

Vec3 SupportWorld(const Shape& shape, const SE3& X_WS, const Vec3& dir_W) {
  return X_WS.Act(Support(shape, X_WS.rotation().transpose() * dir_W));
}

Aabb ComputeAabb(const Shape& shape, const SE3& X_WS) {
  const Mat3& R = X_WS.rotation();
  const Vec3& p = X_WS.translation();
  Aabb box;
  constexpr double kAxisTol = 1e-12;
  const ShapeType type = TypeOf(shape);
  if (type == ShapeType::kHalfSpace) {
    // Points p + R y with y_z <= 0: coordinate i is bounded only if R(i, 0) = R(i, 1) = 0.
    for (int i = 0; i < 3; ++i) {
      const bool normal_axis = std::abs(R(i, 0)) <= kAxisTol && std::abs(R(i, 1)) <= kAxisTol;
      box.upper[i] = normal_axis && R(i, 2) > 0.0 ? p[i] : kInf;
      box.lower[i] = normal_axis && R(i, 2) < 0.0 ? p[i] : -kInf;
    }
    return box;
  }
  if (type == ShapeType::kHalfPlane2) {
    // Points p + R (x, y, 0) with y <= 0.
    for (int i = 0; i < 3; ++i) {
      const bool along_x_zero = std::abs(R(i, 0)) <= kAxisTol;
      box.upper[i] = along_x_zero && R(i, 1) >= -kAxisTol ? p[i] : kInf;
      box.lower[i] = along_x_zero && R(i, 1) <= kAxisTol ? p[i] : -kInf;
    }
    return box;
  }
  for (int i = 0; i < 3; ++i) {
    const Vec3 d = R.row(i).transpose();  // world axis i in S
    if (IsPlanar(type)) {
      const Vec2 d2 = d.head<2>();
      box.upper[i] = p[i] + d2.dot(Support2(shape, d2));
      box.lower[i] = p[i] + d2.dot(Support2(shape, -d2));
    } else {
      box.upper[i] = p[i] + d.dot(Support(shape, d));
      box.lower[i] = p[i] + d.dot(Support(shape, -d));
    }
  }
  return box;
}

}  // namespace arena
