#include "core/geometry/bvh.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/common/error.h"

namespace arena {

Bvh Bvh::FromBoxes(const std::vector<Aabb>& boxes, int leaf_size) {
  const FarthestFn farthest = [&boxes](int i, const Vec3& from) {
    const Vec3 d = (boxes[i].lower - from).cwiseAbs().cwiseMax((boxes[i].upper - from).cwiseAbs());
    return d.norm();
  };
  return Build(boxes, leaf_size, farthest);
}

Bvh Bvh::FromTriangles(const PointsX3& vertices, const TrianglesX3& triangles, int leaf_size) {
  const int m = static_cast<int>(triangles.rows());
  const int n = static_cast<int>(vertices.rows());
  std::vector<Aabb> boxes(m);
  for (int t = 0; t < m; ++t) {
    for (int k = 0; k < 3; ++k) {
      const int v = triangles(t, k);
      if (v < 0 || v >= n) {
        throw InvalidArgument("bvh: triangle " + std::to_string(t) + " has vertex index " +
                              std::to_string(v) + " outside [0, " + std::to_string(n) + ")");
      }
      boxes[t].Extend(vertices.row(v).transpose());
    }
  }
  const FarthestFn farthest = [&](int t, const Vec3& from) {
    double r = 0.0;
    for (int k = 0; k < 3; ++k) {
      r = std::max(r, (vertices.row(triangles(t, k)).transpose() - from).norm());
    }
    return r;
  };
  return Build(std::move(boxes), leaf_size, farthest);
}

Bvh Bvh::FromPoints(const PointsX3& points, double radius, int leaf_size) {
  if (!(radius >= 0.0)) throw InvalidArgument("bvh: point radius must be >= 0");
  const int n = static_cast<int>(points.rows());
  std::vector<Aabb> boxes(n);
  for (int i = 0; i < n; ++i)
    boxes[i] = Aabb::FromPoint(points.row(i).transpose()).Inflated(radius);
  const FarthestFn farthest = [&](int i, const Vec3& from) {
    return (points.row(i).transpose() - from).norm() + radius;
  };
  return Build(std::move(boxes), leaf_size, farthest);
}

Bvh Bvh::Build(std::vector<Aabb> boxes, int leaf_size, const FarthestFn& farthest) {
  if (leaf_size < 1) throw InvalidArgument("bvh: leaf_size must be >= 1");
  Bvh bvh;
  const int n = static_cast<int>(boxes.size());
  std::vector<Vec3> centers(n);
  for (int i = 0; i < n; ++i) {
    if (boxes[i].IsEmpty() || !boxes[i].IsBounded()) {
      throw InvalidArgument("bvh: primitive " + std::to_string(i) +
                            " has an empty or non-finite box");
    }
    centers[i] = boxes[i].Center();
  }
  bvh.boxes_ = std::move(boxes);
  bvh.primitives_.resize(n);
  for (int i = 0; i < n; ++i) bvh.primitives_[i] = i;
  if (n == 0) return bvh;
  bvh.nodes_.reserve(2 * static_cast<size_t>((n + leaf_size - 1) / leaf_size) + 1);
  bvh.BuildNode(0, n, leaf_size, centers, farthest);
  return bvh;
}

int Bvh::BuildNode(int begin, int end, int leaf_size, const std::vector<Vec3>& centers,
                   const FarthestFn& farthest) {
  const int index = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  Node node;
  node.begin = begin;
  node.count = end - begin;
  Aabb center_box;
  for (int k = begin; k < end; ++k) {
    node.box.Extend(boxes_[primitives_[k]]);
    center_box.Extend(centers[primitives_[k]]);
  }
  node.sphere_center = node.box.Center();
  for (int k = begin; k < end; ++k) {
    node.sphere_radius = std::max(node.sphere_radius, farthest(primitives_[k], node.sphere_center));
  }
  if (node.count > leaf_size) {
    int axis = 0;
    center_box.HalfExtents().maxCoeff(&axis);
    const int mid = begin + node.count / 2;
    // Median split; ties broken by primitive index so the tree is deterministic.
    std::nth_element(primitives_.begin() + begin, primitives_.begin() + mid,
                     primitives_.begin() + end, [&](int a, int b) {
                       const double ca = centers[a][axis], cb = centers[b][axis];
                       return ca < cb || (ca == cb && a < b);
                     });
    node.left = BuildNode(begin, mid, leaf_size, centers, farthest);
    node.right = BuildNode(mid, end, leaf_size, centers, farthest);
  }
  nodes_[index] = node;
  return index;
}

void Bvh::QueryAabb(const Aabb& box, std::vector<int>* out) const {
  out->clear();
  if (nodes_.empty()) return;
  std::vector<int> stack = {0};
  while (!stack.empty()) {
    const Node& node = nodes_[stack.back()];
    stack.pop_back();
    if (!node.box.Overlaps(box)) continue;
    if (node.IsLeaf()) {
      for (int k = node.begin; k < node.begin + node.count; ++k) {
        if (boxes_[primitives_[k]].Overlaps(box)) out->push_back(primitives_[k]);
      }
    } else {
      stack.push_back(node.right);
      stack.push_back(node.left);
    }
  }
  std::sort(out->begin(), out->end());
}

void Bvh::QuerySphere(const Vec3& center, double radius, std::vector<int>* out) const {
  out->clear();
  if (nodes_.empty() || !(radius >= 0.0)) return;
  std::vector<int> stack = {0};
  while (!stack.empty()) {
    const Node& node = nodes_[stack.back()];
    stack.pop_back();
    if (!node.box.OverlapsSphere(center, radius)) continue;
    if (node.IsLeaf()) {
      for (int k = node.begin; k < node.begin + node.count; ++k) {
        if (boxes_[primitives_[k]].OverlapsSphere(center, radius)) out->push_back(primitives_[k]);
      }
    } else {
      stack.push_back(node.right);
      stack.push_back(node.left);
    }
  }
  std::sort(out->begin(), out->end());
}

Bvh::Nearest Bvh::FindNearest(const Vec3& p,
                              const std::function<double(int primitive)>& squared_distance,
                              double max_squared_distance) const {
  Nearest best;
  best.squared_distance = max_squared_distance;
  if (nodes_.empty()) return best;
  // Depth-first branch and bound: a node is visited only if its box can hold something nearer.
  std::vector<std::pair<int, double>> stack = {{0, nodes_[0].box.SquaredDistance(p)}};
  while (!stack.empty()) {
    const auto [index, bound] = stack.back();
    stack.pop_back();
    if (!(bound < best.squared_distance)) continue;
    const Node& node = nodes_[index];
    if (node.IsLeaf()) {
      for (int k = node.begin; k < node.begin + node.count; ++k) {
        const int prim = primitives_[k];
        if (!(boxes_[prim].SquaredDistance(p) < best.squared_distance)) continue;
        const double d = squared_distance(prim);
        if (d < best.squared_distance) {
          best.squared_distance = d;
          best.primitive = prim;
        }
      }
      continue;
    }
    const double dl = nodes_[node.left].box.SquaredDistance(p);
    const double dr = nodes_[node.right].box.SquaredDistance(p);
    // Push the farther child first so the nearer one is explored first.
    if (dl <= dr) {
      stack.emplace_back(node.right, dr);
      stack.emplace_back(node.left, dl);
    } else {
      stack.emplace_back(node.left, dl);
      stack.emplace_back(node.right, dr);
    }
  }
  if (best.primitive < 0) best.squared_distance = std::numeric_limits<double>::infinity();
  return best;
}

}  // namespace arena
