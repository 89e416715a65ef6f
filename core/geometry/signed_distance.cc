#include "core/geometry/signed_distance.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/common/error.h"
#include "core/geometry/mesh.h"
#include "core/geometry/primitives.h"
#include "core/geometry/support.h"

namespace arena {

namespace {



// ---------------------------------------------------------------------------------------------
// Point distances in the shape frame.

// Box [-h, h]: outside, the distance to the clamped point; inside, to the nearest face.
PointSignedDistance BoxDistance(const Vec3& h, const Vec3& p) {
  PointSignedDistance r;
  const Vec3 q = p.cwiseAbs() - h;
  if ((q.array() > 0.0).any()) {
    r.point = p.cwiseMax(-h).cwiseMin(h);
    const Vec3 v = p - r.point;
    r.distance = v.norm();
    r.normal = v / r.distance;
  } else {
    int k = 0;
    r.distance = q.maxCoeff(&k);
    r.normal = SupportSign(p[k]) * Vec3::Unit(k);
    r.point = p;
    r.point[k] = SupportSign(p[k]) * h[k];
  }
  return r;
}

// 2D rectangle [-h, h] in (u, v): the same formula in the meridian plane.
PointSignedDistance RectDistance2(const Vec2& h, const Vec2& p) {
  const PointSignedDistance r = BoxDistance(Vec3(h.x(), h.y(), kInf), Vec3(p.x(), p.y(), 0.0));
  return r;
}

// Lifts a meridian-plane result (rho, z) back to 3D around the z axis, radial direction u.
PointSignedDistance FromMeridian(const PointSignedDistance& m, const Vec3& u) {
  PointSignedDistance r;
  r.distance = m.distance;
  r.point = m.point.x() * u + Vec3(0, 0, m.point.y());
  r.normal = m.normal.x() * u + Vec3(0, 0, m.normal.y());
  return r;
}

Vec3 RadialUnit(const Vec3& p) {
  const double rho = std::hypot(p.x(), p.y());
  return rho > 0.0 ? Vec3(p.x() / rho, p.y() / rho, 0.0) : Vec3::UnitX();
}

PointSignedDistance SegmentDistance(const Vec3& a, const Vec3& b, double radius, const Vec3& p) {
  PointSignedDistance r;
  const Vec3 q = a + ClosestParameterOnSegment(p, a, b) * (b - a);
  const Vec3 v = p - q;
  const double d = v.norm();
  if (d > 0.0) {
    r.normal = v / d;
  } else {
    const Vec3 axis = b - a;
    r.normal = axis.norm() > 0.0 ? AnyOrthogonal(axis.normalized()) : Vec3::UnitX();
  }
  r.distance = d - radius;
  r.point = q + radius * r.normal;
  return r;
}

// Closest point of the segment ab (2D, embedded at z = 0) to p.
Vec3 OnSegment2(const Vec3& p, const Vec3& a, const Vec3& b) {
  return a + ClosestParameterOnSegment(p, a, b) * (b - a);
}

// Cone in its meridian half-plane (rho >= 0, z): the triangle (0, zb), (r, zb), (0, za) turned
// about the axis. Inside, the distance to the nearer of the base and lateral lines; outside,
// the nearer of the base and lateral edges.
PointSignedDistance ConeDistance(const Cone& c, const Vec3& p) {
  const double zb = -0.25 * c.height, za = 0.75 * c.height;
  const Vec3 u = RadialUnit(p);
  const double rho = std::hypot(p.x(), p.y());
  const Vec3 q(rho, p.z(), 0.0);
  const double L = std::hypot(c.radius, c.height);
  const Vec3 n_lat(c.height / L, c.radius / L, 0.0);
  const double s_lat = (rho * c.height + c.radius * p.z() - c.radius * za) / L;
  const double s_base = zb - p.z();
  PointSignedDistance m;
  if (s_lat <= 0.0 && s_base <= 0.0) {
    if (s_lat >= s_base) {
      m.distance = s_lat;
      m.normal = n_lat;
      m.point = q - s_lat * n_lat;
    } else {
      m.distance = s_base;
      m.normal = Vec3(0, -1, 0);
      m.point = Vec3(rho, zb, 0);
    }
  } else {
    const Vec3 base = OnSegment2(q, Vec3(0, zb, 0), Vec3(c.radius, zb, 0));
    const Vec3 lat = OnSegment2(q, Vec3(c.radius, zb, 0), Vec3(0, za, 0));
    m.point = (q - base).squaredNorm() <= (q - lat).squaredNorm() ? base : lat;
    const Vec3 v = q - m.point;
    m.distance = v.norm();
    m.normal = v / m.distance;
  }
  return FromMeridian(m, u);
}

// Ellipsoid: the nearest point x_i = e_i^2 y_i / (e_i^2 + t) for the root t >= -e_min^2 of
// F(t) = sum (e_i y_i / (e_i^2 + t))^2 = 1 (Lagrange condition), found by bisection in
// delta = t + e_min^2 so that tiny denominators keep their relative precision. When the
// smallest axis has y = 0 and F(-e_min^2) <= 1, the nearest point leaves that plane (Eberly).
PointSignedDistance EllipsoidDistance(const Vec3& e, const Vec3& p) {
  const Vec3 y = p.cwiseAbs();
  const Vec3 s(SupportSign(p.x()), SupportSign(p.y()), SupportSign(p.z()));
  int m = 0;
  const double emin = e.minCoeff(&m);
  Vec3 gap2;  // e_i^2 - e_min^2, exact zero on the smallest axis
  for (int i = 0; i < 3; ++i) gap2[i] = (e[i] - emin) * (e[i] + emin);
  const auto F = [&](double delta) {
    double f = 0.0;
    for (int i = 0; i < 3; ++i) {
      if (y[i] > 0.0) {
        const double g = e[i] * y[i] / (gap2[i] + delta);
        f += g * g;
      }
    }
    return f;
  };
  bool pole = false;  // some axis with y_i > 0 has the smallest radius: F -> inf at delta = 0
  for (int i = 0; i < 3; ++i) pole = pole || (y[i] > 0.0 && gap2[i] == 0.0);
  Vec3 x = Vec3::Zero();
  if (!pole && F(0.0) <= 1.0) {
    double rest = 0.0;
    for (int i = 0; i < 3; ++i) {
      if (y[i] > 0.0) {
        x[i] = e[i] * e[i] * y[i] / gap2[i];
        rest += (x[i] / e[i]) * (x[i] / e[i]);
      }
    }
    x[m] = e[m] * std::sqrt(std::max(0.0, 1.0 - rest));
  } else {
    double lo = 0.0, hi = 0.0;
    for (int i = 0; i < 3; ++i) hi += (e[i] * y[i]) * (e[i] * y[i]);
    hi = std::sqrt(hi);  // F(hi) <= 1 since every denominator >= delta
    for (int it = 0; it < 2200; ++it) {
      const double mid = 0.5 * (lo + hi);
      if (!(mid > lo && mid < hi)) break;
      (F(mid) > 1.0 ? lo : hi) = mid;
    }
    const double delta = 0.5 * (lo + hi);
    for (int i = 0; i < 3; ++i) {
      if (y[i] > 0.0) x[i] = e[i] * e[i] * y[i] / (gap2[i] + delta);
    }
  }
  PointSignedDistance r;
  const bool inside = (y.cwiseQuotient(e)).squaredNorm() < 1.0;
  r.point = s.cwiseProduct(x);
  r.distance = (inside ? -1.0 : 1.0) * (x - y).norm();
  r.normal = s.cwiseProduct(x.cwiseQuotient(e.cwiseProduct(e))).normalized();
  return r;
}

PointSignedDistance HullDistance(const ConvexHullData& h, const Vec3& p) {
  PointSignedDistance r;
  int best = 0;
  double s = -kInf;
  for (int f = 0; f < h.face_normals.rows(); ++f) {
    const double v = h.face_normals.row(f).dot(p) - h.face_offsets[f];
    if (v > s) {
      s = v;
      best = f;
    }
  }
  if (s <= 0.0) {
    r.distance = s;
    r.normal = h.face_normals.row(best).transpose();
    r.point = p - s * r.normal;
    return r;
  }
  double d2 = kInf;
  for (const Eigen::Vector3i& t : h.triangles) {
    const Vec3 q =
        ClosestPointOnTriangle(p, h.vertices.row(t[0]).transpose(),
                               h.vertices.row(t[1]).transpose(), h.vertices.row(t[2]).transpose())
            .point;
    if ((q - p).squaredNorm() < d2) {
      d2 = (q - p).squaredNorm();
      r.point = q;
    }
  }
  r.distance = std::sqrt(d2);
  r.normal = (p - r.point) / r.distance;
  return r;
}

// The unpadded core polygon: inside, the nearest edge line; outside, the nearest edge segment.
PointSignedDistance CorePolygonDistance(const Polygon2& poly, const Vec2& p) {
  PointSignedDistance r;
  double s = -kInf;
  int best = 0;
  for (int i = 0; i < poly.A.rows(); ++i) {
    const double len = poly.A.row(i).norm();
    const double v = (poly.A.row(i).dot(p) - poly.b[i]) / len;
    if (v > s) {
      s = v;
      best = i;
    }
  }
  const Vec3 p3(p.x(), p.y(), 0.0);
  if (s <= 0.0) {
    const Vec2 n = poly.A.row(best).transpose() / poly.A.row(best).norm();
    r.distance = s;
    r.normal = Vec3(n.x(), n.y(), 0.0);
    r.point = p3 - s * r.normal;
    return r;
  }
  const int nv = static_cast<int>(poly.vertices.rows());
  double d2 = kInf;
  for (int i = 0; i < nv; ++i) {
    const Vec2 a = poly.vertices.row(i).transpose(),
               b = poly.vertices.row((i + 1) % nv).transpose();
    const Vec3 q = OnSegment2(p3, Vec3(a.x(), a.y(), 0), Vec3(b.x(), b.y(), 0));
    if ((q - p3).squaredNorm() < d2) {
      d2 = (q - p3).squaredNorm();
      r.point = q;
    }
  }
  r.distance = std::sqrt(d2);
  r.normal = (p3 - r.point) / r.distance;
  return r;
}

// Padded polygon: the core polygon's signed distance minus the radius, the nearest point pushed
// out along the normal (the gradient of the core distance, continuous across the boundary).
PointSignedDistance PolygonDistance(const Polygon2& poly, const Vec2& p) {
  PointSignedDistance r = CorePolygonDistance(poly, p);
  if (poly.radius != 0.0) {
    r.distance -= poly.radius;
    r.point += poly.radius * r.normal;
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Pairs.

SignedDistanceResult Swapped(SignedDistanceResult r) {
  std::swap(r.p_WA, r.p_WB);
  r.normal_W = -r.normal_W;
  return r;
}

// A sphere (or disk) of radius r centred at c_W against a shape whose point distance at c is
// pd (expressed in world): the sphere is A.
SignedDistanceResult BallVersus(const Vec3& c_W, double radius, const PointSignedDistance& pd_W) {
  SignedDistanceResult r;
  r.distance = pd_W.distance - radius;
  r.normal_W = -pd_W.normal;
  r.p_WB = pd_W.point;
  r.p_WA = c_W + radius * r.normal_W;
  r.status = DistanceStatus::kClosedForm;
  r.error_bound = 0.0;  // exact up to roundoff
  return r;
}

PointSignedDistance ToWorld(const PointSignedDistance& pd, const SE3& X_WS) {
  PointSignedDistance w;
  w.distance = pd.distance;
  w.point = X_WS.Act(pd.point);
  w.normal = X_WS.rotation() * pd.normal;
  return w;
}

void CheckPlanarPose(const SE3& X, const char* which) {
  if (!(std::abs(X.rotation()(2, 2) - 1.0) <= 1e-9)) {
    throw InvalidArgument(std::string("SignedDistance: the pose of 2D shape ") + which +
                          " must rotate about z (planar scenes)");
  }
}

Vec3 Flat(const Vec3& p) { return Vec3(p.x(), p.y(), 0.0); }

// Half-space H (z <= 0 in its frame) as A against a bounded 3D shape B: the deepest point of B
// along -n is its support point, exactly.
SignedDistanceResult HalfSpaceVersus(const SE3& X_WH, const Shape& b, const SE3& X_WB) {
  const Vec3 n = X_WH.rotation().col(2);
  const Vec3 q = SupportWorld(b, X_WB, -n);
  SignedDistanceResult r;
  r.distance = n.dot(q - X_WH.translation());
  r.normal_W = n;
  r.p_WB = q;
  r.p_WA = q - r.distance * n;
  r.status = DistanceStatus::kClosedForm;
  r.error_bound = 0.0;  // exact up to roundoff
  return r;
}

// Half-plane H (y <= 0 in its xy-plane) as A against a bounded 2D shape B.
SignedDistanceResult HalfPlaneVersus(const SE3& X_WH, const Shape& b, const SE3& X_WB) {
  const Mat2 R_H = X_WH.rotation().topLeftCorner<2, 2>();
  const Mat2 R_B = X_WB.rotation().topLeftCorner<2, 2>();
  const Vec2 n = R_H.col(1);
  const Vec2 q = R_B * Support2(b, -(R_B.transpose() * n)) + X_WB.translation().head<2>();
  SignedDistanceResult r;
  r.distance = n.dot(q - X_WH.translation().head<2>());
  r.normal_W = Vec3(n.x(), n.y(), 0.0);
  r.p_WB = Vec3(q.x(), q.y(), 0.0);
  r.p_WA = r.p_WB - r.distance * r.normal_W;
  r.status = DistanceStatus::kClosedForm;
  r.error_bound = 0.0;  // exact up to roundoff
  return r;
}

SignedDistanceResult CapsuleCapsule(const Capsule& a, const SE3& X_WA, const Capsule& b,
                                    const SE3& X_WB) {
  const Vec3 za = X_WA.rotation().col(2), zb = X_WB.rotation().col(2);
  const Vec3 p0 = X_WA.translation() - a.half_length * za,
             p1 = X_WA.translation() + a.half_length * za;
  const Vec3 q0 = X_WB.translation() - b.half_length * zb,
             q1 = X_WB.translation() + b.half_length * zb;
  const SegmentPair sp = ClosestPointsSegmentSegment(p0, p1, q0, q1);
  const double scale = std::max({1.0, p0.norm(), p1.norm(), q0.norm(), q1.norm()});
  Vec3 n;
  if (sp.distance > 1e-12 * scale) {
    n = (sp.point_q - sp.point_p) / sp.distance;
  } else {
    // Touching axes: the core Minkowski difference is a flat parallelogram (or a segment), so
    // the core depth is 0 and the normal is normal to both axes.
    const Vec3 c = (p1 - p0).cross(q1 - q0);
    const double cn = c.norm();
    if (cn > 1e-9 * (p1 - p0).norm() * (q1 - q0).norm()) {
      n = c / cn;
    } else {
      const Vec3 axis = (p1 - p0).norm() > 0.0 ? (p1 - p0) : (q1 - q0);
      n = axis.norm() > 0.0 ? AnyOrthogonal(axis.normalized()) : Vec3::UnitZ();
    }
    if (n.dot(X_WB.translation() - X_WA.translation()) < 0.0) n = -n;
  }
  SignedDistanceResult r;
  const double core = sp.distance > 1e-12 * scale ? sp.distance : 0.0;
  r.distance = core - a.radius - b.radius;
  r.normal_W = n;
  r.p_WA = sp.point_p + a.radius * n;
  r.p_WB = sp.point_q - b.radius * n;
  if (core == 0.0) r.p_WB = r.p_WA + r.distance * n;  // keep p_WB - p_WA = distance * normal
  r.status = DistanceStatus::kClosedForm;
  r.error_bound = 0.0;  // exact up to roundoff
  return r;
}

bool IsBall(ShapeType t) { return t == ShapeType::kSphere || t == ShapeType::kDisk2; }

}  // namespace

PointSignedDistance PointDistance(const Shape& shape, const Vec3& p) {
  switch (TypeOf(shape)) {
    case ShapeType::kSphere: {
      return SegmentDistance(Vec3::Zero(), Vec3::Zero(), std::get<Sphere>(shape).radius, p);
    }
    case ShapeType::kBox:
      return BoxDistance(std::get<Box>(shape).half_extents, p);
    case ShapeType::kCapsule: {
      const Capsule& c = std::get<Capsule>(shape);
      return SegmentDistance(Vec3(0, 0, -c.half_length), Vec3(0, 0, c.half_length), c.radius, p);
    }
    case ShapeType::kCylinder: {
      const Cylinder& c = std::get<Cylinder>(shape);
      const Vec3 u = RadialUnit(p);
      const PointSignedDistance m =
          RectDistance2(Vec2(c.radius, c.half_length), Vec2(std::hypot(p.x(), p.y()), p.z()));
      return FromMeridian(m, u);
    }
    case ShapeType::kEllipsoid:
      return EllipsoidDistance(std::get<Ellipsoid>(shape).radii, p);
    case ShapeType::kCone:
      return ConeDistance(std::get<Cone>(shape), p);
    case ShapeType::kHalfSpace: {
      PointSignedDistance r;
      r.distance = p.z();
      r.point = Vec3(p.x(), p.y(), 0.0);
      r.normal = Vec3::UnitZ();
      return r;
    }
    case ShapeType::kConvexHull: {
      // A padded hull's boundary is the hull's offset surface: distance - radius, everywhere.
      const ConvexHull& hull = std::get<ConvexHull>(shape);
      PointSignedDistance r = HullDistance(*hull.data, p);
      r.distance -= hull.radius;
      r.point += hull.radius * r.normal;
      return r;
    }
    case ShapeType::kMesh: {
      const TriangleMeshData& mesh = *std::get<TriangleMesh>(shape).data;
      if (mesh.hull) return HullDistance(*mesh.hull, p);
      const MeshClosestPoint c = ClosestPointOnMesh(mesh, p);
      PointSignedDistance r;
      r.distance = c.distance;
      r.point = c.point;
      r.normal = c.distance > 0.0 ? Vec3((p - c.point) / c.distance)
                                  : Vec3(mesh.face_normals.row(c.triangle).transpose());
      return r;
    }
    default:
      throw InvalidArgument("PointDistance: '" + std::string(ToString(TypeOf(shape))) +
                            "' is a 2D shape; use PointDistance2");
  }
}

PointSignedDistance PointDistance2(const Shape& shape, const Vec2& p) {
  const Vec3 p3(p.x(), p.y(), 0.0);
  switch (TypeOf(shape)) {
    case ShapeType::kPolygon2:
      return PolygonDistance(std::get<Polygon2>(shape), p);
    case ShapeType::kDisk2: {
      PointSignedDistance r = SegmentDistance(Vec3::Zero(), Vec3::Zero(), 0.0, p3);
      const double radius = std::get<Disk2>(shape).radius;
      if (r.distance == 0.0) r.normal = Vec3::UnitX();
      r.distance -= radius;
      r.point = radius * r.normal;
      return r;
    }
    case ShapeType::kCapsule2: {
      const Capsule2& c = std::get<Capsule2>(shape);
      const Vec3 a(-c.half_length, 0, 0), b(c.half_length, 0, 0);
      const Vec3 q = OnSegment2(p3, a, b);
      const double d = (p3 - q).norm();
      PointSignedDistance r;
      r.normal = d > 0.0 ? Vec3((p3 - q) / d) : Vec3::UnitY();
      r.distance = d - c.radius;
      r.point = q + c.radius * r.normal;
      return r;
    }
    case ShapeType::kHalfPlane2: {
      PointSignedDistance r;
      r.distance = p.y();
      r.point = Vec3(p.x(), 0.0, 0.0);
      r.normal = Vec3::UnitY();
      return r;
    }
    default:
      throw InvalidArgument("PointDistance2: '" + std::string(ToString(TypeOf(shape))) +
                            "' is not a 2D shape");
  }
}

bool SupportsSignedDistance(ShapeType a, ShapeType b) {
  if (IsPlanar(a) != IsPlanar(b)) return false;
  if (a == ShapeType::kHalfSpace && b == ShapeType::kHalfSpace) return false;
  if (a == ShapeType::kHalfPlane2 && b == ShapeType::kHalfPlane2) return false;
  if (a == ShapeType::kMesh && b == ShapeType::kMesh) return false;
  return true;
}

SignedDistanceResult SignedDistance(const Shape& a, const SE3& X_WA, const Shape& b,
                                    const SE3& X_WB, const GjkOptions& options) {
  const ShapeType ta = TypeOf(a), tb = TypeOf(b);
  if (!SupportsSignedDistance(ta, tb)) {
    throw Unsupported("SignedDistance: the pair (" + std::string(ToString(ta)) + ", " +
                      std::string(ToString(tb)) + ") is not supported");
  }
  if (std::string why = options.Validate(); !why.empty()) {
    throw InvalidArgument("GjkOptions: " + why);
  }
  const bool planar = IsPlanar(ta);
  if (planar) {
    CheckPlanarPose(X_WA, "A");
    CheckPlanarPose(X_WB, "B");
  }
  // Half-spaces and half-planes: exact through the support function.
  if (ta == ShapeType::kHalfSpace) return HalfSpaceVersus(X_WA, b, X_WB);
  if (tb == ShapeType::kHalfSpace) return Swapped(HalfSpaceVersus(X_WB, a, X_WA));
  if (ta == ShapeType::kHalfPlane2) return HalfPlaneVersus(X_WA, b, X_WB);
  if (tb == ShapeType::kHalfPlane2) return Swapped(HalfPlaneVersus(X_WB, a, X_WA));

  // Balls: the other shape's point distance at the centre, minus the radius.
  if (IsBall(ta) || IsBall(tb)) {
    const bool a_is_ball = IsBall(ta);
    const Shape& ball = a_is_ball ? a : b;
    const Shape& other = a_is_ball ? b : a;
    const SE3& X_WBall = a_is_ball ? X_WA : X_WB;
    const SE3& X_WO = a_is_ball ? X_WB : X_WA;
    const double radius = planar ? std::get<Disk2>(ball).radius : std::get<Sphere>(ball).radius;
    SignedDistanceResult r;
    if (planar) {
      const Mat2 R = X_WO.rotation().topLeftCorner<2, 2>();
      const Vec2 c = X_WBall.translation().head<2>();
      const Vec2 c_O = R.transpose() * (c - X_WO.translation().head<2>());
      PointSignedDistance pd = PointDistance2(other, c_O);
      SE3 X_flat = SE3(X_WO.rotation(), Flat(X_WO.translation()));
      r = BallVersus(Flat(X_WBall.translation()), radius, ToWorld(pd, X_flat));
    } else {
      const PointSignedDistance pd = PointDistance(other, X_WO.ActInv(X_WBall.translation()));
      r = BallVersus(X_WBall.translation(), radius, ToWorld(pd, X_WO));
    }
    return a_is_ball ? r : Swapped(r);
  }
  if (ta == ShapeType::kCapsule && tb == ShapeType::kCapsule) {
    return CapsuleCapsule(std::get<Capsule>(a), X_WA, std::get<Capsule>(b), X_WB);
  }
  return ConvexSignedDistance(a, X_WA, b, X_WB, options);
}

}  // namespace arena
