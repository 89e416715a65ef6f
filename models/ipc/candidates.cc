// IPC broad phase between two meshes and the conservative line-search step bound (Li et al.
// 2020, Sec. 4 candidates within dhat); the soundness argument is in candidates.h.
#include "models/ipc/candidates.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>

#include "core/common/error.h"
#include "core/geometry/bvh.h"
#include "models/ipc/distance.h"

namespace arena::ipc {

namespace {


void CheckMesh(const PointsX3& vertices, const SurfaceTopology& topology, const char* name) {
  if (vertices.rows() != topology.num_vertices) {
    throw InvalidArgument(std::string("ipc candidates: mesh ") + name + " has " +
                          std::to_string(vertices.rows()) +
                          " vertex positions but its topology has " +
                          std::to_string(topology.num_vertices) + " vertices");
  }
  if (!vertices.allFinite()) {
    throw InvalidArgument(std::string("ipc candidates: mesh ") + name +
                          " has non-finite vertex positions");
  }
}

std::vector<Aabb> EdgeBoxes(const PointsX3& vertices, const EdgesX2& edges) {
  std::vector<Aabb> boxes(edges.rows());
  for (int e = 0; e < edges.rows(); ++e) {
    boxes[e].Extend(PointAt(vertices, edges(e, 0)));
    boxes[e].Extend(PointAt(vertices, edges(e, 1)));
  }
  return boxes;
}

// The primitives whose boxes overlap `region` (ascending original indices) and a BVH over
// just those: a pair can only be a candidate if each primitive's box, inflated by dhat, meets
// the other mesh's bounds, so the tree need not hold the rest of the mesh.
struct Subset {
  std::vector<int> index;
  Bvh bvh;
};
Subset Restrict(const std::vector<Aabb>& boxes, const Aabb& region) {
  Subset out;
  std::vector<Aabb> kept;
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
    if (boxes[i].Overlaps(region)) {
      out.index.push_back(i);
      kept.push_back(boxes[i]);
    }
  }
  out.bvh = Bvh::FromBoxes(kept);
  return out;
}

// Vertices of the points' mesh (within `region`) against the triangles in `triangles`.
void PointTriangleQuery(const PointsX3& points, const Aabb& region, const Subset& triangles,
                        double dhat, std::vector<PointTriangleCandidate>* out) {
  std::vector<int> hits;
  for (int i = 0; i < points.rows(); ++i) {
    const Aabb box = Aabb::FromPoint(PointAt(points, i)).Inflated(dhat);
    if (!box.Overlaps(region)) continue;
    triangles.bvh.QueryAabb(box, &hits);
    for (int t : hits) out->push_back({i, triangles.index[t]});
  }
}

double MaxOver(const VecX& delta, std::initializer_list<int> vertices) {
  double m = 0.0;
  for (int v : vertices) m = std::max(m, delta[v]);
  return m;
}

void CheckDisplacements(const VecX& delta, const SurfaceTopology& topology, const char* name) {
  if (delta.size() != topology.num_vertices) {
    throw InvalidArgument(std::string("ipc step bound: mesh ") + name + " has " +
                          std::to_string(topology.num_vertices) + " vertices but " +
                          std::to_string(delta.size()) + " displacement bounds");
  }
  if (!delta.allFinite() || (delta.array() < 0.0).any()) {
    throw InvalidArgument(std::string("ipc step bound: the displacement bounds of mesh ") + name +
                          " must be finite and >= 0");
  }
}

}  // namespace

SurfaceTopology MakeSurfaceTopology(const TrianglesX3& triangles, int num_vertices) {
  SurfaceTopology out;
  out.triangles = triangles;
  out.num_vertices = num_vertices;
  std::vector<std::pair<int, int>> edges;
  edges.reserve(3 * triangles.rows());
  for (int t = 0; t < triangles.rows(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const int i = triangles(t, k), j = triangles(t, (k + 1) % 3);
      if (i < 0 || i >= num_vertices) {
        throw InvalidArgument("ipc topology: triangle " + std::to_string(t) + " has vertex index " +
                              std::to_string(i) + " outside [0, " + std::to_string(num_vertices) +
                              ")");
      }
      if (i == j) {
        throw InvalidArgument("ipc topology: triangle " + std::to_string(t) + " repeats vertex " +
                              std::to_string(i));
      }
      edges.emplace_back(std::min(i, j), std::max(i, j));
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  out.edges.resize(static_cast<Eigen::Index>(edges.size()), 2);
  for (size_t e = 0; e < edges.size(); ++e) {
    out.edges(static_cast<Eigen::Index>(e), 0) = edges[e].first;
    out.edges(static_cast<Eigen::Index>(e), 1) = edges[e].second;
  }
  return out;
}

Candidates FindCandidates(const PointsX3& vertices_a, const SurfaceTopology& a,
                          const PointsX3& vertices_b, const SurfaceTopology& b, double dhat) {
  CheckMesh(vertices_a, a, "A");
  CheckMesh(vertices_b, b, "B");
  if (!(dhat >= 0.0)) throw InvalidArgument("ipc candidates: dhat must be >= 0");
  Candidates out;
  const Aabb near_a = BoundsOf(vertices_a).Inflated(dhat), near_b = BoundsOf(vertices_b).Inflated(dhat);
  const Subset tri_a = Restrict(TriangleBoxes(vertices_a, a.triangles), near_b);
  const Subset tri_b = Restrict(TriangleBoxes(vertices_b, b.triangles), near_a);
  PointTriangleQuery(vertices_a, BoundsOf(vertices_b), tri_b, dhat, &out.point_a_triangle_b);
  PointTriangleQuery(vertices_b, BoundsOf(vertices_a), tri_a, dhat, &out.point_b_triangle_a);
  const std::vector<Aabb> boxes_a = EdgeBoxes(vertices_a, a.edges);
  const Subset edges_b = Restrict(EdgeBoxes(vertices_b, b.edges), near_a);
  const Aabb bounds_b = BoundsOf(vertices_b);
  std::vector<int> hits;
  for (int e = 0; e < a.edges.rows(); ++e) {
    const Aabb box = boxes_a[e].Inflated(dhat);
    if (!box.Overlaps(bounds_b)) continue;
    edges_b.bvh.QueryAabb(box, &hits);
    for (int f : hits) out.edge_edge.push_back({e, edges_b.index[f]});
  }
  return out;
}

std::vector<double> CandidateDistances(const Candidates& candidates, const PointsX3& vertices_a,
                                       const SurfaceTopology& a, const PointsX3& vertices_b,
                                       const SurfaceTopology& b) {
  std::vector<double> out;
  out.reserve(candidates.size());
  const auto point_triangle = [&out](const PointsX3& pv, const PointsX3& tv,
                                     const TrianglesX3& tris, const PointTriangleCandidate& c) {
    out.push_back(std::sqrt(
        PointTriangleSquaredDistance(PointAt(pv, c.vertex), PointAt(tv, tris(c.triangle, 0)),
                                     PointAt(tv, tris(c.triangle, 1)), PointAt(tv, tris(c.triangle, 2)))));
  };
  for (const auto& c : candidates.point_a_triangle_b)
    point_triangle(vertices_a, vertices_b, b.triangles, c);
  for (const auto& c : candidates.point_b_triangle_a)
    point_triangle(vertices_b, vertices_a, a.triangles, c);
  for (const auto& c : candidates.edge_edge) {
    out.push_back(std::sqrt(EdgeEdgeSquaredDistance(
        PointAt(vertices_a, a.edges(c.edge_a, 0)), PointAt(vertices_a, a.edges(c.edge_a, 1)),
        PointAt(vertices_b, b.edges(c.edge_b, 0)), PointAt(vertices_b, b.edges(c.edge_b, 1)))));
  }
  return out;
}

StepBound ConservativeStepBound(const Candidates& candidates, const PointsX3& vertices_a,
                                const SurfaceTopology& a, const PointsX3& vertices_b,
                                const SurfaceTopology& b, const VecX& max_displacement_a,
                                const VecX& max_displacement_b, double dhat, double eta) {
  CheckMesh(vertices_a, a, "A");
  CheckMesh(vertices_b, b, "B");
  CheckDisplacements(max_displacement_a, a, "A");
  CheckDisplacements(max_displacement_b, b, "B");
  if (!(eta > 0.0 && eta < 1.0)) throw InvalidArgument("ipc step bound: eta must be in (0, 1)");
  if (!(dhat >= 0.0)) throw InvalidArgument("ipc step bound: dhat must be >= 0");
  const std::vector<double> dist = CandidateDistances(candidates, vertices_a, a, vertices_b, b);
  // Per candidate: how far its two primitives can approach each other over the full step.
  std::vector<double> approach;
  approach.reserve(dist.size());
  const VecX& da = max_displacement_a;
  const VecX& db = max_displacement_b;
  for (const auto& c : candidates.point_a_triangle_b) {
    const auto t = b.triangles.row(c.triangle);
    approach.push_back(da[c.vertex] + MaxOver(db, {t[0], t[1], t[2]}));
  }
  for (const auto& c : candidates.point_b_triangle_a) {
    const auto t = a.triangles.row(c.triangle);
    approach.push_back(db[c.vertex] + MaxOver(da, {t[0], t[1], t[2]}));
  }
  for (const auto& c : candidates.edge_edge) {
    approach.push_back(MaxOver(da, {a.edges(c.edge_a, 0), a.edges(c.edge_a, 1)}) +
                       MaxOver(db, {b.edges(c.edge_b, 0), b.edges(c.edge_b, 1)}));
  }
  StepBound out;
  for (size_t k = 0; k < dist.size(); ++k) {
    out.min_distance = std::min(out.min_distance, dist[k]);
    if (approach[k] > 0.0) out.alpha = std::min(out.alpha, (1.0 - eta) * dist[k] / approach[k]);
  }
  // Every other pair starts farther than dhat and approaches by at most the two largest moves.
  const double far_approach =
      (da.size() > 0 ? da.maxCoeff() : 0.0) + (db.size() > 0 ? db.maxCoeff() : 0.0);
  const bool bounded = std::isfinite(dhat);
  if (bounded && far_approach > 0.0)
    out.alpha = std::min(out.alpha, (1.0 - eta) * dhat / far_approach);
  for (size_t k = 0; k < dist.size(); ++k) {
    out.distance_lower_bound =
        std::min(out.distance_lower_bound, dist[k] - out.alpha * approach[k]);
  }
  if (bounded)
    out.distance_lower_bound = std::min(out.distance_lower_bound, dhat - out.alpha * far_approach);
  return out;
}

}  // namespace arena::ipc
