// Distance and penetration between convex shapes.
//
// GJK (Gilbert, Johnson & Keerthi, "A fast procedure for computing the distance between complex
// objects in three-dimensional space", IEEE J. Robotics & Automation 1988) iterates on simplices
// of the Minkowski difference M = A - B, with van den Bergen's termination test
// (|v| - max_k v.w_k / |v| <= abs_tolerance + rel_tolerance |v|, "A fast and robust GJK
// implementation for collision detection of convex objects", J. Graphics Tools 1999); the
// closest point of a simplex to the origin is found by Voronoi regions (Ericson, "Real-Time
// Collision Detection", 5.1.5-5.1.6). When A and B overlap, EPA (van den Bergen, "Proximity
// queries and penetration depth computation on 3D game objects", GDC 2001) grows a polytope
// inside M from GJK's final simplex until the face nearest the origin is within tolerance of the
// boundary of M: that distance is the penetration depth and the face normal its direction.
//
// Sphere, Capsule, Disk2, Capsule2 and a padded Polygon2 are run as their core (a point, a
// segment, the unpadded polygon) with a radius: d(A, B) = d(core A, core B) - r_A - r_B holds
// for separation and penetration alike, which keeps curved margins exact and GJK/EPA on
// polytopal cores finite. When M is flat or lower-dimensional (crossing segments, a point on a
// segment) the core depth is exactly 0 and the normal is a normal of M's affine hull.
//
// Accuracy. Every iterative result carries a bracket, certified up to roundoff: GJK's |v| is
// the distance of two actual points and max_k v_k . w_k / |v_k| a lower bound; EPA's nearest
// face distance is a lower bound (its polytope lies inside M) and h(n) = max_{x in M} n . x an
// upper bound for every unit n. error_bound is the width of that bracket. On polytopes both methods
// end exactly; on curved boundaries the distance converges to the tolerance (or stalls in floating
// point, with the bracket typically below 1e-9 m), while the normal and the witnesses are only
// accurate to about the square root of it, since the distance is quadratic in the normal's error.
// When EPA misses its tolerance (curved boundaries), the depth is polished by a fixed-point
// iteration on the contact normal (PolishDepth3 in epa_polish.cc) and reported as the distance
// to the nearest boundary point of A - B found, an upper bound whose witnesses lie along the
// normal; status kStalled / kMaxIterations then flag a bracket wider than the tolerance
// (error_bound says how wide; seen up to ~1e-3 of the depth in deep, symmetric overlaps of curved
// shapes, where the optimal normal is not unique and EPA's lower bound converges slowly).
//
// 2D shapes live in the xy-plane of their frame; their poses must rotate about z (checked), the
// translation's z is ignored, and results are reported at z = 0.
#pragma once

#include <limits>
#include <string>
#include <string_view>

#include "core/geometry/shape.h"
#include "core/math/se3.h"

namespace arena {

enum class DistanceStatus {
  kNotComputed,    // sentinel of a default-constructed result
  kClosedForm,     // exact formula, no iteration
  kConverged,      // iterative method met its tolerance (or ended exactly on a polytope vertex)
  kStalled,        // no further progress in floating point; result is the best iterate
  kMaxIterations,  // iteration cap reached; result is the best iterate
};
std::string_view ToString(DistanceStatus status);
bool FromString(std::string_view text, DistanceStatus* status);

struct GjkOptions {
  int max_iterations = 128;      // GJK support evaluations
  double abs_tolerance = 1e-12;  // m: GJK stops when (upper - lower bound) <= abs + rel * d
  double rel_tolerance = 1e-12;  // -
  int epa_max_iterations = 256;  // EPA polytope expansions
  // EPA stops when (support - face distance) <= abs + rel * depth.
  double epa_abs_tolerance = 1e-12;  // m
  double epa_rel_tolerance = 1e-10;  // -

  template <class V>
  void VisitFields(V&& v) {
    v("max_iterations", max_iterations, "GJK iteration cap", "");
    v("abs_tolerance", abs_tolerance, "GJK absolute distance tolerance", "m");
    v("rel_tolerance", rel_tolerance, "GJK relative distance tolerance", "");
    v("epa_max_iterations", epa_max_iterations, "EPA iteration cap", "");
    v("epa_abs_tolerance", epa_abs_tolerance, "EPA absolute depth tolerance", "m");
    v("epa_rel_tolerance", epa_rel_tolerance, "EPA relative depth tolerance", "");
  }
  /// Empty when valid.
  std::string Validate() const;
};

struct GjkResult {
  double distance = std::numeric_limits<double>::quiet_NaN();  // m, >= 0; 0 when intersecting
  Vec3 p_WA = Vec3::Zero();                                    // closest point on A (world)
  Vec3 p_WB = Vec3::Zero();                                    // closest point on B (world)
  bool intersecting = false;  // A and B overlap (or touch within tolerance)
  double error_bound = std::numeric_limits<double>::quiet_NaN();  // m: |distance - exact| <= this
  int iterations = 0;
  DistanceStatus status = DistanceStatus::kNotComputed;
};

/// Signed distance with witnesses: p_WB - p_WA = distance * normal_W.
struct SignedDistanceResult {
  double distance = std::numeric_limits<double>::quiet_NaN();  // m; < 0: minus the depth
  Vec3 p_WA = Vec3::Zero();      // witness on A: its point deepest in B when penetrating
  Vec3 p_WB = Vec3::Zero();      // witness on B
  Vec3 normal_W = Vec3::Zero();  // unit, from A to B (moving B along it separates the pair)
  double error_bound = std::numeric_limits<double>::quiet_NaN();  // m: |distance - exact| <= this
  int iterations = 0;  // GJK + EPA iterations (0 for closed forms)
  DistanceStatus status = DistanceStatus::kNotComputed;
};

/// GJK distance between two bounded convex shapes, both 3D or both 2D (dispatches on IsPlanar).
/// Throws InvalidArgument for half-spaces/half-planes, mixed 2D/3D pairs, invalid options, or a
/// 2D pose that does not rotate about z.
GjkResult GjkDistance(const Shape& a, const SE3& X_WA, const Shape& b, const SE3& X_WB,
                      const GjkOptions& options = {});

/// GJK, then EPA when the shapes overlap: signed distance, witnesses and unit normal from A to B.
/// Same shapes and errors as GjkDistance. Finite output on degenerate input (touching faces,
/// parallel edges, coincident points); every loop is capped.
SignedDistanceResult ConvexSignedDistance(const Shape& a, const SE3& X_WA, const Shape& b,
                                          const SE3& X_WB, const GjkOptions& options = {});

}  // namespace arena
