// EPA: penetration depth and normal of two overlapping cores, grown from GJK's final simplex
// (see gjk.h for the method and its accuracy). 3D grows a triangulated polytope, 2D a convex
// polygon; both first inflate a degenerate simplex, or report depth 0 when M is flat.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include "core/geometry/gjk_internal.h"
#include "core/geometry/primitives.h"

namespace arena::gjk_internal {

namespace {

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

double Cross2(const Vec2& u, const Vec2& v) { return u.x() * v.y() - u.y() * v.x(); }

// Of the support points along the 2D directions +-e_k, the one farthest from w0 (its distance
// in *dist): grows a one-point simplex when the Minkowski difference is not a single point.
template <int D, class F>
SupportPoint<D> FarthestAxisSupport(const F& support, const VecD<D>& w0, double* dist) {
  SupportPoint<D> best;
  *dist = -1.0;
  for (int k = 0; k < 2 * D; ++k) {
    const VecD<D> d = (k % 2 == 0 ? 1.0 : -1.0) * VecD<D>::Unit(k / 2);
    const SupportPoint<D> sp = support(d);
    const double dk = (sp.w - w0).norm();
    if (dk > *dist) {
      *dist = dk;
      best = sp;
    }
  }
  return best;
}

}  // namespace

EpaCore<3> RunEpa3(const Support3Fn& support, const Simplex<3>& s, const GjkOptions& opt) {
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
    double best_d = -1.0;
    const SupportPoint<3> best = FarthestAxisSupport<3>(support, V[0].w, &best_d);
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

EpaCore<2> RunEpa2(const Support2Fn& support, const Simplex<2>& s, const GjkOptions& opt) {
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
    double best_d = -1.0;
    const SupportPoint<2> best = FarthestAxisSupport<2>(support, P[0].w, &best_d);
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

}  // namespace arena::gjk_internal
