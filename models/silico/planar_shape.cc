#include "models/silico/planar_shape.h"

#include <cmath>

#include "core/common/error.h"

namespace arena::silico {

void PlanarShape::CacheSizes() {
  rows_ = [&] {
    switch (kind) {
      case Kind::kPolygon: return static_cast<int>(A.rows());
      case Kind::kDisk: return 1;
      case Kind::kCapsule: return 3;
      case Kind::kHalfPlane: return 1;
      case Kind::kMinkowski: return parts[0].num_rows() + parts[1].num_rows();
    }
    return 0;
  }();
  aux_ = kind == Kind::kCapsule     ? 1
         : kind == Kind::kMinkowski ? 2 + parts[0].num_aux() + parts[1].num_aux()
                                    : 0;
}

PlanarShape PlanarShape::Polygon(const Eigen::Matrix<double, Eigen::Dynamic, 2>& A, const VecX& b) {
  if (A.rows() != b.size() || A.rows() < 3) {
    throw InvalidArgument("silico polygon: need A (m x 2) and b (m) with m >= 3");
  }
  if ((b.array() <= 0.0).any()) {
    throw InvalidArgument("silico polygon: every b must be > 0 (reference point strictly inside)");
  }
  PlanarShape s;
  s.kind = Kind::kPolygon;
  s.A = A;
  s.b = b;
  s.CacheSizes();
  return s;
}

PlanarShape PlanarShape::Disk(double radius) {
  if (!(radius > 0.0)) throw InvalidArgument("silico disk: radius must be > 0");
  PlanarShape s;
  s.kind = Kind::kDisk;
  s.radius = radius;
  s.CacheSizes();
  return s;
}

PlanarShape PlanarShape::Capsule(double radius, double half_length) {
  if (!(radius > 0.0) || !(half_length >= 0.0)) {
    throw InvalidArgument("silico capsule: radius must be > 0 and half_length >= 0");
  }
  PlanarShape s;
  s.kind = Kind::kCapsule;
  s.radius = radius;
  s.half_length = half_length;
  s.CacheSizes();
  return s;
}

PlanarShape PlanarShape::HalfPlane() {
  PlanarShape s;
  s.kind = Kind::kHalfPlane;
  s.CacheSizes();
  return s;
}

PlanarShape PlanarShape::Minkowski(PlanarShape a, PlanarShape b) {
  if (!a.scaled() || !b.scaled()) throw InvalidArgument("silico Minkowski sum: half-planes cannot be summed");
  PlanarShape s;
  s.kind = Kind::kMinkowski;
  s.parts = {std::move(a), std::move(b)};
  s.CacheSizes();
  return s;
}

PlanarShape FromShape(const Shape& shape) {
  if (const auto* p = std::get_if<Polygon2>(&shape)) {
    PlanarShape poly = PlanarShape::Polygon(p->A, p->b);
    if (p->radius > 0.0) return PlanarShape::Minkowski(std::move(poly), PlanarShape::Disk(p->radius));
    return poly;
  }
  if (const auto* d = std::get_if<Disk2>(&shape)) return PlanarShape::Disk(d->radius);
  if (const auto* c = std::get_if<Capsule2>(&shape)) return PlanarShape::Capsule(c->radius, c->half_length);
  if (std::holds_alternative<HalfPlane2>(shape)) return PlanarShape::HalfPlane();
  throw Unsupported("silico (planar): shape '" + std::string(ToString(TypeOf(shape))) +
                    "' is not a 2D shape");
}

}  // namespace arena::silico
