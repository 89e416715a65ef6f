// Contact generation shared by the models that find their own contact points (penalty, nimble),
// written once for any scalar type: `double` for stepping, forward-mode AutoDiff for the
// penalty model's step derivatives.
//
// A kernel takes two colliders A and B with world poses (R_WS, p_WS) and produces contact points
// (p_W, n_W, phi): n_W is the unit normal from A to B (the force on B is along +n_W), phi the
// signed distance (< 0: penetration). Only penetrating points are produced: a penalty force is
// zero outside contact, and an LCP model needs only touching points. The pair table is
// SupportsPair() below; anything else is rejected when the model is built.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "models/point_contact/kernel_geometry.h"
#include "models/point_contact/hull_contacts.h"

namespace arena::contact {

namespace detail {

// Points (with a radius: sphere-swept) of B against the half-space/half-plane A whose outward
// normal is A's local axis `axis` (z for 3D, y for 2D).
template <class T>
void PointsVsHalfSpace(const PoseT<T>& XA, int axis, const PoseT<T>& XB,
                       const Eigen::Matrix<double, Eigen::Dynamic, 3>& points, double radius,
                       std::vector<ContactPointT<T>>* out) {
  const V3<T> n = XA.R.col(axis);
  for (int i = 0; i < points.rows(); ++i) {
    const V3<T> c = XB.Act(points.row(i).transpose());
    const T d = n.dot(c - XA.p) - T(radius);
    if (Val(d) < 0.0) {
      // The half-space pushes B out along its own normal; apply at the mid-penetration point.
      out->push_back({c - (T(radius) + T(0.5) * d) * n, n, d});
    }
  }
}

// Round point (centre c_W, radius r) of B against polytope A (unit normals/offsets in A's frame),
// padded by A.radius (a padded polygon; 0 otherwise): the pair is the point against the core
// polytope with margin A.radius + r. Outside the core: nearest point on it (box: clamp;
// polygon: edges). Inside (or on its boundary): the face of least penetration. The contact
// point is midway between the two padded surfaces along the normal. With
// `skip_core_vertices`, an outside point whose nearest core point is a polygon vertex is left
// out (the polygon-polygon kernel finds those vertex-vertex pairs from the other side).
template <class T>
void RoundVsPolytope(const PoseT<T>& XA, const ColliderGeometry& A, const V3<T>& c_W, double r,
                     std::vector<ContactPointT<T>>* out, bool skip_core_vertices = false) {
  const double margin = A.radius + r;
  const V3<T> x = XA.R.transpose() * (c_W - XA.p);  // centre in A's frame
  // Signed face distances of the centre.
  int best = 0;
  T best_d = T(-1e300);
  bool inside = true;
  for (int i = 0; i < A.normals.rows(); ++i) {
    const T d = A.normals.row(i).cast<T>().dot(x) - T(A.offsets[i]);
    if (Val(d) > 0.0) inside = false;
    if (Val(d) > Val(best_d)) {
      best_d = d;
      best = i;
    }
  }
  const auto face_contact = [&]() {
    const V3<T> n = XA.R * A.normals.row(best).transpose().cast<T>();
    const T phi = best_d - T(margin);
    if (Val(phi) < 0.0) out->push_back({c_W - (T(r) + T(0.5) * phi) * n, n, phi});
  };
  if (inside) {
    face_contact();
    return;
  }
  // Nearest point of the polytope to x: for a box clamp per axis; for a polygon (z = 0) check
  // every edge segment of the vertex loop.
  V3<T> q = x;
  bool at_vertex = false;
  if (A.type == ShapeType::kBox) {
    for (int k = 0; k < 3; ++k) {
      const double h = A.offsets[2 * k];  // normals are +e_k, -e_k in that order
      q[k] = std::clamp(Val(x[k]), -h, h) == Val(x[k]) ? x[k] : T(Val(x[k]) > 0.0 ? h : -h);
    }
  } else {
    T best_sq = T(1e300);
    const int nv = static_cast<int>(A.vertices.rows());
    for (int i = 0; i < nv; ++i) {
      const V3<T> a = A.vertices.row(i).transpose().cast<T>();
      const V3<T> b = A.vertices.row((i + 1) % nv).transpose().cast<T>();
      const V3<T> e = b - a;
      T s = (x - a).dot(e) / e.squaredNorm();
      if (Val(s) < 0.0) s = T(0.0);
      if (Val(s) > 1.0) s = T(1.0);
      const V3<T> cand = a + s * e;
      const T sq = (x - cand).squaredNorm();
      if (Val(sq) < Val(best_sq)) {
        best_sq = sq;
        q = cand;
        at_vertex = Val(s) == 0.0 || Val(s) == 1.0;
      }
    }
  }
  const V3<T> diff = x - q;
  const T dist = diff.norm();
  if (Val(dist) - margin >= 0.0) return;
  if (Val(dist) <= 1e-12) {  // on the core's boundary: no direction from q, use the face
    if (margin > 0.0) face_contact();
    return;
  }
  if (skip_core_vertices && at_vertex) return;
  const V3<T> n = XA.R * (diff / dist);
  const T phi = dist - T(margin);
  out->push_back({c_W - (T(r) + T(0.5) * phi) * n, n, phi});
}

// Vertices of B inside polytope A: each gives a contact on A's face of least penetration.
// A vertex on some of A's face planes (to round-off) is on A's boundary, which a vertex test
// alone reads as no contact; but two equal boxes stacked exactly aligned overlap in a slab whose
// corners are exactly such vertices (each box's corners lie on the other's side planes). So a
// vertex on planes counts as inside, takes the least-penetrated face among those not opposite to
// a plane it lies on (the stack's corner on the side planes x = +h, y = +h: the top face, not
// the far sides), and gives none when no face is left (boxes side by side, touching).
template <class T>
void VerticesInPolytope(const PoseT<T>& XA, const ColliderGeometry& A, const PoseT<T>& XB,
                        const ColliderGeometry& B, double sign,
                        std::vector<ContactPointT<T>>* out) {
  for (int j = 0; j < B.vertices.rows(); ++j) {
    const V3<T> v = XB.Act(B.vertices.row(j).transpose());
    const V3<T> x = XA.R.transpose() * (v - XA.p);
    int best = -1;
    double best_value = -1e300;
    bool inside = true;
    const Vec3 x_value(Val(x[0]), Val(x[1]), Val(x[2]));
    std::array<int, 8> on_plane;  // more planes through one vertex than this: the rest are ignored
    int planes = 0;
    for (int i = 0; i < A.normals.rows() && inside; ++i) {
      const double d = A.normals.row(i).dot(x_value) - A.offsets[i];
      const double tolerance = 1e-12 * (1.0 + std::abs(A.offsets[i]));
      if (d > tolerance) inside = false;
      if (std::abs(d) <= tolerance && planes < static_cast<int>(on_plane.size())) on_plane[planes++] = i;
    }
    if (!inside) continue;
    for (int i = 0; i < A.normals.rows(); ++i) {
      bool excluded = false;
      for (int p = 0; p < planes; ++p) {
        const int k = on_plane[p];
        excluded = excluded || k == i || A.normals.row(i).dot(A.normals.row(k)) < -1.0 + 1e-9;
      }
      if (excluded) continue;
      const double d = A.normals.row(i).dot(x_value) - A.offsets[i];
      if (d > best_value) {
        best_value = d;
        best = i;
      }
    }
    if (best < 0) continue;
    // The face is chosen on values; only its depth carries derivatives.
    const T best_d = A.normals.row(best).cast<T>().dot(x) - T(A.offsets[best]);
    const V3<T> n = XA.R * A.normals.row(best).transpose().cast<T>();
    out->push_back({v - T(0.5) * best_d * n, T(sign) * n, best_d});
  }
}

// Padded polytopes (padded polygons): the cores' corners as round points of their own padding
// radius against the other padded core. Each corner within the combined margin of the other
// core gives a contact, so this also acts before the cores touch. A corner nearest to a corner of
// the other core is taken from B's side only (one contact per vertex-vertex pair).
template <class T>
void PaddedVerticesVsPolytope(const PoseT<T>& XA, const ColliderGeometry& A, const PoseT<T>& XB,
                              const ColliderGeometry& B, std::vector<ContactPointT<T>>* out) {
  for (int j = 0; j < B.vertices.rows(); ++j) {  // B's corners against A: normal out of A
    RoundVsPolytope(XA, A, XB.Act(B.vertices.row(j).transpose()), B.radius, out);
  }
  const size_t first = out->size();
  for (int j = 0; j < A.vertices.rows(); ++j) {  // A's corners against B: out of B, flipped
    RoundVsPolytope(XB, B, XA.Act(A.vertices.row(j).transpose()), A.radius, out,
                    /*skip_core_vertices=*/true);
  }
  for (size_t i = first; i < out->size(); ++i) (*out)[i].n_W = -(*out)[i].n_W;
}

template <class T>
void RoundVsRound(const V3<T>& cA, double rA, const V3<T>& cB, double rB,
                  std::vector<ContactPointT<T>>* out) {
  const V3<T> d = cB - cA;
  const T dist = d.norm();
  if (Val(dist) - rA - rB >= 0.0 || Val(dist) <= 1e-12) return;
  const V3<T> n = d / dist;
  const T phi = dist - T(rA + rB);
  out->push_back({cA + (T(rA) + T(0.5) * phi) * n, n, phi});
}

// Closest points of segments p0-p1 and q0-q1 (Ericson, "Real-Time Collision Detection",
// 5.1.9): the parameters are clamped by branches decided on the values, so each branch is a
// closed form in T and AD differentiates it exactly. Parallel segments: s = 0 (any pair of
// closest points would do).
template <class T>
void SegmentParameters(const V3<T>& p0, const V3<T>& p1, const V3<T>& q0, const V3<T>& q1, T* s_out,
                       T* t_out) {
  const V3<T> d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const T a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  const T c = d1.dot(r), b = d1.dot(d2);
  const T den = a * e - b * b;
  const auto clamp01 = [](const T& x) { return Val(x) < 0.0 ? T(0.0) : (Val(x) > 1.0 ? T(1.0) : x); };
  constexpr double kPoint = 1e-24;  // squared length (m^2) of a segment that is a point
  T s(0.0), t(0.0);
  if (Val(a) <= kPoint || Val(e) <= kPoint) {  // a zero-length capsule core is a point
    if (Val(e) > kPoint) t = clamp01(f / e);
    if (Val(a) > kPoint) s = clamp01(-c / a);
  } else {
    if (Val(den) > 1e-12 * Val(a) * Val(e)) s = clamp01((b * f - c * e) / den);
    t = (b * s + f) / e;
    if (Val(t) < 0.0) {
      t = T(0.0);
      s = clamp01(-c / a);
    } else if (Val(t) > 1.0) {
      t = T(1.0);
      s = clamp01((b - c) / a);
    }
  }
  *s_out = s;
  *t_out = t;
}

template <class T>
void ClosestPointsOfSegments(const V3<T>& p0, const V3<T>& p1, const V3<T>& q0, const V3<T>& q1,
                             V3<T>* cp, V3<T>* cq) {
  T s, t;
  SegmentParameters(p0, p1, q0, q1, &s, &t);
  *cp = p0 + s * (p1 - p0);
  *cq = q0 + t * (q1 - q0);
}

// A capsule (core q0-q1, radius r) against box A: each end of the core as a ball against the box;
// and each box edge whose closest point to the core is inside both segments, within r (a capsule
// lying across an edge, or bridging a face from edge to edge), as two segments. A core that
// passes through the box with both ends outside is not looked for.
template <class T>
void CapsuleVsBox(const PoseT<T>& XA, const ColliderGeometry& A, const V3<T>& q0, const V3<T>& q1,
                  double r, std::vector<ContactPointT<T>>* out) {
  RoundVsPolytope(XA, A, q0, r, out);
  RoundVsPolytope(XA, A, q1, r, out);
  const Vec3 h(A.offsets[0], A.offsets[2], A.offsets[4]);
  const auto value = [](const V3<T>& x) { return Vec3(Val(x[0]), Val(x[1]), Val(x[2])); };
  const M3<T> Rt = XA.R.transpose();
  const Vec3 l0 = value(Rt * (q0 - XA.p)), l1 = value(Rt * (q1 - XA.p));  // the core, box frame
  for (int edge = 0; edge < 12; ++edge) {  // along axis k = edge / 4, the other signs from edge % 4
    const int k = edge / 4, i = (k + 1) % 3, j = (k + 2) % 3;
    Vec3 e0 = Vec3::Zero();
    e0[i] = edge & 1 ? h[i] : -h[i];
    e0[j] = edge & 2 ? h[j] : -h[j];
    e0[k] = -h[k];
    Vec3 e1 = e0;
    e1[k] = h[k];
    double s, t;
    SegmentParameters<double>(l0, l1, e0, e1, &s, &t);
    if (s <= 0.0 || s >= 1.0 || t <= 0.0 || t >= 1.0) continue;  // an end: the balls above
    const Vec3 x = l0 + s * (l1 - l0);
    if ((x.cwiseAbs() - h).maxCoeff() <= 0.0) continue;  // the core inside the box
    if ((x - (e0 + t * (e1 - e0))).norm() >= r) continue;
    V3<T> cp, cq;
    ClosestPointsOfSegments<T>(XA.Act(e0), XA.Act(e1), q0, q1, &cp, &cq);
    RoundVsRound<T>(cp, 0.0, cq, r, out);
  }
}

inline bool IsHalf(ShapeType t) { return t == ShapeType::kHalfSpace || t == ShapeType::kHalfPlane2; }
inline bool IsPolytope(ShapeType t) { return t == ShapeType::kBox || t == ShapeType::kPolygon2; }
inline bool IsRound(ShapeType t) { return t == ShapeType::kSphere || t == ShapeType::kDisk2; }
inline bool IsSegment(ShapeType t) { return t == ShapeType::kCapsule || t == ShapeType::kCapsule2; }
inline bool IsVertexCloud(ShapeType t) { return t == ShapeType::kMesh || t == ShapeType::kConvexHull; }

// Kernel for an ordered pair the table supports directly (A is the "simpler" side).
template <class T>
bool OrderedContacts(const ColliderGeometry& A, const PoseT<T>& XA, const ColliderGeometry& B,
                     const PoseT<T>& XB, std::vector<ContactPointT<T>>* out) {
  const ShapeType a = A.type, b = B.type;
  if (IsHalf(a)) {
    if (IsHalf(b)) return false;
    const int axis = a == ShapeType::kHalfSpace ? 2 : 1;
    const auto& pts = B.centres.rows() > 0 ? B.centres : B.vertices;
    PointsVsHalfSpace(XA, axis, XB, pts, B.radius, out);
    return true;
  }
  if (IsRound(a) && IsRound(b)) {
    RoundVsRound<T>(XA.p, A.radius, XB.p, B.radius, out);
    return true;
  }
  if (a == ShapeType::kBox && b == ShapeType::kCapsule) {
    CapsuleVsBox(XA, A, XB.Act(B.centres.row(0).transpose()), XB.Act(B.centres.row(1).transpose()), B.radius, out);
    return true;
  }
  if ((IsRound(a) || IsSegment(a)) && IsSegment(b)) {
    // Sphere-capsule and capsule-capsule: the closest points of their cores (a sphere's is a
    // segment of zero length), as two balls.
    const int last = static_cast<int>(A.centres.rows()) - 1;
    V3<T> cp, cq;
    ClosestPointsOfSegments<T>(XA.Act(A.centres.row(0).transpose()), XA.Act(A.centres.row(last).transpose()),
                               XB.Act(B.centres.row(0).transpose()), XB.Act(B.centres.row(1).transpose()), &cp, &cq);
    RoundVsRound<T>(cp, A.radius, cq, B.radius, out);
    return true;
  }
  if (IsPolytope(a) && IsRound(b)) {
    RoundVsPolytope(XA, A, XB.p, B.radius, out);
    return true;
  }
  if (a == ShapeType::kBox && IsVertexCloud(b)) {
    // A mesh or hull against a box (a robot's foot on a ground box): B's vertices inside the
    // box, each on the box face it penetrates least (vertex-face contacts); a padded hull's
    // vertices as balls of its padding radius. Then the box's corners inside B's hull, on
    // the hull's facet of least penetration (a box landing on a link whose top face has its
    // vertices on its rim only).
    if (B.radius == 0.0) {
      VerticesInPolytope(XA, A, XB, B, 1.0, out);
    } else {
      for (int j = 0; j < B.vertices.rows(); ++j) {
        RoundVsPolytope(XA, A, XB.Act(B.vertices.row(j).transpose()), B.radius, out);
      }
    }
    if (B.hull) VerticesInFacets(XB, B, XA, A.vertices, 0.0, -1.0, out);
    return true;
  }
  if (IsVertexCloud(a) && IsVertexCloud(b)) {
    HullContacts(A, XA, B, XB, out);
    return true;
  }
  if (IsPolytope(a) && IsPolytope(b)) {
    if (A.radius > 0.0 || B.radius > 0.0) {
      PaddedVerticesVsPolytope(XA, A, XB, B, out);
      return true;
    }
    VerticesInPolytope(XA, A, XB, B, 1.0, out);   // B's corners in A: normal out of A
    VerticesInPolytope(XB, B, XA, A, -1.0, out);  // A's corners in B: normal out of B, flipped
    return true;
  }
  return false;
}

}  // namespace detail

/// Contacts between colliders A and B (normals from A to B). Returns false for an
/// unsupported pair.
template <class T>
bool Contacts(const ColliderGeometry& A, const PoseT<T>& XA, const ColliderGeometry& B,
              const PoseT<T>& XB, std::vector<ContactPointT<T>>* out) {
  if (detail::OrderedContacts(A, XA, B, XB, out)) return true;
  const size_t first = out->size();
  if (!detail::OrderedContacts(B, XB, A, XA, out)) return false;
  for (size_t i = first; i < out->size(); ++i) (*out)[i].n_W = -(*out)[i].n_W;
  return true;
}

// Instantiated once, in contact_kernels_double.cc, rather than in every unit that calls it (the
// forward-mode AD instantiations are declared beside their seeds, in pose_twist_ad.h).
extern template bool Contacts<double>(const ColliderGeometry&, const PoseT<double>&,
                                      const ColliderGeometry&, const PoseT<double>&,
                                      std::vector<ContactPointT<double>>*);

}  // namespace arena::contact
