#include "models/scm/point_tree.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace arena::scm {

namespace point_tree {
constexpr int kLeafSize = 8;
}  // namespace point_tree

PointTree::PointTree(const Points& points) : points_(points), order_(static_cast<std::size_t>(points.rows())) {
  std::iota(order_.begin(), order_.end(), 0);
  if (points.rows() > 0) Build(0, static_cast<int>(points.rows()));
}

// Splits at the median of the box's longest axis.
int PointTree::Build(int begin, int end) {
  Node node;
  node.lo = Vec3::Constant(std::numeric_limits<double>::infinity());
  node.hi = -node.lo;
  for (int k = begin; k < end; ++k) {
    const Vec3 p = points_.row(order_[static_cast<std::size_t>(k)]).transpose();
    node.lo = node.lo.cwiseMin(p);
    node.hi = node.hi.cwiseMax(p);
  }
  node.centre = 0.5 * (node.lo + node.hi);
  node.radius = 0.5 * (node.hi - node.lo).norm();
  node.begin = begin;
  node.end = end;
  const int id = static_cast<int>(nodes_.size());
  nodes_.push_back(node);
  if (end - begin <= point_tree::kLeafSize) return id;
  int axis = 0;
  (node.hi - node.lo).maxCoeff(&axis);
  const int mid = (begin + end) / 2;
  std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                   [&](int a, int b) { return points_(a, axis) < points_(b, axis); });
  const int left = Build(begin, mid);
  const int right = Build(mid, end);
  nodes_[static_cast<std::size_t>(id)].left = left;
  nodes_[static_cast<std::size_t>(id)].right = right;
  return id;
}

double PointTree::BoxSquared(const Node& node, const Vec3& x) const {
  double d = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double below = node.lo[k] - x[k], above = x[k] - node.hi[k];
    const double e = below > 0.0 ? below : (above > 0.0 ? above : 0.0);
    d += e * e;
  }
  return d;
}

double PointTree::NearestAndWithin(const Vec3& x, double margin, std::vector<int>* out) const {
  double best = std::numeric_limits<double>::infinity();
  if (!nodes_.empty()) Descend(0, x, margin, &best, out);
  return best;
}

// Nearer child first, so the running minimum falls early and prunes the rest; a point joins
// `out` when it is within `margin` of the running minimum, which only ever shrinks.
void PointTree::Descend(int id, const Vec3& x, double margin, double* best, std::vector<int>* out) const {
  const Node& node = nodes_[static_cast<std::size_t>(id)];
  if (node.left < 0) {
    for (int k = node.begin; k < node.end; ++k) {
      const int i = order_[static_cast<std::size_t>(k)];
      const double d = (points_.row(i).transpose() - x).squaredNorm();
      if (d < *best) *best = d;
      if (d <= *best + margin) out->push_back(i);
    }
    return;
  }
  const Node& l = nodes_[static_cast<std::size_t>(node.left)];
  const Node& r = nodes_[static_cast<std::size_t>(node.right)];
  const double dl = BoxSquared(l, x), dr = BoxSquared(r, x);
  const bool left_first = dl <= dr;
  const int first = left_first ? node.left : node.right, second = left_first ? node.right : node.left;
  if ((left_first ? dl : dr) <= *best + margin) Descend(first, x, margin, best, out);
  if ((left_first ? dr : dl) <= *best + margin) Descend(second, x, margin, best, out);
}

}  // namespace arena::scm
