// GJK on the cores of two convex shapes (gjk_internal.h), and the distance queries of gjk.h
// built on it: input checks, margins, and EPA (epa.cc) when the cores overlap.
#include "core/geometry/gjk.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/common/error.h"
#include "core/geometry/gjk_internal.h"
#include "core/geometry/primitives.h"

namespace arena {

namespace gjk_internal {

namespace {

// GJK sub-algorithm: closest point of a simplex to the origin by Voronoi regions.

// Keeps the entries with positive weight (renormalised), in order.
template <int D>
void KeepPositive(Simplex<D>* s, const double* weights) {
  double sum = 0.0;
  for (int i = 0; i < s->size; ++i) sum += std::max(weights[i], 0.0);
  int k = 0;
  for (int i = 0; i < s->size; ++i) {
    if (weights[i] > 0.0) {
      s->p[k] = s->p[i];
      s->lambda[k] = weights[i] / sum;
      ++k;
    }
  }
  if (k == 0) {  // cannot happen for valid weights; keep the first vertex
    k = 1;
    s->lambda[0] = 1.0;
  }
  s->size = k;
}

template <int D>
Vec3 TriangleBarycentric(const VecD<D>& a, const VecD<D>& b, const VecD<D>& c) {
  if constexpr (D == 3) {
    return ClosestPointOnTriangle(Vec3::Zero(), a, b, c).barycentric;
  } else {
    return ClosestPointOnTriangle(Vec2::Zero(), a, b, c).barycentric;
  }
}

// Reduces *s to the smallest sub-simplex containing its point closest to the origin and sets
// the barycentric coordinates. *inside: the origin lies in a full-dimensional simplex.
template <int D>
VecD<D> ReduceSimplex(Simplex<D>* s, bool* inside) {
  *inside = false;
  const auto y = [&](int i) -> const VecD<D>& { return s->p[i].w; };
  if (s->size == 1) {
    s->lambda[0] = 1.0;
  } else if (s->size == 2) {
    const VecD<D> e = y(1) - y(0);
    const double len2 = e.squaredNorm();
    const double t = len2 > 0.0 ? std::clamp(-y(0).dot(e) / len2, 0.0, 1.0) : 0.0;
    const double w[2] = {1.0 - t, t};
    KeepPositive(s, w);
  } else if (s->size == 3) {
    const Vec3 bary = TriangleBarycentric<D>(y(0), y(1), y(2));
    if (D == 2 && (bary.array() > 0.0).all()) *inside = true;
    KeepPositive(s, bary.data());
  } else if constexpr (D == 3) {
    // Tetrahedron: the origin is inside unless it lies beyond one of the faces; then the
    // nearest of those faces holds the closest point. A flat tetrahedron never contains it.
    static constexpr int kFaces[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
    double L = 0.0;
    for (int i = 1; i < 4; ++i) L = std::max(L, (y(i) - y(0)).norm());
    const double det = (y(1) - y(0)).dot((y(2) - y(0)).cross(y(3) - y(0)));
    const bool flat = !(std::abs(det) > 1e-12 * L * L * L);
    double best = kInf;
    double weights[4] = {0, 0, 0, 0};
    bool any_outside = false;
    for (const auto& f : kFaces) {
      const Vec3 n = (y(f[1]) - y(f[0])).cross(y(f[2]) - y(f[0]));
      const double side_origin = -n.dot(y(f[0]));
      const double side_other = n.dot(y(f[3]) - y(f[0]));
      if (!flat && !(side_origin * side_other < 0.0)) continue;
      any_outside = true;
      const TrianglePoint tp = ClosestPointOnTriangle(Vec3::Zero(), y(f[0]), y(f[1]), y(f[2]));
      const double d2 = tp.point.squaredNorm();
      if (d2 < best) {
        best = d2;
        std::fill(weights, weights + 4, 0.0);
        for (int k = 0; k < 3; ++k) weights[f[k]] = tp.barycentric[k];
      }
    }
    if (!any_outside) {
      // Barycentric coordinates of the origin in the tetrahedron.
      Mat3 E;
      E << y(1) - y(0), y(2) - y(0), y(3) - y(0);
      const Vec3 mu = E.partialPivLu().solve(-y(0));
      weights[0] = 1.0 - mu.sum();
      for (int k = 0; k < 3; ++k) weights[k + 1] = mu[k];
      for (int k = 0; k < 4; ++k) s->lambda[k] = weights[k];
      *inside = true;
      return VecD<D>::Zero();
    }
    KeepPositive(s, weights);
  }
  return s->Combine(&SupportPoint<D>::w);
}

}  // namespace

template <int D, class F>
GjkCore<D> RunGjk(const F& support, VecD<D> dir0, const GjkOptions& opt) {
  if (!(dir0.squaredNorm() > 0.0) || !dir0.allFinite()) dir0 = VecD<D>::UnitX();
  GjkCore<D> c;
  Simplex<D>& s = c.simplex;
  s.p[0] = support(dir0);
  s.lambda[0] = 1.0;
  s.size = 1;
  VecD<D> v = s.p[0].w;
  double scale = v.norm();  // largest |w| seen: the roundoff scale
  double lower = 0.0;       // lower bound on the distance (van den Bergen)
  c.status = DistanceStatus::kMaxIterations;
  for (int it = 1; it <= opt.max_iterations; ++it) {
    c.iterations = it;
    const double vn = v.norm();
    if (vn <= opt.abs_tolerance + 1e-14 * scale) {
      c.intersecting = true;
      c.status = DistanceStatus::kConverged;
      break;
    }
    const SupportPoint<D> sp = support(-v);
    scale = std::max(scale, sp.w.norm());
    lower = std::max(lower, v.dot(sp.w) / vn);
    if (vn - lower <= opt.abs_tolerance + opt.rel_tolerance * vn) {
      c.status = DistanceStatus::kConverged;
      break;
    }
    bool duplicate = false;
    for (int i = 0; i < s.size; ++i) {
      duplicate = duplicate || (sp.w - s.p[i].w).norm() <= 1e-14 * scale;
    }
    if (duplicate) {  // w is already a vertex: v is optimal up to roundoff
      c.status = DistanceStatus::kConverged;
      break;
    }
    Simplex<D> next = s;
    next.p[next.size++] = sp;
    bool inside = false;
    const VecD<D> v_next = ReduceSimplex<D>(&next, &inside);
    if (inside) {
      s = next;
      c.intersecting = true;
      c.status = DistanceStatus::kConverged;
      break;
    }
    if (!(v_next.squaredNorm() < v.squaredNorm())) {  // no progress in floating point
      c.status = DistanceStatus::kStalled;
      break;
    }
    s = next;
    v = v_next;
  }
  c.upper = c.intersecting && s.size == D + 1 ? 0.0 : v.norm();
  c.lower = c.intersecting ? 0.0 : std::min(lower, c.upper);
  c.v = c.intersecting ? VecD<D>::Zero() : v;
  return c;
}

// The support functors GJK runs on: the distance queries' (3D, 2D) and the depth polish's.
template GjkCore<3> RunGjk<3, Support3Fn>(const Support3Fn&, Vec3, const GjkOptions&);
template GjkCore<2> RunGjk<2, Support2Fn>(const Support2Fn&, Vec2, const GjkOptions&);
template GjkCore<3> RunGjk<3, TranslatedSupport3Fn>(const TranslatedSupport3Fn&, Vec3,
                                                    const GjkOptions&);

}  // namespace gjk_internal

namespace {

using gjk_internal::EpaCore;
using gjk_internal::GjkCore;
using gjk_internal::PolishDepth3;
using gjk_internal::Pose2;
using gjk_internal::RunEpa2;
using gjk_internal::RunEpa3;
using gjk_internal::RunGjk;
using gjk_internal::Support2Fn;
using gjk_internal::Support3Fn;
using gjk_internal::SupportPoint;
using gjk_internal::VecD;

// The radius around a shape's core: d(A, B) = d(core A, core B) - r_A - r_B.
double MarginOf(const Shape& s) {
  if (const auto* x = std::get_if<Sphere>(&s)) return x->radius;
  if (const auto* x = std::get_if<Capsule>(&s)) return x->radius;
  if (const auto* x = std::get_if<Disk2>(&s)) return x->radius;
  if (const auto* x = std::get_if<Capsule2>(&s)) return x->radius;
  if (const auto* x = std::get_if<Polygon2>(&s)) return x->radius;
  if (const auto* x = std::get_if<ConvexHull>(&s)) return x->radius;
  return 0.0;
}

Pose2 ToPose2(const SE3& X, const char* which) {
  const Mat3& R = X.rotation();
  if (!(std::abs(R(2, 2) - 1.0) <= 1e-9)) {
    throw InvalidArgument(std::string("2D distance: the pose of shape ") + which +
                          " must rotate about z (planar scenes)");
  }
  return Pose2{R.topLeftCorner<2, 2>(), X.translation().head<2>()};
}

void CheckPair(const Shape& a, const Shape& b, const GjkOptions& options) {
  if (std::string why = options.Validate(); !why.empty())
    throw InvalidArgument("GjkOptions: " + why);
  for (const Shape* s : {&a, &b}) {
    const ShapeType t = TypeOf(*s);
    if (t == ShapeType::kHalfSpace || t == ShapeType::kHalfPlane2) {
      throw InvalidArgument("GJK: shape '" + std::string(ToString(t)) +
                            "' is unbounded; use SignedDistance");
    }
    if (const auto* h = std::get_if<ConvexHull>(s); h && !h->data) {
      throw InvalidArgument("GJK: convex hull without data");
    }
    if (const auto* m = std::get_if<TriangleMesh>(s); m && !m->data) {
      throw InvalidArgument("GJK: mesh without data");
    }
  }
  if (IsPlanar(TypeOf(a)) != IsPlanar(TypeOf(b))) {
    throw InvalidArgument("GJK: cannot pair a 2D shape with a 3D shape");
  }
}

Vec3 Lift(const Vec2& p) { return Vec3(p.x(), p.y(), 0.0); }

// Core GJK (and EPA when `signed_distance`) in world coordinates, margins not yet applied.
struct CoreResult {
  double distance = 0.0;  // core distance (>= 0), or minus the core depth
  Vec3 a = Vec3::Zero(), b = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();  // from A to B
  bool intersecting = false;
  double error_bound = std::numeric_limits<double>::quiet_NaN();
  int iterations = 0;
  DistanceStatus status = DistanceStatus::kNotComputed;
};

template <int D, class F>
CoreResult RunCore(const F& support, const VecD<D>& dir0, const GjkOptions& opt,
                   bool signed_distance) {
  const auto lift = [](const VecD<D>& x) -> Vec3 {
    if constexpr (D == 3) {
      return x;
    } else {
      return Lift(x);
    }
  };
  CoreResult r;
  const GjkCore<D> g = RunGjk<D>(support, dir0, opt);
  r.iterations = g.iterations;
  r.status = g.status;
  r.intersecting = g.intersecting;
  r.a = lift(g.simplex.Combine(&SupportPoint<D>::a));
  r.b = lift(g.simplex.Combine(&SupportPoint<D>::b));
  if (!g.intersecting) {
    r.distance = g.v.norm();
    r.normal = lift(-g.v / r.distance);
    r.error_bound = g.upper - g.lower;
    return r;
  }
  r.distance = 0.0;
  r.error_bound = g.upper;  // the origin is within |v| of M
  if (!signed_distance) return r;
  EpaCore<D> e;
  if constexpr (D == 3) {
    e = RunEpa3(support, g.simplex, opt);
    if (e.status != DistanceStatus::kConverged) PolishDepth3(support, opt, &e);
  } else {
    e = RunEpa2(support, g.simplex, opt);
  }
  r.iterations += e.iterations;
  if (e.iterations > 0) r.status = e.status;
  r.distance = -e.depth;
  r.error_bound = e.error_bound;
  r.a = lift(e.a);
  r.b = lift(e.b);
  r.normal = lift(e.normal).normalized();
  return r;
}

CoreResult Core(const Shape& a, const SE3& X_WA, const Shape& b, const SE3& X_WB,
                const GjkOptions& options, bool signed_distance) {
  CheckPair(a, b, options);
  if (IsPlanar(TypeOf(a))) {
    const Support2Fn support{a, ToPose2(X_WA, "A"), b, ToPose2(X_WB, "B")};
    const Vec2 dir0 = (X_WB.translation() - X_WA.translation()).head<2>();
    return RunCore<2>(support, dir0, options, signed_distance);
  }
  const Support3Fn support{a, X_WA, b, X_WB};
  return RunCore<3>(support, Vec3(X_WB.translation() - X_WA.translation()), options,
                    signed_distance);
}

}  // namespace

std::string_view ToString(DistanceStatus status) {
  switch (status) {
    case DistanceStatus::kNotComputed:
      return "not_computed";
    case DistanceStatus::kClosedForm:
      return "closed_form";
    case DistanceStatus::kConverged:
      return "converged";
    case DistanceStatus::kStalled:
      return "stalled";
    case DistanceStatus::kMaxIterations:
      return "max_iterations";
  }
  return "unknown";
}

bool FromString(std::string_view text, DistanceStatus* status) {
  for (DistanceStatus s :
       {DistanceStatus::kNotComputed, DistanceStatus::kClosedForm, DistanceStatus::kConverged,
        DistanceStatus::kStalled, DistanceStatus::kMaxIterations}) {
    if (ToString(s) == text) {
      *status = s;
      return true;
    }
  }
  return false;
}

std::string GjkOptions::Validate() const {
  if (max_iterations < 1) return "max_iterations must be >= 1";
  if (epa_max_iterations < 1) return "epa_max_iterations must be >= 1";
  if (!(abs_tolerance >= 0.0) || !(rel_tolerance >= 0.0)) return "GJK tolerances must be >= 0";
  if (!(epa_abs_tolerance >= 0.0) || !(epa_rel_tolerance >= 0.0)) {
    return "EPA tolerances must be >= 0";
  }
  return "";
}

GjkResult GjkDistance(const Shape& a, const SE3& X_WA, const Shape& b, const SE3& X_WB,
                      const GjkOptions& options) {
  const CoreResult c = Core(a, X_WA, b, X_WB, options, /*signed_distance=*/false);
  const double ra = MarginOf(a), rb = MarginOf(b);
  GjkResult r;
  r.iterations = c.iterations;
  r.status = c.status;
  r.error_bound = c.error_bound;
  if (c.intersecting) {
    r.distance = 0.0;
    r.intersecting = true;
    r.p_WA = c.a;
    r.p_WB = c.b;
    return r;
  }
  r.distance = std::max(0.0, c.distance - ra - rb);
  r.intersecting = c.distance <= ra + rb;
  r.p_WA = c.a + ra * c.normal;
  r.p_WB = c.b - rb * c.normal;
  return r;
}

SignedDistanceResult ConvexSignedDistance(const Shape& a, const SE3& X_WA, const Shape& b,
                                          const SE3& X_WB, const GjkOptions& options) {
  const CoreResult c = Core(a, X_WA, b, X_WB, options, /*signed_distance=*/true);
  const double ra = MarginOf(a), rb = MarginOf(b);
  SignedDistanceResult r;
  r.distance = c.distance - ra - rb;
  r.normal_W = c.normal;
  r.p_WA = c.a + ra * c.normal;
  r.p_WB = c.b - rb * c.normal;
  r.iterations = c.iterations;
  r.status = c.status;
  r.error_bound = c.error_bound;
  return r;
}

}  // namespace arena
