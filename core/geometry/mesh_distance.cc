// Triangle-triangle and BVH-accelerated mesh-mesh distance with a winding-number sign
// (Ericson 2005, 5.1.11; Jacobson et al. 2013; Van Oosterom & Strackee 1983); see the header.
#include "core/geometry/mesh_distance.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <utility>
#include <vector>

#include "core/common/error.h"

namespace arena {

namespace {

// Penetrations shallower than this fraction of the scene's bounding-box diagonal count as
// touching: far above the round-off of posed coordinates (~1e-16 of their size), far below any
// physical penetration of interest.
constexpr double kDepthResolution = 1e-10;


struct ClosestPair {
  double d2 = kInf;
  Vec3 p = Vec3::Zero(), q = Vec3::Zero();
  void Consider(const Vec3& x, const Vec3& y) {
    const double d = (x - y).squaredNorm();
    if (d < d2) {
      d2 = d;
      p = x;
      q = y;
    }
  }
};

// Closest points of segments p0 p1 and q0 q1. The minimum of the squared distance over the
// unit parameter square is either interior (then it is the lines' closest pair) or on the
// square's boundary (an endpoint of one segment against the other segment); every candidate is
// a feasible pair, so round-off can only make the result slightly too large, never too small.
ClosestPair SegmentSegment(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  ClosestPair best;
  const Vec3 a = p1 - p0, b = q1 - q0;
  best.Consider(p0, q0 + ClosestParameterOnSegment(p0, q0, q1) * b);
  best.Consider(p1, q0 + ClosestParameterOnSegment(p1, q0, q1) * b);
  best.Consider(p0 + ClosestParameterOnSegment(q0, p0, p1) * a, q0);
  best.Consider(p0 + ClosestParameterOnSegment(q1, p0, p1) * a, q1);
  const Vec3 n = a.cross(b);
  const double nu = n.squaredNorm();
  if (nu > 1e-20 * a.squaredNorm() * b.squaredNorm()) {
    // s = ((r x b) . n) / |n|^2 and t = ((r x a) . n) / |n|^2 with r = q0 - p0.
    const Vec3 r = q0 - p0;
    const double s = r.cross(b).dot(n) / nu, t = r.cross(a).dot(n) / nu;
    if (s > 0.0 && s < 1.0 && t > 0.0 && t < 1.0) best.Consider(p0 + s * a, q0 + t * b);
  }
  return best;
}

// Orientation of c relative to the directed line a b, seen along the normal n of their plane.
double Orient(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& n) {
  return (b - a).cross(c - a).dot(n);
}

// Parameter t in [0, 1] of a point where segment p q meets the closed triangle u0 u1 u2, or -1
// when it does not. A segment crossing (or touching) the plane meets it at one point; a segment
// lying in the plane (both signed heights exactly 0) meets it if an end point is inside or it
// crosses an edge (2D orientation tests). Collinear overlaps of a segment with an edge are left
// to the vertex-triangle and edge-edge distances.
double SegmentPierce(const Vec3& p, const Vec3& q, const Vec3& u0, const Vec3& u1, const Vec3& u2) {
  const Vec3 n = (u1 - u0).cross(u2 - u0);
  if (!(n.squaredNorm() > 0.0)) return -1.0;
  const std::array<const Vec3*, 3> u = {&u0, &u1, &u2};
  const auto inside = [&](const Vec3& x) {
    for (int i = 0; i < 3; ++i) {
      if (Orient(*u[i], *u[(i + 1) % 3], x, n) < 0.0) return false;
    }
    return true;
  };
  const double sp = n.dot(p - u0), sq = n.dot(q - u0);
  if ((sp > 0.0 && sq > 0.0) || (sp < 0.0 && sq < 0.0)) return -1.0;
  if (sp == 0.0 && sq == 0.0) {
    if (inside(p)) return 0.0;
    if (inside(q)) return 1.0;
    for (int i = 0; i < 3; ++i) {
      const Vec3& v0 = *u[i];
      const Vec3& v1 = *u[(i + 1) % 3];
      const double op = Orient(v0, v1, p, n), oq = Orient(v0, v1, q, n);
      const double o0 = Orient(p, q, v0, n), o1 = Orient(p, q, v1, n);
      if (op * oq <= 0.0 && o0 * o1 <= 0.0 && op != oq) return op / (op - oq);
    }
    return -1.0;
  }
  const double t = sp / (sp - sq);
  return inside(p + t * (q - p)) ? t : -1.0;
}

double BoxDistance(const Aabb& x, const Aabb& y) {
  return (x.lower - y.upper).cwiseMax(y.lower - x.upper).cwiseMax(0.0).norm();
}

Aabb TriangleBox(const PointsX3& v, const TrianglesX3& t, int i) {
  Aabb box;
  for (int k = 0; k < 3; ++k) box.Extend(PointAt(v, t(i, k)));
  return box;
}

// Mesh A in its frame and mesh B moved into A's frame, with B's BVH node bounds moved too.
struct PosedPair {
  const TriangleMeshData& a;
  const TriangleMeshData& b;
  PointsX3 vb;                      // B's vertices in A's frame
  std::vector<Aabb> node_box_b;     // B's node boxes, boxes of the moved boxes
  std::vector<Vec3> node_center_b;  // B's node sphere centres in A's frame

  PosedPair(const TriangleMeshData& a_in, const TriangleMeshData& b_in, const SE3& X_AB)
      : a(a_in), b(b_in) {
    vb.resize(b.vertices.rows(), 3);
    for (int i = 0; i < b.vertices.rows(); ++i)
      vb.row(i) = X_AB.Act(PointAt(b.vertices, i)).transpose();
    const Mat3 abs_r = X_AB.rotation().cwiseAbs();
    for (const Bvh::Node& node : b.bvh.nodes()) {
      const Vec3 c = X_AB.Act(node.box.Center());
      const Vec3 h = abs_r * node.box.HalfExtents();
      node_box_b.push_back(Aabb{c - h, c + h});
      node_center_b.push_back(X_AB.Act(node.sphere_center));
    }
  }

  double NodeBound(int i, int j) const {
    const Bvh::Node& na = a.bvh.nodes()[i];
    const Bvh::Node& nb = b.bvh.nodes()[j];
    const double sphere =
        (na.sphere_center - node_center_b[j]).norm() - na.sphere_radius - nb.sphere_radius;
    return std::max(BoxDistance(na.box, node_box_b[j]), sphere);
  }
};

// Depth of p (mesh frame) inside the closed mesh: its distance to the surface when the winding
// number says inside, 0 otherwise.
double DepthInside(const TriangleMeshData& mesh, const Vec3& p) {
  if (!mesh.bounds.Contains(p)) return 0.0;
  if (!(std::abs(WindingNumber(mesh.vertices, mesh.triangles, p)) > 0.5)) return 0.0;
  return ClosestPointOnMesh(mesh, p).distance;
}

using EdgeKey = std::pair<int, int>;
EdgeKey Key(int u, int v) { return {std::min(u, v), std::max(u, v)}; }

// Records where the edges of triangle `te` (vertices ve) cross triangle `tt` (vertices vt),
// as parameters along each edge from its lower to its higher vertex index.
void RecordCrossings(const PointsX3& ve, const TrianglesX3& te_tris, int te, const PointsX3& vt,
                     const TrianglesX3& tt_tris, int tt,
                     std::map<EdgeKey, std::vector<double>>* out) {
  for (int k = 0; k < 3; ++k) {
    const EdgeKey key = Key(te_tris(te, k), te_tris(te, (k + 1) % 3));
    const double t = SegmentPierce(PointAt(ve, key.first), PointAt(ve, key.second), PointAt(vt, tt_tris(tt, 0)),
                                   PointAt(vt, tt_tris(tt, 1)), PointAt(vt, tt_tris(tt, 2)));
    if (t >= 0.0) (*out)[key].push_back(t);
  }
}

// The deepest midpoint of the pieces into which the recorded crossings cut each edge (points
// in the `edge_vertices` frame; `to_mesh` maps them into the frame of `mesh`).
double DeepestEdgePiece(const PointsX3& edge_vertices,
                        const std::map<EdgeKey, std::vector<double>>& crossings,
                        const TriangleMeshData& mesh, const SE3& to_mesh) {
  double depth = 0.0;
  for (const auto& [key, ts] : crossings) {
    std::vector<double> cuts = ts;
    cuts.push_back(0.0);
    cuts.push_back(1.0);
    std::sort(cuts.begin(), cuts.end());
    const Vec3 p = PointAt(edge_vertices, key.first), q = PointAt(edge_vertices, key.second);
    for (size_t i = 0; i + 1 < cuts.size(); ++i) {
      if (!(cuts[i + 1] > cuts[i])) continue;
      const double m = 0.5 * (cuts[i] + cuts[i + 1]);
      depth = std::max(depth, DepthInside(mesh, to_mesh.Act(p + m * (q - p))));
    }
  }
  return depth;
}

}  // namespace

std::string_view ToString(MeshContact contact) {
  switch (contact) {
    case MeshContact::kSeparated: return "separated";
    case MeshContact::kTouching: return "touching";
    case MeshContact::kPenetrating: return "penetrating";
  }
  return "?";
}

TrianglePairDistance TriangleTriangleDistance(const Vec3& a0, const Vec3& a1, const Vec3& a2,
                                              const Vec3& b0, const Vec3& b1, const Vec3& b2) {
  const std::array<const Vec3*, 3> a = {&a0, &a1, &a2};
  const std::array<const Vec3*, 3> b = {&b0, &b1, &b2};
  TrianglePairDistance out;
  // An edge of one piercing the other: a common point, distance 0.
  for (int i = 0; i < 3; ++i) {
    const Vec3& p = *a[i];
    const Vec3& q = *a[(i + 1) % 3];
    const double t = SegmentPierce(p, q, b0, b1, b2);
    if (t >= 0.0) {
      out.distance = 0.0;
      out.intersecting = true;
      out.point_a = out.point_b = p + t * (q - p);
      return out;
    }
    const Vec3& r = *b[i];
    const Vec3& s = *b[(i + 1) % 3];
    const double u = SegmentPierce(r, s, a0, a1, a2);
    if (u >= 0.0) {
      out.distance = 0.0;
      out.intersecting = true;
      out.point_a = out.point_b = r + u * (s - r);
      return out;
    }
  }
  ClosestPair best;
  for (int i = 0; i < 3; ++i) {
    best.Consider(*a[i], ClosestPointOnTriangle(*a[i], b0, b1, b2).point);
    best.Consider(ClosestPointOnTriangle(*b[i], a0, a1, a2).point, *b[i]);
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const ClosestPair e = SegmentSegment(*a[i], *a[(i + 1) % 3], *b[j], *b[(j + 1) % 3]);
      best.Consider(e.p, e.q);
    }
  }
  out.distance = std::sqrt(best.d2);
  out.intersecting = best.d2 == 0.0;
  out.point_a = best.p;
  out.point_b = best.q;
  return out;
}

// The solid angle of each triangle seen from p,
// tan(omega / 2) = a . (b x c) / (|a||b||c| + (a.b)|c| + (b.c)|a| + (c.a)|b|).
double WindingNumber(const PointsX3& vertices, const TrianglesX3& triangles, const Vec3& p) {
  double sum = 0.0;
  for (int i = 0; i < triangles.rows(); ++i) {
    const Vec3 a = PointAt(vertices, triangles(i, 0)) - p, b = PointAt(vertices, triangles(i, 1)) - p,
               c = PointAt(vertices, triangles(i, 2)) - p;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    const double num = a.dot(b.cross(c));
    const double den = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
    sum += 2.0 * std::atan2(num, den);
  }
  return sum / (4.0 * std::numbers::pi);
}

double WindingNumber(const TriangleMeshData& mesh, const Vec3& p) {
  return WindingNumber(mesh.vertices, mesh.triangles, p);
}

MeshDistanceResult MeshDistance(const TriangleMeshData& a, const SE3& X_WA,
                                const TriangleMeshData& b, const SE3& X_WB) {
  if (a.bvh.empty() || b.bvh.empty()) {
    throw InvalidArgument(
        "mesh distance: a mesh has no triangles (build it with MakeTriangleMesh)");
  }
  const SE3 X_AB = X_WA.Inverse() * X_WB;
  const PosedPair pair(a, b, X_AB);
  MeshDistanceResult out;
  double best = kInf;
  std::vector<std::pair<int, int>> intersecting;
  // Branch and bound over node pairs. Pruning only when the bound EXCEEDS the best distance
  // keeps every overlapping node pair once the best is 0, so all intersecting pairs are found.
  std::vector<std::pair<int, int>> stack = {{0, 0}};
  while (!stack.empty()) {
    const auto [i, j] = stack.back();
    stack.pop_back();
    if (pair.NodeBound(i, j) > best) continue;
    const Bvh::Node& na = a.bvh.nodes()[i];
    const Bvh::Node& nb = b.bvh.nodes()[j];
    if (na.IsLeaf() && nb.IsLeaf()) {
      for (int ka = na.begin; ka < na.begin + na.count; ++ka) {
        const int ta = a.bvh.primitives()[ka];
        for (int kb = nb.begin; kb < nb.begin + nb.count; ++kb) {
          const int tb = b.bvh.primitives()[kb];
          if (BoxDistance(a.bvh.primitive_box(ta), TriangleBox(pair.vb, b.triangles, tb)) > best) {
            continue;
          }
          const TrianglePairDistance d = TriangleTriangleDistance(
              PointAt(a.vertices, a.triangles(ta, 0)), PointAt(a.vertices, a.triangles(ta, 1)),
              PointAt(a.vertices, a.triangles(ta, 2)), PointAt(pair.vb, b.triangles(tb, 0)),
              PointAt(pair.vb, b.triangles(tb, 1)), PointAt(pair.vb, b.triangles(tb, 2)));
          ++out.pairs_tested;
          if (d.intersecting) intersecting.emplace_back(ta, tb);
          if (d.distance < best || out.triangle_a < 0) {
            best = d.distance;
            out.triangle_a = ta;
            out.triangle_b = tb;
            out.point_a_W = X_WA.Act(d.point_a);
            out.point_b_W = X_WA.Act(d.point_b);
          }
        }
      }
      continue;
    }
    // Split the node that is not a leaf, the larger one when neither is; nearer child first.
    const bool split_a = !na.IsLeaf() && (nb.IsLeaf() || na.sphere_radius >= nb.sphere_radius);
    std::array<std::pair<int, int>, 2> children =
        split_a ? std::array<std::pair<int, int>, 2>{{{na.left, j}, {na.right, j}}}
                : std::array<std::pair<int, int>, 2>{{{i, nb.left}, {i, nb.right}}};
    const double b0 = pair.NodeBound(children[0].first, children[0].second);
    const double b1 = pair.NodeBound(children[1].first, children[1].second);
    if (b0 < b1) std::swap(children[0], children[1]);
    for (const auto& c : children) stack.push_back(c);
  }
  out.surface_distance = best;
  out.intersecting_pairs = static_cast<int>(intersecting.size());

  out.signed_result = IsClosed(a) && IsClosed(b);
  double depth = 0.0;
  if (out.signed_result) {
    // Witnesses: every vertex of each mesh, and the pieces of the edges that cross the other
    // surface; each counts by its depth inside the other mesh.
    const SE3 X_BA = X_AB.Inverse();
    for (int v = 0; v < pair.vb.rows(); ++v)
      depth = std::max(depth, DepthInside(a, PointAt(pair.vb, v)));
    for (int v = 0; v < a.vertices.rows(); ++v) {
      depth = std::max(depth, DepthInside(b, X_BA.Act(PointAt(a.vertices, v))));
    }
    std::map<EdgeKey, std::vector<double>> crossings_a, crossings_b;
    for (const auto& [ta, tb] : intersecting) {
      RecordCrossings(a.vertices, a.triangles, ta, pair.vb, b.triangles, tb, &crossings_a);
      RecordCrossings(pair.vb, b.triangles, tb, a.vertices, a.triangles, ta, &crossings_b);
    }
    depth = std::max(depth, DeepestEdgePiece(a.vertices, crossings_a, b, X_BA));
    depth = std::max(depth, DeepestEdgePiece(pair.vb, crossings_b, a, SE3::Identity()));
  }
  Aabb scene = a.bounds;
  for (int v = 0; v < pair.vb.rows(); ++v) scene.Extend(PointAt(pair.vb, v));
  const double resolution = kDepthResolution * (scene.upper - scene.lower).norm();
  if (depth > resolution) {
    out.contact = MeshContact::kPenetrating;
    out.distance = -depth;
  } else if (!intersecting.empty()) {
    out.contact = MeshContact::kTouching;
    out.distance = 0.0;
  } else {
    out.contact = best > 0.0 ? MeshContact::kSeparated : MeshContact::kTouching;
    out.distance = best;
  }
  return out;
}

}  // namespace arena
