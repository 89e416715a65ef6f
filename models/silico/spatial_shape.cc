#include "models/silico/spatial_shape.h"

#include <cmath>

#include "core/common/error.h"

namespace arena::silico {

void SpatialShape::CacheSizes() {
  switch (kind) {
    case Kind::kPolytope: rows_ = static_cast<int>(A.rows()); break;
    case Kind::kPaddedPolytope: rows_ = static_cast<int>(A.rows()) + 1; break;
    case Kind::kSphere:
    case Kind::kEllipsoid:
    case Kind::kHalfSpace: rows_ = 1; break;
    case Kind::kCapsule:
    case Kind::kCylinder:
    case Kind::kCone: rows_ = 3; break;
  }
  aux_ = kind == Kind::kCapsule ? 1 : kind == Kind::kPaddedPolytope ? 3 : 0;
}

SpatialShape SpatialShape::Polytope(const Eigen::Matrix<double, Eigen::Dynamic, 3>& A, const VecX& b) {
  if (A.rows() != b.size() || A.rows() < 4) {
    throw InvalidArgument("silico polytope: need A (m x 3) and b (m) with m >= 4");
  }
  if ((b.array() <= 0.0).any()) {
    throw InvalidArgument("silico polytope: every b must be > 0 (reference point strictly inside)");
  }
  SpatialShape s;
  s.kind = Kind::kPolytope;
  s.A = A;
  s.b = b;
  s.CacheSizes();
  return s;
}

SpatialShape SpatialShape::PaddedPolytope(const Eigen::Matrix<double, Eigen::Dynamic, 3>& A, const VecX& b,
                                          double radius) {
  if (!(radius > 0.0) || !std::isfinite(radius)) {
    throw InvalidArgument("silico padded polytope: radius must be > 0 and finite");
  }
  SpatialShape s = Polytope(A, b);
  s.kind = Kind::kPaddedPolytope;
  s.radius = radius;
  s.CacheSizes();
  return s;
}

SpatialShape SpatialShape::BoxShape(const Vec3& h) {
  if (!(h.array() > 0.0).all()) throw InvalidArgument("silico box: half extents must be > 0");
  Eigen::Matrix<double, 6, 3> A;
  A << 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1;
  VecX b(6);
  b << h.x(), h.x(), h.y(), h.y(), h.z(), h.z();
  return Polytope(A, b);
}

SpatialShape SpatialShape::SphereShape(double radius) {
  if (!(radius > 0.0)) throw InvalidArgument("silico sphere: radius must be > 0");
  SpatialShape s;
  s.kind = Kind::kSphere;
  s.radius = radius;
  s.CacheSizes();
  return s;
}

SpatialShape SpatialShape::EllipsoidShape(const Vec3& radii) {
  if (!(radii.array() > 0.0).all()) throw InvalidArgument("silico ellipsoid: radii must be > 0");
  SpatialShape s;
  s.kind = Kind::kEllipsoid;
  s.inv_radii = radii.cwiseInverse();
  s.CacheSizes();
  return s;
}

SpatialShape SpatialShape::CapsuleShape(double radius, double half_length) {
  if (!(radius > 0.0) || !(half_length >= 0.0)) {
    throw InvalidArgument("silico capsule: radius must be > 0 and half_length >= 0");
  }
  SpatialShape s;
  s.kind = Kind::kCapsule;
  s.radius = radius;
  s.half_length = half_length;
  s.CacheSizes();
  return s;
}

SpatialShape SpatialShape::CylinderShape(double radius, double half_length) {
  if (!(radius > 0.0) || !(half_length > 0.0)) {
    throw InvalidArgument("silico cylinder: radius and half_length must be > 0");
  }
  SpatialShape s;
  s.kind = Kind::kCylinder;
  s.radius = radius;
  s.half_length = half_length;
  s.CacheSizes();
  return s;
}

SpatialShape SpatialShape::ConeShape(double radius, double height) {
  if (!(radius > 0.0) || !(height > 0.0)) throw InvalidArgument("silico cone: radius and height must be > 0");
  SpatialShape s;
  s.kind = Kind::kCone;
  s.radius = radius;
  s.height = height;
  s.CacheSizes();
  return s;
}

SpatialShape SpatialShape::HalfSpaceShape() {
  SpatialShape s;
  s.kind = Kind::kHalfSpace;
  s.CacheSizes();
  return s;
}

SpatialShape FromShape3(const Shape& shape, Vec3* reference_offset) {
  reference_offset->setZero();
  if (const auto* s = std::get_if<Sphere>(&shape)) return SpatialShape::SphereShape(s->radius);
  if (const auto* s = std::get_if<Box>(&shape)) return SpatialShape::BoxShape(s->half_extents);
  if (const auto* s = std::get_if<Capsule>(&shape)) return SpatialShape::CapsuleShape(s->radius, s->half_length);
  if (const auto* s = std::get_if<Cylinder>(&shape)) return SpatialShape::CylinderShape(s->radius, s->half_length);
  if (const auto* s = std::get_if<Ellipsoid>(&shape)) return SpatialShape::EllipsoidShape(s->radii);
  if (const auto* s = std::get_if<Cone>(&shape)) return SpatialShape::ConeShape(s->radius, s->height);
  if (std::holds_alternative<HalfSpace>(shape)) return SpatialShape::HalfSpaceShape();
  if (const auto* s = std::get_if<ConvexHull>(&shape)) {
    if (!s->data) throw InvalidArgument("silico: convex hull without data");
    const ConvexHullData& d = *s->data;
    // Scale about a point strictly inside: the frame origin if it is, else the vertex mean.
    const bool inside = (d.face_offsets.array() > 1e-9).all();
    const Vec3 c = inside ? Vec3::Zero() : d.interior_point;
    *reference_offset = c;
    const VecX b = d.face_offsets - d.face_normals * c;
    if (s->radius > 0.0) return SpatialShape::PaddedPolytope(d.face_normals, b, s->radius);
    return SpatialShape::Polytope(d.face_normals, b);
  }
  throw Unsupported("silico (spatial): shape '" + std::string(ToString(TypeOf(shape))) +
                    "' is not supported (3D primitives, convex hulls and the half-space only)");
}

}  // namespace arena::silico
