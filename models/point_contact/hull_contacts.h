// Contact between two convex hulls (ConvexHull colliders, and TriangleMesh colliders taken as the
// hull of their vertices, as MuJoCo collides mesh pairs): the kernel of the hull-hull,
// hull-mesh and mesh-mesh pairs of the penalty and nimble models (models/point_contact/contact_kernels.h).
//
// Generation has a discrete part, decided on the poses' values, and a smooth part written for any
// scalar type, so that forward-mode AD of one kernel run differentiates the contact points exactly
// on a piece where the discrete choices hold (the models' analytical Jacobians rely on it):
//   1. Culling: bounding spheres, then GJK on the two hulls; a separated pair has no contact
//      (EPA runs only in step 3, the one step that needs a penetration normal).
//   2. Vertex-face contacts: every vertex of B inside A's hull is pushed out of A's facet of least
//      penetration, and every vertex of A inside B's hull out of B's (the box-box rule,
//      generalised to the hulls' facet planes). A mesh contributes all its vertices, as it does
//      against a half-space or a box, so that a flat face resting on another is held at each of
//      its vertices and not only at the hull's corners.
//   3. Crossing features: when the hulls overlap but no vertex of either is inside the other (two
//      edges crossing), EPA's normal picks the supporting features. Two edges give one contact
//      on the common normal of their lines (phi = n . (b0 - a0), the point midway between the
//      lines' closest points); a face against anything gives the deepest of the other feature's
//      vertices below that face.
// A padded hull's padding is a margin: a vertex counts when it is within the combined padding of
// the other's facet planes (exact on the faces; at edges and corners the planes' offset envelope
// stands for the rounded one).
#pragma once

#include <vector>

#include "core/geometry/gjk.h"
#include "core/math/se3.h"
#include "models/point_contact/kernel_geometry.h"

namespace arena::contact {

/// The supporting features of two overlapping hulls along EPA's normal (step 3 above), as
/// indices into the hulls' vertex lists (ColliderGeometry::hull->vertices) and facets.
struct CrossingFeatures {
  enum class Kind { kNone, kEdgeEdge, kFaceOfA, kFaceOfB };
  Kind kind = Kind::kNone;
  int a0 = -1, a1 = -1, b0 = -1, b1 = -1;  // kEdgeEdge: A's edge and B's edge
  int face = -1;                           // kFaceOfA / kFaceOfB: the facet of that hull
  std::vector<int> others;                 // the other hull's supporting vertices
  Vec3 normal_W = Vec3::Zero();            // EPA's normal, from A to B
};

/// Step 1 in double: whether the hulls (with their paddings) overlap or touch.
bool HullsOverlap(const ColliderGeometry& A, const SE3& XA, const ColliderGeometry& B, const SE3& XB);
/// Step 3's discrete part: EPA's normal, and the features supporting A along it and B against
/// it (kind kNone when the hulls only touch).
CrossingFeatures FindCrossingFeatures(const ColliderGeometry& A, const SE3& XA,
                                      const ColliderGeometry& B, const SE3& XB);

namespace detail {

template <class T>
SE3 ValuePose(const PoseT<T>& X) {
  return SE3(X.R.unaryExpr([](const T& x) { return Val(x); }),
             X.p.unaryExpr([](const T& x) { return Val(x); }));
}

// Vertices of B (rows of `vertices`, B's frame; B's padding r_vertex) inside hull A's facet planes
// expanded by the combined padding: each is a contact on A's facet of least penetration, midway
// between the padded surfaces. `sign` -1 flips the normal (the caller swapped A and B).
template <class T>
void VerticesInFacets(const PoseT<T>& XA, const ColliderGeometry& A, const PoseT<T>& XB,
                      const Eigen::Matrix<double, Eigen::Dynamic, 3>& vertices, double r_vertex,
                      double sign, std::vector<ContactPointT<T>>* out) {
  const double margin = A.radius + r_vertex;
  // Decide in double (the AD run makes the same choices), then recompute the winner in T.
  const SE3 X_AB = ValuePose(XA).Inverse() * ValuePose(XB);
  const double reach = A.bound_radius + margin;
  // The facet that last showed a vertex outside: neighbouring vertices of a mesh are mostly
  // outside the same facet, so testing it first rejects them in one plane test instead of a scan
  // (the inside test and the facet chosen for an inside vertex are unchanged).
  int last_separating = -1;
  for (int j = 0; j < vertices.rows(); ++j) {
    const Vec3 x = X_AB.Act(vertices.row(j).transpose());
    if ((x - A.bound_centre).squaredNorm() > reach * reach) continue;
    if (last_separating >= 0 && A.normals.row(last_separating).dot(x) - A.offsets[last_separating] >= margin) continue;
    int best = -1;
    double best_d = -1e300;
    bool inside = true;
    for (int i = 0; i < A.normals.rows() && inside; ++i) {
      const double d = A.normals.row(i).dot(x) - A.offsets[i];
      if (d >= margin) {
        inside = false;
        last_separating = i;
      }
      if (d > best_d) {
        best_d = d;
        best = i;
      }
    }
    if (!inside) continue;
    const V3<T> v = XB.Act(vertices.row(j).transpose());
    const V3<T> n = XA.R * A.normals.row(best).transpose().cast<T>();
    const T phi = n.dot(v - XA.p) - T(A.offsets[best] + margin);
    out->push_back({v - (T(r_vertex) + T(0.5) * phi) * n, T(sign) * n, phi});
  }
}

// Two crossing edges a0-a1 (A) and b0-b1 (B): one contact on their lines' common normal,
// oriented along EPA's normal (A to B).
template <class T>
void EdgeEdgeContact(const V3<T>& a0, const V3<T>& a1, const V3<T>& b0, const V3<T>& b1,
                     double margin, const Vec3& normal_W, std::vector<ContactPointT<T>>* out) {
  const V3<T> u = a1 - a0, w = b1 - b0;
  V3<T> n = u.cross(w);
  const T len = n.norm();
  if (Val(len) <= 1e-12 * Val(u.norm()) * Val(w.norm())) return;  // parallel: no crossing
  n /= len;
  if (Val(n[0]) * normal_W[0] + Val(n[1]) * normal_W[1] + Val(n[2]) * normal_W[2] < 0.0) n = -n;
  const T phi = n.dot(b0 - a0) - T(margin);
  if (Val(phi) >= 0.0) return;
  // Closest points a0 + s u, b0 + t w of the two lines.
  const V3<T> r = a0 - b0;
  const T uu = u.dot(u), uw = u.dot(w), ww = w.dot(w), ur = u.dot(r), wr = w.dot(r);
  const T den = uu * ww - uw * uw;
  const T s = (uw * wr - ww * ur) / den;
  const T t = (uu * wr - uw * ur) / den;
  out->push_back({T(0.5) * (a0 + s * u + b0 + t * w), n, phi});
}

// The deepest of `others` (vertices of the hull H_other, posed at X_other) below facet `face` of
// hull H (posed at X): one contact with the facet's normal, flipped by `sign`.
template <class T>
void DeepestBelowFacet(const PoseT<T>& X, const ColliderGeometry& H, int face,
                       const PoseT<T>& X_other, const ColliderGeometry& H_other,
                       const std::vector<int>& others, double sign,
                       std::vector<ContactPointT<T>>* out) {
  const double margin = H.radius + H_other.radius;
  const V3<T> n = X.R * H.normals.row(face).transpose().cast<T>();
  int best = -1;
  T best_phi = T(0.0);
  for (int k : others) {
    const V3<T> v = X_other.Act(H_other.hull->vertices.row(k).transpose());
    const T phi = n.dot(v - X.p) - T(H.offsets[face] + margin);
    if (best < 0 || Val(phi) < Val(best_phi)) {
      best = k;
      best_phi = phi;
    }
  }
  if (best < 0 || Val(best_phi) >= 0.0) return;
  const V3<T> v = X_other.Act(H_other.hull->vertices.row(best).transpose());
  out->push_back({v - (T(H_other.radius) + T(0.5) * best_phi) * n, T(sign) * n, best_phi});
}

}  // namespace detail

/// Contacts between two hull or mesh colliders (normals from A to B).
template <class T>
void HullContacts(const ColliderGeometry& A, const PoseT<T>& XA, const ColliderGeometry& B,
                  const PoseT<T>& XB, std::vector<ContactPointT<T>>* out) {
  const SE3 XAv = detail::ValuePose(XA), XBv = detail::ValuePose(XB);
  if (!HullsOverlap(A, XAv, B, XBv)) return;
  const size_t first = out->size();
  detail::VerticesInFacets(XA, A, XB, B.vertices, B.radius, 1.0, out);
  detail::VerticesInFacets(XB, B, XA, A.vertices, A.radius, -1.0, out);
  if (out->size() > first) return;
  const CrossingFeatures f = FindCrossingFeatures(A, XAv, B, XBv);
  using K = CrossingFeatures::Kind;
  if (f.kind == K::kEdgeEdge) {
    const auto& va = A.hull->vertices;
    const auto& vb = B.hull->vertices;
    detail::EdgeEdgeContact<T>(XA.Act(va.row(f.a0).transpose()), XA.Act(va.row(f.a1).transpose()),
                               XB.Act(vb.row(f.b0).transpose()), XB.Act(vb.row(f.b1).transpose()),
                               A.radius + B.radius, f.normal_W, out);
  } else if (f.kind == K::kFaceOfA) {
    detail::DeepestBelowFacet(XA, A, f.face, XB, B, f.others, 1.0, out);
  } else if (f.kind == K::kFaceOfB) {
    detail::DeepestBelowFacet(XB, B, f.face, XA, A, f.others, -1.0, out);
  }
}

}  // namespace arena::contact
