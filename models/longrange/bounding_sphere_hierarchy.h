// The bounding-sphere hierarchy (BSH) of one rigid triangle mesh, Definition 5.3 of Ye et al.,
// "Efficient Differentiable Contact Model with Long-Range Influence" (arXiv 2509.20917), in the
// body frame:
//   - a binary tree whose leaves are single triangles (node t is triangle t);
//   - each node I holds a vertex index set I = I_l u I_r (a leaf: its triangle's 3 vertices) and
//     is centred at the mean of those vertices, x_I = sum_{i in I} x_i / |I| (Sec. 5.1), so the
//     gradient of a node term reaches every vertex of I with weight 1/|I|;
//   - a leaf's radius is the largest centroid-vertex distance; an internal node's radius is
//     LAYERED, R_I = max_{c in {l, r}} (|x_I - x_c| + R_c): the smallest sphere about x_I that
//     holds both children's spheres (the proofs of Lemma A.1 and A.3 need the layered form).
// Topology: the paper follows Bradshaw & O'Sullivan (2004); we follow the authors' released code
// instead, a greedy bottom-up merge of edge-adjacent clusters, cheapest first by the surface
// area of the merged cluster's axis-aligned box, with lazy re-insertion of heap entries whose
// cost grew after one side was merged. Components that share no edge are then merged the same
// way without the adjacency requirement.
//
// The hierarchy is immutable (radii do not change under rigid motion); BshPose holds the world
// positions of one configuration (vertices and node centres).
#pragma once

#include <span>
#include <vector>

#include "core/geometry/primitives.h"
#include "core/math/types.h"

namespace arena::longrange {

struct BshNode {
  int left = -1;  // children; -1 for a leaf
  int right = -1;
  int parent = -1;         // -1 for the root
  int triangle = -1;       // a leaf's triangle (== the node index); -1 for internal nodes
  int vertices_begin = 0;  // the vertex set I: BoundingSphereHierarchy::node_vertices
  int vertices_end = 0;
  Vec3 center = Vec3::Zero();  // x_I in the body frame (mean of the vertex set)
  double radius = 0.0;         // R_I, layered (m)
  bool is_leaf() const { return left < 0; }
};

class BoundingSphereHierarchy {
 public:
  /// Builds the hierarchy of a mesh given in its body frame. Throws InvalidArgument for no
  /// triangles, an index out of range, a triangle that repeats a vertex, or non-finite vertices.
  BoundingSphereHierarchy(const PointsX3& vertices, const TrianglesX3& triangles);

  int num_vertices() const { return static_cast<int>(vertices_.rows()); }
  int num_triangles() const { return static_cast<int>(triangles_.rows()); }
  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  /// Nodes [0, num_triangles) are the leaves (node t = triangle t); the root is the last node.
  int root() const { return num_nodes() - 1; }
  const BshNode& node(int i) const { return nodes_[i]; }
  const std::vector<BshNode>& nodes() const { return nodes_; }
  /// The vertex index set of node i, ascending.
  std::span<const int> node_vertices(int i) const {
    return {vertex_indices_.data() + nodes_[i].vertices_begin,
            static_cast<std::size_t>(nodes_[i].vertices_end - nodes_[i].vertices_begin)};
  }
  const PointsX3& vertices() const { return vertices_; }  // body frame
  const TrianglesX3& triangles() const { return triangles_; }
  /// Edges on the longest root-to-leaf path (0 for a single triangle).
  int depth() const { return depth_; }
  /// Sum of |I| over all nodes (the cost of recomputing every centre from the vertices).
  int total_node_vertices() const { return static_cast<int>(vertex_indices_.size()); }

 private:
  PointsX3 vertices_;
  TrianglesX3 triangles_;
  std::vector<BshNode> nodes_;
  std::vector<int> vertex_indices_;
  int depth_ = 0;
};

/// World positions of one configuration of a BSH: the vertices and every node centre.
struct BshPose {
  PointsX3 vertices;          // N x 3, world
  std::vector<Vec3> centers;  // per node, world: the mean of the node's world vertices
};

/// Pose from world vertex positions (any motion): centres are the means of the vertex sets,
/// O(total_node_vertices). Throws InvalidArgument for a row count other than num_vertices.
void PoseFromVertices(const BoundingSphereHierarchy& bsh, const PointsX3& world_vertices,
                      BshPose* pose);

/// Pose of a rigid motion x_W = R_WB x_B + p_WB: centres are mapped directly (the mean commutes
/// with an affine map, so this equals PoseFromVertices up to round-off), O(N + nodes).
void PoseRigid(const BoundingSphereHierarchy& bsh, const Mat3& R_WB, const Vec3& p_WB,
               BshPose* pose);

}  // namespace arena::longrange
