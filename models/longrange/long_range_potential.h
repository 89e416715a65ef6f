// The long-range contact potential between two rigid triangle meshes, after Ye et al.,
// "Efficient Differentiable Contact Model with Long-Range Influence" (arXiv 2509.20917).
//
// The pieces (models/longrange/):
//   triangle_pair_potential   P_ij = min_p L_ij(p), the exact separating-plane potential of one
//                             triangle pair (Sec. 4, the terms of Eq. 3), its gradient by the
//                             envelope theorem and its exact Hessian by the implicit function
//                             theorem (Schur complement).
//   centered_potential        P_c = 12 (1 + r^{-1/2})^2 between two centres (Eq. 5, 7) and the
//                             C2 quintic blend phi (Eq. 4).
//   bounding_sphere_hierarchy the layered BSH of one body (Def. 5.3), centres at vertex means.
//   long_range_potential      (this file) Algorithm 1, PROCESS_PAIR, over two hierarchies:
//       d1 = R_I + R_J, d2 = (1 + eps) d1, r = |x_I - x_J|;
//       r > d2:              P_BSH = P_c(I, J)
//       two leaves:          P_BSH = (1 - phi) P_ij + phi P_c          (Eq. 6)
//       otherwise:           P_BSH = (1 - phi) sum_{C(I) x C(J)} P_BSH + phi P_c   (Eq. 8)
//     (a leaf's only child is itself); derivatives go through the blend with its phi' and phi''
//     terms (Eq. 9 and its derivative). Theorem 5.4: P is a barrier (+inf exactly when two
//     triangles of different bodies meet), C2, non-prehensile and non-vanishing for eps > 0.
//
// The potential between a scene's bodies is the sum of this over pairs of distinct bodies (a
// body is never evaluated against itself); the incremental-potential step minimises
// I + mu P + D (Sec. 3.1) and needs P, dP/dx and d2P/dx2.
//
// Output format. The gradient is dense per body (N_a x 3 and N_b x 3, world vertices). The
// Hessian is a list of 3x3 blocks between POINTS of the pair, duplicates to be summed, where a
// point is a vertex or a BSH node centre (PairPoints gives the numbering). A node point stands
// for the mean of the node's vertices: a block B between nodes I and J is B / (|I| |J|) on every
// vertex pair of I x J (ExpandHessian does this). Far-field terms thus cost 4 blocks instead of
// |I| |J|. For rigid bodies the centre moves as a body point, so an incremental-potential solver
// projects a block between points p (body A) and q (body B) as J_p^T B J_q with J_p the 3x6
// Jacobian of the world point p = PointPosition(...) with respect to A's twist, exactly as for a
// vertex.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/SparseCore>

#include "models/longrange/bounding_sphere_hierarchy.h"
#include "models/longrange/triangle_pair_potential.h"

namespace arena::longrange {

struct LongRangeOptions {
  // Blending margin of Eq. 6 and 8, d2 = (1 + eps) d1; Theorem 5.4 needs eps > 0. The authors'
  // code uses 0.01.
  double eps = 0.01;  // dimensionless
  // Eq. 3 by brute force: the exact P_ij of every triangle pair, no hierarchy and no blending
  // (the validation and scaling reference).
  bool brute_force = false;
  DerivativeOrder derivatives = DerivativeOrder::kHessian;
  // Derivatives with respect to body a's (b's) points. False for a body that never moves (the
  // static environment): its gradient is left zero and no Hessian block has one of its points,
  // which drops 27 of an exact triangle pair's 36 blocks against it. The value is unchanged.
  bool derivatives_a = true;
  bool derivatives_b = true;
  // Start each exact pair solve from that pair's plane of the previous call with the same
  // LongRangeData (when still feasible). Keep one LongRangeData per body pair for this to help.
  // P is unique, so this changes results only within the solve tolerance; off by default so
  // that outputs do not depend on call history.
  bool warm_start = false;
  TrianglePairOptions pair;  // the inner 4D Newton solve
  /// Empty if valid, else the first problem found.
  std::string Validate() const;
};

enum class LongRangeStatus {
  kOk,                // finite value; every pair solve converged
  kPairNotConverged,  // finite value; some pair solve stopped early (see stats)
  kIntersecting,      // two triangles intersect or touch: value +inf, no derivatives
};
std::string_view ToString(LongRangeStatus status);

struct LongRangeStats {
  int node_pairs = -1;          // PROCESS_PAIR calls
  int centered_terms = -1;      // pairs with r > d2 (the far field, P_c only)
  int exact_pairs = -1;         // exact P_ij solves
  int blended_pairs = -1;       // pairs with d1 < r <= d2 (0 < phi < 1 or at its ends)
  long newton_iterations = -1;  // summed over the exact solves
  int max_newton_iterations = -1;
  int unconverged_pairs = -1;  // exact solves with a status other than converged
  int hessian_blocks = -1;     // size of the Hessian block list
  void Reset();
};

/// One 3x3 block of the Hessian between two points of the pair (see PairPoints).
struct HessianBlock {
  int row = 0;
  int col = 0;
  Mat3 block = Mat3::Zero();
};

/// Point numbering of a pair's outputs: body a's vertices, body a's nodes, body b's vertices,
/// body b's nodes.
struct PairPoints {
  int vertices_a = 0, nodes_a = 0, vertices_b = 0, nodes_b = 0;
  int VertexA(int v) const { return v; }
  int NodeA(int k) const { return vertices_a + k; }
  int VertexB(int v) const { return vertices_a + nodes_a + v; }
  int NodeB(int k) const { return vertices_a + nodes_a + vertices_b + k; }
  int size() const { return vertices_a + nodes_a + vertices_b + nodes_b; }
};

/// Outputs of ComputeLongRangePotential and its reusable scratch (allocations happen only
/// while buffers grow).
struct LongRangeData {
  LongRangeStatus status = LongRangeStatus::kOk;
  // P between the two bodies.
  double value = std::numeric_limits<double>::quiet_NaN();
  // dP / d(world vertices): N_a x 3 and N_b x 3.
  PointsX3 gradient_a;
  PointsX3 gradient_b;
  // Point blocks (see the file comment), duplicates to be summed.
  std::vector<HessianBlock> hessian;
  PairPoints points;
  LongRangeStats stats;

  // Scratch.
  struct GradientEntry {
    int point = 0;
    Vec3 g = Vec3::Zero();
  };
  std::vector<GradientEntry> gradient_log;
  std::vector<Vec3> point_sum;
  std::vector<int> point_slot;
  std::vector<int> touched;
  MatX brute_hessian;
  TrianglePairResult pair_result;
  // Warm-start planes by (triangle of a, triangle of b): open addressing, linear probing.
  struct PlaneSlot {
    std::uint64_t key = ~std::uint64_t{0};  // empty
    Vec4 plane = Vec4::Zero();
  };
  std::vector<PlaneSlot> plane_slots;
  int plane_count = 0;
  /// The warm-start plane slot of a triangle pair (NaN when new); valid until the next call.
  Vec4* PlaneOf(int triangle_a, int triangle_b);
};

/// P between bodies a and b (Algorithm 1 from the two roots, or Eq. 3 by brute force), with the
/// derivatives options.derivatives asks for. Poses come from PoseFromVertices or PoseRigid.
/// Never throws for geometric reasons; throws InvalidArgument for invalid options or poses that
/// do not match their hierarchies.
LongRangeStatus ComputeLongRangePotential(const BoundingSphereHierarchy& bsh_a,
                                          const BshPose& pose_a,
                                          const BoundingSphereHierarchy& bsh_b,
                                          const BshPose& pose_b, const LongRangeOptions& options,
                                          LongRangeData* data);

/// World position of a point of the pair (a vertex or a node centre).
Vec3 PointPosition(const PairPoints& points, const BshPose& pose_a, const BshPose& pose_b,
                   int point);

/// The Hessian over the world vertex coordinates, 3 (N_a + N_b) square (body a first): each
/// node point expanded to its vertices with weight 1/|I|. For tests and small problems; a rigid
/// solver should project the point blocks directly.
Eigen::SparseMatrix<double> ExpandHessian(const BoundingSphereHierarchy& bsh_a,
                                          const BoundingSphereHierarchy& bsh_b,
                                          const std::vector<HessianBlock>& blocks);

}  // namespace arena::longrange
