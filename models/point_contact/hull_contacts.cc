#include "models/point_contact/hull_contacts.h"

#include <algorithm>

namespace arena::contact {

namespace {

// Hull vertices within `tolerance` of the support value along dir_S (the hull's frame).
std::vector<int> SupportingVertices(const ConvexHullData& hull, const Vec3& dir_S, double tolerance) {
  const VecX heights = hull.vertices * dir_S;
  const double top = heights.maxCoeff();
  std::vector<int> out;
  for (int i = 0; i < heights.size(); ++i) {
    if (heights[i] >= top - tolerance) out.push_back(i);
  }
  return out;
}

// The facet whose outward normal is closest to dir_S.
int FacetAlong(const ColliderGeometry& g, const Vec3& dir_S) {
  int best = 0;
  (g.normals * dir_S).maxCoeff(&best);
  return best;
}

}  // namespace

bool HullsOverlap(const ColliderGeometry& A, const SE3& XA, const ColliderGeometry& B, const SE3& XB) {
  const double reach = A.bound_radius + B.bound_radius + A.radius + B.radius;
  if ((XA.Act(A.bound_centre) - XB.Act(B.bound_centre)).squaredNorm() > reach * reach) return false;
  return GjkDistance(A.hull_shape, XA, B.hull_shape, XB).intersecting;
}

CrossingFeatures FindCrossingFeatures(const ColliderGeometry& A, const SE3& XA,
                                      const ColliderGeometry& B, const SE3& XB) {
  CrossingFeatures f;
  const SignedDistanceResult depth = ConvexSignedDistance(A.hull_shape, XA, B.hull_shape, XB);
  if (!(depth.distance < 0.0)) return f;  // touching only
  const Vec3& normal_W = depth.normal_W;
  f.normal_W = normal_W;
  // A support set is a vertex, an edge or a face; the tolerance absorbs EPA's rounding only.
  const Vec3 nA = XA.rotation().transpose() * normal_W;
  const Vec3 nB = -(XB.rotation().transpose() * normal_W);
  const std::vector<int> fa = SupportingVertices(*A.hull, nA, 1e-9 * std::max(1.0, A.bound_radius));
  const std::vector<int> fb = SupportingVertices(*B.hull, nB, 1e-9 * std::max(1.0, B.bound_radius));
  using K = CrossingFeatures::Kind;
  if (fa.size() >= 3) {
    f.kind = K::kFaceOfA;
    f.face = FacetAlong(A, nA);
    f.others = fb;
  } else if (fb.size() >= 3) {
    f.kind = K::kFaceOfB;
    f.face = FacetAlong(B, nB);
    f.others = fa;
  } else if (fa.size() == 2 && fb.size() == 2) {
    f.kind = K::kEdgeEdge;
    f.a0 = fa[0];
    f.a1 = fa[1];
    f.b0 = fb[0];
    f.b1 = fb[1];
  }
  return f;
}

}  // namespace arena::contact
