#include "core/geometry/gjk.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/common/error.h"
#include "core/geometry/primitives.h"
#include "core/geometry/support.h"

namespace arena {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

template <int D>
using VecD = Eigen::Matrix<double, D, 1>;

// A vertex of the Minkowski difference M = A - B with the points of A and B that made it.
template <int D>
struct SupportPoint {
  VecD<D> a = VecD<D>::Zero(), b = VecD<D>::Zero(), w = VecD<D>::Zero();
};

// GJK simplex with the barycentric coordinates of its point closest to the origin.
template <int D>
struct Simplex {
  std::array<SupportPoint<D>, D + 1> p;
  std::array<double, D + 1> lambda{};
  int size = 0;

  VecD<D> Combine(VecD<D> SupportPoint<D>::*member) const {
    VecD<D> x = VecD<D>::Zero();
    for (int i = 0; i < size; ++i) x += lambda[i] * (p[i].*member);
    return x;
  }
};

// ---------------------------------------------------------------------------------------------
// Cores and margins: a sphere is a point plus a radius, a capsule a segment plus a radius.

double MarginOf(const Shape& s) {
  if (const auto* x = std::get_if<Sphere>(&s)) return x->radius;
  if (const auto* x = std::get_if<Capsule>(&s)) return x->radius;
  if (const auto* x = std::get_if<Disk2>(&s)) return x->radius;
  if (const auto* x = std::get_if<Capsule2>(&s)) return x->radius;
  return 0.0;
}

Vec3 CoreSupport3(const Shape& s, const Vec3& d) {
  if (std::holds_alternative<Sphere>(s)) return Vec3::Zero();
  if (const auto* c = std::get_if<Capsule>(&s)) {
    return Vec3(0, 0, d.z() >= 0.0 ? c->half_length : -c->half_length);
  }
  return Support(s, d);
}

Vec2 CoreSupport2(const Shape& s, const Vec2& d) {
  if (std::holds_alternative<Disk2>(s)) return Vec2::Zero();
  if (const auto* c = std::get_if<Capsule2>(&s)) {
    return Vec2(d.x() >= 0.0 ? c->half_length : -c->half_length, 0.0);
  }
  return Support2(s, d);
}

struct Pose2 {
  Mat2 R = Mat2::Identity();
  Vec2 p = Vec2::Zero();
};

Pose2 ToPose2(const SE3& X, const char* which) {
  const Mat3& R = X.rotation();
  if (!(std::abs(R(2, 2) - 1.0) <= 1e-9)) {
    throw InvalidArgument(std::string("2D distance: the pose of shape ") + which +
                          " must rotate about z (planar scenes)");
  }
  return Pose2{R.topLeftCorner<2, 2>(), X.translation().head<2>()};
}

struct Support3Fn {
  const Shape& A;
  const SE3& XA;
  const Shape& B;
  const SE3& XB;
  SupportPoint<3> operator()(const Vec3& d) const {
    SupportPoint<3> s;
    s.a = XA.Act(CoreSupport3(A, XA.rotation().transpose() * d));
    s.b = XB.Act(CoreSupport3(B, -(XB.rotation().transpose() * d)));
    s.w = s.a - s.b;
    return s;
  }
};

struct Support2Fn {
  const Shape& A;
  Pose2 XA;
  const Shape& B;
  Pose2 XB;
  SupportPoint<2> operator()(const Vec2& d) const {
    SupportPoint<2> s;
    s.a = XA.R * CoreSupport2(A, XA.R.transpose() * d) + XA.p;
    s.b = XB.R * CoreSupport2(B, -(XB.R.transpose() * d)) + XB.p;
    s.w = s.a - s.b;
    return s;
  }
};

// ---------------------------------------------------------------------------------------------
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

template <int D>
struct GjkCore {
  Simplex<D> simplex;
  VecD<D> v = VecD<D>::Zero();  // point of M closest to the origin (zero when intersecting)
  double upper = 0.0;           // |v| at termination: an upper bound on the distance
  double lower = 0.0;           // best lower bound max_k v_k . w_k / |v_k| (van den Bergen)
  bool intersecting = false;
  int iterations = 0;
  DistanceStatus status = DistanceStatus::kNotComputed;
};

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

// ---------------------------------------------------------------------------------------------
// EPA.

template <int D>
struct EpaCore {
  double depth = 0.0;                // >= 0
  VecD<D> normal = VecD<D>::Zero();  // unit outward normal of M: from A to B
  VecD<D> a = VecD<D>::Zero(), b = VecD<D>::Zero();
  int iterations = 0;
  DistanceStatus status = DistanceStatus::kConverged;
  double upper = std::numeric_limits<double>::infinity();  // h(normal) >= depth
  double error_bound = 0.0;                                // upper - lower bound on the depth
  // The support point (a point of the boundary of M) nearest the origin: its norm is an upper
  // bound on the depth, with witnesses consistent along its direction (3D).
  double vertex_norm = std::numeric_limits<double>::infinity();
  VecD<D> vertex_a = VecD<D>::Zero(), vertex_b = VecD<D>::Zero();
};

template <int D>
double Scale(const std::vector<SupportPoint<D>>& V) {
  double s = 0.0;
  for (const auto& v : V) s = std::max(s, v.w.norm());
  return s;
}

struct EpaFace {
  std::array<int, 3> v{};
  Vec3 n = Vec3::Zero();
  double dist = kInf;
  bool alive = true;
};

template <class F>
EpaCore<3> RunEpa3(const F& support, const Simplex<3>& s, const GjkOptions& opt) {
  EpaCore<3> out;
  out.a = s.Combine(&SupportPoint<3>::a);
  out.b = s.Combine(&SupportPoint<3>::b);
  out.normal = Vec3::UnitZ();
  std::vector<SupportPoint<3>> V(s.p.begin(), s.p.begin() + s.size);
  double scale = Scale(V);
  for (int k = 0; k < 3; ++k) {
    scale = std::max({scale, support(Vec3::Unit(k)).w.norm(), support(-Vec3::Unit(k)).w.norm()});
  }
  // M narrower than this is treated as flat: its depth is 0 to this accuracy.
  const double eps_dim = std::max(opt.epa_abs_tolerance, 1e-12 * scale);

  // Grow the GJK simplex into a tetrahedron containing the origin (possibly on its boundary).
  if (V.size() == 3 && (V[1].w - V[0].w).cross(V[2].w - V[0].w).norm() <= 1e-14 * scale * scale) {
    V.pop_back();
  }
  if (V.size() == 2 && (V[1].w - V[0].w).norm() <= eps_dim) V.pop_back();
  if (V.size() == 1) {
    SupportPoint<3> best;
    double best_d = -1.0;
    for (int k = 0; k < 6; ++k) {
      const Vec3 d = (k % 2 == 0 ? 1.0 : -1.0) * Vec3::Unit(k / 2);
      const SupportPoint<3> sp = support(d);
      const double dist = (sp.w - V[0].w).norm();
      if (dist > best_d) {
        best_d = dist;
        best = sp;
      }
    }
    if (best_d <= eps_dim) {  // M is a point
      out.error_bound = eps_dim;
      return out;
    }
    V.push_back(best);
  }
  if (V.size() == 2) {
    const Vec3 axis = (V[1].w - V[0].w).normalized();
    const Vec3 e1 = AnyOrthogonal(axis), e2 = axis.cross(e1);
    SupportPoint<3> best;
    double best_d = -1.0;
    for (int k = 0; k < 6; ++k) {
      const double th = k * std::numbers::pi / 3.0;
      const SupportPoint<3> sp = support(std::cos(th) * e1 + std::sin(th) * e2);
      const Vec3 r = sp.w - V[0].w;
      const double dist = (r - axis * axis.dot(r)).norm();
      if (dist > best_d) {
        best_d = dist;
        best = sp;
      }
    }
    if (best_d <= eps_dim) {  // M is a segment: depth 0, any normal to it
      out.normal = e1;
      out.error_bound = eps_dim;
      return out;
    }
    V.push_back(best);
  }
  if (V.size() == 3) {
    const Vec3 n = (V[1].w - V[0].w).cross(V[2].w - V[0].w).normalized();
    const SupportPoint<3> p = support(n), q = support(-n);
    const double dp = n.dot(p.w - V[0].w), dq = -n.dot(q.w - V[0].w);
    if (std::max(dp, dq) <= eps_dim) {  // M is flat: depth 0, normal to its plane
      out.normal = n;
      out.error_bound = eps_dim;
      return out;
    }
    V.push_back(dp >= dq ? p : q);
  }

  std::vector<EpaFace> faces;
  // Face normals from the two shortest edges (at the vertex opposite the longest edge), the
  // most accurate cross product for slivers; the distance averages the three vertices.
  auto add_face = [&](int i, int j, int k) {
    EpaFace f;
    f.v = {i, j, k};
    const Vec3& a = V[i].w;
    const Vec3& b = V[j].w;
    const Vec3& c = V[k].w;
    const double ab = (b - a).squaredNorm(), bc = (c - b).squaredNorm(), ca = (a - c).squaredNorm();
    Vec3 n;
    if (ab >= bc && ab >= ca) {
      n = (a - c).cross(b - c);  // longest edge ab: apex c
    } else if (bc >= ca) {
      n = (b - a).cross(c - a);  // longest edge bc: apex a
    } else {
      n = (c - b).cross(a - b);  // longest edge ca: apex b
    }
    const double len = n.norm();
    if (len > 1e-300) {
      f.n = n / len;
      f.dist = f.n.dot(a + b + c) / 3.0;
    }
    faces.push_back(f);
  };
  {
    const Vec3 centroid = 0.25 * (V[0].w + V[1].w + V[2].w + V[3].w);
    static constexpr int kTetra[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    for (const auto& t : kTetra) {
      const Vec3 n = (V[t[1]].w - V[t[0]].w).cross(V[t[2]].w - V[t[0]].w);
      if (n.dot(V[t[0]].w - centroid) >= 0.0) {
        add_face(t[0], t[1], t[2]);
      } else {
        add_face(t[0], t[2], t[1]);
      }
    }
  }

  EpaFace f;
  bool have_face = false;
  out.status = DistanceStatus::kMaxIterations;
  for (int it = 0; it < opt.epa_max_iterations; ++it) {
    int fi = -1;
    for (int g = 0; g < static_cast<int>(faces.size()); ++g) {
      if (faces[g].alive && faces[g].dist < kInf && (fi < 0 || faces[g].dist < faces[fi].dist)) {
        fi = g;
      }
    }
    if (fi < 0) {
      out.status = DistanceStatus::kStalled;
      break;
    }
    f = faces[fi];
    have_face = true;
    out.iterations = it + 1;
    const SupportPoint<3> sp = support(f.n);
    scale = std::max(scale, sp.w.norm());
    const double gap = f.n.dot(sp.w) - f.dist;
    const double tol =
        opt.epa_abs_tolerance + opt.epa_rel_tolerance * std::max(f.dist, 0.0) + 1e-13 * scale;
    if (gap <= tol) {
      out.status = DistanceStatus::kConverged;
      break;
    }
    bool duplicate = false;
    for (int k = 0; k < 3; ++k)
      duplicate = duplicate || (sp.w - V[f.v[k]].w).norm() <= 1e-14 * scale;
    if (duplicate) {
      out.status = DistanceStatus::kConverged;
      break;
    }
    // Faces seen from the new vertex are removed; their boundary (the horizon) is coned to it.
    const int vi = static_cast<int>(V.size());
    V.push_back(sp);
    std::vector<int> visible;
    for (int g = 0; g < static_cast<int>(faces.size()); ++g) {
      if (faces[g].alive && faces[g].dist < kInf &&
          faces[g].n.dot(sp.w - V[faces[g].v[0]].w) > 1e-14 * scale) {
        visible.push_back(g);
      }
    }
    if (std::find(visible.begin(), visible.end(), fi) == visible.end()) {
      out.status = DistanceStatus::kStalled;
      break;
    }
    std::vector<std::pair<int, int>> horizon;
    for (int g : visible) {
      for (int e = 0; e < 3; ++e) {
        const int a = faces[g].v[e], b = faces[g].v[(e + 1) % 3];
        bool shared = false;
        for (int h : visible) {
          for (int e2 = 0; e2 < 3 && !shared; ++e2) {
            shared = faces[h].v[e2] == b && faces[h].v[(e2 + 1) % 3] == a;
          }
        }
        if (!shared) horizon.emplace_back(a, b);
      }
    }
    for (int g : visible) faces[g].alive = false;
    bool origin_inside = true;
    for (const auto& [a, b] : horizon) {
      add_face(a, b, vi);
      origin_inside = origin_inside && !(faces.back().dist < -tol);
    }
    if (!origin_inside) {  // roundoff broke the polytope: keep the last good face
      out.status = DistanceStatus::kStalled;
      break;
    }
  }
  if (!have_face) {
    out.error_bound = kInf;
    return out;
  }
  out.upper = f.n.dot(support(f.n).w);
  out.error_bound = std::max(0.0, out.upper - f.dist);
  for (const SupportPoint<3>& p : V) {
    if (p.w.norm() < out.vertex_norm) {
      out.vertex_norm = p.w.norm();
      out.vertex_a = p.a;
      out.vertex_b = p.b;
    }
  }
  // Coplanar faces share the nearest plane, so the face holding the nearest point is the one
  // whose triangle (not plane) is nearest the origin; its barycentric coordinates give the
  // witnesses. Faces created after `f` are ignored when the loop ended on a broken polytope.
  double best = kInf;
  for (const EpaFace& g : faces) {
    if (!g.alive || !(g.dist < kInf) || std::abs(g.dist - f.dist) > 1e-9 * scale + 1e-12) continue;
    const TrianglePoint tp =
        ClosestPointOnTriangle(Vec3::Zero(), V[g.v[0]].w, V[g.v[1]].w, V[g.v[2]].w);
    const double d = tp.point.norm();
    if (d < best) {
      best = d;
      const Vec3& bary = tp.barycentric;
      out.a = bary[0] * V[g.v[0]].a + bary[1] * V[g.v[1]].a + bary[2] * V[g.v[2]].a;
      out.b = bary[0] * V[g.v[0]].b + bary[1] * V[g.v[1]].b + bary[2] * V[g.v[2]].b;
      out.normal = g.n;
    }
  }
  if (!(best < kInf)) {
    const Vec3 bary =
        ClosestPointOnTriangle(f.dist * f.n, V[f.v[0]].w, V[f.v[1]].w, V[f.v[2]].w).barycentric;
    out.a = bary[0] * V[f.v[0]].a + bary[1] * V[f.v[1]].a + bary[2] * V[f.v[2]].a;
    out.b = bary[0] * V[f.v[0]].b + bary[1] * V[f.v[1]].b + bary[2] * V[f.v[2]].b;
    out.normal = f.n;
  }
  out.depth = std::max(f.dist, 0.0);
  return out;
}

// Polishes an EPA estimate on curved shapes, where EPA's inscribed polytope converges slowly.
// Any unit n gives an upper bound h(n) = max_{x in M} n.x on the depth (the depth is the minimum
// of h over unit n). Translating B by (h(n) + delta) n separates the shapes; GJK then finds the
// point p of the boundary of M whose outward normal n' points from the translated M to the
// origin. The map P: n -> n' has the contact normal n* as a fixed point (moving B along n*
// keeps the contact normal) and contracts by about (depth + delta) / (radius of curvature); its
// fixed point is found with Broyden's method in gnomonic coordinates around the EPA normal
// (superlinear where P is smooth, a plain fixed-point step to start). Every evaluation of P
// yields a boundary point p of M with witnesses a - b = p; |p| is an upper bound on the depth
// (the depth is the distance from the origin to the boundary) and p / |p| a normal consistent
// with the witnesses; the smallest |p| is kept. Near the optimum |p| exceeds h(n') only by
// O(|p| angle^2). The search starts from the EPA vertex nearest the origin (also a boundary
// point), which usually bounds the depth from above more tightly than EPA's faces from below.
template <class F>
bool PolishDepth3(const F& support, const GjkOptions& opt, EpaCore<3>* e) {
  const Vec3 n0 = e->normal;
  if (!(e->upper < kInf) || !n0.allFinite()) return false;
  const Vec3 u = AnyOrthogonal(n0), v = n0.cross(u);
  const auto to_n = [&](const Vec2& xi) -> Vec3 {
    return (n0 + xi.x() * u + xi.y() * v).normalized();
  };
  const auto to_xi = [&](const Vec3& n, Vec2* xi) {
    const double c = n.dot(n0);
    if (!(c > 0.2)) return false;  // left the chart around n0
    *xi = Vec2(n.dot(u), n.dot(v)) / c;
    return true;
  };
  struct Candidate {
    double h = kInf;
    Vec3 n = Vec3::Zero(), a = Vec3::Zero(), b = Vec3::Zero();
  };
  double scale = std::max(1e-300, std::abs(e->upper));
  Candidate best;
  if (e->vertex_norm < kInf) {
    best.h = e->vertex_norm;
    best.a = e->vertex_a;
    best.b = e->vertex_b;
    best.n = best.h > 1e-12 * scale ? Vec3((best.a - best.b) / best.h) : n0;
  }
  bool improved = false;
  // One evaluation of P at n: the candidate, and the image n' of n.
  const auto apply = [&](const Vec3& n, Candidate* out, Vec3* image) {
    const double h = n.dot(support(n).w);
    const double delta = 0.1 * std::max(h, 0.0) + 1e-6 * scale;
    const Vec3 T = (h + delta) * n;
    const auto shifted = [&](const Vec3& d) {
      SupportPoint<3> p = support(d);
      p.b += T;
      p.w -= T;
      return p;
    };
    const GjkCore<3> g = RunGjk<3>(shifted, n, opt);
    e->iterations += g.iterations;
    if (g.intersecting || !(g.v.norm() > 0.0)) return false;
    *image = -g.v.normalized();
    out->a = g.simplex.Combine(&SupportPoint<3>::a);
    out->b = g.simplex.Combine(&SupportPoint<3>::b) - T;
    const Vec3 p = out->a - out->b;
    out->h = p.norm();
    out->n = out->h > 1e-12 * scale ? Vec3(p / out->h) : *image;
    scale = std::max(scale, out->h);
    if (out->h < best.h) {
      best = *out;
      improved = true;
    }
    return true;
  };

  Vec2 xi = Vec2::Zero(), G;
  Candidate c;
  Vec3 image;
  const bool started = apply(n0, &c, &image) && to_xi(image, &G);
  Mat2 B = -Mat2::Identity();  // Broyden's estimate of dG/dxi; -I is the fixed-point step
  int stale = 0;
  constexpr int kMaxPolish = 40;
  for (int k = 0; started && k < kMaxPolish && G.norm() > 1e-15; ++k) {
    Vec2 d = -B.partialPivLu().solve(G);
    if (!d.allFinite()) d = G;
    if (d.norm() > 0.5) d *= 0.5 / d.norm();
    const double h_before = best.h;
    Vec2 img;
    if (!apply(to_n(xi + d), &c, &image) || !to_xi(image, &img)) break;
    const Vec2 G_new = img - (xi + d);
    B += ((G_new - G) - B * d) * d.transpose() / d.squaredNorm();
    xi += d;
    G = G_new;
    stale = best.h < h_before ? 0 : stale + 1;
    if (stale >= 4) break;
  }
  // Keep EPA's estimate when no boundary point at most as far as h(EPA normal) was found.
  if (!(best.h <= e->upper + 1e-15 * scale)) return false;
  // The depth lies between EPA's face distance (a lower bound) and best.h.
  const double lower = e->depth;
  e->depth = std::max(best.h, 0.0);
  e->normal = best.n;
  e->a = best.a;
  e->b = best.b;
  e->error_bound = std::max(0.0, best.h - lower);
  if (best.h - lower <= opt.epa_abs_tolerance + opt.epa_rel_tolerance * best.h) {
    e->status = DistanceStatus::kConverged;
  } else if (improved) {
    e->status = DistanceStatus::kStalled;
  }  // else EPA's own status (max_iterations or stalled) stands
  return true;
}

double Cross2(const Vec2& u, const Vec2& v) { return u.x() * v.y() - u.y() * v.x(); }

template <class F>
EpaCore<2> RunEpa2(const F& support, const Simplex<2>& s, const GjkOptions& opt) {
  EpaCore<2> out;
  out.a = s.Combine(&SupportPoint<2>::a);
  out.b = s.Combine(&SupportPoint<2>::b);
  out.normal = Vec2::UnitY();
  std::vector<SupportPoint<2>> P(s.p.begin(), s.p.begin() + s.size);
  double scale = Scale(P);
  for (int k = 0; k < 2; ++k) {
    scale = std::max({scale, support(Vec2::Unit(k)).w.norm(), support(-Vec2::Unit(k)).w.norm()});
  }
  const double eps_dim = std::max(opt.epa_abs_tolerance, 1e-12 * scale);

  if (P.size() == 3 &&
      std::abs(Cross2(P[1].w - P[0].w, P[2].w - P[0].w)) <= 1e-14 * scale * scale) {
    P.pop_back();
  }
  if (P.size() == 2 && (P[1].w - P[0].w).norm() <= eps_dim) P.pop_back();
  if (P.size() == 1) {
    SupportPoint<2> best;
    double best_d = -1.0;
    for (int k = 0; k < 4; ++k) {
      const Vec2 d = (k % 2 == 0 ? 1.0 : -1.0) * Vec2::Unit(k / 2);
      const SupportPoint<2> sp = support(d);
      const double dist = (sp.w - P[0].w).norm();
      if (dist > best_d) {
        best_d = dist;
        best = sp;
      }
    }
    if (best_d <= eps_dim) {  // M is a point
      out.error_bound = eps_dim;
      return out;
    }
    P.push_back(best);
  }
  if (P.size() == 2) {
    const Vec2 axis = (P[1].w - P[0].w).normalized();
    const Vec2 n(-axis.y(), axis.x());
    const SupportPoint<2> p = support(n), q = support(-n);
    const double dp = n.dot(p.w - P[0].w), dq = -n.dot(q.w - P[0].w);
    if (std::max(dp, dq) <= eps_dim) {  // M is a segment: depth 0, normal to it
      out.normal = n;
      out.error_bound = eps_dim;
      return out;
    }
    P.push_back(dp >= dq ? p : q);
  }
  if (Cross2(P[1].w - P[0].w, P[2].w - P[0].w) < 0.0) std::swap(P[1], P[2]);  // counter-clockwise

  int edge = -1;
  Vec2 n_edge = Vec2::Zero();
  double d_edge = 0.0;
  out.status = DistanceStatus::kMaxIterations;
  for (int it = 0; it < opt.epa_max_iterations; ++it) {
    const int m = static_cast<int>(P.size());
    int best = -1;
    double best_d = kInf;
    Vec2 best_n = Vec2::Zero();
    for (int i = 0; i < m; ++i) {
      const Vec2 e = P[(i + 1) % m].w - P[i].w;
      const double len = e.norm();
      if (!(len > 1e-300)) continue;
      const Vec2 n(e.y() / len, -e.x() / len);  // outward for counter-clockwise order
      const double d = n.dot(P[i].w);
      if (d < best_d) {
        best_d = d;
        best = i;
        best_n = n;
      }
    }
    if (best < 0) {
      out.status = DistanceStatus::kStalled;
      break;
    }
    edge = best;
    n_edge = best_n;
    d_edge = best_d;
    out.iterations = it + 1;
    const SupportPoint<2> sp = support(best_n);
    scale = std::max(scale, sp.w.norm());
    const double gap = best_n.dot(sp.w) - best_d;
    const double tol =
        opt.epa_abs_tolerance + opt.epa_rel_tolerance * std::max(best_d, 0.0) + 1e-13 * scale;
    if (gap <= tol || (sp.w - P[best].w).norm() <= 1e-14 * scale ||
        (sp.w - P[(best + 1) % m].w).norm() <= 1e-14 * scale) {
      out.status = DistanceStatus::kConverged;
      break;
    }
    // Insert after `best`, then drop neighbours that became reflex (keeps the polygon convex).
    int k = best + 1;
    P.insert(P.begin() + k, sp);
    while (P.size() > 3) {
      const int n = static_cast<int>(P.size());
      const int prev = (k - 1 + n) % n, prev2 = (k - 2 + n) % n;
      if (Cross2(P[prev].w - P[prev2].w, P[k].w - P[prev].w) > 0.0) break;
      P.erase(P.begin() + prev);
      if (prev < k) --k;
    }
    while (P.size() > 3) {
      const int n = static_cast<int>(P.size());
      const int next = (k + 1) % n, next2 = (k + 2) % n;
      if (Cross2(P[next].w - P[k].w, P[next2].w - P[next].w) > 0.0) break;
      P.erase(P.begin() + next);
      if (next < k) --k;
    }
  }
  if (edge < 0) {
    out.error_bound = kInf;
    return out;
  }
  out.upper = n_edge.dot(support(n_edge).w);
  out.error_bound = std::max(0.0, out.upper - d_edge);
  const int m = static_cast<int>(P.size());
  const SupportPoint<2>& u = P[edge];
  const SupportPoint<2>& v = P[(edge + 1) % m];
  const Vec2 e = v.w - u.w;
  const double t = std::clamp((d_edge * n_edge - u.w).dot(e) / e.squaredNorm(), 0.0, 1.0);
  out.a = u.a + t * (v.a - u.a);
  out.b = u.b + t * (v.b - u.b);
  out.depth = std::max(d_edge, 0.0);
  out.normal = n_edge;
  return out;
}

// ---------------------------------------------------------------------------------------------

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
