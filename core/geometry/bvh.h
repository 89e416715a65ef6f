// Bounding-volume hierarchy over primitives known by their axis-aligned boxes (triangles of a
// mesh, points of a cloud). A binary tree built top-down: each node's primitives are split at
// the median centre along the longest axis of their centres' box (Ericson, "Real-Time Collision
// Detection", 6.2), until a node holds at most `leaf_size` primitives. Every node also carries a
// bounding sphere centred at its box centre and enclosing its primitives, so the same tree
// serves as a bounding-sphere hierarchy.
//
// Immutable after construction; all queries are const and thread-safe.
#pragma once

#include <functional>
#include <limits>
#include <vector>

#include "core/geometry/primitives.h"

namespace arena {

class Bvh {
 public:
  static constexpr int kDefaultLeafSize = 4;

  struct Node {
    Aabb box;  // encloses the primitive boxes of the subtree
    Vec3 sphere_center = Vec3::Zero();
    double sphere_radius = 0.0;  // encloses the primitives (their vertices) of the subtree
    int left = -1, right = -1;   // child node indices; -1 for a leaf
    int begin = 0, count = 0;    // the subtree's primitives: primitives()[begin, begin+count)
    bool IsLeaf() const { return left < 0; }
  };

  /// Result of a nearest-primitive search; primitive = -1 when none was found.
  struct Nearest {
    int primitive = -1;
    double squared_distance = std::numeric_limits<double>::infinity();
  };

  Bvh() = default;

  /// Tree over arbitrary boxes; node spheres enclose the primitive boxes. Throws
  /// InvalidArgument for an empty or non-finite box or leaf_size < 1.
  static Bvh FromBoxes(const std::vector<Aabb>& boxes, int leaf_size = kDefaultLeafSize);
  /// Tree over triangles; node spheres enclose the triangle vertices.
  static Bvh FromTriangles(const PointsX3& vertices, const TrianglesX3& triangles,
                           int leaf_size = kDefaultLeafSize);
  /// Tree over points (balls of the given radius when radius > 0).
  static Bvh FromPoints(const PointsX3& points, double radius = 0.0,
                        int leaf_size = kDefaultLeafSize);

  bool empty() const { return nodes_.empty(); }
  int num_primitives() const { return static_cast<int>(boxes_.size()); }
  /// nodes()[0] is the root (when not empty).
  const std::vector<Node>& nodes() const { return nodes_; }
  /// Primitive indices in tree order: every node's primitives are contiguous.
  const std::vector<int>& primitives() const { return primitives_; }
  const Aabb& primitive_box(int i) const { return boxes_[i]; }
  /// Box of everything (empty box for an empty tree).
  Aabb bounds() const { return nodes_.empty() ? Aabb{} : nodes_[0].box; }

  /// Replaces *out with the primitives whose boxes overlap `box` (closed boxes), ascending.
  void QueryAabb(const Aabb& box, std::vector<int>* out) const;
  /// Replaces *out with the primitives whose boxes overlap the closed ball, ascending.
  void QuerySphere(const Vec3& center, double radius, std::vector<int>* out) const;
  /// Nearest primitive to p under a caller-given exact squared distance (branch and bound on
  /// the node boxes; nearer child first). Only primitives with squared distance strictly below
  /// max_squared_distance are considered. Ties go to the first primitive met in tree order.
  Nearest FindNearest(const Vec3& p, const std::function<double(int primitive)>& squared_distance,
                      double max_squared_distance = std::numeric_limits<double>::infinity()) const;

 private:
  // Farthest distance of a primitive's geometry from a point (for the node spheres).
  using FarthestFn = std::function<double(int primitive, const Vec3& from)>;
  static Bvh Build(std::vector<Aabb> boxes, int leaf_size, const FarthestFn& farthest);
  int BuildNode(int begin, int end, int leaf_size, const std::vector<Vec3>& centers,
                const FarthestFn& farthest);

  std::vector<Node> nodes_;
  std::vector<int> primitives_;
  std::vector<Aabb> boxes_;
};

}  // namespace arena
