// A k-d tree over a patch cloud's centres (in the shape's frame, built once): in one descent, the
// nearest centre to a point and every centre within a margin of it. SCM's softmaxes keep only the terms within
// `cutoff` temperatures of the largest (smooth_collision.h); the tree finds exactly those, so an
// SSDF query costs O(log n + terms) instead of O(n), and a pair of clouds O((n_a + n_b) log n).
#pragma once

#include <vector>

#include "core/math/types.h"

namespace arena::scm {

class PointTree {
 public:
  using Points = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
  explicit PointTree(const Points& points);

  /// Returns d = min_i |x - p_i|^2 (infinity for an empty tree) and appends to `out`, in no
  /// particular order, every i with |x - p_i|^2 <= d + margin (and perhaps a few more, within
  /// margin of a larger running minimum: callers filter by distance).
  double NearestAndWithin(const Vec3& x, double margin, std::vector<int>* out) const;

  /// The nodes, for callers' own traversals (models/scm/field_pruning.h): nodes()[0] is the
  /// root (when there are points); a node's points are order()[begin, end).
  struct Node {
    Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();  // bounding box of the node's points
    Vec3 centre = Vec3::Zero();                 // a ball holding them: the box's centre
    double radius = 0.0;                        // and half its diagonal
    int begin = 0, end = 0;     // its range of order()
    int left = -1, right = -1;  // children (-1: a leaf)
  };
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<int>& order() const { return order_; }

 private:
  int Build(int begin, int end);
  double BoxSquared(const Node& node, const Vec3& x) const;
  void Descend(int node, const Vec3& x, double margin, double* best, std::vector<int>* out) const;

  Points points_;
  std::vector<int> order_;   // point indices, each node's a contiguous range
  std::vector<Node> nodes_;  // nodes_[0] is the root
};

}  // namespace arena::scm
