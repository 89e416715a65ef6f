#include "models/longrange/bounding_sphere_hierarchy.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <string>
#include <tuple>

#include "core/common/error.h"

namespace arena::longrange {
namespace {

double SurfaceArea(const Aabb& box) {
  const Vec3 e = box.upper - box.lower;
  return 2.0 * (e.x() * e.y() + e.y() * e.z() + e.z() * e.x());
}

// A candidate merge of clusters a and b at the given cost (smallest first; ties by ids so the
// build is deterministic).
struct Candidate {
  double cost = 0.0;
  int a = 0;
  int b = 0;
  bool operator>(const Candidate& o) const {
    return std::tie(cost, a, b) > std::tie(o.cost, o.a, o.b);
  }
};

}  // namespace

BoundingSphereHierarchy::BoundingSphereHierarchy(const PointsX3& vertices,
                                                 const TrianglesX3& triangles)
    : vertices_(vertices), triangles_(triangles) {
  const int nv = num_vertices();
  const int nt = num_triangles();
  if (nt == 0) throw InvalidArgument("BoundingSphereHierarchy: the mesh has no triangles");
  if (!vertices_.allFinite()) throw InvalidArgument("BoundingSphereHierarchy: non-finite vertex");
  for (int t = 0; t < nt; ++t) {
    for (int k = 0; k < 3; ++k) {
      const int v = triangles_(t, k);
      if (v < 0 || v >= nv) {
        throw InvalidArgument("BoundingSphereHierarchy: triangle " + std::to_string(t) +
                              " has vertex index " + std::to_string(v) + " outside [0, " +
                              std::to_string(nv) + ")");
      }
    }
    if (triangles_(t, 0) == triangles_(t, 1) || triangles_(t, 1) == triangles_(t, 2) ||
        triangles_(t, 0) == triangles_(t, 2)) {
      throw InvalidArgument("BoundingSphereHierarchy: triangle " + std::to_string(t) +
                            " repeats a vertex");
    }
  }

  // Build-time cluster data, indexed by node.
  std::vector<std::vector<int>> sets;
  std::vector<Aabb> boxes;
  std::vector<int> merged_into;
  nodes_.reserve(2 * nt - 1);
  sets.reserve(2 * nt - 1);
  boxes.reserve(2 * nt - 1);
  merged_into.reserve(2 * nt - 1);

  // Leaves: centre = centroid, radius = largest centroid-vertex distance (Def. 5.3).
  for (int t = 0; t < nt; ++t) {
    std::vector<int> set = {triangles_(t, 0), triangles_(t, 1), triangles_(t, 2)};
    std::sort(set.begin(), set.end());
    BshNode node;
    node.triangle = t;
    Aabb box;
    for (int v : set) {
      node.center += vertices_.row(v).transpose();
      box.Extend(vertices_.row(v).transpose());
    }
    node.center /= 3.0;
    for (int v : set) {
      node.radius = std::max(node.radius, (vertices_.row(v).transpose() - node.center).norm());
    }
    nodes_.push_back(node);
    sets.push_back(std::move(set));
    boxes.push_back(box);
    merged_into.push_back(-1);
  }

  auto resolve = [&](int x) {
    while (merged_into[x] >= 0) x = merged_into[x];
    return x;
  };
  auto merged_cost = [&](int a, int b) {
    Aabb box = boxes[a];
    box.Extend(boxes[b]);
    return SurfaceArea(box);
  };
  // Node centre = mean of the union vertex set (Sec. 5.1); layered radius (Def. 5.3).
  auto merge = [&](int a, int b) {
    const int id = static_cast<int>(nodes_.size());
    std::vector<int> set;
    set.reserve(sets[a].size() + sets[b].size());
    std::set_union(sets[a].begin(), sets[a].end(), sets[b].begin(), sets[b].end(),
                   std::back_inserter(set));
    BshNode node;
    node.left = a;
    node.right = b;
    for (int v : set) node.center += vertices_.row(v).transpose();
    node.center /= static_cast<double>(set.size());
    node.radius = std::max((node.center - nodes_[a].center).norm() + nodes_[a].radius,
                           (node.center - nodes_[b].center).norm() + nodes_[b].radius);
    Aabb box = boxes[a];
    box.Extend(boxes[b]);
    nodes_[a].parent = id;
    nodes_[b].parent = id;
    merged_into[a] = id;
    merged_into[b] = id;
    nodes_.push_back(node);
    sets.push_back(std::move(set));
    boxes.push_back(box);
    merged_into.push_back(-1);
  };
  // Greedy cheapest-first merging with lazy re-insertion: a popped candidate whose clusters
  // have since grown is re-queued at its current cost instead of being merged.
  using Heap = std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>>;
  auto run = [&](Heap& heap) {
    while (!heap.empty()) {
      const Candidate top = heap.top();
      heap.pop();
      const int a = resolve(top.a);
      const int b = resolve(top.b);
      if (a == b) continue;
      const double cost = merged_cost(a, b);
      if (cost > top.cost) {
        heap.push({cost, std::min(a, b), std::max(a, b)});
        continue;
      }
      merge(a, b);
    }
  };

  // Edge adjacency: triangles that share an (undirected) edge.
  std::vector<std::tuple<int, int, int>> edges;  // (lower vertex, upper vertex, triangle)
  edges.reserve(3 * nt);
  for (int t = 0; t < nt; ++t) {
    for (int k = 0; k < 3; ++k) {
      const int u = triangles_(t, k), w = triangles_(t, (k + 1) % 3);
      edges.emplace_back(std::min(u, w), std::max(u, w), t);
    }
  }
  std::sort(edges.begin(), edges.end());
  Heap heap;
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    while (j < edges.size() && std::get<0>(edges[j]) == std::get<0>(edges[i]) &&
           std::get<1>(edges[j]) == std::get<1>(edges[i])) {
      ++j;
    }
    for (std::size_t x = i; x < j; ++x) {
      for (std::size_t y = x + 1; y < j; ++y) {
        const int a = std::get<2>(edges[x]), b = std::get<2>(edges[y]);
        if (a != b) heap.push({merged_cost(a, b), std::min(a, b), std::max(a, b)});
      }
    }
    i = j;
  }
  run(heap);

  // Components without a shared edge: every pair of remaining clusters is a candidate.
  std::vector<int> roots;
  for (int i = 0; i < num_nodes(); ++i) {
    if (merged_into[i] < 0) roots.push_back(i);
  }
  if (roots.size() > 1) {
    for (std::size_t x = 0; x < roots.size(); ++x) {
      for (std::size_t y = x + 1; y < roots.size(); ++y) {
        heap.push({merged_cost(roots[x], roots[y]), roots[x], roots[y]});
      }
    }
    run(heap);
  }

  // Flatten the vertex sets; depth.
  std::size_t total = 0;
  for (const auto& s : sets) total += s.size();
  vertex_indices_.reserve(total);
  for (int i = 0; i < num_nodes(); ++i) {
    nodes_[i].vertices_begin = static_cast<int>(vertex_indices_.size());
    vertex_indices_.insert(vertex_indices_.end(), sets[i].begin(), sets[i].end());
    nodes_[i].vertices_end = static_cast<int>(vertex_indices_.size());
  }
  std::vector<int> level(num_nodes(), 0);
  for (int i = num_nodes() - 1; i >= 0; --i) {  // parents come after their children
    if (nodes_[i].parent >= 0) level[i] = level[nodes_[i].parent] + 1;
    depth_ = std::max(depth_, level[i]);
  }
}

void PoseFromVertices(const BoundingSphereHierarchy& bsh, const PointsX3& world_vertices,
                      BshPose* pose) {
  if (world_vertices.rows() != bsh.num_vertices()) {
    throw InvalidArgument("PoseFromVertices: " + std::to_string(world_vertices.rows()) +
                          " vertices given, the hierarchy has " +
                          std::to_string(bsh.num_vertices()));
  }
  pose->vertices = world_vertices;
  pose->centers.resize(bsh.num_nodes());
  for (int i = 0; i < bsh.num_nodes(); ++i) {
    Vec3 sum = Vec3::Zero();
    const auto set = bsh.node_vertices(i);
    for (int v : set) sum += world_vertices.row(v).transpose();
    pose->centers[i] = sum / static_cast<double>(set.size());
  }
}

void PoseRigid(const BoundingSphereHierarchy& bsh, const Mat3& R_WB, const Vec3& p_WB,
               BshPose* pose) {
  pose->vertices.resize(bsh.num_vertices(), 3);
  pose->vertices.noalias() = bsh.vertices() * R_WB.transpose();
  pose->vertices.rowwise() += p_WB.transpose();
  pose->centers.resize(bsh.num_nodes());
  for (int i = 0; i < bsh.num_nodes(); ++i) pose->centers[i] = R_WB * bsh.node(i).center + p_WB;
}

}  // namespace arena::longrange
