// Broad phase for IPC between two triangle meshes on different bodies: the point-triangle and
// edge-edge pairs whose distance may be below the activation distance dhat (Li et al.,
// "Incremental Potential Contact", SIGGRAPH 2020, Sec. 4: the barrier sums over the pairs
// closer than dhat), and a conservative lower bound on the inter-mesh distance along a step,
// which bounds the line search in place of continuous collision detection.
//
// Candidates: every primitive gets its axis-aligned box at the current world positions; a pair
// is a candidate when the box of its first primitive, inflated by dhat, overlaps the box of its
// second one. Inflating one side is enough: if two primitives are closer than dhat, their boxes
// are closer than dhat along every axis. So the set contains every pair closer than dhat (and
// some farther ones), and every pair NOT in it is farther than dhat. The search keeps only the
// primitives whose inflated boxes meet the other mesh's bounds (an exact filter) and queries a
// core/geometry/bvh.h tree over the second mesh's remaining primitives.
//
// Step bound: the distance between two point sets is 1-Lipschitz in the motion of each point,
// so if over a step every vertex i moves at most alpha * delta_i for the step fraction alpha,
// a pair whose vertices move at most delta_1 (largest on its first primitive) and delta_2 (on
// its second) keeps  dist(alpha) >= dist(0) - alpha (delta_1 + delta_2)  (the pair's points are
// convex combinations of its vertices, so they move no more than their fastest vertex). Pairs
// outside the candidate set start farther than dhat. Requiring every such bound to stay above a
// fraction eta of its starting value gives a step fraction that is sound without any
// continuous collision detection; it is conservative (a rotation that slides a surface along
// itself still counts its full displacement).
#pragma once

#include <limits>
#include <vector>

#include <Eigen/Core>

#include "core/geometry/primitives.h"

namespace arena::ipc {

/// M x 2 vertex indices, one edge per row.
using EdgesX2 = Eigen::Matrix<int, Eigen::Dynamic, 2, Eigen::RowMajor>;

/// A triangle surface's connectivity (built once per body by MakeSurfaceTopology, which checks
/// the indices; positions change every step and are passed separately).
struct SurfaceTopology {
  TrianglesX3 triangles;
  EdgesX2 edges;  // unique undirected edges of the triangles, (i, j) with i < j, ascending
  int num_vertices = 0;
};

/// Triangles and their unique edges. Throws InvalidArgument for an index outside
/// [0, num_vertices) or a triangle with a repeated vertex.
SurfaceTopology MakeSurfaceTopology(const TrianglesX3& triangles, int num_vertices);

struct PointTriangleCandidate {
  int vertex = -1;    // on the point's mesh
  int triangle = -1;  // on the other mesh
};
struct EdgeEdgeCandidate {
  int edge_a = -1;  // row of mesh A's edges
  int edge_b = -1;  // row of mesh B's edges
};

/// Candidate pairs between mesh A and mesh B, each list ascending (deterministic).
struct Candidates {
  std::vector<PointTriangleCandidate> point_a_triangle_b;  // vertex of A, triangle of B
  std::vector<PointTriangleCandidate> point_b_triangle_a;  // vertex of B, triangle of A
  std::vector<EdgeEdgeCandidate> edge_edge;                // edge of A, edge of B
  int size() const {
    return static_cast<int>(point_a_triangle_b.size() + point_b_triangle_a.size() +
                            edge_edge.size());
  }
};

/// Pairs whose distance may be below `dhat` (m, >= 0; +inf gives every pair, as the global
/// barrier needs), from the world vertex positions of each mesh. Throws InvalidArgument when a
/// vertex count disagrees with its topology, a position is not finite, or dhat < 0 / NaN.
Candidates FindCandidates(const PointsX3& vertices_a, const SurfaceTopology& a,
                          const PointsX3& vertices_b, const SurfaceTopology& b, double dhat);

/// Exact current distances (m, unsigned) of the candidate pairs, in the order point_a_triangle_b,
/// point_b_triangle_a, edge_edge.
std::vector<double> CandidateDistances(const Candidates& candidates, const PointsX3& vertices_a,
                                       const SurfaceTopology& a, const PointsX3& vertices_b,
                                       const SurfaceTopology& b);

struct StepBound {
  double alpha = 1.0;  // sound step fraction in [0, 1] (0 only if a moving pair touches now)
  double min_distance = std::numeric_limits<double>::infinity();  // m, now, over candidates
  // m; guaranteed lower bound on every inter-mesh pair distance at the step fraction `alpha`
  double distance_lower_bound = std::numeric_limits<double>::infinity();
};

/// The step bound described above. max_displacement_a / _b (m, one per vertex, >= 0) bound how
/// far each vertex moves over the full step, such that it moves at most alpha times as far at
/// fraction alpha (straight-line vertex motion; for a rigid body, |dp| + |dtheta| r_i). `eta`
/// in (0, 1): every pair keeps at least eta times its current distance (candidates) or eta dhat
/// (all other pairs). Throws InvalidArgument for mismatched sizes, negative or non-finite
/// displacements, or eta outside (0, 1).
StepBound ConservativeStepBound(const Candidates& candidates, const PointsX3& vertices_a,
                                const SurfaceTopology& a, const PointsX3& vertices_b,
                                const SurfaceTopology& b, const VecX& max_displacement_a,
                                const VecX& max_displacement_b, double dhat, double eta = 0.1);

}  // namespace arena::ipc
