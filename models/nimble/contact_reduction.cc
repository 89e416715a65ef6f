#include "models/nimble/contact_reduction.h"

#include <algorithm>
#include <utility>

namespace arena::nimble {

namespace {

double Cross(const Vec2& o, const Vec2& a, const Vec2& b) {
  return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
}

// Indices (into pts) of the strict corners of the convex hull: Andrew's monotone chain, with
// collinear points (|cross| below a tolerance scaled by the patch size) left out.
std::vector<int> HullCorners(const std::vector<Vec2>& pts) {
  std::vector<int> order(pts.size());
  for (size_t i = 0; i < pts.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return pts[a].x() < pts[b].x() || (pts[a].x() == pts[b].x() && pts[a].y() < pts[b].y());
  });
  double extent = 0.0;
  for (const Vec2& p : pts) extent = std::max(extent, (p - pts[order[0]]).norm());
  const double tol = 1e-9 * std::max(extent * extent, 1e-12);
  std::vector<int> hull(2 * pts.size());
  size_t k = 0;
  for (int pass = 0; pass < 2; ++pass) {  // lower hull, then upper hull
    const size_t start = k;
    for (size_t j = 0; j < order.size(); ++j) {
      const int i = pass == 0 ? order[j] : order[order.size() - 1 - j];
      while (k >= start + 2 && Cross(pts[hull[k - 2]], pts[hull[k - 1]], pts[i]) <= tol) --k;
      hull[k++] = i;
    }
    --k;  // the last point is the first of the other chain
  }
  hull.resize(k);
  return hull;
}

}  // namespace

void ReduceToHullCorners(std::vector<Contact>* contacts) {
  const size_t n = contacts->size();
  std::vector<bool> keep(n, true), grouped(n, false);
  for (size_t a = 0; a < n; ++a) {
    if (grouped[a]) continue;
    std::vector<int> patch;
    for (size_t b = a; b < n; ++b) {
      if (!grouped[b] && (*contacts)[b].pair == (*contacts)[a].pair &&
          ((*contacts)[b].normal_W - (*contacts)[a].normal_W).norm() < 1e-6) {
        patch.push_back(static_cast<int>(b));
        grouped[b] = true;
      }
    }
    if (patch.size() <= 2) continue;
    Vec3 t1, t2;
    TangentBasisOde((*contacts)[a].normal_W, &t1, &t2);
    std::vector<Vec2> pts;
    for (int k : patch) pts.emplace_back(t1.dot((*contacts)[k].point_W), t2.dot((*contacts)[k].point_W));
    std::vector<bool> corner(patch.size(), false);
    for (int h : HullCorners(pts)) corner[h] = true;
    for (size_t i = 0; i < patch.size(); ++i) keep[patch[i]] = corner[i];
  }
  std::vector<Contact> kept;
  for (size_t k = 0; k < n; ++k) {
    if (keep[k]) kept.push_back((*contacts)[k]);
  }
  *contacts = std::move(kept);
}

}  // namespace arena::nimble
