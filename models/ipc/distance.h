// Squared distances between the primitives of IPC's contact pairs, with exact gradients and
// Hessians with respect to the stacked vertex world positions (Li et al., "Incremental Potential
// Contact", SIGGRAPH 2020, Sec. 4: the barrier acts on point-triangle and edge-edge distances,
// each computed by classifying the closest-feature pair and using that pair's smooth formula).
//
// Every distance here is SQUARED (m^2), as IPC's reference implementation uses: the squared
// formulas are polynomial-over-polynomial, so their derivatives need no square roots and stay
// bounded where the distance vanishes.
//
// The pieces, each one smooth formula (its own gradient and Hessian):
//   point-point   |p0 - p1|^2
//   point-line    |(e0 - p) x (e1 - p)|^2 / |e1 - e0|^2
//   point-plane   ((p - t0) . n)^2 / |n|^2,           n = (t1 - t0) x (t2 - t0)
//   line-line     ((eb0 - ea0) . n)^2 / |n|^2,        n = (ea1 - ea0) x (eb1 - eb0)
// and the piecewise distances built from them by classification:
//   point-edge      3 types (closest to e0, to e1, or to the edge's interior)
//   point-triangle  7 types (3 vertices, 3 edges, the face)
//   edge-edge       9 types (4 vertex pairs, 4 vertex-edge pairs, the two interiors)
// The piecewise distance equals the exact Euclidean squared distance between the primitives;
// its derivatives are those of the selected piece (the classification is held fixed, as IPC
// does; the squared distance is C1 across type boundaries, not C2).
//
// Nearly parallel edges: the line-line formula divides by |ea x eb|^2. When
// |ea x eb|^2 <= kParallelThreshold |ea|^2 |eb|^2 the pair is classified among the four
// vertex-edge pieces only (the segment distance of parallel segments is always attained at an
// endpoint). That overestimates the squared distance by at most 4 kParallelThreshold
// |ea|^2 |eb|^2 / (|ea|^2 + |eb|^2): the squared distance is a quadratic in the two segment
// parameters whose smallest Hessian eigenvalue is at most 4 |ea x eb|^2 / (|ea|^2 + |eb|^2), and
// a boundary point of the unit parameter square lies within sqrt(2) of its minimiser along that
// flattest direction.
// IPC's mollifier (barrier.h) then damps the edge-edge potential of such pairs to zero.
#pragma once

#include <string_view>

#include <Eigen/Core>

#include "core/math/types.h"

namespace arena::ipc {

using Vec9 = Eigen::Matrix<double, 9, 1>;
using Vec12 = Eigen::Matrix<double, 12, 1>;
using Mat9 = Eigen::Matrix<double, 9, 9>;
using Mat12 = Eigen::Matrix<double, 12, 12>;

/// sin^2 of the angle between two edges below which they count as parallel (see above).
inline constexpr double kParallelThreshold = 1e-20;
/// |n|^2 <= kDegenerateTriangleThreshold * (longest edge)^4 marks a zero-area triangle, which
/// has no face region (its distance is that of its nearest edge).
inline constexpr double kDegenerateTriangleThreshold = 1e-20;

/// Closest features of a point and a segment e0 e1.
enum class PointEdgeType { kVertex0, kVertex1, kInterior };
/// Closest feature of triangle t0 t1 t2 to a point. kEdge01 is the edge t0 t1, etc.
enum class PointTriangleType {
  kVertex0,
  kVertex1,
  kVertex2,
  kEdge01,
  kEdge12,
  kEdge20,
  kFace,
};
/// Closest features of segments a = ea0 ea1 and b = eb0 eb1: a vertex pair (kA0B1: ea0 and
/// eb1), a vertex and the other edge's interior (kA0EdgeB: ea0 and the interior of b), or both
/// interiors (kEdgeEdge, the line-line formula).
enum class EdgeEdgeType {
  kA0B0,
  kA0B1,
  kA1B0,
  kA1B1,
  kA0EdgeB,
  kA1EdgeB,
  kB0EdgeA,
  kB1EdgeA,
  kEdgeEdge,
};
std::string_view ToString(PointEdgeType type);
std::string_view ToString(PointTriangleType type);
std::string_view ToString(EdgeEdgeType type);

// ---- The smooth pieces. Gradient / Hessian are optional (null: not computed); they are with
// ---- respect to the arguments stacked in order (p0 then p1, ...).

/// |p0 - p1|^2; gradient 6, Hessian 6x6.
double PointPointSquaredDistance(const Vec3& p0, const Vec3& p1, Vec6* gradient = nullptr,
                                 Mat6* hessian = nullptr);
/// Squared distance from p to the infinite line through e0 and e1 (e0 != e1); gradient 9,
/// Hessian 9x9 in (p, e0, e1).
double PointLineSquaredDistance(const Vec3& p, const Vec3& e0, const Vec3& e1,
                                Vec9* gradient = nullptr, Mat9* hessian = nullptr);
/// Squared distance from p to the plane through t0, t1, t2 (non-degenerate); gradient 12,
/// Hessian 12x12 in (p, t0, t1, t2).
double PointPlaneSquaredDistance(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                 Vec12* gradient = nullptr, Mat12* hessian = nullptr);
/// Squared distance between the infinite lines through ea0 ea1 and eb0 eb1 (not parallel);
/// gradient 12, Hessian 12x12 in (ea0, ea1, eb0, eb1).
double LineLineSquaredDistance(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                               Vec12* gradient = nullptr, Mat12* hessian = nullptr);
/// |(ea1 - ea0) x (eb1 - eb0)|^2, the argument of IPC's edge-edge mollifier; gradient 12,
/// Hessian 12x12 in (ea0, ea1, eb0, eb1).
double EdgeEdgeCrossSquaredNorm(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                Vec12* gradient = nullptr, Mat12* hessian = nullptr);

// ---- Classification (closest-feature pair). Ties go to the first type in declaration order.

PointEdgeType ClassifyPointEdge(const Vec3& p, const Vec3& e0, const Vec3& e1);
PointTriangleType ClassifyPointTriangle(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                        const Vec3& t2);
EdgeEdgeType ClassifyEdgeEdge(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);

// ---- Piecewise distances: the piece selected by `type` (classified when omitted).

/// Squared distance from p to segment e0 e1; gradient 9, Hessian 9x9 in (p, e0, e1).
double PointEdgeSquaredDistance(const Vec3& p, const Vec3& e0, const Vec3& e1, PointEdgeType type,
                                Vec9* gradient = nullptr, Mat9* hessian = nullptr);
double PointEdgeSquaredDistance(const Vec3& p, const Vec3& e0, const Vec3& e1,
                                Vec9* gradient = nullptr, Mat9* hessian = nullptr);

/// Squared distance from p to triangle t0 t1 t2; gradient 12, Hessian 12x12 in (p, t0, t1, t2).
double PointTriangleSquaredDistance(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                    PointTriangleType type, Vec12* gradient = nullptr,
                                    Mat12* hessian = nullptr);
double PointTriangleSquaredDistance(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                    Vec12* gradient = nullptr, Mat12* hessian = nullptr);

/// Squared distance between segments ea0 ea1 and eb0 eb1; gradient 12, Hessian 12x12 in
/// (ea0, ea1, eb0, eb1).
double EdgeEdgeSquaredDistance(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                               EdgeEdgeType type, Vec12* gradient = nullptr,
                               Mat12* hessian = nullptr);
double EdgeEdgeSquaredDistance(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                               Vec12* gradient = nullptr, Mat12* hessian = nullptr);

/// Closest points of the classified pair (used for friction's lagged contact frame):
/// the point on the second primitive, written as weights on the stencil's four vertices so
/// that first-primitive point - second-primitive point = sum_k weights[k] x_k.
/// Point-triangle stencil: (p, t0, t1, t2), weights (1, -b0, -b1, -b2) with b the closest
/// point's barycentric coordinates. Edge-edge stencil: (ea0, ea1, eb0, eb1), weights
/// (1 - s, s, -(1 - t), -t) with s, t the closest points' parameters on a and b.
Vec4 PointTriangleClosestWeights(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                 PointTriangleType type);
Vec4 EdgeEdgeClosestWeights(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                            EdgeEdgeType type);

}  // namespace arena::ipc
