// Depth polish for EPA on curved shapes (PolishDepth3, declared in gjk_internal.h).
#include <algorithm>
#include <cmath>

#include "core/geometry/gjk_internal.h"
#include "core/geometry/primitives.h"

namespace arena::gjk_internal {

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
bool PolishDepth3(const Support3Fn& support, const GjkOptions& opt, EpaCore<3>* e) {
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
    const GjkCore<3> g = RunGjk<3>(TranslatedSupport3Fn{support, T}, n, opt);
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

}  // namespace arena::gjk_internal
